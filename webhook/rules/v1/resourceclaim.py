"""ResourceClaim (resource.k8s.io/v1): create, update and status update, as kube-apiserver 1.37.

Hand-written (`pkg/apis/resource/validation/validation.go`, 1.37), as the registry strategy
(`pkg/registry/resource/resourceclaim/strategy.go`) runs it:

* create: `ValidateResourceClaim` -- ObjectMeta and the spec;
* update: `ValidateResourceClaimUpdate` -- ObjectMeta, ObjectMetaUpdate and the immutable spec
  ("On update, we only check for immutability"), nothing else of the spec;
* status: `ValidateResourceClaimStatusUpdate` -- ObjectMetaUpdate, then reservations, the status of
  devices, and either an unchanged allocation or a newly set one validated in full.

On every update, `status` included, the REST layer checks the metadata first
(`rest.validateCommonFields`, apiserver v0.37.0-beta.0 `pkg/registry/rest/update.go`); those errors
come before the strategy's. Each is merged with the declarative validation of the v1 types
(`webhook.rules.v1.declared`) as 1.37 merges them (`webhook.rules.v1.lifecycle`), repeated texts
once. Before validating, the v1 defaulters run (`webhook.rules.v1.defaults`; `DEFAULTED_RESOURCE_CLAIM`
leaves them to the apiVersion the claim came in), and a status update
drops the status of devices that are no longer allocated, as the status strategy's
`PrepareForUpdate` does (`dropDeallocatedStatusDevices`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from webhook.field import (
    ROOT,
    ErrorList,
    GoText,
    covered_by_declarative,
    forbidden,
    go_json,
    invalid,
    with_origin,
)
from webhook.rules import meta
from webhook.rules.equality import semantic_equal
from webhook.rules.kinds import KindRules, Obj
from webhook.rules.v1 import RELEASE, declared, resource_v1, shapes
from webhook.rules.v1.allocation import (
    allocated_devices,
    consumer_key,
    device_status_id,
    validate_allocation_result,
    validate_device_statuses,
    validate_reserved_for,
)
from webhook.rules.v1.claimspec import validate_claim_spec
from webhook.rules.v1.defaults import defaulted_claim
from webhook.rules.v1.devices import gather_request_names
from webhook.rules.v1.lifecycle import created_meta_errors, merge_validations, updated_with_common_fields
from webhook.rules.values import mapping, optional_mapping, sequence

_SPEC = ROOT.child("spec")
_STATUS = ROOT.child("status")
RESERVED_WITHOUT_ALLOCATION_MSG: Final = "may not be specified when `allocated` is not set"
RESERVED_WHILE_DELETED_MSG: Final = (
    "new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set"
)


# --- create and update --------------------------------------------------------------------------------


def validate_claim(claim: Obj) -> ErrorList:
    """Create: `ValidateResourceClaim` merged with `Validate_ResourceClaim`."""
    return validate_defaulted_claim(defaulted_claim(claim))


def validate_defaulted_claim(claim: Obj) -> ErrorList:
    """Create, of a claim its apiVersion's defaulters have defaulted."""
    handwritten = meta.validate_object_meta(claim.get("metadata"), namespaced=True, release=RELEASE)
    handwritten += validate_claim_spec(mapping(claim.get("spec")), _SPEC)
    if not handwritten:
        handwritten = created_meta_errors(claim.get("metadata"), namespaced=True)
    return merge_validations(handwritten, declared.validate_resource_claim(claim, None))


def validate_claim_update(new: Obj, old: Obj) -> ErrorList:
    """Update: `ValidateResourceClaimUpdate` merged with `Validate_ResourceClaim(new, old)`."""
    return validate_defaulted_claim_update(defaulted_claim(new), defaulted_claim(old))


def validate_defaulted_claim_update(new: Obj, old: Obj) -> ErrorList:
    """Update, of claims their apiVersion's defaulters have defaulted."""
    handwritten = updated_with_common_fields(new.get("metadata"), old.get("metadata"), namespaced=True)
    handwritten += meta.validate_object_meta(new.get("metadata"), namespaced=True, release=RELEASE)
    handwritten += meta.validate_object_meta_update(new.get("metadata"), old.get("metadata"), release=RELEASE)
    new_spec, old_spec = new.get("spec"), old.get("spec")
    spec_unchanged = semantic_equal(new_spec, old_spec, shapes.RESOURCE_CLAIM_SPEC)
    if not spec_unchanged:
        # ValidateImmutableField(...).WithOrigin("immutable").MarkCoveredByDeclarative(); the value,
        # the internal ResourceClaimSpec, is printed here as its v1 JSON.
        error = invalid(_SPEC, GoText(go_json(new_spec)), meta.FIELD_IMMUTABLE_MSG)
        handwritten += covered_by_declarative(with_origin([error], "immutable"))
    # Both compare the same specs the same way (Semantic.DeepEqual): once is enough.
    declarative = declared.validate_resource_claim(new, old, spec_unchanged=spec_unchanged)
    return merge_validations(handwritten, declarative)


