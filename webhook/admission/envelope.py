"""The AdmissionReview envelope (admission.k8s.io v1 and v1beta1): its shapes, reading it, writing it.

The one module that knows the envelope. `parse_review` reads a body's bytes or a decoded dict into
immutable named tuples (cheap to build and to read), or raises `UnreadableReview`: a request that is
not a readable AdmissionReview is answered with an HTTP 4xx, never with a verdict.
`review_response` wraps a verdict in the answer; `review_document` writes the envelope
kube-apiserver would send for an object (for the offline commands).

A well-formed envelope, every field of exactly the type the pydantic models below take as is, is
read straight from the decoded dict (`_read_envelope`); anything else goes through the models, which
give the same values or the error message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal, NamedTuple

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


class ReviewKind(NamedTuple):
    group: str
    version: str
    kind: str

    def gvk(self) -> GroupVersionKind:
        return GroupVersionKind(self.group, self.version, self.kind)


class UserInfo(NamedTuple):
    username: str
    uid: str
    groups: tuple[str, ...] | None


class AdmissionRequest(NamedTuple):
    uid: str
    kind: ReviewKind
    sub_resource: str
    name: str
    namespace: str
    operation: Operation
    user_info: UserInfo | None
    object: Any
    old_object: Any
    dry_run: bool | None

    @property
    def object_name(self) -> str:
        """`metadata.name` of the object, "" when it has none (a CREATE with generateName)."""
        return text(mapping(mapping(self.object).get("metadata")).get("name"))


class AdmissionReview(NamedTuple):
    api_version: str
    request: AdmissionRequest


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True, frozen=True)


class _Models:
    """The reference reading of an envelope (pydantic): what it accepts, its values and its error
    messages. The classes keep the names the public ones had when they were these models, since
    pydantic's messages name them ("instance of ReviewKind")."""

    class ReviewKind(_Model):
        group: str = ""
        version: str
        kind: str

    class UserInfo(_Model):
        username: str = ""
        uid: str = ""
        groups: tuple[str, ...] | None = None

    class AdmissionRequest(_Model):
        uid: str = Field(min_length=1)
        kind: _Models.ReviewKind
        sub_resource: str = Field("", alias="subResource")
        name: str = ""
        namespace: str = ""
        operation: Operation
        user_info: _Models.UserInfo | None = Field(None, alias="userInfo")
        object: Any = None
        old_object: Any = Field(None, alias="oldObject")
        dry_run: bool | None = Field(None, alias="dryRun")

    class AdmissionReview(_Model):
        api_version: str = Field(alias="apiVersion")
        request: _Models.AdmissionRequest


_Models.AdmissionRequest.model_rebuild()
_Models.AdmissionReview.model_rebuild()
_ReviewModel = _Models.AdmissionReview


def _from_model(model: _ReviewModel) -> AdmissionReview:
    request, kind, user = model.request, model.request.kind, model.request.user_info
    return AdmissionReview(
        model.api_version,
        AdmissionRequest(
            request.uid,
            ReviewKind(kind.group, kind.version, kind.kind),
            request.sub_resource,
            request.name,
            request.namespace,
            request.operation,
            None if user is None else UserInfo(user.username, user.uid, user.groups),
            request.object,
            request.old_object,
            request.dry_run,
        ),
    )


_OPERATIONS: Final = frozenset(("CREATE", "UPDATE", "DELETE", "CONNECT"))
_ABSENT: Final[Any] = object()


