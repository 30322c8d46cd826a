"""The fast paths answer as the slow paths do (see references.py for the shared parts).

V1 claims: names remembered.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from webhook.field import ROOT
from webhook.rules.v1 import declared
from webhook.rules.v1 import names as v1_names
from webhook.rules.v1.remembered import ValidValues

# --- v1 names found valid, remembered ---------------------------------------------------------------------


_REMEMBERED = {
    "VALID_QUALIFIED_NAMES": v1_names._validate_qualified_name,
    "VALID_DNS_LABELS": v1_names.validate_dns_label,
    "VALID_DNS_SUBDOMAINS": v1_names.validate_dns_subdomain,
    "VALID_DRIVER_NAMES": v1_names.validate_driver_name,
}
_NAME_LIKE = st.one_of(
    st.sampled_from(
        [
            "",
            "gpu",
            "gpu.example.com",
            "GPU.example.com",
            "node-1",
            "node-1/part",
            "a/b/c",
            "gpus/large",
            "-a",
            "a" * 63,
            "a" * 64,
            "a." * 127,
            "x" * 254,
            "resource.kubernetes.io/pcieRoot",
            "example.com/",
            "é",
        ]
    ),
    st.text(alphabet="aZ09-./_é", max_size=12),
)


@given(st.sampled_from(sorted(_REMEMBERED)), _NAME_LIKE)
@settings(max_examples=1500, deadline=None)
def test_a_remembered_name_is_one_its_check_finds_nothing_in(which: str, value: str) -> None:
    remembered: ValidValues = getattr(v1_names, which)
    valid = not _REMEMBERED[which](value, ROOT.child("x"))
    for _ in range(2):
        assert remembered.holds(value) is valid
    assert (value in remembered) is (valid and len(value) <= 256)


@given(_NAME_LIKE)
@settings(max_examples=500, deadline=None)
def test_a_remembered_declarative_driver_is_one_its_tags_find_nothing_in(value: str) -> None:
    valid = not declared._driver(value, ROOT.child("x"))
    for _ in range(2):
        assert declared.VALID_DRIVERS.holds(value) is valid
