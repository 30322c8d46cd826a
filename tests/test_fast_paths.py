"""The fast paths of the hot code (bench/, docs/performance.md) answer exactly as the slow paths do.

Each shortcut is checked against the plain algorithm it stands in for, on generated input that
includes the awkward cases: non-ASCII text, over-long names, NaN, 1 versus 1.0 versus true, key
order, null where an object belongs, unknown fields.
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webhook import schema_nodes
from webhook.field import (
    ROOT,
    ErrorList,
    FieldPath,
    covered_by_declarative,
    invalid,
    required,
    too_long,
)
from webhook.rules import equality, meta, names, nodeselector
from webhook.rules.equality import (
    ALLOCATION_RESULT,
    ANY,
    DRIVER_REQUESTS,
    OBJECT_META,
    RESOURCE_CLAIM_SPEC,
    RESOURCE_CLAIM_TEMPLATE_SPEC,
    RESOURCE_HANDLE,
    Pointer,
    RawJSON,
    Scalar,
    Shape,
    Slice,
    StringMap,
    Struct,
    Time,
    _semantic_equal,
    semantic_equal,
)
from webhook.rules.kinds import GroupVersionKind
from webhook.rules.values import integer, mapping, optional_mapping, sequence, string_map, text
from webhook.schemas import StructuralChecker

# --- names: the reference algorithms, as they were before the fast paths ------------------------------


def _bytes(value: str) -> int:
    return len(value.encode("utf-8", "surrogatepass"))


def reference_subdomain(value: str) -> list[str]:
    errs = []
    if _bytes(value) > names.DNS1123_SUBDOMAIN_MAX_LENGTH:
        errs.append(names.max_len_msg(names.DNS1123_SUBDOMAIN_MAX_LENGTH))
    if not names._DNS1123_SUBDOMAIN_RE.fullmatch(value):
        errs.append(names.DNS1123_SUBDOMAIN_MSG)
    return errs


def reference_label(value: str) -> list[str]:
    errs = []
    if _bytes(value) > names.DNS1123_LABEL_MAX_LENGTH:
        errs.append(names.max_len_msg(names.DNS1123_LABEL_MAX_LENGTH))
    if not names._DNS1123_LABEL_RE.fullmatch(value):
        if names._DNS1123_SUBDOMAIN_RE.fullmatch(value):
            errs.append("must not contain dots")
        else:
            errs.append(names.DNS1123_LABEL_MSG)
    return errs


def reference_qualified_name(value: str) -> list[str]:
    parts = value.split("/")
    errs: list[str] = []
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part " + names.EMPTY_MSG)
        else:
            errs.extend("prefix part " + msg for msg in reference_subdomain(prefix))
    else:
        return [
            "a qualified name "
            + names.QUALIFIED_NAME_MSG
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    if not name:
        errs.append("name part " + names.EMPTY_MSG)
    elif _bytes(name) > names.QUALIFIED_NAME_MAX_LENGTH:
        errs.append("name part " + names.max_len_msg(names.QUALIFIED_NAME_MAX_LENGTH))
    if not names._QUALIFIED_NAME_RE.fullmatch(name):
        errs.append("name part " + names.QUALIFIED_NAME_MSG)
    return errs


def reference_label_value(value: str) -> list[str]:
    errs = []
    if _bytes(value) > names.LABEL_VALUE_MAX_LENGTH:
        errs.append(names.max_len_msg(names.LABEL_VALUE_MAX_LENGTH))
    if not names._LABEL_VALUE_RE.fullmatch(value):
        errs.append(names.LABEL_VALUE_MSG)
    return errs


def reference_csi_driver_name(value: str, path: FieldPath) -> ErrorList:
    errs: ErrorList = []
    if not value:
        errs.append(required(path, ""))
    if _bytes(value) > names.CSI_DRIVER_NAME_MAX_LENGTH:
        errs.append(too_long(path, value, names.CSI_DRIVER_NAME_MAX_LENGTH))
    errs.extend(invalid(path, value, msg) for msg in reference_subdomain(names.go_to_lower(value)))
    return errs


# Text near the boundaries: name characters, the separators, upper case, non-ASCII (the Turkish
# dotted I that Go lower-cases differently, a letter whose UTF-8 is two bytes), and lengths around
# every limit (63, 253).
_NAME_CHARS = st.sampled_from([*"abcz09-._/AZ", "\u0130", "é", "\u212a", " ", "\n"])
name_like = st.one_of(
    st.text(_NAME_CHARS, max_size=12),
    st.text(st.sampled_from("ab-."), min_size=60, max_size=260),
    st.builds(
        lambda n, tail: "a" * n + tail, st.integers(55, 260), st.sampled_from(["", "-", "é", "a", ".b"])
    ),
    st.text(max_size=20),
)


@given(name_like)
@settings(max_examples=1500, deadline=None)
def test_name_checks_answer_as_their_reference_algorithms(value: str) -> None:
    assert names.is_dns1123_subdomain(value) == reference_subdomain(value)
    assert names.is_valid_dns1123_subdomain(value) == (reference_subdomain(value) == [])
    assert names.is_dns1123_label(value) == reference_label(value)
    assert names.is_qualified_name(value) == reference_qualified_name(value)
    assert names.is_valid_label_value(value) == reference_label_value(value)
    assert names.byte_length(value) == _bytes(value)
    path = ROOT.child("driverName")
    assert names.validate_csi_driver_name(value, path) == reference_csi_driver_name(value, path)
    assert names.validate_dns_subdomain(value, path) == [
        invalid(path, value, msg) for msg in reference_subdomain(value)
    ]


@pytest.mark.parametrize("value", ["\ud800", "a\udcff", "node-\ud83d"])
def test_lone_surrogates_take_the_slow_path(value: str) -> None:
    assert names.is_dns1123_subdomain(value) == reference_subdomain(value)
    assert names.byte_length(value) == _bytes(value)


# --- lists of names (webhook.rules.names) and the object readers -------------------------------------


node_names = st.lists(
    st.one_of(
        st.sampled_from(["node-1", "node-2", "Node_3", "", "a" * 254]), name_like, st.none(), st.integers()
    ),
    max_size=140,
)


@pytest.mark.parametrize("value", [{}, {"a": 1}, None, [], "text", 0, ()])
def test_mapping_readers_keep_their_answers(value: Any) -> None:
    from collections.abc import Mapping

    expected = value if isinstance(value, Mapping) else None
    assert optional_mapping(value) is expected
    assert mapping(value) == (expected if expected is not None else {})


# --- ObjectMeta: field managers and the immutable times ------------------------------------------------


def reference_field_manager(manager: str, path: FieldPath) -> ErrorList:
    errs: ErrorList = []
    if _bytes(manager) > meta.FIELD_MANAGER_MAX_LENGTH:
        errs.append(too_long(path, manager, meta.FIELD_MANAGER_MAX_LENGTH))
    position = 0
    for char in manager:
        if not meta._go_is_print(char):
            errs.append(
                invalid(path, manager, f"invalid character U+{ord(char):04X} (at position {position})")
            )
        position += _bytes(char)
    return errs


@given(st.one_of(st.text(max_size=20), st.text(st.characters(max_codepoint=0x80), max_size=140)))
@settings(max_examples=800, deadline=None)
def test_field_manager_check_as_before(manager: str) -> None:
    path = ROOT.child("metadata", "managedFields").index(0).child("manager")
    assert meta._validate_field_manager(manager, path) == reference_field_manager(manager, path)


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


# --- semantic equality: the fast "same document" answer agrees with the typed walk --------------------

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([1.0, 0.0, -0.0, math.nan, math.inf, 2**70]),
    st.sampled_from(["", "a", "2024-05-01T10:00:00Z", "2024-05-01T10:00:00+00:00", "null"]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["a", "b", "driverName", "data", "name", "time"]), inner, max_size=3),
    ),
    max_leaves=12,
)


def _variants(value: Any) -> Iterator[Any]:
    """The same value, a deep copy, and copies with reordered keys or retyped numbers."""
    yield value
    yield copy.deepcopy(value)
    if isinstance(value, dict):
        yield dict(reversed(list(value.items())))
        yield {key: (1.0 if item == 1 and type(item) is int else item) for key, item in value.items()}
        yield {key: (True if item == 1 and type(item) is int else item) for key, item in value.items()}


SHAPES: list[Shape] = [ANY, ALLOCATION_RESULT, OBJECT_META, RESOURCE_CLAIM_SPEC, RESOURCE_CLAIM_TEMPLATE_SPEC]


@given(json_values, json_values, st.sampled_from(SHAPES))
@settings(max_examples=600, deadline=None)
def test_semantic_equal_agrees_with_the_typed_walk(a: Any, b: Any, shape: Shape) -> None:
    for left in (a, b):
        for right in _variants(a):
            assert semantic_equal(left, right, shape) == _semantic_equal(left, right, shape)


@pytest.mark.parametrize("shape", SHAPES)
def test_nan_takes_the_typed_walk(shape: Shape) -> None:
    # orjson writes NaN as null: the bytes are equal, `==` is not, and the walk decides.
    nan = math.nan
    for a, b in (({"data": nan}, {"data": None}), ([nan], [nan]), ({"a": [nan]}, {"a": [nan]})):
        assert semantic_equal(a, b, shape) == _semantic_equal(a, b, shape)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}),  # raw JSON compares its bytes: key order counts
        ({"a": -0.0}, {"a": 0.0}),  # equal, written apart
        ({"a": [1, {"x": 1.0}]}, {"a": [1, {"x": 1}]}),
        ({"a": True}, {"a": 1}),
        ({"a": {"b": [None, "s"]}}, {"a": {"b": [None, "s"]}}),
    ],
)
def test_the_same_document_is_told_apart_inside_raw_json(a: Any, b: Any) -> None:
    for left, right in ((a, b), (b, a)):
        requests = [{"driverName": "d", "vendorParameters": left}]
        other = [{"driverName": "d", "vendorParameters": right}]
        expected = reference_semantic_equal(requests, other, DRIVER_REQUESTS)
        assert semantic_equal(requests, other, DRIVER_REQUESTS) == expected


# --- the structural check: the C-decided shortcuts change no finding ---------------------------------------


def _without_shortcuts(slow: StructuralChecker) -> StructuralChecker:
    """The checker (a fresh one) with every shortcut of its compiled nodes switched off: each
    value gets its node's full `check`, each item of a list its own call."""
    seen: set[int] = set()

    def visit(node: schema_nodes.Node) -> None:
        if id(node) in seen:
            return
        seen.add(id(node))
        node.settled = type(None)
        if isinstance(node, schema_nodes.Struct):
            node.settled_types = dict.fromkeys(node.fields, type(None))
            node.int64_fields = frozenset()
            for child in node.fields.values():
                visit(child)
        elif isinstance(node, schema_nodes.Array):
            node.struct_items = None
            visit(node.items)
        elif isinstance(node, schema_nodes.Map):
            node.struct_values = None
            visit(node.values)

    for root in slow._roots.values():
        visit(root)
    return slow


