"""A v1beta1 ResourceClaim and ResourceClaimTemplate as kube-apiserver 1.37 judges them
(`webhook.rules.v1beta1.kinds`): defaulted by v1beta1's defaulters, not v1's, so a request without a
class keeps its empty mode and zero count and the hand-written validation reports them."""

from __future__ import annotations

from typing import Any

import pytest

from webhook.rules.v1.resourceclaim import RESOURCE_CLAIM as V1_RESOURCE_CLAIM
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
