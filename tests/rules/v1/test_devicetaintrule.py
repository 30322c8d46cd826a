"""DeviceTaintRule of resource.k8s.io/v1 as 1.37 judges it: the registry entry, the taint's effect on create
and update (hand-written and declarative), and the status subresource. The Go tables run end to end in
tests/corpus/v1."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.rules.expected import NAME_PART_MSG
from webhook.registry import REGISTRY
from webhook.rules.kinds import GroupVersionKind
from webhook.rules.v1.devicetaintrule import (
    DEVICE_TAINT_RULE,
    validate_device_taint_rule,
    validate_device_taint_rule_status_update,
    validate_device_taint_rule_update,
)

NOW = "2025-06-01T12:00:00Z"
EFFECTS = 'supported values: "NoExecute", "NoSchedule", "None"'


def rule(effect: str | None = "NoSchedule", **status: Any) -> dict[str, Any]:
    taint: dict[str, Any] = {"key": "example.com/taint", "value": "tainted"}
    if effect is not None:
        taint["effect"] = effect
    obj: dict[str, Any] = {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "DeviceTaintRule",
        "metadata": {"name": "rule", "resourceVersion": "1"},
        "spec": {
            "deviceSelector": {"driver": "gpu.example.com", "pool": "node-1", "device": "gpu-0"},
            "taint": taint,
        },
    }
    if status:
        obj["status"] = status
    return obj


def test_the_registry_entry() -> None:
    assert DEVICE_TAINT_RULE.gvk == GroupVersionKind("resource.k8s.io", "v1", "DeviceTaintRule")
    assert (DEVICE_TAINT_RULE.resource, DEVICE_TAINT_RULE.namespaced) == ("devicetaintrules", False)
    assert DEVICE_TAINT_RULE.subresources == ("status",)
    assert REGISTRY[DEVICE_TAINT_RULE.gvk] is DEVICE_TAINT_RULE


@pytest.mark.parametrize(
    ("effect", "expected"),
    [
        ("NoSchedule", []),
        ("NoExecute", []),
        ("None", []),
        (None, ["spec.taint.effect: Required value"]),
        ("Later", [f'spec.taint.effect: Unsupported value: "Later": {EFFECTS}']),
        # A DeviceTaintEffect prints as encoding/json writes it.
        ("<b>", [f'spec.taint.effect: Unsupported value: "\\u003cb\\u003e": {EFFECTS}']),
    ],
)
def test_the_effect_on_create(effect: str | None, expected: list[str]) -> None:
    # Hand-written and declarative validation both find a bad effect; the declarative error answers.
    assert [str(err) for err in validate_device_taint_rule(rule(effect))] == expected


@pytest.mark.parametrize(
    ("old_effect", "new_effect", "expected"),
    [
        ("Later", "Later", []),  # stored, unchanged: not validated again
        ("NoSchedule", "Later", [f'spec.taint.effect: Unsupported value: "Later": {EFFECTS}']),
        ("Later", "Sooner", [f'spec.taint.effect: Unsupported value: "Sooner": {EFFECTS}']),
        ("NoSchedule", None, ["spec.taint.effect: Required value"]),
    ],
)
def test_the_effect_on_update(old_effect: str, new_effect: str | None, expected: list[str]) -> None:
    old, new = rule(old_effect), rule(new_effect)
    new["metadata"]["labels"] = {"changed": "yes"}
    assert [str(err) for err in validate_device_taint_rule_update(new, old)] == expected


def test_a_stored_effect_survives_other_spec_changes() -> None:
    old = rule("Later")
    new = copy.deepcopy(old)
    new["spec"]["deviceSelector"]["pool"] = "node-2"
    assert validate_device_taint_rule_update(new, old) == []


def condition(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "status": "True", "reason": "Applied", "lastTransitionTime": NOW, **fields}


@pytest.mark.parametrize(
    ("conditions", "expected"),
    [
        ([condition("Ready")], []),
        ([condition(f"C{i}") for i in range(8)], []),
        (
            [condition(f"C{i}") for i in range(9)],
            ["status.conditions: Too many: 9: must have at most 8 items"],
        ),
        ([condition("Ready"), condition("Ready")], ['status.conditions[1]: Duplicate value: "Ready"']),
        ([condition("not ok")], [f'status.conditions[0].type: Invalid value: "not ok": {NAME_PART_MSG}']),
        (
            [{"type": "Ready", "status": "True", "reason": "Applied"}],
            ["status.conditions[0].lastTransitionTime: Required value"],
        ),
    ],
)
def test_status_conditions(conditions: list[dict[str, Any]], expected: list[str]) -> None:
    # The declarative checks of conditions are alpha in 1.37: the hand-written ones answer.
    new = rule(conditions=conditions)
    assert [str(err) for err in validate_device_taint_rule_status_update(new, rule())] == expected
