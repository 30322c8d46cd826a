"""ResourceSlice (resource.k8s.io/v1, cluster-scoped, no status) as kube-apiserver 1.37 validates it.

Hand-written: `ValidateResourceSlice` / `ValidateResourceSliceUpdate` (`pkg/apis/resource/validation/
validation.go` at ae5d4d35): the metadata, then `validateResourceSliceSpec` -- the driver and the pool,
on update the immutable pool name, driver and nodeName, exactly one of nodeName, nodeSelector, allNodes
and perDeviceNodeSelection, devices or counter sets (not both), the devices (at most 128, 64 once a
device has taints, consumes counters or has a list attribute), the counter sets (at most 8), the
partition type attribute and the skipped node operations.

Declarative: `Validate_ResourceSlice` (`webhook.rules.v1.declared`). The strategy embeds
`rest.DeclarativeValidation` (`pkg/registry/resource/resourceslice/strategy.go` at ae5d4d35), so on
update `rest.validateCommonFields` comes first and everything is merged as
`webhook.rules.v1.lifecycle` describes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from webhook.field import (
    ROOT,
    ErrorList,
    FieldPath,
    duplicate,
    go_json_value,
    invalid,
    required,
)
from webhook.rules import meta
from webhook.rules.kinds import KindRules, Obj
from webhook.rules.names import validate_node_name
from webhook.rules.nodeselector import validate_node_selector
from webhook.rules.v1 import RELEASE, declared, resource_v1
from webhook.rules.v1.devices import too_many, validate_set
from webhook.rules.v1.gojson import DEVICE_ATTRIBUTE, NODE_SELECTOR_TERMS, go_encoded
from webhook.rules.v1.lifecycle import created_meta_errors, merge_validations, updated_with_common_fields
from webhook.rules.v1.names import validate_driver_name, validate_fully_qualified_name, validate_pool_name
from webhook.rules.v1.slicedevices import device_flags, validate_counter_set, validate_device
from webhook.rules.values import integer, mapping, sequence, text

RESOURCE_SLICE_MAX_DEVICES: Final = 128
RESOURCE_SLICE_MAX_DEVICES_WITH_ADVANCED_FEATURES: Final = 64
RESOURCE_SLICE_MAX_COUNTER_SETS: Final = 8

NODE_SELECTION_MSG: Final = (
    "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required"
)
PARTITION_TYPE_WITHOUT_COUNTERS_MSG: Final = (
    "may only be set on a slice which declares devices that consume counters"
)
PARTITION_TYPE_MISSING_MSG: Final = (
    "device consumes counters and `partitionTypeAttribute` names this attribute, so it must be set"
)
PARTITION_TYPE_NOT_A_STRING_MSG: Final = (
    "must be a string value because `partitionTypeAttribute` names this attribute"
)
SKIP_PREPARE_MSG: Final = (
    "NodePrepareResources cannot be skipped unless NodeUnprepareResources is also skipped"
)

_SPEC = ROOT.child("spec")


def validate_resource_slice(resource_slice: Obj) -> ErrorList:
    """Create: `ValidateResourceSlice` merged with `Validate_ResourceSlice`. Which devices have only
    usual attributes is worked out once for both."""
    spec = mapping(resource_slice.get("spec"))
    usual, plain = device_flags(sequence(spec.get("devices")))
    handwritten = meta.validate_object_meta(resource_slice.get("metadata"), namespaced=False, release=RELEASE)
    handwritten += validate_resource_slice_spec(
        spec, None, _SPEC, usual_attributes=usual, plain_devices=plain
    )
    if not handwritten:
        handwritten = created_meta_errors(resource_slice.get("metadata"), namespaced=False)
    declarative = declared.validate_resource_slice(
        resource_slice, None, usual_attributes=usual, plain_devices=plain
    )
    return merge_validations(handwritten, declarative)


def validate_resource_slice_update(new: Obj, old: Obj) -> ErrorList:
    """Update: `rest.validateCommonFields`, then `ValidateResourceSliceUpdate`, merged with
    `Validate_ResourceSlice(new, old)`."""
    spec = mapping(new.get("spec"))
    usual, plain = device_flags(sequence(spec.get("devices")))
    handwritten = updated_with_common_fields(new.get("metadata"), old.get("metadata"), namespaced=False)
    handwritten += meta.validate_object_meta_update(new.get("metadata"), old.get("metadata"), release=RELEASE)
    handwritten += validate_resource_slice_spec(
        spec, mapping(old.get("spec")), _SPEC, usual_attributes=usual, plain_devices=plain
    )
    declarative = declared.validate_resource_slice(new, old, usual_attributes=usual, plain_devices=plain)
    return merge_validations(handwritten, declarative)


def validate_resource_slice_spec(
    spec: Mapping[str, Any],
    old_spec: Mapping[str, Any] | None,
    path: FieldPath,
    *,
    usual_attributes: Sequence[bool] | None = None,
    plain_devices: Sequence[bool] | None = None,
) -> ErrorList:
    """`validateResourceSliceSpec`. `usual_attributes` and `plain_devices`: for each device, whether
    its attributes are all usual and whether it is plain (`device_flags`; worked out here when not
    given)."""
    errs = validate_driver_name(text(spec.get("driver")), path.child("driver"))
    errs += _validate_resource_pool(mapping(spec.get("pool")), path.child("pool"))
    if old_spec is not None:
        errs += _validate_immutable_fields(spec, old_spec, path)
    errs += _validate_node_selection(spec, path)
    devices, shared_counters = spec.get("devices"), spec.get("sharedCounters")
    if isinstance(devices, list) and isinstance(shared_counters, list):
        errs.append(invalid(path, "", "only one of `sharedCounters` or `devices` is allowed"))
    errs += _validate_devices(spec, old_spec, path.child("devices"), usual_attributes, plain_devices)
    errs += validate_set(
        sequence(shared_counters),
        RESOURCE_SLICE_MAX_COUNTER_SETS,
        validate_counter_set,
        lambda counter_set: text(mapping(counter_set).get("name")),
        path.child("sharedCounters"),
        size_covered=True,
        uniqueness_covered=True,
    )
    if spec.get("partitionTypeAttribute") is not None:
        errs += _validate_partition_type_attribute(spec, path)
    errs += _validate_skip_node_operations(spec.get("skipNodeOperations"), path.child("skipNodeOperations"))
    return errs


def _validate_resource_pool(pool: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`validateResourcePool`."""
    errs = validate_pool_name(text(pool.get("name")), path.child("name"))
    slice_count = integer(pool.get("resourceSliceCount"))
    if slice_count <= 0:
        errs.append(invalid(path.child("resourceSliceCount"), slice_count, "must be greater than zero"))
    generation = integer(pool.get("generation"))
    if generation < 0:
        errs.append(invalid(path.child("generation"), generation, "must be greater than or equal to zero"))
    return errs


