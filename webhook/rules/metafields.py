"""The fields of ObjectMeta that are checked each on their own, as apimachinery checks them
(`k8s.io/apimachinery/pkg/api/validation/objectmeta.go` and `pkg/apis/meta/v1/validation`): labels,
annotations, owner references, finalizers and managed fields. `webhook.rules.meta` calls them from
ObjectMeta's create and update checks, each after a test that finds the usual valid value valid at
once (`are_valid_labels` and its kind), the full check running only when that test says no.

Go walks the label and annotation maps in random order; these functions use the document order,
which is one of the orders Go may produce.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any, Final

from webhook.field import (
    ErrorList,
    FieldPath,
    GoText,
    go_json,
    go_string_slice,
    invalid,
    not_supported,
    required,
)
from webhook.release import KUBERNETES_1_30, Release
from webhook.rules.names import (
    byte_length,
    go_to_lower,
    is_qualified_name,
    is_valid_annotation_key,
    is_valid_label,
    is_valid_label_value,
    release_too_long,
)
from webhook.rules.values import mapping, sequence, string_map, text

# apimachinery TotalAnnotationSizeLimitB: keys plus values, in bytes.
TOTAL_ANNOTATION_SIZE_LIMIT_BYTES: Final = 256 * 1024
# metav1 validation FieldManagerMaxLength and MaxSubresourceNameLength (bytes).
FIELD_MANAGER_MAX_LENGTH: Final = 128
MAX_SUBRESOURCE_NAME_LENGTH: Final = 256

FINALIZER_ORPHAN_DEPENDENTS: Final = "orphan"
FINALIZER_DELETE_DEPENDENTS: Final = "foregroundDeletion"
# pkg/apis/core/helper standardFinalizers: core.FinalizerKubernetes plus the two metav1 ones.
STANDARD_FINALIZERS: Final = frozenset(
    {"kubernetes", FINALIZER_ORPHAN_DEPENDENTS, FINALIZER_DELETE_DEPENDENTS}
)
# apimachinery BannedOwners: (group, version, kind) that may not own anything.
BANNED_OWNERS: Final = frozenset({("", "v1", "Event")})
MANAGED_FIELDS_OPERATIONS: Final = frozenset({"Apply", "Update"})


def are_valid_labels(labels: Any) -> bool:
    """Whether `validate_labels` finds nothing: null or absent, or a map of strings whose every entry
    is valid. Anything else (a non-string value reads as "") is left to `validate_labels`."""
    if labels is None:
        return True
    if type(labels) is not dict:
        return False
    for key, value in labels.items():
        if type(key) is not str or type(value) is not str or not is_valid_label(key, value):
            return False
    return True


def are_valid_annotations(annotations: Any) -> bool:
    """Whether `validate_annotations` finds nothing, tested as `are_valid_labels` is.

    The size budget counts bytes; a character is at most 4 bytes of UTF-8, so characters within a
    quarter of the budget are within it (a larger map is measured by `validate_annotations`).
    """
    if annotations is None:
        return True
    if type(annotations) is not dict:
        return False
    characters = 0
    for key, value in annotations.items():
        if type(key) is not str or type(value) is not str or not is_valid_annotation_key(key):
            return False
        characters += len(key) + len(value)
    return characters * 4 <= TOTAL_ANNOTATION_SIZE_LIMIT_BYTES


def validate_labels(labels: Any, path: FieldPath, *, release: Release = KUBERNETES_1_30) -> ErrorList:
    """metav1 `ValidateLabels`: every error at the map's own path, value = the bad key or value."""
    if are_valid_labels(labels):
        return []
    errs: ErrorList = []
    for key, value in string_map(labels).items():
        errs += [invalid(path, key, msg) for msg in is_qualified_name(key, release=release)]
        errs += [invalid(path, value, msg) for msg in is_valid_label_value(value, release=release)]
    return errs


def validate_annotations(
    annotations: Any, path: FieldPath, *, release: Release = KUBERNETES_1_30
) -> ErrorList:
    """apimachinery `ValidateAnnotations`: keys are qualified names once lower-cased (case does not
    matter), and keys plus values take at most 256 KiB."""
    if are_valid_annotations(annotations):
        return []
    entries = string_map(annotations)
    errs: ErrorList = []
    for key in entries:
        errs += [invalid(path, key, msg) for msg in is_qualified_name(go_to_lower(key), release=release)]
    total = sum(byte_length(key) + byte_length(value) for key, value in entries.items())
    if total > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES:
        errs.append(release_too_long(path, "", TOTAL_ANNOTATION_SIZE_LIMIT_BYTES, release=release))
    return errs