# --- status -----------------------------------------------------------------------------------------------


def validate_claim_status_update(new: Obj, old: Obj) -> ErrorList:
    """Status: `ValidateResourceClaimStatusUpdate` merged with `Validate_ResourceClaim(new, old)`."""
    return validate_defaulted_claim_status_update(defaulted_claim(new), defaulted_claim(old))


def validate_defaulted_claim_status_update(new: Obj, old: Obj) -> ErrorList:
    """Status, of claims their apiVersion's defaulters have defaulted."""
    new = {
        **new,
        "status": drop_deallocated_status_devices(mapping(new.get("status")), mapping(old.get("status"))),
    }
    handwritten = updated_with_common_fields(new.get("metadata"), old.get("metadata"), namespaced=True)
    handwritten += meta.validate_object_meta_update(new.get("metadata"), old.get("metadata"), release=RELEASE)
    status, old_status = mapping(new.get("status")), mapping(old.get("status"))
    deleted = mapping(new.get("metadata")).get("deletionTimestamp") is not None
    reserved_for = sequence(status.get("reservedFor"))
    handwritten += validate_reserved_for(reserved_for, _STATUS.child("reservedFor"))
    allocation, old_allocation = (
        optional_mapping(status.get("allocation")),
        optional_mapping(old_status.get("allocation")),
    )
    handwritten += validate_device_statuses(
        sequence(status.get("devices")), _STATUS.child("devices"), allocation
    )
    if reserved_for:
        if allocation is None:
            handwritten.append(forbidden(_STATUS.child("reservedFor"), RESERVED_WITHOUT_ALLOCATION_MSG))
        elif deleted:
            # Items may be removed while the claim is being deleted, not added.
            old_entries = {consumer_key(entry) for entry in sequence(old_status.get("reservedFor"))}
            if any(consumer_key(entry) not in old_entries for entry in reserved_for):
                handwritten.append(forbidden(_STATUS.child("reservedFor"), RESERVED_WHILE_DELETED_MSG))
    if old_allocation is not None and allocation is not None:
        if not semantic_equal(allocation, old_allocation, shapes.ALLOCATION_RESULT):
            error = invalid(
                _STATUS.child("allocation"), GoText(go_json(allocation)), meta.FIELD_IMMUTABLE_MSG
            )
            handwritten += covered_by_declarative(with_origin([error], "update"))
    elif allocation is not None:
        # The status strategy resets the spec to the old one: the request names are the old spec's.
        request_names = gather_request_names(mapping(mapping(old.get("spec")).get("devices")))
        handwritten += validate_allocation_result(allocation, _STATUS.child("allocation"), request_names)
    return merge_validations(handwritten, declared.validate_resource_claim_status_update(new, old))


def drop_deallocated_status_devices(
    status: Mapping[str, Any], old_status: Mapping[str, Any]
) -> Mapping[str, Any]:
    """`dropDeallocatedStatusDevices`: the status of a device that the old allocation had and the new
    one no longer has is removed (DRAResourceClaimDeviceStatus is GA in 1.37)."""
    devices = status.get("devices")
    if not isinstance(devices, list):
        return status
    deallocated = allocated_devices(optional_mapping(old_status.get("allocation"))) - allocated_devices(
        optional_mapping(status.get("allocation"))
    )
    if not deallocated:
        return status
    kept = [device for device in devices if device_status_id(device) not in deallocated]
    return {**status, "devices": kept or None}


RESOURCE_CLAIM: Final = KindRules(
    gvk=resource_v1("ResourceClaim"),
    resource="resourceclaims",
    namespaced=True,
    validate_create=validate_claim,
    validate_update=validate_claim_update,
    validate_status_update=validate_claim_status_update,
)
# The same rules for claims defaulted already, by the defaulters of the apiVersion they came in:
# v1beta1's differ from v1's (`webhook.rules.v1beta1.defaults`).
DEFAULTED_RESOURCE_CLAIM: Final = KindRules(
    gvk=resource_v1("ResourceClaim"),
    resource="resourceclaims",
    namespaced=True,
    validate_create=validate_defaulted_claim,
    validate_update=validate_defaulted_claim_update,
    validate_status_update=validate_defaulted_claim_status_update,
)
