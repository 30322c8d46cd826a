"""How Go's encoding/json writes a resource.k8s.io/v1 value that an error shows.

From apimachinery 0.34 on, `field.Error.ErrorBody` prints a bad value that is not a plain string
or number with `json.Marshal`. Declarative validation reports a duplicate list item with the
whole item (`validate.ValSliceUnique`), so the message holds the item as Go re-encodes the typed
struct: fields in declaration order, `omitempty` fields left out when empty, the others written
even when absent from the request (a nil slice or pointer as null), map keys sorted.

The shapes below are the types of `k8s.io/api/resource/v1` (types.go, 1.37) that such messages
show. The hand-written validation runs on the internal types instead (`pkg/apis/resource`,
`pkg/apis/core`), which have no json tags: a struct it shows is written with Go's field names and
every field (`InternalStruct`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from webhook.field import GoText, go_json
from webhook.gotime import ZERO_TIME, parse_rfc3339
from webhook.quantity import canonical_text, quantity_of


@dataclass(frozen=True, slots=True)
class Scalar:
    """A string, integer or bool held by value; `zero` is what absent and null decode to."""

    zero: str | int | bool


@dataclass(frozen=True, slots=True)
class Pointer:
    """A pointer: nil when absent or null."""

    to: Shape


@dataclass(frozen=True, slots=True)
class Slice:
    """A slice: nil when absent or null, written as null then (without omitempty)."""

    of: Shape


@dataclass(frozen=True, slots=True)
class StringMap:
    """A map with string keys (written sorted by key)."""

    of: Shape


@dataclass(frozen=True, slots=True)
class Struct:
    """A struct: (JSON name, shape, omitempty) in declaration order."""

    fields: tuple[tuple[str, Shape, bool], ...]


@dataclass(frozen=True, slots=True)
class InternalStruct:
    """A struct of an internal type (`pkg/apis/resource`, `pkg/apis/core`), which the hand-written
    validation works on: it has no json tags, so `json.Marshal` writes every field, under its Go
    name. (JSON name in the request, Go name, shape) in declaration order. A struct embedded without
    a tag (Go name `EMBEDDED`, such as the `metav1.ObjectMeta` of a ResourceClaimTemplateSpec) has
    its own fields promoted: they are written in its place, under their names in that struct."""

    fields: tuple[tuple[str, str, Shape], ...]


@dataclass(frozen=True, slots=True)
class OmitZero:
    """A struct field tagged `omitzero` (Go 1.24+, with `omitempty` or not): left out when its value
    is zero as the type's `IsZero` says. Used for `metav1.Time`, whose zero value encodes to null."""

    of: Shape


@dataclass(frozen=True, slots=True)
class Raw:
    """`runtime.RawExtension`: the JSON as is (compacted)."""


@dataclass(frozen=True, slots=True)
class Time:
    """`metav1.Time`: RFC 3339 in whole seconds, null for the zero time."""


@dataclass(frozen=True, slots=True)
class Amount:
    """`resource.Quantity`: `MarshalJSON` writes its `String()`, the canonical form ("1.05" is
    written "1050m"); the zero value is "0"."""


Shape = Scalar | Pointer | Slice | StringMap | Struct | InternalStruct | OmitZero | Raw | Time | Amount

# The Go name of a struct embedded without a json tag in an `InternalStruct` (its fields are promoted).
EMBEDDED: Final = ""

STRING: Final = Scalar("")
INT: Final = Scalar(0)
BOOL: Final = Scalar(False)
QUANTITY: Final = Amount()