FAST = StructuralChecker.load()
SLOW = _without_shortcuts(StructuralChecker.load())
FAST_REQUIRED = StructuralChecker.load(report_missing_required=True)
SLOW_REQUIRED = _without_shortcuts(StructuralChecker.load(report_missing_required=True))


def _objects() -> list[tuple[GroupVersionKind, dict[str, Any]]]:
    import orjson

    from bench.reviews import mix, other_kinds

    found = []
    for entry in [*mix("all"), *other_kinds()]:  # v1alpha2 first: the tests below pick its claim
        request = orjson.loads(entry.body)["request"]
        gvk = GroupVersionKind(**request["kind"])
        found.append((gvk, request["object"]))
    return found


OBJECTS = _objects()


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, (*prefix, index))


def _replace(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    copied = copy.copy(document)
    copied[path[0]] = _replace(document[path[0]], path[1:], value)
    return copied


replacement: st.SearchStrategy[Any] = st.one_of(
    json_scalars, st.just({}), st.just([]), st.just({"unknown": "x"}), st.just(["x", 1])
)


@given(st.sampled_from(range(len(OBJECTS))), st.data())
@settings(max_examples=400, deadline=None)
def test_structural_check_finds_the_same_with_and_without_shortcuts(which: int, data: st.DataObject) -> None:
    gvk, obj = OBJECTS[which]
    paths = list(_paths(obj))
    mutated = obj
    for _ in range(data.draw(st.integers(0, 3))):
        path = data.draw(st.sampled_from(paths))
        if path:
            with contextlib.suppress(KeyError, IndexError, TypeError):  # an earlier change removed it
                mutated = _replace(mutated, path, data.draw(replacement))
    for fast, slow in ((FAST, SLOW), (FAST_REQUIRED, SLOW_REQUIRED)):
        found, expected = fast.check(gvk, mutated), slow.check(gvk, mutated)
        assert [str(e) for e in found.errors] == [str(e) for e in expected.errors]
        assert [e.type for e in found.errors] == [e.type for e in expected.errors]
        assert found.warnings == expected.warnings


def assert_consumers_check_as_without_shortcuts(reserved_for: list[Any]) -> None:
    """A claim whose reservedFor is `reserved_for` gets the same findings from the checkers with and
    without their shortcuts, with and without required fields reported."""
    gvk = GroupVersionKind("resource.k8s.io", "v1alpha2", "ResourceClaim")
    claim = {"metadata": {"name": "c"}, "status": {"reservedFor": reserved_for}}
    for fast, slow in ((FAST, SLOW), (FAST_REQUIRED, SLOW_REQUIRED)):
        found, expected = fast.check(gvk, claim), slow.check(gvk, claim)
        assert [str(e) for e in found.errors] == [str(e) for e in expected.errors]
        assert found.warnings == expected.warnings


@pytest.mark.parametrize(
    "reserved_for",
    [
        [],
        [{"resource": "pods", "name": "a", "uid": "1"}] * 3,
        [{"resource": "pods", "name": "a", "uid": "1"}, {"resource": "pods", "name": None}],
        [{"resource": "pods", "name": 5, "uid": "1"}],
        [{"resource": "pods", "unknown": "x"}],
        [{"resource": "pods"}, None],
        [{"resource": "pods"}, "text"],
        [{"resource": "pods", "name": {"nested": 1}}],
    ],
)
def test_consumer_lists_check_the_same_with_and_without_shortcuts(reserved_for: list[Any]) -> None:
    assert_consumers_check_as_without_shortcuts(reserved_for)


def test_the_shortcuts_are_taken() -> None:
    # Guard against a refactoring that silently disables them (the benchmark would show it later).
    claim = next(obj for gvk, obj in OBJECTS if gvk.kind == "ResourceClaim" and "status" in obj)
    consumer_node = _find_struct_with_fields(
        FAST, GroupVersionKind("resource.k8s.io", "v1alpha2", "ResourceClaim"), {"uid", "name", "resource"}
    )
    assert all(consumer_node.fields[name].settled is str for name in ("uid", "name", "resource"))
    assert FAST.check(GroupVersionKind("resource.k8s.io", "v1alpha2", "ResourceClaim"), claim).errors == []


def _find_struct_with_fields(
    checker: StructuralChecker, gvk: GroupVersionKind, wanted: set[str]
) -> schema_nodes.Struct:
    pending: list[schema_nodes.Node] = [checker._roots[gvk]]
    seen: set[int] = set()
    while pending:
        node = pending.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, schema_nodes.Struct):
            if wanted <= set(node.fields):
                return node
            pending.extend(node.fields.values())
        elif isinstance(node, schema_nodes.Array):
            pending.append(node.items)
        elif isinstance(node, schema_nodes.Map):
            pending.append(node.values)
    raise AssertionError(f"no struct with {wanted}")


# --- an UPDATE's old object, checked against the new one that passed ------------------------------------

confusable = st.sampled_from([True, False, 1, 0, 1.0, 0.0, -0.0, 2**70, float(2**70)])


@given(st.sampled_from(range(len(OBJECTS))), st.data())
@settings(max_examples=400, deadline=None)
def test_an_old_object_checked_against_a_passed_one_finds_what_a_full_check_finds(
    which: int, data: st.DataObject
) -> None:
    gvk, obj = OBJECTS[which]
    paths = list(_paths(obj))
    new = obj
    for _ in range(data.draw(st.integers(0, 2))):
        with contextlib.suppress(KeyError, IndexError, TypeError):
            new = _replace(new, data.draw(st.sampled_from(paths[1:])), data.draw(replacement))
    old = new
    for _ in range(data.draw(st.integers(0, 3))):  # 1 for true, 1.0 for 1: equal, not the same JSON
        with contextlib.suppress(KeyError, IndexError, TypeError):
            old = _replace(old, data.draw(st.sampled_from(paths[1:])), data.draw(replacement | confusable))
    for checker in (FAST, FAST_REQUIRED):
        if checker.check(gvk, new).errors:
            continue  # the judge checks the old object only when the new one passed
        found, expected = checker.check_against(gvk, old, new), checker.check(gvk, old)
        assert [str(e) for e in found.errors] == [str(e) for e in expected.errors]
        assert [e.type for e in found.errors] == [e.type for e in expected.errors]


@pytest.mark.parametrize(
    ("new_generation", "old_generation", "old_error"),
    [
        (1, True, 'metadata.generation: Invalid value: "boolean": metadata.generation in body must be of type integer: "boolean"'),
        (1, 1.0, 'metadata.generation: Invalid value: "number": metadata.generation in body must be of type integer: "number"'),
        (1, 1, None),
    ],
)  # fmt: skip
def test_an_old_field_equal_to_the_new_one_but_of_another_json_type_is_checked(
    new_generation: int, old_generation: Any, old_error: str | None
) -> None:
    gvk = GroupVersionKind("resource.k8s.io", "v1alpha2", "ResourceClaim")
    claim = next(obj for kind, obj in OBJECTS if kind == gvk)
    new = {**claim, "metadata": {**claim["metadata"], "generation": new_generation}}
    old = {**claim, "metadata": {**claim["metadata"], "generation": old_generation}}
    assert FAST.check(gvk, new).errors == []
    found = [str(error) for error in FAST.check_against(gvk, old, new).errors]
    assert found == ([old_error] if old_error else [])


