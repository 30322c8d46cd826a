"""The declarative validation of resource.k8s.io/v1 as 1.37 generates it from the `+k8s:` tags of
`k8s.io/api/resource/v1` (`zz_generated.validations.go` at 2710ee7b, and the root types'
`RegisterValidations`): DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice and
DeviceTaintRule.

Every tag of these types is `+k8s:beta(since: "1.37")` except `skipNodeOperations` (standard), a
slice's `partitionTypeAttribute` and a node allocatable mapping's union (standard), and the alpha
ones, never enforced and so left out: the `metav1.Condition` checks (a claim's `status.devices[]` and a
DeviceTaintRule's status), ObjectMeta's, a device attribute's `strings` lengths and a node allocatable
mapping's dependencies.
The generated code's ratcheting is kept: on an update, a field equal (`Semantic.DeepEqual`) to its
old value is not validated again, and the items of a list keyed by a name are matched with the old
items of that name and skipped when unchanged ("don't revalidate unchanged data"); items of lists
without keys are validated without an old value.

A function takes the new value and the old one (None on create, or when there is no old value to
correlate with) and returns the declarative errors, each marked with its tag's stage.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from webhook.field import ErrorList, FieldPath, go_json_value
from webhook.rules.equality import Pointer, Shape, semantic_equal
from webhook.rules.v1 import shapes
from webhook.rules.v1.declarative import (
    beta,
    enum,
    extended_resource_name,
    immutable,
    label_key,
    long_name,
    long_name_caseless,
    max_bytes,
    max_items,
    max_length,
    no_modify,
    required_value,
    resource_fully_qualified_name,
    resource_pool_name,
    short_name,
    union,
    unique,
    uuid,
)
from webhook.rules.v1.gojson import (
    ALLOCATED_DEVICE_STATUS,
    COUNTER_SET,
    DEVICE_COUNTER_CONSUMPTION,
    DEVICE_REQUEST,
    DEVICE_SUB_REQUEST,
    RESOURCE_CLAIM_CONSUMER_REFERENCE,
    go_encoded,
)
from webhook.rules.values import mapping, optional_mapping, sequence, text

ALLOCATION_MODES: Final = ("All", "ExactCount")
TOLERATION_OPERATORS: Final = ("Equal", "Exists")
TAINT_EFFECTS: Final = ("NoExecute", "NoSchedule", "None")
ALLOCATION_CONFIG_SOURCES: Final = ("FromClaim", "FromClass")
SKIP_NODE_OPERATIONS: Final = ("*", "NodePrepareResources", "NodeUnprepareResources")

Old = Mapping[str, Any] | None


def _unchanged(new: Any, old: Any, correlated: bool, shape: Shape) -> bool:
    """ "don't revalidate unchanged data": an update whose old value is correlated and equal."""
    return correlated and semantic_equal(new, old, shape)


def _same_text(new: Any, old: Any, correlated: bool) -> bool:
    """The pointer/value comparison of the generated code for strings."""
    return correlated and new == old


def _each(
    items: Sequence[Any],
    old_items: Sequence[Any] | None,
    path: FieldPath,
    validate: Callable[[Any, Any, FieldPath], ErrorList],
    *,
    key: Callable[[Any], Any] | None = None,
    shape: Shape | None = None,
) -> ErrorList:
    """`EachValSliceVal`: with a key, an item is matched with the first old item of that key and
    skipped when equal to it; without one, every item is validated with no old value."""
    errs: ErrorList = []
    for i, item in enumerate(items):
        old = None
        if key is not None and old_items:
            item_key = key(item)
            old = next((candidate for candidate in old_items if key(candidate) == item_key), None)
        if old is not None and (shape is None or semantic_equal(item, old, shape)):
            continue
        errs += validate(item, old, path.index(i))
    return errs


def _name(item: Any) -> str:
    return text(mapping(item).get("name"))


def _texts(value: Any) -> list[str]:
    return [text(item) for item in sequence(value)]


# --- DeviceClass ----------------------------------------------------------------------------------------


def validate_device_class(new: Mapping[str, Any], old: Old) -> ErrorList:
    """`Validate_DeviceClass`: metadata.name a long name (+k8s:subfield(name)), then the spec."""
    update = old is not None
    errs: ErrorList = []
    name = text(mapping(new.get("metadata")).get("name"))
    old_name = text(mapping(old.get("metadata")).get("name")) if old is not None else None
    if not (update and name == old_name) and name:
        errs += beta(long_name(name, _METADATA.child("name")))
    spec, old_spec = new.get("spec"), old.get("spec") if old is not None else None
    if not _unchanged(spec, old_spec, update, shapes.DEVICE_CLASS_SPEC):
        errs += validate_device_class_spec(
            mapping(spec), optional_mapping(old_spec) if update else None, _SPEC
        )
    return errs


def validate_device_class_spec(spec: Mapping[str, Any], old: Old, path: FieldPath) -> ErrorList:
    """`Validate_DeviceClassSpec`."""
    correlated = old is not None
    old_fields = mapping(old)
    errs: ErrorList = []
    selectors = sequence(spec.get("selectors"))
    if not _unchanged(
        spec.get("selectors"), old_fields.get("selectors"), correlated, shapes.DEVICE_SELECTORS
    ):
        errs += beta(max_items(len(selectors), 32, path.child("selectors")))
    config = sequence(spec.get("config"))
    if not _unchanged(
        spec.get("config"), old_fields.get("config"), correlated, shapes.DEVICE_CLASS_CONFIGURATIONS
    ):
        errs += _configurations(config, path.child("config"), 32, validate_device_configuration)
    name = spec.get("extendedResourceName")
    if not _same_text(name, old_fields.get("extendedResourceName"), correlated) and isinstance(name, str):
        errs += beta(extended_resource_name(name, path.child("extendedResourceName")))
    return errs


def _configurations(
    items: Sequence[Any], path: FieldPath, limit: int, validate: Callable[[Any, Any, FieldPath], ErrorList]
) -> ErrorList:
    """An optional list of configurations: at most `limit` (short-circuits), each validated."""
    too_many = beta(max_items(len(items), limit, path))
    if too_many:
        return too_many
    return _each(items, None, path, validate)


def validate_device_configuration(config: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_DeviceConfiguration` (embedded: its `opaque` is a field of the container)."""
    opaque = optional_mapping(mapping(config).get("opaque"))
    if opaque is None:
        return []
    return _driver(text(opaque.get("driver")), path.child("opaque", "driver"))


