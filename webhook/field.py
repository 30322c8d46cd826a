"""Field paths and field errors, rendered exactly as apimachinery 1.30 renders them.

This module owns the vocabulary every rule speaks (`k8s.io/apimachinery/pkg/util/validation/field`):
a `FieldPath` built with `child`/`index`/`key`, a `FieldError` with a type, a path, a bad value and a
detail, and the two renderings the API server puts on the wire -- the error body used in
`details.causes[].message`, and the aggregated message of `apierrors.NewInvalid`.

Value printing follows `(*field.Error).ErrorBody()` of apimachinery v0.30:

* `nil` becomes the *string* ``"null"`` and is then printed like any string, so it shows quoted;
* int64/int32/float/bool print with ``%v``; strings with ``%q`` (Go quoting);
* anything else prints with ``%#v``. Go struct literals cannot be reproduced byte for byte, so
  mappings and lists render as compact JSON; a value that Go prints in a known textual
  form (``[]string{"a", "b"}``, a time) is passed as a `GoText`.
"""

from __future__ import annotations

import enum
import json
import json.encoder
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any, Final


class ErrorType(enum.Enum):
    """The field error types; the value is the cause `reason` on the wire."""

    NOT_FOUND = "FieldValueNotFound"
    REQUIRED = "FieldValueRequired"
    DUPLICATE = "FieldValueDuplicate"
    INVALID = "FieldValueInvalid"
    NOT_SUPPORTED = "FieldValueNotSupported"
    FORBIDDEN = "FieldValueForbidden"
    TOO_LONG = "FieldValueTooLong"
    TOO_MANY = "FieldValueTooMany"
    INTERNAL = "InternalError"
    TYPE_INVALID = "FieldValueTypeInvalid"
    # apimachinery 0.32+ (Kubernetes 1.32 on): MinItems / MinLength checks of declarative validation.
    TOO_FEW = "FieldValueTooFew"
    TOO_SHORT = "FieldValueTooShort"

    @property
    def text(self) -> str:
        """`ErrorType.String()`: the words that open an error body."""
        return _TYPE_TEXT[self]


_TYPE_TEXT = {
    ErrorType.NOT_FOUND: "Not found",
    ErrorType.REQUIRED: "Required value",
    ErrorType.DUPLICATE: "Duplicate value",
    ErrorType.INVALID: "Invalid value",
    ErrorType.NOT_SUPPORTED: "Unsupported value",
    ErrorType.FORBIDDEN: "Forbidden",
    ErrorType.TOO_LONG: "Too long",
    ErrorType.TOO_MANY: "Too many",
    ErrorType.INTERNAL: "Internal error",
    ErrorType.TYPE_INVALID: "Invalid value",
    ErrorType.TOO_FEW: "Too few",
    ErrorType.TOO_SHORT: "Too short",
}

# Types whose body never prints the value (ErrorBody's first case).
_VALUE_HIDDEN = frozenset(
    {ErrorType.REQUIRED, ErrorType.FORBIDDEN, ErrorType.TOO_LONG, ErrorType.TOO_SHORT, ErrorType.INTERNAL}
)

# The same two tables keyed by the type's value, the reason string: an enum member hashes through a
# Python-level `__hash__` and its `value` is a Python-level property, while `_value_` is a plain
# attribute and a str hashes in C.
_TEXT_BY_REASON: Final[dict[str, str]] = {error_type.value: text for error_type, text in _TYPE_TEXT.items()}
_VALUE_HIDDEN_REASONS: Final = frozenset(error_type.value for error_type in _VALUE_HIDDEN)


@dataclass(frozen=True, slots=True)
class GoText:
    """A bad value whose Go rendering is known text (a `%#v` slice literal, a `String()` result)."""

    text: str


def go_string_slice(values: Iterable[str]) -> GoText:
    """`%#v` of a Go `[]string`: ``[]string{"bool", "int"}``."""
    return GoText("[]string{" + ", ".join(go_quote(v) for v in values) + "}")


