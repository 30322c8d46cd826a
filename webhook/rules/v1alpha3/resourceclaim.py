"""ResourceClaim (resource.k8s.io/v1alpha3): create, update and status update, as kube-apiserver 1.31.

Mirrors `ValidateResourceClaim`, `ValidateResourceClaimUpdate`, `ValidateResourceClaimStatusUpdate` and
their helpers in `pkg/apis/resource/validation/validation.go` (1.31), and the registry strategy
(`pkg/registry/resource/resourceclaim/strategy.go`) that calls them:

* create runs `ValidateResourceClaim`: ObjectMeta, then the spec. The strategy has already dropped
  `status`, so status is not judged;
* update runs `ValidateResourceClaim(new)` and then `ValidateResourceClaimUpdate`: ObjectMetaUpdate,
  the whole spec immutable, the spec again (see `strategy.py` for how the two passes are reported);
  the strategy has put the old status back, so status is not judged;
* the status update runs `ValidateResourceClaimStatusUpdate` alone: ObjectMetaUpdate, then the status
  against the names of the claim's requests.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Any, Final

from webhook.field import ROOT, ErrorList, FieldPath, forbidden, invalid, not_supported, required
from webhook.rules import meta
from webhook.rules.equality import semantic_equal
from webhook.rules.kinds import KindRules, Obj
from webhook.rules.names import validate_csi_driver_name
from webhook.rules.nodeselector import validate_node_selector
from webhook.rules.v1alpha3 import resource_v1alpha3
from webhook.rules.v1alpha3.configuration import validate_device_configuration
from webhook.rules.v1alpha3.defaults import defaulted_claim_spec
from webhook.rules.v1alpha3.deviceclaim import (
    DEVICE_CONFIG_MAX_SIZE,
    gather_request_names,
    validate_claim_spec,
    validate_request_names,
)
from webhook.rules.v1alpha3.identifiers import (
    validate_device_name,
    validate_pool_name,
    validate_request_name_ref,
)
from webhook.rules.v1alpha3.shapes import ALLOCATION_RESULT, RESOURCE_CLAIM_SPEC
from webhook.rules.v1alpha3.slices import validate_set, validate_slice
from webhook.rules.v1alpha3.strategy import create_then_update
from webhook.rules.values import flag, mapping, optional_mapping, sequence, text

__all__ = [
    "RESOURCE_CLAIM",
    "validate_claim",
    "validate_claim_status_update",
    "validate_claim_update",
    "validate_spec_unchanged",
]

# Limits of pkg/apis/resource (types.go, 1.31).
RESOURCE_CLAIM_RESERVED_FOR_MAX_SIZE: Final = 32
ALLOCATION_RESULTS_MAX_SIZE: Final = 32
# An allocation carries the configuration of the class and of the claim.
ALLOCATION_CONFIG_MAX_SIZE: Final = 2 * DEVICE_CONFIG_MAX_SIZE

ALLOCATION_CONFIG_SOURCE_CLAIM: Final = "FromClaim"
ALLOCATION_CONFIG_SOURCE_CLASS: Final = "FromClass"
# In the order Go lists them in the NotSupported message.
ALLOCATION_CONFIG_SOURCES: Final = (ALLOCATION_CONFIG_SOURCE_CLAIM, ALLOCATION_CONFIG_SOURCE_CLASS)

NEW_RESERVATIONS_MSG: Final = (
    "new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set"
)

_SPEC = ROOT.child("spec")
_STATUS = ROOT.child("status")


# --- create and update ----------------------------------------------------------------------------


def validate_claim(claim: Obj) -> ErrorList:
    """`ValidateResourceClaim`: ObjectMeta (the name a DNS subdomain), then the spec."""
    errs = meta.validate_object_meta(claim.get("metadata"), namespaced=True)
    errs += validate_claim_spec(claim.get("spec"), _SPEC)
    return errs


def validate_spec_unchanged(new_spec: Any, old_spec: Any, path: FieldPath) -> ErrorList:
    """`ValidateImmutableField(new.Spec, old.Spec)` on defaulted specs; the value is the new spec
    (Go prints it as a struct literal; here it is its JSON)."""
    new_defaulted, old_defaulted = defaulted_claim_spec(new_spec), defaulted_claim_spec(old_spec)
    if semantic_equal(new_defaulted, old_defaulted, RESOURCE_CLAIM_SPEC):
        return []
    return [invalid(path, new_defaulted, meta.FIELD_IMMUTABLE_MSG)]


def validate_claim_update(new: Obj, old: Obj) -> ErrorList:
    """The strategy's `ValidateResourceClaim(new)` then `ValidateResourceClaimUpdate(new, old)`:
    ObjectMetaUpdate, the spec immutable, the spec checked again with its selectors compiled as
    stored expressions (1.31: "Because the spec is immutable, all CEL expressions in it must have
    been stored")."""
    errs = meta.validate_object_meta_update(new.get("metadata"), old.get("metadata"))
    errs += validate_spec_unchanged(new.get("spec"), old.get("spec"), _SPEC)
    errs += validate_claim_spec(new.get("spec"), _SPEC, stored=True)
    return create_then_update(validate_claim(new), errs)


# --- status ---------------------------------------------------------------------------------------


def validate_claim_status_update(new: Obj, old: Obj) -> ErrorList:
    """`ValidateResourceClaimStatusUpdate`, in the API server's order."""
    errs = meta.validate_object_meta_update(new.get("metadata"), old.get("metadata"))
    status, old_status = mapping(new.get("status")), mapping(old.get("status"))
    # The status strategy resets the spec to the old one: the request names are the old spec's.
    request_names = gather_request_names(old.get("spec"))
    allocation = optional_mapping(status.get("allocation"))
    old_allocation = optional_mapping(old_status.get("allocation"))
    reserved_for = sequence(status.get("reservedFor"))
    deallocation_requested = flag(status.get("deallocationRequested"))
    old_deallocation_requested = flag(old_status.get("deallocationRequested"))

    if allocation is not None:
        errs += validate_allocation_result(allocation, _STATUS.child("allocation"), request_names)
    errs += validate_set(
        reserved_for,
        RESOURCE_CLAIM_RESERVED_FOR_MAX_SIZE,
        _validate_consumer_reference,
        _consumer_uid,
        _STATUS.child("reservedFor"),
    )

    # The invariants of a ResourceClaim.
    if reserved_for:
        if allocation is None:
            errs.append(
                forbidden(_STATUS.child("reservedFor"), "may not be specified when `allocated` is not set")
            )
        else:
            # Entries may be removed while the claim is to be deallocated or deleted, not added. Go
            # looks at the *new* object's deletionTimestamp (ObjectMetaUpdate keeps it as it was).
            being_deleted = mapping(new.get("metadata")).get("deletionTimestamp") is not None
            if being_deleted or deallocation_requested:
                old_entries = {_consumer_key(entry) for entry in sequence(old_status.get("reservedFor"))}
                if any(_consumer_key(entry) not in old_entries for entry in reserved_for):
                    errs.append(forbidden(_STATUS.child("reservedFor"), NEW_RESERVATIONS_MSG))

    # A populated allocation is immutable: setting it from nil and clearing it are both allowed.
    if (
        old_allocation is not None
        and allocation is not None
        and not semantic_equal(allocation, old_allocation, ALLOCATION_RESULT)
    ):
        errs.append(invalid(_STATUS.child("allocation"), dict(allocation), meta.FIELD_IMMUTABLE_MSG))

    if not old_deallocation_requested and deallocation_requested and reserved_for:
        errs.append(
            forbidden(
                _STATUS.child("deallocationRequested"),
                "deallocation cannot be requested while `reservedFor` is set",
            )
        )
    if allocation is None and deallocation_requested:
        # Go reports only the invalid end result, not which of the two fields changed.
        errs.append(forbidden(_STATUS, "`allocation` must be set when `deallocationRequested` is set"))
    # Once requested, deallocation cannot be withdrawn: only the driver resets the flag, together
    # with removing the allocation.
    if old_deallocation_requested and not deallocation_requested and allocation is not None:
        errs.append(
            forbidden(_STATUS.child("deallocationRequested"), "may not be cleared when `allocation` is set")
        )
    return errs


def _validate_consumer_reference(raw: Any, path: FieldPath) -> ErrorList:
    """`validateResourceClaimUserReference`: resource, name and uid are required (apiGroup is not)."""
    reference = mapping(raw)
    return [
        required(path.child(name), "")
        for name in ("resource", "name", "uid")
        if not text(reference.get(name))
    ]


def _consumer_uid(raw: Any) -> tuple[str, str]:
    """reservedFor is a set by uid."""
    return text(mapping(raw).get("uid")), "uid"


def _consumer_key(raw: Any) -> tuple[str, str, str, str]:
    """A ResourceClaimConsumerReference as the comparable Go struct it is (all four fields)."""
    reference = mapping(raw)
    return (
        text(reference.get("apiGroup")),
        text(reference.get("resource")),
        text(reference.get("name")),
        text(reference.get("uid")),
    )


def validate_allocation_result(
    allocation: Mapping[str, Any], path: FieldPath, request_names: Set[str]
) -> ErrorList:
    """`validateAllocationResult`: the devices, the node selector and the controller when set."""
    devices, devices_path = mapping(allocation.get("devices")), path.child("devices")

    def validate_result(result: Any, at: FieldPath) -> ErrorList:
        return _validate_request_allocation_result(mapping(result), at, request_names)

    def validate_config(config: Any, at: FieldPath) -> ErrorList:
        return _validate_allocation_configuration(mapping(config), at, request_names)

    errs = validate_slice(
        sequence(devices.get("results")),
        ALLOCATION_RESULTS_MAX_SIZE,
        validate_result,
        devices_path.child("results"),
    )
    errs += validate_slice(
        sequence(devices.get("config")),
        ALLOCATION_CONFIG_MAX_SIZE,
        validate_config,
        devices_path.child("config"),
    )
    node_selector = optional_mapping(allocation.get("nodeSelector"))
    if node_selector is not None:
        errs += validate_node_selector(node_selector, path.child("nodeSelector"))
    controller = text(allocation.get("controller"))
    if controller:
        errs += validate_csi_driver_name(controller, path.child("controller"))
    return errs


def _validate_request_allocation_result(
    result: Mapping[str, Any], path: FieldPath, request_names: Set[str]
) -> ErrorList:
    """`validateDeviceRequestAllocationResult`: a request of the claim, a driver, a pool and a device."""
    errs = validate_request_name_ref(text(result.get("request")), path.child("request"), request_names)
    errs += validate_csi_driver_name(text(result.get("driver")), path.child("driver"))
    errs += validate_pool_name(text(result.get("pool")), path.child("pool"))
    errs += validate_device_name(text(result.get("device")), path.child("device"))
    return errs


def _validate_allocation_configuration(
    config: Mapping[str, Any], path: FieldPath, request_names: Set[str]
) -> ErrorList:
    """`validateDeviceAllocationConfiguration`: its source, its requests, then the configuration."""
    source, source_path = text(config.get("source")), path.child("source")
    errs: ErrorList = []
    if not source:
        errs.append(required(source_path, ""))
    elif source not in ALLOCATION_CONFIG_SOURCES:
        errs.append(not_supported(source_path, source, ALLOCATION_CONFIG_SOURCES))
    errs += validate_request_names(config.get("requests"), path.child("requests"), request_names)
    errs += validate_device_configuration(config, path)
    return errs


RESOURCE_CLAIM: Final = KindRules(
    gvk=resource_v1alpha3("ResourceClaim"),
    resource="resourceclaims",
    namespaced=True,
    validate_create=validate_claim,
    validate_update=validate_claim_update,
    validate_status_update=validate_claim_status_update,
)
