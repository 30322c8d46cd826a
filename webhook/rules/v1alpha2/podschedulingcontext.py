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
from webhook.rules.names import (
    DNS1123_SUBDOMAIN_MAX_LENGTH,
    are_dns1123_subdomains,
    are_valid_dns1123_subdomains,
    is_valid_dns1123_subdomain,
    validate_node_name,
)
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
    *,
    is_valid_item: Callable[[str], bool] | None = None,
    are_valid_items: Callable[[Sequence[Any]], bool] | None = None,
) -> ErrorList:
    """`validateSliceIsASet`: a repeated value is a Duplicate and skips the item check; the size
    limit is checked after the loop and prints no value (TooLongMaxLength with the length).

    The shortcuts must agree with `validate_item`: `is_valid_item(item)` is true exactly when it
    finds nothing, `are_valid_items(items)` exactly when every item is a string it finds nothing in.
    Then a list of distinct valid names (the usual 128 node names) is decided without a loop, and a
    valid item costs no path and no list."""
    if are_valid_items is not None and are_valid_items(items) and len(set(items)) == len(items):
        return [too_long_max_length(path, len(items), max_size)] if len(items) > max_size else []
    errs: ErrorList = []
    seen: set[str] = set()
    for i, raw in enumerate(items):
        item = text(raw)
        if item in seen:
            errs.append(duplicate(path.index(i), item))
            continue
        seen.add(item)
        if is_valid_item is None or not is_valid_item(item):
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
        is_valid_item=is_valid_dns1123_subdomain,  # validateNodeName is the subdomain check
        are_valid_items=are_valid_dns1123_subdomains,
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


def _are_subdomain_sized_strings(items: list[Any]) -> bool:
    """Whether every item is a string of at most 253 characters, as `are_dns1123_subdomains` takes."""
    return all(isinstance(item, str) and len(item) <= DNS1123_SUBDOMAIN_MAX_LENGTH for item in items)


def _claim_statuses_plainly_valid(claim_statuses: Sequence[Any]) -> bool:
    """Whether `_validate_claim_statuses` finds nothing, decided without its paths: objects with
    distinct names, each with at most 128 distinct unsuitable nodes, every node name of every
    entry valid (checked in one pass). Anything unusual answers False, and the loop decides."""
    claim_names: set[str] = set()
    node_names: list[str] = []  # of all the entries, checked in one pass
    for claim_status in claim_statuses:
        if type(claim_status) is not dict:
            return False
        name, nodes = claim_status.get("name") or "", claim_status.get("unsuitableNodes") or []
        if type(name) is not str or name in claim_names or type(nodes) is not list:
            return False
        if len(nodes) > POD_SCHEDULING_NODE_LIST_MAX_SIZE or not _are_subdomain_sized_strings(nodes):
            return False
        if len(set(nodes)) != len(nodes):  # strings, so hashable: a repeat within the entry
            return False
        claim_names.add(name)
        node_names += nodes
    return are_dns1123_subdomains(node_names)


def _validate_claim_statuses(claim_statuses: Sequence[Any], path: FieldPath) -> ErrorList:
    """`validatePodSchedulingClaims`: each entry's unsuitable nodes first, then its name's uniqueness
    (an empty name is allowed once)."""
    if _claim_statuses_plainly_valid(claim_statuses):
        return []
    errs: ErrorList = []
    seen_names: set[str] = set()
    for i, raw in enumerate(claim_statuses):
        claim_status, at = mapping(raw), path.index(i)
        errs += validate_slice_is_a_set(
            sequence(claim_status.get("unsuitableNodes")),
            POD_SCHEDULING_NODE_LIST_MAX_SIZE,
            validate_node_name,
            at.child("unsuitableNodes"),
            is_valid_item=is_valid_dns1123_subdomain,
            are_valid_items=are_valid_dns1123_subdomains,
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
