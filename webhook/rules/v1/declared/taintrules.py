"""`Validate_DeviceTaintRule` of 1.37's declarative validation: the spec's taint."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from webhook.field import ErrorList
from webhook.rules.v1 import shapes
from webhook.rules.v1.declared.common import (
    SPEC_PATH,
    Old,
    device_taint,
    unchanged,
)
from webhook.rules.values import mapping


def validate_device_taint_rule(new: Mapping[str, Any], old: Old) -> ErrorList:
    """`Validate_DeviceTaintRule`: the spec's taint (ObjectMeta's and the status conditions' tags are
    alpha)."""
    update = old is not None
    spec, old_spec = new.get("spec"), old.get("spec") if old is not None else None
    if unchanged(spec, old_spec, update, shapes.DEVICE_TAINT_RULE_SPEC):
        return []
    taint, old_taint = mapping(spec).get("taint"), mapping(old_spec).get("taint")
    if unchanged(taint, old_taint, update, shapes.DEVICE_TAINT):
        return []
    return device_taint(taint, old_taint if update else None, SPEC_PATH.child("taint"))
