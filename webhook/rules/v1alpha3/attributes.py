"""The devices a ResourceSlice of resource.k8s.io/v1alpha3 publishes, as 1.31 checks them
(`validateDevice`, `validateBasicDevice`, `validateDeviceAttribute` of `validation.go`).

A device has a DNS-label name and, in 1.31, one model: `basic`, with attributes and capacities keyed
by qualified names -- at most 32 of both together. Each attribute holds exactly one of `bool`, `int`,
`string` (at most 64 bytes) and `version` (semver 2.0.0, at most 64 bytes). Any quantity that decodes
is a valid capacity.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from webhook.field import ErrorList, FieldPath, invalid, required, too_long_max_length
from webhook.rules.names import byte_length
from webhook.rules.v1alpha3.identifiers import validate_device_name, validate_qualified_name
from webhook.rules.v1alpha3.slices import validate_map
from webhook.rules.values import mapping, optional_mapping, text

__all__ = [
    "DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH",
    "RESOURCE_SLICE_MAX_ATTRIBUTES_AND_CAPACITIES_PER_DEVICE",
    "is_semantic_version",
    "validate_device",
]

# Limits of pkg/apis/resource (types.go, 1.31).
RESOURCE_SLICE_MAX_ATTRIBUTES_AND_CAPACITIES_PER_DEVICE: Final = 32
DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH: Final = 64  # bytes

# validation.go's semverRe. Go's `\d` is ASCII and its `$` ends the text: ASCII and fullmatch here.
_NUMERIC_IDENTIFIER: Final = r"(0|[1-9]\d*)"
_PRE_RELEASE_IDENTIFIER: Final = r"(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)"
_BUILD_IDENTIFIER: Final = r"[0-9a-zA-Z-]+"
_SEMVER_RE: Final = re.compile(
    _NUMERIC_IDENTIFIER + r"\." + _NUMERIC_IDENTIFIER + r"\." + _NUMERIC_IDENTIFIER
    + r"(-" + _PRE_RELEASE_IDENTIFIER + r"(\." + _PRE_RELEASE_IDENTIFIER + r")*)?"
    + r"(\+" + _BUILD_IDENTIFIER + r"(\." + _BUILD_IDENTIFIER + r")*)?",
    re.ASCII,
)  # fmt: skip
SEMVER_MSG: Final = "must be a string compatible with semver.org spec 2.0.0"
ONE_VALUE_MSG: Final = "exactly one value must be specified"
ONE_FIELD_MSG: Final = "exactly one field must be specified"


def is_semantic_version(version: str) -> bool:
    """Whether `semverRe` matches `version`."""
    return _SEMVER_RE.fullmatch(version) is not None


def validate_device(raw_device: Any, path: FieldPath) -> ErrorList:
    """`validateDevice`: the name, then the basic model, which is required."""
    device = mapping(raw_device)
    errs = validate_device_name(text(device.get("name")), path.child("name"))
    basic = optional_mapping(device.get("basic"))
    if basic is None:
        errs.append(required(path.child("basic"), ""))
    else:
        errs += _validate_basic_device(basic, path.child("basic"))
    return errs


def _validate_basic_device(basic: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`validateBasicDevice`: attributes, capacities, then their number together (reported once)."""
    attributes, capacity = mapping(basic.get("attributes")), mapping(basic.get("capacity"))
    errs = validate_map(
        attributes, -1, validate_qualified_name, _validate_device_attribute, path.child("attributes")
    )
    errs += validate_map(capacity, -1, validate_qualified_name, _validate_quantity, path.child("capacity"))
    combined = len(attributes) + len(capacity)
    if combined > RESOURCE_SLICE_MAX_ATTRIBUTES_AND_CAPACITIES_PER_DEVICE:
        detail = (
            "the total number of attributes and capacities must not exceed "
            f"{RESOURCE_SLICE_MAX_ATTRIBUTES_AND_CAPACITIES_PER_DEVICE}"
        )
        errs.append(invalid(path, combined, detail))
    return errs


def _validate_quantity(quantity: Any, path: FieldPath) -> ErrorList:
    """`validateQuantity`: any quantity the decoder parsed is valid."""
    return []


def _validate_device_attribute(raw_attribute: Any, path: FieldPath) -> ErrorList:
    """`validateDeviceAttribute`: exactly one of the four values; string and version at most 64 bytes,
    a version in semver. A JSON null is a nil pointer, so it is no value."""
    attribute = mapping(raw_attribute)
    errs: ErrorList = []
    values = 0
    if attribute.get("bool") is not None:
        values += 1
    if attribute.get("int") is not None:
        values += 1
    if attribute.get("string") is not None:
        string = text(attribute.get("string"))
        if byte_length(string) > DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH:
            errs.append(too_long_max_length(path.child("string"), string, DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH))
        values += 1
    if attribute.get("version") is not None:
        values += 1
        version = text(attribute.get("version"))
        if not is_semantic_version(version):
            errs.append(invalid(path.child("version"), version, SEMVER_MSG))
        if byte_length(version) > DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH:
            errs.append(
                too_long_max_length(path.child("version"), version, DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH)
            )
    if values == 0:
        errs.append(required(path, ONE_VALUE_MSG))
    elif values > 1:
        # Go prints the DeviceAttribute struct (with pointer addresses); here it is its JSON.
        errs.append(invalid(path, dict(attribute), ONE_FIELD_MSG))
    return errs
