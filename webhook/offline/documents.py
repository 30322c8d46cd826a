"""What reading an input yields: documents with the line each starts on, and `UnreadableInput` for
what cannot be read (exit 2), located as compilers locate it (`file:line:column`).

`sent_number` is the one rule both JSON and YAML input share: kubectl sends an object as JSON, and
Go's `json.Marshal` followed by unstructured decoding (UseNumber) turns integral floats into integers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal


class UnreadableInput(Exception):
    """Input that cannot be read as documents (exit 2): a missing file, a syntax error, a document
    that is not an object. `line` and `column` are 1-based, 0 when unknown."""

    def __init__(self, source: str, reason: str, *, line: int = 0, column: int = 0) -> None:
        super().__init__(reason)
        self.source = source
        self.reason = reason
        self.line = line
        self.column = column

    @property
    def location(self) -> str:
        return location(self.source, self.line, self.column)

    def __str__(self) -> str:
        return f"{self.location}: {self.reason}"


def location(source: str, line: int = 0, column: int = 0) -> str:
    """`source`, `source:line` or `source:line:column`, as compilers name a place (0: unknown)."""
    if not line:
        return source
    if not column:
        return f"{source}:{line}"
    return f"{source}:{line}:{column}"


@dataclass(frozen=True, slots=True)
class Document:
    """One decoded document of a file, the 1-based line it starts on, and the paths of the fields it
    gives twice (``spec.foo``, ``items[0].metadata.name``: sigs.k8s.io/json's words for them), of
    which `data` holds the last, as every decoder kubectl and the API server use keeps it."""

    source: str
    line: int
    data: Any
    duplicates: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ReadResult:
    """The documents read from one input, and the error that stopped the reading, if any.

    Documents before a syntax error are kept: kubectl too acts on the documents it could read."""

    documents: list[Document]
    error: UnreadableInput | None = None
    syntax: Literal["json", "yaml"] = "yaml"


def field_path(parent: str, key: str) -> str:
    """sigs.k8s.io/json's strict field path: keys joined by dots, list indexes in brackets."""
    return f"{parent}.{key}" if parent else key


INT64_MIN: Final = -(2**63)
INT64_MAX: Final = 2**63 - 1


def sent_number(value: float) -> int | float:
    """Go's `json.Marshal` prints an integral float64 without a fraction and unstructured decoding
    reads it back as an int64 when it fits: 1.0 -> 1, 1e3 -> 1000, 1e19 stays a float."""
    if value.is_integer() and INT64_MIN <= value <= INT64_MAX:
        return int(value)
    return value
