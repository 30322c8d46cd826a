"""The generic list and map checks of 1.31's resource validation, as Go writes them once and uses for
every list limit of resource.k8s.io/v1alpha3 (`validateSlice`, `validateSet`, `validateMap` in
`pkg/apis/resource/validation/validation.go`).

They differ from 1.30's `validateSliceIsASet` (webhook/rules/v1alpha2/podschedulingcontext.py): every
item is checked, repeated or not; the size limit comes after the items, and prints the count; then a
second pass reports each repeated key as a Duplicate.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from webhook.field import ErrorList, FieldPath, duplicate, too_long_max_length
from webhook.rules.values import text

__all__ = ["ItemCheck", "KeyOf", "string_key", "validate_map", "validate_set", "validate_slice"]

ItemCheck = Callable[[Any, FieldPath], ErrorList]
# An item's key for the duplicate check and the field it is reported at ("" for the item itself).
KeyOf = Callable[[Any], tuple[Hashable, str]]


def validate_slice(
    items: Sequence[Any], max_size: int, validate_item: ItemCheck, path: FieldPath
) -> ErrorList:
    """`validateSlice`: every item at its index, then the limit (a negative `max_size` has none)."""
    errs: ErrorList = []
    for i, item in enumerate(items):
        errs += validate_item(item, path.index(i))
    if max_size >= 0 and len(items) > max_size:
        # Go shows the number of entries, not the list.
        errs.append(too_long_max_length(path, len(items), max_size))
    return errs


def validate_set(
    items: Sequence[Any], max_size: int, validate_item: ItemCheck, key_of: KeyOf, path: FieldPath
) -> ErrorList:
    """`validateSet`: `validate_slice`, then a Duplicate for each item whose key an earlier item has,
    at the item's path or at its key field."""
    errs = validate_slice(items, max_size, validate_item, path)
    seen: set[Hashable] = set()
    for i, item in enumerate(items):
        key, field_name = key_of(item)
        if key in seen:
            at = path.index(i)
            errs.append(duplicate(at.child(field_name) if field_name else at, key))
        else:
            seen.add(key)
    return errs


def string_key(item: Any) -> tuple[Hashable, str]:
    """`stringKey`: a list of strings is keyed by the strings themselves."""
    return text(item), ""


def validate_map(
    entries: Mapping[str, Any],
    max_size: int,
    validate_key: Callable[[str, FieldPath], ErrorList],
    validate_item: ItemCheck,
    path: FieldPath,
) -> ErrorList:
    """`validateMap`: the limit first, then per entry its key -- reported at the map's own path, not at
    the entry's -- and its value at ``path[key]``. Go walks the map in random order; this is the
    document order, one of those Go may take."""
    errs: ErrorList = []
    if max_size >= 0 and len(entries) > max_size:
        errs.append(too_long_max_length(path, len(entries), max_size))
    for key, item in entries.items():
        errs += validate_key(key, path)
        errs += validate_item(item, path.key(key))
    return errs
