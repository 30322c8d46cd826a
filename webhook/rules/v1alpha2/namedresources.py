"""The "named resources" structured model of resource.k8s.io/v1alpha2 (Kubernetes 1.30).

1.30 has exactly one structured model, `namedResources`, and it appears in four places: the
instances a ResourceSlice offers, the requests of a ResourceClaimParameters, the filters of a
ResourceClassParameters, and the results in a claim's `allocation.resourceHandles[].structuredData`.
This module owns the checks of that model
(`pkg/apis/resource/structured/namedresources/validation/validation.go`) and the "exactly one
structured model field must be set" switch that `pkg/apis/resource/validation/validation.go`
wraps around every use of it.

Entry points:

* `validate_resource_model` -- a ResourceSlice's model (`validateResourceModel`);
* `validate_selector_model` -- a ResourceClaimParameters request or a ResourceClassParameters
  filter: Go's two model structs differ only in type, both hold a CEL selector;
* `validate_allocation_result_model` -- one `structuredData.results[k]` of a claim allocation
  (`validateAllocationResultModel`), and `validate_allocation_result` for its `namedResources`
  part alone (`namedresources.ValidateAllocationResult`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import webhook.cel as cel
from webhook.field import ErrorList, FieldPath, go_string_slice, invalid, required
from webhook.rules.lists import validate_named_entries
from webhook.rules.names import validate_dns_subdomain
from webhook.rules.values import optional_mapping, sequence, text

MODEL_REQUIRED_MSG: Final = "exactly one structured model field must be set"
ONE_FIELD_MSG: Final = "exactly one field must be set, not several"
VALUE_REQUIRED_MSG: Final = "exactly one value must be set"
SEMVER_MSG: Final = "must be a string compatible with semver.org spec 2.0.0"

# The JSON names of the NamedResourcesAttributeValue fields (k8s.io/api/resource/v1alpha2
# namedresources.go), in the order Go tests them. Each is a pointer: set means present and not null.
ATTRIBUTE_VALUE_FIELDS: Final = ("quantity", "bool", "int", "intSlice", "string", "stringSlice", "version")

# semverRe of the namedresources validation, verbatim. RE2's \d is ASCII-only, hence re.ASCII; Go's
# `$` (no multiline) matches only at the very end, hence fullmatch instead of a trailing `$`.
_NUMERIC_IDENTIFIER = r"(0|[1-9]\d*)"
_PRE_RELEASE_IDENTIFIER = r"(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)"
_BUILD_IDENTIFIER = r"[0-9a-zA-Z-]+"
_SEMVER_RE: Final = re.compile(
    _NUMERIC_IDENTIFIER
    + r"\."
    + _NUMERIC_IDENTIFIER
    + r"\."
    + _NUMERIC_IDENTIFIER
    + r"(-"
    + _PRE_RELEASE_IDENTIFIER
    + r"(\."
    + _PRE_RELEASE_IDENTIFIER
    + r")*)?"
    + r"(\+"
    + _BUILD_IDENTIFIER
    + r"(\."
    + _BUILD_IDENTIFIER
    + r")*)?",
    re.ASCII,
)

ModelCheck = Callable[[Mapping[str, Any], FieldPath], ErrorList]


def is_semver(value: str) -> bool:
    return _SEMVER_RE.fullmatch(value) is not None


# --- the "exactly one model" switch of validation.go ---------------------------------------------


def _validate_one_model(
    model: Mapping[str, Any], path: FieldPath, check_named_resources: ModelCheck
) -> ErrorList:
    """The switch Go repeats for every model struct: namedResources is the only model in 1.30, so
    the "not several" branch of Go's switch cannot be reached and only "none set" is checked."""
    named_resources = optional_mapping(model.get("namedResources"))
    if named_resources is None:
        return [required(path, MODEL_REQUIRED_MSG)]
    return check_named_resources(named_resources, path.child("namedResources"))


def validate_resource_model(model: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`validateResourceModel`: the model inlined in a ResourceSlice.

    Go passes a nil path here, so a missing model is reported at ``<nil>`` (pass `NIL_PATH`) while
    the children of a present one print from ``namedResources`` on.
    """
    return _validate_one_model(model, path, validate_resources)


def validate_selector_model(model: Mapping[str, Any], path: FieldPath, *, stored: bool) -> ErrorList:
    """`validateResourceRequestModel` (one `driverRequests[i].requests[k]` of a
    ResourceClaimParameters) and `validateResourceFilterModel` (one `filters[i]` of a
    ResourceClassParameters): the same switch around the same selector check."""
    return _validate_one_model(
        model, path, lambda named_resources, at: validate_selector(named_resources, at, stored=stored)
    )


def validate_allocation_result_model(model: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`validateAllocationResultModel`: one `structuredData.results[k]` of a claim's allocation."""
    return _validate_one_model(model, path, validate_allocation_result)


# --- namedresources.ValidateResources (ResourceSlice) -------------------------------------------


def validate_resources(resources: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`ValidateResources`: the instances of a slice. 1.30 puts no limit on their number."""
    return _validate_instances(sequence(resources.get("instances")), path.child("instances"))


def _validate_instances(instances: Sequence[Any], path: FieldPath) -> ErrorList:
    """`validateInstances`: unique DNS-subdomain names, then each instance's attributes."""
    return validate_named_entries(
        instances,
        path,
        name_field="name",
        validate_name=validate_dns_subdomain,
        validate_entry=lambda instance, at: _validate_attributes(
            sequence(instance.get("attributes")), at.child("attributes")
        ),
    )


def _validate_attributes(attributes: Sequence[Any], path: FieldPath) -> ErrorList:
    """`validateAttributes`: unique DNS-subdomain names, then each attribute's value."""
    return validate_named_entries(
        attributes,
        path,
        name_field="name",
        validate_name=validate_dns_subdomain,
        validate_entry=_validate_attribute_value,
    )


def _validate_attribute_value(attribute: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """Exactly one of the value fields; a version must be semver (checked before the count)."""
    errs: ErrorList = []
    set_fields = [name for name in ATTRIBUTE_VALUE_FIELDS if attribute.get(name) is not None]
    if "version" in set_fields:
        version = text(attribute.get("version"))
        if not is_semver(version):
            errs.append(invalid(path.child("version"), version, SEMVER_MSG))
    if not set_fields:
        errs.append(required(path, VALUE_REQUIRED_MSG))
    elif len(set_fields) > 1:
        # Go reports sets.List(entries): the names sorted, printed as a []string literal.
        errs.append(invalid(path, go_string_slice(sorted(set_fields)), ONE_FIELD_MSG))
    return errs


# --- selectors (ResourceClaimParameters requests, ResourceClassParameters filters) ---------------


def validate_selector(named_resources: Mapping[str, Any], path: FieldPath, *, stored: bool) -> ErrorList:
    """`ValidateRequest` and `ValidateFilter`: both are `validateSelector` of their `selector` field.

    `stored` selects the "stored expressions" CEL environment; ResourceClaimParameters updates set it
    when `driverRequests` is semantically unchanged (1.30 never validates filters as stored).
    """
    return cel.validate_selector(text(named_resources.get("selector")), path.child("selector"), stored=stored)


# --- allocation results (ResourceClaim status) ---------------------------------------------------


def validate_allocation_result(result: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`ValidateAllocationResult`: the allocated instance's name must be a DNS subdomain."""
    return validate_dns_subdomain(text(result.get("name")), path.child("name"))