def _driver(driver: str, path: FieldPath) -> ErrorList:
    required = beta(required_value(bool(driver), path))
    if required:
        return required
    return beta(long_name_caseless(driver, path)) + beta(max_length(driver, 63, path))


def _pool(pool: str, path: FieldPath) -> ErrorList:
    """A result's pool: required, and a resource pool name."""
    return beta(required_value(bool(pool), path)) or beta(resource_pool_name(pool, path))


# --- ResourceClaim spec (and a template's spec.spec) --------------------------------------------------------


def validate_resource_claim(
    new: Mapping[str, Any], old: Old, *, spec_unchanged: bool | None = None
) -> ErrorList:
    """`Validate_ResourceClaim` on create and on updates of the claim: the spec is immutable
    (`+k8s:immutable`, short-circuits); on create it is validated. The status is not: it is empty on
    create and kept as it was on an update of the claim. On an update, `spec_unchanged` is
    `semantic_equal` of the two specs where the caller has it already."""
    update = old is not None
    spec, old_spec = new.get("spec"), old.get("spec") if old is not None else None
    if update and spec_unchanged is not None:
        if spec_unchanged:
            return []
    elif _unchanged(spec, old_spec, update, shapes.RESOURCE_CLAIM_SPEC):
        return []
    if update:
        return beta(immutable(_SPEC))
    return validate_resource_claim_spec(mapping(spec), None, _SPEC)


