"""The hand-written checks of a ResourceClaim's status in 1.37 (`validateResourceClaimStatusUpdate`
and its helpers in `pkg/apis/resource/validation/validation.go`): reservations, the status of
allocated devices, and a newly set allocation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from webhook.field import (
    ErrorList,
    FieldPath,
    GoText,
    covered_by_declarative,
    duplicate,
    go_json,
    go_json_value,
    invalid,
    not_supported,
    required,
    too_long_bytes,
    too_many_items,
    with_origin,
)
from webhook.gotime import parse_rfc3339
from webhook.rules.names import byte_length, is_qualified_name
from webhook.rules.nodeselector import validate_node_selector
from webhook.rules.v1 import RELEASE
from webhook.rules.v1.addresses import validate_interface_address
from webhook.rules.v1.devices import (
    DEVICE_CONFIG_MAX_SIZE,
    RequestNames,
    validate_binding_parameters,
    validate_device_configuration,
    validate_raw_extension,
    validate_request_name_ref,
    validate_request_references,
    validate_set,
    validate_slice,
    validate_tolerations,
)
from webhook.rules.v1.names import (
    validate_device_name,
    validate_driver_name,
    validate_pool_name,
    validate_uid,
)
from webhook.rules.values import integer, mapping, optional_mapping, sequence, text

RESOURCE_CLAIM_RESERVED_FOR_MAX_SIZE: Final = 256
ALLOCATION_RESULTS_MAX_SIZE: Final = 32
ALLOCATED_DEVICE_STATUS_MAX_CONDITIONS: Final = 8
ALLOCATED_DEVICE_STATUS_DATA_MAX_LENGTH: Final = 10 * 1024
NETWORK_DEVICE_DATA_MAX_IPS: Final = 16
NETWORK_DEVICE_DATA_INTERFACE_NAME_MAX_LENGTH: Final = 256
NETWORK_DEVICE_DATA_HARDWARE_ADDRESS_MAX_LENGTH: Final = 128
ALLOCATION_CONFIG_SOURCES: Final = ("FromClaim", "FromClass")
SKIP_NODE_PREPARE: Final = "NodePrepareResources"
SKIP_NODE_UNPREPARE: Final = "NodeUnprepareResources"
SKIP_ALL: Final = "*"

SharedDeviceID = tuple[str, str, str, str]


def shared_device_id(driver: str, pool: str, device: str, share_id: Any) -> SharedDeviceID:
    """`structured.MakeSharedDeviceID(MakeDeviceID(driver, pool, device), shareID)`: no shareID is
    the empty string."""
    return (driver, pool, device, share_id if isinstance(share_id, str) else "")


def shown_device_id(device_id: SharedDeviceID) -> GoText:
    """A SharedDeviceID as apimachinery 0.34+ prints it: encoding/json of its four UniqueString
    fields (each marshals as its string)."""
    driver, pool, device, share_id = device_id
    return GoText(go_json({"Driver": driver, "Pool": pool, "Device": device, "ShareID": share_id}))


# --- reservations -------------------------------------------------------------------------------------


def validate_reserved_for(reserved_for: Sequence[Any], path: FieldPath) -> ErrorList:
    """`validateSet(status.ReservedFor, 256, validateResourceClaimUserReference, uid)`: size and
    uniqueness covered by declarative validation."""
    return validate_set(
        reserved_for,
        RESOURCE_CLAIM_RESERVED_FOR_MAX_SIZE,
        _validate_consumer,
        lambda consumer: text(mapping(consumer).get("uid")),
        path,
        size_covered=True,
        uniqueness_covered=True,
    )


def _validate_consumer(consumer: Any, path: FieldPath) -> ErrorList:
    """`validateResourceClaimUserReference`: resource, name and uid are required (apiGroup is not
    checked)."""
    fields = mapping(consumer)
    return [
        required(path.child(name), "") for name in ("resource", "name", "uid") if not text(fields.get(name))
    ]


def consumer_key(consumer: Any) -> tuple[str, str, str, str]:
    """A ResourceClaimConsumerReference as the comparable Go struct it is."""
    fields = mapping(consumer)
    return tuple(text(fields.get(name)) for name in ("apiGroup", "resource", "name", "uid"))  # type: ignore[return-value]


# --- status.devices ----------------------------------------------------------------------------------


def allocated_devices(allocation: Mapping[str, Any] | None) -> set[SharedDeviceID]:
    """`gatherAllocatedDevices`."""
    if allocation is None:
        return set()
    results = sequence(mapping(allocation.get("devices")).get("results"))
    return {
        shared_device_id(
            text(mapping(result).get("driver")),
            text(mapping(result).get("pool")),
            text(mapping(result).get("device")),
            mapping(result).get("shareID"),
        )
        for result in results
    }


def device_status_id(device: Any) -> SharedDeviceID:
    fields = mapping(device)
    return shared_device_id(
        text(fields.get("driver")),
        text(fields.get("pool")),
        text(fields.get("device")),
        fields.get("shareID"),
    )


def validate_device_statuses(
    devices: Sequence[Any], path: FieldPath, allocation: Mapping[str, Any] | None
) -> ErrorList:
    """`validateSet(status.Devices, -1, validateDeviceStatus, SharedDeviceID)`: uniqueness covered.
    Each status must name a device of `allocation`; no status, nothing to check (or to gather)."""
    if not devices:
        return []
    allocated = allocated_devices(allocation)
    return validate_set(
        devices,
        -1,
        lambda device, at: validate_device_status(mapping(device), at, allocated),
        device_status_id,
        path,
        shown=lambda device: shown_device_id(device_status_id(device)),
        uniqueness_covered=True,
    )


def validate_device_status(
    device: Mapping[str, Any], path: FieldPath, allocated: set[SharedDeviceID]
) -> ErrorList:
    """`validateDeviceStatus`."""
    errs = validate_driver_name(text(device.get("driver")), path.child("driver"))
    errs += validate_pool_name(text(device.get("pool")), path.child("pool"))
    errs += validate_device_name(text(device.get("device")), path.child("device"))
    share_id = device.get("shareID")
    if isinstance(share_id, str):
        errs += covered_by_declarative(validate_uid(share_id, path.child("shareID")))
    device_id = device_status_id(device)
    if device_id not in allocated:
        errs.append(invalid(path, shown_device_id(device_id), "must be an allocated device in the claim"))
    conditions = sequence(device.get("conditions"))
    if len(conditions) > ALLOCATED_DEVICE_STATUS_MAX_CONDITIONS:
        errs.append(
            too_many_items(path.child("conditions"), len(conditions), ALLOCATED_DEVICE_STATUS_MAX_CONDITIONS)
        )
    errs += validate_conditions(conditions, path.child("conditions"))
    data = device.get("data")
    if data is not None:
        errs += validate_raw_extension(
            data, path.child("data"), stored=False, max_length=ALLOCATED_DEVICE_STATUS_DATA_MAX_LENGTH
        )
    network = optional_mapping(device.get("networkData"))
    if network is not None:
        errs += validate_network_device_data(network, path.child("networkData"))
    return errs


def validate_network_device_data(data: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`validateNetworkDeviceData`: byte limits of the names (covered), at most 16 unique interface
    addresses in CIDR form."""
    errs: ErrorList = []
    if byte_length(text(data.get("interfaceName"))) > NETWORK_DEVICE_DATA_INTERFACE_NAME_MAX_LENGTH:
        too_long = too_long_bytes(path.child("interfaceName"), NETWORK_DEVICE_DATA_INTERFACE_NAME_MAX_LENGTH)
        errs += covered_by_declarative(with_origin([too_long], "maxBytes"))
    if byte_length(text(data.get("hardwareAddress"))) > NETWORK_DEVICE_DATA_HARDWARE_ADDRESS_MAX_LENGTH:
        too_long = too_long_bytes(
            path.child("hardwareAddress"), NETWORK_DEVICE_DATA_HARDWARE_ADDRESS_MAX_LENGTH
        )
        errs += covered_by_declarative(with_origin([too_long], "maxBytes"))
    errs += validate_set(
        [text(ip) for ip in sequence(data.get("ips"))],
        NETWORK_DEVICE_DATA_MAX_IPS,
        validate_interface_address,
        lambda ip: ip,
        path.child("ips"),
        size_covered=True,
        uniqueness_covered=True,
    )
    return errs


