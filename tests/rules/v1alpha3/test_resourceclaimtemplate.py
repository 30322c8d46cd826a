"""ResourceClaimTemplate (v1alpha3, Kubernetes 1.31): the template metadata, the claim spec at
`spec.spec`, and the whole template spec immutable."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.rules.expected import BAD, SUBDOMAIN_MSG
from webhook.rules.v1alpha3.resourceclaimtemplate import (
    RESOURCE_CLAIM_TEMPLATE,
    validate_claim_template,
    validate_claim_template_update,
)


def template(metadata: dict[str, Any] | None = None, **request: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "spec": {"devices": {"requests": [{"name": "gpu", "deviceClassName": "gpu", **request}]}}
    }
    if metadata is not None:
        spec["metadata"] = metadata
    return {
        "apiVersion": "resource.k8s.io/v1alpha3",
        "kind": "ResourceClaimTemplate",
        "metadata": {"name": "template", "namespace": "ns", "resourceVersion": "1"},
        "spec": spec,
    }


CREATE_ROWS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("a template", template(), []),
    (
        "labels and annotations for the claims",
        template({"labels": {"a": "b"}, "annotations": {"c": "d"}}),
        [],
    ),
    ("no name for the claims", template({"name": "claim"}), ["spec.metadata.name: Forbidden: cannot be set"]),
    (
        "nor any other ObjectMeta field, in ObjectMeta's order",
        template({"generation": 1, "generateName": "x-"}),
        [
            "spec.metadata.generateName: Forbidden: cannot be set",
            "spec.metadata.generation: Forbidden: cannot be set",
        ],
    ),
    (
        "the claim spec is checked at spec.spec",
        template(deviceClassName=BAD),
        [f'spec.spec.devices.requests[0].deviceClassName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}'],
    ),
    ("requests are defaulted", template(allocationMode="", count=0), []),
]


@pytest.mark.parametrize(("obj", "expected"), [r[1:] for r in CREATE_ROWS], ids=[r[0] for r in CREATE_ROWS])
def test_create(obj: dict[str, Any], expected: list[str]) -> None:
    assert [str(err) for err in validate_claim_template(obj)] == expected
    assert [str(err) for err in RESOURCE_CLAIM_TEMPLATE.validate_create(obj)] == expected


def changed(obj: dict[str, Any], **metadata: Any) -> dict[str, Any]:
    new = copy.deepcopy(obj)
    new["spec"]["metadata"] = metadata
    return new


UPDATE_ROWS: list[tuple[str, dict[str, Any], dict[str, Any], list[tuple[str, str]]]] = [
    ("no change", template(), template(), []),
    ("the same spec, defaulted", template(allocationMode="ExactCount", count=1), template(), []),
    (
        "the template metadata is part of the spec",
        changed(template(), labels={"a": "b"}),
        template(),
        [("spec", "field is immutable")],
    ),
    (
        "a changed spec is also checked",
        template(count=-1),
        template(),
        [
            ("spec", "field is immutable"),
            ("spec.spec.devices.requests[0].count", "must be greater than zero"),
        ],
    ),
]


@pytest.mark.parametrize(
    ("new", "old", "expected"), [r[1:] for r in UPDATE_ROWS], ids=[r[0] for r in UPDATE_ROWS]
)
def test_update(new: dict[str, Any], old: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    assert [(err.field, err.detail) for err in validate_claim_template_update(new, old)] == expected


def test_a_template_has_no_status_subresource() -> None:
    assert RESOURCE_CLAIM_TEMPLATE.validate_status_update is None
    assert RESOURCE_CLAIM_TEMPLATE.subresources == ()