class FieldPath:
    """A path into an object, printed as Go prints a `*field.Path` (``spec.list[3].name``, ``m[key]``).

    Paths are immutable; `child`, `index` and `key` return new paths. The root of a path with no
    elements prints as ``<nil>``, as a nil `*field.Path` does.

    A path is a link to its parent and one segment -- a field name (str), a list index (int) or a
    map key (`_MapKey`) -- and is spelled out only by `str()`, `==`, `hash()` and `repr()`: rules
    build far more paths than they report errors at, and building one is two stores instead of a
    string. `FieldPath(text)` is a path whose whole text is `text`.
    """

    __slots__ = ("_parent", "_segment")

    def __init__(self, text: str | int | _MapKey = "", parent: FieldPath | None = None) -> None:
        # `parent` and a non-str `text` are for this class's own methods only.
        self._parent = parent
        self._segment = text

    def child(self, name: str, *more: str) -> FieldPath:
        path = FieldPath(name, self)
        for part in more:
            path = FieldPath(part, path)
        return path

    def index(self, i: int) -> FieldPath:
        return FieldPath(i, self)

    def key(self, k: str) -> FieldPath:
        return FieldPath(_MapKey(k), self)

    def _text(self) -> str:
        """`(*field.Path).String()`: a name joined by '.' unless nothing precedes it, an index or a
        key in brackets."""
        segments: list[str | int | _MapKey] = []
        node: FieldPath | None = self
        while node is not None:
            segments.append(node._segment)
            node = node._parent
        text = ""
        for segment in segments[::-1]:
            if isinstance(segment, str):
                text = f"{text}.{segment}" if text else segment
            elif isinstance(segment, _MapKey):
                text = f"{text}[{segment.key}]"
            else:
                text = f"{text}[{segment}]"
        return text

    def __str__(self) -> str:
        return self._text() or "<nil>"

    def __repr__(self) -> str:
        return f"FieldPath({self._text()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FieldPath) and other._text() == self._text()

    def __hash__(self) -> int:
        return hash(self._text())


class _MapKey:
    """A map key segment of a `FieldPath`, printed in brackets (a str segment is a field name)."""

    __slots__ = ("key",)

    def __init__(self, key: str) -> None:
        self.key = key


ROOT = FieldPath()
# ResourceSlice's model check passes a nil *field.Path; it prints as "<nil>".
NIL_PATH = FieldPath()


class Stability(enum.Enum):
    """`field.ValidationStabilityLevel` (apimachinery 0.34+): the lifecycle stage of the declarative
    validation an error came from. Hand-written errors and standard declarative ones are STANDARD."""

    STANDARD = ""
    ALPHA = "alpha"
    BETA = "beta"


@dataclass(frozen=True, slots=True)
class FieldError:
    """One field-level validation error (`field.Error`).

    The last four fields are the bookkeeping of merging hand-written and declarative validation
    (Kubernetes 1.34 on); they never show on the wire. Three are apimachinery 0.34+'s:
    `origin` (`Error.Origin`, e.g. ``"maxItems"``, ``"format=k8s-long-name"``),
    `covered_by_declarative` (`MarkCoveredByDeclarative`) and `stability` (`MarkAlpha`/`MarkBeta`).
    `declarative` says which pass an error of the merged answer came from: the API server keeps the
    two lists apart (`rest.ValidateDeclarativelyWithMigrationChecks`), and the declarative one runs on
    the object in the request's version, so a converted version reports these at its own paths and
    in its own field order. Rules of releases before 1.34 leave them at their defaults.
    """

    type: ErrorType
    field: str
    bad_value: Any = None
    detail: str = ""
    origin: str = ""
    covered_by_declarative: bool = False
    stability: Stability = Stability.STANDARD
    declarative: bool = False

    def body(self) -> str:
        """`ErrorBody()`: the message without the field, as in `details.causes[].message`."""
        reason: str = self.type._value_
        if reason in _VALUE_HIDDEN_REASONS:
            text = _TEXT_BY_REASON[reason]
        else:
            text = f"{_TEXT_BY_REASON[reason]}: {go_value(self.bad_value)}"
        if self.detail:
            text += f": {self.detail}"
        return text

    def __str__(self) -> str:
        """`Error()`: ``<field>: <body>``."""
        return f"{self.field}: {self.body()}"

    def cause(self) -> dict[str, str]:
        """The `metav1.StatusCause` of this error."""
        reason: str = self.type._value_  # `value`, without the enum's property call
        return {"reason": reason, "message": self.body(), "field": self.field}


ErrorList = list[FieldError]


# --- constructors (field.Required, field.Invalid, ...) -------------------------------------------


def required(path: FieldPath, detail: str = "") -> FieldError:
    return FieldError(ErrorType.REQUIRED, str(path), "", detail)


def invalid(path: FieldPath, value: Any, detail: str) -> FieldError:
    return FieldError(ErrorType.INVALID, str(path), value, detail)


def type_invalid(path: FieldPath, value: Any, detail: str) -> FieldError:
    return FieldError(ErrorType.TYPE_INVALID, str(path), value, detail)