# --- metav1 conditions (apimachinery 0.37 ValidateConditions) --------------------------------------------

CONDITION_STATUSES: Final = ("False", "True", "Unknown")
CONDITION_REASON_MAX_LENGTH: Final = 1024
CONDITION_MESSAGE_MAX_LENGTH: Final = 32 * 1024
CONDITION_REASON_MSG: Final = (
    "a condition reason must start with alphabetic character, optionally followed by a string of "
    "alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. "
    "'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used "
    "for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')"
)


def validate_conditions(conditions: Sequence[Any], path: FieldPath) -> ErrorList:
    """metav1 `ValidateConditions`: a repeated type is a Duplicate at its index, then each condition."""
    errs: ErrorList = []
    seen: set[str] = set()
    for i, raw in enumerate(conditions):
        condition, at = mapping(raw), path.index(i)
        condition_type = text(condition.get("type"))
        if condition_type in seen:
            errs += covered_by_declarative([duplicate(at, condition_type)])
        else:
            seen.add(condition_type)
        errs += validate_condition(condition, at)
    return errs


def validate_condition(condition: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """metav1 `ValidateCondition` (its covered errors have only alpha declarative twins, so they stay)."""
    errs: ErrorList = []
    condition_type = text(condition.get("type"))
    if not condition_type:
        errs.append(required(path.child("type"), "is required"))
    else:
        type_errors = [
            invalid(path.child("type"), condition_type, msg)
            for msg in is_qualified_name(condition_type, release=RELEASE)
        ]
        errs += with_origin(type_errors, "format=k8s-label-key")
    status = text(condition.get("status"))
    if not status:
        errs.append(required(path.child("status"), ""))
    elif status not in CONDITION_STATUSES:
        errs.append(not_supported(path.child("status"), go_json_value(status), CONDITION_STATUSES))
    generation = integer(condition.get("observedGeneration"))
    if generation < 0:
        errs.append(
            invalid(path.child("observedGeneration"), generation, "must be greater than or equal to zero")
        )
    transition = condition.get("lastTransitionTime")
    instant = parse_rfc3339(transition) if isinstance(transition, str) else None
    if instant is None or (instant.seconds == 0 and instant.nanos == 0):
        errs.append(required(path.child("lastTransitionTime"), ""))
    reason = text(condition.get("reason"))
    if not reason:
        errs.append(required(path.child("reason"), ""))
    else:
        if not _is_condition_reason(reason):
            errs.append(invalid(path.child("reason"), reason, CONDITION_REASON_MSG))
        if byte_length(reason) > CONDITION_REASON_MAX_LENGTH:
            errs.append(too_long_bytes(path.child("reason"), CONDITION_REASON_MAX_LENGTH))
    if byte_length(text(condition.get("message"))) > CONDITION_MESSAGE_MAX_LENGTH:
        errs.append(too_long_bytes(path.child("message"), CONDITION_MESSAGE_MAX_LENGTH))
    return errs


def _is_condition_reason(reason: str) -> bool:
    """`[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?`"""
    if not reason.isascii() or not reason[0].isalpha():
        return False
    if len(reason) == 1:
        return True
    middle_ok = all(char.isalnum() or char in "_,:" for char in reason[1:-1])
    return middle_ok and (reason[-1].isalnum() or reason[-1] == "_")


# --- a newly set allocation ------------------------------------------------------------------------------


def validate_allocation_result(
    allocation: dict[str, Any], path: FieldPath, request_names: RequestNames
) -> ErrorList:
    """`validateAllocationResult` (new results only: "validation for new results is tighter")."""
    devices, devices_path = mapping(allocation.get("devices")), path.child("devices")
    errs = validate_slice(
        sequence(devices.get("results")),
        ALLOCATION_RESULTS_MAX_SIZE,
        lambda result, at: validate_request_allocation_result(mapping(result), at, request_names),
        devices_path.child("results"),
        size_covered=True,
    )
    errs += validate_slice(
        sequence(devices.get("config")),
        2 * DEVICE_CONFIG_MAX_SIZE,  # class + claim
        lambda config, at: validate_allocation_configuration(mapping(config), at, request_names),
        devices_path.child("config"),
        size_covered=True,
    )
    node_selector = optional_mapping(allocation.get("nodeSelector"))
    if node_selector is not None:
        errs += validate_node_selector(node_selector, path.child("nodeSelector"), release=RELEASE)
    return errs


def validate_request_allocation_result(
    result: dict[str, Any], path: FieldPath, request_names: RequestNames
) -> ErrorList:
    """`validateDeviceRequestAllocationResult`."""
    errs = validate_request_name_ref(text(result.get("request")), path.child("request"), request_names)
    errs += validate_driver_name(
        text(result.get("driver")),
        path.child("driver"),
        required_covered=True,
        format_covered=True,
        size_covered=True,
    )
    errs += covered_by_declarative(validate_pool_name(text(result.get("pool")), path.child("pool")))
    errs += validate_device_name(text(result.get("device")), path.child("device"))
    errs += validate_binding_parameters(
        result.get("bindingConditions"), result.get("bindingFailureConditions"), path
    )
    errs += validate_tolerations(result.get("tolerations"), path.child("tolerations"))
    share_id = result.get("shareID")
    if isinstance(share_id, str):
        errs += covered_by_declarative(validate_uid(share_id, path.child("shareID")))
    errs += validate_skip_node_operations(result.get("skipNodeOperations"), path.child("skipNodeOperations"))
    return errs


def validate_skip_node_operations(operations: Any, path: FieldPath) -> ErrorList:
    """`validateSkipNodeOperations`: NodePrepareResources only together with NodeUnprepareResources
    (or "*")."""
    names = [text(item) for item in sequence(operations)]
    if SKIP_NODE_PREPARE in names and SKIP_NODE_UNPREPARE not in names and SKIP_ALL not in names:
        shown = GoText(go_json(names)) if isinstance(operations, list) else GoText("null")
        return [
            invalid(
                path,
                shown,
                "NodePrepareResources cannot be skipped unless NodeUnprepareResources is also skipped",
            )
        ]
    return []


def validate_allocation_configuration(
    config: dict[str, Any], path: FieldPath, request_names: RequestNames
) -> ErrorList:
    """`validateDeviceAllocationConfiguration`: the source (covered), the requests, the opaque
    configuration (never "stored": a new allocation)."""
    source = text(config.get("source"))
    errs: ErrorList = []
    if not source:
        errs += covered_by_declarative([required(path.child("source"), "")])
    elif source not in ALLOCATION_CONFIG_SOURCES:
        errs += covered_by_declarative(
            [not_supported(path.child("source"), go_json_value(source), ALLOCATION_CONFIG_SOURCES)]
        )
    errs += validate_request_references(config.get("requests"), path.child("requests"), request_names)
    errs += validate_device_configuration(config, path, stored=False)
    return errs
