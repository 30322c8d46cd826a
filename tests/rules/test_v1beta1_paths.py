"""The paths kube-apiserver 1.37 reports for a v1beta1 object: the hand-written validation's (v1's
shape) for every error but the enforced declarative ones below the fields v1beta1 moved."""

from __future__ import annotations

import pytest

from webhook.field import ErrorType, FieldError, GoText
from webhook.rules.v1beta1.paths import (
    claim_errors_to_v1beta1,
    claim_template_errors_to_v1beta1,
    resource_slice_errors_to_v1beta1,
)

REQUEST = "spec.devices.requests[1]"
DEVICE = "spec.devices[2]"

CLAIM_PATHS: list[tuple[ErrorType, str, str, str]] = [
    # (type, path in v1's shape, detail, path reported for v1beta1)
    # Declarative (ExactDeviceRequest, DeviceToleration): v1beta1's paths.
    (
        ErrorType.TOO_MANY,
        f"{REQUEST}.exactly.selectors",
        "must have at most 32 items",
        f"{REQUEST}.selectors",
    ),
    (ErrorType.NOT_SUPPORTED, f"{REQUEST}.exactly.allocationMode", "", f"{REQUEST}.allocationMode"),
    (ErrorType.INVALID, f"{REQUEST}.exactly.tolerations[0].key", "", f"{REQUEST}.tolerations[0].key"),
    (
        ErrorType.REQUIRED,
        f"{REQUEST}.exactly.tolerations[3].operator",
        "",
        f"{REQUEST}.tolerations[3].operator",
    ),
    (
        ErrorType.NOT_SUPPORTED,
        f"{REQUEST}.exactly.tolerations[0].operator",
        "",
        f"{REQUEST}.tolerations[0].operator",
    ),
    (
        ErrorType.NOT_SUPPORTED,
        f"{REQUEST}.exactly.tolerations[0].effect",
        "",
        f"{REQUEST}.tolerations[0].effect",
    ),
    # Hand-written: the internal object's paths, `exactly` included.
    (ErrorType.REQUIRED, f"{REQUEST}.exactly.deviceClassName", "", f"{REQUEST}.exactly.deviceClassName"),
    (ErrorType.INVALID, f"{REQUEST}.exactly.deviceClassName", "x", f"{REQUEST}.exactly.deviceClassName"),
    (ErrorType.INVALID, f"{REQUEST}.exactly.count", "must be greater than zero", f"{REQUEST}.exactly.count"),
    (
        ErrorType.INVALID,
        f"{REQUEST}.exactly.selectors[0].cel.expression",
        "compilation failed",
        f"{REQUEST}.exactly.selectors[0].cel.expression",
    ),
    (ErrorType.FORBIDDEN, f"{REQUEST}.exactly.adminAccess", "", f"{REQUEST}.exactly.adminAccess"),
    (
        ErrorType.INVALID,
        f"{REQUEST}.exactly.capacity.requests[x]",
        "",
        f"{REQUEST}.exactly.capacity.requests[x]",
    ),
    (
        ErrorType.INVALID,
        f"{REQUEST}.exactly.tolerations[0].value",
        "",
        f"{REQUEST}.exactly.tolerations[0].value",
    ),
    (ErrorType.REQUIRED, REQUEST, "exactly one of `exactly` or `firstAvailable` is required", REQUEST),
    (ErrorType.REQUIRED, f"{REQUEST}.name", "", f"{REQUEST}.name"),
    # The same shape in both versions.
    (ErrorType.TOO_MANY, "spec.devices.requests", "", "spec.devices.requests"),
    (
        ErrorType.TOO_MANY,
        f"{REQUEST}.firstAvailable[0].selectors",
        "",
        f"{REQUEST}.firstAvailable[0].selectors",
    ),
    (
        ErrorType.INVALID,
        "spec.devices.constraints[0].matchAttribute",
        "",
        "spec.devices.constraints[0].matchAttribute",
    ),
    (
        ErrorType.INVALID,
        "status.allocation.devices.results[0].driver",
        "",
        "status.allocation.devices.results[0].driver",
    ),
    (ErrorType.INVALID, "metadata.name", "", "metadata.name"),
    (ErrorType.INVALID, "spec", "field is immutable", "spec"),
]


