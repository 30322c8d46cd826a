"""The hand-written checks of a ResourceClaimSpec in 1.37 (`validateResourceClaimSpec` and
`validateDeviceClaim` of `pkg/apis/resource/validation/validation.go`), shared by ResourceClaim
(`spec`) and ResourceClaimTemplate (`spec.spec`).

A request has exactly one of `exactly` and `firstAvailable` (at most 8 subrequests); requests,
constraints and configurations are at most 32 each; constraints and configurations refer to
requests ("request" or "request/subrequest"). Capacity requests and `adminAccess` are not checked
here (`adminAccess` needs the namespace's admin-access label, which the strategy looks up:
`resourceutils.AuthorizedForAdmin`, not something a webhook can see).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from webhook.field import ErrorList, FieldPath, GoText, covered_by_declarative, invalid, required
from webhook.rules.v1.devices import (
    DEVICE_CONFIG_MAX_SIZE,
    DEVICE_CONSTRAINTS_MAX_SIZE,
    DEVICE_REQUESTS_MAX_SIZE,
    FIRST_AVAILABLE_DEVICE_REQUEST_MAX_SIZE,
    RequestNames,
    gather_request_names,
    validate_allocation_mode,
    validate_device_configuration,
    validate_request_references,
    validate_selectors,
    validate_set,
    validate_slice,
    validate_tolerations,
)
from webhook.rules.v1.names import (
    validate_device_class_name,
    validate_fully_qualified_name,
    validate_request_name,
)
from webhook.rules.values import integer, mapping, optional_mapping, sequence, text

EXACTLY_ONE_MSG: Final = "exactly one of `exactly` or `firstAvailable` is required"
# DRAConsumableCapacity is beta and on by default in 1.37 (pkg/features, 1.36 on): a constraint
# without either attribute is reported at the constraint, with this (misleading) text.
CONSTRAINT_ATTRIBUTE_MSG: Final = (
    'exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set'
)


def validate_claim_spec(spec: Mapping[str, Any], path: FieldPath, *, stored: bool = False) -> ErrorList:
    """`validateResourceClaimSpec` -> `validateDeviceClaim`."""
    devices = mapping(spec.get("devices"))
    devices_path = path.child("devices")
    request_names = gather_request_names(devices)
    errs = validate_set(
        sequence(devices.get("requests")),
        DEVICE_REQUESTS_MAX_SIZE,
        validate_device_request,
        _name,
        devices_path.child("requests"),
        size_covered=True,
        uniqueness_covered=True,
    )
    errs += validate_slice(
        sequence(devices.get("constraints")),
        DEVICE_CONSTRAINTS_MAX_SIZE,
        lambda constraint, at: validate_device_constraint(mapping(constraint), at, request_names),
        devices_path.child("constraints"),
        size_covered=True,
    )
    errs += validate_slice(
        sequence(devices.get("config")),
        DEVICE_CONFIG_MAX_SIZE,
        lambda config, at: validate_claim_configuration(mapping(config), at, request_names, stored=stored),
        devices_path.child("config"),
        size_covered=True,
    )
    return errs


def _name(item: Any) -> str:
    return text(mapping(item).get("name"))


def validate_device_request(request: Any, path: FieldPath) -> ErrorList:
    """`validateDeviceRequest`: the name, then exactly one of `exactly` and `firstAvailable`."""
    fields = mapping(request)
    errs = validate_request_name(text(fields.get("name")), path.child("name"))
    subrequests = sequence(fields.get("firstAvailable"))
    exactly = optional_mapping(fields.get("exactly"))
    if not subrequests and exactly is None:
        errs.append(required(path, EXACTLY_ONE_MSG))
    elif subrequests and exactly is not None:
        # Go passes nil as the value: apimachinery 0.34+ prints it as null.
        errs.append(invalid(path, GoText("null"), EXACTLY_ONE_MSG + ", but multiple fields are set"))
    elif subrequests:
        errs += validate_set(
            subrequests,
            FIRST_AVAILABLE_DEVICE_REQUEST_MAX_SIZE,
            validate_device_sub_request,
            _name,
            path.child("firstAvailable"),
            size_covered=True,
            uniqueness_covered=True,
        )
    elif exactly is not None:
        errs += validate_exact_device_request(exactly, path.child("exactly"))
    return errs


def validate_device_sub_request(subrequest: Any, path: FieldPath) -> ErrorList:
    """`validateDeviceSubRequest`: its class name is covered by declarative validation."""
    fields = mapping(subrequest)
    errs = validate_request_name(text(fields.get("name")), path.child("name"))
    class_path = path.child("deviceClassName")
    errs += covered_by_declarative(
        validate_device_class_name(text(fields.get("deviceClassName")), class_path)
    )
    errs += _selection(fields, path)
    return errs


def validate_exact_device_request(request: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`validateExactDeviceRequest`."""
    errs = validate_device_class_name(text(request.get("deviceClassName")), path.child("deviceClassName"))
    errs += _selection(request, path)
    return errs


def _selection(request: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """Selectors, allocation mode and count, tolerations: the same for requests and subrequests."""
    errs = validate_selectors(request.get("selectors"), path.child("selectors"))
    errs += validate_allocation_mode(
        text(request.get("allocationMode")),
        integer(request.get("count")),
        path.child("allocationMode"),
        path.child("count"),
    )
    errs += validate_tolerations(request.get("tolerations"), path.child("tolerations"))
    return errs


def validate_device_constraint(
    constraint: Mapping[str, Any], path: FieldPath, request_names: RequestNames
) -> ErrorList:
    """`validateDeviceConstraint`: the requests it applies to, then matchAttribute (covered by
    declarative validation) or else distinctAttribute (not covered in 1.37), or an error."""
    errs = validate_request_references(constraint.get("requests"), path.child("requests"), request_names)
    match_attribute, distinct_attribute = (
        constraint.get("matchAttribute"),
        constraint.get("distinctAttribute"),
    )
    if match_attribute is not None:
        attribute_path = path.child("matchAttribute")
        errs += covered_by_declarative(validate_fully_qualified_name(text(match_attribute), attribute_path))
    elif distinct_attribute is not None:
        errs += validate_fully_qualified_name(text(distinct_attribute), path.child("distinctAttribute"))
    else:
        errs.append(required(path, CONSTRAINT_ATTRIBUTE_MSG))
    return errs


def validate_claim_configuration(
    config: dict[str, Any], path: FieldPath, request_names: RequestNames, *, stored: bool
) -> ErrorList:
    """`validateDeviceClaimConfiguration`."""
    errs = validate_request_references(config.get("requests"), path.child("requests"), request_names)
    errs += validate_device_configuration(config, path, stored=stored)
    return errs
