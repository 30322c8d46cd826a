"""ObjectMeta on create and update, exactly as kube-apiserver 1.30 checks it for resource.k8s.io.

Every resource.k8s.io validator calls the *core* wrappers (`pkg/apis/core/validation`):
`corevalidation.ValidateObjectMeta`, `corevalidation.ValidateObjectMetaUpdate` and, for a
ResourceClaimTemplate's `spec.metadata`, `corevalidation.ValidateTemplateObjectMeta`. The first two
run apimachinery's checks (`k8s.io/apimachinery/pkg/api/validation/objectmeta.go`, v0.30) and then
one check of their own, `validateKubeFinalizerName`: a finalizer without a '/' must be one of the
standard names, reported per index after everything else. That check runs on every update too,
`/status` included, although apimachinery's update check does not look at finalizer names.

The fields checked each on their own (labels, annotations, owner references, finalizers, managed
fields) are `webhook.rules.metafields`'.

Times: Go prints a `metav1.Time` through the `String()` of its embedded `time.Time`, in the
server's local zone. kube-apiserver runs with UTC as its local zone (its images carry no zone
data), so times print as ``2024-01-02 03:04:05 +0000 UTC``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from webhook.field import (
    ROOT,
    ErrorList,
    FieldPath,
    GoText,
    forbidden,
    go_json,
    go_quote,
    go_string_slice,
    internal,
    invalid,
    required,
)
from webhook.gotime import ZERO_TIME, GoTime, parse_rfc3339
from webhook.release import KUBERNETES_1_30, Release
from webhook.rules import metafields
from webhook.rules.kinds import CreateValidator, Obj, UpdateValidator
from webhook.rules.names import (
    is_dns1123_label,
    name_is_dns_subdomain,
    path_segment_name,
)
from webhook.rules.values import integer, mapping, sequence, text

__all__ = [
    "FIELD_IMMUTABLE_MSG",
    "METADATA",
    "NameFn",
    "object_meta_update_then",
    "validate_common_update_fields",
    "validate_object_meta",
    "validate_object_meta_update",
    "validate_object_meta_with_opts",
    "validate_template_object_meta",
]

NameFn = Callable[[str, bool], list[str]]
# `ValidateNameFuncWithErrors` (apimachinery 0.33+): the field errors of a name at its path.
NameErrorsFn = Callable[[str, FieldPath], ErrorList]
METADATA: Final = ROOT.child("metadata")

IS_NEGATIVE_MSG: Final = "must be greater than or equal to 0"
# apimachineryvalidation.FieldImmutableErrorMsg, the message of every ValidateImmutableField.
FIELD_IMMUTABLE_MSG: Final = "field is immutable"


# --- create ------------------------------------------------------------------------------------


def validate_object_meta(
    meta: Any,
    *,
    namespaced: bool,
    name_fn: NameFn = name_is_dns_subdomain,
    path: FieldPath = METADATA,
    release: Release = KUBERNETES_1_30,
    core_checks: bool = True,
) -> ErrorList:
    """`corevalidation.ValidateObjectMeta(meta, requiresNamespace, nameFn, fldPath)`; without
    `core_checks`, apimachinery's `ValidateObjectMetaAccessor` alone (no finalizer-name check of the
    core wrapper)."""
    fields = mapping(meta)
    errs = _validate_names(fields, name_fn, path)
    errs += _validate_create_common(fields, namespaced, path, release, core_checks=core_checks)
    return errs


def validate_object_meta_with_opts(
    meta: Any,
    *,
    namespaced: bool,
    name_errors: NameErrorsFn,
    path: FieldPath = METADATA,
    release: Release = KUBERNETES_1_30,
) -> ErrorList:
    """`corevalidation.ValidateObjectMetaWithOpts` (apimachinery 0.33+), which DeviceClass uses from
    1.35 on: generateName is not checked (the name generated from it is), a generateName without a
    generated name is an internal error, and the name function returns field errors."""
    fields = mapping(meta)
    errs: ErrorList = []
    generate_name, name = text(fields.get("generateName")), text(fields.get("name"))
    if generate_name and not name:
        detail = f"generateName was specified ({go_quote(generate_name)}), but no name was generated"
        errs.append(internal(path.child("name"), detail))
    if not name:
        errs.append(required(path.child("name"), "name or generateName is required"))
    else:
        errs += name_errors(name, path.child("name"))
    errs += _validate_create_common(fields, namespaced, path, release)
    return errs


def _validate_create_common(
    fields: Mapping[str, Any],
    namespaced: bool,
    path: FieldPath,
    release: Release,
    *,
    core_checks: bool = True,
) -> ErrorList:
    """What `validateObjectMetaAccessorWithOptsCommon` checks after the names, and core's check of
    the finalizer names."""
    errs = _validate_namespace(text(fields.get("namespace")), namespaced, path.child("namespace"))
    generation = integer(fields.get("generation"))
    if generation < 0:
        errs.append(invalid(path.child("generation"), generation, IS_NEGATIVE_MSG))
    errs += _validate_common_meta(fields, path, release)
    finalizers = _strings(fields.get("finalizers"))
    if finalizers:
        errs += metafields.validate_finalizers(finalizers, path.child("finalizers"), release=release)
    if not metafields.are_valid_managed_fields(fields.get("managedFields")):
        errs += metafields.validate_managed_fields(
            fields.get("managedFields"), path.child("managedFields"), release=release
        )
    if finalizers and core_checks:
        errs += metafields.validate_kube_finalizer_names(finalizers, path.child("finalizers"))
    return errs


def _validate_common_meta(fields: Mapping[str, Any], path: FieldPath, release: Release) -> ErrorList:
    """Labels, annotations and owner references, checked alike on create and update. Each check
    runs (and builds its path) only when its fast test did not find the field valid."""
    errs: ErrorList = []
    if not metafields.are_valid_labels(fields.get("labels")):
        errs += metafields.validate_labels(fields.get("labels"), path.child("labels"), release=release)
    if not metafields.are_valid_annotations(fields.get("annotations")):
        errs += metafields.validate_annotations(
            fields.get("annotations"), path.child("annotations"), release=release
        )
    if fields.get("ownerReferences"):  # null, absent or empty: no reference to check
        errs += metafields.validate_owner_references(
            fields.get("ownerReferences"), path.child("ownerReferences"), release=release
        )
    return errs


def _validate_names(fields: Mapping[str, Any], name_fn: NameFn, path: FieldPath) -> ErrorList:
    errs: ErrorList = []
    generate_name = text(fields.get("generateName"))
    if generate_name:
        generate_path = path.child("generateName")
        errs += [invalid(generate_path, generate_name, msg) for msg in name_fn(generate_name, True)]
    # The REST layer fills name from generateName before validation, so name is required even
    # when generateName is set.
    name = text(fields.get("name"))
    if not name:
        errs.append(required(path.child("name"), "name or generateName is required"))
    else:
        errs += [invalid(path.child("name"), name, msg) for msg in name_fn(name, False)]
    return errs


def _validate_namespace(namespace: str, namespaced: bool, path: FieldPath) -> ErrorList:
    if not namespaced:
        return [forbidden(path, "not allowed on this type")] if namespace else []
    if not namespace:
        return [required(path, "")]
    # ValidateNamespaceName is the DNS label check (with "must not contain dots" since 1.27).
    return [invalid(path, namespace, msg) for msg in is_dns1123_label(namespace)]


# --- update ------------------------------------------------------------------------------------


def validate_object_meta_update(
    new_meta: Any,
    old_meta: Any,
    *,
    path: FieldPath = METADATA,
    release: Release = KUBERNETES_1_30,
    core_checks: bool = True,
) -> ErrorList:
    """`corevalidation.ValidateObjectMetaUpdate(new, old, fldPath)`; callers re-run the create
    validation themselves where Go does. Without `core_checks`, apimachinery's
    `ValidateObjectMetaAccessorUpdate` alone."""
    new, old = mapping(new_meta), mapping(old_meta)
    errs: ErrorList = []
    # Finalizers cannot be added once the object is being deleted.
    if old.get("deletionTimestamp") is not None:
        errs += _validate_no_new_finalizers(
            _strings(new.get("finalizers")), _strings(old.get("finalizers")), path.child("finalizers")
        )
    resource_version = text(new.get("resourceVersion"))
    if not resource_version:
        errs.append(
            invalid(path.child("resourceVersion"), resource_version, "must be specified for an update")
        )
    if release.object_meta_1_36 and integer(new.get("generation")) < 0:
        # 0.36+ checks the new generation like create does, before the decrement.
        errs.append(invalid(path.child("generation"), integer(new.get("generation")), IS_NEGATIVE_MSG))
    if not _same_json(new.get("generation"), old.get("generation")):
        new_generation = integer(new.get("generation"))
        if new_generation < integer(old.get("generation")):
            errs.append(invalid(path.child("generation"), new_generation, "must not be decremented"))
    errs += _validate_immutable_metadata(new, old, path, release)
    errs += _validate_common_meta(new, path, release)
    if not metafields.are_valid_managed_fields(new.get("managedFields")):
        errs += metafields.validate_managed_fields(
            new.get("managedFields"), path.child("managedFields"), release=release
        )
    new_finalizers = _strings(new.get("finalizers"))
    if new_finalizers and core_checks:
        errs += metafields.validate_kube_finalizer_names(new_finalizers, path.child("finalizers"))
    return errs


def validate_common_update_fields(
    new_meta: Any, old_meta: Any, *, namespaced: bool, release: Release = KUBERNETES_1_30
) -> ErrorList:
    """`rest.validateCommonFields` (apiserver `pkg/registry/rest/update.go`): what the REST layer
    checks on every update before the kind's `ValidateUpdate` -- the new metadata as on create, names
    checked as path segments (`ValidateObjectMetaAccessor(..., validatePathSegment, ...)`), then
    `ValidateObjectMetaAccessorUpdate`. Most of it repeats what the kind's own checks find."""
    errs = validate_object_meta(
        new_meta, namespaced=namespaced, name_fn=path_segment_name, release=release, core_checks=False
    )
    errs += validate_object_meta_update(new_meta, old_meta, release=release, core_checks=False)
    return errs