def _validate_immutable_fields(
    spec: Mapping[str, Any], old_spec: Mapping[str, Any], path: FieldPath
) -> ErrorList:
    """`ValidateImmutableField` on the pool name, the driver and the nodeName (a *string: printed as
    JSON, null when unset)."""
    errs: ErrorList = []
    pool_name = text(mapping(spec.get("pool")).get("name"))
    if pool_name != text(mapping(old_spec.get("pool")).get("name")):
        errs.append(invalid(path.child("pool", "name"), pool_name, meta.FIELD_IMMUTABLE_MSG))
    driver = text(spec.get("driver"))
    if driver != text(old_spec.get("driver")):
        errs.append(invalid(path.child("driver"), driver, meta.FIELD_IMMUTABLE_MSG))
    node_name, old_node_name = _optional_text(spec.get("nodeName")), _optional_text(old_spec.get("nodeName"))
    if node_name != old_node_name:
        errs.append(invalid(path.child("nodeName"), go_json_value(node_name), meta.FIELD_IMMUTABLE_MSG))
    return errs


def _optional_text(value: Any) -> str | None:
    """A *string field: None when absent or null."""
    return None if value is None else text(value)


def _validate_node_selection(spec: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """Exactly one of nodeName (non-empty), nodeSelector (one term), allNodes (true) and
    perDeviceNodeSelection (true)."""
    errs: ErrorList = []
    set_fields: list[str] = []
    node_name = spec.get("nodeName")
    if node_name is not None:
        if text(node_name):
            set_fields.append("`nodeName`")
            errs += validate_node_name(text(node_name), path.child("nodeName"))
        else:
            errs.append(
                invalid(path.child("nodeName"), "", "must be either unset or set to a non-empty string")
            )
    node_selector = spec.get("nodeSelector")
    if node_selector is not None:
        set_fields.append("`nodeSelector`")
        errs += validate_node_selector(node_selector, path.child("nodeSelector"), release=RELEASE)
        terms = mapping(node_selector).get("nodeSelectorTerms")
        if len(sequence(terms)) != 1:
            # This constraint simplifies merging selectors of devices allocated from several slices.
            errs.append(
                invalid(
                    path.child("nodeSelector", "nodeSelectorTerms"),
                    go_encoded(terms, NODE_SELECTOR_TERMS),
                    "must have exactly one node selector term",
                )
            )
    for field_name in ("allNodes", "perDeviceNodeSelection"):
        value = spec.get(field_name)
        if value is not None:
            if value is True:
                set_fields.append(f"`{field_name}`")
            else:
                errs.append(invalid(path.child(field_name), False, "must be either unset or set to true"))
    if not set_fields:
        errs.append(required(path, NODE_SELECTION_MSG))
    elif len(set_fields) > 1:
        shown = "{" + ", ".join(set_fields) + "}"
        errs.append(invalid(path, shown, NODE_SELECTION_MSG + ", but multiple fields are set"))
    return errs


_LIST_MEMBERS: Final = frozenset({"bools", "ints", "strings", "versions"})


def _uses_advanced_features(
    devices: Sequence[Any], usual_attributes: Sequence[bool], plain_devices: Sequence[bool]
) -> bool:
    """`haveDeviceTaints || haveConsumesCounters || haveListAttributes`: a device with taints, one that
    consumes counters, or one with a list attribute (an empty list too: a non-nil slice). A device
    whose attributes are all usual has no list attribute; a plain one has neither taints nor counters."""
    for device, usual, plain in zip(devices, usual_attributes, plain_devices, strict=True):
        if plain:
            continue
        fields = mapping(device)
        if sequence(fields.get("taints")) or sequence(fields.get("consumesCounters")):
            return True
        if not usual:
            for attribute in mapping(fields.get("attributes")).values():
                for member, value in mapping(attribute).items():
                    if isinstance(value, list) and member in _LIST_MEMBERS:
                        return True
    return False


def _validate_devices(
    spec: Mapping[str, Any],
    old_spec: Mapping[str, Any] | None,
    path: FieldPath,
    usual_attributes: Sequence[bool] | None,
    plain_devices: Sequence[bool] | None = None,
) -> ErrorList:
    """`validateSet(devices, maxDevices, validateDevice, name)` (`devices.validate_set`'s loops):
    nothing covered; each device is compared with the old slice's first device of its name
    (`lookupDevice`). A plain device (`device_flags`) has no error without per-device node
    selection: it is passed without a path made for it."""
    devices = sequence(spec.get("devices"))
    if usual_attributes is None or plain_devices is None:
        usual, plain = device_flags(devices)
    else:
        usual, plain = list(usual_attributes), list(plain_devices)
    # Either limit passes a slice of at most 64 devices: the features are looked for only above it.
    limit = (
        RESOURCE_SLICE_MAX_DEVICES_WITH_ADVANCED_FEATURES
        if len(devices) > RESOURCE_SLICE_MAX_DEVICES_WITH_ADVANCED_FEATURES
        and _uses_advanced_features(devices, usual, plain)
        else RESOURCE_SLICE_MAX_DEVICES
    )
    if len(devices) > limit:
        return too_many(len(devices), limit, path, covered=False)
    per_device = spec.get("perDeviceNodeSelection") is True
    old_devices = sequence(old_spec.get("devices")) if old_spec is not None else []
    errs: ErrorList = []
    for i, device in enumerate(devices):
        if plain[i] and not per_device:
            continue
        fields = mapping(device)
        old_device = _lookup_device(old_devices, _name(fields)) if old_devices else None
        errs += validate_device(
            fields, old_device, path.index(i), per_device=per_device, usual_attributes=usual[i]
        )
    seen: set[str] = set()
    for i, device in enumerate(devices):
        name = _name(device)
        if name in seen:
            errs.append(duplicate(path.index(i), name))
        else:
            seen.add(name)
    return errs


def _name(device: Any) -> str:
    return text(mapping(device).get("name"))


def _lookup_device(devices: Sequence[Any], name: str) -> dict[str, Any] | None:
    """`lookupDevice`: the first device of that name."""
    for device in devices:
        if _name(device) == name:
            return mapping(device)
    return None


def _validate_partition_type_attribute(spec: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`validatePartitionTypeAttribute`: only with devices that consume counters; a malformed name is
    left to declarative validation; each device that consumes counters carries the attribute
    (explicitly, or bare when in the driver's domain) as a string."""
    name = text(spec.get("partitionTypeAttribute"))
    devices = sequence(spec.get("devices"))
    if not any(sequence(mapping(device).get("consumesCounters")) for device in devices):
        return [invalid(path.child("partitionTypeAttribute"), name, PARTITION_TYPE_WITHOUT_COUNTERS_MSG)]
    if validate_fully_qualified_name(name, ROOT):
        return []
    prefix = text(spec.get("driver")) + "/"
    bare_name = name[len(prefix) :] if name.startswith(prefix) else name  # strings.CutPrefix
    errs: ErrorList = []
    devices_path = path.child("devices")
    for i, device in enumerate(devices):
        fields = mapping(device)
        if not sequence(fields.get("consumesCounters")):
            continue
        attribute_path = devices_path.index(i).child("attributes").key(name)
        attributes = mapping(fields.get("attributes"))
        if name in attributes:
            attribute: Any = attributes[name]
        elif bare_name and bare_name in attributes:
            attribute = attributes[bare_name]
        else:
            errs.append(required(attribute_path, PARTITION_TYPE_MISSING_MSG))
            continue
        if mapping(attribute).get("string") is None:
            shown = go_encoded(mapping(attribute), DEVICE_ATTRIBUTE)
            errs.append(invalid(attribute_path, shown, PARTITION_TYPE_NOT_A_STRING_MSG))
    return errs


def _validate_skip_node_operations(operations: Any, path: FieldPath) -> ErrorList:
    """`validateSkipNodeOperations`: NodePrepareResources only together with NodeUnprepareResources or
    "*" (the values themselves are left to declarative validation)."""
    names = [text(item) for item in sequence(operations)]
    if "NodePrepareResources" in names and "NodeUnprepareResources" not in names and "*" not in names:
        return [invalid(path, go_json_value(names), SKIP_PREPARE_MSG)]
    return []


RESOURCE_SLICE: Final = KindRules(
    gvk=resource_v1("ResourceSlice"),
    resource="resourceslices",
    namespaced=False,
    validate_create=validate_resource_slice,
    validate_update=validate_resource_slice_update,
)
