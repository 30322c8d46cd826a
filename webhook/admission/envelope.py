"""The AdmissionReview envelope (admission.k8s.io v1 and v1beta1): its shapes, reading it, writing it.

The one module that knows the envelope. `parse_review` reads a body's bytes or a decoded dict into
immutable pydantic models, or raises `UnreadableReview`: a request that is not a readable
AdmissionReview is answered with an HTTP 4xx, never with a verdict. `review_response` wraps a
verdict in the answer; `review_document` writes the envelope kube-apiserver would send for an
object (for the offline commands).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from webhook.admission.verdicts import Verdict
from webhook.rules.kinds import GroupVersionKind
from webhook.rules.values import mapping, text

SUPPORTED_API_VERSIONS: Final = ("admission.k8s.io/v1", "admission.k8s.io/v1beta1")

Operation = Literal["CREATE", "UPDATE", "DELETE", "CONNECT"]


class UnreadableReview(ValueError):
    """The request is not a readable AdmissionReview: answered with an HTTP error, not a verdict."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


# --- the shapes -----------------------------------------------------------------------------------
# pydantic's messages name the classes ("Input should be a valid dictionary or instance of ReviewKind").


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True, frozen=True)


class ReviewKind(_Model):
    group: str = ""
    version: str
    kind: str

    def gvk(self) -> GroupVersionKind:
        return GroupVersionKind(self.group, self.version, self.kind)


class UserInfo(_Model):
    username: str = ""
    uid: str = ""
    groups: tuple[str, ...] | None = None


class AdmissionRequest(_Model):
    uid: str = Field(min_length=1)
    kind: ReviewKind
    sub_resource: str = Field("", alias="subResource")
    name: str = ""
    namespace: str = ""
    operation: Operation
    user_info: UserInfo | None = Field(None, alias="userInfo")
    object: Any = None
    old_object: Any = Field(None, alias="oldObject")
    dry_run: bool | None = Field(None, alias="dryRun")

    @property
    def object_name(self) -> str:
        """`metadata.name` of the object, "" when it has none (a CREATE with generateName)."""
        return text(mapping(mapping(self.object).get("metadata")).get("name"))


class AdmissionReview(_Model):
    api_version: str = Field(alias="apiVersion")
    request: AdmissionRequest


# --- parsing and answering --------------------------------------------------------------------------


def parse_review(body: bytes | str | Mapping[str, Any]) -> AdmissionReview:
    """Read an AdmissionReview from bytes or a decoded dict, or raise `UnreadableReview` (400)."""
    document: Any = body
    if type(document) is bytes or not is_json_object(document):  # the server hands bytes
        try:
            document = orjson.loads(document)
        except orjson.JSONDecodeError as error:
            raise UnreadableReview(400, f"request body is not valid JSON: {error}") from None
    if not is_json_object(document):
        raise UnreadableReview(400, "request body must be a JSON object (an AdmissionReview)")
    api_version = document.get("apiVersion")
    if api_version not in SUPPORTED_API_VERSIONS:
        problem = (
            "AdmissionReview has no apiVersion"
            if api_version is None
            else f"unsupported AdmissionReview apiVersion {api_version!r}"
        )
        raise UnreadableReview(400, f"{problem}; expected one of " + ", ".join(SUPPORTED_API_VERSIONS))
    if document.get("kind") != "AdmissionReview":
        raise UnreadableReview(400, f"expected kind AdmissionReview, got {document.get('kind')!r}")
    if not is_json_object(document.get("request")):
        raise UnreadableReview(400, "AdmissionReview has no request")
    try:
        return AdmissionReview.model_validate(document)
    except ValidationError as error:
        raise UnreadableReview(400, "invalid AdmissionReview: " + _first_problem(error)) from None


def is_json_object(value: Any) -> bool:
    """A JSON object: a decoded one is a dict, told without asking the `Mapping` ABC (a Python-level
    call for anything else, bytes included)."""
    return type(value) is dict or isinstance(value, Mapping)


def _first_problem(error: ValidationError) -> str:
    problems = error.errors(include_url=False, include_input=False)
    first = problems[0]
    location = ".".join(str(part) for part in first["loc"])
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return f"{location}: {first['msg']}{more}"


def review_document(
    *,
    uid: str,
    gvk: GroupVersionKind,
    resource: str,
    operation: str,
    obj: Any,
    old_obj: Any = None,
    subresource: str = "",
) -> dict[str, Any]:
    """An `admission.k8s.io/v1` AdmissionReview of `obj` as kube-apiserver sends it (name and
    namespace from its metadata), for callers that start from manifests (the offline suites). It is
    a document, not yet read: `parse_review` refuses it as the server would (an unknown operation)."""
    metadata = mapping(mapping(obj).get("metadata"))
    request: dict[str, Any] = {
        "uid": uid,
        "kind": {"group": gvk.group, "version": gvk.version, "kind": gvk.kind},
        "resource": {"group": gvk.group, "version": gvk.version, "resource": resource},
        "name": text(metadata.get("name")),
        "namespace": text(metadata.get("namespace")),
        "operation": operation,
        "object": obj,
    }
    if subresource:
        request["subResource"] = subresource
    if old_obj is not None:
        request["oldObject"] = old_obj
    return {"apiVersion": SUPPORTED_API_VERSIONS[0], "kind": "AdmissionReview", "request": request}


def review_response(review: AdmissionReview, verdict: Verdict) -> dict[str, Any]:
    """The AdmissionReview answer: same apiVersion, kind AdmissionReview, uid echoed."""
    return {
        "apiVersion": review.api_version,
        "kind": "AdmissionReview",
        "response": verdict.response(review.request.uid),
    }
