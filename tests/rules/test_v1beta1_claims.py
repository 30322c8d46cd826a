"""A v1beta1 ResourceClaim and ResourceClaimTemplate as kube-apiserver 1.37 judges them
(`webhook.rules.v1beta1.kinds`): defaulted by v1beta1's defaulters, not v1's, so a request without a
class keeps its empty mode and zero count and the hand-written validation reports them; and a
duplicate request shown as v1beta1's DeviceRequest, which the declarative validation prints."""

from __future__ import annotations

from typing import Any

import pytest

from webhook.field import ErrorType, FieldError, GoText
from webhook.rules.v1.resourceclaim import RESOURCE_CLAIM as V1_RESOURCE_CLAIM
from webhook.rules.v1beta1.gojson import claim_template_values_to_v1beta1, claim_values_to_v1beta1
from webhook.rules.v1beta1.kinds import RESOURCE_CLAIM, RESOURCE_CLAIM_TEMPLATE

REQUEST = "spec.devices.requests[0]"
CLASS_REQUIRED = f"{REQUEST}.exactly.deviceClassName: Required value"
EMPTY_MODE = f'{REQUEST}.exactly.allocationMode: Unsupported value: "": supported values: "All", "ExactCount"'
NO_COUNT = f"{REQUEST}.exactly.count: Invalid value: 0: must be greater than zero"


def claim(*requests: Any) -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1beta1",
        "kind": "ResourceClaim",
        "metadata": {"name": "claim", "namespace": "ns"},
        "spec": {"devices": {"requests": list(requests)}},
    }


def template(*requests: Any) -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1beta1",
        "kind": "ResourceClaimTemplate",
        "metadata": {"name": "template", "namespace": "ns"},
        "spec": {"spec": {"devices": {"requests": list(requests)}}},
    }


def claim_errors(*requests: Any) -> list[str]:
    return [str(error) for error in RESOURCE_CLAIM.validate_create(claim(*requests))]


def template_errors(*requests: Any) -> list[str]:
    return [str(error) for error in RESOURCE_CLAIM_TEMPLATE.validate_create(template(*requests))]


# --- v1beta1's defaulters -------------------------------------------------------------------------------

REQUEST_DEFAULTS: list[tuple[dict[str, Any], list[str]]] = [
    # No class: SetDefaults_DeviceRequest returns at once; any other field of `exactly` makes the
    # conversion create one, which validateDeviceAllocationMode finds without a mode (its default:
    # branch; +k8s:optional stops the declarative enum before an empty value) or without a count.
    ({"name": "a", "count": 2}, [CLASS_REQUIRED, EMPTY_MODE]),
    ({"name": "a", "allocationMode": "ExactCount"}, [CLASS_REQUIRED, NO_COUNT]),
    ({"name": "a", "allocationMode": "ExactCount", "count": 0}, [CLASS_REQUIRED, NO_COUNT]),
    ({"name": "a", "selectors": []}, [CLASS_REQUIRED, EMPTY_MODE]),
    ({"name": "a", "adminAccess": False}, [CLASS_REQUIRED, EMPTY_MODE]),
    # The tolerations are defaulted all the same: no operator error.
    ({"name": "a", "tolerations": [{"key": "k"}]}, [CLASS_REQUIRED, EMPTY_MODE]),
    ({"name": "a", "allocationMode": "All"}, [CLASS_REQUIRED]),
    # A mode that is set but unknown: the declarative enum replaces the hand-written error, at
    # v1beta1's path.
    (
        {"name": "a", "allocationMode": "Foo"},
        [
            CLASS_REQUIRED,
            f'{REQUEST}.allocationMode: Unsupported value: "Foo": supported values: "All", "ExactCount"',
        ],
    ),
    # With a class, v1's defaults: ExactCount, one device.
    ({"name": "a", "deviceClassName": "gpu"}, []),
    ({"name": "a", "deviceClassName": "gpu", "allocationMode": "ExactCount", "count": 0}, []),
    ({"name": "a", "deviceClassName": "gpu", "tolerations": [{"key": "k"}]}, []),
    # Subrequests are defaulted whether or not the request has a class.
    ({"name": "a", "firstAvailable": [{"name": "s", "deviceClassName": "x"}]}, []),
]


@pytest.mark.parametrize(("request_", "expected"), REQUEST_DEFAULTS)
def test_a_v1beta1_claim_is_defaulted_by_v1beta1s_defaulters(
    request_: dict[str, Any], expected: list[str]
) -> None:
    assert claim_errors(request_) == expected


@pytest.mark.parametrize(("request_", "expected"), REQUEST_DEFAULTS)
def test_a_v1beta1_template_is_defaulted_by_v1beta1s_defaulters(
    request_: dict[str, Any], expected: list[str]
) -> None:
    assert template_errors(request_) == [f"spec.{error}" for error in expected]


def test_the_v1_twin_of_a_request_without_a_class_gets_v1s_defaults() -> None:
    # In v1 an `exactly` without a mode asks for one device: only the class is missing.
    v1_claim = {**claim(), "apiVersion": "resource.k8s.io/v1"}
    v1_claim["spec"] = {"devices": {"requests": [{"name": "a", "exactly": {"count": 2}}]}}
    assert [str(error) for error in V1_RESOURCE_CLAIM.validate_create(v1_claim)] == [CLASS_REQUIRED]


