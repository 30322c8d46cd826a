"""The fast paths answer as the slow paths do (see references.py for the shared parts).

ObjectMeta: field managers, immutable times, labels, annotations and managed fields.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fast_paths.references import (
    _bytes,
    name_like,
    reference_label_value,
    reference_qualified_name,
)
from webhook.field import (
    ROOT,
    ErrorList,
    FieldPath,
    invalid,
    too_long,
)
from webhook.rules import meta, metafields, names
from webhook.rules.values import integer, mapping, sequence, string_map, text

# --- ObjectMeta: field managers and the immutable times ------------------------------------------------


def reference_field_manager(manager: str, path: FieldPath) -> ErrorList:
    errs: ErrorList = []
    if _bytes(manager) > metafields.FIELD_MANAGER_MAX_LENGTH:
        errs.append(too_long(path, manager, metafields.FIELD_MANAGER_MAX_LENGTH))
    position = 0
    for char in manager:
        if not metafields._go_is_print(char):
            errs.append(
                invalid(path, manager, f"invalid character U+{ord(char):04X} (at position {position})")
            )
        position += _bytes(char)
    return errs


@given(st.one_of(st.text(max_size=20), st.text(st.characters(max_codepoint=0x80), max_size=140)))
@settings(max_examples=800, deadline=None)
def test_field_manager_check_as_before(manager: str) -> None:
    path = ROOT.child("metadata", "managedFields").index(0).child("manager")
    assert metafields._validate_field_manager(manager, path) == reference_field_manager(manager, path)


def reference_immutable_times(new: dict[str, Any], old: dict[str, Any], path: FieldPath) -> ErrorList:
    errs: ErrorList = []
    new_created = meta._read_time(new.get("creationTimestamp"))
    if new_created != meta._read_time(old.get("creationTimestamp")):
        errs.append(invalid(path.child("creationTimestamp"), new_created.go_text(), meta.FIELD_IMMUTABLE_MSG))
    new_deleted = meta._read_optional_time(new.get("deletionTimestamp"))
    if new_deleted != meta._read_optional_time(old.get("deletionTimestamp")):
        bad = None if new_deleted is None else new_deleted.go_text()
        errs.append(invalid(path.child("deletionTimestamp"), bad, meta.FIELD_IMMUTABLE_MSG))
    return errs


times = st.one_of(
    st.none(),
    st.sampled_from(
        ["2024-05-01T10:00:00Z", "2024-05-01T12:00:00+02:00", "2024-05-01T10:00:00.5Z", "", "yesterday"]
    ),
    st.integers(0, 1),
    st.booleans(),
)


@given(
    st.fixed_dictionaries({}, optional={"creationTimestamp": times, "deletionTimestamp": times}), st.data()
)
@settings(max_examples=500, deadline=None)
def test_immutable_times_as_before(new: dict[str, Any], data: st.DataObject) -> None:
    old = data.draw(
        st.one_of(
            st.just(dict(new)),
            st.fixed_dictionaries({}, optional={"creationTimestamp": times, "deletionTimestamp": times}),
        )
    )
    path = ROOT.child("metadata")
    found = [e for e in meta._validate_immutable_metadata(new, old, path) if "Timestamp" in e.field]
    assert found == reference_immutable_times(new, old, path)


# --- ObjectMeta: labels, annotations and managed fields decided by fast tests, as the whole checks ---


def reference_labels(labels: Any, path: FieldPath) -> ErrorList:
    errs: ErrorList = []
    for key, value in string_map(labels).items():
        errs += [invalid(path, key, msg) for msg in reference_qualified_name(key)]
        errs += [invalid(path, value, msg) for msg in reference_label_value(value)]
    return errs


def reference_annotations(annotations: Any, path: FieldPath) -> ErrorList:
    entries = string_map(annotations)
    errs = [
        invalid(path, key, msg) for key in entries for msg in reference_qualified_name(names.go_to_lower(key))
    ]
    if (
        sum(_bytes(key) + _bytes(value) for key, value in entries.items())
        > metafields.TOTAL_ANNOTATION_SIZE_LIMIT_BYTES
    ):
        errs.append(too_long(path, "", metafields.TOTAL_ANNOTATION_SIZE_LIMIT_BYTES))
    return errs


def reference_managed_fields(managed_fields: Any, path: FieldPath) -> ErrorList:
    errs: ErrorList = []
    for i, entry in enumerate(sequence(managed_fields)):
        entry_path, fields = path.index(i), mapping(entry)
        operation = text(fields.get("operation"))
        if operation not in ("Apply", "Update"):
            errs.append(invalid(entry_path.child("operation"), operation, "must be `Apply` or `Update`"))
        fields_type = text(fields.get("fieldsType"))
        if fields_type and fields_type != "FieldsV1":
            errs.append(invalid(entry_path.child("fieldsType"), fields_type, "must be `FieldsV1`"))
        errs += reference_field_manager(text(fields.get("manager")), entry_path.child("manager"))
        subresource = text(fields.get("subresource"))
        if _bytes(subresource) > metafields.MAX_SUBRESOURCE_NAME_LENGTH:
            errs.append(
                too_long(entry_path.child("subresource"), subresource, metafields.MAX_SUBRESOURCE_NAME_LENGTH)
            )
    return errs


def reference_object_meta_update(new_meta: Any, old_meta: Any) -> ErrorList:
    """`validate_object_meta_update` as it was: every check run, every path built."""
    path = meta.METADATA
    new, old = mapping(new_meta), mapping(old_meta)
    new_finalizers = meta._strings(new.get("finalizers"))
    errs: ErrorList = []
    if old.get("deletionTimestamp") is not None:
        errs += meta._validate_no_new_finalizers(
            new_finalizers, meta._strings(old.get("finalizers")), path.child("finalizers")
        )
    resource_version = text(new.get("resourceVersion"))
    if not resource_version:
        errs.append(
            invalid(path.child("resourceVersion"), resource_version, "must be specified for an update")
        )
    new_generation = integer(new.get("generation"))
    if new_generation < integer(old.get("generation")):
        errs.append(invalid(path.child("generation"), new_generation, "must not be decremented"))
    for key in ("name", "namespace", "uid"):
        new_text = text(new.get(key))
        if new_text != text(old.get(key)):
            errs.append(invalid(path.child(key), new_text, meta.FIELD_IMMUTABLE_MSG))
    errs += reference_immutable_times(dict(new), dict(old), path)
    new_grace = meta._read_optional_integer(new.get("deletionGracePeriodSeconds"))
    if new_grace != meta._read_optional_integer(old.get("deletionGracePeriodSeconds")):
        errs.append(invalid(path.child("deletionGracePeriodSeconds"), new_grace, meta.FIELD_IMMUTABLE_MSG))
    errs += reference_labels(new.get("labels"), path.child("labels"))
    errs += reference_annotations(new.get("annotations"), path.child("annotations"))
    errs += metafields.validate_owner_references(new.get("ownerReferences"), path.child("ownerReferences"))
    errs += reference_managed_fields(new.get("managedFields"), path.child("managedFields"))
    errs += metafields.validate_kube_finalizer_names(new_finalizers, path.child("finalizers"))
    return errs


def reference_object_meta(fields_meta: Any) -> ErrorList:
    """`validate_object_meta` (namespaced, subdomain names) as it was."""
    path = meta.METADATA
    fields = mapping(fields_meta)
    errs = meta._validate_names(fields, names.name_is_dns_subdomain, path)
    errs += meta._validate_namespace(text(fields.get("namespace")), True, path.child("namespace"))
    generation = integer(fields.get("generation"))
    if generation < 0:
        errs.append(invalid(path.child("generation"), generation, meta.IS_NEGATIVE_MSG))
    errs += reference_labels(fields.get("labels"), path.child("labels"))
    errs += reference_annotations(fields.get("annotations"), path.child("annotations"))
    errs += metafields.validate_owner_references(fields.get("ownerReferences"), path.child("ownerReferences"))
    finalizers = meta._strings(fields.get("finalizers"))
    errs += metafields.validate_finalizers(finalizers, path.child("finalizers"))
    errs += reference_managed_fields(fields.get("managedFields"), path.child("managedFields"))
    errs += metafields.validate_kube_finalizer_names(finalizers, path.child("finalizers"))
    return errs


# Keys and values near every limit and every reading: non-string values (read as ""), upper case,
# the Kelvin sign (lower-cased to "k"), 1 versus 1.0 versus true, and annotations around the 256 KiB
# budget in characters of one and two bytes.
_KEYS = st.sampled_from(
    [
        "app",
        "a/b",
        "example.com/Name",
        "Example.com/name",
        "\u212aube/x",
        "a" * 63,
        "a" * 64,
        "/a",
        "a/",
        "",
        "-a",
    ]
)
_LABEL_VALUES = st.one_of(
    st.sampled_from(["", "v", "a-b", "-a", "a" * 63, "a" * 64, "é", None, 1, True, ["x"]]),
    st.text(max_size=4),
)
_BIG = metafields.TOTAL_ANNOTATION_SIZE_LIMIT_BYTES
_ANNOTATION_VALUES = st.one_of(
    _LABEL_VALUES,
    st.sampled_from(
        ["x" * (_BIG - 8), "x" * (_BIG // 4), "é" * (_BIG // 4), "é" * (_BIG // 2), "é" * (_BIG // 2 - 2)]
    ),
)
# Each field valid half the time, so that entries valid but for one field are common.
_MANAGED_FIELDS_ENTRIES: st.SearchStrategy[Any] = st.one_of(
    st.fixed_dictionaries(
        {
            "operation": st.one_of(
                st.sampled_from(["Apply", "Update"]), st.sampled_from(["", "apply", None, 1])
            ),
            "fieldsType": st.one_of(
                st.sampled_from(["FieldsV1", None]), st.sampled_from(["", "FieldsV2", 0])
            ),
            "manager": st.one_of(
                st.sampled_from(["kubectl", "", "a" * 128, "é" * 64, None]),
                st.sampled_from(["a" * 129, "é" * 65, "a\x00", "\u200b", 5]),
                st.text(max_size=6),
            ),
            "subresource": st.one_of(
                st.sampled_from(["status", "", "s" * 64, "é" * 64, "s" * 256, None]),
                st.sampled_from(["s" * 257, "é" * 129, "\U0001f600" * 65, 1]),
            ),
        },
        optional={"apiVersion": st.just("resource.k8s.io/v1alpha2")},
    ),
    st.sampled_from([None, "x", 3, [], {}]),
)
_SCALARS = st.sampled_from([None, "", "a", "A", 1, 1.0, True, 0, -1, 2, "1"])
object_metas = st.fixed_dictionaries(
    {},
    optional={
        "name": _SCALARS,
        "namespace": st.sampled_from(["team-a", "Team", None]),
        "uid": _SCALARS,
        "resourceVersion": _SCALARS,
        "generation": _SCALARS,
        "deletionGracePeriodSeconds": _SCALARS,
        "creationTimestamp": times,
        "deletionTimestamp": times,
        "labels": st.one_of(
            st.dictionaries(_KEYS, _LABEL_VALUES, max_size=3), st.sampled_from([None, [], "x"])
        ),
        "annotations": st.one_of(
            st.dictionaries(_KEYS, _ANNOTATION_VALUES, max_size=3), st.sampled_from([None, [], "x"])
        ),
        "managedFields": st.one_of(
            st.lists(_MANAGED_FIELDS_ENTRIES, max_size=3), st.sampled_from([None, {}, "x"])
        ),
        "finalizers": st.one_of(
            st.lists(
                st.sampled_from(["kubernetes", "orphan", "foregroundDeletion", "x", "a/b", "A/b", None])
            ),
            st.sampled_from([None, "x"]),
        ),
        "ownerReferences": st.sampled_from(
            [None, [], "", 0, [{"apiVersion": "v1", "kind": "Event", "name": "e", "uid": "u"}], [{}]]
        ),
    },
)


@given(object_metas, st.data())
@settings(max_examples=1500, deadline=None)
def test_object_meta_checks_report_as_before(new: dict[str, Any], data: st.DataObject) -> None:
    old = data.draw(st.one_of(st.just(copy.deepcopy(new)), object_metas))
    assert meta.validate_object_meta_update(new, old) == reference_object_meta_update(new, old)
    assert meta.validate_object_meta(new, namespaced=True) == reference_object_meta(new)
    path = ROOT.child("metadata", "labels")
    assert metafields.validate_labels(new.get("labels"), path) == reference_labels(new.get("labels"), path)
    assert metafields.validate_annotations(new.get("annotations"), path) == reference_annotations(
        new.get("annotations"), path
    )
    assert metafields.validate_managed_fields(new.get("managedFields"), path) == reference_managed_fields(
        new.get("managedFields"), path
    )


@given(name_like)
@settings(max_examples=1500, deadline=None)
def test_one_regex_qualified_names_answer_as_their_reference(value: str) -> None:
    assert names.is_valid_qualified_name(value) == (reference_qualified_name(value) == [])
    assert names.is_valid_annotation_key(value) == (reference_qualified_name(names.go_to_lower(value)) == [])
    for label_value in ("v", value):
        assert names.is_valid_label(value, label_value) == (
            reference_qualified_name(value) == [] and reference_label_value(label_value) == []
        )
        assert names.is_valid_label(label_value, value) == (
            reference_qualified_name(label_value) == [] and reference_label_value(value) == []
        )


_ABSENT = object()
_VALID_MANAGED_FIELDS_ENTRY = {
    "operation": "Update",
    "fieldsType": "FieldsV1",
    "manager": "kubectl",
    "subresource": "status",
}
_MANAGED_FIELDS_VALUES = {
    "operation": ["Apply", "Update", "", "apply", None, 1, _ABSENT],
    "fieldsType": ["FieldsV1", "", "FieldsV2", None, 0, False, _ABSENT],
    "manager": ["a" * 128, "a" * 129, "é" * 64, "é" * 65, "a\x00", "\u200b", " ", "", None, 5, _ABSENT],
    "subresource": [
        "s" * 256,
        "s" * 257,
        "é" * 128,
        "é" * 129,
        "\U0001f600" * 64,
        "\U0001f600" * 65,
        "",
        None,
        1,
        _ABSENT,
    ],
}


@pytest.mark.parametrize(
    ("field", "value"),
    [(field, value) for field, values in _MANAGED_FIELDS_VALUES.items() for value in values],
)
def test_a_managed_fields_entry_changed_in_one_field_reports_as_before(field: str, value: Any) -> None:
    changed = {key: v for key, v in {**_VALID_MANAGED_FIELDS_ENTRY, field: value}.items() if v is not _ABSENT}
    entries = [_VALID_MANAGED_FIELDS_ENTRY, changed]
    path = ROOT.child("metadata", "managedFields")
    assert metafields.validate_managed_fields(entries, path) == reference_managed_fields(entries, path)
    metadata = {"resourceVersion": "1", "managedFields": entries}
    assert meta.validate_object_meta_update(metadata, metadata) == reference_object_meta_update(
        metadata, metadata
    )


@pytest.mark.parametrize(
    "annotations",
    [
        {"a": "x" * (_BIG - 1)},
        {"a": "x" * _BIG},
        {"a": "é" * ((_BIG - 1) // 2)},
        {"a": "é" * ((_BIG + 1) // 2)},
        {"a": "x" * (_BIG // 4 - 1)},
        {"a": "x" * (_BIG // 4), "b": "é"},
    ],
    ids=[
        "bytes-at-limit",
        "bytes-over",
        "two-byte-at-limit",
        "two-byte-over",
        "chars-at-quarter",
        "chars-over-quarter",
    ],
)
def test_annotations_around_the_size_budget_report_as_before(annotations: dict[str, str]) -> None:
    path = ROOT.child("metadata", "annotations")
    assert metafields.validate_annotations(annotations, path) == reference_annotations(annotations, path)
