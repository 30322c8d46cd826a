"""`Validate_ResourceClaim` and `Validate_ResourceClaimTemplate` of 1.37's declarative validation:
the claim spec (immutable on update), its requests, constraints and configuration."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from webhook.field import ErrorList, FieldPath
from webhook.rules.equality import semantic_equal
from webhook.rules.v1 import shapes
from webhook.rules.v1.declarative import (
    beta,
    enum,
    immutable,
    long_name,
    max_items,
    required_value,
    resource_fully_qualified_name,
)
from webhook.rules.v1.declared.common import (
    SPEC_PATH,
    Old,
    configurations,
    list_map_field,
    name_of,
    unchanged,
    validate_device_configuration,
    validate_request_references,
    validate_tolerations,
)
from webhook.rules.v1.gojson import (
    DEVICE_REQUEST,
    DEVICE_SUB_REQUEST,
)
from webhook.rules.values import mapping, optional_mapping, sequence, text

ALLOCATION_MODES: Final = ("All", "ExactCount")


def validate_resource_claim(
    new: Mapping[str, Any], old: Old, *, spec_unchanged: bool | None = None
) -> ErrorList:
    """`Validate_ResourceClaim` on create and on updates of the claim: the spec is immutable
    (`+k8s:immutable`, short-circuits); on create it is validated. The status is not: it is empty on
    create and kept as it was on an update of the claim. On an update, `spec_unchanged` is
    `semantic_equal` of the two specs where the caller has it already."""
    update = old is not None
    spec, old_spec = new.get("spec"), old.get("spec") if old is not None else None
    if update and spec_unchanged is not None:
        if spec_unchanged:
            return []
    elif unchanged(spec, old_spec, update, shapes.RESOURCE_CLAIM_SPEC):
        return []
    if update:
        return beta(immutable(SPEC_PATH))
    return validate_resource_claim_spec(mapping(spec), None, SPEC_PATH)


def validate_resource_claim_template(new: Mapping[str, Any], old: Old) -> ErrorList:
    """`Validate_ResourceClaimTemplate`: `spec.spec` (the template's metadata has no tags)."""
    update = old is not None
    spec = mapping(new.get("spec"))
    old_spec = mapping(old.get("spec")) if old is not None else None
    if update and semantic_equal(
        new.get("spec"), old.get("spec") if old else None, shapes.RESOURCE_CLAIM_TEMPLATE_SPEC
    ):
        return []
    claim_spec, old_claim_spec = spec.get("spec"), old_spec.get("spec") if old_spec is not None else None
    if unchanged(claim_spec, old_claim_spec, update, shapes.RESOURCE_CLAIM_SPEC):
        return []
    return validate_resource_claim_spec(
        mapping(claim_spec), mapping(old_claim_spec) if update else None, SPEC_PATH.child("spec")
    )


def validate_resource_claim_spec(spec: Mapping[str, Any], old: Old, path: FieldPath) -> ErrorList:
    """`Validate_ResourceClaimSpec` -> `Validate_DeviceClaim`."""
    correlated = old is not None
    devices, old_devices = spec.get("devices"), mapping(old).get("devices")
    if unchanged(devices, old_devices, correlated, shapes.DEVICE_CLAIM):
        return []
    return _device_claim(
        mapping(devices), mapping(old_devices) if correlated else None, path.child("devices")
    )


def _device_claim(devices: Mapping[str, Any], old: Old, path: FieldPath) -> ErrorList:
    correlated = old is not None
    old_fields = mapping(old)
    errs: ErrorList = []
    errs += list_map_field(
        devices.get("requests"),
        old_fields.get("requests"),
        correlated,
        shapes.DEVICE_CLAIM.fields["requests"],
        path.child("requests"),
        _device_request,
        key=name_of,
        limit=32,
        go_shape=DEVICE_REQUEST,
        shape=shapes.DEVICE_REQUEST,
    )
    constraints = sequence(devices.get("constraints"))
    if not unchanged(
        devices.get("constraints"),
        old_fields.get("constraints"),
        correlated,
        shapes.DEVICE_CLAIM.fields["constraints"],
    ):
        errs += configurations(constraints, path.child("constraints"), 32, _device_constraint)
    config = sequence(devices.get("config"))
    if not unchanged(
        devices.get("config"), old_fields.get("config"), correlated, shapes.DEVICE_CLAIM.fields["config"]
    ):
        errs += configurations(config, path.child("config"), 32, _device_claim_configuration)
    return errs


def _device_request(request: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_DeviceRequest`."""
    fields, old_fields = mapping(request), mapping(old)
    correlated = old is not None
    errs: ErrorList = []
    exactly = optional_mapping(fields.get("exactly"))
    if (
        not unchanged(
            fields.get("exactly"),
            old_fields.get("exactly"),
            correlated,
            shapes.DEVICE_REQUEST.fields["exactly"],
        )
        and exactly is not None
    ):
        errs += _exact_device_request(exactly, path.child("exactly"))
    errs += list_map_field(
        fields.get("firstAvailable"),
        old_fields.get("firstAvailable"),
        correlated,
        shapes.DEVICE_REQUEST.fields["firstAvailable"],
        path.child("firstAvailable"),
        _device_sub_request,
        key=name_of,
        limit=8,
        go_shape=DEVICE_SUB_REQUEST,
        shape=shapes.DEVICE_SUB_REQUEST,
    )
    return errs


def _exact_device_request(request: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`Validate_ExactDeviceRequest` (deviceClassName has no tag here)."""
    errs = beta(max_items(len(sequence(request.get("selectors"))), 32, path.child("selectors")))
    errs += _allocation_mode(text(request.get("allocationMode")), path.child("allocationMode"))
    errs += validate_tolerations(request.get("tolerations"), path.child("tolerations"))
    return errs


def _device_sub_request(subrequest: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_DeviceSubRequest` (the items are never skipped field by field: a changed subrequest
    is validated whole, as its old value only decides whether it is validated at all)."""
    fields = mapping(subrequest)
    class_name, class_path = text(fields.get("deviceClassName")), path.child("deviceClassName")
    errs = beta(required_value(bool(class_name), class_path)) or beta(long_name(class_name, class_path))
    errs += beta(max_items(len(sequence(fields.get("selectors"))), 32, path.child("selectors")))
    errs += _allocation_mode(text(fields.get("allocationMode")), path.child("allocationMode"))
    errs += validate_tolerations(fields.get("tolerations"), path.child("tolerations"))
    return errs


def _allocation_mode(mode: str, path: FieldPath) -> ErrorList:
    return beta(enum(mode, ALLOCATION_MODES, path)) if mode else []


def _device_constraint(constraint: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_DeviceConstraint`. Only `matchAttribute` has a format tag: in 1.37 `distinctAttribute`
    has none (`k8s.io/api/resource/v1/types.go` at ae5d4d35); the tag the generated code at 2710ee7b
    checks came later, with `derivedAttributes`."""
    fields = mapping(constraint)
    errs = validate_request_references(fields.get("requests"), path.child("requests"))
    attribute = fields.get("matchAttribute")
    if isinstance(attribute, str):
        errs += beta(resource_fully_qualified_name(attribute, path.child("matchAttribute")))
    return errs


def _device_claim_configuration(config: Any, old: Any, path: FieldPath) -> ErrorList:
    """`Validate_DeviceClaimConfiguration`."""
    errs = validate_request_references(mapping(config).get("requests"), path.child("requests"))
    errs += validate_device_configuration(config, None, path)
    return errs
