"""The names of resource.k8s.io/v1 as 1.37's hand-written validation checks them.

`pkg/apis/resource/validation/validation.go` (1.37):

    validateDriverName      = corevalidation.ValidateCSIDriverName
    validateDeviceName      = corevalidation.ValidateDNS1123Label
    validateDeviceClassName = corevalidation.ValidateDNS1123Subdomain
    validateRequestName     = corevalidation.ValidateDNS1123Label
    validateCounterName     = corevalidation.ValidateDNS1123Label

plus `validatePoolName`, `validateUID`, `validateQualifiedName` and `validateFullyQualifiedName`.
The messages are `util/validation`'s (lengths in characters); `field.TooLong` is apimachinery
0.37's. Each error carries the origin 1.37 gives it, which is what the merge with declarative
validation compares (`webhook.rules.v1.lifecycle`). The core wrappers give their format errors
the origins of the declarative formats they are covered by (`format=k8s-short-name`,
`format=k8s-long-name`, `format=k8s-long-name-caseless`, `maxLength`); the 1.37 text of
`pkg/apis/core/validation` is not among the stored sources, so these four origins follow the
declarative tags that cover the calls rather than a line of Go.
"""

from __future__ import annotations

from typing import Final

from webhook.field import (
    ErrorList,
    FieldPath,
    covered_by_declarative,
    go_json_value,
    go_quote,
    invalid,
    required,
    too_long_bytes,
    with_origin,
)
from webhook.rules.names import (
    CSI_DRIVER_NAME_MAX_LENGTH,
    DNS1123_LABEL_MAX_LENGTH,
    byte_length,
    csi_driver_name_as_subdomain,
    go_to_lower,
    is_dns1123_label,
    is_dns1123_subdomain,
    is_valid_dns1123_subdomain,
)
from webhook.rules.v1.declarative import C_IDENTIFIER_MSG, is_c_identifier
from webhook.rules.v1.remembered import ValidValues

# resource.PoolNameMaxLength: the same as a node name.
POOL_NAME_MAX_LENGTH: Final = 253
# resource.DeviceMaxDomainLength and DeviceMaxIDLength: the two parts of a qualified name.
DEVICE_MAX_DOMAIN_LENGTH: Final = 63
DEVICE_MAX_ID_LENGTH: Final = 32
UID_NORMALIZED_MSG: Final = (
    "uid must be in RFC 4122 normalized form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase "
    "hexadecimal characters"
)
FULLY_QUALIFIED_NAME_MSG: Final = "a fully qualified name must be a domain and a name separated by a slash"

SHORT_NAME: Final = "format=k8s-short-name"
LONG_NAME: Final = "format=k8s-long-name"
LONG_NAME_CASELESS: Final = "format=k8s-long-name-caseless"
POOL_NAME: Final = "format=k8s-resource-pool-name"
FULLY_QUALIFIED_NAME: Final = "format=k8s-resource-fully-qualified-name"
UUID: Final = "format=k8s-uuid"


def validate_dns_label(value: str, path: FieldPath) -> ErrorList:
    """`corevalidation.ValidateDNS1123Label`."""
    if len(value) <= DNS1123_LABEL_MAX_LENGTH and not is_dns1123_label(value):
        return []
    return with_origin([invalid(path, value, msg) for msg in is_dns1123_label(value)], SHORT_NAME)


def validate_dns_subdomain(value: str, path: FieldPath) -> ErrorList:
    """`corevalidation.ValidateDNS1123Subdomain`."""
    if is_valid_dns1123_subdomain(value):
        return []
    return with_origin([invalid(path, value, msg) for msg in is_dns1123_subdomain(value)], LONG_NAME)


def validate_driver_name(
    value: str,
    path: FieldPath,
    *,
    required_covered: bool = False,
    format_covered: bool = False,
    size_covered: bool = False,
) -> ErrorList:
    """`corevalidation.ValidateCSIDriverName(name, path, opts...)`: Required when empty; otherwise
    TooLong over 63 bytes, then the DNS subdomain check of the lower-cased name. The options
    (`corevalidation.RequiredCovered`, `FormatCovered`, `SizeCovered`) mark the matching errors as
    covered by declarative validation.

    Unlike 1.30, an empty name is only Required: the 1.37 tests expect no format error for it
    (validation_deviceclass_test.go at 16913111, "configuration"; validation_resourceclaim_test.go
    at 2710ee7b, TestValidateClaimStatusUpdate "configuration")."""
    if not value:
        return _covered_if(required_covered, [required(path, "")])
    subdomain = csi_driver_name_as_subdomain(value)
    if subdomain is not None and is_valid_dns1123_subdomain(subdomain):
        return []
    errs: ErrorList = []
    if byte_length(value) > CSI_DRIVER_NAME_MAX_LENGTH:
        errs += _covered_if(
            size_covered, with_origin([too_long_bytes(path, CSI_DRIVER_NAME_MAX_LENGTH)], "maxLength")
        )
    formats = [invalid(path, value, msg) for msg in is_dns1123_subdomain(go_to_lower(value))]
    errs += _covered_if(format_covered, with_origin(formats, LONG_NAME_CASELESS))
    return errs


def _covered_if(covered: bool, errs: ErrorList) -> ErrorList:
    return covered_by_declarative(errs) if covered else errs


