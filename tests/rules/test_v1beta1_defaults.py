"""v1beta1's defaulters (`pkg/apis/resource/v1beta1/defaults.go`, the `+default` tags), which 1.37 runs
on a v1beta1 object instead of v1's: a request without a class keeps an empty mode and a zero count;
its subrequests and every toleration are defaulted as v1 defaults them; nothing given is changed."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from webhook.rules.v1beta1.defaults import (
    defaulted_claim,
    defaulted_claim_spec,
    defaulted_claim_template,
    defaulted_request,
)

EXACT_ONE = {"allocationMode": "ExactCount", "count": 1}


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        # With a class: SetDefaults_DeviceRequest, as v1's SetDefaults_ExactDeviceRequest.
        ({"name": "a", "deviceClassName": "gpu"}, {"name": "a", "deviceClassName": "gpu", **EXACT_ONE}),
        (
            {"deviceClassName": "gpu", "allocationMode": "ExactCount", "count": 0},
            {"deviceClassName": "gpu", **EXACT_ONE},
        ),
        (
            {"deviceClassName": "gpu", "count": 3},
            {"deviceClassName": "gpu", "allocationMode": "ExactCount", "count": 3},
        ),
        (
            {"deviceClassName": "gpu", "allocationMode": "All"},
            {"deviceClassName": "gpu", "allocationMode": "All"},
        ),
        # Without one (`if obj.DeviceClassName == "" { return }`): mode and count as given.
        ({"name": "a"}, {"name": "a"}),
        ({"name": "a", "count": 2}, {"name": "a", "count": 2}),
        ({"allocationMode": "ExactCount"}, {"allocationMode": "ExactCount"}),
        ({"deviceClassName": "", "allocationMode": ""}, {"deviceClassName": "", "allocationMode": ""}),
        ({"deviceClassName": None, "count": 0}, {"deviceClassName": None, "count": 0}),
        # Tolerations (`+default="Equal"`) with a class or without.
        (
            {"tolerations": [{"key": "k"}, {"operator": "Exists"}]},
            {"tolerations": [{"key": "k", "operator": "Equal"}, {"operator": "Exists"}]},
        ),
        (
            {"deviceClassName": "gpu", "tolerations": [{"operator": ""}]},
            {"deviceClassName": "gpu", **EXACT_ONE, "tolerations": [{"operator": "Equal"}]},
        ),
        # Subrequests: SetDefaults_DeviceSubRequest and their tolerations, with a class or without.
        (
            {
                "name": "a",
                "firstAvailable": [
                    {"name": "s", "deviceClassName": "x"},
                    {"name": "t", "allocationMode": "All", "tolerations": [{"key": "k"}]},
                    "not an object",
                ],
            },
            {
                "name": "a",
                "firstAvailable": [
                    {"name": "s", "deviceClassName": "x", **EXACT_ONE},
                    {
                        "name": "t",
                        "allocationMode": "All",
                        "tolerations": [{"key": "k", "operator": "Equal"}],
                    },
                    "not an object",
                ],
            },
        ),
        (
            {"name": "a", "deviceClassName": "gpu", "firstAvailable": [{"name": "s"}]},
            {
                "name": "a",
                "deviceClassName": "gpu",
                **EXACT_ONE,
                "firstAvailable": [{"name": "s", **EXACT_ONE}],
            },
        ),
        ("not an object", "not an object"),
    ],
)
def test_a_v1beta1_request_is_defaulted_only_with_a_class(request_: Any, expected: Any) -> None:
    given = copy.deepcopy(request_)
    assert defaulted_request(request_) == expected
    assert request_ == given


def test_a_claim_defaults_its_requests_and_its_allocation_results_tolerations() -> None:
    claim = {
        "apiVersion": "resource.k8s.io/v1beta1",
        "kind": "ResourceClaim",
        "spec": {"devices": {"requests": [{"name": "a", "count": 2}, {"name": "b", "deviceClassName": "c"}]}},
        "status": {"allocation": {"devices": {"results": [{"request": "b", "tolerations": [{"key": "k"}]}]}}},
    }
    given = copy.deepcopy(claim)
    assert defaulted_claim(claim) == {
        **claim,
        "spec": {
            "devices": {
                "requests": [{"name": "a", "count": 2}, {"name": "b", "deviceClassName": "c", **EXACT_ONE}]
            }
        },
        "status": {
            "allocation": {
                "devices": {"results": [{"request": "b", "tolerations": [{"key": "k", "operator": "Equal"}]}]}
            }
        },
    }
    assert claim == given


def test_a_template_defaults_the_requests_of_its_claim_spec() -> None:
    template = {
        "kind": "ResourceClaimTemplate",
        "spec": {
            "metadata": {"labels": {"a": "b"}},
            "spec": {"devices": {"requests": [{"deviceClassName": "c"}]}},
        },
    }
    given = copy.deepcopy(template)
    assert defaulted_claim_template(template) == {
        "kind": "ResourceClaimTemplate",
        "spec": {
            "metadata": {"labels": {"a": "b"}},
            "spec": {"devices": {"requests": [{"deviceClassName": "c", **EXACT_ONE}]}},
        },
    }
    assert template == given


@pytest.mark.parametrize(
    "value",
    [None, "x", {}, {"devices": None}, {"devices": {"requests": None}}, {"devices": {"constraints": []}}],
)
def test_a_spec_without_a_list_of_requests_is_returned_as_it_is(value: Any) -> None:
    assert defaulted_claim_spec(value) is value


@pytest.mark.parametrize("value", ["x", {"spec": None}, {"spec": {"metadata": {}}}, {}])
def test_a_template_without_a_claim_spec_is_returned_as_it_is(value: Any) -> None:
    template = {"kind": "ResourceClaimTemplate", "spec": value}
    assert defaulted_claim_template(template) == template