def validate_resource_claim_template(new: Mapping[str, Any], old: Old) -> ErrorList:
    """`Validate_ResourceClaimTemplate`: `spec.spec` (the template's metadata has no tags)."""
    update = old is not None
    spec = mapping(new.get("spec"))
    old_spec = mapping(old.get("spec")) if old is not None else None
    if update and semantic_equal(
        new.get("spec"), old.get("spec") if old else None, shapes.RESOURCE_CLAIM_TEMPLATE_SPEC
    ):
        return []
    claim_spec, old_claim_spec = spec.get("spec"), old_spec.get("spec") if old_spec is not None else None
    if _unchanged(claim_spec, old_claim_spec, update, shapes.RESOURCE_CLAIM_SPEC):
        return []
    return validate_resource_claim_spec(
        mapping(claim_spec), mapping(old_claim_spec) if update else None, _SPEC.child("spec")
    )


def validate_resource_claim_spec(spec: Mapping[str, Any], old: Old, path: FieldPath) -> ErrorList:
    """`Validate_ResourceClaimSpec` -> `Validate_DeviceClaim`."""
    correlated = old is not None
    devices, old_devices = spec.get("devices"), mapping(old).get("devices")
    if _unchanged(devices, old_devices, correlated, shapes.DEVICE_CLAIM):
        return []
    return _device_claim(
        mapping(devices), mapping(old_devices) if correlated else None, path.child("devices")
    )


def _device_claim(devices: Mapping[str, Any], old: Old, path: FieldPath) -> ErrorList:
    correlated = old is not None
    old_fields = mapping(old)
    errs: ErrorList = []
    requests = sequence(devices.get("requests"))
    requests_path = path.child("requests")
    if not _unchanged(
        devices.get("requests"),
        old_fields.get("requests"),
        correlated,
        shapes.DEVICE_CLAIM.fields["requests"],
    ):
        too_many = beta(max_items(len(requests), 32, requests_path))
        if too_many:
            errs += too_many
        else:
            errs += beta(
                unique(requests, lambda a, b: _name(a) == _name(b), requests_path, _shown(DEVICE_REQUEST))
            )
            errs += _each(
                requests,
                list(sequence(old_fields.get("requests"))) if correlated else None,
                requests_path,
                _device_request,
                key=_name,
                shape=shapes.DEVICE_REQUEST,
            )
    constraints = sequence(devices.get("constraints"))
    if not _unchanged(
        devices.get("constraints"),
        old_fields.get("constraints"),
        correlated,
        shapes.DEVICE_CLAIM.fields["constraints"],
    ):
        errs += _configurations(constraints, path.child("constraints"), 32, _device_constraint)
    config = sequence(devices.get("config"))
    if not _unchanged(
        devices.get("config"), old_fields.get("config"), correlated, shapes.DEVICE_CLAIM.fields["config"]
    ):
        errs += _configurations(config, path.child("config"), 32, _device_claim_configuration)
    return errs


def _shown(shape: Any) -> Callable[[Any], Any]:
    return lambda item: go_encoded(item, shape)


