"""ResourceClaim (resource.k8s.io/v1alpha2): create, update and status update, as kube-apiserver 1.30.

Mirrors `ValidateClaim`, `ValidateClaimUpdate`, `ValidateClaimStatusUpdate` and their helpers in
`pkg/apis/resource/validation/validation.go` (1.30), and the registry strategy in
`pkg/registry/resource/resourceclaim/strategy.go` that calls them:

* create runs `ValidateClaim` (the strategy has already dropped `status`, so status is not judged);
* update runs `ValidateClaimUpdate`: ObjectMetaUpdate, the immutable spec, then `ValidateClaim`. The
  strategy runs ``ValidateClaim(new)`` before it too, so Go's `details.causes` lists every create
  error twice (the aggregated message drops the repeat); we report each once, in
  `ValidateClaimUpdate`'s order, as the API server's validation tests assert it;
* the status update runs `ValidateClaimStatusUpdate` only: ObjectMetaUpdate, then the status; the
  spec and the create-time metadata checks are not run.

The claim-spec checks are shared with ResourceClaimTemplate (`spec.spec`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from webhook.field import (
    ROOT,
    ErrorList,
    FieldPath,
    duplicate,
    forbidden,
    invalid,
    not_supported,
    required,
    too_long_max_length,
)
from webhook.rules import meta
from webhook.rules.equality import ALLOCATION_RESULT, RESOURCE_CLAIM_SPEC, semantic_equal
from webhook.rules.kinds import KindRules, Obj
from webhook.rules.names import (
    byte_length,
    validate_csi_driver_name,
    validate_dns_subdomain,
    validate_node_name,
)
from webhook.rules.nodeselector import validate_node_selector
from webhook.rules.v1alpha2 import resource_v1alpha2
from webhook.rules.v1alpha2.namedresources import validate_allocation_result_model
from webhook.rules.v1alpha2.references import validate_claim_parameters_ref
from webhook.rules.values import flag, mapping, optional_mapping, sequence, text

# Limits of pkg/apis/resource (types.go); length checks count the bytes of the Go string.
RESOURCE_CLAIM_RESERVED_FOR_MAX_SIZE: Final = 32
ALLOCATION_RESULT_RESOURCE_HANDLES_MAX_SIZE: Final = 32
RESOURCE_HANDLE_DATA_MAX_SIZE: Final = 16 * 1024

# supportedAllocationModes.List(): a sorted set, hence this order in the NotSupported message.
ALLOCATION_MODES: Final = ("Immediate", "WaitForFirstConsumer")
# The only v1alpha2 defaulter (SetDefaults_ResourceClaimSpec) fills an empty allocationMode with this
# before validation; objects given offline may lack it, so the rules apply the same default.
DEFAULT_ALLOCATION_MODE: Final = "WaitForFirstConsumer"

_SPEC = ROOT.child("spec")
_STATUS = ROOT.child("status")
_ALLOCATION = _STATUS.child("allocation")
_RESERVED_FOR = _STATUS.child("reservedFor")


# --- spec (shared with ResourceClaimTemplate) ---------------------------------------------------


def defaulted_claim_spec(spec: Any) -> dict[str, Any]:
    """The spec as the v1alpha2 defaulter leaves it: an empty allocationMode becomes the default."""
    defaulted = dict(mapping(spec))
    if not text(defaulted.get("allocationMode")):
        defaulted["allocationMode"] = DEFAULT_ALLOCATION_MODE
    return defaulted


def validate_claim_spec(spec: Any, path: FieldPath) -> ErrorList:
    """`validateResourceClaimSpec`."""
    spec = mapping(spec)
    errs: ErrorList = []
    # ValidateClassName (a DNS subdomain) with no separate Required: "" gets the regex message.
    errs += validate_dns_subdomain(text(spec.get("resourceClassName")), path.child("resourceClassName"))
    errs += validate_claim_parameters_ref(spec.get("parametersRef"), path.child("parametersRef"))
    allocation_mode = text(spec.get("allocationMode")) or DEFAULT_ALLOCATION_MODE
    if allocation_mode not in ALLOCATION_MODES:
        errs.append(not_supported(path.child("allocationMode"), allocation_mode, ALLOCATION_MODES))
    return errs


def validate_spec_unchanged(new_spec: Any, old_spec: Any, path: FieldPath) -> ErrorList:
    """`ValidateImmutableField(new.Spec, old.Spec)` on defaulted specs; the value is the new spec."""
    new_defaulted, old_defaulted = defaulted_claim_spec(new_spec), defaulted_claim_spec(old_spec)
    if semantic_equal(new_defaulted, old_defaulted, RESOURCE_CLAIM_SPEC):
        return []
    return [invalid(path, new_defaulted, meta.FIELD_IMMUTABLE_MSG)]


# --- create and update ----------------------------------------------------------------------------


def validate_claim(claim: Obj) -> ErrorList:
    """`ValidateClaim`."""
    errs = meta.validate_object_meta(claim.get("metadata"), namespaced=True)
    errs += validate_claim_spec(claim.get("spec"), _SPEC)
    return errs


def validate_claim_update(new: Obj, old: Obj) -> ErrorList:
    """`ValidateClaimUpdate`: ObjectMetaUpdate, the whole spec immutable, then `ValidateClaim` again."""
    errs = meta.validate_object_meta_update(new.get("metadata"), old.get("metadata"))
    errs += validate_spec_unchanged(new.get("spec"), old.get("spec"), _SPEC)
    errs += validate_claim(new)
    return errs


# --- status ---------------------------------------------------------------------------------------


def validate_claim_status_update(new: Obj, old: Obj) -> ErrorList:
    """`ValidateClaimStatusUpdate`, in the API server's order."""
    errs = meta.validate_object_meta_update(new.get("metadata"), old.get("metadata"))
    status, old_status = mapping(new.get("status")), mapping(old.get("status"))
    allocation = optional_mapping(status.get("allocation"))
    old_allocation = optional_mapping(old_status.get("allocation"))
    reserved_for = sequence(status.get("reservedFor"))
    deallocation_requested = flag(status.get("deallocationRequested"))
    old_deallocation_requested = flag(old_status.get("deallocationRequested"))

    # The driver name might not be set yet; it must be once there is an allocation.
    driver_name = text(status.get("driverName"))
    if driver_name:
        errs += validate_csi_driver_name(driver_name, _STATUS.child("driverName"))
    elif allocation is not None:
        errs.append(required(_STATUS.child("driverName"), "must be specified when `allocation` is set"))

    errs += validate_allocation_result(allocation, _ALLOCATION)
    errs += validate_resource_claim_consumers(reserved_for, _RESERVED_FOR)
    errs += _validate_reservations(new, old_status, allocation, reserved_for, deallocation_requested)

    # A populated allocation is immutable: setting it from nil and clearing it are both allowed.
    if (
        old_allocation is not None
        and allocation is not None
        and not semantic_equal(allocation, old_allocation, ALLOCATION_RESULT)
    ):
        errs.append(invalid(_ALLOCATION, dict(allocation), meta.FIELD_IMMUTABLE_MSG))

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


