"""The v1 defaulters (`pkg/apis/resource/v1/defaults.go`, the `+default` tags), run before the v1
rules: an empty allocation mode, an ExactCount request's missing count and a toleration's empty
operator are filled in; nothing else changes, and nothing given is changed."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from webhook.rules.v1.defaults import defaulted_claim_spec, defaulted_claim_status, defaulted_device_request


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        ({}, {"allocationMode": "ExactCount", "count": 1}),
        ({"allocationMode": ""}, {"allocationMode": "ExactCount", "count": 1}),
        ({"allocationMode": "ExactCount", "count": 0}, {"allocationMode": "ExactCount", "count": 1}),
        ({"allocationMode": "ExactCount", "count": 2}, {"allocationMode": "ExactCount", "count": 2}),
        ({"allocationMode": "All"}, {"allocationMode": "All"}),
        ({"allocationMode": "All", "count": 0}, {"allocationMode": "All", "count": 0}),
        # Only a count Go decodes as an int64 0 is the zero value.
        ({"count": 0.0}, {"allocationMode": "ExactCount", "count": 0.0}),
        ({"count": False}, {"allocationMode": "ExactCount", "count": False}),
        (
            {
                "allocationMode": "All",
                "tolerations": [{"key": "k"}, {"operator": ""}, {"operator": "Exists"}, "x"],
            },
            {
                "allocationMode": "All",
                "tolerations": [
                    {"key": "k", "operator": "Equal"},
                    {"operator": "Equal"},
                    {"operator": "Exists"},
                    "x",
                ],
            },
        ),
        ("not an object", "not an object"),
    ],
)
def test_a_device_request_is_defaulted(request_: Any, expected: Any) -> None:
    given = copy.deepcopy(request_)
    assert defaulted_device_request(request_) == expected
    assert request_ == given


def test_a_claim_spec_defaults_exact_requests_and_subrequests_and_changes_nothing_given() -> None:
    spec = {
        "devices": {
            "requests": [
                {"name": "a", "exactly": {"deviceClassName": "gpu"}},
                {"name": "b", "firstAvailable": [{"name": "s", "allocationMode": "All"}, {"name": "t"}]},
                "x",
            ],
            "constraints": [{"requests": ["a"]}],
        }
    }
    given = copy.deepcopy(spec)
    assert defaulted_claim_spec(spec) == {
        "devices": {
            "requests": [
                {
                    "name": "a",
                    "exactly": {"deviceClassName": "gpu", "allocationMode": "ExactCount", "count": 1},
                },
                {
                    "name": "b",
                    "firstAvailable": [
                        {"name": "s", "allocationMode": "All"},
                        {"name": "t", "allocationMode": "ExactCount", "count": 1},
                    ],
                },
                "x",
            ],
            "constraints": [{"requests": ["a"]}],
        }
    }
    assert spec == given


def test_a_claim_status_defaults_its_results_tolerations_and_changes_nothing_given() -> None:
    status = {
        "allocation": {
            "devices": {"results": [{"device": "d", "tolerations": [{"key": "k"}]}, {"device": "e"}, "x"]}
        }
    }
    given = copy.deepcopy(status)
    assert defaulted_claim_status(status) == {
        "allocation": {
            "devices": {
                "results": [
                    {"device": "d", "tolerations": [{"key": "k", "operator": "Equal"}]},
                    {"device": "e"},
                    "x",
                ]
            }
        }
    }
    assert status == given


@pytest.mark.parametrize("value", [None, "x", {}, {"devices": None}, {"devices": {"requests": "x"}}])
def test_a_spec_without_a_list_of_requests_is_left_as_it_is(value: Any) -> None:
    assert defaulted_claim_spec(value) is value
