"""The format and limit checks of apimachinery's `pkg/api/validate` (1.37) as the v1 tags use them."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from webhook.field import ROOT, ErrorList
from webhook.rules.v1 import declarative

X = ROOT.child("x")


def details(errors: ErrorList) -> list[str]:
    return [error.body() for error in errors]


@pytest.mark.parametrize(
    ("check", "value", "bodies", "origin"),
    [
        (declarative.long_name, "a.b-c", [], ""),
        (
            declarative.long_name,
            "a" * 254,
            ['Invalid value: "' + "a" * 254 + '": must be no more than 253 bytes'],
            "format=k8s-long-name",
        ),
        (declarative.long_name_caseless, "DRA.Example.COM", [], ""),
        (declarative.uuid, "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa", [], ""),
        (
            declarative.uuid,
            "Aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa",
            [
                'Invalid value: "Aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa": must be a lowercase UUID in 8-4-4-4-12 format'
            ],
            "format=k8s-uuid",
        ),
        (
            declarative.uuid,
            "a",
            ['Invalid value: "a": must be a lowercase UUID in 8-4-4-4-12 format'],
            "format=k8s-uuid",
        ),
        (
            declarative.resource_pool_name,
            "a//b",
            ['Invalid value: "a//b": segment 1: must not be empty'],
            "format=k8s-resource-pool-name",
        ),
        (declarative.resource_pool_name, "a/b/c", [], ""),
        (declarative.resource_fully_qualified_name, "dra.example.com/model", [], ""),
        (
            declarative.resource_fully_qualified_name,
            "/x",
            ['Invalid value: "": prefix must not be empty'],
            "format=k8s-resource-fully-qualified-name",
        ),
        (
            declarative.resource_fully_qualified_name,
            "a/b/c",  # more than one '/' is not checked in 1.37 (a TODO of strfmt.go)
            [],
            "",
        ),
        (
            declarative.extended_resource_name,
            "example.com",
            [
                "Invalid value: \"example.com\": a name must be a domain-prefixed path, such as 'example.com/my-prop'"
            ],
            "format=k8s-extended-resource-name",
        ),
    ],
)
def test_formats(
    check: Callable[[str, object], ErrorList], value: str, bodies: list[str], origin: str
) -> None:
    errors = check(value, X)
    assert details(errors) == bodies
    assert all(error.origin == origin for error in errors)


def test_max_length_counts_characters_not_bytes() -> None:
    assert declarative.max_length("é" * 32, 63, X) == []  # 64 bytes, 32 characters
    assert details(declarative.max_length("a" * 64, 63, X)) == [
        "Too long: may not be more than 63 characters"
    ]


def test_max_items_and_max_bytes() -> None:
    assert details(declarative.max_items(33, 32, X)) == ["Too many: 33: must have at most 32 items"]
    assert details(declarative.max_bytes("x" * 257, 256, X)) == ["Too long: may not be more than 256 bytes"]


def test_unique_reports_each_later_repeat_once_in_index_order() -> None:
    errors = declarative.unique(["a", "b", "a", "a"], lambda x, y: x == y, X, lambda item: item)
    assert [error.field for error in errors] == ["x[2]", "x[3]"]


def test_immutable_and_no_modify_print_a_nil_value() -> None:
    assert details(declarative.immutable(X)) == ["Invalid value: null: field is immutable"]
    assert details(declarative.no_modify(X)) == ["Invalid value: null: field cannot be modified once set"]


@pytest.mark.parametrize(
    ("specified", "bodies"),
    [
        (["bool"], []),
        ([], ['Invalid value: "": must specify one of: `int`, `bool`, `string`']),
        (
            ["int", "string"],
            ['Invalid value: "{int, string}": must specify exactly one of: `int`, `bool`, `string`'],
        ),
    ],
)
def test_union_messages(specified: list[str], bodies: list[str]) -> None:
    errors = declarative.union(specified, ("int", "bool", "string"), X)
    assert details(errors) == bodies
    assert {error.origin for error in errors} <= {"union"}


def test_enum_lists_the_sorted_values_and_prints_the_value_as_json() -> None:
    assert details(declarative.enum("b", ("b", "a"), X)) == []
    assert details(declarative.enum("<F>", ("b", "a"), X)) == [
        'Unsupported value: "\\u003cF\\u003e": supported values: "a", "b"'
    ]


@pytest.mark.parametrize(
    ("check", "value", "bodies", "origin"),
    [
        (declarative.minimum, 1, [], ""),
        (declarative.minimum, 0, ["Invalid value: 0: must be greater than or equal to 1"], "minimum"),
        (declarative.maximum, 1000, [], ""),
        (declarative.maximum, 1001, ["Invalid value: 1001: must be less than or equal to 1000"], "maximum"),
    ],
)
def test_minimum_and_maximum(
    check: Callable[..., ErrorList], value: int, bodies: list[str], origin: str
) -> None:
    limit = 1 if check is declarative.minimum else 1000
    errors = check(value, limit, X)
    assert details(errors) == bodies
    assert {error.origin for error in errors} <= {origin}


@pytest.mark.parametrize(
    ("value", "bodies"),
    [
        ("gpu-0", []),
        ("gpu.0", ['Invalid value: "gpu.0": must not contain dots']),
        ("a" * 64, ['Invalid value: "' + "a" * 64 + '": must be no more than 63 bytes']),
    ],
)
def test_short_names_count_bytes(value: str, bodies: list[str]) -> None:
    assert details(declarative.short_name(value, X)) == bodies
