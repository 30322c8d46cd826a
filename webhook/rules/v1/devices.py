"""Hand-written checks that 1.37 applies alike to DeviceClass, claim specs and allocation results:
selectors, opaque configuration, tolerations, allocation modes, binding conditions, references to
requests, and the list helpers `validateSlice` / `validateSet` of
`pkg/apis/resource/validation/validation.go` (1.37).

Every list limit is checked first and alone: a list over its limit reports one TooMany (origin
"maxItems") and none of its items ("maxSize check short-circuits for DOS protection").
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from webhook.cel import validate_device_selector
from webhook.field import (
    ErrorList,
    FieldPath,
    GoText,
    covered_by_declarative,
    duplicate,
    go_json,
    go_json_value,
    invalid,
    not_supported,
    required,
    too_long_bytes,
    too_many_items,
    with_origin,
)
from webhook.rules.names import byte_length, is_qualified_name, is_valid_label_value
from webhook.rules.v1 import RELEASE
from webhook.rules.v1.names import (
    validate_driver_name,
    validate_request_name,
)
from webhook.rules.values import mapping, optional_mapping, sequence, text

T = TypeVar("T")

# Limits of k8s.io/api/resource/v1 (types.go, 1.37).
DEVICE_REQUESTS_MAX_SIZE: Final = 32
DEVICE_CONSTRAINTS_MAX_SIZE: Final = 32
DEVICE_CONFIG_MAX_SIZE: Final = 32
DEVICE_SELECTORS_MAX_SIZE: Final = 32
FIRST_AVAILABLE_DEVICE_REQUEST_MAX_SIZE: Final = 8
OPAQUE_PARAMETERS_MAX_LENGTH: Final = 10 * 1024
BINDING_CONDITIONS_MAX_SIZE: Final = 4
BINDING_FAILURE_CONDITIONS_MAX_SIZE: Final = 4

ALLOCATION_MODE_ALL: Final = "All"
ALLOCATION_MODE_EXACT_COUNT: Final = "ExactCount"
ALLOCATION_MODES: Final = (ALLOCATION_MODE_ALL, ALLOCATION_MODE_EXACT_COUNT)
TOLERATION_OPERATORS: Final = ("Equal", "Exists")
# sets.List(validDeviceTaintEffects): sorted.
TAINT_EFFECTS: Final = ("NoExecute", "NoSchedule", "None")
REQUEST_REFERENCE_MSG: Final = (
    "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'"
)


# --- validateSlice and validateSet ------------------------------------------------------------------


def too_many(count: int, limit: int, path: FieldPath, *, covered: bool) -> ErrorList:
    """The short-circuiting TooMany of `validateSlice` / `validateSet` (origin "maxItems")."""
    errs = with_origin([too_many_items(path, count, limit)], "maxItems")
    return covered_by_declarative(errs) if covered else errs


def validate_slice(
    items: Sequence[T],
    max_size: int,
    validate_item: Callable[[T, FieldPath], ErrorList],
    path: FieldPath,
    *,
    size_covered: bool = False,
) -> ErrorList:
    """`validateSlice`: over the limit is one TooMany; otherwise every item is validated."""
    if 0 <= max_size < len(items):
        return too_many(len(items), max_size, path, covered=size_covered)
    errs: ErrorList = []
    for i, item in enumerate(items):
        errs += validate_item(item, path.index(i))
    return errs


def validate_set(
    items: Sequence[T],
    max_size: int,
    validate_item: Callable[[T, FieldPath], ErrorList],
    key: Callable[[T], Hashable],
    path: FieldPath,
    *,
    shown: Callable[[T], Any] | None = None,
    size_covered: bool = False,
    uniqueness_covered: bool = False,
) -> ErrorList:
    """`validateSet`: as `validate_slice`, then a Duplicate at the index of every item whose key an
    earlier item has (the value shown is the key; `shown` renders it as Go prints it)."""
    if 0 <= max_size < len(items):
        return too_many(len(items), max_size, path, covered=size_covered)
    errs: ErrorList = []
    for i, item in enumerate(items):
        errs += validate_item(item, path.index(i))
    seen: set[Hashable] = set()
    for i, item in enumerate(items):
        item_key = key(item)
        if item_key in seen:
            error = duplicate(path.index(i), shown(item) if shown is not None else item_key)
            errs += covered_by_declarative([error]) if uniqueness_covered else [error]
        else:
            seen.add(item_key)
    return errs


def no_errors(item: Any, path: FieldPath) -> ErrorList:
    return []


def validate_map(
    entries: Mapping[str, Any],
    max_size: int,
    truncate_key_length: int,
    validate_key: Callable[[str, FieldPath], ErrorList],
    validate_item: Callable[[Any, FieldPath], ErrorList],
    path: FieldPath,
    *,
    keys_covered: bool = False,
) -> ErrorList:
    """`validateMap`: over the limit is one TooMany (no origin, short-circuits); otherwise each key
    is checked at the map's own path and each value at the key's path, the key shortened there by
    `truncate_if_too_long`. Go walks the map in random order; the document order is one of them."""
    if 0 <= max_size < len(entries):
        return [too_many_items(path, len(entries), max_size)]
    errs: ErrorList = []
    for key, item in entries.items():
        key_errors = validate_key(key, path)
        errs += covered_by_declarative(key_errors) if keys_covered else key_errors
        errs += validate_item(item, path.key(truncate_if_too_long(key, truncate_key_length)))
    return errs


def truncate_if_too_long(key: str, max_length: int) -> str:
    """`truncateIfTooLong`: a key longer than the limit (raised to 16 when smaller) keeps its start
    and its end around "...", counted in bytes as Go slices strings."""
    max_length = max(max_length, 16)
    if len(key) <= max_length and key.isascii():  # one byte per character: short enough
        return key
    encoded = key.encode("utf-8", "surrogatepass")
    if len(encoded) <= max_length:
        return key
    remaining = max_length - 3
    head, tail = encoded[: (remaining + 1) // 2], encoded[len(encoded) - remaining // 2 :]
    # A character cut in two leaves bytes that are no UTF-8; the API server's JSON encoder writes
    # each such byte as U+FFFD.
    shortened = (head + b"..." + tail).decode("utf-8", "surrogateescape")
    return "".join("\ufffd" if 0xDC80 <= ord(char) <= 0xDCFF else char for char in shortened)


# --- selectors ---------------------------------------------------------------------------------------


def validate_selectors(selectors: Any, path: FieldPath, *, stored: bool = False) -> ErrorList:
    """The selectors of a request or a class: at most 32 (covered), each with a CEL selector,
    compiled as stored expressions when `stored` (a class's selectors unchanged by an update)."""
    # validate_slice(..., validate_selector, ...) as a direct loop: no partial to call through.
    items = sequence(selectors)
    if len(items) > DEVICE_SELECTORS_MAX_SIZE:
        return too_many(len(items), DEVICE_SELECTORS_MAX_SIZE, path, covered=True)
    errs: ErrorList = []
    for i, selector in enumerate(items):
        errs += validate_selector(selector, path.index(i), stored=stored)
    return errs


def validate_selector(selector: Any, path: FieldPath, *, stored: bool = False) -> ErrorList:
    """`validateSelector`: `cel` is required, its expression compiled by 1.37's CEL environment."""
    cel = optional_mapping(mapping(selector).get("cel"))
    if cel is None:
        return [required(path.child("cel"), "")]
    return validate_device_selector(
        text(cel.get("expression")), path.child("cel", "expression"), release=RELEASE, stored=stored
    )


# --- configuration -----------------------------------------------------------------------------------


def validate_device_configuration(config: dict[str, Any], path: FieldPath, *, stored: bool) -> ErrorList:
    """`validateDeviceConfiguration`: `opaque` is required (the only kind of configuration)."""
    opaque = optional_mapping(config.get("opaque"))
    if opaque is None:
        return [required(path.child("opaque"), "")]
    driver, parameters = text(opaque.get("driver")), opaque.get("parameters")
    errs = validate_driver_name(
        driver,
        path.child("opaque", "driver"),
        required_covered=True,
        format_covered=True,
        size_covered=True,
    )
    errs += validate_raw_extension(
        parameters, path.child("opaque", "parameters"), stored=stored, max_length=OPAQUE_PARAMETERS_MAX_LENGTH
    )
    return errs


def validate_raw_extension(value: Any, path: FieldPath, *, stored: bool, max_length: int) -> ErrorList:
    """`validateRawExtension`: required (null reads as nothing), at most `max_length` bytes unless
    already stored unchanged, and a JSON object. The size is that of the JSON as Go re-encodes it
    (compact): the bytes the client sent are not known here."""
    if value is None:
        return [required(path, "")]
    if not stored and byte_length(raw_json(value)) > max_length:
        return [too_long_bytes(path, max_length)]
    if not isinstance(value, dict):
        return [invalid(path, "<value omitted>", "must be a valid JSON object")]
    return []


def raw_json(value: Any) -> str:
    """The compact JSON of a decoded `runtime.RawExtension`."""
    return go_json(value)


# --- tolerations ---------------------------------------------------------------------------------------


def validate_toleration(toleration: Any, path: FieldPath) -> ErrorList:
    """`validateDeviceToleration`."""
    fields = mapping(toleration)
    key, operator, value = text(fields.get("key")), text(fields.get("operator")), text(fields.get("value"))
    effect = text(fields.get("effect"))
    errs: ErrorList = []
    if key:
        # metav1 ValidateLabelName, covered by +k8s:format=k8s-label-key.
        key_errors = [invalid(path.child("key"), key, msg) for msg in is_qualified_name(key, release=RELEASE)]
        errs += covered_by_declarative(with_origin(key_errors, "format=k8s-label-key"))
    match operator:
        case "Exists":
            if value:
                errs.append(invalid(path.child("value"), value, "must be empty for operator `Exists`"))
        case "Equal":
            errs += [
                invalid(path.child("value"), value, msg)
                for msg in is_valid_label_value(value, release=RELEASE)
            ]
        case "":
            errs += covered_by_declarative([required(path.child("operator"), "")])
        case _:
            errs += covered_by_declarative(
                [not_supported(path.child("operator"), go_json_value(operator), TOLERATION_OPERATORS)]
            )
    if effect and effect not in TAINT_EFFECTS:
        errs += covered_by_declarative(
            [not_supported(path.child("effect"), go_json_value(effect), TAINT_EFFECTS)]
        )
    return errs


def validate_tolerations(tolerations: Any, path: FieldPath) -> ErrorList:
    """The loop over a request's or a result's tolerations (no size limit is checked)."""
    errs: ErrorList = []
    for i, toleration in enumerate(sequence(tolerations)):
        errs += validate_toleration(toleration, path.index(i))
    return errs


# --- allocation mode -----------------------------------------------------------------------------------


def validate_allocation_mode(mode: str, count: int, mode_path: FieldPath, count_path: FieldPath) -> ErrorList:
    """`validateDeviceAllocationMode`."""
    if mode == ALLOCATION_MODE_ALL:
        if count != 0:
            return [invalid(count_path, count, f"must not be specified when allocationMode is '{mode}'")]
        return []
    if mode == ALLOCATION_MODE_EXACT_COUNT:
        return [invalid(count_path, count, "must be greater than zero")] if count <= 0 else []
    return covered_by_declarative([not_supported(mode_path, go_json_value(mode), ALLOCATION_MODES)])


# --- binding conditions ---------------------------------------------------------------------------------


def validate_binding_parameters(conditions: Any, failure_conditions: Any, path: FieldPath) -> ErrorList:
    """`validateDeviceBindingParameters`: at most 4 of each (covered), each a label name, no repeats,
    no overlap, and one list only with the other."""
    binding = [text(item) for item in sequence(conditions)]
    failure = [text(item) for item in sequence(failure_conditions)]
    binding_path, failure_path = path.child("bindingConditions"), path.child("bindingFailureConditions")
    errs = validate_slice(
        binding, BINDING_CONDITIONS_MAX_SIZE, _validate_label_name, binding_path, size_covered=True
    )
    errs += validate_slice(
        failure, BINDING_FAILURE_CONDITIONS_MAX_SIZE, _validate_label_name, failure_path, size_covered=True
    )
    seen: set[str] = set()
    for i, condition in enumerate(binding):
        if condition in seen:
            errs.append(duplicate(binding_path.index(i), condition))
        else:
            seen.add(condition)
    seen_failures: set[str] = set()
    binding_set = set(binding)
    for i, condition in enumerate(failure):
        if condition in seen_failures:
            errs.append(duplicate(failure_path.index(i), condition))
        else:
            seen_failures.add(condition)
        if condition in binding_set:
            errs.append(
                invalid(
                    failure_path.index(i),
                    condition,
                    "bindingFailureConditions must not overlap with bindingConditions",
                )
            )
    if not binding and failure:
        errs.append(
            invalid(
                binding_path,
                _string_list(conditions),
                "bindingConditions are required to use bindingFailureConditions",
            )
        )
    if not failure and binding:
        errs.append(
            invalid(
                failure_path,
                _string_list(failure_conditions),
                "bindingFailureConditions are required to use bindingConditions",
            )
        )
    return errs


def _validate_label_name(name: str, path: FieldPath) -> ErrorList:
    """metav1 `ValidateLabelName` (origin "format=k8s-label-key")."""
    return with_origin(
        [invalid(path, name, msg) for msg in is_qualified_name(name, release=RELEASE)], "format=k8s-label-key"
    )


def _string_list(value: Any) -> Any:
    """A []string bad value as JSON: null when nil, [] when empty."""
    if not isinstance(value, list):
        return GoText("null")
    return GoText(go_json([text(item) for item in value]))


# --- references to requests ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RequestNames:
    """`requestNames`: each request's name, with the names of its subrequests (None when it has
    none)."""

    names: Mapping[str, frozenset[str] | None]

    def has(self, reference: str) -> bool:
        """`requestNames.Has`: "request" or "request/subrequest"; never more than one '/'."""
        segments = reference.split("/")
        if len(segments) > 2 or segments[0] not in self.names:
            return False
        if len(segments) == 1:
            return True
        subrequests = self.names[segments[0]]
        return subrequests is not None and segments[1] in subrequests


def gather_request_names(devices: dict[str, Any]) -> RequestNames:
    """`gatherRequestNames`: the last request of a name wins, as in the Go map."""
    names: dict[str, frozenset[str] | None] = {}
    for request in sequence(devices.get("requests")):
        fields = mapping(request)
        first_available = sequence(fields.get("firstAvailable"))
        if not first_available:
            names[text(fields.get("name"))] = None
        else:
            names[text(fields.get("name"))] = frozenset(
                text(mapping(sub).get("name")) for sub in first_available
            )
    return RequestNames(names)


def validate_request_name_ref(name: str, path: FieldPath, request_names: RequestNames) -> ErrorList:
    """`validateRequestNameRef`: at most one '/', each segment a request name, and a request (or
    subrequest) of the claim."""
    segments = name.split("/")
    if len(segments) > 2:
        return [invalid(path, name, REQUEST_REFERENCE_MSG)]
    errs: ErrorList = []
    for segment in segments:
        errs += validate_request_name(segment, path)
    if not request_names.has(name):
        errs.append(invalid(path, name, REQUEST_REFERENCE_MSG))
    return errs


def validate_request_references(references: Any, path: FieldPath, request_names: RequestNames) -> ErrorList:
    """The `requests` of a constraint or configuration: `validateSet` of at most 32 references
    (size and uniqueness covered)."""
    names = [text(item) for item in sequence(references)]
    return validate_set(
        names,
        DEVICE_REQUESTS_MAX_SIZE,
        lambda name, at: validate_request_name_ref(name, at, request_names),
        lambda name: name,
        path,
        size_covered=True,
        uniqueness_covered=True,
    )
