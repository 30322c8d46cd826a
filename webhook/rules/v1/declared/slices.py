"""`Validate_ResourceSlice` of 1.37's declarative validation: the devices (attributes, counter
consumption, taints, binding conditions, node allocatable resources), the shared counter sets,
the partition type attribute and the skipped node operations."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from webhook.field import ErrorList, FieldPath
from webhook.rules.equality import semantic_equal
from webhook.rules.v1 import shapes
from webhook.rules.v1.declarative import (
    beta,
    max_items,
    required_value,
    resource_fully_qualified_name,
    short_name,
    union,
)
from webhook.rules.v1.declared.common import (
    SPEC_PATH,
    Old,
    device_taint,
    each,
    list_map,
    list_map_field,
    name_of,
    same_text,
    skip_node_operations,
    texts,
    unchanged,
)
from webhook.rules.v1.gojson import (
    COUNTER_SET,
    DEVICE_COUNTER_CONSUMPTION,
)
from webhook.rules.values import mapping, optional_mapping, sequence, text

ATTRIBUTE_MEMBERS: Final = ("int", "bool", "string", "version", "ints", "bools", "strings", "versions")
_LIST_MEMBERS: Final = frozenset({"ints", "bools", "strings", "versions"})
_SCALAR_MEMBERS: Final = frozenset({"int", "bool", "string", "version"})
NODE_ALLOCATABLE_MAPPING_MEMBERS: Final = ("capacityKey", "deviceMultiplier")


def validate_resource_slice(
    new: Mapping[str, Any],
    old: Old,
    *,
    usual_attributes: Sequence[bool] | None = None,
    plain_devices: Sequence[bool] | None = None,
) -> ErrorList:
    """`Validate_ResourceSlice`: the spec (ObjectMeta's tags are alpha). `usual_attributes`, when
    given, says for each device of the new spec whether its attributes are all usual (one scalar
    member each, as the kind's hand-written checks establish: `slicedevices.usual_attribute_flags`),
    so that their unions need no look here; `plain_devices` whether it is plain (usual attributes
    and no part but its name and capacity: `slicedevices.device_flags`), so that it needs none."""
    update = old is not None
    spec, old_spec = new.get("spec"), old.get("spec") if old is not None else None
    if unchanged(spec, old_spec, update, shapes.RESOURCE_SLICE_SPEC):
        return []
    old_fields = mapping(old_spec) if update else None
    return _resource_slice_spec(mapping(spec), old_fields, SPEC_PATH, usual_attributes, plain_devices)


def _resource_slice_spec(
    spec: Mapping[str, Any],
    old: Old,
    path: FieldPath,
    usual_attributes: Sequence[bool] | None,
    plain_devices: Sequence[bool] | None = None,
) -> ErrorList:
    """`Validate_ResourceSliceSpec`: the devices (never correlated with the old ones), the counter sets
    (matched by name), the partition type attribute and the skipped node operations."""
    correlated = old is not None
    old_fields = mapping(old)
    errs: ErrorList = []
    if not unchanged(spec.get("devices"), old_fields.get("devices"), correlated, shapes.DEVICES):
        devices, devices_path = sequence(spec.get("devices")), path.child("devices")
        for i, device in enumerate(devices):  # `each` without keys: no old device
            if plain_devices is not None and i < len(plain_devices) and plain_devices[i]:
                continue  # `_device` finds nothing in it: no attribute but usual ones, no other part
            usual = usual_attributes is not None and i < len(usual_attributes) and usual_attributes[i]
            errs += _device(device, None, devices_path.index(i), usual_attributes=usual)
    errs += list_map_field(
        spec.get("sharedCounters"),
        old_fields.get("sharedCounters"),
        correlated,
        shapes.COUNTER_SETS,
        path.child("sharedCounters"),
        _counter_set,
        key=name_of,
        limit=8,
        go_shape=COUNTER_SET,
        shape=shapes.COUNTER_SET,
    )
    partition = spec.get("partitionTypeAttribute")
    if isinstance(partition, str) and not same_text(
        partition, old_fields.get("partitionTypeAttribute"), correlated
    ):
        # DRAPartitionableDevicesType is on whenever the field arrives (the API server drops it when off).
        errs += resource_fully_qualified_name(partition, path.child("partitionTypeAttribute"))
    operations = texts(spec.get("skipNodeOperations"))
    if operations and not unchanged(
        spec.get("skipNodeOperations"), old_fields.get("skipNodeOperations"), correlated, shapes.STRINGS
    ):
        errs += skip_node_operations(
            operations,
            texts(old_fields.get("skipNodeOperations")) if correlated else None,
            path.child("skipNodeOperations"),
        )
    return errs


def _counter_set(counter_set: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_CounterSet`: the name required and a short name; the counters required, keyed by short
    names. A name or counters equal to the correlated old set's are not validated again, nor are keys
    the old counters have."""
    fields, old_fields = mapping(counter_set), mapping(old)
    correlated = old is not None
    errs: ErrorList = []
    name, name_path = text(fields.get("name")), path.child("name")
    if not same_text(name, text(old_fields.get("name")), correlated):
        errs += beta(required_value(bool(name), name_path)) or beta(short_name(name, name_path))
    errs += _counters(
        fields.get("counters"), old_fields.get("counters") if correlated else None, path.child("counters")
    )
    return errs


def _counters(counters: Any, old: Any, path: FieldPath) -> ErrorList:
    """A `counters` map: `RequiredMap` (short-circuits), then `EachMapKey(ShortName)`."""
    if old is not None and semantic_equal(counters, old, shapes.COUNTERS):
        return []
    entries = mapping(counters)
    if not entries:
        return beta(required_value(False, path))
    old_keys = mapping(old).keys()
    errs: ErrorList = []
    for key in entries:
        if key not in old_keys:
            errs += beta(short_name(key, path))
    return errs


def _device(device: Any, old: Any, path: FieldPath, *, usual_attributes: bool = False) -> ErrorList:
    """`Validate_Device` of a device of a changed list (no old device: the list has no keys). Each
    part is looked at only when it is there: an absent or empty one has no tag that could fail (the
    list limits count items, the unions look at set members); the attributes not when the caller
    knows them to be usual."""
    fields = mapping(device)
    errs: ErrorList = []
    attributes = mapping(fields.get("attributes"))
    if not (usual_attributes or _usual_attributes(attributes)):
        attributes_path = path.child("attributes")
        for key, attribute in attributes.items():
            errs += _device_attribute(mapping(attribute), attributes_path, key)
    consumptions = sequence(fields.get("consumesCounters"))
    if consumptions:
        # No old items: devices are not correlated.
        errs += list_map(
            consumptions,
            None,
            path.child("consumesCounters"),
            _counter_consumption,
            key=_counter_set_of,
            limit=2,
            go_shape=DEVICE_COUNTER_CONSUMPTION,
        )
    taints = sequence(fields.get("taints"))
    if taints:
        errs += each(list(taints), None, path.child("taints"), device_taint)
    for name in ("bindingConditions", "bindingFailureConditions"):
        conditions = sequence(fields.get(name))
        if len(conditions) > 4:
            errs += beta(max_items(len(conditions), 4, path.child(name)))
    resources = mapping(fields.get("nodeAllocatableResources"))
    if resources:
        resources_path = path.child("nodeAllocatableResources")
        for name, resource in resources.items():
            resource_mapping = optional_mapping(mapping(resource).get("mapping"))
            if resource_mapping is not None:
                specified = [
                    member
                    for member in NODE_ALLOCATABLE_MAPPING_MEMBERS
                    if resource_mapping.get(member) is not None
                ]
                mapping_path = resources_path.key(name).child("mapping")
                errs += union(specified, NODE_ALLOCATABLE_MAPPING_MEMBERS, mapping_path)
    return errs


def _usual_attributes(attributes: dict[str, Any]) -> bool:
    """True when every attribute sets one scalar member, so `_device_attribute` finds nothing in any
    of them. False says nothing: the caller walks them."""
    for attribute in attributes.values():
        if type(attribute) is not dict or len(attribute) != 1:
            return False
        members: dict[Any, Any] = attribute
        for member, value in members.items():
            if value is None or member not in _SCALAR_MEMBERS:
                return False
    return True


def _device_attribute(attribute: dict[str, Any], attributes_path: FieldPath, key: str) -> ErrorList:
    """`Validate_DeviceAttribute` of `attributes[key]`: exactly one member (a list member counts when
    it has items)."""
    if len(attribute) == 1:  # the usual attribute, one scalar member set: no error, decided at once
        for member, value in attribute.items():
            if value is not None and member in _SCALAR_MEMBERS:
                return []
    path = attributes_path.key(key)
    specified = [
        member
        for member in ATTRIBUTE_MEMBERS
        if (sequence(attribute.get(member)) if member in _LIST_MEMBERS else attribute.get(member) is not None)
    ]
    return beta(union(specified, ATTRIBUTE_MEMBERS, path))


def _counter_set_of(consumption: Any) -> str:
    return text(mapping(consumption).get("counterSet"))


def _counter_consumption(consumption: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_DeviceCounterConsumption` (no old value: devices are not correlated)."""
    fields = mapping(consumption)
    counter_set, counter_set_path = text(fields.get("counterSet")), path.child("counterSet")
    errs = beta(required_value(bool(counter_set), counter_set_path)) or beta(
        short_name(counter_set, counter_set_path)
    )
    errs += _counters(fields.get("counters"), None, path.child("counters"))
    return errs
