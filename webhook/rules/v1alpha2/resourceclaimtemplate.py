"""ResourceClaimTemplate (resource.k8s.io/v1alpha2): create and update, as kube-apiserver 1.30.

Mirrors `ValidateClaimTemplate` and `ValidateClaimTemplateUpdate` of
`pkg/apis/resource/validation/validation.go` (1.30) and the registry strategy
(`pkg/registry/resource/resourceclaimtemplate/strategy.go`), whose `ValidateUpdate` runs
``ValidateClaimTemplate(new)`` and then ``ValidateClaimTemplateUpdate(new, old)`` -- which validates
the new object once more, so Go's causes list create errors twice (the message drops the repeat).
We report `ValidateClaimTemplateUpdate` alone, each error once, as the validation tests assert it.
The template has no status subresource.
"""

from __future__ import annotations

from typing import Any, Final

from webhook.field import ROOT, ErrorList, FieldPath, invalid
from webhook.rules import meta
from webhook.rules.equality import RESOURCE_CLAIM_TEMPLATE_SPEC, semantic_equal
from webhook.rules.kinds import KindRules, Obj
from webhook.rules.v1alpha2 import resource_v1alpha2
from webhook.rules.v1alpha2.resourceclaim import defaulted_claim_spec, validate_claim_spec
from webhook.rules.values import mapping

_SPEC = ROOT.child("spec")


def defaulted_template_spec(spec: Any) -> dict[str, Any]:
    """The template spec as the v1alpha2 defaulter leaves it (the claim spec's allocationMode)."""
    defaulted = dict(mapping(spec))
    defaulted["spec"] = defaulted_claim_spec(defaulted.get("spec"))
    return defaulted


def validate_claim_template_spec(spec: Any, path: FieldPath) -> ErrorList:
    """`validateResourceClaimTemplateSpec`: only labels and annotations in `metadata`, then the claim
    spec under `spec.spec`."""
    spec = mapping(spec)
    errs = meta.validate_template_object_meta(spec.get("metadata"), path.child("metadata"))
    errs += validate_claim_spec(spec.get("spec"), path.child("spec"))
    return errs


def validate_claim_template(template: Obj) -> ErrorList:
    """`ValidateClaimTemplate`."""
    errs = meta.validate_object_meta(template.get("metadata"), namespaced=True)
    errs += validate_claim_template_spec(template.get("spec"), _SPEC)
    return errs


def validate_claim_template_update(new: Obj, old: Obj) -> ErrorList:
    """`ValidateClaimTemplateUpdate`: ObjectMetaUpdate, the whole spec (template metadata included)
    immutable, then `ValidateClaimTemplate` again."""
    errs = meta.validate_object_meta_update(new.get("metadata"), old.get("metadata"))
    new_spec, old_spec = defaulted_template_spec(new.get("spec")), defaulted_template_spec(old.get("spec"))
    if not semantic_equal(new_spec, old_spec, RESOURCE_CLAIM_TEMPLATE_SPEC):
        errs.append(invalid(_SPEC, new_spec, meta.FIELD_IMMUTABLE_MSG))
    errs += validate_claim_template(new)
    return errs


RESOURCE_CLAIM_TEMPLATE: Final = KindRules(
    gvk=resource_v1alpha2("ResourceClaimTemplate"),
    resource="resourceclaimtemplates",
    namespaced=True,
    validate_create=validate_claim_template,
    validate_update=validate_claim_template_update,
)