_CEL_DEVICE_SELECTOR: Final = Struct((("expression", STRING, False),))
_DEVICE_SELECTOR: Final = Struct((("cel", Pointer(_CEL_DEVICE_SELECTOR), True),))
_DEVICE_TOLERATION: Final = Struct(
    (
        ("key", STRING, True),
        ("operator", STRING, True),
        ("value", STRING, True),
        ("effect", STRING, True),
        ("tolerationSeconds", Pointer(INT), True),
    )
)
_CAPACITY_REQUIREMENTS: Final = Struct((("requests", StringMap(QUANTITY), True),))
EXACT_DEVICE_REQUEST: Final = Struct(
    (
        ("deviceClassName", STRING, False),
        ("selectors", Slice(_DEVICE_SELECTOR), True),
        ("allocationMode", STRING, True),
        ("count", INT, True),
        ("adminAccess", Pointer(BOOL), True),
        ("tolerations", Slice(_DEVICE_TOLERATION), True),
        ("capacity", Pointer(_CAPACITY_REQUIREMENTS), True),
    )
)
DEVICE_SUB_REQUEST: Final = Struct(
    (
        ("name", STRING, False),
        ("deviceClassName", STRING, False),
        ("selectors", Slice(_DEVICE_SELECTOR), True),
        ("allocationMode", STRING, True),
        ("count", INT, True),
        ("tolerations", Slice(_DEVICE_TOLERATION), True),
        ("capacity", Pointer(_CAPACITY_REQUIREMENTS), True),
    )
)
DEVICE_REQUEST: Final = Struct(
    (
        ("name", STRING, False),
        ("exactly", Pointer(EXACT_DEVICE_REQUEST), True),
        ("firstAvailable", Slice(DEVICE_SUB_REQUEST), True),
    )
)
RESOURCE_CLAIM_CONSUMER_REFERENCE: Final = Struct(
    (
        ("apiGroup", STRING, True),
        ("resource", STRING, False),
        ("name", STRING, False),
        ("uid", STRING, False),
    )
)
CONDITION: Final = Struct(
    (
        ("type", STRING, False),
        ("status", STRING, False),
        ("observedGeneration", INT, True),
        ("lastTransitionTime", Time(), False),
        ("reason", STRING, False),
        ("message", STRING, False),
    )
)
_NETWORK_DEVICE_DATA: Final = Struct(
    (
        ("interfaceName", STRING, True),
        ("ips", Slice(STRING), True),
        ("hardwareAddress", STRING, True),
    )
)
ALLOCATED_DEVICE_STATUS: Final = Struct(
    (
        ("driver", STRING, False),
        ("pool", STRING, False),
        ("device", STRING, False),
        ("shareID", Pointer(STRING), True),
        ("conditions", Slice(CONDITION), False),
        ("data", Pointer(Raw()), True),
        ("networkData", Pointer(_NETWORK_DEVICE_DATA), True),
    )
)


def go_encoded(value: Any, shape: Shape) -> GoText:
    """The bad value `json.Marshal` prints for `value` (decoded JSON) of the Go type `shape`."""
    return GoText(go_json(_encode(value, shape)))


def _encode(value: Any, shape: Shape) -> Any:
    if isinstance(shape, Scalar):
        return value if type(value) is type(shape.zero) else shape.zero
    if isinstance(shape, Pointer):
        return None if value is None else _encode(value, shape.to)
    if isinstance(shape, Slice):
        return [_encode(item, shape.of) for item in value] if isinstance(value, list) else None
    if isinstance(shape, StringMap):
        if not isinstance(value, Mapping):
            return None
        return {str(key): _encode(value[key], shape.of) for key in sorted(value)}
    if isinstance(shape, OmitZero):
        return _encode(value, shape.of)
    if isinstance(shape, Raw):
        return value
    if isinstance(shape, Amount):
        if value is None:
            return "0"
        parsed = quantity_of(value)
        return canonical_text(parsed) if parsed is not None else str(value)
    if isinstance(shape, Time):
        instant = parse_rfc3339(value) if isinstance(value, str) else None
        return None if instant is None or instant == ZERO_TIME else instant.rfc3339_seconds()
    fields = value if isinstance(value, Mapping) else {}
    encoded: dict[str, Any] = {}
    if isinstance(shape, InternalStruct):
        for name, go_name, member_shape in shape.fields:
            member = _encode(fields.get(name), member_shape)
            if go_name == EMBEDDED and isinstance(member, dict):
                encoded.update(member)
            else:
                encoded[go_name] = member
        return encoded
    for name, field_shape, omitempty in shape.fields:
        item = _encode(fields.get(name), field_shape)
        if omitempty and _is_empty(item, field_shape):
            continue
        encoded[name] = item
    return encoded


def _is_empty(encoded: Any, shape: Shape) -> bool:
    """encoding/json's `isEmptyValue`: false, 0, "", nil pointers and empty slices and maps; a struct
    held by value is never empty. With `omitzero` the value is also left out when it is zero."""
    if isinstance(shape, OmitZero):
        return encoded is None  # the zero metav1.Time, which MarshalJSON writes as null
    if isinstance(shape, (Struct, InternalStruct, Amount, Time)):
        return False  # a struct held by value, a Quantity and a metav1.Time (structs) are never empty
    if encoded is None:
        return True
    if isinstance(shape, Scalar):
        return bool(encoded == shape.zero)
    if isinstance(shape, (Slice, StringMap)):
        return len(encoded) == 0
    return False


