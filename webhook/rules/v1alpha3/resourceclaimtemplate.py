"""ResourceClaimTemplate (resource.k8s.io/v1alpha3): create and update, as kube-apiserver 1.31.

Mirrors `ValidateResourceClaimTemplate` and `ValidateResourceClaimTemplateUpdate` of
`pkg/apis/resource/validation/validation.go` (1.31) and the registry strategy
(`pkg/registry/resource/resourceclaimtemplate/strategy.go`), whose `ValidateUpdate` runs
`ValidateResourceClaimTemplate(new)` and then `ValidateResourceClaimTemplateUpdate(new, old)`:
ObjectMetaUpdate, the whole spec (template metadata included) immutable, then the spec again (see
`strategy.py` for how the two passes are reported). The template has no status subresource.
"""

from __future__ import annotations

from typing import Any, Final

from webhook.field import ROOT, ErrorList, FieldPath, invalid
from webhook.rules import meta
from webhook.rules.equality import semantic_equal
from webhook.rules.kinds import KindRules, Obj
from webhook.rules.v1alpha3 import resource_v1alpha3
from webhook.rules.v1alpha3.defaults import defaulted_template_spec
from webhook.rules.v1alpha3.deviceclaim import validate_claim_spec
from webhook.rules.v1alpha3.shapes import RESOURCE_CLAIM_TEMPLATE_SPEC
from webhook.rules.v1alpha3.strategy import create_then_update
from webhook.rules.values import mapping

__all__ = ["RESOURCE_CLAIM_TEMPLATE", "validate_claim_template", "validate_claim_template_update"]

_SPEC = ROOT.child("spec")


def validate_claim_template_spec(spec: Any, path: FieldPath, *, stored: bool = False) -> ErrorList:
    """`validateResourceClaimTemplateSpec`: only labels and annotations in `metadata`, then the claim
    spec under `spec.spec` (its selectors compiled as stored expressions when `stored`)."""
    fields = mapping(spec)
    errs = meta.validate_template_object_meta(fields.get("metadata"), path.child("metadata"))
    errs += validate_claim_spec(fields.get("spec"), path.child("spec"), stored=stored)
    return errs


def validate_claim_template(template: Obj) -> ErrorList:
    """`ValidateResourceClaimTemplate`."""
    errs = meta.validate_object_meta(template.get("metadata"), namespaced=True)
    errs += validate_claim_template_spec(template.get("spec"), _SPEC)
    return errs


def validate_claim_template_update(new: Obj, old: Obj) -> ErrorList:
    """The strategy's `ValidateResourceClaimTemplate(new)` then `ValidateResourceClaimTemplateUpdate`."""
    errs = meta.validate_object_meta_update(new.get("metadata"), old.get("metadata"))
    new_spec, old_spec = defaulted_template_spec(new.get("spec")), defaulted_template_spec(old.get("spec"))
    if not semantic_equal(new_spec, old_spec, RESOURCE_CLAIM_TEMPLATE_SPEC):
        errs.append(invalid(_SPEC, new_spec, meta.FIELD_IMMUTABLE_MSG))
    errs += validate_claim_template_spec(new.get("spec"), _SPEC, stored=True)
    return create_then_update(validate_claim_template(new), errs)


RESOURCE_CLAIM_TEMPLATE: Final = KindRules(
    gvk=resource_v1alpha3("ResourceClaimTemplate"),
    resource="resourceclaimtemplates",
    namespaced=True,
    validate_create=validate_claim_template,
    validate_update=validate_claim_template_update,
)
