"""The compiled schema: a tree of small node objects, one per schema position, and the walk that
checks an object against it (`webhook.schemas` builds and runs it; `webhook.schema_compiler` makes
it from a schema file).

A walk only builds paths when it has something to report: while walking, a path is a linked tuple,
rendered into a `FieldPath` for an error or a warning. Each node knows the Python type whose values
need no look at all (`Node.settled`), so a parent skips most children without a call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from webhook.field import ROOT, ErrorList, FieldPath, go_quote, invalid, not_supported, required, type_invalid
from webhook.gotime import is_rfc3339
from webhook.quantity import INT64_MAX, INT64_MIN, quantity_error

# sigs.k8s.io/json `saveStrictError`: at most 100 strict (unknown-field) errors are kept.
MAX_UNKNOWN_FIELD_WARNINGS: Final = 100

_INT32_MIN: Final = -(2**31)
_INT32_MAX: Final = 2**31 - 1
# The integers mypyc holds unboxed (63-bit tagged), compared without a call: all within int64.
_TAGGED_MIN: Final = -4611686018427387904
_TAGGED_MAX: Final = 4611686018427387903


# --- paths -----------------------------------------------------------------------------------------
#
# While walking, a path is a linked tuple (parent, segment): building one costs a tuple, and it is
# only rendered into a FieldPath when there is something to report. A segment is a field name (str),
# a list index (int) or a map key (_MapKey).

Link = tuple[Any, Any] | None


class _MapKey:
    """A map key in a path: rendered ``[key]`` as `field.Path.Key` renders it. (Not a `str`
    subclass: mypyc compiles this module, and cannot compile classes derived from `str`.)"""

    __slots__ = ("key",)

    def __init__(self, key: str) -> None:
        self.key = key


def _field_path(link: Link) -> FieldPath:
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
JSON_TYPES: Final = frozenset({"object", "array", "string", "boolean", "integer", "number", "null"})


def json_type(value: Any) -> str:
    """The JSON type of a decoded value, as kube-openapi's `schemaInfoForType` names it.

    An integer that does not fit in an int64 is a "number": a Go decoder cannot store it as an
    integer (the API server's generic JSON decoding falls back to float64).
    """
    name = _JSON_TYPE_NAMES.get(type(value))
    if name is None:
        name = _json_type_of_subclass(value)
    if name == "integer" and not INT64_MIN <= value <= INT64_MAX:
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


# --- the compiled schema ---------------------------------------------------------------------------

NULL: Final = type(None)


class SoleMembers:
    """The members of one-member map values (a device's attributes) that one walk found settled, by
    identity (a JSON decoder gives repeated keys as one object), for one struct: a member seen again
    with a value of the same type is settled without a look-up. `last` and `previous` are the last
    two such (member, type) pairs; `int_member` a member `Struct.settles` settled an integer in (a
    plain int64 field), which then takes any integer mypyc holds unboxed; `quantity_member` one it
    settled a string in (a quantity field), which then takes any remembered quantity."""

    __slots__ = (
        "int_member",
        "last_member",
        "last_type",
        "previous_member",
        "previous_type",
        "quantity_member",
    )

    def __init__(self) -> None:
        self.last_member: Any = None
        self.last_type: type = NULL
        self.previous_member: Any = None
        self.previous_type: type = NULL
        self.int_member: Any = None
        self.quantity_member: Any = None


class Findings:
    """What one walk found: errors in order, unknown-field warnings deduplicated and capped; and, for
    each struct that map values are of, what it found settled in them (`SoleMembers`)."""

    __slots__ = ("errors", "report_missing_required", "sole_members", "warnings")

    def __init__(self, report_missing_required: bool) -> None:
        self.errors: ErrorList = []
        self.warnings: dict[str, None] = {}
        self.report_missing_required = report_missing_required
        self.sole_members: dict[Node, SoleMembers] = {}

    def wrong_type(self, link: Link, expected: str, actual: str) -> None:
        path = _field_path(link)
        self.errors.append(
            type_invalid(path, actual, f"{path} in body must be of type {expected}: {go_quote(actual)}")
        )

    def unknown_field(self, link: Link) -> None:
        if len(self.warnings) < MAX_UNKNOWN_FIELD_WARNINGS:
            self.warnings.setdefault(f"unknown field {go_quote(str(_field_path(link)))}", None)


class Node:
    """A compiled schema node.

    `settled` is the Python type whose values are valid here without a look (`str` for a plain
    string, `bool` for a plain boolean), NoneType where every value needs one: a parent skips
    a child of its node's settled type, or null (which leaves the Go field at its zero value),
    without a call.
    """

    __slots__ = ("settled",)

    def __init__(self, settled: type = NULL) -> None:
        self.settled = settled

    def check(self, value: Any, link: Link, findings: Findings) -> None:
        raise NotImplementedError


class AnyValue(Node):
    """Raw JSON (RawExtension, FieldsV1): every value decodes, nothing inside is a field."""

    __slots__ = ()

    def check(self, value: Any, link: Link, findings: Findings) -> None:
        return


FormatCheck = Callable[[Any, Link, Findings], None]


class Scalar(Node):
    """A JSON scalar, with a format or an enum. The compiler gives the common ones a subclass whose
    `check` decides a valid value in one test before the general check below."""

    __slots__ = ("accepted", "enum", "expected", "format_check")

    def __init__(
        self,
        accepted: frozenset[str],
        expected: str,
        format_check: FormatCheck | None,
        enum: tuple[Any, ...] | None,
    ) -> None:
        plain = format_check is None and enum is None
        settled = str if accepted == {"string"} else bool if accepted == {"boolean"} else NULL
        super().__init__(settled if plain else NULL)
        self.accepted = accepted
        self.expected = expected
        self.format_check = format_check
        self.enum = enum

    def check(self, value: Any, link: Link, findings: Findings) -> None:
        actual = json_type(value)
        if actual not in self.accepted:
            findings.wrong_type(link, self.expected, actual)
            return
        if self.format_check is not None:
            self.format_check(value, link, findings)
        if self.enum is not None and value not in self.enum:
            supported = [choice for choice in self.enum if isinstance(choice, str)]
            findings.errors.append(not_supported(_field_path(link), value, supported))


class StringEnum(Scalar):
    """A string out of a list of strings (apiVersion, kind, allocationMode)."""

    __slots__ = ("choices",)

    def __init__(self, expected: str, enum: tuple[str | None, ...]) -> None:
        super().__init__(frozenset({"string"}), expected, None, enum)
        self.choices = frozenset(choice for choice in enum if choice is not None)

    def check(self, value: Any, link: Link, findings: Findings) -> None:
        if type(value) is not str or value not in self.choices:
            Scalar.check(self, value, link, findings)


class DateTime(Scalar):
    """A string that `time.Parse(time.RFC3339, ...)` reads (metav1.Time)."""

    __slots__ = ()

    def __init__(self, expected: str) -> None:
        super().__init__(frozenset({"string"}), expected, _check_date_time, None)

    def check(self, value: Any, link: Link, findings: Findings) -> None:
        if type(value) is not str or not is_rfc3339(value):
            Scalar.check(self, value, link, findings)


class Int64(Scalar):
    """An integer: Go's decoder takes a JSON integer that fits in an int64."""

    __slots__ = ()

    def __init__(self, expected: str) -> None:
        super().__init__(frozenset({"integer"}), expected, None, None)

    def check(self, value: Any, link: Link, findings: Findings) -> None:
        if type(value) is not int or not INT64_MIN <= value <= INT64_MAX:
            Scalar.check(self, value, link, findings)


class Int32(Scalar):
    """An int32 field: Go's decoder takes a JSON integer that fits in an int32."""

    __slots__ = ()

    def __init__(self, expected: str) -> None:
        super().__init__(frozenset({"integer"}), expected, _check_int32, None)

    def check(self, value: Any, link: Link, findings: Findings) -> None:
        if type(value) is not int or not _INT32_MIN <= value <= _INT32_MAX:
            Scalar.check(self, value, link, findings)


class QuantityScalar(Scalar):
    """A `resource.Quantity` (`format: quantity`): a string `ParseQuantity` reads, or a number. A
    string found valid is remembered (a slice repeats its capacities on every device)."""

    __slots__ = ()

    def __init__(self, accepted: frozenset[str], expected: str) -> None:
        super().__init__(accepted, expected, _check_quantity, None)

    def check(self, value: Any, link: Link, findings: Findings) -> None:
        if type(value) is not str or value not in _VALID_QUANTITIES:
            Scalar.check(self, value, link, findings)


class FreeObject(Node):
    """`type: object` with neither properties nor additionalProperties: any object."""

    __slots__ = ()

    def check(self, value: Any, link: Link, findings: Findings) -> None:
        if type(value) is not dict and not isinstance(value, Mapping):
            findings.wrong_type(link, "object", json_type(value))


class Struct(Node):
    """A Go struct: known fields are checked, other keys are unknown fields.

    A field's value is decided by one lookup of its node, whose settled type is a C field of the
    node. `settled_types` maps each field to that type, for the items of a list, which are decided
    by types alone (see `check_items`); an unknown field maps to nothing, whose type no value has.
    """

    __slots__ = ("fields", "int64_fields", "required", "settled_types")

    def __init__(self, fields: Mapping[str, Node], required: tuple[str, ...]) -> None:
        super().__init__()
        self.fields: dict[str, Node] = dict(fields)
        self.settled_types: dict[str, type] = {name: node.settled for name, node in fields.items()}
        # The fields of a plain int64 (`Int64`, no format but int64, no enum): an integer within
        # int64 needs no look there either.
        self.int64_fields: frozenset[str] = frozenset(
            name for name, node in fields.items() if type(node) is Int64
        )
        self.required = required

    def check(self, value: Any, link: Link, findings: Findings) -> None:
        if type(value) is not dict:
            if not isinstance(value, Mapping):
                findings.wrong_type(link, "object", json_type(value))
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

    def check_items(self, array: list[Any], link: Link, findings: Findings) -> None:
        """`check` of every item of a list of these structs (a list's items are checked here).

        An object whose fields all hold values that need no look (`settles`: 32 consumer references)
        is decided by one loop over its fields, without a call; any other item gets the full
        check, from its first field.
        """
        look_at_all = findings.report_missing_required and bool(self.required)
        for index, item in enumerate(array):
            if type(item) is dict and not look_at_all and self.settles(item):
                continue
            if item is not None:
                self.check(item, (link, index), findings)

    def settles(self, obj: dict[Any, Any]) -> bool:
        """True when `check(obj)` finds nothing for certain, from the types of its values alone: each
        is of its field's settled type (null where that is NoneType), an integer within int64 in
        a plain int64 field, or a string found valid before in a quantity field (`QuantityScalar`
        finds nothing in it). An unknown field settles nothing. False says nothing: the caller runs
        `check`. (Missing required fields are the caller's to look for.)"""
        settled_types = self.settled_types
        for key, child in obj.items():
            if type(child) is settled_types.get(key):
                continue
            if type(child) is int:
                if key in self.int64_fields and (
                    _TAGGED_MIN <= child <= _TAGGED_MAX or INT64_MIN <= child <= INT64_MAX
                ):
                    continue
            elif (
                type(child) is str
                and child in _VALID_QUANTITIES
                and type(self.fields.get(key)) is QuantityScalar
            ):
                continue
            return False
        return True

    def settles_sole_member(self, obj: dict[Any, Any], sole: SoleMembers) -> bool:
        """`settles` for an object of one field, helped by what `sole` remembers of this walk."""
        for member, value in obj.items():
            value_type = type(value)
            if (member is sole.last_member and value_type is sole.last_type) or (
                member is sole.previous_member and value_type is sole.previous_type
            ):
                return True
            if type(value) is int and member is sole.int_member:
                return _TAGGED_MIN <= value <= _TAGGED_MAX or self.settles(obj)
            if type(value) is str and member is sole.quantity_member:
                return value in _VALID_QUANTITIES or self.settles(obj)
            if value_type is self.settled_types.get(member):
                sole.previous_member, sole.previous_type = sole.last_member, sole.last_type
                sole.last_member, sole.last_type = member, value_type
                return True
            if not self.settles(obj):
                return False
            if type(value) is int:
                sole.int_member = member
            elif type(value) is str:  # not of the settled type: a remembered quantity
                sole.quantity_member = member
            return True
        return False

    def _report_missing(self, value: dict[Any, Any], link: Link, findings: Findings) -> None:
        for name in self.required:
            if value.get(name) is None:
                findings.errors.append(required(_field_path((link, name))))


class Map(Node):
    """A Go map[string]T (labels, annotations, a device's attributes).

    A map of structs decides each value that its struct `settles` without a call (a device's
    attributes, one scalar member each); a value of one member by what the walk found settled
    before (`SoleMembers`), mostly without a look-up."""

    __slots__ = ("struct_values", "values")

    def __init__(self, values: Node) -> None:
        super().__init__()
        self.values = values
        self.struct_values = values if isinstance(values, Struct) else None

    def check(self, value: Any, link: Link, findings: Findings) -> None:
        if type(value) is not dict:
            if not isinstance(value, Mapping):
                findings.wrong_type(link, "object", json_type(value))
                return
            value = dict(value)
        obj: dict[Any, Any] = value
        values = self.values
        settled = values.settled
        struct = self.struct_values
        if struct is not None and findings.report_missing_required and struct.required:
            struct = None  # each value is looked at for its required fields
        sole: SoleMembers | None = None
        if struct is not None:
            sole = findings.sole_members.get(struct)
            if sole is None:
                sole = findings.sole_members[struct] = SoleMembers()
        for key, child in obj.items():
            if type(child) is settled or child is None:
                continue
            if struct is not None and sole is not None and type(child) is dict:
                members: dict[Any, Any] = child
                if len(members) == 1:
                    if struct.settles_sole_member(members, sole):
                        continue
                elif struct.settles(members):
                    continue
            values.check(child, (link, _MapKey(key)), findings)


class Array(Node):
    __slots__ = ("items", "struct_items")

    def __init__(self, items: Node) -> None:
        super().__init__()
        self.items = items
        self.struct_items = items if isinstance(items, Struct) else None

    def check(self, value: Any, link: Link, findings: Findings) -> None:
        if type(value) is not list:
            actual = json_type(value)
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


def _check_date_time(value: Any, link: Link, findings: Findings) -> None:
    if not is_rfc3339(value):  # metav1.Time.UnmarshalJSON: time.Parse(time.RFC3339, ...)
        path = _field_path(link)
        findings.errors.append(
            type_invalid(path, value, f"{path} in body must be of type date-time: {go_quote(value)}")
        )


def _check_int32(value: Any, link: Link, findings: Findings) -> None:
    # json.Unmarshal into an int32 fails for an integer out of its range (UnmarshalTypeError).
    if isinstance(value, int) and not isinstance(value, bool) and not _INT32_MIN <= value <= _INT32_MAX:
        path = _field_path(link)
        findings.errors.append(type_invalid(path, value, f"{path} in body must be of type int32"))


def _check_quantity(value: Any, link: Link, findings: Findings) -> None:
    if isinstance(value, str):
        message = quantity_error(value)
        if message is not None:
            findings.errors.append(invalid(_field_path(link), value, message))
        elif (
            type(value) is str
            and len(value) <= VALID_QUANTITY_MAX_LENGTH
            and len(_VALID_QUANTITIES) < VALID_QUANTITIES_MAX
        ):
            _VALID_QUANTITIES.add(value)


# Quantity strings found valid, at most this many of at most this length: parsing is pure, so a string
# valid once is valid always. Module state on purpose, as webhook/cel.py's selector cache.
VALID_QUANTITIES_MAX: Final = 4096
VALID_QUANTITY_MAX_LENGTH: Final = 64
_VALID_QUANTITIES: Final[set[str]] = set()


FORMATS: Final[Mapping[str, FormatCheck | None]] = {
    "date-time": _check_date_time,
    "int32": _check_int32,
    "int64": None,  # the integer type check already rejects what does not fit in an int64
    "quantity": _check_quantity,
}