def _device_request(request: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_DeviceRequest`."""
    fields, old_fields = mapping(request), mapping(old)
    correlated = old is not None
    errs: ErrorList = []
    exactly = optional_mapping(fields.get("exactly"))
    if (
        not _unchanged(
            fields.get("exactly"),
            old_fields.get("exactly"),
            correlated,
            shapes.DEVICE_REQUEST.fields["exactly"],
        )
        and exactly is not None
    ):
        errs += _exact_device_request(exactly, path.child("exactly"))
    subrequests = sequence(fields.get("firstAvailable"))
    if subrequests and not _unchanged(
        fields.get("firstAvailable"),
        old_fields.get("firstAvailable"),
        correlated,
        shapes.DEVICE_REQUEST.fields["firstAvailable"],
    ):
        sub_path = path.child("firstAvailable")
        too_many = beta(max_items(len(subrequests), 8, sub_path))
        if too_many:
            errs += too_many
        else:
            errs += beta(
                unique(subrequests, lambda a, b: _name(a) == _name(b), sub_path, _shown(DEVICE_SUB_REQUEST))
            )
            errs += _each(
                subrequests,
                list(sequence(old_fields.get("firstAvailable"))) if correlated else None,
                sub_path,
                _device_sub_request,
                key=_name,
                shape=shapes.DEVICE_SUB_REQUEST,
            )
    return errs


def _exact_device_request(request: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`Validate_ExactDeviceRequest` (deviceClassName has no tag here)."""
    errs = beta(max_items(len(sequence(request.get("selectors"))), 32, path.child("selectors")))
    errs += _allocation_mode(text(request.get("allocationMode")), path.child("allocationMode"))
    errs += _tolerations(request.get("tolerations"), path.child("tolerations"))
    return errs


def _device_sub_request(subrequest: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_DeviceSubRequest` (the items are never skipped field by field: a changed subrequest
    is validated whole, as its old value only decides whether it is validated at all)."""
    fields = mapping(subrequest)
    class_name, class_path = text(fields.get("deviceClassName")), path.child("deviceClassName")
    errs = beta(required_value(bool(class_name), class_path)) or beta(long_name(class_name, class_path))
    errs += beta(max_items(len(sequence(fields.get("selectors"))), 32, path.child("selectors")))
    errs += _allocation_mode(text(fields.get("allocationMode")), path.child("allocationMode"))
    errs += _tolerations(fields.get("tolerations"), path.child("tolerations"))
    return errs


def _allocation_mode(mode: str, path: FieldPath) -> ErrorList:
    return beta(enum(mode, ALLOCATION_MODES, path)) if mode else []


def _tolerations(tolerations: Any, path: FieldPath) -> ErrorList:
    return _each(list(sequence(tolerations)), None, path, _toleration)


def _toleration(toleration: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_DeviceToleration`: the key a label key, the operator required (it has a default)
    and Equal or Exists, the effect one of the taint effects."""
    fields = mapping(toleration)
    key, operator, effect = text(fields.get("key")), text(fields.get("operator")), text(fields.get("effect"))
    errs = beta(label_key(key, path.child("key"))) if key else []
    operator_path = path.child("operator")
    errs += beta(required_value(bool(operator), operator_path)) or beta(
        enum(operator, TOLERATION_OPERATORS, operator_path)
    )
    if effect:
        errs += beta(enum(effect, TAINT_EFFECTS, path.child("effect")))
    return errs


def _device_constraint(constraint: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_DeviceConstraint`."""
    fields = mapping(constraint)
    errs = _request_references(fields.get("requests"), path.child("requests"))
    for name in ("matchAttribute", "distinctAttribute"):
        attribute = fields.get(name)
        if isinstance(attribute, str):
            errs += beta(resource_fully_qualified_name(attribute, path.child(name)))
    return errs


def _request_references(references: Any, path: FieldPath) -> ErrorList:
    """The `requests` of a constraint or configuration: at most 32, a set."""
    names = _texts(references)
    too_many = beta(max_items(len(names), 32, path))
    if too_many:
        return too_many
    return beta(unique(names, lambda a, b: a == b, path, lambda name: name))


def _device_claim_configuration(config: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_DeviceClaimConfiguration`."""
    errs = _request_references(mapping(config).get("requests"), path.child("requests"))
    errs += validate_device_configuration(config, None, path)
    return errs


# --- ResourceClaim status -------------------------------------------------------------------------------


def validate_resource_claim_status_update(new: Mapping[str, Any], old: Mapping[str, Any]) -> ErrorList:
    """`Validate_ResourceClaim` on an update of the status subresource: the spec is the old one (the
    status strategy resets it), so only `Validate_ResourceClaimStatus` speaks."""
    status, old_status = new.get("status"), old.get("status")
    return _claim_status(mapping(status), mapping(old_status), _STATUS)


def _claim_status(status: dict[str, Any], old: dict[str, Any], path: FieldPath) -> ErrorList:
    errs: ErrorList = []
    allocation, old_allocation = status.get("allocation"), old.get("allocation")
    if not _unchanged(allocation, old_allocation, True, _ALLOCATION):
        new_value, old_value = optional_mapping(allocation), optional_mapping(old_allocation)
        if new_value is not None:
            if old_value is not None:
                errs += beta(no_modify(path.child("allocation")))
            else:
                errs += _allocation_result(new_value, path.child("allocation"))
    reserved_for = sequence(status.get("reservedFor"))
    if reserved_for and not _unchanged(
        status.get("reservedFor"), old.get("reservedFor"), True, shapes.RESOURCE_CLAIM_CONSUMER_REFERENCES
    ):
        reserved_path = path.child("reservedFor")
        too_many = beta(max_items(len(reserved_for), 256, reserved_path))
        errs += too_many or beta(
            unique(
                reserved_for,
                lambda a, b: text(mapping(a).get("uid")) == text(mapping(b).get("uid")),
                reserved_path,
                _shown(RESOURCE_CLAIM_CONSUMER_REFERENCE),
            )
        )
    devices = sequence(status.get("devices"))
    if devices and not _unchanged(
        status.get("devices"), old.get("devices"), True, shapes.ALLOCATED_DEVICE_STATUSES
    ):
        devices_path = path.child("devices")
        errs += beta(
            unique(
                devices,
                lambda a, b: device_status_key(a) == device_status_key(b),
                devices_path,
                _shown(ALLOCATED_DEVICE_STATUS),
            )
        )
        errs += _each(
            devices,
            list(sequence(old.get("devices"))),
            devices_path,
            _allocated_device_status,
            key=device_status_key,
            shape=shapes.ALLOCATED_DEVICE_STATUS,
        )
    return errs


def device_status_key(status: Any) -> tuple[str, str, str, str | None]:
    """The list-map key of `status.devices`: driver, device, pool and the shareID pointer."""
    fields = mapping(status)
    share_id = fields.get("shareID")
    return (
        text(fields.get("driver")),
        text(fields.get("device")),
        text(fields.get("pool")),
        share_id if isinstance(share_id, str) else None,
    )


def _allocation_result(allocation: dict[str, Any], path: FieldPath) -> ErrorList:
    """`Validate_AllocationResult` of a newly set allocation -> `Validate_DeviceAllocationResult`
    (the node selector and the timestamp have no tags)."""
    devices, devices_path = mapping(allocation.get("devices")), path.child("devices")
    results = sequence(devices.get("results"))
    errs = _configurations(
        list(results), devices_path.child("results"), 32, _device_request_allocation_result
    )
    errs += _configurations(
        list(sequence(devices.get("config"))),
        devices_path.child("config"),
        64,
        _device_allocation_configuration,
    )
    return errs


def _device_request_allocation_result(result: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_DeviceRequestAllocationResult`."""
    fields = mapping(result)
    errs = _driver(text(fields.get("driver")), path.child("driver"))
    errs += _pool(text(fields.get("pool")), path.child("pool"))
    errs += _tolerations(fields.get("tolerations"), path.child("tolerations"))
    for name in ("bindingConditions", "bindingFailureConditions"):
        errs += beta(max_items(len(sequence(fields.get(name))), 4, path.child(name)))
    share_id = fields.get("shareID")
    if isinstance(share_id, str):
        errs += beta(uuid(share_id, path.child("shareID")))
    errs += _skip_node_operations(fields.get("skipNodeOperations"), path.child("skipNodeOperations"))
    return errs


def _skip_node_operations(operations: Any, path: FieldPath) -> ErrorList:
    """`skipNodeOperations` (standard tags: always enforced): a set of known operations."""
    names = _texts(operations)
    errs = unique(names, lambda a, b: a == b, path, go_json_value)
    for i, name in enumerate(names):
        errs += enum(name, SKIP_NODE_OPERATIONS, path.index(i))
    return errs


def _device_allocation_configuration(config: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_DeviceAllocationConfiguration`."""
    fields = mapping(config)
    source, source_path = text(fields.get("source")), path.child("source")
    errs = beta(required_value(bool(source), source_path)) or beta(
        enum(source, ALLOCATION_CONFIG_SOURCES, source_path)
    )
    errs += _request_references(fields.get("requests"), path.child("requests"))
    errs += validate_device_configuration(config, None, path)
    return errs


def _allocated_device_status(device: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_AllocatedDeviceStatus` (the alpha condition checks are never enforced)."""
    fields, old_fields = mapping(device), mapping(old)
    correlated = old is not None
    errs: ErrorList = []
    share_id = fields.get("shareID")
    if isinstance(share_id, str) and not _same_text(share_id, old_fields.get("shareID"), correlated):
        errs += beta(uuid(share_id, path.child("shareID")))
    network = optional_mapping(fields.get("networkData"))
    if network is not None and not _unchanged(
        fields.get("networkData"), old_fields.get("networkData"), correlated, shapes.NETWORK_DEVICE_DATA
    ):
        errs += _network_device_data(
            network,
            optional_mapping(old_fields.get("networkData")) if correlated else None,
            path.child("networkData"),
        )
    return errs


def _network_device_data(data: Mapping[str, Any], old: Old, path: FieldPath) -> ErrorList:
    """`Validate_NetworkDeviceData`."""
    correlated = old is not None
    old_fields = mapping(old)
    errs: ErrorList = []
    interface = text(data.get("interfaceName"))
    if interface and not _same_text(interface, text(old_fields.get("interfaceName")), correlated):
        errs += beta(max_bytes(interface, 256, path.child("interfaceName")))
    ips = _texts(data.get("ips"))
    if ips and not (correlated and ips == _texts(old_fields.get("ips"))):
        ips_path = path.child("ips")
        errs += beta(max_items(len(ips), 16, ips_path)) or beta(
            unique(ips, lambda a, b: a == b, ips_path, lambda ip: ip)
        )
    address = text(data.get("hardwareAddress"))
    if address and not _same_text(address, text(old_fields.get("hardwareAddress")), correlated):
        errs += beta(max_bytes(address, 128, path.child("hardwareAddress")))
    return errs


_ALLOCATION: Final = Pointer(shapes.ALLOCATION_RESULT)
_METADATA: Final = FieldPath("metadata")
_SPEC: Final = FieldPath("spec")
_STATUS: Final = FieldPath("status")


# --- ResourceSlice --------------------------------------------------------------------------------------

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
    if _unchanged(spec, old_spec, update, shapes.RESOURCE_SLICE_SPEC):
        return []
    old_fields = mapping(old_spec) if update else None
    return _resource_slice_spec(mapping(spec), old_fields, _SPEC, usual_attributes, plain_devices)


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
    if not _unchanged(spec.get("devices"), old_fields.get("devices"), correlated, shapes.DEVICES):
        devices, devices_path = sequence(spec.get("devices")), path.child("devices")
        for i, device in enumerate(devices):  # `_each` without keys: no old device
            if plain_devices is not None and i < len(plain_devices) and plain_devices[i]:
                continue  # `_device` finds nothing in it: no attribute but usual ones, no other part
            usual = usual_attributes is not None and i < len(usual_attributes) and usual_attributes[i]
            errs += _device(device, None, devices_path.index(i), usual_attributes=usual)
    counter_sets = sequence(spec.get("sharedCounters"))
    if counter_sets and not _unchanged(
        spec.get("sharedCounters"), old_fields.get("sharedCounters"), correlated, shapes.COUNTER_SETS
    ):
        sets_path = path.child("sharedCounters")
        too_many = beta(max_items(len(counter_sets), 8, sets_path))
        if too_many:
            errs += too_many
        else:
            errs += beta(
                unique(counter_sets, lambda a, b: _name(a) == _name(b), sets_path, _shown(COUNTER_SET))
            )
            errs += _each(
                counter_sets,
                list(sequence(old_fields.get("sharedCounters"))) if correlated else None,
                sets_path,
                _counter_set,
                key=_name,
                shape=shapes.COUNTER_SET,
            )
    partition = spec.get("partitionTypeAttribute")
    if isinstance(partition, str) and not _same_text(
        partition, old_fields.get("partitionTypeAttribute"), correlated
    ):
        # DRAPartitionableDevicesType is on whenever the field arrives (the API server drops it when off).
        errs += resource_fully_qualified_name(partition, path.child("partitionTypeAttribute"))
    operations = _texts(spec.get("skipNodeOperations"))
    if operations and not _unchanged(
        spec.get("skipNodeOperations"), old_fields.get("skipNodeOperations"), correlated, shapes.STRINGS
    ):
        errs += _slice_skip_node_operations(
            operations, _texts(old_fields.get("skipNodeOperations")) if correlated else None, path
        )
    return errs


def _slice_skip_node_operations(
    operations: Sequence[str], old: Sequence[str] | None, path: FieldPath
) -> ErrorList:
    """A slice's `skipNodeOperations` (standard): a set of known operations; on update an operation
    the old list has is not validated again (`EachValSliceVal` with `DirectEqual`)."""
    operations_path = path.child("skipNodeOperations")
    errs = unique(list(operations), lambda a, b: a == b, operations_path, go_json_value)
    for i, name in enumerate(operations):
        if old is None or name not in old:
            errs += enum(name, SKIP_NODE_OPERATIONS, operations_path.index(i))
    return errs


def _counter_set(counter_set: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_CounterSet`: the name required and a short name; the counters required, keyed by short
    names. A name or counters equal to the correlated old set's are not validated again, nor are keys
    the old counters have."""
    fields, old_fields = mapping(counter_set), mapping(old)
    correlated = old is not None
    errs: ErrorList = []
    name, name_path = text(fields.get("name")), path.child("name")
    if not _same_text(name, text(old_fields.get("name")), correlated):
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
        consumptions_path = path.child("consumesCounters")
        too_many = beta(max_items(len(consumptions), 2, consumptions_path))
        if too_many:
            errs += too_many
        else:
            errs += beta(
                unique(
                    consumptions,
                    lambda a, b: _counter_set_of(a) == _counter_set_of(b),
                    consumptions_path,
                    _shown(DEVICE_COUNTER_CONSUMPTION),
                )
            )
            errs += _each(consumptions, None, consumptions_path, _counter_consumption)
    taints = sequence(fields.get("taints"))
    if taints:
        errs += _each(list(taints), None, path.child("taints"), device_taint)
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


# --- DeviceTaintRule and the taints of devices --------------------------------------------------


def validate_device_taint_rule(new: Mapping[str, Any], old: Old) -> ErrorList:
    """`Validate_DeviceTaintRule`: the spec's taint (ObjectMeta's and the status conditions' tags are
    alpha)."""
    update = old is not None
    spec, old_spec = new.get("spec"), old.get("spec") if old is not None else None
    if _unchanged(spec, old_spec, update, shapes.DEVICE_TAINT_RULE_SPEC):
        return []
    taint, old_taint = mapping(spec).get("taint"), mapping(old_spec).get("taint")
    if _unchanged(taint, old_taint, update, shapes.DEVICE_TAINT):
        return []
    return device_taint(taint, old_taint if update else None, _SPEC.child("taint"))


def device_taint(taint: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_DeviceTaint`: the effect required (short-circuits) and one of the enum; an effect
    equal to the correlated old taint's is not validated again."""
    effect = text(mapping(taint).get("effect"))
    if _same_text(effect, text(mapping(old).get("effect")), old is not None):
        return []
    effect_path = path.child("effect")
    return beta(required_value(bool(effect), effect_path)) or beta(enum(effect, TAINT_EFFECTS, effect_path))
