"""Lists whose entries are known by a name field, checked the way Go writes it five times in 1.30's
resource validation: ResourceClaimParameters.driverRequests, ResourceClassParameters.filters and
.vendorParameters (keyed by `driverName`, `pkg/apis/resource/validation`), and the namedResources
instances of a ResourceSlice and their attributes (keyed by `name`,
`pkg/apis/resource/structured/namedresources/validation`).

Unlike `validateSliceIsASet`, a repeated name is format-checked too: the Duplicate is reported as
well, not instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from webhook.field import ErrorList, FieldPath, duplicate
from webhook.rules.values import mapping, text

__all__ = ["EntryCheck", "NameCheck", "validate_named_entries"]

NameCheck = Callable[[str, FieldPath], ErrorList]
EntryCheck = Callable[[Mapping[str, Any], FieldPath], ErrorList]


def validate_named_entries(
    entries: Sequence[Any],
    path: FieldPath,
    *,
    name_field: str,
    validate_name: NameCheck,
    validate_entry: EntryCheck | None = None,
) -> ErrorList:
    """Per entry, in order: its name through `validate_name`, a Duplicate at the name's path when
    an earlier entry has the same name, then the entry's own check, if any."""
    errs: ErrorList = []
    seen: set[str] = set()
    for i, raw in enumerate(entries):
        entry, at = mapping(raw), path.index(i)
        name, name_path = text(entry.get(name_field)), at.child(name_field)
        errs += validate_name(name, name_path)
        if name in seen:
            errs.append(duplicate(name_path, name))
        else:
            seen.add(name)
        if validate_entry is not None:
            errs += validate_entry(entry, at)
    return errs