# --- what ResourceSlice errors show (types.go of resource.k8s.io/v1 and pkg/apis/core, 1.37) --------------

_COUNTER: Final = Struct((("value", QUANTITY, False),))
COUNTER_SET: Final = Struct((("name", STRING, False), ("counters", StringMap(_COUNTER), True)))
DEVICE_COUNTER_CONSUMPTION: Final = Struct(
    (("counterSet", STRING, False), ("counters", StringMap(_COUNTER), True))
)
# The hand-written checks print the internal types (`pkg/apis/resource/types.go`, whose
# DeviceAttribute has the Go fields IntValue ... VersionValue and no json tags, read at 007c20ad;
# the list members are taken in the order of the v1 type, which the internal type mirrors), and
# core's NodeSelectorTerm and NodeSelectorRequirement (`pkg/apis/core/types.go`: MatchExpressions,
# MatchFields; Key, Operator, Values, no json tags).
DEVICE_ATTRIBUTE: Final = InternalStruct(
    (
        ("int", "IntValue", Pointer(INT)),
        ("bool", "BoolValue", Pointer(BOOL)),
        ("string", "StringValue", Pointer(STRING)),
        ("version", "VersionValue", Pointer(STRING)),
        ("ints", "IntValues", Slice(INT)),
        ("bools", "BoolValues", Slice(BOOL)),
        ("strings", "StringValues", Slice(STRING)),
        ("versions", "VersionValues", Slice(STRING)),
    )
)
_NODE_SELECTOR_REQUIREMENT: Final = InternalStruct(
    (("key", "Key", STRING), ("operator", "Operator", STRING), ("values", "Values", Slice(STRING)))
)
NODE_SELECTOR_TERMS: Final = Slice(
    InternalStruct(
        (
            ("matchExpressions", "MatchExpressions", Slice(_NODE_SELECTOR_REQUIREMENT)),
            ("matchFields", "MatchFields", Slice(_NODE_SELECTOR_REQUIREMENT)),
        )
    )
)
STRINGS: Final = Slice(STRING)


# --- what a ResourceClaimTemplate update shows: the internal ResourceClaimTemplateSpec ------------------
# `ValidateResourceClaimTemplateUpdate` (validation.go, 1.37) reports `ValidateImmutableField(template.Spec,
# ...)`, whose value is the internal `ResourceClaimTemplateSpec` (`pkg/apis/resource/types.go`, 1.37-era
# versions read at b613ed56 and 3a5c8841 in zongruxie4/kubernetes; their members and order are those of
# the v1 types at ae5d4d35). It embeds `metav1.ObjectMeta` without a tag, so json.Marshal promotes the
# metadata's fields (written with metav1's own tags) in front of "Spec". The internal structs below have
# no tags: every field under its Go name, a nil slice or pointer as null, `[]` as [].