def validate_owner_references(
    owner_references: Any, path: FieldPath, *, release: Release = KUBERNETES_1_30
) -> ErrorList:
    """apimachinery `ValidateOwnerReferences`; up to 0.35 the paths carry no index, from 0.36 on
    they do (`Release.object_meta_1_36`)."""
    references = sequence(owner_references)
    errs: ErrorList = []
    first_controller = ""
    for i, reference in enumerate(references):
        fields = mapping(reference)
        if release.object_meta_1_36:
            errs += _validate_owner_reference_1_36(fields, path.index(i))
        else:
            errs += _validate_owner_reference(fields, path)
        if fields.get("controller") is True:
            controller = f"{text(fields.get('kind'))}/{text(fields.get('name'))}"
            if first_controller:
                detail = (
                    'Only one reference can have Controller set to true. Found "true" in references for '
                    f"{first_controller} and {controller}"
                )
                shown: Any = list(references)
                if release.object_meta_1_36:
                    shown = GoText(go_json([_owner_reference_json(mapping(item)) for item in references]))
                errs.append(invalid(path, shown, detail))
            else:
                first_controller = controller
    return errs


def _validate_owner_reference_1_36(fields: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """apimachinery 0.36+ `validateOwnerReference`: missing fields are Required at their index, an
    apiVersion that `schema.ParseGroupVersion` rejects or that has no version is Invalid."""
    api_version, kind = text(fields.get("apiVersion")), text(fields.get("kind"))
    errs: ErrorList = []
    group, version, parsed = _parse_group_version_strict(api_version)
    if not api_version:
        errs.append(required(path.child("apiVersion"), "must not be empty"))
    elif not parsed or not version:
        errs.append(invalid(path.child("apiVersion"), api_version, "must be <group>/<version> or <version>"))
    if not kind:
        errs.append(required(path.child("kind"), "must not be empty"))
    if not text(fields.get("name")):
        errs.append(required(path.child("name"), "must not be empty"))
    if not text(fields.get("uid")):
        errs.append(required(path.child("uid"), "must not be empty"))
    if (group, version, kind) in BANNED_OWNERS:
        detail = f"{group}/{version}, Kind={kind} is disallowed from being an owner"
        errs.append(invalid(path, GoText(go_json(_owner_reference_json(fields))), detail))
    return errs


def _parse_group_version_strict(api_version: str) -> tuple[str, str, bool]:
    """`schema.ParseGroupVersion`: (group, version, parsed)."""
    if api_version in ("", "/"):
        return "", "", True
    match api_version.count("/"):
        case 0:
            return "", api_version, True
        case 1:
            group, version = api_version.split("/")
            return group, version, True
        case _:
            return "", "", False


def _owner_reference_json(fields: Mapping[str, Any]) -> dict[str, Any]:
    """A metav1.OwnerReference as Go's encoding/json writes it: the struct's field order, the
    pointers only when set."""
    encoded: dict[str, Any] = {
        "apiVersion": text(fields.get("apiVersion")),
        "kind": text(fields.get("kind")),
        "name": text(fields.get("name")),
        "uid": text(fields.get("uid")),
    }
    for key in ("controller", "blockOwnerDeletion"):
        if isinstance(fields.get(key), bool):
            encoded[key] = fields[key]
    return encoded


def _validate_owner_reference(fields: Mapping[str, Any], path: FieldPath) -> ErrorList:
    api_version, kind = text(fields.get("apiVersion")), text(fields.get("kind"))
    group, version = _parse_group_version(api_version)
    errs: ErrorList = []
    if not version:
        errs.append(invalid(path.child("apiVersion"), api_version, "version must not be empty"))
    if not kind:
        errs.append(invalid(path.child("kind"), kind, "kind must not be empty"))
    name, uid = text(fields.get("name")), text(fields.get("uid"))
    if not name:
        errs.append(invalid(path.child("name"), name, "name must not be empty"))
    if not uid:
        errs.append(invalid(path.child("uid"), uid, "uid must not be empty"))
    if (group, version, kind) in BANNED_OWNERS:
        # GroupVersionKind.String() is "<group>/<version>, Kind=<kind>"; Go prints the reference
        # as a struct literal, rendered here as JSON (`webhook.field`).
        detail = f"{group}/{version}, Kind={kind} is disallowed from being an owner"
        errs.append(invalid(path, dict(fields), detail))
    return errs


def _parse_group_version(api_version: str) -> tuple[str, str]:
    """`schema.FromAPIVersionAndKind`'s group and version: both empty when Go cannot parse it."""
    if api_version in ("", "/"):
        return "", ""
    match api_version.count("/"):
        case 0:
            return "", api_version
        case 1:
            group, version = api_version.split("/")
            return group, version
        case _:
            return "", ""


def validate_finalizers(
    finalizers: Sequence[str], path: FieldPath, *, release: Release = KUBERNETES_1_30
) -> ErrorList:
    """apimachinery `ValidateFinalizers`: qualified names, and not both orphan and foreground."""
    errs: ErrorList = []
    for finalizer in finalizers:
        errs += [invalid(path, finalizer, msg) for msg in is_qualified_name(finalizer, release=release)]
    if FINALIZER_ORPHAN_DEPENDENTS in finalizers and FINALIZER_DELETE_DEPENDENTS in finalizers:
        detail = (
            f"finalizer {FINALIZER_ORPHAN_DEPENDENTS} and {FINALIZER_DELETE_DEPENDENTS} cannot be both set"
        )
        # The []string prints with %#v up to 0.33, as JSON from 0.34 on.
        shown = GoText(go_json(list(finalizers))) if release.object_meta_1_36 else go_string_slice(finalizers)
        errs.append(invalid(path, shown, detail))
    return errs


def validate_kube_finalizer_names(finalizers: Sequence[str], path: FieldPath) -> ErrorList:
    """core `validateKubeFinalizerName`, run by the core wrappers on create and on every update."""
    return [
        invalid(
            path.index(i), finalizer, "name is neither a standard finalizer name nor is it fully qualified"
        )
        for i, finalizer in enumerate(finalizers)
        if "/" not in finalizer and finalizer not in STANDARD_FINALIZERS
    ]


def are_valid_managed_fields(managed_fields: Any) -> bool:
    """Whether `validate_managed_fields` finds nothing, for the usual entries: an operation of
    Apply or Update, fieldsType FieldsV1 or absent, a printable ASCII manager of at most 128 bytes
    or none, a subresource of at most 64 characters (256 bytes at most) or none. Any other entry is
    left to `validate_managed_fields`."""
    if managed_fields is None:
        return True
    if type(managed_fields) is not list:
        return False
    for entry in managed_fields:
        if type(entry) is not dict:
            return False
        operation, fields_type = entry.get("operation"), entry.get("fieldsType")
        if not (operation == "Update" or operation == "Apply") or not (
            fields_type == "FieldsV1" or fields_type is None
        ):
            return False
        manager, subresource = entry.get("manager"), entry.get("subresource")
        if manager is not None and not (
            type(manager) is str
            and len(manager) <= FIELD_MANAGER_MAX_LENGTH
            and manager.isascii()
            and manager.isprintable()
        ):
            return False
        if subresource is not None and not (
            type(subresource) is str and len(subresource) * 4 <= MAX_SUBRESOURCE_NAME_LENGTH
        ):
            return False
    return True


def validate_managed_fields(
    managed_fields: Any, path: FieldPath, *, release: Release = KUBERNETES_1_30
) -> ErrorList:
    """metav1 `ValidateManagedFields`."""
    errs: ErrorList = []
    for i, entry in enumerate(sequence(managed_fields)):
        entry_path, fields = path.index(i), mapping(entry)
        operation = text(fields.get("operation"))
        if operation not in MANAGED_FIELDS_OPERATIONS:
            if not release.object_meta_1_36:
                errs.append(invalid(entry_path.child("operation"), operation, "must be `Apply` or `Update`"))
            elif not operation:
                errs.append(required(entry_path.child("operation"), "must not be empty"))
            else:
                errs.append(not_supported(entry_path.child("operation"), operation, ("Apply", "Update")))
        fields_type = text(fields.get("fieldsType"))
        if fields_type and fields_type != "FieldsV1":
            errs.append(invalid(entry_path.child("fieldsType"), fields_type, "must be `FieldsV1`"))
        errs += _validate_field_manager(text(fields.get("manager")), entry_path.child("manager"), release)
        subresource = text(fields.get("subresource"))
        if byte_length(subresource) > MAX_SUBRESOURCE_NAME_LENGTH:
            errs.append(
                release_too_long(
                    entry_path.child("subresource"), subresource, MAX_SUBRESOURCE_NAME_LENGTH, release=release
                )
            )
    return errs


def _validate_field_manager(manager: str, path: FieldPath, release: Release = KUBERNETES_1_30) -> ErrorList:
    """metav1 `ValidateFieldManager`: at most 128 bytes, one error per non-printable rune."""
    errs: ErrorList = []
    if byte_length(manager) > FIELD_MANAGER_MAX_LENGTH:
        errs.append(release_too_long(path, manager, FIELD_MANAGER_MAX_LENGTH, release=release))
    if manager.isascii() and manager.isprintable():
        return errs  # ASCII: printable to Python (0x20-0x7E) is printable to Go, rune by rune
    position = 0  # Go ranges over a string by byte offset
    for char in manager:
        if not _go_is_print(char):
            errs.append(
                invalid(path, manager, f"invalid character U+{ord(char):04X} (at position {position})")
            )
        position += byte_length(char)
    return errs


def _go_is_print(char: str) -> bool:
    """`unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space.

    A lone surrogate cannot come out of Go's JSON decoder, which turns it into U+FFFD (printable).
    """
    if char == " " or 0xD800 <= ord(char) <= 0xDFFF:
        return True
    return unicodedata.category(char)[0] in "LMNPS"
