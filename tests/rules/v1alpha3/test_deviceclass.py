"""DeviceClass (v1alpha3, Kubernetes 1.31): selectors, configuration, and suitable nodes reported at
1.31's path, `suitableNodes` without `spec.`."""

from __future__ import annotations

from typing import Any

import pytest

from webhook.rules.v1alpha3.deviceclass import (
    DEVICE_CLASS,
    validate_device_class,
    validate_device_class_update,
)


def device_class(**spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1alpha3",
        "kind": "DeviceClass",
        "metadata": {"name": "gpu.example.com", "resourceVersion": "1"},
        "spec": spec,
    }


SELECTOR = {"cel": {"expression": 'device.driver == "gpu.example.com"'}}
OPAQUE = {"opaque": {"driver": "gpu.example.com", "parameters": {"sharing": "time-slicing"}}}

ROWS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("an empty class", device_class(), []),
    ("selectors and configuration", device_class(selectors=[SELECTOR], config=[OPAQUE]), []),
    ("a selector needs cel", device_class(selectors=[{}]), ["spec.selectors[0].cel: Required value"]),
    (
        "at most 32 selectors",
        device_class(selectors=[SELECTOR] * 33),
        ["spec.selectors: Too long: may not be longer than 32"],
    ),
    ("a configuration needs opaque", device_class(config=[{}]), ["spec.config[0].opaque: Required value"]),
    (
        "at most 32 configurations",
        device_class(config=[OPAQUE] * 33),
        ["spec.config: Too long: may not be longer than 32"],
    ),
    (
        "suitable nodes are reported without spec.",
        device_class(suitableNodes={}),
        ["suitableNodes.nodeSelectorTerms: Required value: must have at least one node selector term"],
    ),
    ("null suitable nodes are not checked", device_class(suitableNodes=None), []),
    (
        "a class is cluster-scoped",
        {**device_class(), "metadata": {"name": "gpu", "namespace": "ns"}},
        ["metadata.namespace: Forbidden: not allowed on this type"],
    ),
]


@pytest.mark.parametrize(("obj", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_create(obj: dict[str, Any], expected: list[str]) -> None:
    assert [str(err) for err in validate_device_class(obj)] == expected
    assert [str(err) for err in DEVICE_CLASS.validate_create(obj)] == expected


def test_nothing_in_the_spec_is_immutable() -> None:
    assert (
        validate_device_class_update(device_class(selectors=[SELECTOR], config=[OPAQUE]), device_class())
        == []
    )


def test_an_update_checks_the_new_spec_once() -> None:
    errs = validate_device_class_update(device_class(config=[{}]), device_class())
    assert [str(err) for err in errs] == ["spec.config[0].opaque: Required value"]


def test_a_class_has_no_status_and_no_namespace() -> None:
    assert (DEVICE_CLASS.namespaced, DEVICE_CLASS.subresources, DEVICE_CLASS.resource) == (
        False,
        (),
        "deviceclasses",
    )


# `format` arrived in 1.31's CEL libraries for stored expressions only: a new selector may not use it,
# one the API server already holds may (validateDeviceClassSpec compiles selectors exactly as before
# in the StoredExpressions environment; any change, even a reordering, makes them new).
STORED_ONLY = {"cel": {"expression": 'format.dns1123Label().validate("a").hasValue()'}}


def test_a_new_selector_may_not_use_a_library_of_stored_expressions_only() -> None:
    (error,) = validate_device_class(device_class(selectors=[STORED_ONLY]))
    assert error.field == "spec.selectors[0].cel.expression"
    assert "undeclared reference to 'format'" in error.detail


def test_an_unchanged_selector_is_compiled_as_a_stored_expression_on_update() -> None:
    old = device_class(selectors=[STORED_ONLY])
    new = {**device_class(selectors=[STORED_ONLY]), "metadata": {**old["metadata"], "labels": {"a": "b"}}}
    # The strategy's create pass (new expressions) still reports it, once.
    assert [error.field for error in validate_device_class_update(new, old)] == [
        "spec.selectors[0].cel.expression"
    ]


def test_a_changed_selector_list_is_compiled_as_new_expressions_on_update() -> None:
    old = device_class(selectors=[STORED_ONLY])
    new = device_class(selectors=[SELECTOR, STORED_ONLY])
    assert [error.field for error in validate_device_class_update(new, old)] == [
        "spec.selectors[1].cel.expression"
    ]
