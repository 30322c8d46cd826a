"""DeviceTaintRule (resource.k8s.io/v1, cluster-scoped, with a `status` subresource) as kube-apiserver
1.37 validates it. 1.37 serves it as v1 (new in 1.37), v1beta2 and v1alpha3, all of one shape; the
v1alpha3 package registers these rules under its own apiVersion.

Hand-written (`pkg/apis/resource/validation/validation.go` at ae5d4d35): `ValidateDeviceTaintRule` --
the metadata, then the selector's driver, pool and device where set, then the taint (its effect only
when new or changed); `ValidateDeviceTaintRuleUpdate` -- ObjectMetaUpdate and the same spec checks
against the old spec; `ValidateDeviceTaintRuleStatusUpdate` -- ObjectMetaUpdate, the status conditions
(metav1 `ValidateConditions`) and at most 8 of them.

Declarative: `Validate_DeviceTaintRule` (`webhook.rules.v1.declared`): the taint's effect (beta); the
status conditions' tags are alpha, never enforced. The strategy embeds `rest.DeclarativeValidation`,
so updates begin with `rest.validateCommonFields` (`webhook.rules.v1.lifecycle`).

What the strategy resets is not looked at: the status on create and on an update of the rule (it keeps
the old one), the spec on a status update.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from webhook.field import ROOT, ErrorList, FieldPath, too_many_items
from webhook.rules import meta
from webhook.rules.kinds import KindRules, Obj
from webhook.rules.v1 import RELEASE, declared, resource_v1
from webhook.rules.v1.allocation import validate_conditions
from webhook.rules.v1.devicetaints import validate_device_taint
from webhook.rules.v1.lifecycle import created_meta_errors, merge_validations, updated_with_common_fields
from webhook.rules.v1.names import validate_device_name, validate_driver_name, validate_pool_name
from webhook.rules.values import mapping, optional_mapping, sequence, text

# resource.DeviceTaintRuleStatusMaxConditions.
DEVICE_TAINT_RULE_STATUS_MAX_CONDITIONS: Final = 8

_SPEC = ROOT.child("spec")
_STATUS = ROOT.child("status")


def validate_device_taint_rule(rule: Obj) -> ErrorList:
    """Create: `ValidateDeviceTaintRule` merged with `Validate_DeviceTaintRule`."""
    handwritten = meta.validate_object_meta(rule.get("metadata"), namespaced=False, release=RELEASE)
    handwritten += _validate_spec(mapping(rule.get("spec")), None, _SPEC)
    if not handwritten:
        handwritten = created_meta_errors(rule.get("metadata"), namespaced=False)
    return merge_validations(handwritten, declared.validate_device_taint_rule(rule, None))


def validate_device_taint_rule_update(new: Obj, old: Obj) -> ErrorList:
    """Update: `rest.validateCommonFields`, then `ValidateDeviceTaintRuleUpdate`, merged with
    `Validate_DeviceTaintRule(new, old)`."""
    handwritten = updated_with_common_fields(new.get("metadata"), old.get("metadata"), namespaced=False)
    handwritten += meta.validate_object_meta_update(new.get("metadata"), old.get("metadata"), release=RELEASE)
    handwritten += _validate_spec(mapping(new.get("spec")), mapping(old.get("spec")), _SPEC)
    return merge_validations(handwritten, declared.validate_device_taint_rule(new, old))


def validate_device_taint_rule_status_update(new: Obj, old: Obj) -> ErrorList:
    """Status: `rest.validateCommonFields`, then `ValidateDeviceTaintRuleStatusUpdate`. The spec is the
    old one and the conditions' declarative checks are alpha: declarative validation adds nothing."""
    handwritten = updated_with_common_fields(new.get("metadata"), old.get("metadata"), namespaced=False)
    handwritten += meta.validate_object_meta_update(new.get("metadata"), old.get("metadata"), release=RELEASE)
    conditions = sequence(mapping(new.get("status")).get("conditions"))
    conditions_path = _STATUS.child("conditions")
    handwritten += validate_conditions(conditions, conditions_path)
    if len(conditions) > DEVICE_TAINT_RULE_STATUS_MAX_CONDITIONS:
        handwritten.append(
            too_many_items(conditions_path, len(conditions), DEVICE_TAINT_RULE_STATUS_MAX_CONDITIONS)
        )
    return merge_validations(handwritten, [])


def _validate_spec(spec: Mapping[str, Any], old_spec: Mapping[str, Any] | None, path: FieldPath) -> ErrorList:
    """`validateDeviceTaintRuleSpec`."""
    errs: ErrorList = []
    selector = optional_mapping(spec.get("deviceSelector"))
    if selector is not None:
        selector_path = path.child("deviceSelector")
        if selector.get("driver") is not None:
            errs += validate_driver_name(text(selector.get("driver")), selector_path.child("driver"))
        if selector.get("pool") is not None:
            errs += validate_pool_name(text(selector.get("pool")), selector_path.child("pool"))
        if selector.get("device") is not None:
            errs += validate_device_name(text(selector.get("device")), selector_path.child("device"))
    old_taint = mapping(old_spec.get("taint")) if old_spec is not None else None
    errs += validate_device_taint(mapping(spec.get("taint")), old_taint, path.child("taint"))
    return errs


DEVICE_TAINT_RULE: Final[KindRules] = KindRules(
    gvk=resource_v1("DeviceTaintRule"),
    resource="devicetaintrules",
    namespaced=False,
    validate_create=validate_device_taint_rule,
    validate_update=validate_device_taint_rule_update,
    validate_status_update=validate_device_taint_rule_status_update,
)
