"""The fast paths answer as the slow paths do (see references.py for the shared parts).

V1 claims: names remembered, defaulting.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from webhook.field import ROOT
from webhook.rules.v1 import declared
from webhook.rules.v1 import defaults as v1_defaults
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


# --- v1 defaulting: the value given back when no default applies -------------------------------------------


def reference_defaulted_request(request: Any) -> Any:
    """`SetDefaults_ExactDeviceRequest` / `SetDefaults_DeviceSubRequest` as a copy every time."""
    if not isinstance(request, dict):
        return request
    defaulted = dict(request)
    mode = request.get("allocationMode")
    if mode is None or mode == "":
        mode = defaulted["allocationMode"] = "ExactCount"
    count = request.get("count")
    if mode == "ExactCount" and (count is None or (type(count) is int and count == 0)):
        defaulted["count"] = 1
    if isinstance(request.get("tolerations"), list):
        defaulted["tolerations"] = [
            {**t, "operator": "Equal"} if isinstance(t, dict) and t.get("operator") in (None, "") else t
            for t in request["tolerations"]
        ]
    return defaulted


_TOLERATIONS = st.lists(
    st.sampled_from(
        [{"key": "k"}, {"key": "k", "operator": ""}, {"operator": "Exists"}, {"operator": 0}, "x"]
    ),
    max_size=2,
)
_DEVICE_REQUESTS = st.fixed_dictionaries(
    {},
    optional={
        "allocationMode": st.sampled_from([None, "", "ExactCount", "All", 0]),
        "count": st.sampled_from([None, 0, 1, 2, 0.0, False, "0"]),
        "tolerations": _TOLERATIONS | st.none(),
        "deviceClassName": st.just("gpu"),
    },
)


@given(
    st.lists(st.one_of(_DEVICE_REQUESTS, st.just("x")), max_size=3), st.lists(_DEVICE_REQUESTS, max_size=2)
)
@settings(max_examples=600, deadline=None)
def test_v1_defaulting_copies_only_what_it_defaults(exactly: list[Any], subrequests: list[Any]) -> None:
    requests: list[Any] = [{"name": f"r{i}", "exactly": item} for i, item in enumerate(exactly)]
    requests.append({"name": "s", "firstAvailable": subrequests})
    spec = {"devices": {"requests": requests}}
    given_spec = copy.deepcopy(spec)
    expected = {
        "devices": {
            "requests": [
                {"name": f"r{i}", "exactly": reference_defaulted_request(item)}
                for i, item in enumerate(exactly)
            ]
            + [{"name": "s", "firstAvailable": [reference_defaulted_request(sub) for sub in subrequests]}]
        }
    }
    defaulted = v1_defaults.defaulted_claim_spec(spec)
    assert defaulted == expected
    assert spec == given_spec  # nothing given is changed
    assert (defaulted is spec) is (expected == given_spec and json.dumps(expected) == json.dumps(given_spec))


@given(
    st.lists(
        st.one_of(st.fixed_dictionaries({}, optional={"tolerations": _TOLERATIONS}), st.just("x")), max_size=3
    )
)
@settings(max_examples=300, deadline=None)
def test_v1_status_defaulting_copies_only_what_it_defaults(results: list[Any]) -> None:
    def tolerations_of(items: list[Any]) -> list[Any]:
        return [r.get("tolerations") if isinstance(r, dict) else None for r in items]

    status = {"allocation": {"devices": {"results": results}}}
    expected = [
        reference_defaulted_request({"tolerations": t, "allocationMode": "All"})["tolerations"]
        if isinstance(t, list)
        else t
        for t in tolerations_of(results)
    ]
    defaulted = v1_defaults.defaulted_claim_status(status)
    found = tolerations_of(defaulted["allocation"]["devices"]["results"])
    assert found == expected
    assert (defaulted is status) is (json.dumps(found) == json.dumps(tolerations_of(results)))
