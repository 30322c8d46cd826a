"""`Validate_DeviceClass` of 1.37's declarative validation: the name and the spec."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from webhook.field import ErrorList, FieldPath
from webhook.rules.v1 import shapes
from webhook.rules.v1.declarative import (
    beta,
    extended_resource_name,
    long_name,
    max_items,
)
from webhook.rules.v1.declared.common import (
    METADATA_PATH,
    SPEC_PATH,
    Old,
    configurations,
    same_text,
    unchanged,
    validate_device_configuration,
)
from webhook.rules.values import mapping, optional_mapping, sequence, text


def validate_device_class(new: Mapping[str, Any], old: Old) -> ErrorList:
    """`Validate_DeviceClass`: metadata.name a long name (+k8s:subfield(name)), then the spec."""
    update = old is not None
    errs: ErrorList = []
    name = text(mapping(new.get("metadata")).get("name"))
    old_name = text(mapping(old.get("metadata")).get("name")) if old is not None else None
    if not (update and name == old_name) and name:
        errs += beta(long_name(name, METADATA_PATH.child("name")))
    spec, old_spec = new.get("spec"), old.get("spec") if old is not None else None
    if not unchanged(spec, old_spec, update, shapes.DEVICE_CLASS_SPEC):
        errs += validate_device_class_spec(
            mapping(spec), optional_mapping(old_spec) if update else None, SPEC_PATH
        )
    return errs


def validate_device_class_spec(spec: Mapping[str, Any], old: Old, path: FieldPath) -> ErrorList:
    """`Validate_DeviceClassSpec`."""
    correlated = old is not None
    old_fields = mapping(old)
    errs: ErrorList = []
    selectors = sequence(spec.get("selectors"))
    if not unchanged(spec.get("selectors"), old_fields.get("selectors"), correlated, shapes.DEVICE_SELECTORS):
        errs += beta(max_items(len(selectors), 32, path.child("selectors")))
    config = sequence(spec.get("config"))
    if not unchanged(
        spec.get("config"), old_fields.get("config"), correlated, shapes.DEVICE_CLASS_CONFIGURATIONS
    ):
        errs += configurations(config, path.child("config"), 32, validate_device_configuration)
    name = spec.get("extendedResourceName")
    if not same_text(name, old_fields.get("extendedResourceName"), correlated) and isinstance(name, str):
        errs += beta(extended_resource_name(name, path.child("extendedResourceName")))
    return errs
