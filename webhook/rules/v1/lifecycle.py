"""How kube-apiserver 1.37 merges hand-written and declarative validation into one answer.

Every resource.k8s.io/v1 kind is validated twice: by the hand-written `Validate*` functions of
`pkg/apis/resource/validation` (the strategy's `Validate`/`ValidateUpdate`) and by the declarative
validation generated from the `+k8s:` tags of `k8s.io/api/resource/v1` (`zz_generated.validations.go`).
`rest.ValidateDeclarativelyWithMigrationChecks` (k8s.io/apiserver `pkg/registry/rest/validate.go`,
v0.37.0-beta.0, lines 388-428) merges the two lists:

1. the declarative errors that are *enforced* are kept (`validate.FilterEnforcedDeclarativeErrors`,
   apimachinery `pkg/api/validate/errors.go` lines 70-96): internal errors and standard (untagged)
   rules always, `+k8s:beta` rules while the DeclarativeValidationBeta gate is on (beta and on by
   default since 1.36), `+k8s:alpha` rules never (they only feed mismatch metrics: "shadow");
2. a hand-written error marked `MarkCoveredByDeclarative` is dropped when an enforced *beta*
   declarative error has the same type, field and origin -- an Invalid one only when both origins
   are set (`validate.FilterCoveredHandwrittenErrors`, same file lines 47-68, with
   `field.ErrorMatcher{}.ByType().ByOrigin().RequireOriginWhenInvalid().ByFieldNormalized(rules)`);
   a covered error without such a twin stays. The filter is `ErrorList.Filter`, which goes through
   `ErrorList.ToAggregate` (apimachinery `pkg/util/validation/field/errors.go`, v0.37.0-beta.0,
   lines 501-535): a hand-written error whose text (`field: body`) an earlier one has is dropped too;
3. the answer is the remaining hand-written errors in their order, then the enforced declarative
   errors in theirs (`errs = append(errs, enforcedDeclarativeErrs...)`), marked `declarative` here:
   1.37 runs the declarative pass on the object in the request's version, so an adapted version
   (v1beta1, v1beta2) reports exactly these at its own paths and in its own tag order.

Nothing else is deduplicated: a hand-written error and a declarative error that say the same thing
both stay (the aggregated message of `NewInvalid` drops exact repeats, `details.causes` does not).

Which hand-written errors go in depends on the strategy. A strategy that embeds
`rest.DeclarativeValidation` (ResourceSlice, DeviceTaintRule) is merged by the REST layer
(`rest.ValidateUpdate`, apiserver `pkg/registry/rest/update.go` lines 169-180), after
`rest.validateCommonFields` has checked the metadata: on update those errors come first and go
through the merge as well (`updated_with_common_fields`). On create the REST layer's own metadata
check runs only when the strategy found nothing, and then finds nothing a kind's checks did not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from webhook.field import ErrorList, ErrorType, FieldError, Stability, from_declarative
from webhook.release import KUBERNETES_1_37
from webhook.rules import meta
from webhook.rules.names import path_segment_name
from webhook.rules.values import mapping, text

# Rewrites a declarative error's field before it is compared (`field.NormalizationRule`): the
# v1beta1 shape reports request fields without `exactly`. Identity for v1.
Normalize = Callable[[str], str]


def enforced_declarative_errors(declarative: Sequence[FieldError]) -> ErrorList:
    """`FilterEnforcedDeclarativeErrors` with the DeclarativeValidationBeta gate on (1.37's default)."""
    return [
        error
        for error in declarative
        if error.type is ErrorType.INTERNAL or error.stability is not Stability.ALPHA
    ]


def merge_validations(
    handwritten: Sequence[FieldError],
    declarative: Sequence[FieldError],
    *,
    normalize: Normalize | None = None,
) -> ErrorList:
    """`ValidateDeclarativelyWithMigrationChecks`: the hand-written errors no enforced beta twin
    replaces, each text once, then the enforced declarative errors (marked as such)."""
    enforced = enforced_declarative_errors(declarative)
    twins = [error for error in enforced if error.stability is Stability.BETA]
    kept: ErrorList = []
    seen: set[str] = set()
    for error in handwritten:
        text = str(error)
        if text in seen:
            continue  # ToAggregate drops the repeat before the filter looks at it
        seen.add(text)
        if error.covered_by_declarative and any(_is_twin(error, twin, normalize) for twin in twins):
            continue
        kept.append(error)
    return [*kept, *from_declarative(enforced)] if enforced else kept


def updated_with_common_fields(new_meta: Any, old_meta: Any, *, namespaced: bool) -> ErrorList:
    """What a strategy embedding `rest.DeclarativeValidation` has checked before its own
    `ValidateUpdate` on every update, `status` included: `rest.validateCommonFields`. The kind puts
    these first in its hand-written errors."""
    return meta.validate_common_update_fields(
        new_meta, old_meta, namespaced=namespaced, release=KUBERNETES_1_37
    )


def created_meta_errors(metadata: Any, *, namespaced: bool) -> ErrorList:
    """What the REST layer checks on every create once the strategy's `Validate` found nothing
    (apiserver `pkg/registry/rest/create.go` `ValidateCreate`, v0.37.0-beta.0 lines 145-160):
    `ValidateObjectMetaAccessor(meta, namespaced, validatePathSegment, ...)`. After a kind's own
    `ValidateObjectMeta` found nothing, only a generateName can fail it: `maskTrailingDash` drops the
    byte before a final '-', so a '/' or '%' there passes the kind's DNS name check, yet it is no path
    segment prefix (`content.IsPathSegmentPrefix`). A strategy embedding `rest.DeclarativeValidation`
    returns its hand-written errors alone, so the check runs when those are empty and goes through the
    merge like them; every v1 kind is taken to embed it, as `updated_with_common_fields` does.

    Called only when the kind's own metadata check found nothing, it can find something only in a
    generateName: the rest is the same check (`validateObjectMetaAccessorWithOptsCommon`) and every
    v1 kind's name check, a DNS subdomain, is stricter than a path segment name."""
    if not text(mapping(metadata).get("generateName")):
        return []
    return meta.validate_object_meta(
        metadata, namespaced=namespaced, name_fn=path_segment_name, release=KUBERNETES_1_37, core_checks=False
    )


def _is_twin(handwritten: FieldError, declarative: FieldError, normalize: Normalize | None) -> bool:
    """`ErrorMatcher.Matches(want=handwritten, got=declarative)` by type, origin and field."""
    if handwritten.type is not declarative.type or handwritten.origin != declarative.origin:
        return False
    if handwritten.type is ErrorType.INVALID and not handwritten.origin:
        return False  # RequireOriginWhenInvalid
    got = declarative.field
    if got != handwritten.field and normalize is not None:
        got = normalize(got)
    return got == handwritten.field
