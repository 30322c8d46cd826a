"""Judging the objects of manifests as `dra-webhook validate` does: what kubectl and the API server do
before the webhook is asked (the REST mapping, strict decoding, what the server fills in), then the
webhook's own answer from the `Judge` the server uses (rules, namespace rules, enforcement per kind,
the unknown-kind policy), as a CREATE, or an UPDATE when an old object matches.

What becomes of an object (docs/offline.md, "What fails the run"):

* a kind in `--skip-kinds`, an object of another group, a document that is no Kubernetes object, a
  template that mentions no `resource.k8s.io`: skipped (counted, listed with -v);
* a `resource.k8s.io` kind or apiVersion that no Kubernetes release from 1.27 to 1.37 serves
  (`webhook.served`): invalid, with kubectl's `no matches for kind ... in version ...`;
* a served kind the webhook does not judge: the server's unknown-kind policy answers (deny: invalid);
  allowed, it is *not validated*, a failure unless `--ignore-missing-schemas` makes it skipped;
* a judged kind with unknown or duplicate fields: with `--validate=strict` (the default, as kubectl's)
  invalid with the API server's strict decoding error, with `warn` warnings, with `ignore` nothing;
* otherwise the webhook's verdict: valid (with warnings, or with errors as warnings under
  `enforcement: warn`) or invalid.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from webhook.admission import DRA_GROUP, AdmissionRequest, Judge, ReviewKind, Verdict
from webhook.field import go_quote
from webhook.offline.apiserver import (
    KUBECTL_NAMESPACE,
    in_request_namespace,
    server_filled_create,
    server_filled_update,
)
from webhook.offline.documents import UnreadableInput, location
from webhook.offline.inputs import display_name, no_stdin, read_documents, read_input
from webhook.offline.objects import ManifestObject, NotAnObject, objects_of
from webhook.offline.old_objects import OldObjects
from webhook.offline.releases import release_verdict
from webhook.release import Release
from webhook.rules.kinds import GroupVersionKind, KindRules
from webhook.rules.values import mapping, text
from webhook.served import GROUP, no_kind_match, served_kind, what_is_served
from webhook.settings import PolicySettings

ObjectStatus = Literal["valid", "invalid", "not-validated", "skipped", "error"]
FieldValidation = Literal["strict", "warn", "ignore"]
FIELD_VALIDATIONS: Final[tuple[FieldValidation, ...]] = ("strict", "warn", "ignore")

# The uid of the requests `validate` hands the judge (the API server makes one per request).
VALIDATE_UID: Final = "dra-webhook-validate"


@dataclass(frozen=True, slots=True)
class ObjectResult:
    """The verdict on one object (or one unreadable input, or one document that is no object) of
    `dra-webhook validate`."""

    source: str
    line: int
    status: ObjectStatus
    api_version: str = ""
    kind: str = ""
    namespace: str = ""
    name: str = ""
    operation: str = ""
    message: str = ""
    causes: tuple[Mapping[str, str], ...] = ()
    warnings: tuple[str, ...] = ()
    column: int = 0
    release: Release | None = None  # the release the object was judged as; None when not judged
    hint: str = ""  # what to do about it, when the message alone does not say
    enforcement: str = ""  # "warn": its causes were returned as warnings (enforcement: warn)

    @classmethod
    def of(
        cls,
        item: ManifestObject,
        status: ObjectStatus,
        *,
        operation: str = "",
        message: str = "",
        causes: tuple[Mapping[str, str], ...] = (),
        warnings: tuple[str, ...] = (),
        release: Release | None = None,
        hint: str = "",
        enforcement: str = "",
    ) -> ObjectResult:
        return cls(
            item.source,
            item.line,
            status,
            item.api_version,
            item.kind,
            item.namespace,
            item.name,
            operation,
            message,
            causes,
            warnings,
            release=release,
            hint=hint,
            enforcement=enforcement,
        )

    @property
    def location(self) -> str:
        return location(self.source, self.line, self.column)

    @property
    def title(self) -> str:
        """`ResourceClaim default/gpu` (or the location for an unreadable input)."""
        if not self.kind:
            return self.location
        who = f"{self.namespace}/{self.name}" if self.namespace else self.name or "(no name)"
        return f"{self.kind} {who}"

    def as_json(self) -> dict[str, Any]:
        result: dict[str, Any] = {"source": self.source, "line": self.line, "status": self.status}
        if self.kind:
            result["apiVersion"] = self.api_version
            if self.release is not None:
                result["release"] = self.release.version
            result.update(kind=self.kind, namespace=self.namespace, name=self.name)
        if self.operation:
            result["operation"] = self.operation
        if self.message:
            result["message"] = self.message
        if self.hint:
            result["hint"] = self.hint
        if self.enforcement:
            result["enforcement"] = self.enforcement
        if self.causes:
            result["causes"] = list(self.causes)
        if self.warnings:
            result["warnings"] = list(self.warnings)
        return result


def error_result(problem: UnreadableInput) -> ObjectResult:
    return ObjectResult(problem.source, problem.line, "error", message=problem.reason, column=problem.column)


def not_an_object_result(document: NotAnObject) -> ObjectResult:
    return ObjectResult(document.source, document.line, "skipped", message=document.reason)


@dataclass(frozen=True, slots=True)
class ValidateOptions:
    """What `dra-webhook validate` was asked to do, apart from where to read and how to print."""

    policy: PolicySettings = field(default_factory=PolicySettings)
    subresource: str = ""
    namespace: str = KUBECTL_NAMESPACE  # the request namespace (kubectl -n)
    # kubectl's --validate: unknown and duplicate fields fail the object, are warnings, or are dropped.
    field_validation: FieldValidation = "strict"
    # kubeconform's -ignore-missing-schemas: a served kind the webhook does not judge is skipped.
    ignore_missing_schemas: bool = False
    # kubeconform's -skip: kinds (`DeviceTaintRule`) or apiVersion/kind
    # (`resource.k8s.io/v1alpha3/DeviceTaintRule`).
    skip_kinds: frozenset[str] = frozenset()

    # The cluster's release ("1.37", `--kubernetes-version`); "" judges each apiVersion as its own.
    kubernetes_version: str = ""

    def skips(self, item: ManifestObject) -> bool:
        return bool(self.skip_kinds) and (
            item.kind in self.skip_kinds or f"{item.api_version}/{item.kind}" in self.skip_kinds
        )


# A Go template action (`{{ .Values.x }}`) on one line: a Helm chart's template, not a manifest.
_TEMPLATE_ACTION: Final = re.compile(rb"\{\{[^\n]*?\}\}")
RENDER_FIRST: Final = "render it first, e.g. helm template CHART | dra-webhook validate -"


class ManifestJudge:
    """Judges the objects of manifests with one `Judge`: CREATE, or UPDATE when an old object matches."""

    def __init__(self, judge: Judge, options: ValidateOptions, old: OldObjects | None = None) -> None:
        self.judge = judge
        self.options = options
        self.old = old if old is not None else OldObjects()

    @classmethod
    def build(cls, options: ValidateOptions, old: OldObjects) -> ManifestJudge:
        """A manifest judge with a `Judge` of its own (for a worker process)."""
        return cls(Judge.build(options.policy), options, old)

    def judge_input(self, path: str, content: bytes | None = None) -> list[ObjectResult]:
        """Every result of one input, in document order; `content` is given for stdin."""
        try:
            data = content if content is not None else read_input(path, no_stdin)
        except UnreadableInput as problem:
            return [error_result(problem)]
        return self.judge_content(display_name(path), data)

    def judge_content(self, source: str, content: bytes) -> list[ObjectResult]:
        template = _TEMPLATE_ACTION.search(content)
        if template is not None:
            return [self._template(source, content, template.start())]
        read = read_documents(source, content, find_duplicates=self.options.field_validation != "ignore")
        results = []
        for document in read.documents:
            for item in objects_of(document):
                if isinstance(item, UnreadableInput):
                    results.append(error_result(item))
                elif isinstance(item, NotAnObject):
                    results.append(not_an_object_result(item))
                else:
                    results.append(self.judge_object(item))
        if read.error is not None:
            results.append(error_result(read.error))
        return results

    def _template(self, source: str, content: bytes, at: int) -> ObjectResult:
        """A template is never read as YAML. One that mentions resource.k8s.io holds DRA objects that
        are not validated (a failure: render it first, or leave it out with --exclude)."""
        line = content.count(b"\n", 0, at) + 1
        reason = "a template ({{ ... }}), not a manifest"
        if GROUP.encode() in content:
            return ObjectResult(
                source,
                line,
                "not-validated",
                message=f"{reason}: its {GROUP} objects are not validated",
                hint=f"{RENDER_FIRST}, or leave it out with --exclude",
            )
        return ObjectResult(source, line, "skipped", message=f"{reason}; {RENDER_FIRST}")

    def judge_object(self, item: ManifestObject) -> ObjectResult:
        if self.options.skips(item):
            return ObjectResult.of(
                item, "skipped", message=f"{item.api_version}/{item.kind} is in --skip-kinds"
            )
        if not item.api_version or not item.kind:
            # Only a document meant for resource.k8s.io gets here so (webhook.offline.objects).
            missing = [
                name for name, value in (("apiVersion", item.api_version), ("kind", item.kind)) if not value
            ]
            return ObjectResult.of(item, "invalid", message=f"{' and '.join(missing)} not set")
        gvk = item.gvk
        if not _of_the_group(item.api_version):
            return ObjectResult.of(item, "skipped", message=f"{gvk} is not a {DRA_GROUP} object")
        registry = self.judge.registry
        if self.options.kubernetes_version:
            verdict = release_verdict(gvk, self.options.kubernetes_version, registry)
            if verdict is not None:
                status, message = verdict
                if status == "invalid":
                    return ObjectResult.of(item, status, message=message)
                return self._not_validated(item, message)
        rules = registry.get(gvk)
        if rules is None:
            return self._not_judged(item)
        return self._judged(item, rules)

    def _not_judged(self, item: ManifestObject) -> ObjectResult:
        """A resource.k8s.io object of a kind the registry does not judge: refused by kubectl when no
        release serves it, else answered by the server's unknown-kind policy."""
        gvk = item.gvk
        if gvk.group != GROUP or served_kind(gvk.version, gvk.kind) is None:
            # kubectl's REST mapping finds no resource: nothing reaches the API server.
            return ObjectResult.of(
                item,
                "invalid",
                message=no_kind_match(item.api_version, item.kind),
                hint=what_is_served(gvk.version if gvk.group == GROUP else item.api_version, item.kind),
            )
        verdict = self.judge.judge(_request(gvk, "CREATE", "", item.obj, None))
        if not verdict.allowed:
            return ObjectResult.of(item, "invalid", operation="CREATE", message=_status_message(verdict))
        served = served_kind(gvk.version, gvk.kind)
        assert served is not None
        reason = f"{gvk} ({served.releases}) is not validated by dra-webhook"
        return self._not_validated(item, reason)

    def _not_validated(self, item: ManifestObject, reason: str) -> ObjectResult:
        """A served object this webhook does not judge: a failure, unless --ignore-missing-schemas."""
        if self.options.ignore_missing_schemas:
            return ObjectResult.of(item, "skipped", message=f"{reason} (--ignore-missing-schemas)")
        return ObjectResult.of(
            item,
            "not-validated",
            message=reason,
            hint="--ignore-missing-schemas accepts it, --skip-kinds leaves the kind out",
        )

    def _judged(self, item: ManifestObject, rules: KindRules) -> ObjectResult:
        gvk = rules.gvk
        release = self.judge.registry.release_of(gvk)
        subresource = self.options.subresource
        old = self.old.find(item, rules)
        if subresource:
            if subresource not in rules.subresources:
                reason = f"{gvk.kind} has no {subresource} subresource"
                return ObjectResult.of(item, "error", message=reason)
            if old is None:
                reason = f"no old object matches {item.kind} {_who(item)}: a {subresource} update needs one"
                return ObjectResult.of(item, "error", message=reason)
        operation = "UPDATE" if old is not None else "CREATE"
        obj: dict[str, Any] = (
            server_filled_update(
                in_request_namespace(item.obj, rules, self.options.namespace), old, subresource=subresource
            )
            if old is not None
            else server_filled_create(item.obj, rules, self.options.namespace)
        )
        filled = ManifestObject(item.source, item.line, obj, item.duplicates)
        strict = self._strict_decoding(filled, gvk)
        if strict.error:
            return ObjectResult.of(
                filled, "invalid", operation=operation, message=strict.error, release=release
            )
        verdict = self.judge.judge(_request(gvk, operation, subresource if old is not None else "", obj, old))
        warnings = tuple(
            warning for warning in verdict.warnings if warning not in strict.dropped_warnings
        ) + tuple(strict.warnings)
        if verdict.internal_error:
            return ObjectResult.of(filled, "error", operation=operation, message=_status_message(verdict))
        causes = tuple(error.cause() for error in verdict.errors)
        if verdict.allowed:
            return ObjectResult.of(
                filled,
                "valid",
                operation=operation,
                causes=causes,
                warnings=warnings,
                release=release,
                enforcement="warn" if causes else "",
            )
        return ObjectResult.of(
            filled,
            "invalid",
            operation=operation,
            message=_status_message(verdict),
            causes=causes,
            warnings=warnings,
            release=release,
            hint=yaml_scalar_hint(causes) if not item.source.endswith(".json") else "",
        )

    def _strict_decoding(self, item: ManifestObject, gvk: GroupVersionKind) -> StrictDecoding:
        """What the API server's decoding says of unknown and duplicate fields under kubectl's
        `--validate` (the request's `fieldValidation`): with strict, a 400 before any validation
        (apiserver handlers/create.go and update.go, `transformDecodeError`); with warn, warnings;
        with ignore, nothing. Go reports them only when the body otherwise decodes: an object with
        type errors is answered by them."""
        mode = self.options.field_validation
        structural = self.judge.structural
        report = structural.check(gvk, item.obj) if structural is not None else None
        if report is not None and report.errors:
            return StrictDecoding()
        unknown = report.warnings if report is not None else ()
        duplicates = tuple(f"duplicate field {go_quote(path)}" for path in item.duplicates)
        if mode == "ignore":
            return StrictDecoding(dropped_warnings=frozenset(unknown))
        if mode == "warn":
            return StrictDecoding(warnings=duplicates)
        problems = (*unknown, *duplicates)[:MAX_STRICT_ERRORS]
        if not problems:
            return StrictDecoding()
        return StrictDecoding(
            error=f"{gvk.kind} in version {go_quote(gvk.version)} cannot be handled as a {gvk.kind}: "
            f"strict decoding error: {', '.join(problems)}"
        )


