"""`Validate_ResourceClaimStatus` of 1.37's declarative validation, on an update of the status
subresource: a newly set allocation, the reservations and the devices' statuses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from webhook.field import ErrorList, FieldPath
from webhook.rules.equality import Pointer
from webhook.rules.v1 import shapes
from webhook.rules.v1.declarative import (
    beta,
    enum,
    max_bytes,
    max_items,
    no_modify,
    required_value,
    resource_pool_name,
    unique,
    uuid,
)
from webhook.rules.v1.declared.common import (
    STATUS_PATH,
    Old,
    configurations,
    list_map_field,
    same_text,
    shown,
    skip_node_operations,
    texts,
    unchanged,
    validate_device_configuration,
    validate_driver,
    validate_request_references,
    validate_tolerations,
)
from webhook.rules.v1.gojson import (
    ALLOCATED_DEVICE_STATUS,
    RESOURCE_CLAIM_CONSUMER_REFERENCE,
)
from webhook.rules.values import mapping, optional_mapping, sequence, text

ALLOCATION_CONFIG_SOURCES: Final = ("FromClaim", "FromClass")
_ALLOCATION: Final = Pointer(shapes.ALLOCATION_RESULT)


def validate_resource_claim_status_update(new: Mapping[str, Any], old: Mapping[str, Any]) -> ErrorList:
    """`Validate_ResourceClaim` on an update of the status subresource: the spec is the old one (the
    status strategy resets it), so only `Validate_ResourceClaimStatus` speaks."""
    status, old_status = new.get("status"), old.get("status")
    return _claim_status(mapping(status), mapping(old_status), STATUS_PATH)


def _claim_status(status: dict[str, Any], old: dict[str, Any], path: FieldPath) -> ErrorList:
    errs: ErrorList = []
    allocation, old_allocation = status.get("allocation"), old.get("allocation")
    if not unchanged(allocation, old_allocation, True, _ALLOCATION):
        new_value, old_value = optional_mapping(allocation), optional_mapping(old_allocation)
        if new_value is not None:
            if old_value is not None:
                errs += beta(no_modify(path.child("allocation")))
            else:
                errs += _allocation_result(new_value, path.child("allocation"))
    reserved_for = sequence(status.get("reservedFor"))
    if reserved_for and not unchanged(
        status.get("reservedFor"), old.get("reservedFor"), True, shapes.RESOURCE_CLAIM_CONSUMER_REFERENCES
    ):
        reserved_path = path.child("reservedFor")
        too_many = beta(max_items(len(reserved_for), 256, reserved_path))
        errs += too_many or beta(
            unique(
                reserved_for,
                lambda a, b: text(mapping(a).get("uid")) == text(mapping(b).get("uid")),
                reserved_path,
                shown(RESOURCE_CLAIM_CONSUMER_REFERENCE),
            )
        )
    errs += list_map_field(
        status.get("devices"),
        old.get("devices"),
        True,
        shapes.ALLOCATED_DEVICE_STATUSES,
        path.child("devices"),
        _allocated_device_status,
        key=device_status_key,
        limit=None,
        go_shape=ALLOCATED_DEVICE_STATUS,
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
    errs = configurations(list(results), devices_path.child("results"), 32, _device_request_allocation_result)
    errs += configurations(
        list(sequence(devices.get("config"))),
        devices_path.child("config"),
        64,
        _device_allocation_configuration,
    )
    return errs


def _device_request_allocation_result(result: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_DeviceRequestAllocationResult`."""
    fields = mapping(result)
    errs = validate_driver(text(fields.get("driver")), path.child("driver"))
    errs += _pool(text(fields.get("pool")), path.child("pool"))
    errs += validate_tolerations(fields.get("tolerations"), path.child("tolerations"))
    for name in ("bindingConditions", "bindingFailureConditions"):
        errs += beta(max_items(len(sequence(fields.get(name))), 4, path.child(name)))
    share_id = fields.get("shareID")
    if isinstance(share_id, str):
        errs += beta(uuid(share_id, path.child("shareID")))
    errs += skip_node_operations(
        texts(fields.get("skipNodeOperations")), None, path.child("skipNodeOperations")
    )
    return errs


def _pool(pool: str, path: FieldPath) -> ErrorList:
    """A result's pool: required, and a resource pool name."""
    return beta(required_value(bool(pool), path)) or beta(resource_pool_name(pool, path))


def _device_allocation_configuration(config: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_DeviceAllocationConfiguration`."""
    fields = mapping(config)
    source, source_path = text(fields.get("source")), path.child("source")
    errs = beta(required_value(bool(source), source_path)) or beta(
        enum(source, ALLOCATION_CONFIG_SOURCES, source_path)
    )
    errs += validate_request_references(fields.get("requests"), path.child("requests"))
    errs += validate_device_configuration(config, None, path)
    return errs


def _allocated_device_status(device: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_AllocatedDeviceStatus` (the alpha condition checks are never enforced)."""
    fields, old_fields = mapping(device), mapping(old)
    correlated = old is not None
    errs: ErrorList = []
    share_id = fields.get("shareID")
    if isinstance(share_id, str) and not same_text(share_id, old_fields.get("shareID"), correlated):
        errs += beta(uuid(share_id, path.child("shareID")))
    network = optional_mapping(fields.get("networkData"))
    if network is not None and not unchanged(
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
    if interface and not same_text(interface, text(old_fields.get("interfaceName")), correlated):
        errs += beta(max_bytes(interface, 256, path.child("interfaceName")))
    ips = texts(data.get("ips"))
    if ips and not (correlated and ips == texts(old_fields.get("ips"))):
        ips_path = path.child("ips")
        errs += beta(max_items(len(ips), 16, ips_path)) or beta(
            unique(ips, lambda a, b: a == b, ips_path, lambda ip: ip)
        )
    address = text(data.get("hardwareAddress"))
    if address and not same_text(address, text(old_fields.get("hardwareAddress")), correlated):
        errs += beta(max_bytes(address, 128, path.child("hardwareAddress")))
    return errs