def _confusable_twins(value: Any) -> list[Any]:
    """The values `==` takes for `value` that are another JSON type (1 and 1.0 and true)."""
    if value is True or value is False:
        return [int(value), float(value)]
    if type(value) is int and -(2**53) <= value <= 2**53:
        return [float(value), *([bool(value)] if value in (0, 1) else [])]
    if type(value) is float and value.is_integer():
        return [int(value)]
    return []


def _numeric_leaves(obj: Any) -> list[tuple[Any, ...]]:
    leaves = [path for path in _paths(obj) if path and _confusable_twins(_at(obj, path))]
    return leaves[:40]  # a 128-device slice repeats the same leaves on every device


def _at(document: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        document = document[step]
    return document


@pytest.mark.parametrize("which", range(len(OBJECTS)))
def test_an_old_number_equal_to_the_new_one_but_of_another_json_type_is_checked_at_any_depth(
    which: int,
) -> None:
    # Every boolean and number of every benchmark object (inside lists of structs, maps of structs,
    # structs of structs), in the old object as the other JSON types `==` takes for it: the old
    # object checked against the new one finds what a full check of it finds.
    gvk, new = OBJECTS[which]
    if FAST.check(gvk, new).errors:
        pytest.skip("the judge checks the old object only when the new one passed")
    for path in _numeric_leaves(new):
        for twin in _confusable_twins(_at(new, path)):
            old = _replace(new, path, twin)
            for checker in (FAST, FAST_REQUIRED):
                found, expected = checker.check_against(gvk, old, new), checker.check(gvk, old)
                assert [str(e) for e in found.errors] == [str(e) for e in expected.errors], (path, twin)


def test_an_old_object_shares_its_unchanged_fields_with_the_new_one() -> None:
    # The skip is taken: an old object whose spec is broken is not walked there when the new one's
    # spec is the same (which cannot happen in a judge: the new one would have failed), while a
    # full check finds it.
    gvk = GroupVersionKind("resource.k8s.io", "v1alpha2", "ResourceClaim")
    claim = next(obj for kind, obj in OBJECTS if kind == gvk)
    broken = {**claim, "spec": {**claim["spec"], "allocationMode": 5}}
    assert FAST.check(gvk, broken).errors != []
    assert FAST.check_against(gvk, broken, broken).errors == []


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
        > meta.TOTAL_ANNOTATION_SIZE_LIMIT_BYTES
    ):
        errs.append(too_long(path, "", meta.TOTAL_ANNOTATION_SIZE_LIMIT_BYTES))
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
        if _bytes(subresource) > meta.MAX_SUBRESOURCE_NAME_LENGTH:
            errs.append(
                too_long(entry_path.child("subresource"), subresource, meta.MAX_SUBRESOURCE_NAME_LENGTH)
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
    errs += meta.validate_owner_references(new.get("ownerReferences"), path.child("ownerReferences"))
    errs += reference_managed_fields(new.get("managedFields"), path.child("managedFields"))
    errs += meta._validate_kube_finalizer_names(new_finalizers, path.child("finalizers"))
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
    errs += meta.validate_owner_references(fields.get("ownerReferences"), path.child("ownerReferences"))
    finalizers = meta._strings(fields.get("finalizers"))
    errs += meta.validate_finalizers(finalizers, path.child("finalizers"))
    errs += reference_managed_fields(fields.get("managedFields"), path.child("managedFields"))
    errs += meta._validate_kube_finalizer_names(finalizers, path.child("finalizers"))
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
_BIG = meta.TOTAL_ANNOTATION_SIZE_LIMIT_BYTES
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
    assert meta.validate_labels(new.get("labels"), path) == reference_labels(new.get("labels"), path)
    assert meta.validate_annotations(new.get("annotations"), path) == reference_annotations(
        new.get("annotations"), path
    )
    assert meta.validate_managed_fields(new.get("managedFields"), path) == reference_managed_fields(
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
    assert meta.validate_managed_fields(entries, path) == reference_managed_fields(entries, path)
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
    assert meta.validate_annotations(annotations, path) == reference_annotations(annotations, path)


# --- the kinds' rules: the typed walk and node selectors, each against the loop it stands in for -------


def reference_semantic_equal(a: Any, b: Any, shape: Shape) -> bool:
    """The typed walk as it was before any shortcut: every part read and compared."""
    match shape:
        case Scalar(zero=zero):
            return equality._read_scalar(a, zero) == equality._read_scalar(b, zero)
        case Struct(fields=fields):
            left, right = mapping(a), mapping(b)
            return all(
                reference_semantic_equal(left.get(key), right.get(key), field)
                for key, field in fields.items()
            )
        case Pointer(to=target):
            if a is None or b is None:
                return a is None and b is None
            return reference_semantic_equal(a, b, target)
        case Slice(of=item):
            left_items = a if isinstance(a, list) else []
            right_items = b if isinstance(b, list) else []
            return len(left_items) == len(right_items) and all(
                reference_semantic_equal(x, y, item) for x, y in zip(left_items, right_items, strict=True)
            )
        case StringMap():
            return string_map(a) == string_map(b)
        case RawJSON():
            return equality._raw_bytes(a) == equality._raw_bytes(b)
        case Time():
            return equality._instant(a) == equality._instant(b)
    return equality._untyped_equal(a, b)


def _edited_variants(value: Any) -> Iterator[Any]:
    """`_variants`, and copies with one part changed deep inside (so the walk meets equal and
    unequal parts side by side)."""
    yield from _variants(value)
    if isinstance(value, dict):
        for key, item in value.items():
            for replacement in _variants(item):
                yield {**value, key: replacement}
            yield {**value, key: [item, 1.0] if not isinstance(item, list) else [*item, True]}
    if isinstance(value, list) and value:
        yield [*value[:-1], {"data": value[-1]}]


@given(json_values, json_values, st.sampled_from([*SHAPES, DRIVER_REQUESTS, RESOURCE_HANDLE]))
@settings(max_examples=600, deadline=None)
def test_the_typed_walk_compares_as_before(a: Any, b: Any, shape: Shape) -> None:
    for left in (a, b):
        for right in _edited_variants(a):
            expected = reference_semantic_equal(left, right, shape)
            assert semantic_equal(left, right, shape) == expected
            assert _semantic_equal(left, right, shape) == expected


def _allocation_documents() -> list[dict[str, Any]]:
    handle = {"driverName": "gpu.example.com", "data": '{"gpu": 1}'}
    structured = {
        "driverName": "gpu.example.com",
        "structuredData": {
            "vendorClaimParameters": {"kind": "A", "apiVersion": "v1"},
            "nodeName": "worker-1",
            "results": [{"namedResources": {"name": "gpu-0"}}, {"vendorRequestParameters": {"a": 1}}],
        },
    }
    selector = {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "values": ["a"]}]}]}
    return [
        {"resourceHandles": [handle, structured], "availableOnNodes": selector, "shareable": True},
        {"resourceHandles": [handle, structured, handle], "shareable": 1},
    ]


@pytest.mark.parametrize("allocation", _allocation_documents())
def test_allocations_changed_deep_inside_compare_as_before(allocation: dict[str, Any]) -> None:
    for path in _paths(allocation):
        replacements: tuple[Any, ...] = (None, 1, 1.0, True, "", "x", {}, [], {"kind": "A"})
        for replacement in replacements:
            changed = _replace(allocation, path, replacement)
            for left, right in (
                (allocation, changed),
                (changed, allocation),
                (changed, copy.deepcopy(changed)),
            ):
                expected = reference_semantic_equal(left, right, ALLOCATION_RESULT)
                assert semantic_equal(left, right, ALLOCATION_RESULT) == expected


# Each field is valid about half the time, so that whole lists of valid entries (the shortcuts'
# case) come up as often as lists with one bad part in them.
_any_names = st.one_of(
    st.sampled_from(["GPU.Example.com", "", "a" * 64, "bad_name", "worker-1", "gpu-0"]),
    name_like,
    st.none(),
    st.integers(0, 1),
    st.just(["a"]),
)
_handle_names = st.one_of(st.sampled_from(["gpu.example.com", "worker-1", "gpu-0"]), _any_names)


def reference_node_selector(selector: Any, path: FieldPath) -> ErrorList:
    terms = mapping(selector).get("nodeSelectorTerms")
    terms = terms if isinstance(terms, list) else []
    if not terms:
        return [required(path.child("nodeSelectorTerms"), "must have at least one node selector term")]
    errs: ErrorList = []
    for i, term in enumerate(terms):
        errs += nodeselector.validate_node_selector_term(term, path.child("nodeSelectorTerms").index(i))
    return errs


