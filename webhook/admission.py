"""The AdmissionReview bridge: envelope in (v1 and v1beta1), dispatch to the rules, verdict out.

This is the only module that knows the AdmissionReview envelope. It never sees HTTP: the server
hands `parse_review` the body's bytes (an `UnreadableReview` becomes a 4xx), the `Judge` a request,
and gets back from `review_response` the answer as a dict, which it encodes; the offline commands
and `review()` hand it dicts.

Three families of answer, never mixed (DESIGN):
* the request cannot be read -> `UnreadableReview` (an HTTP 4xx, no verdict);
* the request is read -> an AdmissionReview verdict: allowed, or denied like `apierrors.NewInvalid`;
* judging it crashed -> an AdmissionReview with code 500 InternalError, uid kept, stack logged once.
"""

from __future__ import annotations

import functools
import logging
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, NamedTuple

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

import webhook.cel as cel
from webhook.field import ErrorList, FieldError, invalid_message
from webhook.logs import request_fields
from webhook.registry import REGISTRY, KindRegistry, api_version_of
from webhook.rules.kinds import GroupVersionKind, KindRules
from webhook.rules.policy import NamespacePolicy, check_namespace_policy
from webhook.rules.release import Release
from webhook.rules.v1alpha2 import GROUP
from webhook.rules.values import mapping, text
from webhook.schemas import SchemaError, StructuralChecker, not_an_object
from webhook.settings import Enforcement, PolicySettings, UnknownKindPolicy

log = logging.getLogger("webhook.admission")

SUPPORTED_API_VERSIONS: Final = ("admission.k8s.io/v1", "admission.k8s.io/v1beta1")
DRA_GROUP: Final = GROUP
# kube-apiserver drops a warning with control characters and truncates each to 256 characters once
# their total passes 4096 (SPEC A.3): keep ours printable, short and few.
MAX_WARNING_CHARS: Final = 256
MAX_WARNINGS: Final = 16

Operation = Literal["CREATE", "UPDATE", "DELETE", "CONNECT"]


class UnreadableReview(ValueError):
    """The request is not a readable AdmissionReview: answered with an HTTP error, not a verdict."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


# --- the envelope ---------------------------------------------------------------------------------
#
# The envelope is read into immutable named tuples: cheap to build and to read. A well-formed
# envelope, every field of exactly the type the pydantic models below take as is, is read straight
# from the decoded dict (`_read_envelope`); anything else goes through the models, which give the
# same values or the error message.


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


# --- verdicts ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judgement of one request, before it is wrapped in an AdmissionReview."""

    allowed: bool
    status: Mapping[str, Any] | None = None
    warnings: tuple[str, ...] = ()
    errors: tuple[FieldError, ...] = ()  # the causes of a denial (or of warn-mode warnings)
    internal_error: bool = False
    # The release whose rules found `errors` (what the decision log names); None without errors.
    release: Release | None = None

    @property
    def code(self) -> int:
        if self.status is None:
            return 200
        return int(self.status.get("code", 200))

    def response(self, uid: str) -> dict[str, Any]:
        response: dict[str, Any] = {"uid": uid, "allowed": self.allowed}
        if self.status is not None:
            response["status"] = self.status
        if self.warnings:
            response["warnings"] = list(self.warnings)
        return response


def allowed(warnings: Sequence[str] = ()) -> Verdict:
    if not warnings:
        return _ALLOWED  # a Verdict is immutable: one serves every plain "allowed"
    return Verdict(True, warnings=tidy_warnings(warnings))


_ALLOWED: Final = Verdict(True)


def denied_invalid(
    kind: str,
    name: str,
    errors: Sequence[FieldError],
    warnings: Sequence[str] = (),
    *,
    release: Release | None = None,
) -> Verdict:
    """A denial shaped exactly like the API server's `apierrors.NewInvalid` (HTTP 422, reason Invalid)."""
    details: dict[str, Any] = {}
    if name:
        details["name"] = name
    details["group"] = DRA_GROUP
    details["kind"] = kind
    details["causes"] = [error.cause() for error in errors]
    status = {
        "metadata": {},
        "status": "Failure",
        "message": invalid_message(kind, DRA_GROUP, name, errors),
        "reason": "Invalid",
        "details": details,
        "code": 422,
    }
    return Verdict(
        False, status=status, warnings=tidy_warnings(warnings), errors=tuple(errors), release=release
    )


def denied(code: int, reason: str, message: str, warnings: Sequence[str] = ()) -> Verdict:
    """A denial that is not a field validation (a request we can read but refuse as a whole)."""
    status = {"metadata": {}, "status": "Failure", "message": message, "reason": reason, "code": code}
    return Verdict(False, status=status, warnings=tidy_warnings(warnings))


def errored(message: str) -> Verdict:
    """Judging crashed: a 500 InternalError answer with a short message and no stack trace."""
    status = {"metadata": {}, "status": "Failure", "message": message, "reason": "InternalError", "code": 500}
    return Verdict(False, status=status, internal_error=True)


def tidy_warnings(warnings: Sequence[str]) -> tuple[str, ...]:
    """Printable, at most 256 characters each, at most 16, duplicates dropped (SPEC A.3)."""
    tidy: dict[str, None] = {}
    for warning in warnings:
        printable = "".join(char if unicodedata.category(char)[0] != "C" else " " for char in warning).strip()
        if len(printable) > MAX_WARNING_CHARS:
            printable = printable[: MAX_WARNING_CHARS - 3] + "..."
        if printable:
            tidy.setdefault(printable, None)
    kept = list(tidy)
    if len(kept) > MAX_WARNINGS:
        omitted = len(kept) - (MAX_WARNINGS - 1)
        kept = [*kept[: MAX_WARNINGS - 1], f"dra-webhook: {omitted} more warnings omitted"]
    return tuple(kept)


# --- the judge ------------------------------------------------------------------------------------


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
    # The registry by (group, version, kind) as plain tuples: `request.kind` (a tuple) finds its
    # entry without building a GroupVersionKind and hashing it in Python.
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
                # The fields the old object shares with the new one, which passed, are not walked again.
                old_report = self.structural.check_against(gvk, old_obj, obj)
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
        if not _is_object(obj) or (operation == "UPDATE" and not _is_object(old_obj)):
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
        known = self._known_kinds.get(request.kind)
        if known is None:
            return self._unknown_kind(request.kind.gvk())
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


def _is_object(value: Any) -> bool:
    return type(value) is dict or isinstance(value, Mapping)  # a decoded object is a dict: no ABC check


def _kind_mismatch(known: _KnownKind, obj: Any) -> str:
    """An object whose apiVersion/kind disagree with request.kind cannot be judged as that kind."""
    if not _is_object(obj):
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
    if not _is_object(obj):
        errors.append(not_an_object(obj))
    if not _is_object(old_obj):
        errors.append(_in_old_object(not_an_object(old_obj)))
    return errors


def _in_old_object(error: FieldError) -> FieldError:
    return FieldError(error.type, f"oldObject.{error.field}", error.bad_value, error.detail)


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
