"""ResourceSlice (1.30, cluster-scoped): `ValidateResourceSlice` / `ValidateResourceSliceUpdate`.

Wire fields at the top level (no `spec`): `nodeName`, `driverName` and the inlined model
`namedResources{instances[]}`. Go validates the inlined model with a nil path, so a slice without a
model is reported at ``<nil>``.
"""

from __future__ import annotations

from webhook.field import NIL_PATH, ROOT, ErrorList, FieldPath, invalid
from webhook.rules.kinds import KindRules, Obj
from webhook.rules.meta import FIELD_IMMUTABLE_MSG, validate_object_meta, validate_object_meta_update
from webhook.rules.names import validate_csi_driver_name, validate_node_name
from webhook.rules.v1alpha2 import resource_v1alpha2
from webhook.rules.v1alpha2.namedresources import validate_resource_model
from webhook.rules.values import text

__all__ = ["RESOURCE_SLICE", "validate_resource_slice", "validate_resource_slice_update"]


def validate_resource_slice(resource_slice: Obj) -> ErrorList:
    """Metadata, nodeName (only when set), driverName, then the model."""
    errs = validate_object_meta(resource_slice.get("metadata"), namespaced=False)
    node_name = text(resource_slice.get("nodeName"))
    if node_name:
        errs += validate_node_name(node_name, ROOT.child("nodeName"))
    errs += validate_csi_driver_name(text(resource_slice.get("driverName")), ROOT.child("driverName"))
    errs += validate_resource_model(resource_slice, NIL_PATH)
    return errs


def validate_resource_slice_update(new: Obj, old: Obj) -> ErrorList:
    """ObjectMetaUpdate, the create validation, then nodeName and driverName are immutable."""
    errs = validate_object_meta_update(new.get("metadata"), old.get("metadata"))
    errs += validate_resource_slice(new)
    for name in ("nodeName", "driverName"):
        errs += _validate_immutable_string(text(new.get(name)), text(old.get(name)), ROOT.child(name))
    return errs


def _validate_immutable_string(new: str, old: str, path: FieldPath) -> ErrorList:
    """`ValidateImmutableField` on a string: any change is Invalid with the new value."""
    return [] if new == old else [invalid(path, new, FIELD_IMMUTABLE_MSG)]


RESOURCE_SLICE = KindRules(
    gvk=resource_v1alpha2("ResourceSlice"),
    resource="resourceslices",
    namespaced=False,
    validate_create=validate_resource_slice,
    # The strategy's ValidateUpdate is ValidateResourceSliceUpdate alone (no second create pass).
    validate_update=validate_resource_slice_update,
)