_selector_values = st.one_of(
    st.lists(_handle_names, min_size=1, max_size=1),
    st.lists(_handle_names, max_size=2),
    st.none(),
    st.just("worker-1"),
)
_requirements = st.lists(
    st.one_of(
        st.fixed_dictionaries(
            {
                "key": st.sampled_from(["metadata.name", "kubernetes.io/hostname"]),
                "operator": st.sampled_from(["In", "NotIn", "Exists"]),
                "values": _selector_values,
            }
        ),
        st.fixed_dictionaries(
            {},
            optional={
                "key": st.sampled_from(["metadata.name", "kubernetes.io/hostname", "bad key", "", None, 1]),
                "operator": st.sampled_from(
                    ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "in", None]
                ),
                "values": _selector_values,
            },
        ),
        st.none(),
        st.just("x"),
    ),
    max_size=3,
)
_selectors = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "nodeSelectorTerms": st.one_of(
                st.lists(
                    st.one_of(
                        st.fixed_dictionaries(
                            {}, optional={"matchExpressions": _requirements, "matchFields": _requirements}
                        ),
                        st.none(),
                        st.just(["x"]),
                    ),
                    max_size=3,
                ),
                st.none(),
                st.just({}),
            )
        },
    ),
    st.none(),
)


@given(_selectors)
@settings(max_examples=600, deadline=None)
def test_node_selectors_report_as_before(selector: Any) -> None:
    path = ROOT.child("status", "allocation", "availableOnNodes")
    assert nodeselector.validate_node_selector(selector, path) == reference_node_selector(selector, path)


# Every part of a valid document replaced, one at a time, by each of these: the shortcuts must
# hand each broken document to the loop (and keep each still-valid one).
_AWKWARD: tuple[Any, ...] = (
    None,
    "",
    "x",
    "Bad_Name",
    "a" * 64,
    "gpu-0",
    "node-1",
    1,
    1.0,
    True,
    {},
    [],
    ["x"],
)


def _changed_anywhere(document: Any, extra: tuple[Any, ...] = ()) -> Iterator[Any]:
    yield document
    for path in list(_paths(document))[1:]:  # the parts, not the whole
        for value in (*_AWKWARD, *extra):
            yield _replace(document, path, value)


_VALID_SELECTOR = {
    "nodeSelectorTerms": [
        {
            "matchFields": [{"key": "metadata.name", "operator": "In", "values": ["worker-1"]}],
            "matchExpressions": [
                {"key": "example.com/zone", "operator": "In", "values": ["a"]},
                {"key": "gpu", "operator": "Exists"},
            ],
        },
        {"matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["worker-2"]}]},
    ]
}


def test_node_selectors_changed_anywhere_report_as_before() -> None:
    path = ROOT.child("spec", "suitableNodes")
    for selector in _changed_anywhere(_VALID_SELECTOR, ("In", "metadata.name", ["a", "b"])):
        assert nodeselector.validate_node_selector(selector, path) == reference_node_selector(selector, path)


# --- the structural check: scalars decided in one test, old lists sharing the new one's first items -----


def _scalars(node: schema_nodes.Node, found: dict[type, list[schema_nodes.Scalar]]) -> None:
    if isinstance(node, schema_nodes.Scalar):
        found.setdefault(type(node), []).append(node)
    elif isinstance(node, schema_nodes.Struct):
        for child in node.fields.values():
            _scalars(child, found)
    elif isinstance(node, schema_nodes.Array):
        _scalars(node.items, found)
    elif isinstance(node, schema_nodes.Map):
        _scalars(node.values, found)


SCALARS: dict[type, list[schema_nodes.Scalar]] = {}
for _root in FAST._roots.values():
    _scalars(_root, SCALARS)
scalar_values = st.one_of(
    json_scalars,
    st.sampled_from(["ResourceClaim", "resource.k8s.io/v1alpha2", "Immediate", "2024-02-30T10:00:00Z"]),
    st.sampled_from(["2024-05-01T24:00:00Z", "2024-05-01t10:00:00Z", "1", "Kind"]),
    st.integers(),
    st.sampled_from([2**63 - 1, 2**63, -(2**63), -(2**63) - 1]),
    st.just({}),
    st.just([]),
)


@pytest.mark.parametrize("kind", [schema_nodes.StringEnum, schema_nodes.DateTime, schema_nodes.Int64])
@given(value=scalar_values)
@settings(max_examples=300, deadline=None)
def test_a_scalar_decided_in_one_test_reports_as_the_general_check(kind: type, value: Any) -> None:
    for node in SCALARS[kind][:3]:
        fast, general = schema_nodes.Findings(False), schema_nodes.Findings(False)
        node.check(value, (None, "field"), fast)
        schema_nodes.Scalar.check(node, value, (None, "field"), general)
        assert [str(e) for e in fast.errors] == [str(e) for e in general.errors]


@pytest.mark.parametrize(
    ("old_reserved_for", "errors"),
    [
        ([{"resource": "pods", "name": "a", "uid": "1"}], 0),  # the new list's first item: skipped
        ([{"resource": "pods", "name": 5, "uid": "1"}], 1),  # equal to nothing in the new list
        ([{"resource": "pods", "name": "b", "uid": "1"}, {"name": []}], 1),
    ],
)
def test_an_old_list_is_checked_unless_it_is_the_start_of_the_new_one(
    old_reserved_for: list[Any], errors: int
) -> None:
    gvk = GroupVersionKind("resource.k8s.io", "v1alpha2", "ResourceClaim")
    new_reserved_for = [
        {"resource": "pods", "name": "a", "uid": "1"},
        {"resource": "pods", "name": "b", "uid": "2"},
    ]
    new = {"metadata": {"name": "c"}, "status": {"reservedFor": new_reserved_for}}
    old = {"metadata": {"name": "c"}, "status": {"reservedFor": old_reserved_for}}
    assert FAST.check(gvk, new).errors == []
    found = FAST.check_against(gvk, old, new).errors
    assert [str(e) for e in found] == [str(e) for e in FAST.check(gvk, old).errors]
    assert len(found) == errors


# --- the structural check: items of settled fields decided without a call -----------------------------
#
# `Struct.check_items` decides an item whose values all have their fields' settled types without a
# call, and `Struct.check` a field by its node's settled type: lists of consumers that mix such items
# with others (null, unknown or repeated keys, numbers and booleans where strings go) check the same.

_CONSUMER_KEYS = ("resource", "name", "uid", "apiGroup", "unknown")
_consumer_values: st.SearchStrategy[Any] = st.one_of(
    st.just("x"), st.none(), st.integers(0, 2), st.just(True)
)


@st.composite
def _consumer_lists(draw: st.DrawFn) -> list[Any]:
    """Lists of consumer references whose items share their keys, in orders and with values that
    repeat, so that most items are like the item before them."""
    keys = draw(st.lists(st.sampled_from(_CONSUMER_KEYS), min_size=0, max_size=4, unique=True))
    items: list[Any] = []
    for _ in range(draw(st.integers(0, 6))):
        if draw(st.integers(0, 9)) == 0:
            items.append(draw(st.one_of(st.none(), st.just("text"), st.just([]))))
            continue
        order = keys if draw(st.booleans()) else draw(st.permutations(keys))
        items.append({key: draw(_consumer_values) if draw(st.integers(0, 3)) == 0 else "x" for key in order})
    return items


@given(_consumer_lists())
@settings(max_examples=400, deadline=None)
def test_consumer_items_check_the_same_with_and_without_shortcuts(reserved_for: list[Any]) -> None:
    assert_consumers_check_as_without_shortcuts(reserved_for)


@pytest.mark.parametrize(
    ("claim", "errors"),
    [
        ({"apiVersion": "v1", "kind": "ResourceClaim", "metadata": {"name": "c"}}, 1),
        ({"metadata": {"name": "c", "creationTimestamp": "yesterday"}}, 1),
        ({"metadata": {"name": "c"}, "spec": {"allocationMode": "Sometimes"}}, 0),  # the rules' to report
        ({"metadata": {"name": "c"}, "spec": {"resourceClassName": 5}}, 1),
        ({"metadata": {"name": "c", "generation": "1", "labels": "a=b"}}, 2),
        ({"metadata": None, "spec": None, "status": {"allocation": None, "reservedFor": None}}, 0),
        ({"metadata": {"name": None, "generation": None}, "unknown": "x"}, 0),
    ],
)
def test_fields_that_are_strings_but_not_plain_strings_are_checked(
    claim: dict[str, Any], errors: int
) -> None:
    gvk = GroupVersionKind("resource.k8s.io", "v1alpha2", "ResourceClaim")
    for fast, slow in ((FAST, SLOW), (FAST_REQUIRED, SLOW_REQUIRED)):
        found, expected = fast.check(gvk, claim), slow.check(gvk, claim)
        assert [str(e) for e in found.errors] == [str(e) for e in expected.errors]
        assert found.warnings == expected.warnings
    assert len(FAST.check(gvk, claim).errors) == errors


# --- names: the code-point scanners against the regexes -------------------------------------------------
# The code-point scanners of `names` against the regexes, on qualified names built from parts whose
# lengths straddle the limits (a prefix of 253 or 254 characters, a name part of 63 or 64).

_PREFIX_LABELS = st.sampled_from(["a", "b0", "x-y", "Z", "-", "", "é", "a_b"])
qualified_parts = st.builds(
    lambda prefix, prefix_length, name, name_length, slash: (
        (prefix * 300)[:prefix_length] + slash + (name * 70)[:name_length]
    ),
    st.lists(_PREFIX_LABELS, min_size=1, max_size=3).map(".".join),
    st.sampled_from([0, 1, 2, 63, 64, 252, 253, 254]),
    st.sampled_from(["a", "Ab", "a-", "a_B.9", "a/b", "é"]),
    st.sampled_from([0, 1, 2, 62, 63, 64]),
    st.sampled_from(["/", "", "//"]),
)


@given(st.one_of(qualified_parts, name_like))
@settings(max_examples=1500, deadline=None)
def test_scanned_names_answer_as_the_regexes(value: str) -> None:
    assert names.is_valid_qualified_name(value) == (reference_qualified_name(value) == [])
    assert names.is_valid_annotation_key(value) == (reference_qualified_name(names.go_to_lower(value)) == [])
    assert names.is_valid_label("a", value) == (reference_label_value(value) == [])
    assert names.is_valid_dns1123_subdomain(value) == (reference_subdomain(value) == [])
    assert names.is_dns1123_label(value) == reference_label(value)
    prefix = value.partition("/")[0]
    assert names.is_valid_dns1123_subdomain(prefix) == (reference_subdomain(prefix) == [])


@given(st.one_of(st.text(), st.text(alphabet=' \t\n\x1c\x85\xa0\u2028\u3000"ab=\\', max_size=6)))
@settings(max_examples=2000, deadline=None)
def test_text_log_values_are_quoted_as_any_space_or_quote_asked(value: str) -> None:
    from webhook.logs import _text_value

    quoted = not value or any(char.isspace() or char == '"' for char in value)
    assert _text_value(value) == (f'"{value}"' if quoted else value)


# --- v1 ResourceSlice: the usual attribute (bench/reviews.py's 128-device slice) -------------------------

from webhook.rules.v1 import slicedevices  # noqa: E402

_ATTRIBUTE_VALUES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=70)
    | st.sampled_from(["1.2.3", "01.2.3", "1.2.3-rc.1+build.5", "v1.2.3", "é" * 33, "1.2.3-" + "a" * 60])
    | st.lists(st.text(max_size=3), max_size=2)
)


