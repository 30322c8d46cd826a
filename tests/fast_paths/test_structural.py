"""The fast paths answer as the slow paths do (see references.py for the shared parts).

The structural check: its shortcuts, and an UPDATE's old object.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fast_paths.references import (
    FAST,
    FAST_REQUIRED,
    OBJECTS,
    SLOW,
    SLOW_REQUIRED,
    _paths,
    _replace,
    json_scalars,
    replacement,
)
from webhook import schema_nodes
from webhook.rules.kinds import GroupVersionKind
from webhook.schemas import StructuralChecker


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
