"""The name checks read as apimachinery 1.30's `util/validation` and core's `ValidateCSIDriverName`."""

from __future__ import annotations

import pytest

from tests.rules import expected
from tests.rules.expected import QUALIFIED_WITH_PREFIX_MSG
from webhook.field import ROOT, ErrorType
from webhook.rules.names import (
    DNS1123_LABEL_MSG,
    DNS1123_SUBDOMAIN_MSG,
    LABEL_VALUE_MSG,
    QUALIFIED_NAME_MSG,
    byte_length,
    go_to_lower,
    is_dns1123_label,
    is_dns1123_subdomain,
    is_qualified_name,
    is_valid_label_value,
    mask_trailing_dash,
    name_is_dns_subdomain,
    validate_csi_driver_name,
    validate_dns_label,
    validate_dns_subdomain,
    validate_node_name,
)

DRIVER = ROOT.child("driverName")


def test_messages_are_apimachinerys_texts_verbatim() -> None:
    # RegexError joins the examples with " or " after a ", " -- hence the two spaces before "or".
    assert DNS1123_SUBDOMAIN_MSG == expected.SUBDOMAIN_MSG
    assert DNS1123_LABEL_MSG == expected.LABEL_MSG
    assert LABEL_VALUE_MSG == expected.LABEL_VALUE_MSG
    assert "name part " + QUALIFIED_NAME_MSG == expected.NAME_PART_MSG


@pytest.mark.parametrize(
    ("value", "messages"),
    [
        ("abc", []),
        ("a-1", []),
        ("a" * 63, []),
        ("", [DNS1123_LABEL_MSG]),
        ("-a", [DNS1123_LABEL_MSG]),
        ("Abc", [DNS1123_LABEL_MSG]),
        # 1.27+: a value that is a valid subdomain fails only because of its dots.
        ("a.b", ["must not contain dots"]),
        ("a" * 64, ["must be no more than 63 characters"]),
        ("a." * 32 + "a", ["must be no more than 63 characters", "must not contain dots"]),
        ("a_b.c", [DNS1123_LABEL_MSG]),
    ],
)
def test_dns1123_label(value: str, messages: list[str]) -> None:
    assert is_dns1123_label(value) == messages


@pytest.mark.parametrize(
    ("value", "messages"),
    [
        ("example.com", []),
        ("a" * 253, []),
        ("", [DNS1123_SUBDOMAIN_MSG]),
        ("Example.com", [DNS1123_SUBDOMAIN_MSG]),
        ("a..b", [DNS1123_SUBDOMAIN_MSG]),
        ("a" * 254, ["must be no more than 253 characters"]),
        # Go's len counts bytes: 127 two-byte letters are 254 bytes.
        ("é" * 127, ["must be no more than 253 characters", DNS1123_SUBDOMAIN_MSG]),
        ("a\n", [DNS1123_SUBDOMAIN_MSG]),
    ],
)
def test_dns1123_subdomain(value: str, messages: list[str]) -> None:
    assert is_dns1123_subdomain(value) == messages


@pytest.mark.parametrize(
    ("value", "messages"),
    [
        ("MyName", []),
        ("my.name", []),
        ("example.com/MyName", []),
        ("a" * 63, []),
        ("a/b/c", [QUALIFIED_WITH_PREFIX_MSG]),
        ("/a", ["prefix part must be non-empty"]),
        ("Example.com/a", ["prefix part " + DNS1123_SUBDOMAIN_MSG]),
        ("a/", ["name part must be non-empty", "name part " + QUALIFIED_NAME_MSG]),
        ("", ["name part must be non-empty", "name part " + QUALIFIED_NAME_MSG]),
        ("a" * 64, ["name part must be no more than 63 characters"]),
        ("-a", ["name part " + QUALIFIED_NAME_MSG]),
        (
            "/",
            [
                "prefix part must be non-empty",
                "name part must be non-empty",
                "name part " + QUALIFIED_NAME_MSG,
            ],
        ),
    ],
)
def test_qualified_name(value: str, messages: list[str]) -> None:
    assert is_qualified_name(value) == messages


@pytest.mark.parametrize(
    ("value", "messages"),
    [
        ("", []),
        ("My_value.1", []),
        ("a" * 63, []),
        ("a" * 64, ["must be no more than 63 characters"]),
        ("-a", [LABEL_VALUE_MSG]),
        ("a b", [LABEL_VALUE_MSG]),
    ],
)
def test_label_value(value: str, messages: list[str]) -> None:
    assert is_valid_label_value(value) == messages