def forbidden(path: FieldPath, detail: str) -> FieldError:
    return FieldError(ErrorType.FORBIDDEN, str(path), "", detail)


def duplicate(path: FieldPath, value: Any) -> FieldError:
    return FieldError(ErrorType.DUPLICATE, str(path), value)


def not_found(path: FieldPath, value: Any) -> FieldError:
    return FieldError(ErrorType.NOT_FOUND, str(path), value)


def not_supported(path: FieldPath, value: Any, valid_values: Sequence[str]) -> FieldError:
    detail = ""
    if valid_values:
        detail = "supported values: " + ", ".join(go_quote(v) for v in valid_values)
    return FieldError(ErrorType.NOT_SUPPORTED, str(path), value, detail)


def too_long_max_length(path: FieldPath, value: Any, max_length: int) -> FieldError:
    """`field.TooLongMaxLength`: every list and size limit of resource.k8s.io uses it."""
    detail = f"may not be longer than {max_length}" if max_length >= 0 else "value is too long"
    return FieldError(ErrorType.TOO_LONG, str(path), value, detail)


def too_long(path: FieldPath, value: Any, max_length: int) -> FieldError:
    """`field.TooLong` (1.30): byte limits such as driver names and the annotation budget."""
    detail = f"must have at most {max_length} bytes" if max_length >= 0 else "value is too long"
    return FieldError(ErrorType.TOO_LONG, str(path), value, detail)


def too_many(path: FieldPath, actual: int, max_quantity: int) -> FieldError:
    return FieldError(ErrorType.TOO_MANY, str(path), actual, f"must have at most {max_quantity} items")


def too_long_bytes(path: FieldPath, max_length: int) -> FieldError:
    """`field.TooLong` of apimachinery 0.32+ (Kubernetes 1.32 on): the value is never shown, the detail
    counts bytes."""
    return FieldError(
        ErrorType.TOO_LONG,
        str(path),
        "<value omitted>",
        _limit_detail("may not be more than", max_length, "byte"),
    )


def too_long_characters(path: FieldPath, max_length: int) -> FieldError:
    """`field.TooLongCharacters` (apimachinery 0.34+): as `too_long_bytes`, counting characters."""
    detail = _limit_detail("may not be more than", max_length, "character")
    return FieldError(ErrorType.TOO_LONG, str(path), "<value omitted>", detail)


def too_many_items(path: FieldPath, actual: int, max_quantity: int) -> FieldError:
    """`field.TooMany` of apimachinery 0.32+: "item" when the limit is one."""
    if max_quantity < 0:
        return FieldError(ErrorType.TOO_MANY, str(path), actual, "has too many items")
    noun = "item" if max_quantity == 1 else "items"
    return FieldError(ErrorType.TOO_MANY, str(path), actual, f"must have at most {max_quantity} {noun}")


def _limit_detail(prefix: str, limit: int, unit: str) -> str:
    if limit < 0:
        return "value is too long"
    return f"{prefix} {limit} {unit}" + ("" if limit == 1 else "s")


def internal(path: FieldPath, detail: str) -> FieldError:
    return FieldError(ErrorType.INTERNAL, str(path), None, detail)


# --- the bookkeeping of declarative validation (Kubernetes 1.34 on) ------------------------------


def with_origin(errors: Iterable[FieldError], origin: str) -> ErrorList:
    """`ErrorList.WithOrigin`: every error with this origin."""
    return [replace(error, origin=origin) for error in errors]


def covered_by_declarative(errors: Iterable[FieldError]) -> ErrorList:
    """`ErrorList.MarkCoveredByDeclarative`: hand-written errors that declarative validation also
    reports (the API server drops them when an enforced declarative twin is found)."""
    return [replace(error, covered_by_declarative=True) for error in errors]


def at_stability(errors: Iterable[FieldError], stability: Stability) -> ErrorList:
    """`ErrorList.MarkAlpha` / `MarkBeta`: declarative errors of a lifecycle stage."""
    return [replace(error, stability=stability) for error in errors]


def from_declarative(errors: Iterable[FieldError]) -> ErrorList:
    """The errors of the declarative pass as the merge appends them to the hand-written ones."""
    return [replace(error, declarative=True) for error in errors]


# --- the aggregated error of apierrors.NewInvalid ------------------------------------------------


def aggregate_message(errors: Sequence[FieldError]) -> str:
    """`ErrorList.ToAggregate().Error()`: distinct error strings, in order, bracketed when several."""
    seen: dict[str, None] = {}
    for error in errors:
        seen.setdefault(str(error), None)
    messages = list(seen)
    if len(messages) == 1:
        return messages[0]
    return "[" + ", ".join(messages) + "]"