# --- duplicate requests as v1beta1's DeviceRequest --------------------------------------------------------

DUPLICATES: list[tuple[dict[str, Any], str]] = [
    # `deviceClassName` has no omitempty in v1beta1: a request with subrequests shows it empty.
    (
        {"name": "a", "firstAvailable": [{"name": "s", "deviceClassName": "x"}]},
        '{"name":"a","deviceClassName":"","firstAvailable":'
        '[{"name":"s","deviceClassName":"x","allocationMode":"ExactCount","count":1}]}',
    ),
    # The fields of `exactly` in the request, in v1beta1's order, defaulted.
    (
        {
            "name": "a",
            "capacity": {"requests": {"memory": "1.5Gi"}},
            "tolerations": [{"key": "k", "effect": "NoSchedule"}],
            "selectors": [{"cel": {"expression": "true"}}],
            "deviceClassName": "gpu2",
        },
        '{"name":"a","deviceClassName":"gpu2","selectors":[{"cel":{"expression":"true"}}],'
        '"allocationMode":"ExactCount","count":1,'
        '"tolerations":[{"key":"k","operator":"Equal","effect":"NoSchedule"}],'
        '"capacity":{"requests":{"memory":"1536Mi"}}}',
    ),
    (
        {"name": "a", "deviceClassName": "gpu", "adminAccess": False, "allocationMode": "All"},
        '{"name":"a","deviceClassName":"gpu","allocationMode":"All","adminAccess":false}',
    ),
]


@pytest.mark.parametrize(("duplicate", "shown"), DUPLICATES)
def test_a_duplicate_request_is_shown_as_v1beta1s_device_request(
    duplicate: dict[str, Any], shown: str
) -> None:
    first = {"name": "a", "deviceClassName": "gpu"}
    assert claim_errors(first, duplicate) == [f"spec.devices.requests[1]: Duplicate value: {shown}"]
    assert template_errors(first, duplicate) == [f"spec.spec.devices.requests[1]: Duplicate value: {shown}"]


def test_a_duplicate_request_without_class_or_subrequests_shows_an_empty_class() -> None:
    assert claim_errors({"name": "a"}, {"name": "a", "allocationMode": "All"}) == [
        f"{REQUEST}: Required value: exactly one of `exactly` or `firstAvailable` is required",
        "spec.devices.requests[1].exactly.deviceClassName: Required value",
        'spec.devices.requests[1]: Duplicate value: {"name":"a","deviceClassName":"","allocationMode":"All"}',
    ]


def test_a_v1_duplicate_request_keeps_v1s_shape() -> None:
    v1_claim = {**claim(), "apiVersion": "resource.k8s.io/v1"}
    exactly = {"name": "a", "exactly": {"deviceClassName": "gpu"}}
    v1_claim["spec"] = {"devices": {"requests": [exactly, exactly]}}
    assert [str(error) for error in V1_RESOURCE_CLAIM.validate_create(v1_claim)] == [
        'spec.devices.requests[1]: Duplicate value: {"name":"a","exactly":'
        '{"deviceClassName":"gpu","allocationMode":"ExactCount","count":1}}'
    ]


V1_SHOWN = GoText('{"name":"a","exactly":{"deviceClassName":"gpu","count":2}}')
V1BETA1_SHOWN = GoText('{"name":"a","deviceClassName":"gpu","count":2}')


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        # The declarative duplicate of a request: shown again.
        (
            FieldError(ErrorType.DUPLICATE, "spec.devices.requests[3]", V1_SHOWN, declarative=True),
            FieldError(ErrorType.DUPLICATE, "spec.devices.requests[3]", V1BETA1_SHOWN, declarative=True),
        ),
        # Not a request, not declarative, not a whole item, not a duplicate: as it is.
        (
            FieldError(
                ErrorType.DUPLICATE,
                "spec.devices.requests[3].firstAvailable[1]",
                V1_SHOWN,
                declarative=True,
            ),
            None,
        ),
        (FieldError(ErrorType.DUPLICATE, "spec.devices.requests[3]", V1_SHOWN), None),
        (FieldError(ErrorType.DUPLICATE, "spec.devices.requests[3]", "a", declarative=True), None),
        (FieldError(ErrorType.INVALID, "spec.devices.requests[3]", V1_SHOWN, declarative=True), None),
        (
            FieldError(ErrorType.DUPLICATE, "spec.devices.constraints[0].requests[1]", "a", declarative=True),
            None,
        ),
    ],
)
def test_only_a_declarative_duplicate_request_is_shown_again(
    error: FieldError, expected: FieldError | None
) -> None:
    assert claim_values_to_v1beta1([error]) == [expected or error]
    in_template = FieldError(
        error.type, f"spec.{error.field}", error.bad_value, declarative=error.declarative
    )
    (shown,) = claim_template_values_to_v1beta1([in_template])
    assert shown.bad_value == (expected or error).bad_value
    # A claim's path in a template (spec.devices...) is not a request of the template.
    assert claim_template_values_to_v1beta1([error]) == [error]