@pytest.mark.parametrize(
    ("name", "masked"),
    [
        ("abc-", "aba"),  # name[:len-2] + "a": the character before the dash is dropped too
        ("a-", "a"),
        ("-", "-"),  # one byte: left alone
        ("abc", "abc"),
        ("", ""),
        # Go cuts bytes: the first byte of "é" is left behind, and no name regex accepts it.
        ("é-", "\udcc3a"),
    ],
)
def test_mask_trailing_dash_replaces_the_last_two_bytes_by_one_a(name: str, masked: str) -> None:
    assert mask_trailing_dash(name) == masked


@pytest.mark.parametrize(
    ("name", "prefix", "messages"),
    [
        ("abc-", True, []),
        ("abc-", False, [DNS1123_SUBDOMAIN_MSG]),
        ("-", True, [DNS1123_SUBDOMAIN_MSG]),
        # The masking drops the dot, so Go accepts this generateName.
        ("x.-", True, []),
        # 254 bytes, but masking shortens it to 253.
        ("a" * 253 + "-", True, []),
        ("a" * 254 + "-", True, ["must be no more than 253 characters"]),
        ("é-", True, [DNS1123_SUBDOMAIN_MSG]),
    ],
)
def test_name_is_dns_subdomain_masks_only_generate_names(
    name: str, prefix: bool, messages: list[str]
) -> None:
    assert name_is_dns_subdomain(name, prefix) == messages


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Example.COM", []),  # Go lower-cases the driver name before the DNS check
        ("a" * 63, []),
        # U+0130 lower-cases to a plain "i" in Go (simple case mapping), so this name passes.
        ("\u0130ntel.com", []),
        (
            "a" * 64,
            [(ErrorType.TOO_LONG, "driverName: Too long: must have at most 63 bytes")],
        ),
        # 61 ASCII letters and one two-byte letter: 63 bytes, not too long, but not a subdomain.
        (
            "a" * 61 + "é",
            [(ErrorType.INVALID, f'driverName: Invalid value: "{"a" * 61}é": {DNS1123_SUBDOMAIN_MSG}')],
        ),
        # 32 two-byte letters are 64 bytes.
        (
            "é" * 32,
            [
                (ErrorType.TOO_LONG, "driverName: Too long: must have at most 63 bytes"),
                (ErrorType.INVALID, f'driverName: Invalid value: "{"é" * 32}": {DNS1123_SUBDOMAIN_MSG}'),
            ],
        ),
        (
            "foo/path",
            [(ErrorType.INVALID, f'driverName: Invalid value: "foo/path": {DNS1123_SUBDOMAIN_MSG}')],
        ),
        (
            "a" * 254,
            [
                (ErrorType.TOO_LONG, "driverName: Too long: must have at most 63 bytes"),
                (
                    ErrorType.INVALID,
                    f'driverName: Invalid value: "{"a" * 254}": must be no more than 253 characters',
                ),
            ],
        ),
    ],
)
def test_csi_driver_name(value: str, expected: list[tuple[ErrorType, str]]) -> None:
    assert [(err.type, str(err)) for err in validate_csi_driver_name(value, DRIVER)] == expected


def test_empty_driver_name_is_required_and_invalid() -> None:
    errs = validate_csi_driver_name("", DRIVER)
    assert [(err.type, err.field, str(err)) for err in errs] == [
        (ErrorType.REQUIRED, "driverName", "driverName: Required value"),
        (ErrorType.INVALID, "driverName", f'driverName: Invalid value: "": {DNS1123_SUBDOMAIN_MSG}'),
    ]
    assert [err.body() for err in errs] == ["Required value", f'Invalid value: "": {DNS1123_SUBDOMAIN_MSG}']


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("ABC", "abc"),
        ("\u0130", "i"),  # Python's str.lower would give "i" plus U+0307
        ("\u0391\u03a3", "\u03b1\u03c3"),  # ALPHA SIGMA: no final-sigma rule in Go
        ("\u212a", "k"),  # KELVIN SIGN lower-cases to ASCII k in both
    ],
)
def test_go_to_lower_uses_the_simple_case_mapping(value: str, expected: str) -> None:
    assert go_to_lower(value) == expected


def test_field_error_helpers_put_each_message_at_the_path() -> None:
    path = ROOT.child("spec", "nodeName")
    assert [str(err) for err in validate_node_name("Node_1", path)] == [
        f'spec.nodeName: Invalid value: "Node_1": {DNS1123_SUBDOMAIN_MSG}'
    ]
    assert [str(err) for err in validate_dns_subdomain("a" * 254, path)] == [
        f'spec.nodeName: Invalid value: "{"a" * 254}": must be no more than 253 characters'
    ]
    namespace = ROOT.child("parametersRef", "namespace")
    assert [str(err) for err in validate_dns_label("a.b", namespace)] == [
        'parametersRef.namespace: Invalid value: "a.b": must not contain dots'
    ]


def test_byte_length_counts_utf8_bytes() -> None:
    assert byte_length("aé€😀") == 1 + 2 + 3 + 4
