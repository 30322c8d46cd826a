"""The paths and the order kube-apiserver 1.37 reports for a v1beta1 object: the hand-written
validation's (v1's shape) for every hand-written error, wherever it is; v1beta1's paths and field order
for the declarative errors (those the v1 rules' merge marks)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from webhook.field import ErrorType, FieldError
from webhook.rules.v1beta1.kinds import RESOURCE_CLAIM, RESOURCE_SLICE
from webhook.rules.v1beta1.paths import (
    claim_errors_to_v1beta1,
    claim_template_errors_to_v1beta1,
    resource_slice_errors_to_v1beta1,
)

REQUEST = "spec.devices.requests[1]"
DEVICE = "spec.devices[2]"


def declarative(error_type: ErrorType, field: str, detail: str = "") -> FieldError:
    return FieldError(error_type, field, "bad", detail, declarative=True)


CLAIM_PATHS: list[tuple[ErrorType, str, str]] = [
    # (type, path in v1's shape, path of a declarative error there for v1beta1)
    # Below `exactly`, whose fields v1beta1 holds in the request.
    (ErrorType.TOO_MANY, f"{REQUEST}.exactly.selectors", f"{REQUEST}.selectors"),
    (ErrorType.NOT_SUPPORTED, f"{REQUEST}.exactly.allocationMode", f"{REQUEST}.allocationMode"),
    (ErrorType.INVALID, f"{REQUEST}.exactly.tolerations[0].key", f"{REQUEST}.tolerations[0].key"),
    (ErrorType.REQUIRED, f"{REQUEST}.exactly.tolerations[3].operator", f"{REQUEST}.tolerations[3].operator"),
    (ErrorType.NOT_SUPPORTED, f"{REQUEST}.exactly.tolerations[0].effect", f"{REQUEST}.tolerations[0].effect"),
    # The same shape in both versions.
    (ErrorType.DUPLICATE, REQUEST, REQUEST),
    (ErrorType.TOO_MANY, "spec.devices.requests", "spec.devices.requests"),
    (ErrorType.TOO_MANY, f"{REQUEST}.firstAvailable[0].selectors", f"{REQUEST}.firstAvailable[0].selectors"),
    (
        ErrorType.REQUIRED,
        f"{REQUEST}.firstAvailable[0].deviceClassName",
        f"{REQUEST}.firstAvailable[0].deviceClassName",
    ),
    (ErrorType.TOO_MANY, "spec.devices.constraints[0].requests", "spec.devices.constraints[0].requests"),
    (
        ErrorType.INVALID,
        "status.allocation.devices.results[0].driver",
        "status.allocation.devices.results[0].driver",
    ),
    (ErrorType.INVALID, "spec", "spec"),
]


@pytest.mark.parametrize(("error_type", "v1_path", "v1beta1_path"), CLAIM_PATHS)
def test_a_declarative_claim_error_is_reported_at_its_v1beta1_path(
    error_type: ErrorType, v1_path: str, v1beta1_path: str
) -> None:
    (reported,) = claim_errors_to_v1beta1([declarative(error_type, v1_path)])
    assert reported == declarative(error_type, v1beta1_path)


@pytest.mark.parametrize(("error_type", "v1_path", "v1beta1_path"), CLAIM_PATHS)
def test_a_hand_written_claim_error_keeps_v1s_path(
    error_type: ErrorType, v1_path: str, v1beta1_path: str
) -> None:
    error = FieldError(error_type, v1_path, "bad", "")
    assert claim_errors_to_v1beta1([error]) == [error]
    assert claim_template_errors_to_v1beta1([replace(error, field=f"spec.{v1_path}")]) == [
        replace(error, field=f"spec.{v1_path}")
    ]


@pytest.mark.parametrize(("error_type", "v1_path", "v1beta1_path"), CLAIM_PATHS)
def test_a_declarative_template_error_is_reported_at_its_v1beta1_path(
    error_type: ErrorType, v1_path: str, v1beta1_path: str
) -> None:
    # A template's claim spec is at spec.spec; the claim's paths there are not a template's.
    (reported,) = claim_template_errors_to_v1beta1([declarative(error_type, f"spec.{v1_path}")])
    assert reported.field == f"spec.{v1beta1_path}"
    (as_claim_path,) = claim_template_errors_to_v1beta1([declarative(error_type, v1_path)])
    assert as_claim_path.field == v1_path


SLICE_PATHS: list[tuple[ErrorType, str, str]] = [
    # Below a device's fields, which v1beta1 holds in `basic`.
    (ErrorType.INVALID, f"{DEVICE}.attributes[a.b/c]", f"{DEVICE}.basic.attributes[a.b/c]"),
    # A map key may hold any character, a newline too.
    (ErrorType.INVALID, f"{DEVICE}.attributes[a\nb]", f"{DEVICE}.basic.attributes[a\nb]"),
    (ErrorType.TOO_MANY, f"{DEVICE}.consumesCounters", f"{DEVICE}.basic.consumesCounters"),
    (ErrorType.DUPLICATE, f"{DEVICE}.consumesCounters[1]", f"{DEVICE}.basic.consumesCounters[1]"),
    (
        ErrorType.INVALID,
        f"{DEVICE}.consumesCounters[0].counterSet",
        f"{DEVICE}.basic.consumesCounters[0].counterSet",
    ),
    # +k8s:eachKey reports a bad key at the map (apimachinery v0.37.0-beta.0 each.go, EachMapKey).
    (
        ErrorType.INVALID,
        f"{DEVICE}.consumesCounters[0].counters",
        f"{DEVICE}.basic.consumesCounters[0].counters",
    ),
    (ErrorType.REQUIRED, f"{DEVICE}.taints[0].effect", f"{DEVICE}.basic.taints[0].effect"),
    (ErrorType.TOO_MANY, f"{DEVICE}.bindingConditions", f"{DEVICE}.basic.bindingConditions"),
    (ErrorType.TOO_MANY, f"{DEVICE}.bindingFailureConditions", f"{DEVICE}.basic.bindingFailureConditions"),
    # A device's name is beside `basic`; the rest is not below a device.
    (ErrorType.REQUIRED, f"{DEVICE}.name", f"{DEVICE}.name"),
    (ErrorType.DUPLICATE, DEVICE, DEVICE),
    (ErrorType.INVALID, "spec.sharedCounters[0].counters", "spec.sharedCounters[0].counters"),
    (ErrorType.NOT_SUPPORTED, "spec.skipNodeOperations[0]", "spec.skipNodeOperations[0]"),
]


@pytest.mark.parametrize(("error_type", "v1_path", "v1beta1_path"), SLICE_PATHS)
def test_a_declarative_slice_error_is_reported_at_its_v1beta1_path(
    error_type: ErrorType, v1_path: str, v1beta1_path: str
) -> None:
    (reported,) = resource_slice_errors_to_v1beta1([declarative(error_type, v1_path)])
    assert reported == declarative(error_type, v1beta1_path)


@pytest.mark.parametrize(("error_type", "v1_path", "v1beta1_path"), SLICE_PATHS)
def test_a_hand_written_slice_error_keeps_v1s_path(
    error_type: ErrorType, v1_path: str, v1beta1_path: str
) -> None:
    # Even where a declarative check reports the same type and text: the hand-written error of a
    # device the declarative pass did not look at again stays, at the internal object's path.
    error = FieldError(error_type, v1_path, 3, "exactly one value must be specified")
    assert resource_slice_errors_to_v1beta1([error]) == [error]


def test_errors_keep_their_order_and_only_the_declarative_ones_move() -> None:
    errors = [
        FieldError(ErrorType.REQUIRED, f"{REQUEST}.exactly.deviceClassName"),
        FieldError(ErrorType.INVALID, f"{REQUEST}.exactly.count", 0, "must be greater than zero"),
        declarative(ErrorType.TOO_MANY, f"{REQUEST}.exactly.selectors", "must have at most 32 items"),
    ]
    assert [error.field for error in claim_errors_to_v1beta1(errors)] == [
        f"{REQUEST}.exactly.deviceClassName",
        f"{REQUEST}.exactly.count",
        f"{REQUEST}.selectors",
    ]
    assert claim_errors_to_v1beta1([]) == []


def test_a_requests_declarative_errors_follow_v1beta1s_field_order() -> None:
    # v1 checks `exactly` (its tolerations included) before `firstAvailable`; v1beta1's DeviceRequest
    # declares firstAvailable before tolerations. Other requests' errors and hand-written ones stay put.
    errors = [
        FieldError(ErrorType.INVALID, REQUEST, None, "multiple fields are set"),
        declarative(ErrorType.DUPLICATE, "spec.devices.requests[2]"),
        declarative(ErrorType.TOO_MANY, f"{REQUEST}.exactly.selectors"),
        declarative(ErrorType.NOT_SUPPORTED, f"{REQUEST}.exactly.tolerations[0].operator"),
        declarative(ErrorType.NOT_SUPPORTED, f"{REQUEST}.exactly.tolerations[1].effect"),
        declarative(ErrorType.REQUIRED, f"{REQUEST}.firstAvailable[0].deviceClassName"),
        declarative(ErrorType.TOO_MANY, f"{REQUEST}.firstAvailable[1].selectors"),
        declarative(ErrorType.NOT_SUPPORTED, "spec.devices.requests[2].exactly.tolerations[0].operator"),
        declarative(ErrorType.REQUIRED, "spec.devices.requests[2].firstAvailable[0].deviceClassName"),
    ]
    assert [error.field for error in claim_errors_to_v1beta1(errors)] == [
        REQUEST,
        "spec.devices.requests[2]",
        f"{REQUEST}.selectors",
        f"{REQUEST}.firstAvailable[0].deviceClassName",
        f"{REQUEST}.firstAvailable[1].selectors",
        f"{REQUEST}.tolerations[0].operator",
        f"{REQUEST}.tolerations[1].effect",
        "spec.devices.requests[2].firstAvailable[0].deviceClassName",
        "spec.devices.requests[2].tolerations[0].operator",
    ]
    template_errors = [replace(error, field=f"spec.{error.field}") for error in errors[2:7]]
    assert [error.field for error in claim_template_errors_to_v1beta1(template_errors)] == [
        f"spec.{REQUEST}.selectors",
        f"spec.{REQUEST}.firstAvailable[0].deviceClassName",
        f"spec.{REQUEST}.firstAvailable[1].selectors",
        f"spec.{REQUEST}.tolerations[0].operator",
        f"spec.{REQUEST}.tolerations[1].effect",
    ]


# --- the v1beta1 kinds end to end ---------------------------------------------------------------------

LABEL_MSG = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start "
    "and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
)


def v1beta1_slice(basic: dict[str, Any], **labels: str) -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1beta1",
        "kind": "ResourceSlice",
        "metadata": {"name": "s1", "resourceVersion": "1", "labels": labels},
        "spec": {
            "driver": "dra.example.com",
            "pool": {"name": "pool-a", "generation": 1, "resourceSliceCount": 1},
            "nodeName": "node-1",
            "devices": [{"name": "d0", "basic": basic}],
        },
    }


def test_a_bad_counter_name_is_reported_at_the_counters_under_basic() -> None:
    # The hand-written error (v1's path) gives way to its declarative twin, at v1beta1's path.
    basic = {"consumesCounters": [{"counterSet": "a", "counters": {"X": {"value": "1"}}}]}
    assert [str(error) for error in RESOURCE_SLICE.validate_create(v1beta1_slice(basic))] == [
        f'spec.devices[0].basic.consumesCounters[0].counters: Invalid value: "X": {LABEL_MSG}'
    ]


def test_unchanged_devices_keep_their_hand_written_errors_at_v1s_paths() -> None:
    # The declarative pass does not look at unchanged devices again, so nothing replaces the covered
    # hand-written errors: they stay, at the internal object's paths.
    basic = {
        "attributes": {"a": {"int": 1, "bool": True}},
        "consumesCounters": [{"counterSet": "CS", "counters": {"c": {"value": "1"}}}],
    }
    old = v1beta1_slice(basic)
    errors = RESOURCE_SLICE.validate_update(v1beta1_slice(basic, x="z"), old)
    assert [(error.type, error.field) for error in errors] == [
        (ErrorType.INVALID, "spec.devices[0].attributes[a]"),
        (ErrorType.INVALID, "spec.devices[0].consumesCounters[0].counterSet"),
    ]
    # On create the declarative pass reports them, at v1beta1's paths.
    assert [(error.type, error.field) for error in RESOURCE_SLICE.validate_create(old)] == [
        (ErrorType.INVALID, "spec.devices[0].basic.attributes[a]"),
        (ErrorType.INVALID, "spec.devices[0].basic.consumesCounters[0].counterSet"),
    ]


def test_a_request_with_its_own_fields_and_subrequests_is_reported_in_v1beta1s_field_order() -> None:
    claim = {
        "apiVersion": "resource.k8s.io/v1beta1",
        "kind": "ResourceClaim",
        "metadata": {"name": "c", "namespace": "ns"},
        "spec": {
            "devices": {
                "requests": [
                    {
                        "name": "a",
                        "deviceClassName": "gpu",
                        "tolerations": [{"operator": "Foo"}],
                        "firstAvailable": [{"name": "s", "deviceClassName": ""}],
                    }
                ]
            }
        },
    }
    assert [(error.type, error.field) for error in RESOURCE_CLAIM.validate_create(claim)] == [
        (ErrorType.INVALID, "spec.devices.requests[0]"),
        (ErrorType.REQUIRED, "spec.devices.requests[0].firstAvailable[0].deviceClassName"),
        (ErrorType.NOT_SUPPORTED, "spec.devices.requests[0].tolerations[0].operator"),
    ]
