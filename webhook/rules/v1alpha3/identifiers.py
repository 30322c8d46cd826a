"""The names of resource.k8s.io/v1alpha3 as 1.31 checks them: requests, devices, pools, and the
qualified names of device attributes and capacities (`pkg/apis/resource/validation/validation.go`).

* request and device names are DNS labels (`corevalidation.ValidateDNS1123Label`): one Invalid per
  message, and an empty name gets the regex message, not Required;
* a pool name is required, at most 253 bytes, and each '/'-separated part a DNS subdomain;
* a qualified name is a C identifier of at most 32 bytes, optionally behind a driver-name prefix and
  '/'; a fully qualified name must have the prefix. A name with more than one '/' is not checked at
  all in 1.31 (Go's switch has no case for it).
"""

from __future__ import annotations

import re
from collections.abc import Set
from typing import Final

from webhook.field import ErrorList, FieldPath, invalid, required, too_long_max_length, type_invalid
from webhook.rules.names import (
    DNS1123_SUBDOMAIN_MAX_LENGTH,
    byte_length,
    validate_csi_driver_name,
    validate_dns_label,
    validate_dns_subdomain,
)

__all__ = [
    "DEVICE_MAX_ID_LENGTH",
    "POOL_NAME_MAX_LENGTH",
    "validate_c_identifier",
    "validate_device_name",
    "validate_fully_qualified_name",
    "validate_pool_name",
    "validate_qualified_name",
    "validate_request_name",
    "validate_request_name_ref",
]

# resource.PoolNameMaxLength: the same as a single node name (bytes).
POOL_NAME_MAX_LENGTH: Final = DNS1123_SUBDOMAIN_MAX_LENGTH
# resource.DeviceMaxIDLength: the C identifier of a qualified name (bytes).
DEVICE_MAX_ID_LENGTH: Final = 32

# apimachinery IsCIdentifier: Go's `^...$` matches the whole text (no trailing newline), ASCII only.
_C_IDENTIFIER_FMT: Final = "[A-Za-z_][A-Za-z0-9_]*"
_C_IDENTIFIER_RE: Final = re.compile(_C_IDENTIFIER_FMT, re.ASCII)
C_IDENTIFIER_MSG: Final = (
    "a valid C identifier must start with alphabetic character or '_', followed by a string of "
    "alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for "
    "validation is '" + _C_IDENTIFIER_FMT + "')"
)
NOT_A_REQUEST_MSG: Final = "must be the name of a request in the claim"


def validate_request_name(name: str, path: FieldPath) -> ErrorList:
    """`validateRequestName` = `corevalidation.ValidateDNS1123Label`."""
    return validate_dns_label(name, path)


def validate_device_name(name: str, path: FieldPath) -> ErrorList:
    """`validateDeviceName` = `corevalidation.ValidateDNS1123Label`."""
    return validate_dns_label(name, path)


def validate_request_name_ref(name: str, path: FieldPath, request_names: Set[str]) -> ErrorList:
    """`validateRequestNameRef`: a DNS label that names a request of the claim (both are reported)."""
    errs = validate_request_name(name, path)
    if name not in request_names:
        errs.append(invalid(path, name, NOT_A_REQUEST_MSG))
    return errs


def validate_pool_name(name: str, path: FieldPath) -> ErrorList:
    """`validatePoolName`: Required when empty; else the byte limit (the value is not shown), then each
    '/'-separated part as a DNS subdomain at the pool name's path."""
    if not name:
        return [required(path, "")]
    errs: ErrorList = []
    if byte_length(name) > POOL_NAME_MAX_LENGTH:
        errs.append(too_long_max_length(path, name, POOL_NAME_MAX_LENGTH))
    for part in name.split("/"):
        errs += validate_dns_subdomain(part, path)
    return errs


def validate_c_identifier(identifier: str, path: FieldPath) -> ErrorList:
    """`validateCIdentifier`: at most 32 bytes, then `IsCIdentifier` as a TypeInvalid."""
    errs: ErrorList = []
    if byte_length(identifier) > DEVICE_MAX_ID_LENGTH:
        errs.append(too_long_max_length(path, identifier, DEVICE_MAX_ID_LENGTH))
    if _C_IDENTIFIER_RE.fullmatch(identifier) is None:
        errs.append(type_invalid(path, identifier, C_IDENTIFIER_MSG))
    return errs


def validate_qualified_name(name: str, path: FieldPath) -> ErrorList:
    """`validateQualifiedName`: a C identifier, or `<driver name>/<C identifier>`."""
    if not name:
        return [required(path, "name required")]
    parts = name.split("/")
    if len(parts) == 1:
        return validate_c_identifier(name, path)
    errs: ErrorList = []
    if len(parts) == 2:
        prefix, identifier = parts
        if not prefix:
            errs.append(required(path, "the prefix must not be empty"))
        else:
            errs += validate_csi_driver_name(prefix, path)
        if not identifier:
            errs.append(required(path, "the name must not be empty"))
        else:
            errs += validate_c_identifier(identifier, path)
    return errs


def validate_fully_qualified_name(name: str, path: FieldPath) -> ErrorList:
    """`validateFullyQualifiedName`: a qualified name that has a prefix (reported at `.domain`)."""
    errs = validate_qualified_name(name, path)
    if "/" not in name:
        errs.append(required(path.child("domain"), "must include a prefix"))
    return errs
