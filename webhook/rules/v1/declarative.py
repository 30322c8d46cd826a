"""The checks of apimachinery's `pkg/api/validate` (1.37) that the `+k8s:` tags of
`k8s.io/api/resource/v1` call, with their exact messages and origins.

Each returns the field errors of one tag at one path; the callers in `webhook.rules.v1.declared`
mark them with the tag's lifecycle stage (`beta`, `alpha`), as the generated code's `MarkBeta()`
does. Messages come from `pkg/api/validate/content` (lengths in *bytes*) and from apimachinery
0.37's `field` constructors.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, TypeVar

from webhook.field import (
    ErrorList,
    FieldError,
    FieldPath,
    GoText,
    Stability,
    at_stability,
    duplicate,
    go_json_value,
    invalid,
    not_supported,
    required,
    too_long_bytes,
    too_long_characters,
    too_many_items,
    with_origin,
)
from webhook.release import KUBERNETES_1_37
from webhook.rules.names import (
    DNS1123_SUBDOMAIN_MAX_LENGTH,
    byte_length,
    is_dns1123_label_content,
    is_dns1123_subdomain_content,
    is_qualified_name,
    is_valid_dns1123_subdomain,
    max_len_msg,
)

T = TypeVar("T")

UUID_MSG: Final = "must be a lowercase UUID in 8-4-4-4-12 format"
FIELD_IMMUTABLE_MSG: Final = "field is immutable"
NO_MODIFY_MSG: Final = "field cannot be modified once set"
# content.RegexError(dns1123SubdomainCaselessErrorMsg, dns1123SubdomainFmt, "Example.com"): the
# caseless check names the lower-case regex in its message.
DNS1123_SUBDOMAIN_CASELESS_MSG: Final = (
    "an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end "
    "with an alphanumeric character (e.g. 'Example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)
C_IDENTIFIER_MSG: Final = (
    "a valid C identifier must start with alphabetic character or '_', followed by a string of "
    "alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for "
    "validation is '[A-Za-z_][A-Za-z0-9_]*')"
)
# strfmt.go: the name part of a resource qualified name.
RESOURCE_DEVICE_MAX_LENGTH: Final = 32
RESOURCE_PREFIX_MAX_LENGTH: Final = 63
_RESOURCE_DEFAULT_NAMESPACE_PREFIX: Final = "kubernetes.io/"
_DEFAULT_RESOURCE_REQUESTS_PREFIX: Final = "requests."

NULL: Final = GoText("null")  # a nil bad value, as apimachinery 0.34+ prints it


def beta(errors: Iterable[FieldError]) -> ErrorList:
    """`MarkBeta()`: errors of a `+k8s:beta(...)=` tag."""
    return at_stability(errors, Stability.BETA)


def alpha(errors: Iterable[FieldError]) -> ErrorList:
    """`MarkAlpha()`: errors of a `+k8s:alpha(...)=` tag (never enforced in 1.37)."""
    return at_stability(errors, Stability.ALPHA)


# --- required.go, limits.go, enum.go, immutable.go, update.go -------------------------------------


def required_value(is_set: bool, path: FieldPath) -> ErrorList:
    """`RequiredValue` / `RequiredSlice` / `RequiredPointer`: Required, no origin."""
    return [] if is_set else [required(path, "")]


def max_items(count: int, limit: int, path: FieldPath) -> ErrorList:
    """`MaxItems`: TooMany with the count."""
    return [] if count <= limit else with_origin([too_many_items(path, count, limit)], "maxItems")


def max_bytes(value: str, limit: int, path: FieldPath) -> ErrorList:
    """`MaxBytes`."""
    return [] if byte_length(value) <= limit else with_origin([too_long_bytes(path, limit)], "maxBytes")


def max_length(value: str, limit: int, path: FieldPath) -> ErrorList:
    """`MaxLength`: at most `limit` characters. A string of more bytes than that is reported only when
    it cannot be that short in characters (a quarter of its bytes is over the limit) or is not."""
    size = byte_length(value)
    if size <= limit:
        return []
    if -(-size // 4) > limit or len(value) > limit:
        return with_origin([too_long_characters(path, limit)], "maxLength")
    return []


def enum(value: str, supported: Sequence[str], path: FieldPath) -> ErrorList:
    """`Enum`: NotSupported with the supported values sorted, no origin. The value is of a named
    string type (the enum's), which `ErrorBody` prints with `json.Marshal`."""
    if value in supported:
        return []
    return [not_supported(path, go_json_value(value), sorted(supported))]


def minimum(value: int, limit: int, path: FieldPath) -> ErrorList:
    """`Minimum` (+k8s:minimum): `content.MinError`."""
    if value >= limit:
        return []
    return with_origin([invalid(path, value, f"must be greater than or equal to {limit}")], "minimum")


def maximum(value: int, limit: int, path: FieldPath) -> ErrorList:
    """`Maximum` (+k8s:maximum): `content.MaxError`."""
    if value <= limit:
        return []
    return with_origin([invalid(path, value, f"must be less than or equal to {limit}")], "maximum")


def union(specified: Sequence[str], members: Sequence[str], path: FieldPath) -> ErrorList:
    """`Union` (+k8s:unionMember): exactly one of the members (given by their JSON names) is set;
    `specified` are those that are, in member order."""
    if len(specified) == 1:
        return []
    listed = ", ".join(f"`{member}`" for member in members)
    if len(specified) > 1:
        shown = "{" + ", ".join(specified) + "}"
        return with_origin([invalid(path, shown, f"must specify exactly one of: {listed}")], "union")
    return with_origin([invalid(path, "", f"must specify one of: {listed}")], "union")


def immutable(path: FieldPath) -> ErrorList:
    """`Immutable` on an update whose value changed (the generated code skips unchanged values)."""
    return with_origin([invalid(path, NULL, FIELD_IMMUTABLE_MSG)], "immutable")


def no_modify(path: FieldPath) -> ErrorList:
    """`UpdatePointer(..., NoModify)` when a set pointer changed."""
    return with_origin([invalid(path, NULL, NO_MODIFY_MSG)], "update")


# --- each.go --------------------------------------------------------------------------------------


def unique(
    items: Sequence[T], same: Callable[[T, T], bool], path: FieldPath, shown: Callable[[T], Any]
) -> ErrorList:
    """`ValSliceUnique`: each later item equal to an earlier one is a Duplicate at its index, in
    index order, showing the whole item (`shown` renders it as Go's encoding/json does)."""
    duplicates: set[int] = set()
    for i, item in enumerate(items):
        for j in range(i + 1, len(items)):
            if j not in duplicates and same(item, items[j]):
                duplicates.add(j)
    return [duplicate(path.index(j), shown(items[j])) for j in sorted(duplicates)]


# --- strfmt.go ------------------------------------------------------------------------------------


def short_name(value: str, path: FieldPath) -> ErrorList:
    """`ShortName` (+k8s:format=k8s-short-name): `content.IsDNS1123Label`."""
    return with_origin(
        [invalid(path, value, msg) for msg in is_dns1123_label_content(value)], "format=k8s-short-name"
    )


def long_name(value: str, path: FieldPath) -> ErrorList:
    """`LongName` (+k8s:format=k8s-long-name): `content.IsDNS1123Subdomain`."""
    if len(value) <= DNS1123_SUBDOMAIN_MAX_LENGTH and is_valid_dns1123_subdomain(value):
        return []
    return with_origin(
        [invalid(path, value, msg) for msg in is_dns1123_subdomain_content(value)], "format=k8s-long-name"
    )


def long_name_caseless(value: str, path: FieldPath) -> ErrorList:
    """`LongNameCaseless` (+k8s:format=k8s-long-name-caseless): `content.IsDNS1123SubdomainCaseless`,
    which accepts upper-case letters."""
    lowered = value.lower() if value.isascii() else value
    if len(value) <= DNS1123_SUBDOMAIN_MAX_LENGTH and is_valid_dns1123_subdomain(lowered):
        return []
    messages = []
    if byte_length(value) > DNS1123_SUBDOMAIN_MAX_LENGTH:
        messages.append(max_len_msg(DNS1123_SUBDOMAIN_MAX_LENGTH, unit="bytes"))
    if not _CASELESS_SUBDOMAIN.fullmatch(value):
        messages.append(DNS1123_SUBDOMAIN_CASELESS_MSG)
    return with_origin([invalid(path, value, msg) for msg in messages], "format=k8s-long-name-caseless")


def label_key(value: str, path: FieldPath) -> ErrorList:
    """`LabelKey` (+k8s:format=k8s-label-key): `content.IsLabelKey`."""
    return with_origin(
        [invalid(path, value, msg) for msg in is_qualified_name(value, release=KUBERNETES_1_37)],
        "format=k8s-label-key",
    )


def uuid(value: str, path: FieldPath) -> ErrorList:
    """`UUID` (+k8s:format=k8s-uuid): 36 characters, lower-case hex digits, dashes at 8, 13, 18, 23."""
    if _is_lowercase_uuid(value):
        return []
    return with_origin([invalid(path, value, UUID_MSG)], "format=k8s-uuid")


def _is_lowercase_uuid(value: str) -> bool:
    if len(value) != 36 or not value.isascii():
        return False
    for i, char in enumerate(value):
        if i in (8, 13, 18, 23):
            if char != "-":
                return False
        elif char not in "0123456789abcdef":
            return False
    return True


def resource_pool_name(value: str, path: FieldPath) -> ErrorList:
    """`ResourcePoolName` (+k8s:format=k8s-resource-pool-name): at most 253 bytes, and '/'-separated
    segments that are each a long name ("segment N: " before each message)."""
    errs: ErrorList = []
    if byte_length(value) > DNS1123_SUBDOMAIN_MAX_LENGTH:
        errs.append(too_long_bytes(path, DNS1123_SUBDOMAIN_MAX_LENGTH))
    for i, segment in enumerate(value.split("/")):
        if not segment:
            errs.append(invalid(path, value, f"segment {i}: must not be empty"))
            continue
        errs += [invalid(path, segment, f"segment {i}: {error.detail}") for error in long_name(segment, path)]
    return with_origin(errs, "format=k8s-resource-pool-name")


def resource_fully_qualified_name(value: str, path: FieldPath) -> ErrorList:
    """`ResourceFullyQualifiedName` (+k8s:format=k8s-resource-fully-qualified-name): a resources
    qualified name that has a domain. Names with more than one '/' are not checked further (a TODO
    of strfmt.go)."""
    errs = _resources_qualified_name(value, path)
    if "/" not in value:
        errs.append(
            invalid(path, value, "a fully qualified name must be a domain and a name separated by a slash")
        )
    return with_origin(errs, "format=k8s-resource-fully-qualified-name")


def _resources_qualified_name(value: str, path: FieldPath) -> ErrorList:
    parts = value.split("/")
    errs: ErrorList = []
    if len(parts) == 1:
        errs += _c_identifier(parts[0], path)
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append(invalid(path, "", "prefix must not be empty"))
        else:
            if byte_length(prefix) > RESOURCE_PREFIX_MAX_LENGTH:
                errs.append(too_long_bytes(path, RESOURCE_PREFIX_MAX_LENGTH))
            errs += [invalid(path, prefix, "prefix: " + error.detail) for error in long_name(prefix, path)]
        if not name:
            errs.append(invalid(path, "", "name must not be empty"))
        else:
            errs += _c_identifier(name, path)
    return errs


def _c_identifier(value: str, path: FieldPath) -> ErrorList:
    """strfmt.go `validateCIdentifier`: at most 32 bytes, then `content.IsCIdentifier`."""
    errs: ErrorList = []
    if byte_length(value) > RESOURCE_DEVICE_MAX_LENGTH:
        errs.append(too_long_bytes(path, RESOURCE_DEVICE_MAX_LENGTH))
    if not is_c_identifier(value):
        errs.append(invalid(path, value, C_IDENTIFIER_MSG))
    return errs


def is_c_identifier(value: str) -> bool:
    """`[A-Za-z_][A-Za-z0-9_]*`."""
    return bool(value) and value.isascii() and _C_IDENTIFIER.fullmatch(value) is not None


def extended_resource_name(value: str, path: FieldPath) -> ErrorList:
    """`ExtendedResourceName` (+k8s:format=k8s-extended-resource-name)."""
    errs: ErrorList = []
    if "/" not in value:
        errs.append(
            invalid(path, value, "a name must be a domain-prefixed path, such as 'example.com/my-prop'")
        )
    elif _RESOURCE_DEFAULT_NAMESPACE_PREFIX in value:
        errs.append(invalid(path, value, f'must not have "{_RESOURCE_DEFAULT_NAMESPACE_PREFIX}" domain'))
    if value.startswith(_DEFAULT_RESOURCE_REQUESTS_PREFIX):
        errs.append(invalid(path, value, f'must not have "{_DEFAULT_RESOURCE_REQUESTS_PREFIX}" prefix'))
    quota_name = _DEFAULT_RESOURCE_REQUESTS_PREFIX + value
    errs += [invalid(path, value, msg) for msg in is_qualified_name(quota_name, release=KUBERNETES_1_37)]
    return with_origin(errs, "format=k8s-extended-resource-name")


_CASELESS_SUBDOMAIN: Final = re.compile(
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*", re.IGNORECASE
)
_C_IDENTIFIER: Final = re.compile("[A-Za-z_][A-Za-z0-9_]*")