@given(
    st.dictionaries(
        st.sampled_from(["bool", "int", "string", "version", "strings", "versions", "other"]),
        _ATTRIBUTE_VALUES,
        max_size=2,
    )
)
@settings(max_examples=500, deadline=None)
def test_a_device_attribute_found_valid_at_once_is_valid(attribute: dict[str, Any]) -> None:
    if slicedevices._is_valid_scalar_attribute(attribute):
        assert slicedevices.validate_attribute(attribute, ROOT.child("attributes").key("a")) == []


@pytest.mark.parametrize(
    ("attribute", "valid_at_once"),
    [
        ({"string": "NVIDIA A100-SXM4-40GB"}, True),
        ({"version": "580.126.9"}, True),
        ({"int": 3}, True),
        ({"string": "x" * 65}, False),
        ({"version": "01.2.3"}, False),
        ({"int": None}, False),
        ({"strings": ["a"]}, False),
        ({"string": "a", "int": 1}, False),
    ],
)
def test_the_usual_device_attributes_are_found_valid_at_once(
    attribute: dict[str, Any], valid_at_once: bool
) -> None:
    assert slicedevices._is_valid_scalar_attribute(attribute) is valid_at_once


# --- v1 ResourceSlice: a device's checks with and without their shortcuts ----------------------------------

from webhook.rules.v1 import declarative, declared, resourceslice  # noqa: E402
from webhook.rules.v1 import names as v1_names  # noqa: E402
from webhook.rules.v1 import shapes as v1_shapes  # noqa: E402
from webhook.rules.v1.devices import (  # noqa: E402
    too_many,
    truncate_if_too_long,
    validate_binding_parameters,
    validate_map,
    validate_set,
)
from webhook.rules.v1.devices import validate_slice as validate_v1_slice  # noqa: E402
from webhook.rules.v1.devicetaints import validate_device_taint  # noqa: E402
from webhook.rules.v1.gojson import DEVICE_COUNTER_CONSUMPTION, go_encoded  # noqa: E402


def reference_device(
    device: dict[str, Any], old_device: dict[str, Any] | None, path: FieldPath, *, per_device: bool
) -> ErrorList:
    """`validateDevice` as a plain walk: every attribute's name and value checked (names without the
    remembered valid ones), every part of the device looked at whether it is there or not."""
    sd = slicedevices
    errs = v1_names.validate_device_name(text(device.get("name")), path.child("name"))
    attributes, capacities = mapping(device.get("attributes")), mapping(device.get("capacity"))
    entries = len(attributes) + len(capacities)
    if entries > sd.MAX_ATTRIBUTES_AND_CAPACITIES_PER_DEVICE:
        limit = sd.MAX_ATTRIBUTES_AND_CAPACITIES_PER_DEVICE
        errs.append(
            invalid(path, entries, f"the total number of attributes and capacities must not exceed {limit}")
        )
    values = sum(sd.attribute_value_count(attribute) for attribute in attributes.values())
    if values > sd.MAX_ATTRIBUTE_VALUES_PER_DEVICE:
        limit = sd.MAX_ATTRIBUTE_VALUES_PER_DEVICE
        errs.append(invalid(path, values, f"the total number of attribute values must not exceed {limit}"))
    attributes_path = path.child("attributes")
    for key, attribute in attributes.items():
        errs += v1_names._validate_qualified_name(key, attributes_path)
        key_path = attributes_path.key(truncate_if_too_long(key, sd.ATTRIBUTE_AND_CAPACITY_MAX_KEY_LENGTH))
        errs += sd.validate_attribute(attribute, key_path)
    if old_device is None or not semantic_equal(
        device.get("capacity"), old_device.get("capacity"), v1_shapes.DEVICE_CAPACITIES
    ):
        multiple = device.get("allowMultipleAllocations") is True
        errs += validate_map(
            capacities,
            -1,
            sd.ATTRIBUTE_AND_CAPACITY_MAX_KEY_LENGTH,
            v1_names._validate_qualified_name,
            lambda capacity, at: sd._validate_capacity(capacity, at, multiple_allocations=multiple),
            path.child("capacity"),
        )
    if old_device is None or not semantic_equal(
        device.get("taints"), old_device.get("taints"), v1_shapes.DEVICE_TAINTS
    ):
        errs += validate_v1_slice(
            sequence(device.get("taints")),
            sd.DEVICE_TAINTS_MAX_LENGTH,
            lambda taint, at: validate_device_taint(mapping(taint), None, at),
            path.child("taints"),
        )
    errs += validate_set(
        sequence(device.get("consumesCounters")),
        sd.MAX_DEVICE_COUNTER_CONSUMPTIONS_PER_DEVICE,
        sd._validate_counter_consumption,
        lambda consumption: text(mapping(consumption).get("counterSet")),
        path.child("consumesCounters"),
        size_covered=True,
        uniqueness_covered=True,
    )
    errs += sd._validate_device_node_selection(device, path, per_device)
    errs += validate_binding_parameters(
        device.get("bindingConditions"), device.get("bindingFailureConditions"), path
    )
    errs += sd._validate_node_allocatable_resources(
        device.get("nodeAllocatableResources"), device.get("capacity"), path.child("nodeAllocatableResources")
    )
    return errs


def reference_declared_device(device: Any, path: FieldPath) -> ErrorList:
    """`Validate_Device` as a plain walk: every attribute's union worded and counted, every part looked at."""
    fields = mapping(device)
    errs: ErrorList = []
    attributes_path = path.child("attributes")
    for key, attribute in mapping(fields.get("attributes")).items():
        members = mapping(attribute)
        specified = [
            member
            for member in declared.ATTRIBUTE_MEMBERS
            if (sequence(members.get(member)) if member.endswith("s") else members.get(member) is not None)
        ]
        errs += declarative.beta(
            declarative.union(specified, declared.ATTRIBUTE_MEMBERS, attributes_path.key(key))
        )
    consumptions = sequence(fields.get("consumesCounters"))
    if consumptions:
        consumptions_path = path.child("consumesCounters")
        over = declarative.beta(declarative.max_items(len(consumptions), 2, consumptions_path))
        errs += over or declarative.beta(
            declarative.unique(
                consumptions,
                lambda a, b: declared._counter_set_of(a) == declared._counter_set_of(b),
                consumptions_path,
                lambda item: go_encoded(item, DEVICE_COUNTER_CONSUMPTION),
            )
        )
        if not over:
            errs += declared._each(consumptions, None, consumptions_path, declared._counter_consumption)
    errs += declared._each(
        list(sequence(fields.get("taints"))), None, path.child("taints"), declared.device_taint
    )
    for name in ("bindingConditions", "bindingFailureConditions"):
        errs += declarative.beta(declarative.max_items(len(sequence(fields.get(name))), 4, path.child(name)))
    resources_path = path.child("nodeAllocatableResources")
    for name, resource in mapping(fields.get("nodeAllocatableResources")).items():
        resource_mapping = optional_mapping(mapping(resource).get("mapping"))
        if resource_mapping is not None:
            members_set = [
                m for m in ("capacityKey", "deviceMultiplier") if resource_mapping.get(m) is not None
            ]
            errs += declarative.union(
                members_set, ("capacityKey", "deviceMultiplier"), resources_path.key(name).child("mapping")
            )
    return errs