@pytest.mark.parametrize(("error_type", "v1_path", "detail", "v1beta1_path"), CLAIM_PATHS)
def test_a_claim_error_is_reported_at_its_v1beta1_path(
    error_type: ErrorType, v1_path: str, detail: str, v1beta1_path: str
) -> None:
    error = FieldError(error_type, v1_path, "bad", detail)
    (reported,) = claim_errors_to_v1beta1([error])
    assert reported == FieldError(error_type, v1beta1_path, "bad", detail)


@pytest.mark.parametrize(("error_type", "v1_path", "detail", "v1beta1_path"), CLAIM_PATHS)
def test_a_template_error_is_reported_at_its_v1beta1_path(
    error_type: ErrorType, v1_path: str, detail: str, v1beta1_path: str
) -> None:
    # A template's claim spec is at spec.spec; the claim's paths there are not a template's.
    error = FieldError(error_type, f"spec.{v1_path}", "bad", detail)
    (reported,) = claim_template_errors_to_v1beta1([error])
    assert reported.field == (
        f"spec.{v1beta1_path}" if v1_path.startswith("spec.devices") else f"spec.{v1_path}"
    )
    (as_claim_path,) = claim_template_errors_to_v1beta1([FieldError(error_type, v1_path, "bad", detail)])
    assert as_claim_path.field == v1_path


@pytest.mark.parametrize("empty", ["", GoText('""')])
def test_an_empty_allocation_mode_is_the_hand_written_error_at_v1s_path(empty: object) -> None:
    # +k8s:optional ends the declarative validation of an empty mode before its enum: the error is
    # validateDeviceAllocationMode's (a v1beta1 request without a class is not defaulted).
    error = FieldError(
        ErrorType.NOT_SUPPORTED, f"{REQUEST}.exactly.allocationMode", empty, "supported values"
    )
    assert claim_errors_to_v1beta1([error]) == [error]
    in_template = FieldError(error.type, f"spec.{error.field}", empty, error.detail)
    assert claim_template_errors_to_v1beta1([in_template]) == [in_template]