def object_meta_update_then(validate: CreateValidator) -> UpdateValidator:
    """The update validator of a kind whose `Validate*Update` is `ValidateObjectMetaUpdate(new, old)`
    followed by its create validation of `new`, and nothing else (ValidateClassUpdate,
    ValidatePodSchedulingContextUpdate, ValidateResourceClassParametersUpdate)."""

    def validate_update(new: Obj, old: Obj) -> ErrorList:
        errs = validate_object_meta_update(new.get("metadata"), old.get("metadata"))
        errs += validate(new)
        return errs

    return validate_update


def _validate_no_new_finalizers(new: Sequence[str], old: Sequence[str], path: FieldPath) -> ErrorList:
    """apimachinery `ValidateNoNewFinalizers`; Go prints the sorted set difference with %#v."""
    extra = sorted(set(new) - set(old))
    if not extra:
        return []
    found = go_string_slice(extra).text
    return [
        forbidden(
            path,
            f"no new finalizers can be added if the object is being deleted, found new finalizers {found}",
        )
    ]


def _validate_immutable_metadata(
    new: Mapping[str, Any], old: Mapping[str, Any], path: FieldPath, release: Release = KUBERNETES_1_30
) -> ErrorList:
    """The `ValidateImmutableField` calls (semantic equality; the bad value is the new value, printed
    from apimachinery 0.34 on as JSON: the times in RFC 3339, a nil pointer as null)."""
    errs: ErrorList = []
    for key in ("name", "namespace", "uid"):
        if not _same_json(new.get(key), old.get(key)):
            new_text = text(new.get(key))
            if new_text != text(old.get(key)):
                bad_text: Any = new_text
                if key == "uid" and release.object_meta_1_36:
                    # GetUID() is a types.UID, a named string type: ErrorBody (0.34+) prints it with
                    # json.Marshal ('<', '>', '&' and control characters escaped), not %q.
                    bad_text = GoText(go_json(new_text))
                errs.append(invalid(path.child(key), bad_text, FIELD_IMMUTABLE_MSG))
    # creationTimestamp is a metav1.Time (a struct): absent or null is the zero time. The same
    # text on both sides reads as the same time: only different texts need parsing.
    if not _same_value(new.get("creationTimestamp"), old.get("creationTimestamp")):
        new_created = _read_time(new.get("creationTimestamp"))
        if new_created != _read_time(old.get("creationTimestamp")):
            shown = new_created.json_text() if release.object_meta_1_36 else new_created.go_text()
            errs.append(invalid(path.child("creationTimestamp"), shown, FIELD_IMMUTABLE_MSG))
    # deletionTimestamp is a *metav1.Time: nil differs from any time and prints as "null".
    if not _same_value(new.get("deletionTimestamp"), old.get("deletionTimestamp")):
        new_deleted = _read_optional_time(new.get("deletionTimestamp"))
        if new_deleted != _read_optional_time(old.get("deletionTimestamp")):
            bad: Any = None if new_deleted is None else new_deleted.go_text()
            if release.object_meta_1_36:
                bad = GoText("null") if new_deleted is None else new_deleted.json_text()
            errs.append(invalid(path.child("deletionTimestamp"), bad, FIELD_IMMUTABLE_MSG))
    if not _same_json(new.get("deletionGracePeriodSeconds"), old.get("deletionGracePeriodSeconds")):
        new_grace = _read_optional_integer(new.get("deletionGracePeriodSeconds"))
        if new_grace != _read_optional_integer(old.get("deletionGracePeriodSeconds")):
            shown_grace: Any = new_grace
            if release.object_meta_1_36 and new_grace is None:
                shown_grace = GoText("null")
            errs.append(invalid(path.child("deletionGracePeriodSeconds"), shown_grace, FIELD_IMMUTABLE_MSG))
    return errs