# metav1.ObjectMeta, OwnerReference, ManagedFieldsEntry (apimachinery v0.37.0-beta.0,
# pkg/apis/meta/v1/types.go): creationTimestamp is `omitempty,omitzero` (since 1.34) and so left out
# when zero; a FieldsV1 is written as its raw JSON.
_OWNER_REFERENCE: Final = Struct(
    (
        ("apiVersion", STRING, False),
        ("kind", STRING, False),
        ("name", STRING, False),
        ("uid", STRING, False),
        ("controller", Pointer(BOOL), True),
        ("blockOwnerDeletion", Pointer(BOOL), True),
    )
)
_MANAGED_FIELDS_ENTRY: Final = Struct(
    (
        ("manager", STRING, True),
        ("operation", STRING, True),
        ("apiVersion", STRING, True),
        ("time", Pointer(Time()), True),
        ("fieldsType", STRING, True),
        ("fieldsV1", Pointer(Raw()), True),
        ("subresource", STRING, True),
    )
)
OBJECT_META: Final = Struct(
    (
        ("name", STRING, True),
        ("generateName", STRING, True),
        ("namespace", STRING, True),
        ("selfLink", STRING, True),
        ("uid", STRING, True),
        ("resourceVersion", STRING, True),
        ("generation", INT, True),
        ("creationTimestamp", OmitZero(Time()), True),
        ("deletionTimestamp", Pointer(Time()), True),
        ("deletionGracePeriodSeconds", Pointer(INT), True),
        ("labels", StringMap(STRING), True),
        ("annotations", StringMap(STRING), True),
        ("ownerReferences", Slice(_OWNER_REFERENCE), True),
        ("finalizers", STRINGS, True),
        ("managedFields", Slice(_MANAGED_FIELDS_ENTRY), True),
    )
)
_INTERNAL_DEVICE_SELECTOR: Final = InternalStruct(
    (("cel", "CEL", Pointer(InternalStruct((("expression", "Expression", STRING),)))),)
)
_INTERNAL_DEVICE_TOLERATION: Final = InternalStruct(
    (
        ("key", "Key", STRING),
        ("operator", "Operator", STRING),
        ("value", "Value", STRING),
        ("effect", "Effect", STRING),
        ("tolerationSeconds", "TolerationSeconds", Pointer(INT)),
    )
)
_INTERNAL_CAPACITY_REQUIREMENTS: Final = InternalStruct((("requests", "Requests", StringMap(QUANTITY)),))
_INTERNAL_EXACT_DEVICE_REQUEST: Final = InternalStruct(
    (
        ("deviceClassName", "DeviceClassName", STRING),
        ("selectors", "Selectors", Slice(_INTERNAL_DEVICE_SELECTOR)),
        ("allocationMode", "AllocationMode", STRING),
        ("count", "Count", INT),
        ("adminAccess", "AdminAccess", Pointer(BOOL)),
        ("tolerations", "Tolerations", Slice(_INTERNAL_DEVICE_TOLERATION)),
        ("capacity", "Capacity", Pointer(_INTERNAL_CAPACITY_REQUIREMENTS)),
    )
)
_INTERNAL_DEVICE_SUB_REQUEST: Final = InternalStruct(
    (
        ("name", "Name", STRING),
        ("deviceClassName", "DeviceClassName", STRING),
        ("selectors", "Selectors", Slice(_INTERNAL_DEVICE_SELECTOR)),
        ("allocationMode", "AllocationMode", STRING),
        ("count", "Count", INT),
        ("tolerations", "Tolerations", Slice(_INTERNAL_DEVICE_TOLERATION)),
        ("capacity", "Capacity", Pointer(_INTERNAL_CAPACITY_REQUIREMENTS)),
    )
)
_INTERNAL_DEVICE_REQUEST: Final = InternalStruct(
    (
        ("name", "Name", STRING),
        ("exactly", "Exactly", Pointer(_INTERNAL_EXACT_DEVICE_REQUEST)),
        ("firstAvailable", "FirstAvailable", Slice(_INTERNAL_DEVICE_SUB_REQUEST)),
    )
)
_INTERNAL_DEVICE_CONSTRAINT: Final = InternalStruct(
    (
        ("requests", "Requests", STRINGS),
        ("matchAttribute", "MatchAttribute", Pointer(STRING)),
        ("distinctAttribute", "DistinctAttribute", Pointer(STRING)),
    )
)
# DeviceClaimConfiguration embeds DeviceConfiguration, whose one field Opaque is promoted (in v1 too,
# where it is inline). A RawExtension is written as its raw JSON (compacted), null when absent.
_INTERNAL_DEVICE_CLAIM_CONFIGURATION: Final = InternalStruct(
    (
        ("requests", "Requests", STRINGS),
        (
            "opaque",
            "Opaque",
            Pointer(InternalStruct((("driver", "Driver", STRING), ("parameters", "Parameters", Raw())))),
        ),
    )
)
_INTERNAL_RESOURCE_CLAIM_SPEC: Final = InternalStruct(
    (
        (
            "devices",
            "Devices",
            InternalStruct(
                (
                    ("requests", "Requests", Slice(_INTERNAL_DEVICE_REQUEST)),
                    ("constraints", "Constraints", Slice(_INTERNAL_DEVICE_CONSTRAINT)),
                    ("config", "Config", Slice(_INTERNAL_DEVICE_CLAIM_CONFIGURATION)),
                )
            ),
        ),
    )
)
RESOURCE_CLAIM_TEMPLATE_SPEC: Final = InternalStruct(
    (("metadata", EMBEDDED, OBJECT_META), ("spec", "Spec", _INTERNAL_RESOURCE_CLAIM_SPEC))
)
