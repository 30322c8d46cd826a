"""The judge: a readable request in, a verdict out, through the rules of the request's kind.

For a kind the registry serves: the structural check first (would kube-apiserver even decode the
object), then the rules of the release the kind is judged as, then the webhook's own namespace
policy; the errors of all three deny together, or warn where the kind's enforcement is "warn". A
kind it does not serve is answered by the unknown-kind policy. Judging never raises: a crash is an
`errored` verdict, logged once with the request's coordinates.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import webhook.cel as cel
from webhook.admission.decisions import request_fields
from webhook.admission.envelope import AdmissionRequest, is_json_object, parse_review, review_response
from webhook.admission.verdicts import Verdict, allowed, denied, denied_invalid, errored, tidy_warnings
from webhook.field import ErrorList, FieldError
from webhook.registry import REGISTRY, KindRegistry, api_version_of
from webhook.release import Release
from webhook.rules.kinds import GroupVersionKind, KindRules
from webhook.rules.policy import NamespacePolicy, check_namespace_policy
from webhook.schemas import SchemaError, StructuralChecker, not_an_object
from webhook.settings import Enforcement, PolicySettings, UnknownKindPolicy

log = logging.getLogger("webhook.admission")


@dataclass(frozen=True, slots=True)
class Judgement:
    """What the rules found about one object: errors (deny) and warnings (allow, but say)."""

    errors: ErrorList = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Judge:
    """Everything static that judging needs, built once at start-up and shared by every request."""

    policy: PolicySettings
    namespace_policy: NamespacePolicy
    structural: StructuralChecker | None
    registry: KindRegistry = field(default_factory=lambda: REGISTRY)
    # The registry by (group, version, kind) as plain tuples: a request's kind finds its entry
    # without building a GroupVersionKind and hashing it in Python.
    _known_kinds: dict[tuple[str, str, str], _KnownKind] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        registry = self.registry
        known = {
            (gvk.group, gvk.version, gvk.kind): _KnownKind.of(gvk, rules, registry.release_of(gvk))
            for gvk, rules in registry.items()
        }
        object.__setattr__(self, "_known_kinds", known)
        if self.structural is not None:
            _require_schemas(registry, self.structural)

    @classmethod
    def build(cls, policy: PolicySettings | None = None) -> Judge:
        policy = policy or PolicySettings()
        structural = StructuralChecker.load() if policy.structural_check else None
        return cls(policy=policy, namespace_policy=namespace_policy_from(policy), structural=structural)

    # -- objects ---------------------------------------------------------------------------------

    def judge_object(
        self,
        rules: KindRules,
        *,
        operation: str,
        subresource: str,
        obj: Any,
        old_obj: Any = None,
    ) -> Judgement:
        """Judge one object of a known kind: structure first, then the API server's rules, then
        the webhook's own namespace policy."""
        gvk = rules.gvk
        if self.structural is not None:
            report = self.structural.check(gvk, obj)
            if operation == "UPDATE" and old_obj is not None and not report.errors:
                old_report = self.structural.check(gvk, old_obj)
                if old_report.errors:
                    # A broken old object cannot be compared with; say so at its paths.
                    return Judgement(
                        errors=[_in_old_object(error) for error in old_report.errors],
                        warnings=list(report.warnings),
                    )
            if report.errors:
                # The API server could not even decode this object: no rule would have run.
                return Judgement(errors=list(report.errors), warnings=list(report.warnings))
            warnings = list(report.warnings)
        else:
            warnings = []
        if not is_json_object(obj) or (operation == "UPDATE" and not is_json_object(old_obj)):
            # Reached only with the structural check off: deny as it would, not with a crash.
            return Judgement(errors=_not_objects(obj, old_obj if operation == "UPDATE" else {}))

        # However many CEL selectors the object carries, compiling them shares one CPU budget.
        budget = cel.open_review_budget()
        try:
            if operation == "CREATE":
                errors = rules.validate_create(obj)
            elif subresource == "status" and rules.validate_status_update is not None:
                errors = rules.validate_status_update(obj, old_obj)
            else:
                errors = rules.validate_update(obj, old_obj)
        finally:
            cel.close_review_budget(budget)

        if subresource != "status":
            findings = check_namespace_policy(gvk, obj, self.namespace_policy)
            errors = [*errors, *findings.errors]
            warnings.extend(findings.warnings)
        return Judgement(errors=errors, warnings=warnings)

    # -- requests --------------------------------------------------------------------------------

    def judge(self, request: AdmissionRequest) -> Verdict:
        """The verdict for one readable request. Never raises: a crash is an `errored` verdict."""
        try:
            return self._judge(request)
        except Exception:
            log.exception(
                "internal error while judging",
                # The one log line of an internal error: the request's coordinates, never the object.
                extra={"event": "error", **request_fields(request)},
            )
            return errored(
                f"dra-webhook: internal error while validating request {request.uid}; see the webhook log"
            )

    def _judge(self, request: AdmissionRequest) -> Verdict:
        if request.operation in ("DELETE", "CONNECT"):
            # The API server has no delete or connect validation for these kinds.
            return allowed()
        kind = request.kind
        known = self._known_kinds.get((kind.group, kind.version, kind.kind))
        if known is None:
            return self._unknown_kind(kind.gvk())
        gvk, rules = known.gvk, known.rules
        subresource = request.sub_resource
        if subresource and subresource not in rules.subresources:
            return self._unknown_kind(gvk, subresource=subresource)

        obj, old_obj = request.object, request.old_object
        missing = _missing_objects(request)
        if missing:
            return denied(400, "BadRequest", missing)
        mismatch = _kind_mismatch(known, obj) or (
            request.operation == "UPDATE" and _kind_mismatch(known, old_obj)
        )
        if mismatch:
            return denied(400, "BadRequest", mismatch)

        judgement = self.judge_object(
            rules, operation=request.operation, subresource=subresource, obj=obj, old_obj=old_obj
        )
        if not judgement.errors:
            return allowed(judgement.warnings)
        name = request.object_name or request.name
        if self.policy.enforcement_for(gvk.kind, version=gvk.version, group=gvk.group) is Enforcement.WARN:
            as_warnings = [f"{gvk.kind} {name!r} would be denied: {error}" for error in judgement.errors]
            return Verdict(
                True,
                warnings=tidy_warnings([*as_warnings, *judgement.warnings]),
                errors=tuple(judgement.errors),
                release=known.release,
            )
        return denied_invalid(gvk.kind, name, judgement.errors, judgement.warnings, release=known.release)

    def _unknown_kind(self, gvk: GroupVersionKind, *, subresource: str = "") -> Verdict:
        what = f"{gvk}" + (f" (subresource {subresource!r})" if subresource else "")
        if self.policy.unknown_kind is UnknownKindPolicy.DENY:
            return denied(
                403,
                "Forbidden",
                f"dra-webhook does not validate {what} and its unknown-kind policy is deny",
            )
        return allowed([f"dra-webhook: {what} is not validated by this webhook"])