SLICE_PATHS: list[tuple[ErrorType, str, str, str]] = [
    # Declarative (Device, DeviceAttribute, DeviceCounterConsumption, DeviceTaint): under basic.
    (
        ErrorType.INVALID,
        f"{DEVICE}.attributes[a.b/c]",
        "exactly one value must be specified",
        f"{DEVICE}.basic.attributes[a.b/c]",
    ),
    (
        ErrorType.INVALID,
        f"{DEVICE}.attributes[c]",
        "must specify one of: `int`, `bool`",
        f"{DEVICE}.basic.attributes[c]",
    ),
    (
        ErrorType.TOO_MANY,
        f"{DEVICE}.consumesCounters",
        "must have at most 2 items",
        f"{DEVICE}.basic.consumesCounters",
    ),
    (ErrorType.DUPLICATE, f"{DEVICE}.consumesCounters[1]", "", f"{DEVICE}.basic.consumesCounters[1]"),
    (
        ErrorType.REQUIRED,
        f"{DEVICE}.consumesCounters[0].counterSet",
        "",
        f"{DEVICE}.basic.consumesCounters[0].counterSet",
    ),
    (
        ErrorType.INVALID,
        f"{DEVICE}.consumesCounters[0].counterSet",
        "",
        f"{DEVICE}.basic.consumesCounters[0].counterSet",
    ),
    (
        ErrorType.REQUIRED,
        f"{DEVICE}.consumesCounters[0].counters",
        "",
        f"{DEVICE}.basic.consumesCounters[0].counters",
    ),
    (
        ErrorType.INVALID,
        f"{DEVICE}.consumesCounters[0].counters[Bad]",
        "",
        f"{DEVICE}.basic.consumesCounters[0].counters[Bad]",
    ),
    (ErrorType.NOT_SUPPORTED, f"{DEVICE}.taints[0].effect", "", f"{DEVICE}.basic.taints[0].effect"),
    (ErrorType.REQUIRED, f"{DEVICE}.taints[0].effect", "", f"{DEVICE}.basic.taints[0].effect"),
    (ErrorType.TOO_MANY, f"{DEVICE}.bindingConditions", "", f"{DEVICE}.basic.bindingConditions"),
    (
        ErrorType.TOO_MANY,
        f"{DEVICE}.bindingFailureConditions",
        "",
        f"{DEVICE}.basic.bindingFailureConditions",
    ),
    # Hand-written: v1's paths.
    (
        ErrorType.INVALID,
        f"{DEVICE}.attributes[Bad Name]",
        "a valid C identifier must start ...",
        f"{DEVICE}.attributes[Bad Name]",
    ),
    (ErrorType.TOO_LONG, f"{DEVICE}.attributes[a].string", "", f"{DEVICE}.attributes[a].string"),
    (
        ErrorType.TOO_LONG,
        f"{DEVICE}.attributes[a].strings[0]",
        "",
        f"{DEVICE}.attributes[a].strings[0]",
    ),  # alpha
    (ErrorType.TOO_MANY, f"{DEVICE}.attributes", "", f"{DEVICE}.attributes"),
    (
        ErrorType.INVALID,
        f"{DEVICE}.capacity[memory].requestPolicy",
        "",
        f"{DEVICE}.capacity[memory].requestPolicy",
    ),
    (ErrorType.INVALID, f"{DEVICE}.nodeName", "", f"{DEVICE}.nodeName"),
    (ErrorType.INVALID, f"{DEVICE}.taints[0].key", "", f"{DEVICE}.taints[0].key"),
    (ErrorType.INVALID, f"{DEVICE}.bindingConditions[0]", "", f"{DEVICE}.bindingConditions[0]"),
    (ErrorType.REQUIRED, f"{DEVICE}.name", "", f"{DEVICE}.name"),
    # Not below a device.
    (ErrorType.TOO_MANY, "spec.devices", "", "spec.devices"),
    (ErrorType.INVALID, "spec.nodeName", "", "spec.nodeName"),
    (
        ErrorType.REQUIRED,
        "spec",
        "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required",
        "spec",
    ),
    (ErrorType.DUPLICATE, "spec.sharedCounters[1]", "", "spec.sharedCounters[1]"),
]


@pytest.mark.parametrize(("error_type", "v1_path", "detail", "v1beta1_path"), SLICE_PATHS)
def test_a_slice_error_is_reported_at_its_v1beta1_path(
    error_type: ErrorType, v1_path: str, detail: str, v1beta1_path: str
) -> None:
    error = FieldError(error_type, v1_path, 3, detail)
    (reported,) = resource_slice_errors_to_v1beta1([error])
    assert reported == FieldError(error_type, v1beta1_path, 3, detail)


def test_errors_keep_their_order_and_only_the_declarative_ones_move() -> None:
    errors = [
        FieldError(ErrorType.REQUIRED, f"{REQUEST}.exactly.deviceClassName"),
        FieldError(ErrorType.TOO_MANY, f"{REQUEST}.exactly.selectors", 33, "must have at most 32 items"),
        FieldError(ErrorType.INVALID, f"{REQUEST}.exactly.count", 0, "must be greater than zero"),
    ]
    assert [error.field for error in claim_errors_to_v1beta1(errors)] == [
        f"{REQUEST}.exactly.deviceClassName",
        f"{REQUEST}.selectors",
        f"{REQUEST}.exactly.count",
    ]
    assert claim_errors_to_v1beta1([]) == []