def _same_json(a: Any, b: Any) -> bool:
    """The same decoded JSON value, type included: whatever reads one reads the other the same."""
    return type(a) is type(b) and a == b


def _same_value(a: Any, b: Any) -> bool:
    """The same decoded JSON scalar (type and value): it reads the same on both sides."""
    return type(a) is type(b) and (a is None or (isinstance(a, str) and a == b))


def _read_optional_integer(value: Any) -> int | None:
    """A *int64 field: None when null or absent."""
    return None if value is None else integer(value)


@dataclass(frozen=True, slots=True)
class _Time:
    """A `metav1.Time` as Go decodes it: its instant (`webhook.gotime`), the zero time when absent.

    Text Go could not have parsed (its decoder would have failed earlier, so only a caller that
    turned the structural check off gets here) is kept as `unparsed` and compared as text.
    """

    instant: GoTime = ZERO_TIME
    unparsed: str | None = None

    def go_text(self) -> GoText | str:
        """`time.Time.String()` in UTC: ``2006-01-02 15:04:05.999999999 +0000 UTC``."""
        return self.unparsed if self.unparsed is not None else GoText(str(self.instant))

    def json_text(self) -> GoText | str:
        """`metav1.Time.MarshalJSON`: the zero time is null, any other ``"2006-01-02T15:04:05Z"``
        (whole seconds, UTC)."""
        if self.unparsed is not None:
            return self.unparsed
        if self.instant == ZERO_TIME:
            return GoText("null")
        return GoText(go_json(self.instant.rfc3339_seconds()))


