"""Reading decoded JSON the way Go's decoder fills a typed struct.

`null` and an absent key both give the zero value. A value of the wrong JSON type also reads as the
zero value here: the structural check (`webhook.schemas`) reports wrong types before any rule runs,
so these readers only keep the rules from crashing on input that the structural check let through.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Decoded JSON objects are dicts and absent fields are None: both are told apart by exact tests
# that cost a fraction of the `isinstance(value, Mapping)` ABC check, kept for other mappings.
#
# The readers return a `dict` and a `list`, never an abstract Mapping or Sequence: mypyc compiles
# `.get`, `len`, indexing and iteration of a value typed `dict` or `list` to direct C calls, and of
# one typed `Mapping` or `Sequence` to a generic method call, several times dearer. Another kind of
# mapping (a caller's own, through the Python API) is read as a dict copy of it. The rules only read
# what these return: an absent field is a new empty dict or list, not a shared one.


def mapping(value: Any) -> dict[str, Any]:
    """An object field (a struct, or a pointer to one read as a struct): `{}` when null or absent."""
    if type(value) is dict:
        return value
    return dict(value) if value is not None and isinstance(value, Mapping) else {}


def optional_mapping(value: Any) -> dict[str, Any] | None:
    """A pointer-to-struct field: None when null or absent, so that `{}` and absent stay distinct."""
    if type(value) is dict:
        return value
    return dict(value) if value is not None and isinstance(value, Mapping) else None


def sequence(value: Any) -> list[Any]:
    """A list field: `[]` when null or absent."""
    return value if isinstance(value, list) else []


def text(value: Any) -> str:
    """A string field: `""` when null or absent."""
    return value if isinstance(value, str) else ""


def flag(value: Any) -> bool:
    """A bool field: false when null or absent."""
    return value if isinstance(value, bool) else False


def integer(value: Any) -> int:
    """An integer field: 0 when null or absent."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def string_map(value: Any) -> Mapping[str, str]:
    """A map[string]string (labels, annotations): non-string values read as ""."""
    return {str(k): text(v) for k, v in mapping(value).items()}