def _read_envelope(document: dict[str, Any]) -> AdmissionReview | None:
    """`_from_model(_ReviewModel.model_validate(document))` for a well-formed envelope, read
    without pydantic: every field present with exactly the type the models take unchanged (str,
    bool or null, a list of str for groups, dicts), or absent where the models have a default.
    None when the models must decide (a missing, empty or mistyped value, a value they would
    convert, a field given by its Python name rather than its alias): they answer then."""
    request = document.get("request")
    if type(request) is not dict:
        return None
    uid = request.get("uid")
    operation = request.get("operation")
    name = request.get("name", "")
    namespace = request.get("namespace", "")
    if (
        type(uid) is not str
        or not uid
        or type(operation) is not str
        or operation not in _OPERATIONS
        or type(name) is not str
        or type(namespace) is not str
    ):
        return None
    kind = _read_kind(request.get("kind"))
    sub_resource = _aliased(request, "subResource", "sub_resource", "")
    user_info = _aliased(request, "userInfo", "user_info", None)
    if user_info is not None:
        user_info = _read_user_info(user_info)
    old_object = _aliased(request, "oldObject", "old_object", None)
    dry_run = _aliased(request, "dryRun", "dry_run", None)
    if (
        kind is None
        or type(sub_resource) is not str
        or user_info is _ABSENT
        or old_object is _ABSENT
        or not (dry_run is None or dry_run is True or dry_run is False)
    ):
        return None
    return AdmissionReview(
        document["apiVersion"],
        AdmissionRequest(
            uid,
            kind,
            sub_resource,
            name,
            namespace,
            operation,  # type: ignore[arg-type]  # one of _OPERATIONS
            user_info,
            request.get("object"),
            old_object,
            dry_run,
        ),
    )


def _aliased(request: dict[str, Any], alias: str, name: str, default: Any) -> Any:
    """The value of a field the models know by its alias; `_ABSENT` when only its Python name is
    given (the models read it then), `default` when neither is."""
    value = request.get(alias, _ABSENT)
    if value is _ABSENT and name not in request:
        return default
    return value


def _read_kind(kind: Any) -> ReviewKind | None:
    if type(kind) is not dict:
        return None
    group, version, name = kind.get("group", ""), kind.get("version"), kind.get("kind")
    if type(group) is not str or type(version) is not str or type(name) is not str:
        return None
    return ReviewKind(group, version, name)


def _read_user_info(user_info: Any) -> UserInfo | Any:
    """The user, or `_ABSENT` when the models must read it."""
    if type(user_info) is not dict:
        return _ABSENT
    username, uid = user_info.get("username", ""), user_info.get("uid", "")
    groups = user_info.get("groups")
    if type(username) is not str or type(uid) is not str:
        return _ABSENT
    if groups is not None:
        if type(groups) is not list:
            return _ABSENT
        for group in groups:
            if type(group) is not str:
                return _ABSENT
        groups = tuple(groups)
    return UserInfo(username, uid, groups)


# --- parsing and answering --------------------------------------------------------------------------


def parse_review(body: bytes | str | Mapping[str, Any]) -> AdmissionReview:
    """Read an AdmissionReview from bytes or a decoded dict, or raise `UnreadableReview` (400)."""
    if isinstance(body, Mapping):
        document: Any = body
        # A dict made by anyone may hold what no JSON text decodes to (a lone surrogate, say): the
        # models read it, as they read everything but a well-formed body decoded here.
        decoded_here = False
    else:
        decoded_here = True
        try:
            document = orjson.loads(body)
        except orjson.JSONDecodeError as error:
            raise UnreadableReview(400, f"request body is not valid JSON: {error}") from None
    if not isinstance(document, Mapping):
        raise UnreadableReview(400, "request body must be a JSON object (an AdmissionReview)")
    api_version = document.get("apiVersion")
    if api_version not in SUPPORTED_API_VERSIONS:
        raise UnreadableReview(
            400,
            f"unsupported AdmissionReview apiVersion {api_version!r}; expected one of "
            + ", ".join(SUPPORTED_API_VERSIONS),
        )
    if document.get("kind") != "AdmissionReview":
        raise UnreadableReview(400, f"expected kind AdmissionReview, got {document.get('kind')!r}")
    if not isinstance(document.get("request"), Mapping):
        raise UnreadableReview(400, "AdmissionReview has no request")
    if decoded_here and type(document) is dict:
        envelope = _read_envelope(document)
        if envelope is not None:
            return envelope
    try:
        return _from_model(_ReviewModel.model_validate(document))
    except ValidationError as error:
        raise UnreadableReview(400, "invalid AdmissionReview: " + _first_problem(error)) from None


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
