"""ResourceClaimParameters and ResourceClassParameters (1.30, namespaced), the in-tree parameters
of structured allocation.

ResourceClaimParameters: `generatedFrom{apiGroup, kind, name}`, `shareable`,
`driverRequests[{driverName, vendorParameters, requests[{vendorParameters, namedResources{selector}}]}]`.
ResourceClassParameters: `generatedFrom{apiGroup, kind, name, namespace}`,
`vendorParameters[{driverName, parameters}]`, `filters[{driverName, namedResources{selector}}]`.
Vendor parameters are opaque and never validated; nothing beyond metadata is immutable.

The CEL selectors are compiled in the "stored expressions" environment only for a
ResourceClaimParameters update whose `driverRequests` are semantically unchanged;
`ValidateResourceClassParametersUpdate` (1.30) always uses the environment for new expressions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from webhook.field import ROOT, ErrorList, FieldPath, duplicate, required
from webhook.rules.equality import DRIVER_REQUESTS, semantic_equal
from webhook.rules.kinds import GroupVersionKind, KindRules, Obj
from webhook.rules.meta import validate_object_meta, validate_object_meta_update
from webhook.rules.names import validate_csi_driver_name
from webhook.rules.v1alpha2.namedresources import validate_filter_model, validate_request_model
from webhook.rules.v1alpha2.resourceclass import validate_class_parameters_reference
from webhook.rules.values import mapping, optional_mapping, sequence, text

__all__ = [
    "RESOURCE_CLAIM_PARAMETERS",
    "RESOURCE_CLASS_PARAMETERS",
    "validate_resource_claim_parameters",
    "validate_resource_claim_parameters_update",
    "validate_resource_class_parameters",
    "validate_resource_class_parameters_update",
]

EMPTY_REQUESTS_MSG = "empty entries with no requests are not allowed"


def _validate_driver_name_once(driver_name: str, seen: set[str], path: FieldPath) -> ErrorList:
    """The driver-name check shared by driverRequests, filters and vendorParameters: a CSI driver
    name, and (checked as well, not instead) at most one entry per driver."""
    errs = validate_csi_driver_name(driver_name, path)
    if driver_name in seen:
        errs.append(duplicate(path, driver_name))
    else:
        seen.add(driver_name)
    return errs


# --- ResourceClaimParameters ---------------------------------------------------------------------


def _validate_claim_parameters_reference(ref: Mapping[str, Any] | None, path: FieldPath) -> ErrorList:
    """`validateResourceClaimParametersRef` (here for generatedFrom): kind and name are required."""
    if ref is None:
        return []
    errs: ErrorList = []
    if not text(ref.get("kind")):
        errs.append(required(path.child("kind"), ""))
    if not text(ref.get("name")):
        errs.append(required(path.child("name"), ""))
    return errs


def _validate_driver_requests(driver_requests: Sequence[Any], path: FieldPath, *, stored: bool) -> ErrorList:
    errs: ErrorList = []
    seen: set[str] = set()
    for i, raw in enumerate(driver_requests):
        entry, at = mapping(raw), path.index(i)
        errs += _validate_driver_name_once(text(entry.get("driverName")), seen, at.child("driverName"))
        errs += _validate_resource_requests(
            sequence(entry.get("requests")), at.child("requests"), stored=stored
        )
    return errs


def _validate_resource_requests(requests: Sequence[Any], path: FieldPath, *, stored: bool) -> ErrorList:
    """Each request needs a model; an entry without requests is rejected after its (absent) items."""
    errs: ErrorList = []
    for k, raw in enumerate(requests):
        errs += validate_request_model(mapping(raw), path.index(k), stored=stored)
    if not requests:
        errs.append(required(path, EMPTY_REQUESTS_MSG))
    return errs


def _validate_claim_parameters(parameters: Obj, *, stored: bool) -> ErrorList:
    errs = validate_object_meta(parameters.get("metadata"), namespaced=True)
    errs += _validate_claim_parameters_reference(
        optional_mapping(parameters.get("generatedFrom")), ROOT.child("generatedFrom")
    )
    errs += _validate_driver_requests(
        sequence(parameters.get("driverRequests")), ROOT.child("driverRequests"), stored=stored
    )
    return errs


def validate_resource_claim_parameters(parameters: Obj) -> ErrorList:
    """`ValidateResourceClaimParameters`: selectors compiled as new expressions."""
    return _validate_claim_parameters(parameters, stored=False)


def validate_resource_claim_parameters_update(new: Obj, old: Obj) -> ErrorList:
    """`ValidateResourceClaimParametersUpdate`: unchanged driverRequests
    (`apiequality.Semantic.DeepEqual`) are validated in the stored-expressions CEL environment."""
    errs = validate_object_meta_update(new.get("metadata"), old.get("metadata"))
    stored = semantic_equal(old.get("driverRequests"), new.get("driverRequests"), DRIVER_REQUESTS)
    errs += _validate_claim_parameters(new, stored=stored)
    return errs


# --- ResourceClassParameters ---------------------------------------------------------------------


def _validate_filters(filters: Sequence[Any], path: FieldPath) -> ErrorList:
    errs: ErrorList = []
    seen: set[str] = set()
    for i, raw in enumerate(filters):
        rfilter, at = mapping(raw), path.index(i)
        errs += _validate_driver_name_once(text(rfilter.get("driverName")), seen, at.child("driverName"))
        # 1.30 never passes filtersStored=true: both create and update compile as new expressions.
        errs += validate_filter_model(rfilter, at, stored=False)
    return errs


def _validate_vendor_parameters(vendor_parameters: Sequence[Any], path: FieldPath) -> ErrorList:
    errs: ErrorList = []
    seen: set[str] = set()
    for i, raw in enumerate(vendor_parameters):
        entry = mapping(raw)
        errs += _validate_driver_name_once(
            text(entry.get("driverName")), seen, path.index(i).child("driverName")
        )
    return errs


def validate_resource_class_parameters(parameters: Obj) -> ErrorList:
    """`ValidateResourceClassParameters`: metadata, generatedFrom, filters, vendorParameters."""
    errs = validate_object_meta(parameters.get("metadata"), namespaced=True)
    errs += validate_class_parameters_reference(
        optional_mapping(parameters.get("generatedFrom")), ROOT.child("generatedFrom")
    )
    errs += _validate_filters(sequence(parameters.get("filters")), ROOT.child("filters"))
    errs += _validate_vendor_parameters(
        sequence(parameters.get("vendorParameters")), ROOT.child("vendorParameters")
    )
    return errs


def validate_resource_class_parameters_update(new: Obj, old: Obj) -> ErrorList:
    """`ValidateResourceClassParametersUpdate`: ObjectMetaUpdate and the create validation."""
    errs = validate_object_meta_update(new.get("metadata"), old.get("metadata"))
    errs += validate_resource_class_parameters(new)
    return errs


# Both strategies' ValidateUpdate call the *Update function alone (no second create pass).
RESOURCE_CLAIM_PARAMETERS = KindRules(
    gvk=GroupVersionKind("resource.k8s.io", "v1alpha2", "ResourceClaimParameters"),
    resource="resourceclaimparameters",
    namespaced=True,
    validate_create=validate_resource_claim_parameters,
    validate_update=validate_resource_claim_parameters_update,
)

RESOURCE_CLASS_PARAMETERS = KindRules(
    gvk=GroupVersionKind("resource.k8s.io", "v1alpha2", "ResourceClassParameters"),
    resource="resourceclassparameters",
    namespaced=True,
    validate_create=validate_resource_class_parameters,
    validate_update=validate_resource_class_parameters_update,
)
