"""The structural check: would kube-apiserver even decode this object as its Go type?

Before any validation rule runs, the API server decodes the request body into the kind's Go struct
with `sigs.k8s.io/json`. A value of the wrong JSON type there is a decoding error, and a field the
struct does not have is, with server-side field validation, a warning (``unknown field "spec.foo"``)
or an error. This module answers the same questions from the JSON Schemas in ``schemas/`` (one file
per kind, generated from the OpenAPI of the release each apiVersion is judged as: 1.30 for v1alpha2,
1.31 for v1alpha3, 1.37 for v1, v1beta2 and v1beta1; see ``schemas/README.md``) so that rules only
ever see objects of the right shape, and so that a malformed object is denied with causes at the
offending paths instead of crashing a rule.

What is reported, and how it is worded:

* A wrong JSON type is ``FieldValueTypeInvalid`` in the wording of the API server's OpenAPI schema
  validation (kube-openapi `errors.InvalidType`, turned into a field error by apiextensions'
  `kubeOpenAPIResultToFieldErrors`): the bad value is the JSON type's name and the detail is
  ``<path> in body must be of type <type>: "<actual type>"``, e.g.
  ``spec.reservedFor: Invalid value: "string": spec.reservedFor in body must be of type array: "string"``.
  For built-in kinds the API server itself answers a 400 with Go's decoding error, which is not a
  field error; this is the closest field-level form the API server has.
* A timestamp that Go's `time.Parse(time.RFC3339, ...)` rejects is the same error with the format as
  the type (``must be of type date-time``), as kube-openapi words a format failure.
* A quantity that `resource.ParseQuantity` rejects is ``FieldValueInvalid`` with Go's own message.
* An integer outside int64 is a type error (``must be of type integer: "number"``): Go cannot store
  it, and the API server's generic JSON decoding reads it as a float.
* An integer outside int32 where the Go field is an int32 (``format: int32``) is a type error with
  the format as the type, as kube-openapi's `InvalidType` words it for a value that is not a string
  (``spec.limit in body must be of type int32``): `json.Unmarshal` cannot store it either.
* An ``apiVersion`` or ``kind`` other than the schema's is ``FieldValueNotSupported``, listing the one
  supported value. Absent or null is accepted: the API server takes them from the request URL.
* Unknown fields are warnings worded as `sigs.k8s.io/json` strict decoding words them
  (``unknown field "spec.foo"``, full path with list indexes, in document order, each at most once,
  at most 100 of them). Go reports them only when decoding otherwise succeeds; the checker reports
  them alongside type errors, since its answer to a type error is a denial either way.

What is accepted, because Go's decoder accepts it: ``null`` at any position below the root (it
leaves the Go field at its zero value, required or not); any JSON value where the Go type keeps raw
JSON (`runtime.RawExtension`, `metav1.FieldsV1`); a JSON number for a quantity. Integers must be
JSON integers: Go does not decode ``1.0`` into an int64.

Missing OpenAPI-required fields are *not* errors by default: kube-apiserver does not enforce the
OpenAPI ``required`` list for built-in kinds -- their validation code does, with its own messages
(a ResourceClass without ``driverName`` gets ``Required value`` *and* the DNS-subdomain message),
and a structural Required error would deny first and hide those. `StructuralChecker.load` takes
``report_missing_required=True`` for callers that want them anyway (``Required value`` at the path).

The checker is compiled once from the schema files into a tree of small node objects; checking is a
single walk over the object that only builds paths when it has something to report.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from webhook.field import (
    ROOT,
    ErrorList,
    FieldError,
    FieldPath,
    go_quote,
    invalid,
    not_supported,
    required,
    type_invalid,
)
from webhook.gotime import is_rfc3339
from webhook.rules.kinds import GroupVersionKind

__all__ = [
    "SchemaError",
    "StructuralChecker",
    "StructuralReport",
    "default_schema_directory",
    "not_an_object",
    "quantity_error",
]

# sigs.k8s.io/json `saveStrictError`: at most 100 strict (unknown-field) errors are kept.
MAX_UNKNOWN_FIELD_WARNINGS: Final = 100

_INT64_MIN: Final = -(2**63)
_INT64_MAX: Final = 2**63 - 1
_INT32_MIN: Final = -(2**31)
_INT32_MAX: Final = 2**31 - 1


class SchemaError(Exception):
    """A schema file that the checker cannot use: unreadable, or using what it does not implement."""


@dataclass(frozen=True, slots=True)
class StructuralReport:
    """The outcome of one structural check: errors deny the object, warnings are passed on."""

    errors: ErrorList
    warnings: tuple[str, ...]


# --- paths -----------------------------------------------------------------------------------------
#
# While walking, a path is a linked tuple (parent, segment): building one costs a tuple, and it is
# only rendered into a FieldPath when there is something to report. A segment is a field name (str),
# a list index (int) or a map key (_MapKey).

_Link = tuple[Any, Any] | None


class _MapKey:
    """A map key in a path: rendered ``[key]`` as `field.Path.Key` renders it. (Not a `str`
    subclass: mypyc compiles this module, and cannot compile classes derived from `str`.)"""

    __slots__ = ("key",)

    def __init__(self, key: str) -> None:
        self.key = key


def _field_path(link: _Link) -> FieldPath:
    segments: list[Any] = []
    while link is not None:
        link, segment = link
        segments.append(segment)
    path = ROOT
    for segment in segments[::-1]:  # not reversed(): mypyc cannot compile it over list[Any]
        if type(segment) is int:
            path = path.index(segment)
        elif type(segment) is _MapKey:
            path = path.key(segment.key)
        else:
            path = path.child(segment)
    return path


# --- JSON types as kube-openapi names them ---------------------------------------------------------

_JSON_TYPE_NAMES: Final[Mapping[type, str]] = {
    dict: "object",
    list: "array",
    str: "string",
    bool: "boolean",
    int: "integer",
    float: "number",
    type(None): "null",
}
_JSON_TYPES: Final = frozenset({"object", "array", "string", "boolean", "integer", "number", "null"})
_NUMERIC_TYPES: Final = frozenset({"boolean", "integer", "number"})


def _json_type(value: Any) -> str:
    """The JSON type of a decoded value, as kube-openapi's `schemaInfoForType` names it.

    An integer that does not fit in an int64 is a "number": a Go decoder cannot store it as an
    integer (the API server's generic JSON decoding falls back to float64).
    """
    name = _JSON_TYPE_NAMES.get(type(value))
    if name is None:
        name = _json_type_of_subclass(value)
    if name == "integer" and not _INT64_MIN <= value <= _INT64_MAX:
        return "number"
    return name


def _json_type_of_subclass(value: Any) -> str:
    # Values that did not come from a JSON parser (a caller's own mappings, YAML scalars).
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, Sequence) and not isinstance(value, (bytes, bytearray)):
        return "array"
    return type(value).__name__


# --- formats -------------------------------------------------------------------------------------

# resource.ParseQuantity's errors (k8s.io/apimachinery/pkg/api/resource/quantity.go).
QUANTITY_FORMAT_WRONG: Final = (
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
)
QUANTITY_SUFFIX_WRONG: Final = "unable to parse quantity's suffix"
QUANTITY_NUMERIC_WRONG: Final = "unable to parse numeric part of quantity"

_BINARY_SUFFIXES: Final = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_DECIMAL_SUFFIXES: Final = {
    "n": -9,
    "u": -6,
    "m": -3,
    "": 0,
    "k": 3,
    "M": 6,
    "G": 9,
    "T": 12,
    "P": 15,
    "E": 18,
}
_QUANTITY_SUFFIX_CHARS: Final = frozenset("eEinumkKMGTP")
_DIGITS: Final = frozenset("0123456789")
_MAX_INT64_FACTORS: Final = 18  # quantity.go maxInt64Factors
_NANO_SCALE: Final = -9


def quantity_error(text: str) -> str | None:
    """Go's error for `Quantity.UnmarshalJSON` of a JSON string, or None when it parses.

    A port of `ParseQuantity` (apimachinery 1.30) as far as it decides between success and its three
    errors: `parseQuantityString`, the suffix lookup, and the numeric fallback through `inf.Dec`.
    """
    text = text.strip()  # UnmarshalJSON trims spaces before parsing
    if not text:
        return QUANTITY_FORMAT_WRONG
    if text == "0":
        return None
    parsed = _parse_quantity_string(text)
    if parsed is None:
        return QUANTITY_FORMAT_WRONG
    value, num, denom, suffix = parsed
    interpreted = _interpret_quantity_suffix(suffix)
    if interpreted is None:
        return QUANTITY_SUFFIX_WRONG
    base, exponent = interpreted
    if _quantity_fits_int64(num, denom, base, exponent):
        return None
    # The inf.Dec fallback: its scanner needs at least one digit.
    return None if any(char in _DIGITS for char in value) else QUANTITY_NUMERIC_WRONG


def _parse_quantity_string(text: str) -> tuple[str, str, str, str] | None:
    """`parseQuantityString`: (value, numerator, denominator, suffix), or None for ErrFormatWrong."""
    end, pos = len(text), 0
    if text[0] in "+-":
        pos = 1
    while pos < end and text[pos] == "0":  # leading zeros
        pos += 1
    if pos >= end:
        return "0", "0", "", ""
    start = pos
    while pos < end and text[pos] in _DIGITS:
        pos += 1
    if pos >= end:
        return text, text[start:], "", ""
    num = text[start:pos] or "0"
    denom = ""
    if text[pos] == ".":
        pos += 1
        start = pos
        while pos < end and text[pos] in _DIGITS:
            pos += 1
        denom = text[start:pos]
        if pos >= end:
            return text, num, denom, ""
    value, suffix_start = text[:pos], pos
    while pos < end and text[pos] in _QUANTITY_SUFFIX_CHARS:
        pos += 1
    if pos < end and text[pos] in "+-":
        pos += 1
    while pos < end and text[pos] in _DIGITS:
        pos += 1
    if pos < end:
        return None  # a character that is neither a suffix letter nor an exponent digit
    return value, num, denom, text[suffix_start:]


def _interpret_quantity_suffix(suffix: str) -> tuple[int, int] | None:
    """`quantitySuffixer.interpret`: (base, exponent), or None for ErrSuffix."""
    if suffix in _BINARY_SUFFIXES:
        return 2, _BINARY_SUFFIXES[suffix]
    if suffix in _DECIMAL_SUFFIXES:
        return 10, _DECIMAL_SUFFIXES[suffix]
    if len(suffix) > 1 and suffix[0] in "eE":
        digits = suffix[1:]
        body = digits[1:] if digits[0] in "+-" else digits
        if not body or not set(body) <= _DIGITS:
            return None
        exponent = int(digits)
        if not _INT64_MIN <= exponent <= _INT64_MAX:
            return None
        return 10, (exponent + 2**31) % 2**32 - 2**31  # Go's int32(parsed)
    return None


def _quantity_fits_int64(num: str, denom: str, base: int, exponent: int) -> bool:
    """Whether `ParseQuantity` returns through its int64 fast path (before the inf.Dec fallback)."""
    if base == 10:
        scale, precision, mantissa = exponent, _MAX_INT64_FACTORS - (len(num) + len(denom)), 1
    elif exponent >= 0 and not denom:
        scale, mantissa = 0, 1 << exponent
        # Go: 15 - len(num) - int32(float32(exponent)*3/10) - 1
        precision = 15 - len(num) - int(exponent * 3 / 10) - 1
    else:
        return False
    if precision < 0:
        return False
    scale -= len(denom)
    if scale < _NANO_SCALE:
        return False
    return _INT64_MIN <= int(num + denom) * mantissa <= _INT64_MAX


# --- the compiled schema ---------------------------------------------------------------------------


class _Findings:
    """What one walk found: errors in order, unknown-field warnings deduplicated and capped."""

    __slots__ = ("errors", "report_missing_required", "warnings")

    def __init__(self, report_missing_required: bool) -> None:
        self.errors: ErrorList = []
        self.warnings: dict[str, None] = {}
        self.report_missing_required = report_missing_required

    def wrong_type(self, link: _Link, expected: str, actual: str) -> None:
        path = _field_path(link)
        self.errors.append(
            type_invalid(path, actual, f"{path} in body must be of type {expected}: {go_quote(actual)}")
        )

    def unknown_field(self, link: _Link) -> None:
        if len(self.warnings) < MAX_UNKNOWN_FIELD_WARNINGS:
            self.warnings.setdefault(f"unknown field {go_quote(str(_field_path(link)))}", None)


_NULL: Final = type(None)


class _Node:
    """A compiled schema node.

    `settled` is the Python type whose values are valid here without a look (`str` for a plain
    string, `bool` for a plain boolean), NoneType where every value needs one: a parent skips
    a child of its node's settled type, or null (which leaves the Go field at its zero value),
    without a call. `numeric` says whether the node or one below it takes a boolean or a number,
    where ``==`` takes 1, 1.0 and true for one another (see `_check_old`).
    """

    __slots__ = ("numeric", "settled")

    def __init__(self, settled: type = _NULL, *, numeric: bool = False) -> None:
        self.settled = settled
        self.numeric = numeric

    def check(self, value: Any, link: _Link, findings: _Findings) -> None:
        raise NotImplementedError

    def check_against(self, value: Any, passed: Any, link: _Link, findings: _Findings) -> None:
        """Check `value` where `passed`, the value at the same path of an object that had no
        errors, differs from it (see `StructuralChecker.check_against`)."""
        self.check(value, link, findings)


def _check_old(node: _Node, value: Any, passed: Any, link: _Link, findings: _Findings) -> None:
    """`node.check(value)` for a value of an old object, `passed` being the new object's value at
    the same path (None if it has none), which had no errors.

    Where `node` takes neither booleans nor numbers, a value equal to `passed` has its verdict:
    ``==`` then means the same JSON types all the way down (a string equals only a string, a
    list only a list, a dict only a mapping), and the check reads nothing else. Below a node that
    takes them, 1 == 1.0 == true, so the walk goes on, comparing the children the same way.
    """
    if passed is None:
        node.check(value, link, findings)
    elif node.numeric or not _equal(value, passed):
        node.check_against(value, passed, link, findings)


def _equal(value: Any, other: Any) -> bool:
    try:
        return bool(value == other)
    except RecursionError:  # nested deeper than the interpreter compares
        return False


class _AnyValue(_Node):
    """Raw JSON (RawExtension, FieldsV1): every value decodes, nothing inside is a field."""

    __slots__ = ()

    def check(self, value: Any, link: _Link, findings: _Findings) -> None:
        return


_FormatCheck = Callable[[Any, _Link, _Findings], None]


class _Scalar(_Node):
    """A JSON scalar, with a format or an enum. The compiler gives the common ones a subclass whose
    `check` decides a valid value in one test before the general check below."""

    __slots__ = ("accepted", "enum", "expected", "format_check")

    def __init__(
        self,
        accepted: frozenset[str],
        expected: str,
        format_check: _FormatCheck | None,
        enum: tuple[Any, ...] | None,
    ) -> None:
        plain = format_check is None and enum is None
        settled = str if accepted == {"string"} else bool if accepted == {"boolean"} else _NULL
        super().__init__(settled if plain else _NULL, numeric=not accepted.isdisjoint(_NUMERIC_TYPES))
        self.accepted = accepted
        self.expected = expected
        self.format_check = format_check
        self.enum = enum

    def check(self, value: Any, link: _Link, findings: _Findings) -> None:
        actual = _json_type(value)
        if actual not in self.accepted:
            findings.wrong_type(link, self.expected, actual)
            return
        if self.format_check is not None:
            self.format_check(value, link, findings)
        if self.enum is not None and value not in self.enum:
            supported = [choice for choice in self.enum if isinstance(choice, str)]
            findings.errors.append(not_supported(_field_path(link), value, supported))


class _StringEnum(_Scalar):
    """A string out of a list of strings (apiVersion, kind, allocationMode)."""

    __slots__ = ("choices",)

    def __init__(self, expected: str, enum: tuple[str | None, ...]) -> None:
        super().__init__(frozenset({"string"}), expected, None, enum)
        self.choices = frozenset(choice for choice in enum if choice is not None)

    def check(self, value: Any, link: _Link, findings: _Findings) -> None:
        if type(value) is not str or value not in self.choices:
            _Scalar.check(self, value, link, findings)


class _DateTime(_Scalar):
    """A string that `time.Parse(time.RFC3339, ...)` reads (metav1.Time)."""

    __slots__ = ()

    def __init__(self, expected: str) -> None:
        super().__init__(frozenset({"string"}), expected, _check_date_time, None)

    def check(self, value: Any, link: _Link, findings: _Findings) -> None:
        if type(value) is not str or not is_rfc3339(value):
            _Scalar.check(self, value, link, findings)


class _Int64(_Scalar):
    """An integer: Go's decoder takes a JSON integer that fits in an int64."""

    __slots__ = ()

    def __init__(self, expected: str) -> None:
        super().__init__(frozenset({"integer"}), expected, None, None)

    def check(self, value: Any, link: _Link, findings: _Findings) -> None:
        if type(value) is not int or not _INT64_MIN <= value <= _INT64_MAX:
            _Scalar.check(self, value, link, findings)


class _Int32(_Scalar):
    """An int32 field: Go's decoder takes a JSON integer that fits in an int32."""

    __slots__ = ()

    def __init__(self, expected: str) -> None:
        super().__init__(frozenset({"integer"}), expected, _check_int32, None)

    def check(self, value: Any, link: _Link, findings: _Findings) -> None:
        if type(value) is not int or not _INT32_MIN <= value <= _INT32_MAX:
            _Scalar.check(self, value, link, findings)


class _FreeObject(_Node):
    """`type: object` with neither properties nor additionalProperties: any object."""

    __slots__ = ()

    def check(self, value: Any, link: _Link, findings: _Findings) -> None:
        if type(value) is not dict and not isinstance(value, Mapping):
            findings.wrong_type(link, "object", _json_type(value))


class _Struct(_Node):
    """A Go struct: known fields are checked, other keys are unknown fields.

    A field's value is decided by one lookup of its node, whose settled type is a C field of the
    node. `settled_types` maps each field to that type, for the items of a list, which are decided
    by types alone (see `check_items`); an unknown field maps to nothing, whose type no value has.
    """

    __slots__ = ("fields", "required", "settled_types")

    def __init__(self, fields: Mapping[str, _Node], required: tuple[str, ...]) -> None:
        super().__init__(numeric=any(node.numeric for node in fields.values()))
        self.fields: dict[str, _Node] = dict(fields)
        self.settled_types: dict[str, type] = {name: node.settled for name, node in fields.items()}
        self.required = required

    def check(self, value: Any, link: _Link, findings: _Findings) -> None:
        if type(value) is not dict:
            if not isinstance(value, Mapping):
                findings.wrong_type(link, "object", _json_type(value))
                return
            value = dict(value)
        obj: dict[Any, Any] = value
        if findings.report_missing_required:
            self._report_missing(obj, link, findings)
        fields = self.fields
        for key, child in obj.items():
            node = fields.get(key)  # one lookup: the node's settled type is a C field
            if node is None:
                findings.unknown_field((link, key if type(key) is str else str(key)))
            elif type(child) is not node.settled and child is not None:
                node.check(child, (link, key), findings)

    def check_against(self, value: Any, passed: Any, link: _Link, findings: _Findings) -> None:
        if type(value) is not dict or type(passed) is not dict:
            self.check(value, link, findings)
            return
        obj: dict[Any, Any] = value
        if findings.report_missing_required:
            self._report_missing(obj, link, findings)
        fields = self.fields
        counterparts: dict[Any, Any] = passed
        for key, child in obj.items():
            node = fields.get(key)
            if node is None:
                findings.unknown_field((link, key if type(key) is str else str(key)))
            elif type(child) is not node.settled and child is not None:
                _check_old(node, child, counterparts.get(key), (link, key), findings)

    def check_items(self, array: list[Any], link: _Link, findings: _Findings) -> None:
        """`check` of every item of a list of these structs (a list's items are checked here).

        An object whose fields all hold values of their settled types (32 consumer references)
        is decided by one loop over its fields, without a call; any other item gets the full
        check, from its first field.
        """
        settled_types = self.settled_types
        look_at_all = findings.report_missing_required and bool(self.required)
        for index, item in enumerate(array):
            if type(item) is dict and not look_at_all:
                obj: dict[Any, Any] = item
                for key, child in obj.items():
                    if type(child) is not settled_types.get(key):
                        break
                else:
                    continue
            if item is not None:
                self.check(item, (link, index), findings)

    def _report_missing(self, value: dict[Any, Any], link: _Link, findings: _Findings) -> None:
        for name in self.required:
            if value.get(name) is None:
                findings.errors.append(required(_field_path((link, name))))


class _Map(_Node):
    """A Go map[string]T (labels, annotations)."""

    __slots__ = ("values",)

    def __init__(self, values: _Node) -> None:
        super().__init__(numeric=values.numeric)
        self.values = values

    def check(self, value: Any, link: _Link, findings: _Findings) -> None:
        if type(value) is not dict:
            if not isinstance(value, Mapping):
                findings.wrong_type(link, "object", _json_type(value))
                return
            value = dict(value)
        obj: dict[Any, Any] = value
        values = self.values
        settled = values.settled
        for key, child in obj.items():
            if type(child) is not settled and child is not None:
                values.check(child, (link, _MapKey(key)), findings)


class _Array(_Node):
    __slots__ = ("items", "struct_items")

    def __init__(self, items: _Node) -> None:
        super().__init__(numeric=items.numeric)
        self.items = items
        self.struct_items = items if isinstance(items, _Struct) else None

    def check(self, value: Any, link: _Link, findings: _Findings) -> None:
        if type(value) is not list:
            actual = _json_type(value)
            if actual != "array":
                findings.wrong_type(link, "array", actual)
                return
            value = list(value)
        array: list[Any] = value
        if self.struct_items is not None:
            self.struct_items.check_items(array, link, findings)
            return
        items = self.items
        settled = items.settled
        for index, child in enumerate(array):
            if type(child) is not settled and child is not None:
                items.check(child, (link, index), findings)

    def check_against(self, value: Any, passed: Any, link: _Link, findings: _Findings) -> None:
        if type(value) is not list or type(passed) is not list:
            self.check(value, link, findings)
            return
        array: list[Any] = value
        counterparts: list[Any] = passed
        items = self.items
        if (
            not items.numeric
            and len(array) <= len(counterparts)
            and _equal(array, counterparts[: len(array)])
        ):
            return  # the first items of `passed` (consumers were appended): see `_check_old`
        settled = items.settled
        count = len(counterparts)
        for index, child in enumerate(array):
            if type(child) is not settled and child is not None:
                _check_old(
                    items, child, counterparts[index] if index < count else None, (link, index), findings
                )


def _check_date_time(value: Any, link: _Link, findings: _Findings) -> None:
    if not is_rfc3339(value):  # metav1.Time.UnmarshalJSON: time.Parse(time.RFC3339, ...)
        path = _field_path(link)
        findings.errors.append(
            type_invalid(path, value, f"{path} in body must be of type date-time: {go_quote(value)}")
        )


def _check_int32(value: Any, link: _Link, findings: _Findings) -> None:
    # json.Unmarshal into an int32 fails for an integer out of its range (UnmarshalTypeError).
    if isinstance(value, int) and not isinstance(value, bool) and not _INT32_MIN <= value <= _INT32_MAX:
        path = _field_path(link)
        findings.errors.append(type_invalid(path, value, f"{path} in body must be of type int32"))


def _check_quantity(value: Any, link: _Link, findings: _Findings) -> None:
    if isinstance(value, str):
        message = quantity_error(value)
        if message is not None:
            findings.errors.append(invalid(_field_path(link), value, message))


_FORMATS: Final[Mapping[str, _FormatCheck | None]] = {
    "date-time": _check_date_time,
    "int32": _check_int32,
    "int64": None,  # the integer type check already rejects what does not fit in an int64
    "quantity": _check_quantity,
}

_ANNOTATIONS: Final = frozenset({"$schema", "$id", "$comment", "title", "description", "$defs"})
_KEYWORDS: Final = _ANNOTATIONS | {
    "$ref",
    "type",
    "format",
    "enum",
    "properties",
    "additionalProperties",
    "items",
    "required",
}
_REF_PREFIX: Final = "#/$defs/"


class _Compiler:
    """Turns one schema file into nodes, refusing every keyword it does not implement."""

    def __init__(self, source: Path, document: Mapping[str, Any]) -> None:
        self.source = source
        definitions = document.get("$defs", {})
        if not isinstance(definitions, Mapping):
            raise self.error("$defs must be an object")
        self.definitions: Mapping[str, Any] = definitions
        self.compiled: dict[str, _Node] = {}
        self.compiling: set[str] = set()

    def error(self, message: str) -> SchemaError:
        return SchemaError(f"{self.source}: {message}")

    def node(self, schema: Any, where: str) -> _Node:
        if not isinstance(schema, Mapping):
            raise self.error(f"{where}: a schema must be an object")
        for keyword in schema:
            if keyword not in _KEYWORDS and not str(keyword).startswith("x-"):
                raise self.error(f"{where}: unsupported keyword {keyword!r}")
        if "$ref" in schema:
            return self.reference(schema["$ref"], where)
        types = schema.get("type")
        if types is None:
            if any(
                key in schema for key in ("properties", "additionalProperties", "items", "format", "enum")
            ):
                raise self.error(f"{where}: constraints without a type")
            return _AnyValue()
        names = [types] if isinstance(types, str) else list(types) if isinstance(types, list) else None
        if not names or any(name not in _JSON_TYPES for name in names):
            raise self.error(f"{where}: bad type {types!r}")
        kinds = [name for name in names if name != "null"]
        if kinds == ["object"]:
            return self.object(schema, where)
        if kinds == ["array"]:
            if "items" not in schema:
                raise self.error(f"{where}: an array needs items")
            return _Array(self.node(schema["items"], f"{where}.items"))
        if not kinds or "object" in kinds or "array" in kinds:
            raise self.error(f"{where}: unsupported type combination {types!r}")
        return self.scalar(schema, kinds, where)

    def reference(self, ref: Any, where: str) -> _Node:
        if not isinstance(ref, str) or not ref.startswith(_REF_PREFIX):
            raise self.error(f"{where}: only local references ({_REF_PREFIX}...) are supported, not {ref!r}")
        name = ref[len(_REF_PREFIX) :]
        if name in self.compiled:
            return self.compiled[name]
        if name not in self.definitions:
            raise self.error(f"{where}: unresolvable reference {ref!r}")
        if name in self.compiling:
            raise self.error(f"{where}: recursive reference {ref!r} is not supported")
        self.compiling.add(name)
        node = self.node(self.definitions[name], name)
        self.compiling.discard(name)
        self.compiled[name] = node
        return node

    def object(self, schema: Mapping[str, Any], where: str) -> _Node:
        properties = schema.get("properties")
        additional = schema.get("additionalProperties")
        if properties is not None and additional is not None:
            raise self.error(f"{where}: properties together with additionalProperties are not supported")
        if properties is not None:
            if not isinstance(properties, Mapping):
                raise self.error(f"{where}: properties must be an object")
            fields = {name: self.node(child, f"{where}.{name}") for name, child in properties.items()}
            required_names = schema.get("required", [])
            if not isinstance(required_names, list) or not all(isinstance(n, str) for n in required_names):
                raise self.error(f"{where}: required must be a list of names")
            return _Struct(MappingProxyType(fields), tuple(required_names))
        if additional is not None:
            if not isinstance(additional, Mapping):
                raise self.error(f"{where}: additionalProperties must be a schema")
            return _Map(self.node(additional, f"{where}.additionalProperties"))
        return _FreeObject()

    def scalar(self, schema: Mapping[str, Any], kinds: list[str], where: str) -> _Node:
        accepted = set(kinds)
        if "number" in accepted:
            accepted.add("integer")  # a Go float64 (or a Quantity) takes an integer literal too
        format_name = schema.get("format")
        if format_name is not None and format_name not in _FORMATS:
            raise self.error(f"{where}: unsupported format {format_name!r}")
        enum = schema.get("enum")
        if enum is not None and not isinstance(enum, list):
            raise self.error(f"{where}: enum must be a list")
        expected = ",".join(kinds)  # kube-openapi: strings.Join(t.Type, ",")
        if (
            accepted == {"string"}
            and format_name is None
            and enum
            and all(type(e) in (str, _NULL) for e in enum)
        ):
            return _StringEnum(expected, tuple(enum))
        if accepted == {"string"} and format_name == "date-time" and enum is None:
            return _DateTime(expected)
        if accepted == {"integer"} and format_name in (None, "int64") and enum is None:
            return _Int64(expected)
        if accepted == {"integer"} and format_name == "int32" and enum is None:
            return _Int32(expected)
        return _Scalar(
            frozenset(accepted),
            expected,
            _FORMATS[format_name] if format_name is not None else None,
            tuple(enum) if enum is not None else None,
        )


def _kind_of(source: Path, document: Mapping[str, Any]) -> GroupVersionKind:
    entries = document.get("x-kubernetes-group-version-kind")
    if not isinstance(entries, list) or len(entries) != 1 or not isinstance(entries[0], Mapping):
        raise SchemaError(f"{source}: the root needs exactly one x-kubernetes-group-version-kind")
    entry = entries[0]
    gvk = GroupVersionKind(
        str(entry.get("group", "")), str(entry.get("version", "")), str(entry.get("kind", ""))
    )
    if not gvk.version or not gvk.kind:
        raise SchemaError(f"{source}: incomplete x-kubernetes-group-version-kind {entry}")
    return gvk


def _check_root(source: Path, document: Mapping[str, Any], gvk: GroupVersionKind) -> None:
    """The root must be an object that names its own apiVersion and kind (the mismatch check)."""
    if document.get("type") != "object":
        raise SchemaError(f"{source}: the root must have type object")
    properties = document.get("properties")
    api_version = f"{gvk.group}/{gvk.version}" if gvk.group else gvk.version
    for name, expected in (("apiVersion", api_version), ("kind", gvk.kind)):
        field_schema = properties.get(name) if isinstance(properties, Mapping) else None
        enum = field_schema.get("enum") if isinstance(field_schema, Mapping) else None
        if not isinstance(enum, list) or expected not in enum:
            raise SchemaError(f"{source}: properties.{name}.enum must list {expected!r}")


def default_schema_directory() -> Path:
    """Where the schemas are: inside the package when installed from a wheel, else the source tree.

    ``webhook/schema_files`` is a symbolic link to ``../schemas`` in the repository (so an editable
    install reads the files in place); a built wheel carries real files there (pyproject
    package-data). Without the link (a checkout where symlinks are plain files), the source tree's
    ``schemas/`` is used directly.
    """
    here = Path(__file__).resolve().parent
    for candidate in (here / "schema_files", here.parent / "schemas"):
        if candidate.is_dir():
            return candidate
    raise SchemaError(f"no schema directory: neither {here / 'schema_files'} nor {here.parent / 'schemas'}")


def _schema_files(directory: Path) -> Iterable[Path]:
    """``<group>/<version>/<kind>.json`` files, in a stable order."""
    return sorted(directory.glob("*/*/*.json"))


class StructuralChecker:
    """Checks objects of the kinds it has schemas for. Build it once with `load`; it is immutable."""

    __slots__ = ("_by_name", "_report_missing_required", "_roots")

    def __init__(
        self, roots: Mapping[GroupVersionKind, _Node], *, report_missing_required: bool = False
    ) -> None:
        self._roots: Mapping[GroupVersionKind, _Node] = MappingProxyType(dict(roots))
        # The same, found by a tuple: hashed and compared in C, unlike the dataclass.
        self._by_name: dict[tuple[str, str, str], _Node] = {
            (gvk.group, gvk.version, gvk.kind): node for gvk, node in roots.items()
        }
        self._report_missing_required = report_missing_required

    @classmethod
    def load(
        cls, directory: Path | None = None, *, report_missing_required: bool = False
    ) -> StructuralChecker:
        """Read and compile every schema file under `directory` (default: `default_schema_directory`).

        Raises SchemaError for a file that is not JSON, uses a keyword or format the checker does
        not implement, has a dangling reference, or claims a kind another file already claims.
        """
        directory = directory if directory is not None else default_schema_directory()
        if not directory.is_dir():
            raise SchemaError(f"{directory}: not a directory")
        roots: dict[GroupVersionKind, _Node] = {}
        for source in _schema_files(directory):
            try:
                document = json.loads(source.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, ValueError) as error:
                raise SchemaError(f"{source}: cannot read: {error}") from error
            if not isinstance(document, Mapping):
                raise SchemaError(f"{source}: a schema must be a JSON object")
            gvk = _kind_of(source, document)
            if gvk in roots:
                raise SchemaError(f"{source}: a second schema for {gvk}")
            _check_root(source, document, gvk)
            roots[gvk] = _Compiler(source, document).node(document, gvk.kind)
        if not roots:
            raise SchemaError(f"{directory}: no schema files (<group>/<version>/<kind>.json)")
        return cls(roots, report_missing_required=report_missing_required)

    @property
    def kinds(self) -> tuple[GroupVersionKind, ...]:
        return tuple(sorted(self._roots))

    def knows(self, gvk: GroupVersionKind) -> bool:
        return gvk in self._roots

    def check(self, gvk: GroupVersionKind, obj: Any) -> StructuralReport:
        """The structural errors and unknown-field warnings of `obj` as a `gvk`. Never raises for
        any decoded JSON value; raises KeyError for a kind without a schema (ask `knows` first)."""
        root = self._by_name.get((gvk.group, gvk.version, gvk.kind))
        if root is None:
            raise KeyError(f"no schema for {gvk}")
        findings = _Findings(self._report_missing_required)
        if type(obj) is dict or isinstance(obj, Mapping):
            root.check(obj, None, findings)
        else:
            findings.errors.append(not_an_object(obj))
        return StructuralReport(findings.errors, tuple(findings.warnings))

    def check_against(self, gvk: GroupVersionKind, obj: Any, passed: Any) -> StructuralReport:
        """`check(gvk, obj)`'s errors when `passed`, an object of the same kind, has none: the
        values of `obj` holding the same JSON as `passed`'s at the same path (``==`` where no
        boolean or number can hide below, see `_check_old`; list items at the same index) are not
        walked again, since their errors would be `passed`'s there. (An UPDATE's old object against
        its new one: the old object's errors for a few C-level comparisons.) Unknown-field warnings
        are only those outside the skipped values."""
        root = self._by_name.get((gvk.group, gvk.version, gvk.kind))
        if root is None:
            raise KeyError(f"no schema for {gvk}")
        findings = _Findings(self._report_missing_required)
        if type(obj) is dict or isinstance(obj, Mapping):
            root.check_against(obj, passed, None, findings)
        else:
            findings.errors.append(not_an_object(obj))
        return StructuralReport(findings.errors, tuple(findings.warnings))


def not_an_object(obj: Any) -> FieldError:
    """The error for a whole object that is not a JSON object: a type error at the root (``<nil>``)."""
    actual = _json_type(obj)
    return type_invalid(ROOT, actual, f"body must be of type object: {go_quote(actual)}")
