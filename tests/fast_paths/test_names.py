"""The fast paths answer as the slow paths do (see references.py for the shared parts).

Names: the reference algorithms, lists of names and the code-point scanners.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fast_paths.references import (
    _bytes,
    name_like,
    reference_label_value,
    reference_qualified_name,
    reference_subdomain,
)
from webhook.field import (
    ROOT,
    ErrorList,
    FieldPath,
    invalid,
    required,
    too_long,
)
from webhook.rules import names
from webhook.rules.values import mapping, optional_mapping


def reference_label(value: str) -> list[str]:
    errs = []
    if _bytes(value) > names.DNS1123_LABEL_MAX_LENGTH:
        errs.append(names.max_len_msg(names.DNS1123_LABEL_MAX_LENGTH))
    if not names._DNS1123_LABEL_RE.fullmatch(value):
        if names._DNS1123_SUBDOMAIN_RE.fullmatch(value):
            errs.append("must not contain dots")
        else:
            errs.append(names.DNS1123_LABEL_MSG)
    return errs


def reference_csi_driver_name(value: str, path: FieldPath) -> ErrorList:
    errs: ErrorList = []
    if not value:
        errs.append(required(path, ""))
    if _bytes(value) > names.CSI_DRIVER_NAME_MAX_LENGTH:
        errs.append(too_long(path, value, names.CSI_DRIVER_NAME_MAX_LENGTH))
    errs.extend(invalid(path, value, msg) for msg in reference_subdomain(names.go_to_lower(value)))
    return errs


@given(name_like)
@settings(max_examples=1500, deadline=None)
def test_name_checks_answer_as_their_reference_algorithms(value: str) -> None:
    assert names.is_dns1123_subdomain(value) == reference_subdomain(value)
    assert names.is_valid_dns1123_subdomain(value) == (reference_subdomain(value) == [])
    assert names.is_dns1123_label(value) == reference_label(value)
    assert names.is_qualified_name(value) == reference_qualified_name(value)
    assert names.is_valid_label_value(value) == reference_label_value(value)
    assert names.byte_length(value) == _bytes(value)
    path = ROOT.child("driverName")
    assert names.validate_csi_driver_name(value, path) == reference_csi_driver_name(value, path)
    assert names.validate_dns_subdomain(value, path) == [
        invalid(path, value, msg) for msg in reference_subdomain(value)
    ]


@pytest.mark.parametrize("value", ["\ud800", "a\udcff", "node-\ud83d"])
def test_lone_surrogates_take_the_slow_path(value: str) -> None:
    assert names.is_dns1123_subdomain(value) == reference_subdomain(value)
    assert names.byte_length(value) == _bytes(value)


# --- lists of names (webhook.rules.names) and the object readers -------------------------------------


node_names = st.lists(
    st.one_of(
        st.sampled_from(["node-1", "node-2", "Node_3", "", "a" * 254]), name_like, st.none(), st.integers()
    ),
    max_size=140,
)


@pytest.mark.parametrize("value", [{}, {"a": 1}, None, [], "text", 0, ()])
def test_mapping_readers_keep_their_answers(value: Any) -> None:
    from collections.abc import Mapping

    expected = value if isinstance(value, Mapping) else None
    assert optional_mapping(value) is expected
    assert mapping(value) == (expected if expected is not None else {})


# --- names: the code-point scanners against the regexes -------------------------------------------------
# The code-point scanners of `names` against the regexes, on qualified names built from parts whose
# lengths straddle the limits (a prefix of 253 or 254 characters, a name part of 63 or 64).

_PREFIX_LABELS = st.sampled_from(["a", "b0", "x-y", "Z", "-", "", "é", "a_b"])
qualified_parts = st.builds(
    lambda prefix, prefix_length, name, name_length, slash: (
        (prefix * 300)[:prefix_length] + slash + (name * 70)[:name_length]
    ),
    st.lists(_PREFIX_LABELS, min_size=1, max_size=3).map(".".join),
    st.sampled_from([0, 1, 2, 63, 64, 252, 253, 254]),
    st.sampled_from(["a", "Ab", "a-", "a_B.9", "a/b", "é"]),
    st.sampled_from([0, 1, 2, 62, 63, 64]),
    st.sampled_from(["/", "", "//"]),
)


@given(st.one_of(qualified_parts, name_like))
@settings(max_examples=1500, deadline=None)
def test_scanned_names_answer_as_the_regexes(value: str) -> None:
    assert names.is_valid_qualified_name(value) == (reference_qualified_name(value) == [])
    assert names.is_valid_annotation_key(value) == (reference_qualified_name(names.go_to_lower(value)) == [])
    assert names.is_valid_label("a", value) == (reference_label_value(value) == [])
    assert names.is_valid_dns1123_subdomain(value) == (reference_subdomain(value) == [])
    assert names.is_dns1123_label(value) == reference_label(value)
    prefix = value.partition("/")[0]
    assert names.is_valid_dns1123_subdomain(prefix) == (reference_subdomain(prefix) == [])


@given(st.one_of(st.text(), st.text(alphabet=' \t\n\x1c\x85\xa0\u2028\u3000"ab=\\', max_size=6)))
@settings(max_examples=2000, deadline=None)
def test_text_log_values_are_quoted_as_any_space_or_quote_asked(value: str) -> None:
    from webhook.logs import _text_value

    quoted = not value or any(char.isspace() or char == '"' for char in value)
    assert _text_value(value) == (f'"{value}"' if quoted else value)