def invalid_message(kind: str, group: str, name: str, errors: Sequence[FieldError]) -> str:
    """The `message` of `apierrors.NewInvalid(GroupKind, name, errs)`."""
    qualified = f"{kind}.{group}" if group else kind
    if not errors:
        return f"{qualified} {go_quote(name)} is invalid"
    return f"{qualified} {go_quote(name)} is invalid: {aggregate_message(errors)}"


# --- Go value printing --------------------------------------------------------------------------


def go_value(value: Any) -> str:
    """Print a bad value as `ErrorBody()` does (see the module docstring)."""
    if value is None:
        return '"null"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return go_float(value)
    if isinstance(value, str):
        return go_quote(value)
    if isinstance(value, GoText):
        return value.text
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=False, default=str)


# `json.dumps(value, separators=(",", ":"), ensure_ascii=False)` builds a `JSONEncoder` in Python and
# then json's C encoder, on every call: most of its cost for a small value. The C encoder is made once
# here (`json.encoder.c_make_encoder`, None on an interpreter without json's C accelerator) with the
# arguments `JSONEncoder.iterencode` gives it; no markers, as a decoded JSON document (and any value
# built of one) cannot contain itself.
_C_MAKE_ENCODER: Final[Any] = getattr(json.encoder, "c_make_encoder", None)  # not in typeshed
_COMPACT_JSON: Final[Any] = (
    None
    if _C_MAKE_ENCODER is None
    else _C_MAKE_ENCODER(
        None, json.JSONEncoder().default, json.encoder.encode_basestring, None, ":", ",", False, False, True
    )
)


def compact_json(value: Any) -> str:
    """`json.dumps(value, separators=(",", ":"), ensure_ascii=False)`, character for character, for a
    value without cycles."""
    if _COMPACT_JSON is None:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return "".join(_COMPACT_JSON(value, 0))


def go_json(value: Any) -> str:
    """`json.Marshal` of a value built of dicts (in Go field order), lists, strings, ints and bools:
    compact, with Go's HTML-safe escapes of '<', '>' and '&'. apimachinery 0.34+ prints the bad value
    of an error this way when it is neither a string nor a number (`ErrorBody`), and so are the
    values of named string types (an enum such as a taint effect, a `FullyQualifiedName`): Go's
    encoder also escapes U+2028 and U+2029, and a lone surrogate (which Go's decoder had turned into
    U+FFFD) is written as U+FFFD."""
    encoded = compact_json(value)
    encoded = encoded.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    if not encoded.isascii():
        encoded = encoded.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
        encoded = "".join("\ufffd" if 0xD800 <= ord(char) <= 0xDFFF else char for char in encoded)
    return encoded


def go_json_value(value: Any) -> GoText:
    """A bad value that `ErrorBody` prints with `json.Marshal`, ready to put in an error."""
    return GoText(go_json(value))


def go_float(value: float) -> str:
    """`%v` of a float64 (strconv %g, shortest): exponent form when the exponent is < -4 or >= 6."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if value == 0:
        return "-0" if math.copysign(1.0, value) < 0 else "0"
    sign, digit_tuple, exponent = Decimal(repr(value)).normalize().as_tuple()
    digits = "".join(map(str, digit_tuple))
    point = len(digits) + int(exponent)  # digits before the decimal point
    scientific = point - 1
    prefix = "-" if sign else ""
    if scientific < -4 or scientific >= 6:
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{prefix}{mantissa}e{'-' if scientific < 0 else '+'}{abs(scientific):02d}"
    if point <= 0:
        return f"{prefix}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return prefix + digits + "0" * (point - len(digits))
    return f"{prefix}{digits[:point]}.{digits[point:]}"


def go_quote(text: str) -> str:
    """`strconv.Quote`: double-quoted, Go escapes, printable Unicode kept as is."""
    if text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'  # nothing to escape: a 16 KiB value is quoted in microseconds, not milliseconds
    out = ['"']
    for char in text:
        code = ord(char)
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif char in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[char])
        elif 0xD800 <= code <= 0xDFFF:
            # A lone surrogate is not valid UTF-8; Go prints the replacement for invalid bytes.
            out.append("\\ufffd")
        elif char.isprintable() or char == " ":
            out.append(char)
        elif code < 0x80:
            out.append(f"\\x{code:02x}")
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


_SHORT_ESCAPES = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
}
