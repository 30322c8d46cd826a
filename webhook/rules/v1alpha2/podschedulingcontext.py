"""PodSchedulingContext (namespaced, with a status subresource) as kube-apiserver 1.30 validates it.

Wire fields: `spec{selectedNode, potentialNodes[]}`, `status{resourceClaims[{name, unsuitableNodes[]}]}`.
`selectedNode` is not validated; claim names are not format-checked. The status errors are reported
under `status.claims[i]`, not `status.resourceClaims[i]`: Go builds that path by hand
(`validatePodSchedulingStatus` uses `fldPath.Child("claims")`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from webhook.field import ROOT, ErrorList, FieldPath, duplicate, too_long_max_length
from webhook.rules.kinds import KindRules, Obj
from webhook.rules.meta import object_meta_update_then, validate_object_meta, validate_object_meta_update
from webhook.rules.names import validate_node_name
from webhook.rules.v1alpha2 import resource_v1alpha2
from webhook.rules.values import mapping, sequence, text

__all__ = [
    "POD_SCHEDULING_CONTEXT",
    "POD_SCHEDULING_NODE_LIST_MAX_SIZE",
    "validate_pod_scheduling_context",
    "validate_pod_scheduling_context_status_update",
    "validate_pod_scheduling_context_update",
]

# resource.PodSchedulingNodeListMaxSize: potentialNodes and unsuitableNodes hold at most 128 names.
POD_SCHEDULING_NODE_LIST_MAX_SIZE: Final = 128


def validate_slice_is_a_set(
    items: Sequence[Any],
    max_size: int,
    validate_item: Callable[[str, FieldPath], ErrorList],
    path: FieldPath,
) -> ErrorList:
    """`validateSliceIsASet`: a repeated value is a Duplicate and skips the item check; the size
    limit is checked after the loop and prints no value (TooLongMaxLength with the length)."""
    errs: ErrorList = []
    seen: set[str] = set()
    for i, raw in enumerate(items):
        item = text(raw)
        if item in seen:
            errs.append(duplicate(path.index(i), item))
            continue
        seen.add(item)
        errs += validate_item(item, path.index(i))
    if len(items) > max_size:
        errs.append(too_long_max_length(path, len(items), max_size))
    return errs


def validate_pod_scheduling_context(context: Obj) -> ErrorList:
    """`ValidatePodSchedulingContexts`: metadata (name checked like a pod name: a DNS subdomain)
    and the potential nodes."""
    errs = validate_object_meta(context.get("metadata"), namespaced=True)
    spec = mapping(context.get("spec"))
    errs += validate_slice_is_a_set(
        sequence(spec.get("potentialNodes")),
        POD_SCHEDULING_NODE_LIST_MAX_SIZE,
        validate_node_name,
        ROOT.child("spec", "potentialNodes"),
    )
    return errs


# `ValidatePodSchedulingContextUpdate`: ObjectMetaUpdate and the create validation; nothing in the
# spec is immutable.
validate_pod_scheduling_context_update: Final = object_meta_update_then(validate_pod_scheduling_context)


def validate_pod_scheduling_context_status_update(new: Obj, old: Obj) -> ErrorList:
    """`ValidatePodSchedulingContextStatusUpdate`: ObjectMetaUpdate and the claim statuses."""
    errs = validate_object_meta_update(new.get("metadata"), old.get("metadata"))
    status = mapping(new.get("status"))
    errs += _validate_claim_statuses(sequence(status.get("resourceClaims")), ROOT.child("status", "claims"))
    return errs


def _validate_claim_statuses(claim_statuses: Sequence[Any], path: FieldPath) -> ErrorList:
    """`validatePodSchedulingClaims`: each entry's unsuitable nodes first, then its name's uniqueness
    (an empty name is allowed once)."""
    errs: ErrorList = []
    seen_names: set[str] = set()
    for i, raw in enumerate(claim_statuses):
        claim_status, at = mapping(raw), path.index(i)
        errs += validate_slice_is_a_set(
            sequence(claim_status.get("unsuitableNodes")),
            POD_SCHEDULING_NODE_LIST_MAX_SIZE,
            validate_node_name,
            at.child("unsuitableNodes"),
        )
        name = text(claim_status.get("name"))
        if name in seen_names:
            errs.append(duplicate(at, name))
        else:
            seen_names.add(name)
    return errs


POD_SCHEDULING_CONTEXT = KindRules(
    gvk=resource_v1alpha2("PodSchedulingContext"),
    resource="podschedulingcontexts",
    namespaced=True,
    validate_create=validate_pod_scheduling_context,
    # The registry strategy runs ValidatePodSchedulingContexts(new) before the update validator, which
    # runs it again, so Go's causes list create errors twice (the message drops the repeat); we
    # report each once, in ValidatePodSchedulingContextUpdate's order.
    validate_update=validate_pod_scheduling_context_update,
    # The status strategy runs ValidatePodSchedulingContextStatusUpdate alone.
    validate_status_update=validate_pod_scheduling_context_status_update,
)