def _require_schemas(registry: KindRegistry, structural: StructuralChecker) -> None:
    """Every kind the registry serves has a schema: a judge is not built without one (a start-up
    error, rather than a KeyError when the first object of that kind arrives)."""
    missing = [
        f"{gvk} (schemas/{gvk.group}/{gvk.version}/{gvk.kind.lower()}.json)"
        for gvk in registry
        if not structural.knows(gvk)
    ]
    if missing:
        raise SchemaError("the registry serves kinds without a schema: " + ", ".join(missing))


def namespace_policy_from(policy: PolicySettings) -> NamespacePolicy:
    return NamespacePolicy(
        enabled=policy.namespace_rules,
        class_reference_scope=policy.class_reference_scope,
        claim_reference_namespace=policy.claim_reference_namespace,
    ).with_scopes({(group, kind): namespaced for group, kind, namespaced in policy.extra_scopes})


def _missing_objects(request: AdmissionRequest) -> str:
    if request.object is None:
        return f"request.object is required for {request.operation}"
    if request.operation == "UPDATE" and request.old_object is None:
        return "request.oldObject is required for UPDATE"
    return ""


class _KnownKind(NamedTuple):
    """A kind of the judge's registry, as `_judge` looks it up."""

    gvk: GroupVersionKind
    rules: KindRules
    api_version: str  # what the objects of the kind say in `apiVersion`
    release: Release  # the release the kind is judged as

    @classmethod
    def of(cls, gvk: GroupVersionKind, rules: KindRules, release: Release) -> _KnownKind:
        return cls(gvk, rules, api_version_of(gvk), release)


def _kind_mismatch(known: _KnownKind, obj: Any) -> str:
    """An object whose apiVersion/kind disagree with request.kind cannot be judged as that kind."""
    if not is_json_object(obj):
        return ""  # the structural check reports the type
    api_version, kind = obj.get("apiVersion"), obj.get("kind")
    expected_version, expected_kind = known.api_version, known.gvk.kind
    if (api_version is not None and api_version != expected_version) or (
        kind is not None and kind != expected_kind
    ):
        return (
            f"object is {api_version}, Kind={kind} "
            f"but request.kind is {expected_version}, Kind={expected_kind}"
        )
    return ""


def _not_objects(obj: Any, old_obj: Any) -> ErrorList:
    """The structural check's type error for objects that are not JSON objects (the root path)."""
    errors = []
    if not is_json_object(obj):
        errors.append(not_an_object(obj))
    if not is_json_object(old_obj):
        errors.append(_in_old_object(not_an_object(old_obj)))
    return errors


def _in_old_object(error: FieldError) -> FieldError:
    return FieldError(error.type, f"oldObject.{error.field}", error.bad_value, error.detail)


def review(document: Mapping[str, Any], *, judge: Judge | None = None) -> dict[str, Any]:
    """Judge one AdmissionReview given as a dict and return the AdmissionReview answer as a dict.

    The offline twin of `POST /validate`: the same parsing, rules and verdicts. Raises
    `UnreadableReview` (a `ValueError`) where the server would answer with an HTTP 4xx.
    """
    parsed = parse_review(document)
    return review_response(parsed, (judge or default_judge()).judge(parsed.request))


@functools.cache
def default_judge() -> Judge:
    """The judge with default settings, built on first use (loading the schemas takes a moment)."""
    return Judge.build()