def _validate_reservations(
    new: Obj,
    old_status: Mapping[str, Any],
    allocation: Mapping[str, Any] | None,
    reserved_for: Sequence[Any],
    deallocation_requested: bool,
) -> ErrorList:
    """The reservedFor invariants of ValidateClaimStatusUpdate."""
    if not reserved_for:
        return []
    path = _RESERVED_FOR
    if allocation is None:
        return [forbidden(path, "may not be specified when `allocated` is not set")]
    errs: ErrorList = []
    if not flag(allocation.get("shareable")) and len(reserved_for) > 1:
        errs.append(forbidden(path, "may not be reserved more than once"))
    # Entries may be removed while the claim is to be deallocated or deleted, not added. Go looks at
    # the *new* object's deletionTimestamp (ObjectMetaUpdate keeps it equal to the old one anyway).
    being_deleted = mapping(new.get("metadata")).get("deletionTimestamp") is not None
    if being_deleted or deallocation_requested:
        old_entries = {_consumer_key(entry) for entry in sequence(old_status.get("reservedFor"))}
        if any(_consumer_key(entry) not in old_entries for entry in reserved_for):
            errs.append(
                forbidden(
                    path,
                    "new entries may not be added while `deallocationRequested` or `deletionTimestamp` "
                    "are set",
                )
            )
    return errs


