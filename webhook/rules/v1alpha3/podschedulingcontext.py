"""PodSchedulingContext (resource.k8s.io/v1alpha3, namespaced, with a status subresource) as
kube-apiserver 1.31 validates it.

Mirrors `ValidatePodSchedulingContexts`, `ValidatePodSchedulingContextUpdate` and
`ValidatePodSchedulingContextStatusUpdate` of `pkg/apis/resource/validation/validation.go` (1.31).
Wire fields as in v1alpha2: `spec{selectedNode, potentialNodes[]}`,
`status{resourceClaims[{name, unsuitableNodes[]}]}`. `selectedNode` is not validated; claim names are not
format-checked. The status errors are reported under `status.claims[i]`, not `status.resourceClaims[i]`:
Go builds that path by hand.

The node lists are checked by 1.31's `validateSet` (`slices.py`): unlike 1.30, a repeated node name is
checked like any other before the Duplicates are reported, after the size limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from webhook.field import ROOT, ErrorList, FieldPath, duplicate
from webhook.rules.kinds import KindRules, Obj
from webhook.rules.meta import object_meta_update_then, validate_object_meta, validate_object_meta_update
from webhook.rules.names import validate_node_name
from webhook.rules.v1alpha3 import resource_v1alpha3
from webhook.rules.v1alpha3.slices import string_key, validate_set
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


def _validate_node_name(name: Any, path: FieldPath) -> ErrorList:
    """`validateNodeName`: a node name is a DNS subdomain."""
    return validate_node_name(text(name), path)


def _validate_node_list(nodes: Any, path: FieldPath) -> ErrorList:
    """A set of at most 128 node names (`validateSet` with `stringKey`)."""
    return validate_set(
        sequence(nodes), POD_SCHEDULING_NODE_LIST_MAX_SIZE, _validate_node_name, string_key, path
    )


def validate_pod_scheduling_context(context: Obj) -> ErrorList:
    """`ValidatePodSchedulingContexts`: metadata (the name checked like a pod name: a DNS subdomain),
    then the potential nodes."""
    errs = validate_object_meta(context.get("metadata"), namespaced=True)
    spec = mapping(context.get("spec"))
    errs += _validate_node_list(spec.get("potentialNodes"), ROOT.child("spec", "potentialNodes"))
    return errs


# `ValidatePodSchedulingContextUpdate`: ObjectMetaUpdate, then the whole create validation again (so the
# strategy's own create pass before it adds nothing); nothing in the spec is immutable.
validate_pod_scheduling_context_update: Final = object_meta_update_then(validate_pod_scheduling_context)


def validate_pod_scheduling_context_status_update(new: Obj, old: Obj) -> ErrorList:
    """`ValidatePodSchedulingContextStatusUpdate`: ObjectMetaUpdate and the claim statuses."""
    errs = validate_object_meta_update(new.get("metadata"), old.get("metadata"))
    status = mapping(new.get("status"))
    errs += _validate_claim_statuses(sequence(status.get("resourceClaims")), ROOT.child("status", "claims"))
    return errs


def _validate_claim_statuses(claim_statuses: Sequence[Any], path: FieldPath) -> ErrorList:
    """`validatePodSchedulingClaims`: each entry's unsuitable nodes, then its name's uniqueness (an
    empty name is allowed once)."""
    errs: ErrorList = []
    seen_names: set[str] = set()
    for i, raw in enumerate(claim_statuses):
        claim_status, at = mapping(raw), path.index(i)
        errs += _validate_node_list(claim_status.get("unsuitableNodes"), at.child("unsuitableNodes"))
        name = text(claim_status.get("name"))
        if name in seen_names:
            errs.append(duplicate(at, name))
        else:
            seen_names.add(name)
    return errs


POD_SCHEDULING_CONTEXT: Final = KindRules(
    gvk=resource_v1alpha3("PodSchedulingContext"),
    resource="podschedulingcontexts",
    namespaced=True,
    validate_create=validate_pod_scheduling_context,
    # The strategy runs ValidatePodSchedulingContexts(new) before the update validator, which runs it
    # again: we report ValidatePodSchedulingContextUpdate's list.
    validate_update=validate_pod_scheduling_context_update,
    # The status strategy runs ValidatePodSchedulingContextStatusUpdate alone.
    validate_status_update=validate_pod_scheduling_context_status_update,
)