def validate_pool_name(value: str, path: FieldPath) -> ErrorList:
    """`validatePoolName`: Required when empty; otherwise at most 253 bytes and every '/'-separated
    part a DNS subdomain (an empty part fails the subdomain check), all with the pool-name origin."""
    if not value:
        return [required(path, "")]
    errs: ErrorList = []
    if byte_length(value) > POOL_NAME_MAX_LENGTH:
        errs.append(too_long_bytes(path, POOL_NAME_MAX_LENGTH))
    for part in value.split("/"):
        errs += validate_dns_subdomain(part, path)
    return with_origin(errs, POOL_NAME)


def validate_device_name(value: str, path: FieldPath) -> ErrorList:
    """`validateDeviceName` = `corevalidation.ValidateDNS1123Label`."""
    return validate_dns_label(value, path)


def validate_counter_name(value: str, path: FieldPath) -> ErrorList:
    """`validateCounterName` = `corevalidation.ValidateDNS1123Label` (a counter or a counter set)."""
    return validate_dns_label(value, path)


def validate_request_name(value: str, path: FieldPath) -> ErrorList:
    """`validateRequestName` = `corevalidation.ValidateDNS1123Label`."""
    return validate_dns_label(value, path)


def validate_device_class_name(value: str, path: FieldPath) -> ErrorList:
    """`validateDeviceClass`: Required when empty, else a DNS subdomain."""
    if not value:
        return [required(path, "")]
    return validate_dns_subdomain(value, path)


def validate_uid(value: str, path: FieldPath) -> ErrorList:
    """`validateUID`: a UUID `github.com/google/uuid` can parse, in its normalized lower-case
    36-character form."""
    problem = uuid_parse_error(value)
    if problem is not None:
        errs = [invalid(path, value, f"error validating uid: {problem}")]
    elif len(value) != 36 or value != value.lower():
        errs = [invalid(path, value, UID_NORMALIZED_MSG)]
    else:
        return []
    return with_origin(errs, UUID)


_HEX: Final = frozenset("0123456789abcdefABCDEF")


def uuid_parse_error(value: str) -> str | None:
    """The error text of `uuid.Validate(s)` (github.com/google/uuid v1.6), None when valid: the
    36-character form, the same with "urn:uuid:" or braces around it, or 32 hex digits."""
    length = len(value.encode("utf-8", "surrogatepass"))
    if length == 36 + 9:
        if value[:9].lower() != "urn:uuid:":
            return "invalid urn prefix: " + go_quote(value[:9])
        value = value[9:]
    elif length == 36 + 2:
        if not (value.startswith("{") and value.endswith("}")):
            return "invalid bracketed UUID format"
        value = value[1:-1]
    elif length == 32:
        return None if all(char in _HEX for char in value) else "invalid UUID format"
    elif length != 36:
        return f"invalid UUID length: {length}"
    if len(value) != 36 or any(value[i] != "-" for i in (8, 13, 18, 23)):
        return "invalid UUID format"
    digits = [char for i, char in enumerate(value) if i not in (8, 13, 18, 23)]
    return None if all(char in _HEX for char in digits) else "invalid UUID format"


def validate_qualified_name(value: str, path: FieldPath) -> ErrorList:
    """`validateQualifiedName`: a C identifier of at most 32 bytes, or "domain/identifier" with the
    domain checked as a driver name. More than one '/' is not checked further in 1.37. A name found
    valid is remembered (`VALID_QUALIFIED_NAMES`: a slice repeats its attribute names on every
    device)."""
    return [] if VALID_QUALIFIED_NAMES.holds(value) else _validate_qualified_name(value, path)


def _validate_qualified_name(value: str, path: FieldPath) -> ErrorList:
    parts = value.split("/")
    errs: ErrorList = []
    if len(parts) == 1:
        errs += _validate_c_identifier(parts[0], path)
    elif len(parts) == 2:
        domain, name = parts
        if not domain:
            errs.append(invalid(path, "", "the domain must not be empty"))
        else:
            errs += validate_driver_name(domain, path)
        if not name:
            errs.append(invalid(path, "", "the name must not be empty"))
        else:
            errs += _validate_c_identifier(name, path)
    return errs


def _validate_c_identifier(value: str, path: FieldPath) -> ErrorList:
    """`validateCIdentifier`."""
    errs: ErrorList = []
    if byte_length(value) > DEVICE_MAX_ID_LENGTH:
        errs.append(too_long_bytes(path, DEVICE_MAX_ID_LENGTH))
    if not is_c_identifier(value):
        errs.append(invalid(path, value, C_IDENTIFIER_MSG))
    return errs


def validate_fully_qualified_name(value: str, path: FieldPath) -> ErrorList:
    """`validateFullyQualifiedName`: a qualified name that has a domain; every error with the
    fully-qualified-name origin. The name is a `FullyQualifiedName`, a named string type, which
    `ErrorBody` prints with `json.Marshal`."""
    errs = validate_qualified_name(value, path)
    if "/" not in value:
        errs.append(invalid(path, go_json_value(value), FULLY_QUALIFIED_NAME_MSG))
    return with_origin(errs, FULLY_QUALIFIED_NAME)


# Names found valid (`webhook.rules.v1.remembered`): asked before a path is made for the check.
VALID_QUALIFIED_NAMES: Final = ValidValues(_validate_qualified_name)
VALID_DNS_LABELS: Final = ValidValues(validate_dns_label)