_NAMES = st.sampled_from(
    [
        "type",
        "productName",
        "resource.kubernetes.io/pcieRoot",
        "gpu.example.com/uuid",
        "Example.COM/x",
        "a" * 32,
        "a" * 33,
        "bad name",
        "-x/y",
        "/y",
        "x/",
        "x/y/z",
        "é",
        "d" * 64 + "/x",
        "d" * 63 + "/x",
    ]
)
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from(
        ["", "gpu", "x" * 64, "x" * 65, "é" * 16, "é" * 32, "é" * 33, "😀" * 16, "😀" * 17, "\ud800" * 22]
    )
)
_VERSIONS = st.sampled_from(
    ["1.2.3", "580.126.9", "01.2.3", "1.2", "v1.2.3", "1.2.3-rc.1+b.5", "1." * 40 + "1", "\u0661.2.3"]
)
_ATTRIBUTES = st.one_of(
    st.builds(lambda v: {"string": v}, _SCALARS),
    st.builds(lambda v: {"version": v}, _VERSIONS | _SCALARS),
    st.builds(lambda v: {"int": v}, _SCALARS),
    st.builds(lambda v: {"bool": v}, _SCALARS),
    st.dictionaries(
        st.sampled_from(
            ["bool", "int", "string", "version", "bools", "ints", "strings", "versions", "other"]
        ),
        _SCALARS | _VERSIONS | st.lists(_SCALARS | _VERSIONS, max_size=3),
        max_size=3,
    ),
    st.sampled_from([None, "text", [], {}]),
)
_CAPACITIES = st.dictionaries(
    _NAMES,
    st.one_of(
        st.just({"value": "40Gi"}),
        st.just({"value": "1", "requestPolicy": {"default": "1", "validValues": ["1", "2"]}}),
        st.just({"value": "1", "requestPolicy": None}),
        st.just({"value": "1", "requestPolicy": "text"}),
        st.sampled_from([None, "text", {}]),
    ),
    max_size=3,
)
_DEVICES: st.SearchStrategy[dict[str, Any]] = st.fixed_dictionaries(
    {"name": st.sampled_from(["gpu-0", "GPU-0", "a" * 63, "a" * 64, "", "a.b"])},
    optional={
        "attributes": st.dictionaries(_NAMES, _ATTRIBUTES, max_size=4)
        | st.builds(
            lambda n, a: {f"a{i}": copy.deepcopy(a) for i in range(n)}, st.integers(28, 50), _ATTRIBUTES
        ),
        "capacity": _CAPACITIES,
        "allowMultipleAllocations": st.booleans(),
        "taints": st.sampled_from([None, [], [{"key": "k", "effect": "NoSchedule"}], [{"key": "k"}]]),
        "consumesCounters": st.sampled_from(
            [None, [], [{"counterSet": "s", "counters": {"c": {"value": "1"}}}]]
        ),
        "bindingConditions": st.sampled_from([None, [], ["a"], ["a"] * 5, "text"]),
        "bindingFailureConditions": st.sampled_from([None, [], ["b"], ["a"]]),
        "nodeAllocatableResources": st.sampled_from(
            [None, {}, {"cpu": {"mapping": {"capacityKey": "c", "deviceMultiplier": "2"}}}, {"x": {}}]
        ),
        "nodeName": st.sampled_from([None, "node-1"]),
    },
)


@given(_DEVICES, st.booleans(), st.sampled_from(["none", "same", "other"]))
@settings(max_examples=1500, deadline=None)
def test_a_v1_device_reports_as_the_plain_walk_does(
    device: dict[str, Any], per_device: bool, old: str
) -> None:
    path = ROOT.child("spec", "devices").index(3)
    old_device = None if old == "none" else copy.deepcopy(device) if old == "same" else {"name": "gpu-0"}
    expected = reference_device(device, old_device, path, per_device=per_device)
    for _ in range(2):  # the second time with whatever the first remembered
        assert slicedevices.validate_device(device, old_device, path, per_device=per_device) == expected
    [usual] = slicedevices.usual_attribute_flags([device])
    found = slicedevices.validate_device(
        device, old_device, path, per_device=per_device, usual_attributes=usual
    )
    assert found == expected
    expected = reference_declared_device(device, path)
    for found in (
        declared._device(device, None, path),
        declared._device(device, None, path, usual_attributes=usual),
    ):
        assert [str(e) for e in found] == [str(e) for e in expected]
        assert found == expected


@pytest.mark.parametrize(
    "value",
    ["😀" * 16, "😀" * 17, "é" * 32, "é" * 33, "x" * 64, "x" * 65, "\ud800" * 21, "\ud800" * 22],
)
def test_a_string_attribute_is_short_enough_exactly_when_its_bytes_are(value: str) -> None:
    assert slicedevices._is_short_string_value(value) is (len(value.encode("utf-8", "surrogatepass")) <= 64)


@pytest.mark.parametrize(
    "version", ["1.2.3", "01.2.3", "1.2.3-" + "a" * 58, "1.2.3-" + "a" * 59, "\u0661.2.3"]
)
def test_a_version_is_remembered_only_when_valid(version: str) -> None:
    valid = not slicedevices._validate_version_value(version, ROOT)
    for _ in range(2):
        assert slicedevices.VALID_VERSIONS.holds(version) is valid
    assert (version in slicedevices.VALID_VERSIONS) is valid


@pytest.mark.parametrize("name", ["type", "resource.kubernetes.io/pcieRoot", "a" * 33, "x/y/z", "bad name"])
def test_a_qualified_name_is_remembered_only_when_valid(name: str) -> None:
    valid = not v1_names._validate_qualified_name(name, ROOT)
    for _ in range(2):
        assert v1_names.VALID_QUALIFIED_NAMES.holds(name) is valid
    assert (name in v1_names.VALID_QUALIFIED_NAMES) is valid


@pytest.mark.parametrize("devices", [64, 65, 128])
@pytest.mark.parametrize("list_attribute_at", [None, 0, 63, 64])
def test_the_device_limit_is_the_plain_walks(devices: int, list_attribute_at: int | None) -> None:
    listed: list[dict[str, Any]] = [
        {"name": f"d-{i}", "attributes": {"a": {"int": i}}} for i in range(devices)
    ]
    if list_attribute_at is not None and list_attribute_at < devices:
        listed[list_attribute_at]["attributes"]["b"] = {"ints": [1]}
    has_lists = any(isinstance(v, list) for d in listed for a in d["attributes"].values() for v in a.values())
    limit = 64 if has_lists else 128
    path = ROOT.child("spec", "devices")
    found = resourceslice._validate_devices({"devices": listed}, None, path, None)
    assert found == (too_many(devices, limit, path, covered=False) if devices > limit else [])


def reference_devices(spec: dict[str, Any], old_spec: dict[str, Any] | None, path: FieldPath) -> ErrorList:
    """`validateSet(devices, maxDevices, validateDevice, name)` as a plain walk: the limit from a scan
    of every device, each device by `reference_device`."""
    devices = sequence(spec.get("devices"))
    advanced = any(
        sequence(mapping(device).get("taints"))
        or sequence(mapping(device).get("consumesCounters"))
        or any(
            isinstance(value, list) and member in slicedevices.LIST_MEMBERS
            for attribute in mapping(mapping(device).get("attributes")).values()
            for member, value in mapping(attribute).items()
        )
        for device in devices
    )
    per_device = spec.get("perDeviceNodeSelection") is True
    old_devices = sequence(mapping(old_spec).get("devices"))

    def lookup(name: str) -> dict[str, Any] | None:
        return next((mapping(d) for d in old_devices if text(mapping(d).get("name")) == name), None)

    return validate_set(
        devices,
        64 if advanced else 128,
        lambda device, at: reference_device(
            mapping(device), lookup(text(mapping(device).get("name"))), at, per_device=per_device
        ),
        lambda device: text(mapping(device).get("name")),
        path,
    )


_PLAIN_SPOILERS = st.fixed_dictionaries(
    {},
    optional={
        "name": st.sampled_from(["gpu-0", "GPU-1", "", "a" * 64]),
        "taints": st.sampled_from([None, [], [{"key": "k"}]]),
        "consumesCounters": st.sampled_from([[], [{"counterSet": "s", "counters": {}}]]),
        "nodeName": st.sampled_from([None, "node-1"]),
        "allowMultipleAllocations": st.booleans(),
        "bindingConditions": st.sampled_from([["a"] * 5, []]),
        "capacity": st.sampled_from(
            [{}, None, {"bad name": {"value": "1"}}, {"c": {"value": "1", "requestPolicy": {"default": "1"}}}]
        ),
    },
)


