"""`equality.Semantic.DeepEqual` of apimachinery 1.30, over decoded JSON.

The API server compares *typed* Go values, so whether two JSON documents are "equal" depends on the
Go type behind each field (`third_party/forked/golang/reflect/deep_equal.go` and
`pkg/api/equality/semantic.go`):

* a string, bool or integer held by value: absent, ``null`` and the zero value are all the same;
* a struct held by value: absent, ``null`` and ``{}`` are its zero value;
* a pointer: nil (absent or ``null``) differs from a pointer to a zero value (``{}``, ``false``, ``0``);
* slices and maps: nil and empty are equal (the fork's ``equateNilAndEmpty``);
* `runtime.RawExtension` (internally a `runtime.Object`, `*runtime.Unknown` after conversion) and
  `metav1.FieldsV1`: nil when absent or ``null``, otherwise compared as the raw JSON bytes, so key
  order matters; the bytes are taken to be the compact JSON of the decoded value (the API server
  re-encodes objects compactly before sending them to a webhook);
* `metav1.Time`: the Semantic equality function compares the instants in UTC;
* fields Go does not know are dropped by the decoder, so they never make two values differ.

The shapes below are the Go types of `pkg/apis/resource` 1.30 that validation compares, written out
once; `semantic_equal` takes one of them. Without a shape it falls back to `ANY`, a best effort for
untyped documents that takes every nested object for a pointer to a struct (true of every object
field inside `DriverRequests` and `AllocationResult`, not of `spec` or `metadata`). No 1.30 type
compared here holds a quantity; the 1.37 types do (device capacities, counters, capacity requests)
and compare them with `QUANTITY` (the Semantic equality function of `resource.Quantity`, `Cmp`),
and their maps of structs with `Map`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from webhook.field import compact_json
from webhook.gotime import ZERO_TIME, parse_rfc3339
from webhook.quantity import quantity_of
from webhook.rules.values import flag, integer, mapping, optional_mapping, sequence, string_map, text

__all__ = [
    "ALLOCATION_RESULT",
    "ANY",
    "BOOL",
    "DRIVER_REQUESTS",
    "INT",
    "NODE_SELECTOR",
    "OBJECT_META",
    "QUANTITY",
    "RAW_OBJECT",
    "RESOURCE_CLAIM_CONSUMER_REFERENCE",
    "RESOURCE_CLAIM_SPEC",
    "RESOURCE_CLAIM_TEMPLATE_SPEC",
    "RESOURCE_HANDLE",
    "STRING",
    "STRUCTURED_RESOURCE_HANDLE",
    "TIME",
    "Amount",
    "Map",
    "Pointer",
    "Scalar",
    "Shape",
    "Slice",
    "Struct",
    "semantic_equal",
]


# --- the vocabulary of Go types -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Scalar:
    """A string, bool or integer held by value; absent and null read as `zero`."""

    zero: str | bool | int


@dataclass(frozen=True, slots=True)
class Struct:
    """A struct held by value (absent, null and ``{}`` are its zero value); keys are JSON names."""

    fields: Mapping[str, Shape]


@dataclass(frozen=True, slots=True)
class Pointer:
    """A pointer: nil (absent or null) differs from a pointer to the zero value."""

    to: Shape


@dataclass(frozen=True, slots=True)
class Slice:
    """A slice: nil and empty are equal, otherwise element by element."""

    of: Shape


@dataclass(frozen=True, slots=True)
class StringMap:
    """A `map[string]string` (labels, annotations): nil and empty are equal."""


@dataclass(frozen=True, slots=True)
class RawJSON:
    """Raw JSON bytes (`runtime.RawExtension` / `runtime.Object`, `metav1.FieldsV1`)."""


@dataclass(frozen=True, slots=True)
class Time:
    """`metav1.Time`: equal when the instants are equal in UTC; absent is the zero time."""


@dataclass(frozen=True, slots=True)
class Untyped:
    """No Go type known: see `ANY`."""


@dataclass(frozen=True, slots=True)
class Map:
    """A map with string keys and struct values (`map[QualifiedName]DeviceAttribute`): nil and empty
    are equal, else the same keys with equal values."""

    of: Shape


@dataclass(frozen=True, slots=True)
class Amount:
    """A `resource.Quantity` held by value: equal when `Cmp` says so; absent or null is zero. Text Go
    could not parse equals only the same text."""


Shape = Scalar | Struct | Pointer | Slice | StringMap | RawJSON | Time | Untyped | Map | Amount

STRING = Scalar("")
BOOL = Scalar(False)
INT = Scalar(0)
STRING_MAP = StringMap()
RAW_OBJECT = RawJSON()
TIME = Time()
ANY = Untyped()
QUANTITY = Amount()

# --- k8s.io/kubernetes/pkg/apis/core: NodeSelector --------------------------------------------------

_NODE_SELECTOR_REQUIREMENT = Struct({"key": STRING, "operator": STRING, "values": Slice(STRING)})
_NODE_SELECTOR_TERM = Struct(
    {"matchExpressions": Slice(_NODE_SELECTOR_REQUIREMENT), "matchFields": Slice(_NODE_SELECTOR_REQUIREMENT)}
)
NODE_SELECTOR = Struct({"nodeSelectorTerms": Slice(_NODE_SELECTOR_TERM)})

# --- k8s.io/apimachinery/pkg/apis/meta/v1: ObjectMeta (1.30) -----------------------------------------

_OWNER_REFERENCE = Struct(
    {
        "apiVersion": STRING,
        "kind": STRING,
        "name": STRING,
        "uid": STRING,
        "controller": Pointer(BOOL),
        "blockOwnerDeletion": Pointer(BOOL),
    }
)
_MANAGED_FIELDS_ENTRY = Struct(
    {
        "manager": STRING,
        "operation": STRING,
        "apiVersion": STRING,
        "time": Pointer(TIME),
        "fieldsType": STRING,
        "fieldsV1": Pointer(RAW_OBJECT),
        "subresource": STRING,
    }
)
OBJECT_META = Struct(
    {
        "name": STRING,
        "generateName": STRING,
        "namespace": STRING,
        "selfLink": STRING,
        "uid": STRING,
        "resourceVersion": STRING,
        "generation": INT,
        "creationTimestamp": TIME,
        "deletionTimestamp": Pointer(TIME),
        "deletionGracePeriodSeconds": Pointer(INT),
        "labels": STRING_MAP,
        "annotations": STRING_MAP,
        "ownerReferences": Slice(_OWNER_REFERENCE),
        "finalizers": Slice(STRING),
        "managedFields": Slice(_MANAGED_FIELDS_ENTRY),
    }
)

# --- k8s.io/kubernetes/pkg/apis/resource (1.30) ---------------------------------------------------

_RESOURCE_CLAIM_PARAMETERS_REFERENCE = Struct({"apiGroup": STRING, "kind": STRING, "name": STRING})
RESOURCE_CLAIM_SPEC = Struct(
    {
        "resourceClassName": STRING,
        "parametersRef": Pointer(_RESOURCE_CLAIM_PARAMETERS_REFERENCE),
        "allocationMode": STRING,
    }
)
# ObjectMeta is embedded by value in ResourceClaimTemplateSpec (`metadata`), as is the claim spec.
RESOURCE_CLAIM_TEMPLATE_SPEC = Struct({"metadata": OBJECT_META, "spec": RESOURCE_CLAIM_SPEC})

# DriverAllocationResult embeds AllocationResultModel, so its fields sit at the same JSON level.
_DRIVER_ALLOCATION_RESULT = Struct(
    {"vendorRequestParameters": RAW_OBJECT, "namedResources": Pointer(Struct({"name": STRING}))}
)
STRUCTURED_RESOURCE_HANDLE = Struct(
    {
        "vendorClassParameters": RAW_OBJECT,
        "vendorClaimParameters": RAW_OBJECT,
        "nodeName": STRING,
        "results": Slice(_DRIVER_ALLOCATION_RESULT),
    }
)
RESOURCE_HANDLE = Struct(
    {"driverName": STRING, "data": STRING, "structuredData": Pointer(STRUCTURED_RESOURCE_HANDLE)}
)
ALLOCATION_RESULT = Struct(
    {
        "resourceHandles": Slice(RESOURCE_HANDLE),
        "availableOnNodes": Pointer(NODE_SELECTOR),
        "shareable": BOOL,
    }
)
RESOURCE_CLAIM_CONSUMER_REFERENCE = Struct(
    {"apiGroup": STRING, "resource": STRING, "name": STRING, "uid": STRING}
)

# ResourceClaimParameters.driverRequests, compared to pick the CEL environment on update.
# ResourceRequest embeds ResourceRequestModel.
_RESOURCE_REQUEST = Struct(
    {"vendorParameters": RAW_OBJECT, "namedResources": Pointer(Struct({"selector": STRING}))}
)
DRIVER_REQUESTS = Slice(
    Struct({"driverName": STRING, "vendorParameters": RAW_OBJECT, "requests": Slice(_RESOURCE_REQUEST)})
)


# --- the comparison ------------------------------------------------------------------------------


def semantic_equal(a: Any, b: Any, shape: Shape = ANY) -> bool:
    """`equality.Semantic.DeepEqual(a, b)` for two decoded JSON values of the Go type `shape`."""
    if type(shape) is not Untyped and _identical_documents(a, b):
        return True
    return _semantic_equal(a, b, shape)


def _identical_documents(a: Any, b: Any) -> bool:
    """Whether `a` and `b` are the same JSON document: then they are semantically equal under every
    Go type (the typed shapes read any value, NaN included, the same way twice), and the usual case
    -- an update that leaves the compared part alone -- is decided in C.

    Python's `==` decides most of it; `_same_layout` then rules out what `==` forgives: key order
    (which raw JSON fields compare), and 1 == 1.0 == true. NaN is not equal to itself, so `==` rules
    out null-versus-NaN... except for one NaN object in both, which both documents then hold. `ANY`
    always walks: its scalars compare with `==`, and NaN is not equal to itself there even when `==`
    on the containers says so (Python compares the same object as equal)."""
    try:
        return bool(a == b) and _same_layout(a, b)
    except RecursionError:  # nested deeper than the interpreter compares
        return False


def _same_layout(a: Any, b: Any) -> bool:
    """For `a == b`: whether every value is of the same type in both and every object has its keys in
    the same order, so that they are written as the same JSON. Objects and lists other than dict and
    list (a caller's own, through the Python API) are not decided here: False, the typed walk.
    (Plain loops: mypyc compiles them to C, not a generator inside all().)"""
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is dict:
        left: dict[Any, Any] = a
        right: dict[Any, Any] = b
        # The same keys (a == b): side by side, in the same order, each with a value of the same layout.
        for (key, value), (other_key, other_value) in zip(left.items(), right.items()):  # noqa: B905
            if key != other_key or not _same_layout(value, other_value):
                return False
        return True
    if kind is list:
        left_items: list[Any] = a
        right_items: list[Any] = b
        for i in range(len(left_items)):  # noqa: SIM110
            if not _same_layout(left_items[i], right_items[i]):
                return False
        return True
    if kind is float:
        return a is b or str(a) == str(b)  # 0.0 == -0.0, written apart (NaN: the one object in both)
    return kind is str or kind is int or kind is bool or a is None


def _semantic_equal(a: Any, b: Any, shape: Shape) -> bool:
    """The typed walk. Dispatched on the exact class of the shape (the shape classes are final)."""
    if type(shape) is Struct:
        left, right = mapping(a), mapping(b)
        return all(_parts_equal(left.get(key), right.get(key), field) for key, field in shape.fields.items())
    if type(shape) is Scalar:
        return _read_scalar(a, shape.zero) == _read_scalar(b, shape.zero)
    if type(shape) is Pointer:
        if a is None or b is None:
            return a is None and b is None
        return _semantic_equal(a, b, shape.to)
    if type(shape) is Slice:
        left_items, right_items = sequence(a), sequence(b)
        item = shape.of
        return len(left_items) == len(right_items) and all(
            _parts_equal(x, y, item) for x, y in zip(left_items, right_items, strict=True)
        )
    if type(shape) is StringMap:
        return string_map(a) == string_map(b)
    if type(shape) is RawJSON:
        return _raw_bytes(a) == _raw_bytes(b)
    if type(shape) is Time:
        return _instant(a) == _instant(b)
    if type(shape) is Untyped:
        return _untyped_equal(a, b)
    if type(shape) is Map:
        left, right = mapping(a), mapping(b)
        value = shape.of
        return left.keys() == right.keys() and all(_parts_equal(left[k], right[k], value) for k in left)
    if type(shape) is Amount:
        return _amount(a) == _amount(b)
    raise TypeError(f"not a shape: {shape!r}")  # pragma: no cover - the tests above are exhaustive


def _parts_equal(a: Any, b: Any, shape: Shape) -> bool:
    """A field or an item inside a typed document (never `ANY`): the same object, or the same JSON
    document -- the parts an update leaves alone -- is equal under every typed shape (see
    `_identical_documents`), so only the parts that differ are walked."""
    if a is b:
        return True
    if (type(a) is dict or type(a) is list) and _identical_documents(a, b):
        return True
    return _semantic_equal(a, b, shape)


def _read_scalar(value: Any, zero: str | bool | int) -> str | bool | int:
    if isinstance(zero, bool):
        return flag(value)
    if isinstance(zero, int):
        return integer(value)
    return text(value)


def _raw_bytes(value: Any) -> str:
    """The raw bytes of a RawExtension: none for absent/null, else the compact JSON in key order."""
    if value is None:
        return ""
    return compact_json(value)


def _instant(value: Any) -> object:
    """A metav1.Time as its instant (`webhook.gotime`); null or absent is the zero time. Text Go
    could not parse is kept as text, so it equals only the same text."""
    if value is None:
        return ZERO_TIME
    if not isinstance(value, str):
        return ("not a string", json.dumps(value))  # Go could not decode it; equal only to itself
    return parse_rfc3339(value) or value


def _amount(value: Any) -> object:
    """A quantity as its exact number; null or absent is zero."""
    if value is None:
        return Fraction(0)
    parsed = quantity_of(value)
    if parsed is None:
        return ("not a quantity", json.dumps(value))
    return (
        Fraction(parsed.unscaled, 10**parsed.scale)
        if parsed.scale >= 0
        else Fraction(parsed.unscaled * 10 ** (-parsed.scale))
    )


def _is_untyped_zero(value: Any) -> bool:
    # An empty object is deliberately not zero: untyped objects are taken for pointers.
    return value is None or value == [] or (isinstance(value, str | bool | int) and not value)


def _untyped_equal(a: Any, b: Any) -> bool:
    """Best effort without a Go type: null, absent and zero scalars are equal, nil and empty lists are
    equal, and an object (even ``{}``) differs from absent, as a pointer to a struct does."""
    if _is_untyped_zero(a) or _is_untyped_zero(b):
        return _is_untyped_zero(a) and _is_untyped_zero(b) and (a is None or b is None or type(a) is type(b))
    left_map, right_map = optional_mapping(a), optional_mapping(b)
    if left_map is not None or right_map is not None:
        if left_map is None or right_map is None:
            return False
        keys = left_map.keys() | right_map.keys()
        return all(_untyped_equal(left_map.get(k), right_map.get(k)) for k in keys)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_untyped_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and bool(a == b)