def _consumer_key(entry: Any) -> tuple[str, str, str, str]:
    """A ResourceClaimConsumerReference as the comparable Go struct it is (all four fields)."""
    entry = mapping(entry)
    return (
        text(entry.get("apiGroup")),
        text(entry.get("resource")),
        text(entry.get("name")),
        text(entry.get("uid")),
    )


def validate_allocation_result(allocation: Mapping[str, Any] | None, path: FieldPath) -> ErrorList:
    """`validateAllocationResult`."""
    if allocation is None:
        return []
    errs: ErrorList = []
    handles = sequence(allocation.get("resourceHandles"))
    if handles:
        errs += validate_resource_handles(handles, path.child("resourceHandles"))
    available_on_nodes = optional_mapping(allocation.get("availableOnNodes"))
    if available_on_nodes is not None:
        errs += validate_node_selector(available_on_nodes, path.child("availableOnNodes"))
    return errs


def validate_resource_handles(handles: Sequence[Any], path: FieldPath) -> ErrorList:
    """`validateResourceHandles`: per handle, then the size limit (the value shown is the count)."""
    errs: ErrorList = []
    for i, raw_handle in enumerate(handles):
        handle, handle_path = mapping(raw_handle), path.index(i)
        errs += validate_csi_driver_name(text(handle.get("driverName")), handle_path.child("driverName"))
        data = text(handle.get("data"))
        data_length = byte_length(data)
        if data_length > RESOURCE_HANDLE_DATA_MAX_SIZE:
            errs.append(
                too_long_max_length(handle_path.child("data"), data_length, RESOURCE_HANDLE_DATA_MAX_SIZE)
            )
        structured_data = optional_mapping(handle.get("structuredData"))
        if structured_data is not None:
            errs += validate_structured_resource_handle(structured_data, handle_path.child("structuredData"))
            if data:
                # Go passes nil as the value, which prints as "null".
                errs.append(invalid(handle_path, None, "data and structuredData are mutually exclusive"))
    if len(handles) > ALLOCATION_RESULT_RESOURCE_HANDLES_MAX_SIZE:
        errs.append(too_long_max_length(path, len(handles), ALLOCATION_RESULT_RESOURCE_HANDLES_MAX_SIZE))
    return errs


def validate_structured_resource_handle(handle: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`validateStructuredResourceHandle` (1.30): node name, then one model per result."""
    errs: ErrorList = []
    node_name = text(handle.get("nodeName"))
    if node_name:
        errs += validate_node_name(node_name, path.child("nodeName"))
    for k, raw_result in enumerate(sequence(handle.get("results"))):
        errs += validate_allocation_result_model(mapping(raw_result), path.child("results").index(k))
    return errs


def validate_resource_claim_consumers(consumers: Sequence[Any], path: FieldPath) -> ErrorList:
    """`validateResourceClaimConsumers`: a repeated uid is reported (and its entry not checked
    further); after the loop, the size limit (apiGroup is never checked)."""
    errs: ErrorList = []
    seen_uids: set[str] = set()
    for i, raw_consumer in enumerate(consumers):
        consumer = mapping(raw_consumer)
        uid = text(consumer.get("uid"))
        if uid in seen_uids:
            errs.append(duplicate(path.index(i).child("uid"), uid))
            continue
        seen_uids.add(uid)
        # The path is built only for an entry that has an error (32 entries, nearly always fine).
        missing = [name for name in ("resource", "name", "uid") if not text(consumer.get(name))]
        if missing:
            consumer_path = path.index(i)
            errs += [required(consumer_path.child(name), "") for name in missing]
    if len(consumers) > RESOURCE_CLAIM_RESERVED_FOR_MAX_SIZE:
        errs.append(too_long_max_length(path, len(consumers), RESOURCE_CLAIM_RESERVED_FOR_MAX_SIZE))
    return errs


RESOURCE_CLAIM: Final = KindRules(
    gvk=resource_v1alpha2("ResourceClaim"),
    resource="resourceclaims",
    namespaced=True,
    validate_create=validate_claim,
    validate_update=validate_claim_update,
    validate_status_update=validate_claim_status_update,
)
