"""The fast paths answer as the slow paths do (see references.py for the shared parts).

The v1alpha2 kinds' rules: the typed walk and node selectors.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fast_paths.references import (
    SHAPES,
    _paths,
    _replace,
    _variants,
    json_values,
    name_like,
    reference_semantic_equal,
)
from webhook.field import (
    ROOT,
    ErrorList,
    FieldPath,
    required,
)
from webhook.rules import nodeselector
from webhook.rules.equality import (
    ALLOCATION_RESULT,
    DRIVER_REQUESTS,
    RESOURCE_HANDLE,
    Shape,
    _semantic_equal,
    semantic_equal,
)
from webhook.rules.values import mapping


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
