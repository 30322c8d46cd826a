"""A ResourceClaimSpec of resource.k8s.io/v1alpha3 as 1.31 checks it: `validateResourceClaimSpec`,
`validateDeviceClaim` and their helpers in `pkg/apis/resource/validation/validation.go`. Shared by
ResourceClaim (`spec`) and ResourceClaimTemplate (`spec.spec`).

Requests are read as the v1alpha3 defaulter leaves them (`defaults.py`): an empty allocationMode is
ExactCount, and ExactCount with a zero count asks for one device.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Mapping, Sequence, Set
from typing import Any, Final

from webhook.field import ErrorList, FieldPath, invalid, not_supported, required
from webhook.rules.names import validate_csi_driver_name, validate_dns_subdomain
from webhook.rules.v1alpha3.configuration import validate_device_configuration
from webhook.rules.v1alpha3.defaults import (
    ALLOCATION_MODE_ALL,
    ALLOCATION_MODE_EXACT_COUNT,
    defaulted_request,
)
from webhook.rules.v1alpha3.identifiers import (
    validate_fully_qualified_name,
    validate_request_name,
    validate_request_name_ref,
)
from webhook.rules.v1alpha3.selectors import DEVICE_SELECTORS_MAX_SIZE, validate_selector
from webhook.rules.v1alpha3.slices import string_key, validate_set, validate_slice
from webhook.rules.values import integer, mapping, sequence, text

__all__ = [
    "ALLOCATION_MODES",
    "DEVICE_CONFIG_MAX_SIZE",
    "DEVICE_CONSTRAINTS_MAX_SIZE",
    "DEVICE_REQUESTS_MAX_SIZE",
    "gather_request_names",
    "validate_claim_spec",
    "validate_request_names",
]

# Limits of pkg/apis/resource (types.go, 1.31).
DEVICE_REQUESTS_MAX_SIZE: Final = 32  # = AllocationResultsMaxSize
DEVICE_CONSTRAINTS_MAX_SIZE: Final = 32
DEVICE_CONFIG_MAX_SIZE: Final = 32

# The supported modes in the order Go lists them in the NotSupported message.
ALLOCATION_MODES: Final = (ALLOCATION_MODE_ALL, ALLOCATION_MODE_EXACT_COUNT)


def gather_request_names(spec: Any) -> frozenset[str]:
    """`gatherRequestNames` of a claim spec: the names of its requests, valid or not."""
    return _request_names(sequence(mapping(mapping(spec).get("devices")).get("requests")))


def _request_names(requests: Sequence[Any]) -> frozenset[str]:
    return frozenset(text(mapping(request).get("name")) for request in requests)


def validate_claim_spec(spec: Any, path: FieldPath, *, stored: bool = False) -> ErrorList:
    """`validateResourceClaimSpec`: the devices, then the controller when one is named. `stored`: the
    selectors are compiled as expressions already stored (on update, where the spec is immutable)."""
    fields = mapping(spec)
    errs = _validate_device_claim(mapping(fields.get("devices")), path.child("devices"), stored=stored)
    controller = text(fields.get("controller"))
    if controller:
        errs += validate_csi_driver_name(controller, path.child("controller"))
    return errs


def _validate_device_claim(devices: Mapping[str, Any], path: FieldPath, *, stored: bool) -> ErrorList:
    """`validateDeviceClaim`: requests (a set by name), constraints, config -- each with its limit."""
    requests = sequence(devices.get("requests"))
    request_names = _request_names(requests)

    def validate_request(request: Any, at: FieldPath) -> ErrorList:
        return _validate_device_request(request, at, stored=stored)

    errs = validate_set(
        requests, DEVICE_REQUESTS_MAX_SIZE, validate_request, _request_name, path.child("requests")
    )

    def validate_constraint(constraint: Any, at: FieldPath) -> ErrorList:
        return _validate_device_constraint(mapping(constraint), at, request_names)

    def validate_config(config: Any, at: FieldPath) -> ErrorList:
        return _validate_claim_configuration(mapping(config), at, request_names)

    errs += validate_slice(
        sequence(devices.get("constraints")),
        DEVICE_CONSTRAINTS_MAX_SIZE,
        validate_constraint,
        path.child("constraints"),
    )
    errs += validate_slice(
        sequence(devices.get("config")), DEVICE_CONFIG_MAX_SIZE, validate_config, path.child("config")
    )
    return errs


def _request_name(request: Any) -> tuple[Hashable, str]:
    return text(mapping(request).get("name")), "name"


def _validate_device_request(raw_request: Any, path: FieldPath, *, stored: bool) -> ErrorList:
    """`validateDeviceRequest` of the defaulted request: name, class, selectors, then the mode and count."""
    request = defaulted_request(raw_request)
    errs = validate_request_name(text(request.get("name")), path.child("name"))
    class_name = text(request.get("deviceClassName"))
    if not class_name:
        errs.append(required(path.child("deviceClassName"), ""))
    else:
        errs += validate_dns_subdomain(class_name, path.child("deviceClassName"))
    errs += validate_slice(
        sequence(request.get("selectors")),
        DEVICE_SELECTORS_MAX_SIZE,
        functools.partial(validate_selector, stored=stored),
        path.child("selectors"),
    )
    mode, count = text(request.get("allocationMode")), integer(request.get("count"))
    if mode == ALLOCATION_MODE_ALL:
        if count != 0:
            errs.append(
                invalid(path.child("count"), count, f"must not be specified when allocationMode is '{mode}'")
            )
    elif mode == ALLOCATION_MODE_EXACT_COUNT:
        if count <= 0:
            errs.append(invalid(path.child("count"), count, "must be greater than zero"))
    else:
        errs.append(not_supported(path.child("allocationMode"), mode, ALLOCATION_MODES))
    return errs


def validate_request_names(names: Any, path: FieldPath, request_names: Set[str]) -> ErrorList:
    """The `requests` of a constraint or a configuration: a set of names of requests of the claim,
    at most as many as a claim has requests."""

    def validate_ref(name: Any, at: FieldPath) -> ErrorList:
        return validate_request_name_ref(text(name), at, request_names)

    return validate_set(sequence(names), DEVICE_REQUESTS_MAX_SIZE, validate_ref, string_key, path)


def _validate_device_constraint(
    constraint: Mapping[str, Any], path: FieldPath, request_names: Set[str]
) -> ErrorList:
    """`validateDeviceConstraint`: the requests it applies to, then `matchAttribute` (required)."""
    errs = validate_request_names(constraint.get("requests"), path.child("requests"), request_names)
    match_attribute = constraint.get("matchAttribute")
    if match_attribute is None:
        errs.append(required(path.child("matchAttribute"), ""))
    else:
        errs += validate_fully_qualified_name(text(match_attribute), path.child("matchAttribute"))
    return errs


def _validate_claim_configuration(
    config: Mapping[str, Any], path: FieldPath, request_names: Set[str]
) -> ErrorList:
    """`validateDeviceClaimConfiguration`: the requests it applies to, then the configuration."""
    errs = validate_request_names(config.get("requests"), path.child("requests"), request_names)
    errs += validate_device_configuration(config, path)
    return errs
