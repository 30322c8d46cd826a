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

from collections.abc import Sequence
from typing import Any, Final

from webhook.field import ROOT, ErrorList, FieldPath, required
from webhook.rules.equality import DRIVER_REQUESTS, semantic_equal
from webhook.rules.kinds import KindRules, Obj
from webhook.rules.lists import EntryCheck, validate_named_entries
from webhook.rules.meta import object_meta_update_then, validate_object_meta, validate_object_meta_update
from webhook.rules.names import validate_csi_driver_name
from webhook.rules.v1alpha2 import resource_v1alpha2
from webhook.rules.v1alpha2.namedresources import validate_selector_model
from webhook.rules.v1alpha2.references import validate_claim_parameters_ref, validate_class_parameters_ref
from webhook.rules.values import mapping, sequence

__all__ = [
    "RESOURCE_CLAIM_PARAMETERS",
    "RESOURCE_CLASS_PARAMETERS",
    "validate_resource_claim_parameters",
    "validate_resource_claim_parameters_update",
    "validate_resource_class_parameters",
    "validate_resource_class_parameters_update",
]

EMPTY_REQUESTS_MSG = "empty entries with no requests are not allowed"


def _validate_per_driver_entries(
    entries: Sequence[Any], path: FieldPath, validate_entry: EntryCheck | None = None
) -> ErrorList:
    """validateDriverRequests, validateResourceFilters and validateVendorParameters: each entry's
    driverName is a CSI driver name, and at most one entry names a driver."""
    return validate_named_entries(
        entries,
        path,
        name_field="driverName",
        validate_name=validate_csi_driver_name,
        validate_entry=validate_entry,
    )


# --- ResourceClaimParameters ---------------------------------------------------------------------


def _validate_driver_requests(driver_requests: Sequence[Any], path: FieldPath, *, stored: bool) -> ErrorList:
    return _validate_per_driver_entries(
        driver_requests,
        path,
        lambda entry, at: _validate_resource_requests(
            sequence(entry.get("requests")), at.child("requests"), stored=stored
        ),
    )


def _validate_resource_requests(requests: Sequence[Any], path: FieldPath, *, stored: bool) -> ErrorList:
    """Each request needs a model; an entry without requests is rejected after its (absent) items."""
    errs: ErrorList = []
    for k, raw in enumerate(requests):
        errs += validate_selector_model(mapping(raw), path.index(k), stored=stored)
    if not requests:
        errs.append(required(path, EMPTY_REQUESTS_MSG))
    return errs


def _validate_claim_parameters(parameters: Obj, *, stored: bool) -> ErrorList:
    errs = validate_object_meta(parameters.get("metadata"), namespaced=True)
    errs += validate_claim_parameters_ref(parameters.get("generatedFrom"), ROOT.child("generatedFrom"))
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
    # 1.30 never passes filtersStored=true: both create and update compile as new expressions.
    return _validate_per_driver_entries(
        filters, path, lambda rfilter, at: validate_selector_model(rfilter, at, stored=False)
    )


def validate_resource_class_parameters(parameters: Obj) -> ErrorList:
    """`ValidateResourceClassParameters`: metadata, generatedFrom, filters, vendorParameters (whose
    parameters are opaque: only their driver names are checked)."""
    errs = validate_object_meta(parameters.get("metadata"), namespaced=True)
    errs += validate_class_parameters_ref(parameters.get("generatedFrom"), ROOT.child("generatedFrom"))
    errs += _validate_filters(sequence(parameters.get("filters")), ROOT.child("filters"))
    errs += _validate_per_driver_entries(
        sequence(parameters.get("vendorParameters")), ROOT.child("vendorParameters")
    )
    return errs


# `ValidateResourceClassParametersUpdate`: ObjectMetaUpdate and the create validation.
validate_resource_class_parameters_update: Final = object_meta_update_then(validate_resource_class_parameters)


# Both strategies' ValidateUpdate call the *Update function alone (no second create pass).
RESOURCE_CLAIM_PARAMETERS = KindRules(
    gvk=resource_v1alpha2("ResourceClaimParameters"),
    resource="resourceclaimparameters",
    namespaced=True,
    validate_create=validate_resource_claim_parameters,
    validate_update=validate_resource_claim_parameters_update,
)

RESOURCE_CLASS_PARAMETERS = KindRules(
    gvk=resource_v1alpha2("ResourceClassParameters"),
    resource="resourceclassparameters",
    namespaced=True,
    validate_create=validate_resource_class_parameters,
    validate_update=validate_resource_class_parameters_update,
)
