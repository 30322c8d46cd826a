"""The devices and counter sets of a resource.k8s.io/v1 ResourceSlice as 1.37's hand-written validation
checks them: `validateDevice` and what it calls, and `validateCounterSet`
(`pkg/apis/resource/validation/validation.go` at ae5d4d35). Their declarative twins are in
`webhook.rules.v1.declared`.

Two feature gates change what is checked rather than which fields exist: DRAConsumableCapacity (on by
default in 1.37: a request policy needs `allowMultipleAllocations`) and DRAFractionalCapacityRange.
The latter is on only "if --min-compatibility-version>=1.37", and a 1.37 kube-apiserver's minimum
compatibility version defaults to 1.36 (component-base featuregate), so it is off here: valid values
are keyed by `Value()` (whole units, rounded up) and ranges are checked with 64-bit integers.

Go walks maps in random order; the document order is one of the orders Go may produce.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from webhook.field import (
    ErrorList,
    FieldPath,
    GoText,
    covered_by_declarative,
    forbidden,
    go_json_value,
    invalid,
    not_found,
    required,
    too_long_bytes,
    with_origin,
)
from webhook.quantity import (
    INT64_MAX,
    Quantity,
    add,
    canonical_text,
    compare,
    compare_int64,
    quantity_of,
    sign,
    value_int64,
)
from webhook.rules.equality import semantic_equal
from webhook.rules.names import DNS1123_LABEL_MAX_LENGTH, byte_length, validate_node_name
from webhook.rules.nodeselector import validate_node_selector
from webhook.rules.v1 import RELEASE, shapes
from webhook.rules.v1.declarative import NULL
from webhook.rules.v1.devices import (
    no_errors,
    truncate_if_too_long,
    validate_binding_parameters,
    validate_map,
    validate_set,
    validate_slice,
)
from webhook.rules.v1.devicetaints import validate_device_taint
from webhook.rules.v1.gojson import DEVICE_ATTRIBUTE, go_encoded
from webhook.rules.v1.names import (
    DEVICE_MAX_DOMAIN_LENGTH,
    DEVICE_MAX_ID_LENGTH,
    VALID_DNS_LABELS,
    VALID_QUALIFIED_NAMES,
    validate_counter_name,
    validate_device_name,
    validate_qualified_name,
)
from webhook.rules.v1.remembered import ValidValues
from webhook.rules.values import mapping, optional_mapping, sequence, text

# Limits of resource.k8s.io (pkg/apis/resource/types.go, 1.37).
MAX_ATTRIBUTES_AND_CAPACITIES_PER_DEVICE: Final = 32
MAX_ATTRIBUTE_VALUES_PER_DEVICE: Final = 48
DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH: Final = 64
DEVICE_TAINTS_MAX_LENGTH: Final = 16
MAX_COUNTERS_PER_COUNTER_SET: Final = 32
MAX_DEVICE_COUNTER_CONSUMPTIONS_PER_DEVICE: Final = 2
MAX_COUNTERS_PER_DEVICE_COUNTER_CONSUMPTION: Final = 32
CAPACITY_REQUEST_POLICY_DISCRETE_MAX_OPTIONS: Final = 10
# validation.go attributeAndCapacityMaxKeyLength: longer keys are shortened in error paths.
ATTRIBUTE_AND_CAPACITY_MAX_KEY_LENGTH: Final = DEVICE_MAX_DOMAIN_LENGTH + 1 + DEVICE_MAX_ID_LENGTH
LIST_MEMBERS: Final = ("ints", "bools", "strings", "versions")
_LIST_MEMBER_SET: Final = frozenset(LIST_MEMBERS)

# validation.go semverRe (Go's \d is ASCII).
_NUMERIC: Final = "(0|[1-9][0-9]*)"
_PRE_RELEASE: Final = "(0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)"
_BUILD: Final = "[0-9a-zA-Z-]+"
_SEMVER: Final = re.compile(
    f"{_NUMERIC}\\.{_NUMERIC}\\.{_NUMERIC}(-{_PRE_RELEASE}(\\.{_PRE_RELEASE})*)?(\\+{_BUILD}(\\.{_BUILD})*)?"
)
SEMVER_MSG: Final = "must be a string compatible with semver.org spec 2.0.0"
NOT_EMPTY_MSG: Final = "must not be empty if specified"
EXACTLY_ONE_VALUE_MSG: Final = "exactly one value must be specified"
EXACTLY_ONE_POLICY_MSG: Final = (
    'exactly one policy can be specified, cannot specify "validValues" and "validRange" at the same time'
)
PER_DEVICE_NODE_SELECTION_MSG: Final = (
    "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when "
    "`perDeviceNodeSelection` is set to true in the ResourceSlice spec"
)
NODE_SELECTION_NOT_PER_DEVICE_MSG: Final = (
    "`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to "
    "true in the ResourceSlice spec"
)
# apimachinery IsNegativeErrorMsg, and validation.go boundOverInt64Message.
IS_NEGATIVE_MSG: Final = "must be greater than or equal to 0"
BOUND_OVER_INT64_MSG: Final = "must not be larger than 9223372036854775807"

_ZERO: Final = Quantity(0, 0, "DecimalSI")


# --- small readers --------------------------------------------------------------------------------------


def _quantity(value: Any) -> Quantity:
    """A Quantity held by value: zero when absent (or not a quantity: the structural check reports
    that)."""
    return (quantity_of(value) if value is not None else None) or _ZERO


def _optional_quantity(value: Any) -> Quantity | None:
    """A *Quantity: None when absent or null."""
    return None if value is None else _quantity(value)


# --- counter sets and counter consumption -------------------------------------------------------------------


def _counter_name_covered(name: str, path: FieldPath) -> ErrorList:
    """`validateCounterName(...).MarkCoveredByDeclarative()` (+k8s:format=k8s-short-name)."""
    return covered_by_declarative(validate_counter_name(name, path))


def _validate_counters(counters: Mapping[str, Any], limit: int, path: FieldPath) -> ErrorList:
    """`validateMap(counters, limit, DNS1123LabelMaxLength, validateCounterName, validateDeviceCounter,
    path, keysCovered)`: any parsed quantity is a valid counter."""
    return validate_map(
        counters, limit, DNS1123_LABEL_MAX_LENGTH, validate_counter_name, no_errors, path, keys_covered=True
    )


def validate_counter_set(counter_set: Any, path: FieldPath) -> ErrorList:
    """`validateCounterSet`: the name (Required or a DNS label) and at least one counter, all covered
    but the limit on the counters."""
    fields = mapping(counter_set)
    name = text(fields.get("name"))
    if not name:
        errs = covered_by_declarative([required(path.child("name"), "")])
    else:
        errs = _counter_name_covered(name, path.child("name"))
    counters = mapping(fields.get("counters"))
    if not counters:
        errs += covered_by_declarative([required(path.child("counters"), "")])
    else:
        errs += _validate_counters(counters, MAX_COUNTERS_PER_COUNTER_SET, path.child("counters"))
    return errs


def _validate_counter_consumption(consumption: Any, path: FieldPath) -> ErrorList:
    """`validateDeviceCounterConsumption`."""
    fields = mapping(consumption)
    counter_set = text(fields.get("counterSet"))
    if not counter_set:
        errs = covered_by_declarative([required(path.child("counterSet"), "")])
    else:
        errs = _counter_name_covered(counter_set, path.child("counterSet"))
    counters = mapping(fields.get("counters"))
    if not counters:
        errs += covered_by_declarative([required(path.child("counters"), "")])
    else:
        errs += _validate_counters(
            counters, MAX_COUNTERS_PER_DEVICE_COUNTER_CONSUMPTION, path.child("counters")
        )
    return errs


# --- attributes -------------------------------------------------------------------------------------------


def _validate_string_value(value: str, path: FieldPath) -> ErrorList:
    """`validateDeviceAttributeStringValue`: at most 64 bytes."""
    if byte_length(value) > DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH:
        return [too_long_bytes(path, DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH)]
    return []


def _validate_version_value(value: str, path: FieldPath) -> ErrorList:
    """`validateDeviceAttributeVersionValue`: semver, then at most 64 bytes."""
    errs: ErrorList = []
    if not value.isascii() or not _SEMVER.fullmatch(value):
        errs.append(invalid(path, value, SEMVER_MSG))
    return errs + _validate_string_value(value, path)


def _empty_list(values: Any, path: FieldPath) -> ErrorList:
    """A list member that is set (non-nil) and empty; Go prints the empty slice as `[]`."""
    return [invalid(path, GoText("[]"), NOT_EMPTY_MSG)] if not values else []


def validate_attribute(attribute: Any, path: FieldPath) -> ErrorList:
    """`validateDeviceAttribute`: each member that is set (a list member even when empty), then
    exactly one member (covered, origin "union")."""
    fields = mapping(attribute)
    if len(fields) == 1:  # the usual attribute, one scalar member: only its value to check
        for member, value in fields.items():
            if value is not None and (member == "bool" or member == "int"):
                return []
            if type(value) is str and member == "string":
                return _validate_string_value(value, path.child("string"))
            if type(value) is str and member == "version":
                return _validate_version_value(value, path.child("version"))
    errs: ErrorList = []
    members = 0
    for member in ("bool", "int"):
        if fields.get(member) is not None:
            members += 1
    if fields.get("string") is not None:
        members += 1
        errs += _validate_string_value(text(fields.get("string")), path.child("string"))
    if fields.get("version") is not None:
        members += 1
        errs += _validate_version_value(text(fields.get("version")), path.child("version"))
    for member in ("bools", "ints"):
        if isinstance(fields.get(member), list):
            members += 1
            errs += _empty_list(fields[member], path.child(member))
    if isinstance(fields.get("strings"), list):
        members += 1
        items, items_path = sequence(fields.get("strings")), path.child("strings")
        errs += _empty_list(items, items_path)
        for i, item in enumerate(items):
            too_long = _validate_string_value(text(item), items_path.index(i))
            errs += covered_by_declarative(with_origin(too_long, "maxBytes"))
    if isinstance(fields.get("versions"), list):
        members += 1
        items, items_path = sequence(fields.get("versions")), path.child("versions")
        errs += _empty_list(items, items_path)
        for i, item in enumerate(items):
            errs += _validate_version_value(text(item), items_path.index(i))
    if members != 1:
        shown: Any = "" if members == 0 else go_encoded(fields, DEVICE_ATTRIBUTE)
        errs += covered_by_declarative(with_origin([invalid(path, shown, EXACTLY_ONE_VALUE_MSG)], "union"))
    return errs


def _is_valid_scalar_attribute(attribute: Any) -> bool:
    """True when `validate_attribute` finds no error for certain: exactly one member, a scalar with
    a valid value. False says nothing: the caller runs `validate_attribute`."""
    if type(attribute) is not dict or len(attribute) != 1:
        return False
    fields: dict[Any, Any] = attribute
    for member, value in fields.items():  # told by the value's type first: one comparison, mostly
        if type(member) is not str:
            return False
        if type(value) is str:
            if member == "string":
                return _is_short_string_value(value)
            return member == "version" and (value in _KNOWN_VERSIONS or VALID_VERSIONS.holds(value))
        return value is not None and (member == "int" or member == "bool")
    return False


def _is_short_string_value(value: str) -> bool:
    """`validateDeviceAttributeStringValue` finds nothing: at most 64 bytes. A string of at most 16
    code points is at most 64 bytes in UTF-8 (4 bytes a code point at most, 3 for a lone surrogate)
    without being measured."""
    return len(value) <= DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH // 4 or (
        byte_length(value) <= DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH
    )


# Versions found valid (`webhook.rules.v1.remembered`): a slice repeats its drivers' versions on
# every device.
VALID_VERSIONS: Final = ValidValues(_validate_version_value)
_KNOWN_VERSIONS: Final = VALID_VERSIONS.known
_KNOWN_QUALIFIED_NAMES: Final = VALID_QUALIFIED_NAMES.known


class AttributeMembers:
    """What `_usual_attributes` found so far in one slice's devices, by identity (a JSON decoder gives
    repeated keys as one object): the member names "string", "version" and a number ("int" or
    "bool"), so that a member known here needs only its value looked at; and, by position in the
    last attributes walked, each name found valid and each version value found valid, so that a
    device whose attributes repeat the last one's names (the same objects) and versions (equal
    strings) needs no look-up for them."""

    __slots__ = ("names", "number", "string", "version", "versions")

    def __init__(self) -> None:
        self.string: Any = None
        self.version: Any = None
        self.number: Any = None
        self.names: list[Any] = []
        self.versions: list[Any] = []


def _usual_attributes(attributes: dict[str, Any], members: AttributeMembers | None = None) -> bool:
    """True when every attribute is the usual one -- a name `validate_qualified_name` finds valid and
    one scalar member with a valid value (`_is_valid_scalar_attribute`) -- so that `validate_device`
    finds no error in any of them and each counts as one value. False says nothing: the caller walks
    them. `members`: what the caller's earlier calls found (`AttributeMembers`)."""
    known = AttributeMembers() if members is None else members
    names, versions = known.names, known.versions
    position = 0
    for key, attribute in attributes.items():
        if position < len(names) and key is names[position]:
            pass
        elif key in _KNOWN_QUALIFIED_NAMES or VALID_QUALIFIED_NAMES.holds(key):
            if position < len(names):
                names[position] = key
            else:
                names.append(key)
                versions.append(None)
        else:
            return False
        if type(attribute) is not dict:
            return False
        fields: dict[Any, Any] = attribute
        if len(fields) != 1:
            return False
        for member, value in fields.items():
            if type(value) is str:
                if member is known.string:
                    if not _is_short_string_value(value):
                        return False
                elif member is known.version:
                    remembered = versions[position]
                    if not (type(remembered) is str and value == remembered):
                        if not (value in _KNOWN_VERSIONS or VALID_VERSIONS.holds(value)):
                            return False
                        versions[position] = value
                elif not _is_valid_scalar_attribute(fields):
                    return False
                elif member == "string":
                    known.string = member
                else:
                    known.version = member
                    versions[position] = value
            elif member is not known.number or value is None:
                if not _is_valid_scalar_attribute(fields):
                    return False
                known.number = member
            break
        position += 1  # noqa: SIM113 -- enumerate() over items() would be a generic iterator in mypyc
    return True


