"""ResourceSlice: the rows of 1.30's validation_resourceslice_test.go plus the edges of the Go code."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.rules.expected import BAD, MODEL_REQUIRED_MSG, SUBDOMAIN_MSG, Row, rendered
from tests.rules.objectmeta_rows import object_meta_cases
from webhook.field import ErrorType, FieldError
from webhook.rules.v1alpha2.resourceslice import (
    RESOURCE_SLICE,
    validate_resource_slice,
    validate_resource_slice_update,
)

GOOD = "foo"
DRIVER = "test.example.com"
MODEL_REQUIRED = f"<nil>: Required value: {MODEL_REQUIRED_MSG}"


def resource_slice(
    name: str = GOOD, node_name: str = GOOD, driver_name: str = DRIVER, **metadata: Any
) -> dict[str, Any]:
    """`testResourceSlice`: an empty namedResources model."""
    return {
        "apiVersion": "resource.k8s.io/v1alpha2",
        "kind": "ResourceSlice",
        "metadata": {"name": name, **metadata},
        "nodeName": node_name,
        "driverName": driver_name,
        "namedResources": {},
    }


def without(obj: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {key: value for key, value in obj.items() if key not in keys}


CREATE_CASES: list[tuple[str, dict[str, Any], list[Row]]] = [
    ("good", resource_slice(), []),
    *object_meta_cases(resource_slice(), namespaced=False, generate_name="prefix-"),
    (
        "bad-nodename",
        resource_slice(node_name=BAD),
        [(ErrorType.INVALID, "nodeName", f'nodeName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}')],
    ),
    ("empty-nodename-is-not-checked", resource_slice(node_name=""), []),
    ("absent-nodename-is-not-checked", without(resource_slice(), "nodeName"), []),
    (
        "bad-drivername",
        resource_slice(driver_name=BAD),
        [(ErrorType.INVALID, "driverName", f'driverName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}')],
    ),
    (
        "missing-drivername",
        without(resource_slice(), "driverName"),
        [
            (ErrorType.REQUIRED, "driverName", "driverName: Required value"),
            (ErrorType.INVALID, "driverName", f'driverName: Invalid value: "": {SUBDOMAIN_MSG}'),
        ],
    ),
    (
        "empty-model",
        without(resource_slice(), "namedResources"),
        [(ErrorType.REQUIRED, "<nil>", MODEL_REQUIRED)],
    ),
    (
        "null-model",
        {**resource_slice(), "namedResources": None},
        [(ErrorType.REQUIRED, "<nil>", MODEL_REQUIRED)],
    ),
    (
        "instances",
        {
            **resource_slice(),
            "namedResources": {
                "instances": [
                    {
                        "name": "gpu-0",
                        "attributes": [
                            {"name": "memory", "quantity": "16Gi"},
                            {"name": "model", "string": "a100"},
                        ],
                    },
                    {"name": "gpu-1", "attributes": [{"name": "driver-version", "version": "1.2.3-rc.1"}]},
                ]
            },
        },
        [],
    ),
    (
        "bad-instance-name",
        {**resource_slice(), "namedResources": {"instances": [{"name": BAD}]}},
        [
            (
                ErrorType.INVALID,
                "namedResources.instances[0].name",
                f'namedResources.instances[0].name: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
            )
        ],
    ),
    (
        "several-values",
        {
            **resource_slice(),
            "namedResources": {
                "instances": [{"name": "a", "attributes": [{"name": "b", "int": 1, "bool": True}]}]
            },
        },
        [
            (
                ErrorType.INVALID,
                "namedResources.instances[0].attributes[0]",
                'namedResources.instances[0].attributes[0]: Invalid value: []string{"bool", "int"}: '
                "exactly one field must be set, not several",
            )
        ],
    ),
    (
        "every-check-in-order",
        {"metadata": {"name": BAD}, "nodeName": BAD, "driverName": ""},
        [
            (ErrorType.INVALID, "metadata.name", f'metadata.name: Invalid value: "{BAD}": {SUBDOMAIN_MSG}'),
            (ErrorType.INVALID, "nodeName", f'nodeName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}'),
            (ErrorType.REQUIRED, "driverName", "driverName: Required value"),
            (ErrorType.INVALID, "driverName", f'driverName: Invalid value: "": {SUBDOMAIN_MSG}'),
            (ErrorType.REQUIRED, "<nil>", MODEL_REQUIRED),
        ],
    ),
]


@pytest.mark.parametrize(("obj", "expected"), [c[1:] for c in CREATE_CASES], ids=[c[0] for c in CREATE_CASES])
def test_create(obj: dict[str, Any], expected: list[Row]) -> None:
    assert rendered(validate_resource_slice(obj)) == expected
    assert rendered(RESOURCE_SLICE.validate_create(obj)) == expected


def valid_old() -> dict[str, Any]:
    return resource_slice("valid", "valid", "valid", resourceVersion="1")


def updated(**changes: Any) -> dict[str, Any]:
    new = copy.deepcopy(valid_old())
    new.update(changes)
    return new


UPDATE_CASES: list[tuple[str, dict[str, Any], list[Row]]] = [
    ("valid-no-op-update", valid_old(), []),
    (
        "invalid-name-update",
        updated(metadata={"name": "valid-update", "resourceVersion": "1"}),
        [
            (
                ErrorType.INVALID,
                "metadata.name",
                'metadata.name: Invalid value: "valid-update": field is immutable',
            )
        ],
    ),
    (
        "invalid-update-nodename",
        updated(nodeName="valid-updated"),
        [(ErrorType.INVALID, "nodeName", 'nodeName: Invalid value: "valid-updated": field is immutable')],
    ),
    (
        "invalid-update-drivername",
        updated(driverName="valid-updated"),
        [(ErrorType.INVALID, "driverName", 'driverName: Invalid value: "valid-updated": field is immutable')],
    ),
    (
        "clearing-nodename-is-a-change",
        without(valid_old(), "nodeName"),
        [(ErrorType.INVALID, "nodeName", 'nodeName: Invalid value: "": field is immutable')],
    ),
    ("instances-may-change", updated(namedResources={"instances": [{"name": "gpu-0"}]}), []),
    (
        "create-checks-before-immutability",
        updated(nodeName=BAD, namedResources=None),
        [
            (ErrorType.INVALID, "nodeName", f'nodeName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}'),
            (ErrorType.REQUIRED, "<nil>", MODEL_REQUIRED),
            (ErrorType.INVALID, "nodeName", f'nodeName: Invalid value: "{BAD}": field is immutable'),
        ],
    ),
]


@pytest.mark.parametrize(("new", "expected"), [c[1:] for c in UPDATE_CASES], ids=[c[0] for c in UPDATE_CASES])
def test_update(new: dict[str, Any], expected: list[Row]) -> None:
    assert rendered(validate_resource_slice_update(new, valid_old())) == expected
    # resourceslice/strategy.go runs ValidateResourceSliceUpdate alone: no doubled create errors.
    assert rendered(RESOURCE_SLICE.validate_update(new, valid_old())) == expected


def test_kind_rules() -> None:
    assert RESOURCE_SLICE.resource == "resourceslices"
    assert not RESOURCE_SLICE.namespaced
    assert RESOURCE_SLICE.subresources == ()


MALFORMED: list[dict[str, Any]] = [
    {},
    {"metadata": None, "nodeName": None, "driverName": None, "namedResources": None},
    {"metadata": 1, "nodeName": 5, "driverName": ["x"], "namedResources": "x"},
    {"namedResources": {"instances": {"name": "x"}}},
    {"namedResources": {"instances": [None, {"name": None, "attributes": [None, {"version": 1.5}]}]}},
]


@pytest.mark.parametrize("obj", MALFORMED)
def test_malformed_objects_never_raise(obj: dict[str, Any]) -> None:
    for errs in (
        validate_resource_slice(obj),
        RESOURCE_SLICE.validate_update(obj, obj),
        RESOURCE_SLICE.validate_update(obj, {}),
    ):
        assert all(isinstance(err, FieldError) for err in errs)
