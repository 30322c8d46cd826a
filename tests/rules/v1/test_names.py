"""The names of resource.k8s.io/v1 as 1.37's hand-written validation checks them."""

from __future__ import annotations

import pytest

from webhook.field import ROOT
from webhook.rules.names import DNS1123_LABEL_MSG
from webhook.rules.v1.declarative import C_IDENTIFIER_MSG
from webhook.rules.v1.names import (
    uuid_parse_error,
    validate_counter_name,
    validate_device_name,
    validate_driver_name,
    validate_fully_qualified_name,
    validate_pool_name,
    validate_qualified_name,
    validate_uid,
)

X = ROOT.child("x")


def test_an_empty_driver_name_is_only_required() -> None:
    errors = validate_driver_name("", X, required_covered=True)
    assert [(error.type.value, error.covered_by_declarative) for error in errors] == [
        ("FieldValueRequired", True)
    ]


def test_driver_names_are_lower_cased_and_limited_to_63_bytes() -> None:
    assert validate_driver_name("DRA.Example.COM", X) == []
    errors = validate_driver_name("a" * 64, X, size_covered=True)
    assert [(error.body(), error.origin, error.covered_by_declarative) for error in errors] == [
        ("Too long: may not be more than 63 bytes", "maxLength", True)
    ]


def test_pool_names_are_slash_separated_subdomains() -> None:
    assert validate_pool_name("a/b.c", X) == []
    assert [error.body() for error in validate_pool_name("", X)] == ["Required value"]
    errors = validate_pool_name("a//B", X)
    assert [error.bad_value for error in errors] == ["", "B"]
    assert {error.origin for error in errors} == {"format=k8s-resource-pool-name"}


def test_device_names_are_dns_labels() -> None:
    assert validate_device_name("gpu-0", X) == []
    assert [error.detail for error in validate_device_name("gpu.0", X)] == ["must not contain dots"]


@pytest.mark.parametrize(
    ("uid", "problem"),
    [
        ("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa", None),
        ("a", "invalid UUID length: 1"),
        ("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaa-", "invalid UUID format"),
        ("{aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa}", None),
        ("urn:uuid:aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa", None),
        ("urx:uuid:aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa", 'invalid urn prefix: "urx:uuid:"'),
        ("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", None),
    ],
)
def test_uuid_parse_errors_are_google_uuids(uid: str, problem: str | None) -> None:
    assert uuid_parse_error(uid) == problem


@pytest.mark.parametrize(
    ("uid", "details"),
    [
        ("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa", []),
        ("a", ["error validating uid: invalid UUID length: 1"]),
        (
            "Aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa",
            [
                "uid must be in RFC 4122 normalized form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` "
                "with lowercase hexadecimal characters"
            ],
        ),
    ],
)
def test_share_ids_are_normalized_uuids(uid: str, details: list[str]) -> None:
    assert [error.detail for error in validate_uid(uid, X)] == details


def test_fully_qualified_names_need_a_domain() -> None:
    assert validate_fully_qualified_name("dra.example.com/model", X) == []
    errors = validate_fully_qualified_name("model", X)
    assert [error.detail for error in errors][
        -1
    ] == "a fully qualified name must be a domain and a name separated by a slash"
    assert {error.origin for error in errors} == {"format=k8s-resource-fully-qualified-name"}


def test_a_fully_qualified_name_prints_as_json() -> None:
    # resource.FullyQualifiedName is a named string type: encoding/json, not %q.
    (error,) = validate_fully_qualified_name("<x>", X)[-1:]
    assert error.body().startswith('Invalid value: "\\u003cx\\u003e": a fully qualified name')


@pytest.mark.parametrize(
    ("name", "details"),
    [
        ("cores", []),
        ("a" * 64, ["must be no more than 63 characters"]),
        ("Cores", [DNS1123_LABEL_MSG]),
    ],
)
def test_counter_names_are_dns_labels(name: str, details: list[str]) -> None:
    errors = validate_counter_name(name, X)
    assert [error.detail for error in errors] == details
    assert {error.origin for error in errors} <= {"format=k8s-short-name"}


@pytest.mark.parametrize(
    ("name", "details"),
    [
        ("model", []),
        ("dra.example.com/model", []),
        ("a/b/c", []),  # more than one '/' is not looked at in 1.37
        ("/model", ["the domain must not be empty"]),
        ("dra.example.com/", ["the name must not be empty"]),
        ("x" * 33, ["may not be more than 32 bytes"]),
        ("1model", [C_IDENTIFIER_MSG]),
    ],
)
def test_qualified_names(name: str, details: list[str]) -> None:
    assert [error.detail for error in validate_qualified_name(name, X)] == details
