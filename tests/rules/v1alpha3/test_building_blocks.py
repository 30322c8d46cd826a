"""The building blocks the v1alpha3 kinds share: 1.31's generic list checks, its names, its defaulter
and how an update's two passes are reported."""

from __future__ import annotations

from typing import Any

import pytest

from webhook.field import ROOT, ErrorList, FieldPath, invalid, required
from webhook.rules.v1alpha3.defaults import defaulted_claim_spec, defaulted_request
from webhook.rules.v1alpha3.identifiers import (
    validate_fully_qualified_name,
    validate_pool_name,
    validate_qualified_name,
)
from webhook.rules.v1alpha3.slices import string_key, validate_map, validate_set, validate_slice
from webhook.rules.v1alpha3.strategy import create_then_update

PATH = ROOT.child("items")


def must_be_lower(item: Any, path: FieldPath) -> ErrorList:
    return [] if str(item).islower() else [invalid(path, item, "lower")]


def test_a_slice_reports_its_items_then_its_length() -> None:
    assert [str(err) for err in validate_slice(["a", "B", "c"], 2, must_be_lower, PATH)] == [
        'items[1]: Invalid value: "B": lower',
        "items: Too long: may not be longer than 2",
    ]


def test_a_negative_limit_is_no_limit() -> None:
    assert validate_slice(["a"] * 1000, -1, must_be_lower, PATH) == []


def test_a_set_checks_every_item_then_the_limit_then_the_duplicates() -> None:
    assert [str(err) for err in validate_set(["B", "a", "B"], 2, must_be_lower, string_key, PATH)] == [
        'items[0]: Invalid value: "B": lower',
        'items[2]: Invalid value: "B": lower',
        "items: Too long: may not be longer than 2",
        'items[2]: Duplicate value: "B"',
    ]


def test_a_map_reports_keys_at_its_own_path_and_values_at_their_key() -> None:
    def value_required(value: Any, path: FieldPath) -> ErrorList:
        return [] if value else [required(path, "")]

    assert [str(err) for err in validate_map({"B": 1, "c": 0}, 1, must_be_lower, value_required, PATH)] == [
        "items: Too long: may not be longer than 1",
        'items: Invalid value: "B": lower',
        "items[c]: Required value",
    ]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("rack-1", []),
        ("zone/rack-1", []),
        ("", ["pool: Required value"]),
        ("zone//rack", ['pool: Invalid value: "": a lowercase RFC 1123 subdomain']),
    ],
)
def test_pool_names(name: str, expected: list[str]) -> None:
    assert [
        str(err)[: len(row)]
        for err, row in zip(validate_pool_name(name, ROOT.child("pool")), expected, strict=True)
    ] == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("model", []),
        ("gpu.example.com/model", []),
        ("a/b/c", []),  # 1.31 has no case for three parts
        ("", ["Required value: name required"]),
        ("/model", ["Required value: the prefix must not be empty"]),
        ("gpu.example.com/", ["Required value: the name must not be empty"]),
        ("m" * 33, ["Too long: may not be longer than 32"]),
    ],
)
def test_qualified_names(name: str, expected: list[str]) -> None:
    assert [err.body() for err in validate_qualified_name(name, ROOT.child("name"))] == expected


def test_a_fully_qualified_name_has_a_prefix() -> None:
    assert [str(err) for err in validate_fully_qualified_name("model", ROOT.child("match"))] == [
        "match.domain: Required value: must include a prefix"
    ]


@pytest.mark.parametrize(
    ("request_fields", "defaulted"),
    [
        ({}, {"allocationMode": "ExactCount", "count": 1}),
        ({"allocationMode": "ExactCount"}, {"allocationMode": "ExactCount", "count": 1}),
        ({"count": 3}, {"allocationMode": "ExactCount", "count": 3}),
        ({"allocationMode": "All"}, {"allocationMode": "All"}),
        ({"allocationMode": "Other"}, {"allocationMode": "Other"}),
    ],
)
def test_the_defaulter_fills_mode_and_count(
    request_fields: dict[str, Any], defaulted: dict[str, Any]
) -> None:
    assert dict(defaulted_request(request_fields)) == defaulted
    spec = defaulted_claim_spec({"devices": {"requests": [request_fields]}})
    assert spec["devices"]["requests"] == [defaulted]


def test_an_update_reports_the_create_pass_only_where_the_update_pass_does_not_repeat_it() -> None:
    once = invalid(ROOT.child("a"), "x", "both passes")
    twice = [invalid(ROOT.child("b"), "y", "twice in the create pass")] * 2
    only_create = required(ROOT.child("c"), "create pass only")
    update = [invalid(ROOT.child("d"), "z", "update"), once, twice[0]]
    assert create_then_update([only_create, once, *twice], update) == [only_create, twice[1], *update]
    assert create_then_update([], update) == update
