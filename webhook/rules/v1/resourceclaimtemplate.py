"""ResourceClaimTemplate (resource.k8s.io/v1): create and update, as kube-apiserver 1.37.

Hand-written (`pkg/apis/resource/validation/validation.go`, 1.37): `ValidateResourceClaimTemplate`
on create -- ObjectMeta, then `spec.metadata` (`ValidateTemplateObjectMeta`: labels and annotations
only) and the claim spec at `spec.spec`. On update the registry strategy
(`pkg/registry/resource/resourceclaimtemplate/strategy.go`, 1.37) runs
`ValidateResourceClaimTemplate(new)` and then `ValidateResourceClaimTemplateUpdate(new, old)` --
ObjectMetaUpdate and the whole spec immutable: the comment "On update, we only check for
immutability" in `ValidateResourceClaimTemplateUpdate` holds for that function, not for the
strategy, which (unlike the ResourceClaim strategy) still validates the new template in full.

The strategy embeds `rest.DeclarativeValidation`, so the REST layer merges: on update
`rest.validateCommonFields` comes first (`webhook.rules.v1.lifecycle.updated_with_common_fields`),
and everything is merged with `Validate_ResourceClaimTemplate` (`webhook.rules.v1.declared`), which
validates what changed in `spec.spec`. The template has no status.
"""

from __future__ import annotations

from typing import Final

from webhook.field import ROOT, ErrorList, invalid
from webhook.rules import meta
from webhook.rules.equality import semantic_equal
from webhook.rules.kinds import KindRules, Obj
from webhook.rules.v1 import RELEASE, declared, gojson, resource_v1, shapes
from webhook.rules.v1.claimspec import validate_claim_spec
from webhook.rules.v1.defaults import defaulted_template
from webhook.rules.v1.lifecycle import created_meta_errors, merge_validations, updated_with_common_fields
from webhook.rules.values import mapping

_SPEC = ROOT.child("spec")


def validate_resource_claim_template(template: Obj) -> ErrorList:
    """The hand-written `ValidateResourceClaimTemplate` of a defaulted template."""
    spec = mapping(template.get("spec"))
    errs = meta.validate_object_meta(template.get("metadata"), namespaced=True, release=RELEASE)
    errs += meta.validate_template_object_meta(spec.get("metadata"), _SPEC.child("metadata"), release=RELEASE)
    errs += validate_claim_spec(mapping(spec.get("spec")), _SPEC.child("spec"))
    return errs


def validate_claim_template(template: Obj) -> ErrorList:
    """Create: `ValidateResourceClaimTemplate` merged with `Validate_ResourceClaimTemplate`."""
    return validate_defaulted_claim_template(defaulted_template(template))


def validate_defaulted_claim_template(template: Obj) -> ErrorList:
    """Create, of a template its apiVersion's defaulters have defaulted."""
    handwritten = validate_resource_claim_template(template)
    if not handwritten:
        handwritten = created_meta_errors(template.get("metadata"), namespaced=True)
    return merge_validations(handwritten, declared.validate_resource_claim_template(template, None))


def validate_claim_template_update(new: Obj, old: Obj) -> ErrorList:
    """Update: `rest.validateCommonFields`, then the strategy's `ValidateResourceClaimTemplate(new)` and
    `ValidateResourceClaimTemplateUpdate(new, old)`, merged with `Validate_ResourceClaimTemplate`."""
    return validate_defaulted_claim_template_update(defaulted_template(new), defaulted_template(old))


def validate_defaulted_claim_template_update(new: Obj, old: Obj) -> ErrorList:
    """Update, of templates their apiVersion's defaulters have defaulted."""
    handwritten = updated_with_common_fields(new.get("metadata"), old.get("metadata"), namespaced=True)
    handwritten += validate_resource_claim_template(new)
    handwritten += meta.validate_object_meta_update(new.get("metadata"), old.get("metadata"), release=RELEASE)
    if not semantic_equal(new.get("spec"), old.get("spec"), shapes.RESOURCE_CLAIM_TEMPLATE_SPEC):
        # `ValidateImmutableField(template.Spec, ...)`: the value is the internal ResourceClaimTemplateSpec
        # of the new template (defaulted), as json.Marshal writes it.
        shown = gojson.go_encoded(new.get("spec"), gojson.RESOURCE_CLAIM_TEMPLATE_SPEC)
        handwritten.append(invalid(_SPEC, shown, meta.FIELD_IMMUTABLE_MSG))
    return merge_validations(handwritten, declared.validate_resource_claim_template(new, old))


RESOURCE_CLAIM_TEMPLATE: Final = KindRules(
    gvk=resource_v1("ResourceClaimTemplate"),
    resource="resourceclaimtemplates",
    namespaced=True,
    validate_create=validate_claim_template,
    validate_update=validate_claim_template_update,
)
# The same rules for templates defaulted already, by the defaulters of the apiVersion they came in:
# v1beta1's differ from v1's (`webhook.rules.v1beta1.defaults`).
DEFAULTED_RESOURCE_CLAIM_TEMPLATE: Final = KindRules(
    gvk=resource_v1("ResourceClaimTemplate"),
    resource="resourceclaimtemplates",
    namespaced=True,
    validate_create=validate_defaulted_claim_template,
    validate_update=validate_defaulted_claim_template_update,
)
