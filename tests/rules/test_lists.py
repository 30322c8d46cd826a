"""`validate_named_entries`: the named-list loop of driverRequests, filters, vendorParameters and the
namedResources instances and attributes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tests.rules.expected import BAD, SUBDOMAIN_MSG, rendered
from webhook.field import ROOT, ErrorList, ErrorType, FieldPath, required
from webhook.rules.lists import validate_named_entries
from webhook.rules.names import validate_dns_subdomain

ITEMS = ROOT.child("items")


def needs_size(entry: Mapping[str, Any], path: FieldPath) -> ErrorList:
    return [] if "size" in entry else [required(path.child("size"), "")]


def test_each_name_is_checked_then_repeated_then_the_entry() -> None:
    entries = [{"name": "a", "size": 1}, {"name": BAD}, {"name": BAD, "size": 2}, None, "x"]
    errs = validate_named_entries(
        entries, ITEMS, name_field="name", validate_name=validate_dns_subdomain, validate_entry=needs_size
    )
    bad_name = f'Invalid value: "{BAD}": {SUBDOMAIN_MSG}'
    empty_name = f'Invalid value: "": {SUBDOMAIN_MSG}'
    assert rendered(errs) == [
        (ErrorType.INVALID, "items[1].name", f"items[1].name: {bad_name}"),
        (ErrorType.REQUIRED, "items[1].size", "items[1].size: Required value"),
        # A repeated name is format-checked as well as reported (unlike validateSliceIsASet).
        (ErrorType.INVALID, "items[2].name", f"items[2].name: {bad_name}"),
        (ErrorType.DUPLICATE, "items[2].name", f'items[2].name: Duplicate value: "{BAD}"'),
        # Entries that are not objects read as {}: an empty name, seen once, then repeated.
        (ErrorType.INVALID, "items[3].name", f"items[3].name: {empty_name}"),
        (ErrorType.REQUIRED, "items[3].size", "items[3].size: Required value"),
        (ErrorType.INVALID, "items[4].name", f"items[4].name: {empty_name}"),
        (ErrorType.DUPLICATE, "items[4].name", 'items[4].name: Duplicate value: ""'),
        (ErrorType.REQUIRED, "items[4].size", "items[4].size: Required value"),
    ]


def test_the_name_field_is_the_callers_and_the_entry_check_is_optional() -> None:
    entries = [{"driverName": "a"}, {"driverName": "a"}]
    errs = validate_named_entries(
        entries, ITEMS, name_field="driverName", validate_name=validate_dns_subdomain
    )
    assert rendered(errs) == [
        (ErrorType.DUPLICATE, "items[1].driverName", 'items[1].driverName: Duplicate value: "a"')
    ]