def _bench_device(i: int, spoilers: dict[str, Any], extra_attributes: int) -> dict[str, Any]:
    from bench.reviews import _v1_slice_device

    device = {**_v1_slice_device(i), **spoilers}
    for n in range(extra_attributes):
        device["attributes"][f"extra{n}"] = {"int": n}
    return device


_SLICE_DEVICES = st.lists(
    _DEVICES
    | st.builds(_bench_device, st.integers(0, 3), _PLAIN_SPOILERS, st.sampled_from([0, 0, 18, 19, 36])),
    max_size=5,
)


@given(_SLICE_DEVICES, st.sampled_from([None, True, False]), st.sampled_from(["none", "same", "first"]))
@settings(max_examples=1000, deadline=None)
def test_a_slices_devices_report_as_the_plain_walks_do(
    devices: list[Any], per_device: bool | None, old: str
) -> None:
    spec: dict[str, Any] = {"devices": devices}
    if per_device is not None:
        spec["perDeviceNodeSelection"] = per_device
    old_spec = None if old == "none" else copy.deepcopy(spec) if old == "same" else {"devices": devices[:1]}
    path = ROOT.child("spec", "devices")
    expected = reference_devices(spec, old_spec, path)
    usual, plain = slicedevices.device_flags(devices)
    assert usual == slicedevices.usual_attribute_flags(devices)
    for flags in ((None, None), (usual, plain)):
        assert resourceslice._validate_devices(spec, old_spec, path, *flags) == expected
    expected = [
        e for i, device in enumerate(devices) for e in reference_declared_device(device, path.index(i))
    ]
    for found in (
        declared.validate_resource_slice({"spec": spec}, None),
        declared.validate_resource_slice({"spec": spec}, None, usual_attributes=usual, plain_devices=plain),
    ):
        assert [str(e) for e in found] == [str(e) for e in expected]
        assert found == expected


# --- the structural check of a slice's attributes and capacities: maps of structs, int64s, quantities ------

_SLICE_GVK = GroupVersionKind("resource.k8s.io", "v1", "ResourceSlice")
_SLICE = next(obj for gvk, obj in OBJECTS if gvk == _SLICE_GVK)
_ATTRIBUTE_REPLACEMENTS: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from(
        [2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 1.0, True, None, "7", [], {}, [1], "40Gi", "4O", " 1 "]
    ),
    st.integers(),
)


@given(
    st.lists(
        st.tuples(
            st.integers(0, 127),
            st.sampled_from(["index", "minor", "productName", "driverVersion", "new"]),
            st.sampled_from(["int", "string", "version", "bool", "ints", "unknown"]),
            _ATTRIBUTE_REPLACEMENTS,
        ),
        max_size=3,
    ),
    st.lists(st.tuples(st.integers(0, 127), _ATTRIBUTE_REPLACEMENTS), max_size=2),
)
@settings(max_examples=300, deadline=None)
def test_a_slices_attributes_and_capacities_check_as_without_shortcuts(
    attribute_changes: list[tuple[int, str, str, Any]], capacity_changes: list[tuple[int, Any]]
) -> None:
    mutated = copy.deepcopy(_SLICE)
    devices = mutated["spec"]["devices"]
    for index, name, member, value in attribute_changes:
        devices[index]["attributes"][name] = {member: value}
    for index, value in capacity_changes:
        devices[index]["capacity"]["memory"] = {"value": value}
    for _ in range(2):  # the second time with the quantities the first found valid
        for fast, slow in ((FAST, SLOW), (FAST_REQUIRED, SLOW_REQUIRED)):
            found, expected = fast.check(_SLICE_GVK, mutated), slow.check(_SLICE_GVK, mutated)
            assert [str(e) for e in found.errors] == [str(e) for e in expected.errors]
            assert found.warnings == expected.warnings


@pytest.mark.parametrize("value", ["40Gi", "1.5", "4O", "", " 1", "1e3", "1" * 65])
def test_a_quantity_is_remembered_only_when_it_parses(value: str) -> None:
    from webhook.quantity import quantity_error

    for _ in range(2):
        findings = schema_nodes.Findings(False)
        schema_nodes._check_quantity(value, None, findings)
        assert [e.detail for e in findings.errors] == [m for m in [quantity_error(value)] if m is not None]
    assert (value in schema_nodes._VALID_QUANTITIES) is (quantity_error(value) is None and len(value) <= 64)


@pytest.mark.parametrize("field", ["timeAdded", "value"])
def test_a_remembered_quantity_settles_only_a_quantity_field(field: str) -> None:
    # "40Gi" is a valid quantity, remembered by the first check; in a date-time field it is still an
    # error, and in a plain string field none.
    mutated = copy.deepcopy(_SLICE)
    mutated["spec"]["devices"][0]["taints"] = [{"key": "k", "effect": "NoSchedule", field: "40Gi"}]
    for _ in range(2):
        found, expected = FAST.check(_SLICE_GVK, mutated), SLOW.check(_SLICE_GVK, mutated)
        assert [str(e) for e in found.errors] == [str(e) for e in expected.errors]
        assert bool(expected.errors) is (field == "timeAdded")


# --- v1 names found valid, remembered; the size of a raw extension told from orjson's encoding -----------

import orjson  # noqa: E402

from webhook.rules.v1 import devices as v1_devices  # noqa: E402
from webhook.rules.v1.remembered import ValidValues  # noqa: E402

_REMEMBERED = {
    "VALID_QUALIFIED_NAMES": v1_names._validate_qualified_name,
    "VALID_DNS_LABELS": v1_names.validate_dns_label,
    "VALID_DNS_SUBDOMAINS": v1_names.validate_dns_subdomain,
    "VALID_DRIVER_NAMES": v1_names.validate_driver_name,
    "VALID_POOL_NAMES": v1_names.validate_pool_name,
    "VALID_REQUEST_REFERENCES": v1_names.validate_request_reference_names,
    "VALID_DEVICE_CLASS_NAMES": v1_names.validate_device_class_name,
    "VALID_FULLY_QUALIFIED_NAMES": v1_names.validate_fully_qualified_name,
}
_NAME_LIKE = st.one_of(
    st.sampled_from(
        [
            "",
            "gpu",
            "gpu.example.com",
            "GPU.example.com",
            "node-1",
            "node-1/part",
            "a/b/c",
            "gpus/large",
            "-a",
            "a" * 63,
            "a" * 64,
            "a." * 127,
            "x" * 254,
            "resource.kubernetes.io/pcieRoot",
            "example.com/",
            "é",
        ]
    ),
    st.text(alphabet="aZ09-./_é", max_size=12),
)


@given(st.sampled_from(sorted(_REMEMBERED)), _NAME_LIKE)
@settings(max_examples=1500, deadline=None)
def test_a_remembered_name_is_one_its_check_finds_nothing_in(which: str, value: str) -> None:
    remembered: ValidValues = getattr(v1_names, which)
    valid = not _REMEMBERED[which](value, ROOT.child("x"))
    for _ in range(2):
        assert remembered.holds(value) is valid
    assert (value in remembered) is (valid and len(value) <= 256)


@given(st.sampled_from(["_driver", "_pool"]), _NAME_LIKE)
@settings(max_examples=500, deadline=None)
def test_a_remembered_declarative_name_is_one_its_tags_find_nothing_in(which: str, value: str) -> None:
    remembered = {"_driver": declared.VALID_DRIVERS, "_pool": declared.VALID_POOLS}[which]
    valid = not getattr(declared, which)(value, ROOT.child("x"))
    for _ in range(2):
        assert remembered.holds(value) is valid


_RAW = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(alphabet='a<>&\u2028\u2029"\\\n\x01é😀\ud800', max_size=12),
    ),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(alphabet="k<&", max_size=3), inner, max_size=3)
    ),
    max_leaves=10,
)


@given(_RAW, st.integers(0, 200))
@settings(max_examples=2000, deadline=None)
def test_a_raw_extension_certainly_within_its_limit_is(value: Any, limit: int) -> None:
    if v1_devices._certainly_within(value, limit):
        assert names.byte_length(v1_devices.raw_json(value)) <= limit


@pytest.mark.parametrize("text_value", ["<" * 20, "&" * 30, "\u2028" * 10, "a" * 40])
def test_the_raw_extension_bound_is_tight_enough_to_need_its_factor(text_value: str) -> None:
    """A string of '<' is 6 times its orjson bytes in Go's JSON: a smaller factor would pass it."""
    limit = len(orjson.dumps(text_value)) * v1_devices.GO_JSON_BYTES_PER_ORJSON_BYTE
    assert v1_devices._certainly_within(text_value, limit)
    assert names.byte_length(v1_devices.raw_json(text_value)) <= limit
    if text_value[0] == "<":
        assert names.byte_length(v1_devices.raw_json(text_value)) > limit * 5 // 6


