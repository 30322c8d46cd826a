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


# --- the structural check: scalars decided in one test ---------------------------------------------------


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


# --- the structural check: one-member map values decided by what the walk found settled -----------------
#
# `Map.check` decides a one-member value (a device's attribute, a capacity) by the member objects the
# walk found settled before (`SoleMembers`): a JSON decoder gives every repeated key as one object, so
# each device's later attributes share their members with the first's. A later device whose member is
# the same object but whose value is of another type, an integer beyond what mypyc holds unboxed or a
# quantity not remembered gets the full check.

_SLICE = GroupVersionKind("resource.k8s.io", "v1", "ResourceSlice")
_SLICE_OBJECT = next(obj for gvk, obj in OBJECTS if gvk == _SLICE and len(obj["spec"]["devices"]) > 8)
_MEMBER_VALUES = st.one_of(
    json_scalars,
    st.sampled_from(["8.0.0", "40Gi", "4e", "0.5", 2**62, 2**63 - 1, 2**63, -(2**62) - 1, True]),
    st.just({}),
    st.just([]),
)


@given(st.lists(st.tuples(st.integers(0, 8), st.integers(0, 13), _MEMBER_VALUES), max_size=4))
@settings(max_examples=300, deadline=None)
def test_one_member_values_check_the_same_with_and_without_shortcuts(
    changes: list[tuple[int, int, Any]],
) -> None:
    # The decoder's key objects are kept: each change replaces the value under the same member.
    spec = dict(_SLICE_OBJECT["spec"])
    devices = spec["devices"] = list(spec["devices"][:9])
    for index, at, value in changes:
        device = devices[index] = dict(devices[index])
        if at == 13:  # the capacity
            capacity = device["capacity"] = dict(device["capacity"])
            [(name, fields)] = capacity.items()
            capacity[name] = {member: value for member in fields}
        else:
            attributes = device["attributes"] = dict(device["attributes"])
            name = list(attributes)[at]
            attributes[name] = {member: value for member in attributes[name]}
    mutated = {**_SLICE_OBJECT, "spec": spec}
    for fast, slow in ((FAST, SLOW), (FAST_REQUIRED, SLOW_REQUIRED)):
        found, expected = fast.check(_SLICE, mutated), slow.check(_SLICE, mutated)
        assert [str(e) for e in found.errors] == [str(e) for e in expected.errors]
        assert found.warnings == expected.warnings
