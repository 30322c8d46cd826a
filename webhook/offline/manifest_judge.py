"""Judging the objects of manifests as `dra-webhook validate` does: CREATE, or UPDATE when an old
object matches, with what the API server would fill in first."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from webhook.admission import DRA_GROUP, Judge
from webhook.field import invalid_message
from webhook.offline.apiserver import DEFAULT_NAMESPACE, in_request_namespace, server_filled_update
from webhook.offline.documents import UnreadableInput, location
from webhook.offline.inputs import display_name, no_stdin, read_documents, read_input
from webhook.offline.objects import ManifestObject, objects_of
from webhook.offline.old_objects import OldObjects
from webhook.offline.releases import release_verdict
from webhook.rules.release import Release
from webhook.settings import PolicySettings

ObjectStatus = Literal["valid", "invalid", "skipped", "error"]


@dataclass(frozen=True, slots=True)
class ObjectResult:
    """The verdict on one object (or one unreadable input) of `dra-webhook validate`."""

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
        if self.causes:
            result["causes"] = list(self.causes)
        if self.warnings:
            result["warnings"] = list(self.warnings)
        return result


def error_result(problem: UnreadableInput) -> ObjectResult:
    return ObjectResult(problem.source, problem.line, "error", message=problem.reason, column=problem.column)


@dataclass(frozen=True, slots=True)
class ValidateOptions:
    """What `dra-webhook validate` was asked to do, apart from where to read and how to print."""

    policy: PolicySettings = field(default_factory=PolicySettings)
    subresource: str = ""
    strict: bool = False
    namespace: str = DEFAULT_NAMESPACE  # the request namespace (kubectl -n)
    # The cluster's release ("1.37", `--kubernetes-version`); "" judges each apiVersion as its own.
    kubernetes_version: str = ""


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
        read = read_documents(source, content)
        results = []
        for document in read.documents:
            for item in objects_of(document):
                if isinstance(item, UnreadableInput):
                    results.append(error_result(item))
                else:
                    results.append(self.judge_object(item))
        if read.error is not None:
            results.append(error_result(read.error))
        return results

    def judge_object(self, item: ManifestObject) -> ObjectResult:
        gvk = item.gvk
        registry = self.judge.registry
        if self.options.kubernetes_version:
            verdict = release_verdict(
                gvk, self.options.kubernetes_version, registry, strict=self.options.strict
            )
            if verdict is not None:
                return ObjectResult.of(item, verdict[0], message=verdict[1])
        rules = registry.get(gvk)
        if rules is None:
            return self._not_validated(item)
        release = registry.release_of(gvk)
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
        obj: Mapping[str, Any] = in_request_namespace(item.obj, rules, self.options.namespace)
        if old is not None:
            obj = server_filled_update(obj, old)
        try:
            judgement = self.judge.judge_object(
                rules,
                operation=operation,
                subresource=subresource if old is not None else "",
                obj=obj,
                old_obj=old,
            )
        except Exception as crash:  # a bug in a rule: say so loudly, keep going
            reason = f"internal error while validating: {type(crash).__name__}: {crash}"
            return ObjectResult.of(item, "error", operation=operation, message=reason)
        warnings = tuple(judgement.warnings)
        if not judgement.errors:
            return ObjectResult.of(item, "valid", operation=operation, warnings=warnings, release=release)
        return ObjectResult.of(
            item,
            "invalid",
            operation=operation,
            message=invalid_message(gvk.kind, DRA_GROUP, item.name, judgement.errors),
            causes=tuple(error.cause() for error in judgement.errors),
            warnings=warnings,
            release=release,
        )

    def _not_validated(self, item: ManifestObject) -> ObjectResult:
        gvk = item.gvk
        if gvk.group == DRA_GROUP:
            reason = f"{gvk} is not validated by dra-webhook"
        else:
            reason = f"{gvk} is not a {DRA_GROUP} object"
        if self.options.strict:
            return ObjectResult.of(item, "invalid", message=reason + " (--strict)")
        return ObjectResult.of(item, "skipped", message=reason)


def _who(item: ManifestObject) -> str:
    return f"{item.namespace}/{item.name}" if item.namespace else item.name
