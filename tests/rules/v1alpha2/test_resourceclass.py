"""ResourceClass: the rows of 1.30's validation_resourceclass_test.go plus the edges of the Go code."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rules.expected import BAD, LABEL_MSG, SUBDOMAIN_MSG, Row, rendered
from tests.rules.objectmeta_rows import object_meta_cases, with_metadata
from webhook.field import ErrorType, FieldError, aggregate_message
from webhook.rules.v1alpha2.resourceclass import RESOURCE_CLASS, validate_class, validate_class_update

GOOD = "foo"
GOOD_PARAMETERS = {"name": "valid", "namespace": "valid", "kind": "foo"}


def resource_class(name: str = GOOD, driver_name: str = GOOD, **fields: Any) -> dict[str, Any]:
    """`testClass(name, driverName)` with extra top-level fields."""
    return {
        "apiVersion": "resource.k8s.io/v1alpha2",
        "kind": "ResourceClass",
        "metadata": {"name": name},
        "driverName": driver_name,
        **fields,
    }


CREATE_CASES: list[tuple[str, dict[str, Any], list[Row]]] = [
    ("good-class", resource_class(), []),
    ("good-long-driver-name", resource_class(driver_name="acme.example.com"), []),
    *object_meta_cases(resource_class(), namespaced=False),
    (
        "missing-driver-name",
        resource_class(driver_name=""),
        [
            (ErrorType.REQUIRED, "driverName", "driverName: Required value"),
            (ErrorType.INVALID, "driverName", f'driverName: Invalid value: "": {SUBDOMAIN_MSG}'),
        ],
    ),
    (
        "absent-driver-name",
        {"metadata": {"name": GOOD}},
        [
            (ErrorType.REQUIRED, "driverName", "driverName: Required value"),
            (ErrorType.INVALID, "driverName", f'driverName: Invalid value: "": {SUBDOMAIN_MSG}'),
        ],
    ),
    (
        "invalid-driver-name",
        resource_class(driver_name=BAD),
        [(ErrorType.INVALID, "driverName", f'driverName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}')],
    ),
    (
        "invalid-qualified-driver-name",
        resource_class(driver_name="foo/path"),
        [(ErrorType.INVALID, "driverName", f'driverName: Invalid value: "foo/path": {SUBDOMAIN_MSG}')],
    ),
    # ValidateCSIDriverName lower-cases before the DNS check.
    ("upper-case-driver-name", resource_class(driver_name="Acme.Example.COM"), []),
    (
        "too-long-driver-name",
        resource_class(driver_name="a" * 64),
        [(ErrorType.TOO_LONG, "driverName", "driverName: Too long: must have at most 63 bytes")],
    ),
    ("good-parameters", resource_class(parametersRef=GOOD_PARAMETERS), []),
    (
        "cluster-scoped-parameters",
        resource_class(parametersRef={"kind": "Foo", "name": "x", "apiGroup": "!!"}),
        [],
    ),
    (
        "missing-parameters-name",
        resource_class(parametersRef={**GOOD_PARAMETERS, "name": ""}),
        [(ErrorType.REQUIRED, "parametersRef.name", "parametersRef.name: Required value")],
    ),
    (
        "bad-parameters-namespace",
        resource_class(parametersRef={**GOOD_PARAMETERS, "namespace": BAD}),
        [
            (
                ErrorType.INVALID,
                "parametersRef.namespace",
                f'parametersRef.namespace: Invalid value: "{BAD}": {LABEL_MSG}',
            )
        ],
    ),
    (
        "dotted-parameters-namespace",
        resource_class(parametersRef={**GOOD_PARAMETERS, "namespace": "a.b"}),
        [
            (
                ErrorType.INVALID,
                "parametersRef.namespace",
                'parametersRef.namespace: Invalid value: "a.b": must not contain dots',
            )
        ],
    ),
    (
        "missing-parameters-kind",
        resource_class(parametersRef={**GOOD_PARAMETERS, "kind": ""}),
        [(ErrorType.REQUIRED, "parametersRef.kind", "parametersRef.kind: Required value")],
    ),
    (
        "empty-parameters",
        resource_class(parametersRef={}),
        [
            (ErrorType.REQUIRED, "parametersRef.kind", "parametersRef.kind: Required value"),
            (ErrorType.REQUIRED, "parametersRef.name", "parametersRef.name: Required value"),
        ],
    ),
    ("null-parameters", resource_class(parametersRef=None), []),
    (
        "invalid-node-selector",
        resource_class(suitableNodes={}),
        [
            (
                ErrorType.REQUIRED,
                "suitableNodes.nodeSelectorTerms",
                "suitableNodes.nodeSelectorTerms: Required value: must have at least one node selector term",
            )
        ],
    ),
    ("null-node-selector", resource_class(suitableNodes=None), []),
    (
        "good-node-selector",
        resource_class(
            suitableNodes={
                "nodeSelectorTerms": [
                    {"matchExpressions": [{"key": "gpu", "operator": "In", "values": ["a"]}]}
                ]
            }
        ),
        [],
    ),
    ("structured-parameters-is-not-validated", resource_class(structuredParameters=True), []),
    (
        "every-check-in-order",
        resource_class(name=BAD, driver_name="", parametersRef={"name": "p"}, suitableNodes={}),
        [
            (ErrorType.INVALID, "metadata.name", f'metadata.name: Invalid value: "{BAD}": {SUBDOMAIN_MSG}'),
            (ErrorType.REQUIRED, "driverName", "driverName: Required value"),
            (ErrorType.INVALID, "driverName", f'driverName: Invalid value: "": {SUBDOMAIN_MSG}'),
            (ErrorType.REQUIRED, "parametersRef.kind", "parametersRef.kind: Required value"),
            (
                ErrorType.REQUIRED,
                "suitableNodes.nodeSelectorTerms",
                "suitableNodes.nodeSelectorTerms: Required value: must have at least one node selector term",
            ),
        ],
    ),
]


@pytest.mark.parametrize(("obj", "expected"), [c[1:] for c in CREATE_CASES], ids=[c[0] for c in CREATE_CASES])
def test_create(obj: dict[str, Any], expected: list[Row]) -> None:
    assert rendered(validate_class(obj)) == expected
    assert rendered(RESOURCE_CLASS.validate_create(obj)) == expected


def valid_old() -> dict[str, Any]:
    return with_metadata(resource_class(driver_name="valid"), resourceVersion="1")


def updated(**changes: Any) -> dict[str, Any]:
    return {**valid_old(), **changes}


UPDATE_CASES: list[tuple[str, dict[str, Any], list[Row]]] = [
    ("valid-no-op-update", updated(), []),
    ("update-driver", updated(driverName="valid2"), []),
    (
        "name-is-immutable",
        with_metadata(valid_old(), name="foo-update"),
        [
            (
                ErrorType.INVALID,
                "metadata.name",
                'metadata.name: Invalid value: "foo-update": field is immutable',
            )
        ],
    ),
]


@pytest.mark.parametrize(("new", "expected"), [c[1:] for c in UPDATE_CASES], ids=[c[0] for c in UPDATE_CASES])
def test_update(new: dict[str, Any], expected: list[Row]) -> None:
    assert rendered(validate_class_update(new, valid_old())) == expected
    assert rendered(RESOURCE_CLASS.validate_update(new, valid_old())) == expected


def test_update_runs_the_create_validation_again() -> None:
    new = updated(driverName=BAD)
    assert rendered(validate_class_update(new, valid_old())) == [
        (ErrorType.INVALID, "driverName", f'driverName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}')
    ]


def test_update_reports_metadata_update_errors_then_create_errors_each_once() -> None:
    # ValidateClassUpdate: ObjectMetaUpdate, then ValidateClass(new).
    new = with_metadata(updated(driverName=BAD), name="other")
    driver_error = (ErrorType.INVALID, "driverName", f'driverName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}')
    name_error = (
        ErrorType.INVALID,
        "metadata.name",
        'metadata.name: Invalid value: "other": field is immutable',
    )
    errs = RESOURCE_CLASS.validate_update(new, valid_old())
    assert rendered(errs) == [name_error, driver_error]
    assert aggregate_message(errs) == f"[{name_error[2]}, {driver_error[2]}]"


def test_update_needs_a_resource_version() -> None:
    new = updated()
    del new["metadata"]["resourceVersion"]
    assert rendered(validate_class_update(new, valid_old())) == [
        (
            ErrorType.INVALID,
            "metadata.resourceVersion",
            'metadata.resourceVersion: Invalid value: "": must be specified for an update',
        )
    ]


def test_kind_rules() -> None:
    assert RESOURCE_CLASS.resource == "resourceclasses"
    assert not RESOURCE_CLASS.namespaced
    assert RESOURCE_CLASS.subresources == ()
    assert str(RESOURCE_CLASS.gvk) == "resource.k8s.io/v1alpha2, Kind=ResourceClass"


MALFORMED: list[dict[str, Any]] = [
    {},
    {"metadata": None, "driverName": None, "parametersRef": None, "suitableNodes": None},
    {"metadata": "x", "driverName": 5, "parametersRef": "x", "suitableNodes": []},
    {
        "metadata": {"name": 5},
        "parametersRef": {"kind": 1, "name": [], "namespace": {}},
        "suitableNodes": {"nodeSelectorTerms": "x"},
    },
    {
        "metadata": {"name": "a"},
        "driverName": "a",
        "suitableNodes": {"nodeSelectorTerms": [None, 1, {"matchExpressions": "x"}]},
    },
]


@pytest.mark.parametrize("obj", MALFORMED)
def test_malformed_objects_never_raise(obj: dict[str, Any]) -> None:
    for errs in (
        validate_class(obj),
        RESOURCE_CLASS.validate_update(obj, obj),
        RESOURCE_CLASS.validate_update(obj, {}),
    ):
        assert all(isinstance(err, FieldError) for err in errs)