_REFERENCES = st.sampled_from(
    ["gpus", "nic", "accel/small", "accel/large", "accel", "gpus/x", "a/b/c", "", "GPUS", "x/"]
)
_CLAIM_REQUESTS = {
    "requests": [
        {"name": "gpus", "exactly": {}},
        {"name": "nic", "exactly": {}},
        {"name": "accel", "firstAvailable": [{"name": "small"}, {"name": "large"}]},
        {"name": "a", "firstAvailable": [{"name": "b"}]},
    ]
}


@given(st.lists(_REFERENCES, max_size=4) | st.builds(lambda n: ["gpus"] * n, st.integers(30, 34)))
@settings(max_examples=500, deadline=None)
def test_request_references_report_as_the_plain_set_check(references: list[str]) -> None:
    request_names = v1_devices.gather_request_names(_CLAIM_REQUESTS)
    path = ROOT.child("spec", "devices", "config").index(0).child("requests")
    expected = validate_set(
        references,
        v1_devices.DEVICE_REQUESTS_MAX_SIZE,
        lambda name, at: v1_devices.validate_request_name_ref(name, at, request_names),
        lambda name: name,
        path,
        size_covered=True,
        uniqueness_covered=True,
    )
    assert v1_devices.validate_request_references(references, path, request_names) == expected
    for reference in references:
        plain = v1_devices.validate_request_name_ref(reference, path, request_names)
        shortcut = request_names.has(reference) and v1_names.VALID_REQUEST_REFERENCES.holds(reference)
        assert shortcut is (plain == [])


def reference_allocation_result(result: dict[str, Any], path: FieldPath, request_names: Any) -> ErrorList:
    """`validateDeviceRequestAllocationResult` as a plain walk: every part checked, present or not."""
    from webhook.rules.v1 import allocation

    errs = v1_devices.validate_request_name_ref(
        text(result.get("request")), path.child("request"), request_names
    )
    errs += v1_names.validate_driver_name(
        text(result.get("driver")),
        path.child("driver"),
        required_covered=True,
        format_covered=True,
        size_covered=True,
    )
    errs += covered_by_declarative(v1_names.validate_pool_name(text(result.get("pool")), path.child("pool")))
    errs += v1_names.validate_device_name(text(result.get("device")), path.child("device"))
    errs += validate_binding_parameters(
        result.get("bindingConditions"), result.get("bindingFailureConditions"), path
    )
    errs += v1_devices.validate_tolerations(result.get("tolerations"), path.child("tolerations"))
    share_id = result.get("shareID")
    if isinstance(share_id, str):
        errs += covered_by_declarative(v1_names.validate_uid(share_id, path.child("shareID")))
    errs += allocation.validate_skip_node_operations(
        result.get("skipNodeOperations"), path.child("skipNodeOperations")
    )
    return errs


def reference_declared_allocation_result(result: dict[str, Any], path: FieldPath) -> ErrorList:
    """`Validate_DeviceRequestAllocationResult` as a plain walk."""
    fields = mapping(result)
    errs = declared._driver(text(fields.get("driver")), path.child("driver"))
    errs += declared._pool(text(fields.get("pool")), path.child("pool"))
    errs += declared._tolerations(fields.get("tolerations"), path.child("tolerations"))
    for name in ("bindingConditions", "bindingFailureConditions"):
        errs += declarative.beta(declarative.max_items(len(sequence(fields.get(name))), 4, path.child(name)))
    share_id = fields.get("shareID")
    if isinstance(share_id, str):
        errs += declarative.beta(declarative.uuid(share_id, path.child("shareID")))
    errs += declared._skip_node_operations(fields.get("skipNodeOperations"), path.child("skipNodeOperations"))
    return errs


_RESULTS: st.SearchStrategy[dict[str, Any]] = st.fixed_dictionaries(
    {},
    optional={
        "request": _REFERENCES,
        "driver": st.sampled_from(["gpu.example.com", "GPU.example.com", "", "-x", "a" * 64, "x" * 70]),
        "pool": st.sampled_from(["node-1", "node-1/part", "", "a//b", "x" * 254, "Node"]),
        "device": st.sampled_from(["gpu-3", "", "GPU", "a" * 64]),
        "bindingConditions": st.sampled_from([None, [], ["a"], ["a"] * 5, "text"]),
        "bindingFailureConditions": st.sampled_from([None, [], ["b"], ["a"]]),
        "tolerations": st.sampled_from(
            [None, [], [{"key": "k", "operator": "Exists"}], [{"operator": "Bad"}], "x"]
        ),
        "shareID": st.sampled_from([None, "0a1b2c3d-0000-4000-8000-000000000000", "X"]),
        "skipNodeOperations": st.sampled_from(
            [None, [], ["NodePrepareResources"], ["*"], ["Bad"], ["Bad", "Bad"], "text"]
        ),
    },
)


@given(_RESULTS)
@settings(max_examples=1500, deadline=None)
def test_an_allocation_result_reports_as_the_plain_walk(result: dict[str, Any]) -> None:
    from webhook.rules.v1 import allocation

    request_names = v1_devices.gather_request_names(_CLAIM_REQUESTS)
    path = ROOT.child("status", "allocation", "devices", "results").index(1)
    for _ in range(2):
        expected = reference_allocation_result(result, path, request_names)
        assert allocation.validate_request_allocation_result(result, path, request_names) == expected
        expected = reference_declared_allocation_result(result, path)
        assert declared._device_request_allocation_result(result, None, path) == expected


# --- v1 defaulting: the value given back when no default applies -------------------------------------------

from webhook.rules.v1 import defaults as v1_defaults  # noqa: E402


def reference_defaulted_request(request: Any) -> Any:
    """`SetDefaults_ExactDeviceRequest` / `SetDefaults_DeviceSubRequest` as a copy every time."""
    if not isinstance(request, dict):
        return request
    defaulted = dict(request)
    mode = request.get("allocationMode")
    if mode is None or mode == "":
        mode = defaulted["allocationMode"] = "ExactCount"
    count = request.get("count")
    if mode == "ExactCount" and (count is None or (type(count) is int and count == 0)):
        defaulted["count"] = 1
    if isinstance(request.get("tolerations"), list):
        defaulted["tolerations"] = [
            {**t, "operator": "Equal"} if isinstance(t, dict) and t.get("operator") in (None, "") else t
            for t in request["tolerations"]
        ]
    return defaulted


_TOLERATIONS = st.lists(
    st.sampled_from(
        [{"key": "k"}, {"key": "k", "operator": ""}, {"operator": "Exists"}, {"operator": 0}, "x"]
    ),
    max_size=2,
)
_DEVICE_REQUESTS = st.fixed_dictionaries(
    {},
    optional={
        "allocationMode": st.sampled_from([None, "", "ExactCount", "All", 0]),
        "count": st.sampled_from([None, 0, 1, 2, 0.0, False, "0"]),
        "tolerations": _TOLERATIONS | st.none(),
        "deviceClassName": st.just("gpu"),
    },
)


@given(
    st.lists(st.one_of(_DEVICE_REQUESTS, st.just("x")), max_size=3), st.lists(_DEVICE_REQUESTS, max_size=2)
)
@settings(max_examples=600, deadline=None)
def test_v1_defaulting_copies_only_what_it_defaults(exactly: list[Any], subrequests: list[Any]) -> None:
    requests: list[Any] = [{"name": f"r{i}", "exactly": item} for i, item in enumerate(exactly)]
    requests.append({"name": "s", "firstAvailable": subrequests})
    spec = {"devices": {"requests": requests}}
    given_spec = copy.deepcopy(spec)
    expected = {
        "devices": {
            "requests": [
                {"name": f"r{i}", "exactly": reference_defaulted_request(item)}
                for i, item in enumerate(exactly)
            ]
            + [{"name": "s", "firstAvailable": [reference_defaulted_request(sub) for sub in subrequests]}]
        }
    }
    defaulted = v1_defaults.defaulted_claim_spec(spec)
    assert defaulted == expected
    assert spec == given_spec  # nothing given is changed
    assert (defaulted is spec) is (expected == given_spec and json.dumps(expected) == json.dumps(given_spec))


@given(
    st.lists(
        st.one_of(st.fixed_dictionaries({}, optional={"tolerations": _TOLERATIONS}), st.just("x")), max_size=3
    )
)
@settings(max_examples=300, deadline=None)
def test_v1_status_defaulting_copies_only_what_it_defaults(results: list[Any]) -> None:
    def tolerations_of(items: list[Any]) -> list[Any]:
        return [r.get("tolerations") if isinstance(r, dict) else None for r in items]

    status = {"allocation": {"devices": {"results": results}}}
    expected = [
        reference_defaulted_request({"tolerations": t, "allocationMode": "All"})["tolerations"]
        if isinstance(t, list)
        else t
        for t in tolerations_of(results)
    ]
    defaulted = v1_defaults.defaulted_claim_status(status)
    found = tolerations_of(defaulted["allocation"]["devices"]["results"])
    assert found == expected
    assert (defaulted is status) is (json.dumps(found) == json.dumps(tolerations_of(results)))
