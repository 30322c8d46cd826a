"""ResourceClaimTemplate: 1.30's ValidateClaimTemplate / ValidateClaimTemplateUpdate and the registry strategy."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from tests.rules.expected import (
    ALLOCATION_MODES_MSG,
    BAD,
    LABEL_VALUE_MSG,
    SUBDOMAIN_MSG,
    ReasonRow,
    Row,
    rendered,
    rendered_reasons,
)
from tests.rules.objectmeta_rows import object_meta_cases
from webhook.field import aggregate_message
from webhook.rules.v1alpha2.resourceclaimtemplate import (
    RESOURCE_CLAIM_TEMPLATE,
    validate_claim_template,
    validate_claim_template_update,
)

Mutation = Callable[[dict[str, Any]], None]


def template(metadata: dict[str, Any] | None = None, **claim_spec: Any) -> dict[str, Any]:
    """`testClaimTemplate("foo", "ns", spec)`, resourceVersion "1" for updates."""
    spec: dict[str, Any] = {
        "spec": {"resourceClassName": "valid", "allocationMode": "WaitForFirstConsumer", **claim_spec}
    }
    if metadata is not None:
        spec["metadata"] = metadata
    return {
        "apiVersion": "resource.k8s.io/v1alpha2",
        "kind": "ResourceClaimTemplate",
        "metadata": {"name": "foo", "namespace": "ns", "resourceVersion": "1"},
        "spec": spec,
    }


CREATE_ROWS: list[tuple[str, dict[str, Any], list[ReasonRow]]] = [
    ("good template", template(), []),
    (
        "labels and annotations may be set in spec.metadata",
        template({"labels": {"a": "b"}, "annotations": {"c": "d"}}),
        [],
    ),
    ("an empty spec.metadata", template({}), []),
    (
        "spec.metadata.name cannot be set",
        template({"name": "claim"}),
        [("FieldValueForbidden", "spec.metadata.name: Forbidden: cannot be set")],
    ),
    (
        "spec.metadata.namespace cannot be set",
        template({"namespace": "ns"}),
        [("FieldValueForbidden", "spec.metadata.namespace: Forbidden: cannot be set")],
    ),
    (
        "spec.metadata labels are label values",
        template({"labels": {"a": "spaces not allowed"}}),
        [
            (
                "FieldValueInvalid",
                f'spec.metadata.labels: Invalid value: "spaces not allowed": {LABEL_VALUE_MSG}',
            )
        ],
    ),
    (
        "name is required",
        {**template(), "metadata": {"namespace": "ns"}},
        [("FieldValueRequired", "metadata.name: Required value: name or generateName is required")],
    ),
    (
        "namespace is required",
        {**template(), "metadata": {"name": "foo"}},
        [("FieldValueRequired", "metadata.namespace: Required value")],
    ),
    (
        "the claim's class name is a DNS subdomain",
        template(resourceClassName=BAD),
        [("FieldValueInvalid", f'spec.spec.resourceClassName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}')],
    ),
    (
        "the claim's parameters need kind and name",
        template(parametersRef={}),
        [
            ("FieldValueRequired", "spec.spec.parametersRef.kind: Required value"),
            ("FieldValueRequired", "spec.spec.parametersRef.name: Required value"),
        ],
    ),
    (
        "the claim's allocation mode must be supported",
        template(allocationMode="Later"),
        [
            (
                "FieldValueNotSupported",
                f'spec.spec.allocationMode: Unsupported value: "Later": {ALLOCATION_MODES_MSG}',
            )
        ],
    ),
    (
        "an absent allocation mode is defaulted",
        {**template(), "spec": {"spec": {"resourceClassName": "x"}}},
        [],
    ),
    (
        "an absent claim spec still needs a class name",
        {**template(), "spec": {}},
        [("FieldValueInvalid", f'spec.spec.resourceClassName: Invalid value: "": {SUBDOMAIN_MSG}')],
    ),
    (
        "template metadata is checked before the claim spec",
        template({"generateName": "x-"}, resourceClassName=""),
        [
            ("FieldValueForbidden", "spec.metadata.generateName: Forbidden: cannot be set"),
            ("FieldValueInvalid", f'spec.spec.resourceClassName: Invalid value: "": {SUBDOMAIN_MSG}'),
        ],
    ),
]


@pytest.mark.parametrize(
    ("obj", "expected"), [row[1:] for row in CREATE_ROWS], ids=[r[0] for r in CREATE_ROWS]
)
def test_create(obj: dict[str, Any], expected: list[ReasonRow]) -> None:
    assert rendered_reasons(validate_claim_template(obj)) == expected
    assert rendered_reasons(RESOURCE_CLAIM_TEMPLATE.validate_create(obj)) == expected


OBJECT_META_CASES = object_meta_cases(template(), namespaced=True)


@pytest.mark.parametrize(
    ("obj", "expected"), [c[1:] for c in OBJECT_META_CASES], ids=[c[0] for c in OBJECT_META_CASES]
)
def test_create_object_meta(obj: dict[str, Any], expected: list[Row]) -> None:
    # The ObjectMeta rows of the Go table, with the field as well as the full text.
    assert rendered(validate_claim_template(obj)) == expected


def change(*path: str, value: Any) -> Mutation:
    def mutate(obj: dict[str, Any]) -> None:
        target = obj
        for key in path[:-1]:
            target = target.setdefault(key, {})
        target[path[-1]] = value

    return mutate


UPDATE_ROWS: list[tuple[str, dict[str, Any], Mutation, list[ReasonRow]]] = [
    ("no-op update", template(), lambda obj: None, []),
    (
        "the claim's class name is immutable",
        template(),
        change("spec", "spec", "resourceClassName", value="valid2"),
        [
            (
                "FieldValueInvalid",
                'spec: Invalid value: {"spec":{"resourceClassName":"valid2","allocationMode":'
                '"WaitForFirstConsumer"}}: field is immutable',
            )
        ],
    ),
    (
        "the template's labels are part of the immutable spec",
        template(),
        change("spec", "metadata", "labels", value={"a": "b"}),
        [
            (
                "FieldValueInvalid",
                'spec: Invalid value: {"spec":{"resourceClassName":"valid","allocationMode":'
                '"WaitForFirstConsumer"},"metadata":{"labels":{"a":"b"}}}: field is immutable',
            )
        ],
    ),
    ("an empty spec.metadata equals an absent one", template(), change("spec", "metadata", value={}), []),
    (
        "a null creationTimestamp in spec.metadata is the zero time",
        template({"creationTimestamp": None}),
        change("spec", "metadata", value={}),
        [],
    ),
    (
        "empty label maps equal absent ones",
        template({"labels": {}}),
        change("spec", "metadata", value=None),
        [],
    ),
    (
        "a dropped allocation mode is the default, not a change",
        template(),
        lambda obj: obj["spec"]["spec"].pop("allocationMode"),
        [],
    ),
    (
        "object metadata update rules run first",
        template(),
        change("metadata", "name", value="bar"),
        [("FieldValueInvalid", 'metadata.name: Invalid value: "bar": field is immutable')],
    ),
]


@pytest.mark.parametrize(
    ("old", "mutate", "expected"), [row[1:] for row in UPDATE_ROWS], ids=[r[0] for r in UPDATE_ROWS]
)
def test_update(old: dict[str, Any], mutate: Mutation, expected: list[ReasonRow]) -> None:
    old = copy.deepcopy(old)
    new = copy.deepcopy(old)
    mutate(new)
    assert rendered_reasons(validate_claim_template_update(new, old)) == expected


def test_update_reports_each_create_error_once() -> None:
    """ValidateClaimTemplateUpdate ends with ValidateClaimTemplate(new); the strategy's earlier run of it
    is not repeated in the causes."""
    old = template({"name": "claim"})
    new = copy.deepcopy(old)
    forbidden_name = ("FieldValueForbidden", "spec.metadata.name: Forbidden: cannot be set")
    errs = RESOURCE_CLAIM_TEMPLATE.validate_update(new, old)
    assert rendered_reasons(errs) == [forbidden_name]
    assert aggregate_message(errs) == forbidden_name[1]


@pytest.mark.parametrize("junk", [None, "x", 7, True, [], {}, [None], {"x": None}], ids=repr)
@pytest.mark.parametrize(
    "path",
    [
        ("metadata",),
        ("spec",),
        ("spec", "metadata"),
        ("spec", "spec"),
        ("spec", "spec", "parametersRef"),
        ("spec", "metadata", "labels"),
        ("spec", "spec", "allocationMode"),
    ],
    ids=".".join,
)
def test_malformed_input_never_raises(path: tuple[str, ...], junk: Any) -> None:
    good = template({"labels": {"a": "b"}}, parametersRef={"kind": "k", "name": "n"})
    bad = copy.deepcopy(good)
    target = bad
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = junk
    for new, old in ((bad, good), (good, bad), (bad, bad)):
        assert isinstance(validate_claim_template(new), list)
        assert isinstance(RESOURCE_CLAIM_TEMPLATE.validate_update(new, old), list)


def test_kind_rules() -> None:
    assert str(RESOURCE_CLAIM_TEMPLATE.gvk) == "resource.k8s.io/v1alpha2, Kind=ResourceClaimTemplate"
    assert RESOURCE_CLAIM_TEMPLATE.resource == "resourceclaimtemplates"
    assert RESOURCE_CLAIM_TEMPLATE.namespaced
    assert RESOURCE_CLAIM_TEMPLATE.subresources == ()
