"""`semantic_equal`: Go's `equality.Semantic.DeepEqual` over decoded JSON of the 1.30 resource types."""

from __future__ import annotations

from typing import Any

import pytest

from webhook.rules.equality import (
    ALLOCATION_RESULT,
    ANY,
    DRIVER_REQUESTS,
    OBJECT_META,
    QUANTITY,
    RESOURCE_CLAIM_CONSUMER_REFERENCE,
    RESOURCE_CLAIM_SPEC,
    RESOURCE_CLAIM_TEMPLATE_SPEC,
    RESOURCE_HANDLE,
    STRUCTURED_RESOURCE_HANDLE,
    Map,
    Shape,
    Struct,
    semantic_equal,
)

REF = {"kind": "ConfigMap", "name": "params"}


@pytest.mark.parametrize(
    ("a", "b", "shape", "equal"),
    [
        # Strings, bools and integers held by value: absent, null and zero are the same value.
        ({"resourceClassName": ""}, {}, RESOURCE_CLAIM_SPEC, True),
        ({"resourceClassName": None}, {}, RESOURCE_CLAIM_SPEC, True),
        ({"resourceClassName": "a"}, {"resourceClassName": "b"}, RESOURCE_CLAIM_SPEC, False),
        ({"shareable": False}, {}, ALLOCATION_RESULT, True),
        ({"shareable": True}, {}, ALLOCATION_RESULT, False),
        ({"generation": 0}, {}, OBJECT_META, True),
        ({"generation": 2}, {"generation": 1}, OBJECT_META, False),
        # A pointer to a struct: nil differs from a pointer to the zero struct.
        ({"parametersRef": {}}, {}, RESOURCE_CLAIM_SPEC, False),
        ({"parametersRef": None}, {}, RESOURCE_CLAIM_SPEC, True),
        ({"parametersRef": REF}, {"parametersRef": dict(REF, apiGroup="")}, RESOURCE_CLAIM_SPEC, True),
        ({"parametersRef": REF}, {"parametersRef": dict(REF, apiGroup="g")}, RESOURCE_CLAIM_SPEC, False),
        ({"availableOnNodes": {}}, {}, ALLOCATION_RESULT, False),
        ({"structuredData": {}}, {}, RESOURCE_HANDLE, False),
        # Pointers to scalars (*int64, *bool): nil differs from a pointer to zero.
        ({"deletionGracePeriodSeconds": 0}, {}, OBJECT_META, False),
        ({"ownerReferences": [{"controller": False}]}, {"ownerReferences": [{}]}, OBJECT_META, False),
        # A struct held by value: absent, null and {} are its zero value.
        ({"metadata": {}, "spec": {}}, {}, RESOURCE_CLAIM_TEMPLATE_SPEC, True),
        ({"metadata": None}, {"metadata": {"labels": {}}}, RESOURCE_CLAIM_TEMPLATE_SPEC, True),
        ({"metadata": {"labels": {"a": "b"}}}, {}, RESOURCE_CLAIM_TEMPLATE_SPEC, False),
        # Slices and maps: nil and empty are equal; otherwise element by element, in order.
        ({"resourceHandles": []}, {}, ALLOCATION_RESULT, True),
        ({"resourceHandles": None}, {"resourceHandles": []}, ALLOCATION_RESULT, True),
        ({"resourceHandles": [{}]}, {}, ALLOCATION_RESULT, False),
        ({"resourceHandles": [{"data": ""}]}, {"resourceHandles": [{}]}, ALLOCATION_RESULT, True),
        ({"finalizers": ["a", "b"]}, {"finalizers": ["b", "a"]}, OBJECT_META, False),
        ({"labels": {}}, {}, OBJECT_META, True),
        ({"labels": {"a": ""}}, {}, OBJECT_META, False),
        ({"labels": {"a": "1", "b": "2"}}, {"labels": {"b": "2", "a": "1"}}, OBJECT_META, True),
        # Raw JSON (runtime.RawExtension): null is nil, {} is two bytes, and key order is part of the bytes.
        ({"vendorClassParameters": None}, {}, STRUCTURED_RESOURCE_HANDLE, True),
        ({"vendorClassParameters": {}}, {}, STRUCTURED_RESOURCE_HANDLE, False),
        (
            {"vendorClassParameters": {"a": 1, "b": 2}},
            {"vendorClassParameters": {"a": 1, "b": 2}},
            STRUCTURED_RESOURCE_HANDLE,
            True,
        ),
        (
            {"vendorClassParameters": {"a": 1, "b": 2}},
            {"vendorClassParameters": {"b": 2, "a": 1}},
            STRUCTURED_RESOURCE_HANDLE,
            False,
        ),
        # metav1.Time: compared as instants in UTC; null and absent are the zero time.
        ({"creationTimestamp": None}, {}, OBJECT_META, True),
        ({"creationTimestamp": "0001-01-01T00:00:00Z"}, {}, OBJECT_META, True),
        (
            {"creationTimestamp": "2024-05-01T12:00:00Z"},
            {"creationTimestamp": "2024-05-01T14:00:00+02:00"},
            OBJECT_META,
            True,
        ),
        (
            {"creationTimestamp": "2024-05-01T12:00:00Z"},
            {"creationTimestamp": "2024-05-01T12:00:01Z"},
            OBJECT_META,
            False,
        ),
        (
            {"deletionTimestamp": "2024-05-01T12:00:00.000000001Z"},
            {"deletionTimestamp": "2024-05-01T12:00:00Z"},
            OBJECT_META,
            False,
        ),
        ({"deletionTimestamp": "2024-05-01T12:00:00Z"}, {}, OBJECT_META, False),
        # Keys Go does not know are dropped by its decoder.
        ({"resourceClassName": "a", "unknown": 1}, {"resourceClassName": "a"}, RESOURCE_CLAIM_SPEC, True),
        # Consumer references compare all four fields.
        ({"uid": "1", "name": "a"}, {"uid": "1", "name": "b"}, RESOURCE_CLAIM_CONSUMER_REFERENCE, False),
        # driverRequests (chooses the CEL environment on ResourceClaimParameters updates).
        ([], None, DRIVER_REQUESTS, True),
        ([{"driverName": "d", "requests": []}], [{"driverName": "d"}], DRIVER_REQUESTS, True),
        (
            [{"driverName": "d", "requests": [{"namedResources": {"selector": "true"}}]}],
            [{"driverName": "d", "requests": [{"namedResources": {"selector": "false"}}]}],
            DRIVER_REQUESTS,
            False,
        ),
        ([{"driverName": "d", "vendorParameters": {}}], [{"driverName": "d"}], DRIVER_REQUESTS, False),
    ],
)
def test_semantic_equality_follows_the_go_type(a: Any, b: Any, shape: Shape, equal: bool) -> None:
    assert semantic_equal(a, b, shape) is equal
    assert semantic_equal(b, a, shape) is equal


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        (None, None, True),
        ({"a": ""}, {}, True),
        ({"a": []}, {"a": None}, True),
        ({"a": 0}, {}, True),
        ({"a": False}, {}, True),
        ({"a": {}}, {}, False),  # an untyped object is taken for a pointer to a struct
        ({"a": [1, 2]}, {"a": [1, 2]}, True),
        ({"a": [1, 2]}, {"a": [2, 1]}, False),
        ({"a": 1}, {"a": True}, False),
        ({"a": ""}, {"a": 0}, False),
        ("x", "x", True),
    ],
)
def test_untyped_equality_is_a_best_effort(a: Any, b: Any, equal: bool) -> None:
    assert semantic_equal(a, b) is equal
    assert semantic_equal(b, a, ANY) is equal


