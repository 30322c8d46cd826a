"""DeviceClass (v1, Kubernetes 1.37): selectors exactly as before an update are compiled as stored
expressions (`validateDeviceClassSpec`: "If the selectors are exactly as before, we treat the CEL
expressions as stored"); any change, even a reordering, makes them new ones."""

from __future__ import annotations

from typing import Any

from webhook.rules.v1.deviceclass import validate_device_class, validate_device_class_update

# List-typed attributes (DRAListTypeAttributes) are off in 1.37: `includes` is declared for stored
# expressions only.
STORED_ONLY = {"cel": {"expression": 'device.attributes["d.example.com"].name.includes("fish")'}}
PLAIN = {"cel": {"expression": 'device.driver == "gpu.example.com"'}}


def device_class(*selectors: dict[str, Any], labels: dict[str, str] | None = None) -> dict[str, Any]:
    metadata: dict[str, Any] = {"name": "gpu.example.com", "resourceVersion": "1"}
    if labels:
        metadata["labels"] = labels
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "DeviceClass",
        "metadata": metadata,
        "spec": {"selectors": list(selectors)},
    }


def fields(errors: list[Any]) -> list[str]:
    return [error.field for error in errors]


def test_a_new_selector_may_not_use_what_only_stored_expressions_have() -> None:
    assert fields(validate_device_class(device_class(STORED_ONLY))) == ["spec.selectors[0].cel.expression"]


def test_unchanged_selectors_are_compiled_as_stored_expressions() -> None:
    old = device_class(STORED_ONLY)
    assert validate_device_class_update(device_class(STORED_ONLY, labels={"a": "b"}), old) == []


def test_changed_selectors_are_compiled_as_new_expressions() -> None:
    old = device_class(STORED_ONLY)
    assert fields(validate_device_class_update(device_class(PLAIN, STORED_ONLY), old)) == [
        "spec.selectors[1].cel.expression"
    ]
