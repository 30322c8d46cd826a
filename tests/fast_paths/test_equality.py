"""The fast paths answer as the slow paths do (see references.py for the shared parts).

Semantic equality: the fast "same document" answer agrees with the typed walk.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fast_paths.references import (
    SHAPES,
    _variants,
    json_values,
    reference_semantic_equal,
)
from webhook.rules.equality import (
    DRIVER_REQUESTS,
    Shape,
    _semantic_equal,
    semantic_equal,
)


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