@pytest.mark.parametrize("junk", [None, "x", 5, True, [], {}, [None], {"a": None}, [[1]], 1.5])
@pytest.mark.parametrize(
    "shape", [RESOURCE_CLAIM_SPEC, RESOURCE_CLAIM_TEMPLATE_SPEC, ALLOCATION_RESULT, DRIVER_REQUESTS, ANY]
)
def test_wrong_types_never_raise(junk: Any, shape: Shape) -> None:
    valid = {"resourceHandles": [{"driverName": "d"}], "metadata": {"labels": {"a": "b"}}, "spec": {}}
    semantic_equal(junk, valid, shape)
    semantic_equal(valid, junk, shape)
    semantic_equal({"metadata": junk, "spec": junk, "resourceHandles": [junk]}, valid, shape)


def test_unparseable_times_equal_only_themselves() -> None:
    assert semantic_equal({"creationTimestamp": "yesterday"}, {"creationTimestamp": "yesterday"}, OBJECT_META)
    assert not semantic_equal({"creationTimestamp": "yesterday"}, {}, OBJECT_META)
    # RFC 3339 needs a time and an offset; Go's decoder rejects a bare date.
    assert not semantic_equal({"creationTimestamp": "2024-05-01"}, {}, OBJECT_META)


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        # resource.Quantity compares by value (Cmp); absent is zero.
        ("1Gi", "1073741824", True),
        ("1.5", "1500m", True),
        ("1", "2", False),
        (None, "0", True),
        ("bogus", "bogus", True),
        ("bogus", "0", False),
    ],
)
def test_quantities_compare_by_value(a: Any, b: Any, equal: bool) -> None:
    assert semantic_equal(a, b, QUANTITY) is equal


COUNTERS = Map(Struct({"value": QUANTITY}))


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        ({}, None, True),
        ({"mem": {"value": "1Gi"}}, {"mem": {"value": "1024Mi"}}, True),
        ({"mem": {"value": "1Gi"}}, {"mem": {"value": "1Gi"}, "cpu": {}}, False),
        ({"mem": {}}, {"mem": {"value": "0"}}, True),
    ],
)
def test_maps_of_structs(a: Any, b: Any, equal: bool) -> None:
    assert semantic_equal(a, b, COUNTERS) is equal
