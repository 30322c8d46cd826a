"""Device taints in resource.k8s.io/v1 (1.37): the hand-written `validateDeviceTaint` that checks the
taints of a ResourceSlice's devices and the one taint of a DeviceTaintRule alike
(`pkg/apis/resource/validation/validation.go` at ae5d4d35). Its declarative twin, `Validate_DeviceTaint`
(the effect: `+k8s:beta=+k8s:required`, `+k8s:beta=+k8s:enum`), is in `webhook.rules.v1.declared`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from webhook.field import (
    ErrorList,
    FieldPath,
    covered_by_declarative,
    go_json_value,
    invalid,
    not_supported,
    required,
)
from webhook.rules.names import is_qualified_name, is_valid_label_value
from webhook.rules.v1 import RELEASE
from webhook.rules.v1.devices import TAINT_EFFECTS
from webhook.rules.values import text


def validate_label_value(value: str, path: FieldPath) -> ErrorList:
    """validation.go `validateLabelValue`: one Invalid per message of `IsValidLabelValue`."""
    return [invalid(path, value, msg) for msg in is_valid_label_value(value, release=RELEASE)]


def validate_device_taint(
    taint: Mapping[str, Any], old_taint: Mapping[str, Any] | None, path: FieldPath
) -> ErrorList:
    """`validateDeviceTaint`: the key is a label name (an empty one too), a non-empty value a label
    value; the effect (covered) only when there is no old taint or it changed."""
    key = text(taint.get("key"))
    errs = [invalid(path.child("key"), key, msg) for msg in is_qualified_name(key, release=RELEASE)]
    value = text(taint.get("value"))
    if value:
        errs += validate_label_value(value, path.child("value"))
    effect = text(taint.get("effect"))
    if old_taint is None or text(old_taint.get("effect")) != effect:
        effect_path = path.child("effect")
        if not effect:
            errs += covered_by_declarative([required(effect_path, "")])
        elif effect not in TAINT_EFFECTS:
            # A DeviceTaintEffect, a named string type: printed by json.Marshal.
            errs += covered_by_declarative([not_supported(effect_path, go_json_value(effect), TAINT_EFFECTS)])
    return errs
