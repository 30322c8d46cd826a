"""The order of declarative errors where v1beta1's and v1beta2's tags run unlike v1's: a driver name's
maxLength and format checks (kubernetes/api v0.37.0-beta.0 types.go; `webhook.rules.declaredorder`)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from webhook.field import ErrorType, FieldError
from webhook.rules.declaredorder import sorted_runs
from webhook.rules.kinds import KindRules
from webhook.rules.v1.kinds import KINDS as V1_KINDS
from webhook.rules.v1beta1.kinds import KINDS as V1BETA1_KINDS
from webhook.rules.v1beta2.kinds import KINDS as V1BETA2_KINDS

KINDS: dict[str, dict[str, KindRules]] = {
    version: {kind.gvk.kind: kind for kind in kinds}
    for version, kinds in (("v1", V1_KINDS), ("v1beta1", V1BETA1_KINDS), ("v1beta2", V1BETA2_KINDS))
}
# Both bad: 64 characters, and no subdomain.
DRIVER = "_" + "a" * 63
INVALID_THEN_TOO_LONG = [ErrorType.INVALID, ErrorType.TOO_LONG]
TOO_LONG_THEN_INVALID = [ErrorType.TOO_LONG, ErrorType.INVALID]


def opaque() -> dict[str, Any]:
    return {"opaque": {"driver": DRIVER, "parameters": {}}}


def claim_spec(version: str) -> dict[str, Any]:
    request: dict[str, Any] = {"name": "foo", "deviceClassName": "foo"}
    if version != "v1beta1":
        request = {"name": "foo", "exactly": {"deviceClassName": "foo"}}
    return {"devices": {"requests": [request], "config": [{"requests": ["foo"], **opaque()}]}}


def claim(version: str) -> dict[str, Any]:
    return {
        "apiVersion": f"resource.k8s.io/{version}",
        "kind": "ResourceClaim",
        "metadata": {"name": "c", "namespace": "ns", "resourceVersion": "1", "uid": "u1"},
        "spec": claim_spec(version),
    }


def types_at(errors: list[FieldError], field: str) -> list[ErrorType]:
    return [error.type for error in errors if error.field == field]


@pytest.mark.parametrize(
    ("version", "expected"),
    [("v1", INVALID_THEN_TOO_LONG), ("v1beta1", TOO_LONG_THEN_INVALID), ("v1beta2", TOO_LONG_THEN_INVALID)],
)
def test_an_opaque_configurations_driver_is_checked_in_its_versions_tag_order(
    version: str, expected: list[ErrorType]
) -> None:
    kinds = KINDS[version]
    device_class = {
        "apiVersion": f"resource.k8s.io/{version}",
        "kind": "DeviceClass",
        "metadata": {"name": "x"},
        "spec": {"config": [opaque()]},
    }
    errors = kinds["DeviceClass"].validate_create(device_class)
    assert types_at(errors, "spec.config[0].opaque.driver") == expected
    errors = kinds["ResourceClaim"].validate_create(claim(version))
    assert types_at(errors, "spec.devices.config[0].opaque.driver") == expected
    template = {
        "apiVersion": f"resource.k8s.io/{version}",
        "kind": "ResourceClaimTemplate",
        "metadata": {"name": "t", "namespace": "ns"},
        "spec": {"spec": claim_spec(version)},
    }
    errors = kinds["ResourceClaimTemplate"].validate_create(template)
    assert types_at(errors, "spec.spec.devices.config[0].opaque.driver") == expected


@pytest.mark.parametrize(
    ("version", "config_order", "result_order"),
    [
        ("v1", INVALID_THEN_TOO_LONG, INVALID_THEN_TOO_LONG),
        # An allocation result's driver: `required` first, then format before maxLength in all three
        # (v1beta2 writes maxLength, required: the short-circuit still goes first).
        ("v1beta1", TOO_LONG_THEN_INVALID, INVALID_THEN_TOO_LONG),
        ("v1beta2", TOO_LONG_THEN_INVALID, INVALID_THEN_TOO_LONG),
    ],
)
def test_an_allocations_drivers_are_checked_in_its_versions_tag_order(
    version: str, config_order: list[ErrorType], result_order: list[ErrorType]
) -> None:
    old = claim(version)
    del old["spec"]["devices"]["config"]
    new = copy.deepcopy(old)
    result = {"request": "foo", "driver": DRIVER, "pool": "pool", "device": "dev"}
    config = {"source": "FromClaim", "requests": ["foo"], **opaque()}
    new["status"] = {"allocation": {"devices": {"results": [result], "config": [config]}}}
    status_update = KINDS[version]["ResourceClaim"].validate_status_update
    assert status_update is not None
    errors = status_update(new, old)
    assert types_at(errors, "status.allocation.devices.results[0].driver") == result_order
    assert types_at(errors, "status.allocation.devices.config[0].opaque.driver") == config_order


def test_only_runs_of_one_key_are_sorted() -> None:
    errors = [FieldError(ErrorType.INVALID, name) for name in ("a2", "a1", "x", "b2", "b1", "a3")]
    ordered = sorted_runs(
        errors, lambda error: error.field[0] if error.field != "x" else "", lambda e: int(e.field[1])
    )
    assert [error.field for error in ordered] == ["a1", "a2", "x", "b1", "b2", "a3"]
    assert sorted_runs([], lambda error: "k", lambda error: 0) == []
