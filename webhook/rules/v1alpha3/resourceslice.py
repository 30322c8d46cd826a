"""ResourceSlice (resource.k8s.io/v1alpha3, cluster-scoped): create and update, as kube-apiserver 1.31.

Mirrors `ValidateResourceSlice`, `ValidateResourceSliceUpdate` and `validateResourceSliceSpec` of
`pkg/apis/resource/validation/validation.go` (1.31). The registry strategy
(`pkg/registry/resource/resourceslice/strategy.go`) runs `ValidateResourceSliceUpdate` alone on update:
ObjectMetaUpdate and the spec, with the pool name, driver and node name immutable -- ObjectMeta's
create checks do not run on update.

Wire fields under `spec`: `driver`, `pool{name, generation, resourceSliceCount}`, exactly one of
`nodeName`, `nodeSelector` (with exactly one term) and `allNodes`, and at most 128 `devices`
(`attributes.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from webhook.field import ROOT, ErrorList, FieldPath, GoText, invalid, required
from webhook.rules import meta
from webhook.rules.kinds import KindRules, Obj
from webhook.rules.names import validate_csi_driver_name, validate_node_name
from webhook.rules.nodeselector import validate_node_selector
from webhook.rules.v1alpha3 import resource_v1alpha3
from webhook.rules.v1alpha3.attributes import validate_device
from webhook.rules.v1alpha3.identifiers import validate_pool_name
from webhook.rules.v1alpha3.slices import validate_set
from webhook.rules.values import flag, integer, mapping, optional_mapping, sequence, text

__all__ = [
    "RESOURCE_SLICE",
    "RESOURCE_SLICE_MAX_DEVICES",
    "validate_resource_slice",
    "validate_resource_slice_update",
]

# resource.ResourceSliceMaxDevices.
RESOURCE_SLICE_MAX_DEVICES: Final = 128
NODE_SELECTION_MSG: Final = "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required"

_SPEC = ROOT.child("spec")


def validate_resource_slice(resource_slice: Obj) -> ErrorList:
    """`ValidateResourceSlice`: ObjectMeta of a cluster-scoped object, then the spec."""
    errs = meta.validate_object_meta(resource_slice.get("metadata"), namespaced=False)
    errs += _validate_spec(mapping(resource_slice.get("spec")), None, _SPEC)
    return errs


def validate_resource_slice_update(new: Obj, old: Obj) -> ErrorList:
    """`ValidateResourceSliceUpdate`: ObjectMetaUpdate, then the spec against the old one."""
    errs = meta.validate_object_meta_update(new.get("metadata"), old.get("metadata"))
    errs += _validate_spec(mapping(new.get("spec")), mapping(old.get("spec")), _SPEC)
    return errs


def _validate_spec(spec: Mapping[str, Any], old_spec: Mapping[str, Any] | None, path: FieldPath) -> ErrorList:
    """`validateResourceSliceSpec`, in Go's order: driver, pool, the immutable fields on update, the node
    selection, the devices."""
    driver = text(spec.get("driver"))
    errs = validate_csi_driver_name(driver, path.child("driver"))
    pool = mapping(spec.get("pool"))
    errs += _validate_pool(pool, path.child("pool"))
    node_name = text(spec.get("nodeName"))
    if old_spec is not None:
        old_pool = mapping(old_spec.get("pool"))
        errs += _validate_immutable(
            text(pool.get("name")), text(old_pool.get("name")), path.child("pool", "name")
        )
        errs += _validate_immutable(driver, text(old_spec.get("driver")), path.child("driver"))
        errs += _validate_immutable(node_name, text(old_spec.get("nodeName")), path.child("nodeName"))

    node_selections = 0
    if node_name:
        node_selections += 1
        errs += validate_node_name(node_name, path.child("nodeName"))
    node_selector = optional_mapping(spec.get("nodeSelector"))
    if node_selector is not None:
        node_selections += 1
        errs += validate_node_selector(node_selector, path.child("nodeSelector"))
        terms = node_selector.get("nodeSelectorTerms")
        if len(sequence(terms)) != 1:
            # One term keeps merging the selectors of devices from several slices simple.
            errs.append(
                invalid(
                    path.child("nodeSelector", "nodeSelectorTerms"),
                    _go_terms(terms),
                    "must have exactly one selector term",
                )
            )
    if flag(spec.get("allNodes")):
        node_selections += 1
    if node_selections == 0:
        errs.append(required(path, NODE_SELECTION_MSG))
    elif node_selections > 1:
        # Go prints the *ResourceSliceSpec as a struct literal; here it is its JSON.
        errs.append(invalid(path, dict(spec), NODE_SELECTION_MSG))

    errs += validate_set(
        sequence(spec.get("devices")),
        RESOURCE_SLICE_MAX_DEVICES,
        validate_device,
        _device_name,
        path.child("devices"),
    )
    return errs


def _validate_pool(pool: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`validateResourcePool`: the name, a positive slice count, a generation of at least zero."""
    errs = validate_pool_name(text(pool.get("name")), path.child("name"))
    slice_count = integer(pool.get("resourceSliceCount"))
    if slice_count <= 0:
        errs.append(invalid(path.child("resourceSliceCount"), slice_count, "must be greater than zero"))
    generation = integer(pool.get("generation"))
    if generation < 0:
        errs.append(invalid(path.child("generation"), generation, "must be greater than or equal to zero"))
    return errs


def _validate_immutable(new: str, old: str, path: FieldPath) -> ErrorList:
    """`ValidateImmutableField` on a string: any change is Invalid with the new value."""
    return [] if new == old else [invalid(path, new, meta.FIELD_IMMUTABLE_MSG)]


def _device_name(device: Any) -> tuple[str, str]:
    """Devices are a set by name."""
    return text(mapping(device).get("name")), "name"


def _go_terms(terms: Any) -> Any:
    """The `[]core.NodeSelectorTerm` Go prints with %#v: its literal when nil or empty, else the JSON
    of the terms (Go's struct literal cannot be reproduced)."""
    if terms is None:
        return GoText("[]core.NodeSelectorTerm(nil)")
    if terms == []:
        return GoText("[]core.NodeSelectorTerm{}")
    return terms


RESOURCE_SLICE: Final = KindRules(
    gvk=resource_v1alpha3("ResourceSlice"),
    resource="resourceslices",
    namespaced=False,
    validate_create=validate_resource_slice,
    validate_update=validate_resource_slice_update,
)
