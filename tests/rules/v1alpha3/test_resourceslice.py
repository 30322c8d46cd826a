"""ResourceSlice (v1alpha3, Kubernetes 1.31): driver, pool, exactly one node selection, at most 128
devices with at most 32 attributes and capacities each, and the fields that may not change."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.rules.expected import SUBDOMAIN_MSG
from webhook.rules.v1alpha3.attributes import is_semantic_version
from webhook.rules.v1alpha3.resourceslice import (
    RESOURCE_SLICE,
    validate_resource_slice,
    validate_resource_slice_update,
)

C_IDENTIFIER_MSG = (
    "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric "
    "characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is "
    "'[A-Za-z_][A-Za-z0-9_]*')"
)
NODE_SELECTION = "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required"
ONE_TERM = {"nodeSelectorTerms": [{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}]}


def resource_slice(*devices: dict[str, Any], **spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1alpha3",
        "kind": "ResourceSlice",
        "metadata": {"name": "node-1-gpu.example.com", "resourceVersion": "1"},
        "spec": {
            "driver": "gpu.example.com",
            "pool": {"name": "node-1", "resourceSliceCount": 1},
            "nodeName": "node-1",
            "devices": list(devices),
            **spec,
        },
    }


def gpu(name: str = "gpu-0", attributes: Any = None, capacity: Any = None) -> dict[str, Any]:
    basic = {
        "attributes": {"model": {"string": "a100"}} if attributes is None else attributes,
        "capacity": {"memory": "80Gi"} if capacity is None else capacity,
    }
    return {"name": name, "basic": basic}


def errors(obj: dict[str, Any]) -> list[str]:
    found = [str(err) for err in validate_resource_slice(obj)]
    assert [str(err) for err in RESOURCE_SLICE.validate_create(obj)] == found
    return found


NODE_SELECTION_ROWS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("a node name", {}, []),
    ("all nodes", {"nodeName": "", "allNodes": True}, []),
    ("a node selector with one term", {"nodeName": "", "nodeSelector": ONE_TERM}, []),
    ("none", {"nodeName": ""}, [f"spec: Required value: {NODE_SELECTION}"]),
    (
        "a node selector with no term",
        {"nodeName": "", "nodeSelector": {}},
        [
            "spec.nodeSelector.nodeSelectorTerms: Required value: must have at least one node selector term",
            "spec.nodeSelector.nodeSelectorTerms: Invalid value: []core.NodeSelectorTerm(nil): "
            "must have exactly one selector term",
        ],
    ),
]


@pytest.mark.parametrize(
    ("spec", "expected"), [r[1:] for r in NODE_SELECTION_ROWS], ids=[r[0] for r in NODE_SELECTION_ROWS]
)
def test_exactly_one_node_selection(spec: dict[str, Any], expected: list[str]) -> None:
    assert errors(resource_slice(gpu(), **spec)) == expected


def test_two_node_selections_are_invalid_at_the_spec() -> None:
    errs = validate_resource_slice(resource_slice(allNodes=True))
    assert [(err.type.value, err.field, err.detail) for err in errs] == [
        ("FieldValueInvalid", "spec", NODE_SELECTION)
    ]


POOL_ROWS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("a pool of parts", {"name": "zone-a/rack-1", "resourceSliceCount": 4, "generation": 3}, []),
    ("a name is required", {"name": "", "resourceSliceCount": 1}, ["spec.pool.name: Required value"]),
    (
        "each part is a DNS subdomain",
        {"name": "zone-a/Rack", "resourceSliceCount": 1},
        [f'spec.pool.name: Invalid value: "Rack": {SUBDOMAIN_MSG}'],
    ),
    (
        "the slice count is positive",
        {"name": "p", "resourceSliceCount": 0},
        ["spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero"],
    ),
    (
        "the generation is not negative",
        {"name": "p", "resourceSliceCount": 1, "generation": -1},
        ["spec.pool.generation: Invalid value: -1: must be greater than or equal to zero"],
    ),
]


@pytest.mark.parametrize(("pool", "expected"), [r[1:] for r in POOL_ROWS], ids=[r[0] for r in POOL_ROWS])
def test_the_pool(pool: dict[str, Any], expected: list[str]) -> None:
    assert errors(resource_slice(gpu(), pool=pool)) == expected


@pytest.mark.parametrize(
    ("count", "expected"), [(128, []), (129, ["spec.devices: Too long: may not be longer than 128"])]
)
def test_a_slice_has_at_most_128_devices(count: int, expected: list[str]) -> None:
    assert errors(resource_slice(*(gpu(f"gpu-{i}") for i in range(count)))) == expected


A = "spec.devices[0].basic.attributes"
DEVICE_ROWS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("a device", gpu(), []),
    ("basic is required", {"name": "gpu-0"}, ["spec.devices[0].basic: Required value"]),
    ("a qualified attribute name", gpu(attributes={"gpu.example.com/model": {"string": "a100"}}), []),
    (
        "a key's errors are at the map's path",
        gpu(attributes={"numa-node": {"int": 0}}),
        [f'{A}: Invalid value: "numa-node": {C_IDENTIFIER_MSG}'],
    ),
    (
        "a value is needed",
        gpu(attributes={"x": {}}),
        [f"{A}[x]: Required value: exactly one value must be specified"],
    ),
    ("a version is semver", gpu(attributes={"v": {"version": "1.2.3-rc.1"}}), []),
    (
        "a version that is not",
        gpu(attributes={"v": {"version": "1.2"}}),
        [f'{A}[v].version: Invalid value: "1.2": must be a string compatible with semver.org spec 2.0.0'],
    ),
    (
        "a string of at most 64 bytes",
        gpu(attributes={"s": {"string": "x" * 65}}),
        [f"{A}[s].string: Too long: may not be longer than 64"],
    ),
    ("32 attributes and capacities", gpu(attributes={f"a{i}": {"bool": True} for i in range(31)}), []),
    (
        "33 attributes and capacities",
        gpu(attributes={f"a{i}": {"bool": True} for i in range(32)}),
        [
            "spec.devices[0].basic: Invalid value: 33: the total number of attributes and capacities must not exceed 32"
        ],
    ),
]


@pytest.mark.parametrize(
    ("device", "expected"), [r[1:] for r in DEVICE_ROWS], ids=[r[0] for r in DEVICE_ROWS]
)
def test_a_device(device: dict[str, Any], expected: list[str]) -> None:
    assert errors(resource_slice(device)) == expected


def test_two_values_in_one_attribute() -> None:
    errs = validate_resource_slice(resource_slice(gpu(attributes={"x": {"int": 1, "string": "1"}})))
    assert [(err.field, err.detail) for err in errs] == [(f"{A}[x]", "exactly one field must be specified")]


@pytest.mark.parametrize(
    ("version", "valid"),
    [
        ("1.2.3", True),
        ("0.0.0", True),
        ("1.2.3-alpha.1+build.5", True),
        ("1.2.3-0a", True),
        ("01.2.3", False),
        ("1.2.3-01", False),
        ("v1.2.3", False),
        ("1.2.3\n", False),
        ("1.2.3+", False),
    ],
)
def test_semantic_versions(version: str, valid: bool) -> None:
    assert is_semantic_version(version) is valid


# --- update -----------------------------------------------------------------------------------------


def changed(obj: dict[str, Any], **spec: Any) -> dict[str, Any]:
    new = copy.deepcopy(obj)
    new["spec"].update(spec)
    return new


UPDATE_ROWS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("devices may change", changed(resource_slice(gpu()), devices=[gpu("gpu-1")]), []),
    (
        "the pool generation may change",
        changed(resource_slice(), pool={"name": "node-1", "resourceSliceCount": 1, "generation": 1}),
        [],
    ),
    (
        "the pool name may not",
        changed(resource_slice(), pool={"name": "node-2", "resourceSliceCount": 1}),
        ['spec.pool.name: Invalid value: "node-2": field is immutable'],
    ),
    (
        "nor the driver",
        changed(resource_slice(), driver="tpu.example.com"),
        ['spec.driver: Invalid value: "tpu.example.com": field is immutable'],
    ),
    (
        "nor the node name",
        changed(resource_slice(), nodeName="node-2"),
        ['spec.nodeName: Invalid value: "node-2": field is immutable'],
    ),
]


@pytest.mark.parametrize(("new", "expected"), [r[1:] for r in UPDATE_ROWS], ids=[r[0] for r in UPDATE_ROWS])
def test_update(new: dict[str, Any], expected: list[str]) -> None:
    assert [str(err) for err in validate_resource_slice_update(new, resource_slice(gpu()))] == expected


def test_an_update_does_not_run_the_create_checks_of_object_meta() -> None:
    new = resource_slice()
    new["metadata"]["finalizers"] = ["a/b/c"]  # ValidateFinalizers would refuse it on create
    assert validate_resource_slice_update(new, resource_slice()) == []
    assert [err.field for err in validate_resource_slice(new)] == ["metadata.finalizers"]
