"""`webhook.review_manifest`: a manifest judged as the API server would send it, from Python."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from webhook import review_manifest
from webhook.offline.manifest_review import manifest_review_document
from webhook.registry import REGISTRY

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "v1"


def manifest(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((EXAMPLES / name).read_text())
    return loaded


def test_a_valid_manifest_is_allowed_as_a_create() -> None:
    assert review_manifest(manifest("claim.yaml")) == {"uid": "review-manifest", "allowed": True}


def test_the_review_is_a_create_in_the_default_namespace_unless_an_old_object_is_given() -> None:
    claim = manifest("claim.yaml")
    del claim["metadata"]["namespace"]
    created = manifest_review_document(claim, None, REGISTRY, uid="u")["request"]
    assert (created["operation"], created["namespace"], created["object"]["metadata"]["namespace"]) == (
        "CREATE",
        "default",
        "default",
    )
    updated = manifest_review_document(claim, claim, REGISTRY, uid="u", subresource="status")["request"]
    assert (updated["operation"], updated["subResource"]) == ("UPDATE", "status")


def test_the_callers_manifests_are_left_as_they_were() -> None:
    new, old = manifest("claim-moved.yaml"), manifest("claim-allocated.yaml")
    del new["metadata"]["uid"]
    new_before, old_before = copy.deepcopy(new), copy.deepcopy(old)
    review_manifest(new, old, subresource="status")
    assert (new, old) == (new_before, old_before)


def test_a_status_update_needs_the_old_object() -> None:
    with pytest.raises(ValueError, match="a status update needs the old object"):
        review_manifest(manifest("claim-allocated.yaml"), subresource="status")


def test_a_generated_name_is_filled_in_as_the_api_server_fills_it() -> None:
    claim = manifest("claim.yaml")
    claim["metadata"] = {"generateName": "gpu-"}
    claim["spec"]["devices"]["requests"][0]["exactly"]["allocationMode"] = "Sometimes"
    response = review_manifest(claim)
    assert response["allowed"] is False
    assert response["status"]["message"] == (
        'ResourceClaim.resource.k8s.io "gpu-xxxxx" is invalid: spec.devices.requests[0].exactly.allocationMode: '
        'Unsupported value: "Sometimes": supported values: "All", "ExactCount"'
    )


def test_an_old_manifest_makes_it_an_update_whose_spec_cannot_change() -> None:
    old = manifest("claim.yaml")
    new = copy.deepcopy(old)
    new["spec"]["devices"]["requests"][0]["exactly"]["count"] = 2
    response = review_manifest(new, old)
    assert response["allowed"] is False
    assert [(cause["field"], cause["reason"]) for cause in response["status"]["details"]["causes"]] == [
        ("spec", "FieldValueInvalid")
    ]


def test_a_status_update_cannot_change_an_allocation() -> None:
    response = review_manifest(
        manifest("claim-moved.yaml"), manifest("claim-allocated.yaml"), subresource="status"
    )
    assert response["allowed"] is False
    assert response["status"]["message"] == (
        'ResourceClaim.resource.k8s.io "gpu-claim" is invalid: status.allocation: Invalid value: null: '
        "field cannot be modified once set"
    )


def test_the_namespace_given_fills_a_manifest_that_names_none() -> None:
    claim = manifest("claim.yaml")
    del claim["metadata"]["namespace"]
    assert review_manifest(claim, namespace="team-a")["allowed"] is True
    response = review_manifest(claim, namespace="Team_A")
    assert response["allowed"] is False
    assert [cause["field"] for cause in response["status"]["details"]["causes"]] == ["metadata.namespace"]