def _read_time(value: Any) -> _Time:
    """A metav1.Time field: the zero time when null or absent."""
    if not isinstance(value, str):
        return _Time()
    instant = parse_rfc3339(value)
    return _Time(instant) if instant is not None else _Time(unparsed=value)


def _read_optional_time(value: Any) -> _Time | None:
    """A *metav1.Time field: None when null or absent."""
    return None if value is None else _read_time(value)


# --- ResourceClaimTemplate spec.metadata -------------------------------------------------------


def _is_text(value: Any) -> bool:
    return bool(text(value))


def _is_present(value: Any) -> bool:
    return value is not None


def _is_list(value: Any) -> bool:
    return isinstance(value, list)


def _is_nonzero_integer(value: Any) -> bool:
    return integer(value) != 0


# metav1.ObjectMeta's fields in Go order, except Labels and Annotations (the only ones allowed):
# (JSON key, the Go field name with its first rune lower-cased as validateFieldAllowList prints it,
# whether the field is set). Go compares each field to its zero value with reflect.DeepEqual, so an
# empty but present list (a non-nil slice) is set, and so is a pointer to zero.
_TEMPLATE_FORBIDDEN_FIELDS: Final[tuple[tuple[str, str, Callable[[Any], bool]], ...]] = (
    ("name", "name", _is_text),
    ("generateName", "generateName", _is_text),
    ("namespace", "namespace", _is_text),
    ("selfLink", "selfLink", _is_text),
    ("uid", "uID", _is_text),
    ("resourceVersion", "resourceVersion", _is_text),
    ("generation", "generation", _is_nonzero_integer),
    ("creationTimestamp", "creationTimestamp", _is_present),
    ("deletionTimestamp", "deletionTimestamp", _is_present),
    ("deletionGracePeriodSeconds", "deletionGracePeriodSeconds", _is_present),
    ("ownerReferences", "ownerReferences", _is_list),
    ("finalizers", "finalizers", _is_list),
    ("managedFields", "managedFields", _is_list),
)


def validate_template_object_meta(
    meta: Any, path: FieldPath, *, release: Release = KUBERNETES_1_30
) -> ErrorList:
    """`corevalidation.ValidateTemplateObjectMeta`: annotations, then labels, then every other
    ObjectMeta field that is set is Forbidden (`validateFieldAllowList`, "cannot be set")."""
    fields = mapping(meta)
    errs = metafields.validate_annotations(
        fields.get("annotations"), path.child("annotations"), release=release
    )
    errs += metafields.validate_labels(fields.get("labels"), path.child("labels"), release=release)
    errs += [
        forbidden(path.child(go_name), "cannot be set")
        for key, go_name, is_set in _TEMPLATE_FORBIDDEN_FIELDS
        if is_set(fields.get(key))
    ]
    return errs


def _strings(value: Any) -> list[str]:
    """A []string field: null entries decode as ""."""
    return [text(item) for item in sequence(value)]