def attribute_value_count(attribute: Any) -> int:
    """`numEntriesDeviceAttribute`'s count for one attribute: one for a scalar (or for nothing but
    empty lists), else the items of its lists."""
    fields = mapping(attribute)
    if len(fields) == 1 and next(iter(fields)) not in _LIST_MEMBER_SET:
        return 1
    items = sum(len(sequence(fields.get(member))) for member in LIST_MEMBERS)
    return items if items else 1


# --- capacity ---------------------------------------------------------------------------------------------


def _validate_capacity(capacity: Any, path: FieldPath, *, multiple_allocations: bool) -> ErrorList:
    """`validateMultiAllocatableDeviceCapacity` / `validateSingleAllocatableDeviceCapacity`."""
    fields = mapping(capacity)
    policy = optional_mapping(fields.get("requestPolicy"))
    if policy is None:
        return []
    policy_path = path.child("requestPolicy")
    if not multiple_allocations:
        return [forbidden(policy_path, "allowMultipleAllocations must be true")]
    return _validate_request_policy(_quantity(fields.get("value")), policy, policy_path)


def _validate_request_policy(capacity: Quantity, policy: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`validateRequestPolicy`: valid values or a valid range, not both; either needs a default."""
    valid_values = sequence(policy.get("validValues"))
    valid_range = optional_mapping(policy.get("validRange"))
    if valid_values and valid_range is not None:
        return [forbidden(path, EXACTLY_ONE_POLICY_MSG)]
    default = _optional_quantity(policy.get("default"))
    if valid_values:
        if default is None:
            return [required(path.child("default"), "required when validValues is defined")]
        values = [_quantity(value) for value in valid_values]
        return _validate_valid_values(default, capacity, values, path.child("validValues"))
    if valid_range is not None:
        if default is None:
            return [required(path.child("default"), "required when validRange is defined")]
        return _validate_range(default, capacity, valid_range, path.child("validRange"))
    return []


def _validate_valid_values(
    default: Quantity, capacity: Quantity, values: Sequence[Quantity], path: FieldPath
) -> ErrorList:
    """`validateRequestPolicyValidValues`: sorted, then `validateSet` of at most 10 options keyed by
    `quantityKeyInt` (DRAFractionalCapacityRange off), each no larger than the capacity; the default
    must be one of them."""
    errs: ErrorList = []
    for i in range(len(values) - 1):
        if compare(values[i], values[i + 1]) > 0:
            shown = canonical_text(values[i + 1])
            errs.append(invalid(path.index(i + 1), shown, "values must be sorted in ascending order"))
    errs += validate_set(
        values,
        CAPACITY_REQUEST_POLICY_DISCRETE_MAX_OPTIONS,
        lambda option, at: _validate_option(option, capacity, at),
        lambda option: str(value_int64(option)),
        path,
    )
    # The options are looked at only within the limit (validateSet short-circuits).
    within_limit = len(values) <= CAPACITY_REQUEST_POLICY_DISCRETE_MAX_OPTIONS
    if not (within_limit and any(compare(option, default) == 0 for option in values)):
        detail = "default value is not valid according to the requestPolicy"
        errs.append(invalid(path, canonical_text(default), detail))
    return errs


def _validate_option(option: Quantity, capacity: Quantity, path: FieldPath) -> ErrorList:
    if compare(option, capacity) > 0:
        detail = f"option is larger than capacity value: {canonical_text(capacity)}"
        return [invalid(path, canonical_text(option), detail)]
    return []


def _validate_range(
    default: Quantity, capacity: Quantity, valid_range: Mapping[str, Any], path: FieldPath
) -> ErrorList:
    """`validateRequestPolicyRange` with integer arithmetic (DRAFractionalCapacityRange off)."""
    minimum = _optional_quantity(valid_range.get("min"))
    if minimum is None:
        return [required(path.child("min"), "required when validRange is defined")]
    capacity_text, minimum_text = canonical_text(capacity), canonical_text(minimum)
    errs: ErrorList = []
    if compare(minimum, capacity) > 0:
        errs.append(
            invalid(path.child("min"), minimum_text, f"min is larger than capacity value: {capacity_text}")
        )
    if compare(default, minimum) < 0:
        errs.append(
            invalid(
                path.child("default"), canonical_text(default), f"default is less than min: {minimum_text}"
            )
        )
    maximum = _optional_quantity(valid_range.get("max"))
    if maximum is not None:
        maximum_text = canonical_text(maximum)
        if compare(minimum, maximum) > 0:
            errs.append(invalid(path.child("max"), minimum_text, f"min is larger than max: {maximum_text}"))
        if compare(maximum, capacity) > 0:
            detail = f"max is larger than capacity value: {capacity_text}"
            errs.append(invalid(path.child("max"), maximum_text, detail))
        if compare(default, maximum) > 0:
            detail = f"default is more than max: {maximum_text}"
            errs.append(invalid(path.child("default"), canonical_text(default), detail))
    step = _optional_quantity(valid_range.get("step"))
    if step is None:
        return errs
    step_path = path.child("step")
    if sign(step) <= 0:
        errs.append(invalid(step_path, canonical_text(step), "must be greater than zero"))
        return errs
    added = add(minimum, step)
    if compare(added, capacity) > 0:
        detail = f"one step {canonical_text(added)} is larger than capacity value: {capacity_text}"
        errs.append(invalid(step_path, canonical_text(step), detail))
    # Value() only holds in [0, MaxInt64]: bounds outside it are reported, not used.
    unsafe = False
    for name, bound in (("default", default), ("min", minimum), ("max", maximum), ("step", step)):
        if bound is not None:
            found = _validate_int64_range(bound, path.child(name))
            errs += found
            unsafe = unsafe or bool(found)
    if not unsafe:
        errs += _validate_range_step(default, minimum, step, step_path)
        if maximum is not None:
            errs += _validate_range_step(maximum, minimum, step, step_path)
    return errs


def _validate_int64_range(bound: Quantity, path: FieldPath) -> ErrorList:
    """`validateInt64Range`."""
    if sign(bound) < 0:
        return [invalid(path, canonical_text(bound), IS_NEGATIVE_MSG)]
    if compare_int64(bound, INT64_MAX) > 0:
        return [invalid(path, canonical_text(bound), BOUND_OVER_INT64_MSG)]
    return []


def _validate_range_step(value: Quantity, minimum: Quantity, step: Quantity, path: FieldPath) -> ErrorList:
    """`validateRequestPolicyRangeStep` with `Value()`: (value - min) % step must be zero (Go's `%`;
    the values are within int64 here)."""
    difference, divisor = value_int64(value) - value_int64(minimum), value_int64(step)
    if abs(difference) % divisor != 0:
        step_text, minimum_text = canonical_text(step), canonical_text(minimum)
        detail = f"value is not a multiple of a given step ({step_text}) from ({minimum_text})"
        return [invalid(path, canonical_text(value), detail)]
    return []


# --- node allocatable resources --------------------------------------------------------------------------


def _is_node_allocatable_resource_name(name: str) -> bool:
    """core helper `IsNodeAllocatableResourceName`: cpu, memory and hugepages-*."""
    return name in ("cpu", "memory") or name.startswith("hugepages-")


def _validate_node_allocatable_resources(resources: Any, capacities: Any, path: FieldPath) -> ErrorList:
    """`validateNodeAllocatableResources`."""
    capacity_keys = mapping(capacities).keys()
    errs: ErrorList = []
    for name, raw in mapping(resources).items():
        key_path = path.key(name)
        if not _is_node_allocatable_resource_name(name):
            # A corev1.ResourceName, a named string type: printed by json.Marshal.
            errs.append(invalid(key_path, go_json_value(name), "must be a node allocatable resource name"))
        resource = mapping(raw)
        resource_mapping = optional_mapping(resource.get("mapping"))
        overhead = optional_mapping(resource.get("overhead"))
        if resource_mapping is None and overhead is None:
            errs.append(required(key_path, "at least one of mapping or overhead must be set"))
        if resource_mapping is not None:
            errs += _validate_node_allocatable_mapping(
                resource_mapping, capacity_keys, key_path.child("mapping")
            )
        if overhead is not None:
            errs += _validate_node_allocatable_overhead(overhead, key_path.child("overhead"))
    return errs


def _validate_node_allocatable_mapping(
    resource_mapping: Mapping[str, Any], capacity_keys: Any, path: FieldPath
) -> ErrorList:
    """`validateNodeAllocatableMapping`: the dependency errors between capacityKey and
    capacityMultiplier are covered (their declarative twins are alpha, so they stay)."""
    errs: ErrorList = []
    capacity_key = resource_mapping.get("capacityKey")
    capacity_multiplier = _optional_quantity(resource_mapping.get("capacityMultiplier"))
    if capacity_key is not None:
        key = text(capacity_key)
        if not key:
            errs.append(invalid(path.child("capacityKey"), "", "capacityKey must not be an empty string"))
        elif key not in capacity_keys:
            # A QualifiedName, a named string type: printed by json.Marshal.
            errs.append(not_found(path.child("capacityKey"), go_json_value(key)))
        if capacity_multiplier is None:
            message = "capacityMultiplier is required when capacityKey is set"
            missing = with_origin([required(path.child("capacityMultiplier"), message)], "dependentRequired")
            errs += covered_by_declarative(missing)
        elif sign(capacity_multiplier) <= 0:
            shown = canonical_text(capacity_multiplier)
            errs.append(invalid(path.child("capacityMultiplier"), shown, "must be positive"))
    device_multiplier = _optional_quantity(resource_mapping.get("deviceMultiplier"))
    if device_multiplier is not None and sign(device_multiplier) <= 0:
        errs.append(
            invalid(path.child("deviceMultiplier"), canonical_text(device_multiplier), "must be positive")
        )
    if capacity_multiplier is not None and capacity_key is None:
        message = "capacityKey is required when capacityMultiplier is set"
        missing = with_origin([required(path.child("capacityKey"), message)], "dependentRequired")
        errs += covered_by_declarative(missing)
    return errs


def _validate_node_allocatable_overhead(overhead: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`validateNodeAllocatableOverheadMapping`."""
    per_pod = _optional_quantity(overhead.get("perPod"))
    per_container = _optional_quantity(overhead.get("perContainer"))
    if per_pod is None and per_container is None:
        return [invalid(path, "", "at least one of perPod or perContainer must be set")]
    errs: ErrorList = []
    if per_pod is not None and sign(per_pod) < 0:
        errs.append(invalid(path.child("perPod"), canonical_text(per_pod), "must be non-negative"))
    if per_container is not None and sign(per_container) < 0:
        errs.append(
            invalid(path.child("perContainer"), canonical_text(per_container), "must be non-negative")
        )
    return errs


# --- the node a device is available on ---------------------------------------------------------------------


def _validate_device_node_selection(
    device: Mapping[str, Any], path: FieldPath, per_device: bool
) -> ErrorList:
    """With `perDeviceNodeSelection: true` each device names exactly one of nodeName, nodeSelector
    and allNodes; without it, none of them."""
    node_name, node_selector, all_nodes = (
        device.get("nodeName"),
        device.get("nodeSelector"),
        device.get("allNodes"),
    )
    if not per_device:
        if node_name is not None or node_selector is not None or all_nodes is not None:
            return [invalid(path, NULL, NODE_SELECTION_NOT_PER_DEVICE_MSG)]
        return []
    errs: ErrorList = []
    set_fields: list[str] = []
    if node_name is not None:
        if text(node_name):
            set_fields.append("`nodeName`")
            errs += validate_node_name(text(node_name), path.child("nodeName"))
        else:
            errs.append(invalid(path.child("nodeName"), "", "must not be empty"))
    if node_selector is not None:
        set_fields.append("`nodeSelector`")
        errs += validate_node_selector(node_selector, path.child("nodeSelector"), release=RELEASE)
    if all_nodes is not None:
        if all_nodes is True:
            set_fields.append("`allNodes`")
        else:
            errs.append(invalid(path.child("allNodes"), False, "must be either unset or set to true"))
    if not set_fields:
        errs.append(required(path, PER_DEVICE_NODE_SELECTION_MSG))
    elif len(set_fields) > 1:
        errs.append(invalid(path, "{" + ", ".join(set_fields) + "}", PER_DEVICE_NODE_SELECTION_MSG))
    return errs


# --- a device ----------------------------------------------------------------------------------------------


def usual_attribute_flags(devices: Sequence[Any]) -> list[bool]:
    """For each device, whether its attributes are all usual (`_usual_attributes`): then none of them
    has an error, hand-written or declarative (one scalar member each), none is a list, and each is
    one value. Worked out once per slice for the checks that would each walk them."""
    members = AttributeMembers()
    return [_usual_attributes(mapping(mapping(device).get("attributes")), members) for device in devices]


def device_flags(devices: Sequence[Any]) -> tuple[list[bool], list[bool]]:
    """For each device, whether its attributes are all usual (`usual_attribute_flags`), and whether
    it is plain (`_is_plain_device`), in one walk."""
    usual_flags: list[bool] = []
    plain_flags: list[bool] = []
    members = AttributeMembers()
    for device in devices:
        fields = mapping(device)
        attributes = mapping(fields.get("attributes"))
        usual = _usual_attributes(attributes, members)
        usual_flags.append(usual)
        plain_flags.append(usual and _is_plain_device(device, attributes))
    return usual_flags, plain_flags


def _is_plain_device(device: Any, attributes: dict[str, Any]) -> bool:
    """True, for a device whose attributes are all usual, when neither `validate_device` without
    per-device node selection nor the declarative `Validate_Device` finds anything in it for
    certain: a JSON object with no field but its name, attributes and capacity (every other part is
    absent: nothing to check in it, and no node selection to be missing), a name
    `validate_device_name` finds valid, at most 32 attributes and capacities (so at most 32 values),
    and the capacities all usual (`_usual_capacities`). False says nothing: the caller runs the
    checks."""
    if type(device) is not dict:
        return False
    fields: dict[Any, Any] = device
    name, capacity = fields.get("name"), fields.get("capacity")
    # No field but these three: each one not null is a key of the object, so as many of them as the
    # object has keys leaves no other (a null one is taken for another: False says nothing).
    if len(fields) != (name is not None) + bool(attributes) + (capacity is not None):
        return False
    capacities = mapping(capacity)
    return (
        len(attributes) + len(capacities) <= MAX_ATTRIBUTES_AND_CAPACITIES_PER_DEVICE
        and VALID_DNS_LABELS.holds(text(name))
        and (not capacities or _usual_capacities(capacities))
    )


def validate_device(
    device: dict[str, Any],
    old_device: dict[str, Any] | None,
    path: FieldPath,
    *,
    per_device: bool,
    usual_attributes: bool | None = None,
) -> ErrorList:
    """`validateDevice`. Capacity and taints equal to the old device's (the old slice's first device of
    the same name) are not validated again.

    A device whose attributes are all usual (`_usual_attributes`; `usual_attributes` when the caller
    has found that out already), and whose optional parts are absent, is decided without a path made
    for any of them: each part below is skipped only where Go's check of it finds nothing for certain
    (an empty list, an empty map, no request policy)."""
    name = text(device.get("name"))
    errs = [] if VALID_DNS_LABELS.holds(name) else validate_device_name(name, path.child("name"))
    attributes, capacities = mapping(device.get("attributes")), mapping(device.get("capacity"))
    entries = len(attributes) + len(capacities)
    if entries > MAX_ATTRIBUTES_AND_CAPACITIES_PER_DEVICE:
        limit = MAX_ATTRIBUTES_AND_CAPACITIES_PER_DEVICE
        detail = f"the total number of attributes and capacities must not exceed {limit}"
        errs.append(invalid(path, entries, detail))
    usual = _usual_attributes(attributes) if usual_attributes is None else usual_attributes
    values = len(attributes) if usual else sum(attribute_value_count(item) for item in attributes.values())
    if values > MAX_ATTRIBUTE_VALUES_PER_DEVICE:
        detail = f"the total number of attribute values must not exceed {MAX_ATTRIBUTE_VALUES_PER_DEVICE}"
        errs.append(invalid(path, values, detail))
    if not usual:
        # validate_map(attributes, -1, ..., validate_qualified_name, validate_attribute, ...), with the
        # usual attribute (one valid scalar member) passed without a path made for it.
        attributes_path = path.child("attributes")
        for key, attribute in attributes.items():
            errs += validate_qualified_name(key, attributes_path)
            if not _is_valid_scalar_attribute(attribute):
                key_path = attributes_path.key(
                    truncate_if_too_long(key, ATTRIBUTE_AND_CAPACITY_MAX_KEY_LENGTH)
                )
                errs += validate_attribute(attribute, key_path)
    if (
        capacities
        and not _usual_capacities(capacities)
        and (
            old_device is None
            or not semantic_equal(
                device.get("capacity"), old_device.get("capacity"), shapes.DEVICE_CAPACITIES
            )
        )
    ):
        multiple_allocations = device.get("allowMultipleAllocations") is True
        errs += validate_map(
            capacities,
            -1,
            ATTRIBUTE_AND_CAPACITY_MAX_KEY_LENGTH,
            validate_qualified_name,
            lambda capacity, at: _validate_capacity(capacity, at, multiple_allocations=multiple_allocations),
            path.child("capacity"),
        )
    taints = sequence(device.get("taints"))
    if taints and (
        old_device is None
        or not semantic_equal(device.get("taints"), old_device.get("taints"), shapes.DEVICE_TAINTS)
    ):
        errs += validate_slice(
            taints,
            DEVICE_TAINTS_MAX_LENGTH,
            lambda taint, at: validate_device_taint(mapping(taint), None, at),
            path.child("taints"),
        )
    consumptions = sequence(device.get("consumesCounters"))
    if consumptions:
        errs += validate_set(
            consumptions,
            MAX_DEVICE_COUNTER_CONSUMPTIONS_PER_DEVICE,
            _validate_counter_consumption,
            lambda consumption: text(mapping(consumption).get("counterSet")),
            path.child("consumesCounters"),
            size_covered=True,
            uniqueness_covered=True,
        )
    errs += _validate_device_node_selection(device, path, per_device)
    conditions, failure_conditions = device.get("bindingConditions"), device.get("bindingFailureConditions")
    if conditions is not None or failure_conditions is not None:
        errs += validate_binding_parameters(conditions, failure_conditions, path)
    resources = device.get("nodeAllocatableResources")
    if resources is not None:
        errs += _validate_node_allocatable_resources(
            resources, device.get("capacity"), path.child("nodeAllocatableResources")
        )
    return errs


def _usual_capacities(capacities: dict[str, Any]) -> bool:
    """True when `validate_map` of the capacities finds nothing for certain: every name one
    `validate_qualified_name` finds valid, and no capacity with a request policy (a capacity is
    checked only through its policy)."""
    for key, capacity in capacities.items():
        if not VALID_QUALIFIED_NAMES.holds(key) or type(capacity) is not dict:
            return False
        fields: dict[Any, Any] = capacity
        if fields.get("requestPolicy") is not None:
            return False
    return True