# sigs.k8s.io/json `saveStrictError`: at most 100 strict errors are kept.
MAX_STRICT_ERRORS: Final = 100


@dataclass(frozen=True, slots=True)
class StrictDecoding:
    """The outcome of strict decoding: the 400's message, or warnings to add, or the judge's
    unknown-field warnings to drop (`--validate=ignore`)."""

    error: str = ""
    warnings: tuple[str, ...] = ()
    dropped_warnings: frozenset[str] = frozenset()


def _of_the_group(api_version: str) -> bool:
    """An apiVersion of resource.k8s.io, or one that names it with no version (`resource.k8s.io`)."""
    return api_version == GROUP or api_version.startswith(GROUP + "/")


# The structural check's words for a value of another JSON type where a string belongs.
_STRING_GOT_ANOTHER_TYPE: Final = tuple(
    f' in body must be of type string: "{json_type}"' for json_type in ("boolean", "integer", "number")
)


def yaml_scalar_hint(causes: Sequence[Mapping[str, str]]) -> str:
    """For a string field that got a boolean or a number from YAML: that kubectl reads plain `on`,
    `n`, `010` or `1.0` as such (YAML 1.1, docs/offline.md), and that quoting keeps a string."""
    if not any(
        cause.get("reason") == "FieldValueTypeInvalid"
        and cause.get("message", "").endswith(_STRING_GOT_ANOTHER_TYPE)
        for cause in causes
    ):
        return ""
    return (
        "kubectl reads a plain YAML value such as y, n, on, off, 010 or 1.0 as a boolean or a number: "
        "quote a value meant as a string"
    )


def _request(gvk: GroupVersionKind, operation: str, subresource: str, obj: Any, old: Any) -> AdmissionRequest:
    """The AdmissionRequest kube-apiserver would send for this object (name and namespace from it)."""
    metadata = mapping(mapping(obj).get("metadata"))
    return AdmissionRequest(
        uid=VALIDATE_UID,
        kind=ReviewKind(group=gvk.group, version=gvk.version, kind=gvk.kind),
        subResource=subresource,
        name=text(metadata.get("name")),
        namespace=text(metadata.get("namespace")),
        operation=operation,  # type: ignore[arg-type]  # CREATE or UPDATE
        userInfo=None,
        object=obj,
        oldObject=old,
        dryRun=None,
    )


def _status_message(verdict: Verdict) -> str:
    return text(mapping(verdict.status).get("message"))


def _who(item: ManifestObject) -> str:
    return f"{item.namespace}/{item.name}" if item.namespace else item.name
