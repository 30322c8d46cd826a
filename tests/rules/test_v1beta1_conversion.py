"""resource.k8s.io/v1beta1 -> v1 and back, as kube-apiserver 1.37 converts them
(pkg/apis/resource/v1beta1/conversion.go; its conversion_test.go rows are the first of each table)."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from webhook.rules.kinds import GroupVersionKind, Obj
from webhook.rules.v1beta1 import conversion
from webhook.rules.v1beta1.conversion import (
    claim_from_v1,
    claim_template_from_v1,
    claim_template_to_v1,
    claim_to_v1,
    device_class_from_v1,
    device_class_to_v1,
    device_from_v1,
    device_to_v1,
    request_from_v1,
    request_to_v1,
    resource_slice_from_v1,
    resource_slice_to_v1,
    slice_spec_from_v1,
    slice_spec_to_v1,
)
from webhook.schemas import StructuralChecker

CEL = [{"cel": {"expression": 'device.attributes["driver-a"].exists'}}]
TOLERATION = {"key": "k", "operator": "Exists", "effect": "NoSchedule"}


# --- requests -----------------------------------------------------------------------------------------

REQUESTS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        # TestConversion "v1beta1 to internal without alternatives"
        "the request fields move under exactly",
        {
            "name": "foo",
            "deviceClassName": "class-a",
            "selectors": CEL,
            "allocationMode": "ExactCount",
            "count": 2,
            "capacity": {"requests": {"cap": "1"}},
        },
        {
            "name": "foo",
            "exactly": {
                "deviceClassName": "class-a",
                "selectors": CEL,
                "allocationMode": "ExactCount",
                "count": 2,
                "capacity": {"requests": {"cap": "1"}},
            },
        },
    ),
    (
        # "v1beta1 to internal with alternatives"
        "a request of subrequests has no exactly",
        {"name": "foo", "firstAvailable": [{"name": "sub-1", "deviceClassName": "class-a", "count": 2}]},
        {"name": "foo", "firstAvailable": [{"name": "sub-1", "deviceClassName": "class-a", "count": 2}]},
    ),
    ("a bare request has no exactly", {"name": "foo"}, {"name": "foo"}),
    ("null fields are not set", {"name": "foo", "selectors": None, "adminAccess": None}, {"name": "foo"}),
    ("a zero count is not set", {"name": "foo", "count": 0, "allocationMode": ""}, {"name": "foo"}),
    ("an empty class name is not set", {"name": "foo", "deviceClassName": ""}, {"name": "foo"}),
    (
        "an empty selector list is set",
        {"name": "foo", "selectors": []},
        {"name": "foo", "exactly": {"selectors": []}},
    ),
    (
        "an empty toleration list is set but converts to none",
        {"name": "foo", "tolerations": []},
        {"name": "foo", "exactly": {}},
    ),
    (
        "adminAccess false is set",
        {"name": "foo", "adminAccess": False},
        {"name": "foo", "exactly": {"adminAccess": False}},
    ),
    ("a count alone is set", {"name": "foo", "count": 3}, {"name": "foo", "exactly": {"count": 3}}),
    (
        "an empty capacity is set",
        {"name": "foo", "capacity": {}},
        {"name": "foo", "exactly": {"capacity": {}}},
    ),
    (
        "tolerations move with the rest",
        {"name": "foo", "deviceClassName": "c", "tolerations": [TOLERATION]},
        {"name": "foo", "exactly": {"deviceClassName": "c", "tolerations": [TOLERATION]}},
    ),
    (
        # Invalid, and kept so: validation reports it (both exactly and firstAvailable).
        "fields beside subrequests make both",
        {"name": "foo", "deviceClassName": "c", "firstAvailable": [{"name": "a", "deviceClassName": "c"}]},
        {
            "name": "foo",
            "exactly": {"deviceClassName": "c"},
            "firstAvailable": [{"name": "a", "deviceClassName": "c"}],
        },
    ),
    (
        # v1beta1 has no `exactly`: the decoder dropped it before any conversion.
        "an exactly field is not v1beta1's",
        {"name": "foo", "exactly": {"deviceClassName": "c"}},
        {"name": "foo"},
    ),
    ("a request without a name", {"deviceClassName": "c"}, {"exactly": {"deviceClassName": "c"}}),
]


@pytest.mark.parametrize(("case", "v1beta1", "v1"), REQUESTS, ids=[case for case, _, _ in REQUESTS])
def test_a_request_converts_as_1_37_converts_it(
    case: str, v1beta1: dict[str, Any], v1: dict[str, Any]
) -> None:
    assert request_to_v1(v1beta1) == v1


@pytest.mark.parametrize(
    ("v1", "v1beta1"),
    [
        (REQUESTS[0][2], REQUESTS[0][1]),  # "internal to v1beta1 without alternatives"
        (REQUESTS[1][2], REQUESTS[1][1]),
        ({"name": "foo", "exactly": {"tolerations": []}}, {"name": "foo"}),
        ({"name": "foo", "exactly": {"selectors": []}}, {"name": "foo", "selectors": []}),
        ({"name": "foo", "exactly": None}, {"name": "foo"}),
    ],
)
def test_a_request_converts_back_by_flattening_exactly(v1: dict[str, Any], v1beta1: dict[str, Any]) -> None:
    assert request_from_v1(v1) == v1beta1


# --- devices and slices -------------------------------------------------------------------------------

NODE_SELECTOR = {"nodeSelectorTerms": [{"matchFields": [{"key": "name", "operator": "In", "values": ["n"]}]}]}

DEVICES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        # "ResourceSlice v1beta1 to internal with node allocatable resource mappings"
        "the fields of basic move into the device",
        {
            "name": "test-device",
            "basic": {
                "attributes": {"cpu_per_instance": {"int": 2}},
                "nodeAllocatableResourceMappings": {"cpu": {"allocationMultiplier": "1"}},
            },
        },
        {
            "name": "test-device",
            "attributes": {"cpu_per_instance": {"int": 2}},
            "nodeAllocatableResourceMappings": {"cpu": {"allocationMultiplier": "1"}},
        },
    ),
    (
        "every field of basic",
        {
            "name": "d",
            "basic": {
                "attributes": {"a": {"bool": True}},
                "capacity": {"memory": {"value": "1Gi"}},
                "consumesCounters": [{"counterSet": "s", "counters": {"c": {"value": "1"}}}],
                "nodeName": "n",
                "nodeSelector": NODE_SELECTOR,
                "allNodes": False,
                "taints": [{"key": "k", "effect": "NoSchedule"}],
                "bindsToNode": True,
                "bindingConditions": ["c"],
                "bindingFailureConditions": ["f"],
                "allowMultipleAllocations": True,
                "nodeAllocatableResourceMappings": {"memory": {}},
            },
        },
        {
            "name": "d",
            "attributes": {"a": {"bool": True}},
            "capacity": {"memory": {"value": "1Gi"}},
            "consumesCounters": [{"counterSet": "s", "counters": {"c": {"value": "1"}}}],
            "nodeName": "n",
            "nodeSelector": NODE_SELECTOR,
            "allNodes": False,  # a pointer: false is set
            "taints": [{"key": "k", "effect": "NoSchedule"}],
            "bindsToNode": True,
            "bindingConditions": ["c"],
            "bindingFailureConditions": ["f"],
            "allowMultipleAllocations": True,
            "nodeAllocatableResourceMappings": {"memory": {}},
        },
    ),
    ("a device without basic keeps its name", {"name": "d"}, {"name": "d"}),
    ("a null basic", {"name": "d", "basic": None}, {"name": "d"}),
    ("an empty basic", {"name": "d", "basic": {}}, {"name": "d"}),
    (
        "empty maps and appended lists become absent",
        {"name": "d", "basic": {"attributes": {}, "capacity": {}, "consumesCounters": [], "taints": []}},
        {"name": "d"},
    ),
    (
        "assigned lists are kept when empty",
        {"name": "d", "basic": {"bindingConditions": [], "bindingFailureConditions": []}},
        {"name": "d", "bindingConditions": [], "bindingFailureConditions": []},
    ),
    (
        # A v1-shaped device sent as v1beta1: the decoder dropped the unknown fields.
        "fields outside basic are not v1beta1's",
        {"name": "d", "attributes": {"a": {"bool": True}}, "composite": {}},
        {"name": "d"},
    ),
    ("an unknown field of basic", {"name": "d", "basic": {"derivedAttributes": []}}, {"name": "d"}),
]


@pytest.mark.parametrize(("case", "v1beta1", "v1"), DEVICES, ids=[case for case, _, _ in DEVICES])
def test_a_device_converts_as_1_37_converts_it(
    case: str, v1beta1: dict[str, Any], v1: dict[str, Any]
) -> None:
    assert device_to_v1(v1beta1) == v1


@pytest.mark.parametrize(
    ("v1", "v1beta1"),
    [
        (DEVICES[0][2], DEVICES[0][1]),  # "ResourceSlice internal to v1beta1 with ... mappings"
        (DEVICES[1][2], DEVICES[1][1]),
        ({"name": "d"}, {"name": "d", "basic": {}}),  # every device gets a basic
        ({"name": "d", "attributes": {}, "taints": []}, {"name": "d", "basic": {}}),
    ],
)
def test_a_device_converts_back_into_basic(v1: dict[str, Any], v1beta1: dict[str, Any]) -> None:
    assert device_from_v1(v1) == v1beta1


SLICE_SPECS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "a node name becomes a pointer",
        {"driver": "d.example.com", "pool": {"name": "p", "resourceSliceCount": 1}, "nodeName": "test-node"},
        {"driver": "d.example.com", "pool": {"name": "p", "resourceSliceCount": 1}, "nodeName": "test-node"},
    ),
    ("an empty node name is absent", {"driver": "d", "nodeName": ""}, {"driver": "d"}),
    ("allNodes false is absent", {"driver": "d", "allNodes": False}, {"driver": "d"}),
    ("allNodes true is kept", {"driver": "d", "allNodes": True}, {"driver": "d", "allNodes": True}),
    (
        "the other fields are copied",
        {
            "driver": "d",
            "nodeSelector": NODE_SELECTOR,
            "perDeviceNodeSelection": True,
            "sharedCounters": [{"name": "s", "counters": {"c": {"value": "1"}}}],
        },
        {
            "driver": "d",
            "nodeSelector": NODE_SELECTOR,
            "perDeviceNodeSelection": True,
            "sharedCounters": [{"name": "s", "counters": {"c": {"value": "1"}}}],
        },
    ),
    (
        "devices leave basic",
        {
            "driver": "d",
            "devices": [{"name": "a", "basic": {"attributes": {"x": {"int": 1}}}}, {"name": "b"}],
        },
        {"driver": "d", "devices": [{"name": "a", "attributes": {"x": {"int": 1}}}, {"name": "b"}]},
    ),
    ("an unknown field is dropped", {"driver": "d", "nodename": "n"}, {"driver": "d"}),
]


@pytest.mark.parametrize(("case", "v1beta1", "v1"), SLICE_SPECS, ids=[case for case, _, _ in SLICE_SPECS])
def test_a_slice_spec_converts_as_1_37_converts_it(
    case: str, v1beta1: dict[str, Any], v1: dict[str, Any]
) -> None:
    assert slice_spec_to_v1(v1beta1) == v1


def test_a_slice_spec_converts_back_without_the_unset_node_fields() -> None:
    assert slice_spec_from_v1({"driver": "d", "nodeName": "n", "allNodes": None}) == {
        "driver": "d",
        "nodeName": "n",
    }
    assert slice_spec_from_v1({"driver": "d", "allNodes": True, "devices": [{"name": "a"}]}) == {
        "driver": "d",
        "allNodes": True,
        "devices": [{"name": "a", "basic": {}}],
    }


# --- whole objects ------------------------------------------------------------------------------------


def claim(requests: list[Any], api_version: str = "resource.k8s.io/v1beta1") -> dict[str, Any]:
    return {
        "apiVersion": api_version,
        "kind": "ResourceClaim",
        "metadata": {"name": "c", "namespace": "default"},
        "spec": {"devices": {"requests": requests, "constraints": [{"matchAttribute": "a.b/c"}]}},
        "status": {
            "allocation": {
                "devices": {"results": [{"request": "r", "driver": "d", "pool": "p", "device": "x"}]}
            }
        },
    }


def test_a_claim_converts_its_requests_and_keeps_the_rest() -> None:
    converted = claim_to_v1(claim([{"name": "r", "deviceClassName": "c"}]))
    assert converted == claim([{"name": "r", "exactly": {"deviceClassName": "c"}}], "resource.k8s.io/v1")


def test_a_template_converts_the_requests_of_its_claim_spec() -> None:
    template = {
        "apiVersion": "resource.k8s.io/v1beta1",
        "kind": "ResourceClaimTemplate",
        "metadata": {"name": "t"},
        "spec": {"metadata": {"labels": {"a": "b"}}, "spec": claim([{"name": "r", "count": 2}])["spec"]},
    }
    converted = claim_template_to_v1(template)
    assert converted["apiVersion"] == "resource.k8s.io/v1"
    assert converted["spec"]["metadata"] == {"labels": {"a": "b"}}
    assert converted["spec"]["spec"]["devices"]["requests"] == [{"name": "r", "exactly": {"count": 2}}]
    assert claim_template_from_v1(converted) == template


def test_a_slice_converts_its_spec() -> None:
    obj = {
        "apiVersion": "resource.k8s.io/v1beta1",
        "kind": "ResourceSlice",
        "metadata": {"name": "s"},
        "spec": {
            "driver": "d",
            "pool": {"name": "p"},
            "allNodes": True,
            "devices": [{"name": "a", "basic": {}}],
        },
    }
    assert resource_slice_to_v1(obj) == {
        **obj,
        "apiVersion": "resource.k8s.io/v1",
        "spec": {"driver": "d", "pool": {"name": "p"}, "allNodes": True, "devices": [{"name": "a"}]},
    }
    assert resource_slice_from_v1(resource_slice_to_v1(obj)) == obj


def test_a_device_class_changes_only_its_api_version() -> None:
    obj = {
        "apiVersion": "resource.k8s.io/v1beta1",
        "kind": "DeviceClass",
        "metadata": {"name": "x"},
        "spec": {},
    }
    assert device_class_to_v1(obj) == {**obj, "apiVersion": "resource.k8s.io/v1"}
    assert device_class_from_v1(device_class_to_v1(obj)) == obj


@pytest.mark.parametrize(
    "convert",
    [
        claim_to_v1,
        claim_template_to_v1,
        resource_slice_to_v1,
        device_class_to_v1,
        claim_from_v1,
        resource_slice_from_v1,
    ],
)
@pytest.mark.parametrize(
    "obj",
    [
        "not an object",
        None,
        [1, 2],
        {"kind": "ResourceClaim"},
        {"spec": None},
        {"spec": {"devices": None}},
        {"spec": {"devices": {"requests": "x"}}},
        {"spec": {"spec": 3, "devices": [7, None]}},
    ],
)
def test_what_the_structural_check_denies_passes_through_without_a_crash(
    convert: Callable[[Obj], Obj], obj: Any
) -> None:
    before = copy.deepcopy(obj)
    converted = convert(obj)
    assert obj == before  # never changed in place
    if not isinstance(obj, dict):
        assert converted is obj
    else:
        assert {key: value for key, value in converted.items() if key != "apiVersion"}.keys() <= obj.keys()


def test_conversion_never_changes_its_input() -> None:
    obj = claim([{"name": "r", "deviceClassName": "c", "tolerations": []}])
    before = copy.deepcopy(obj)
    claim_to_v1(obj)
    claim_from_v1(claim_to_v1(obj))
    assert obj == before


# --- published manifests ------------------------------------------------------------------------------

REALWORLD = Path(
    os.environ.get("DRA_WEBHOOK_REALWORLD")
    or Path(__file__).resolve().parent.parent.parent.parent / "shared" / "realworld"
)
needs_realworld = pytest.mark.skipif(
    not (REALWORLD / "index.json").is_file(), reason=f"{REALWORLD} is absent"
)
GROUP = "resource.k8s.io"
TO_V1: dict[str, Callable[[Obj], Obj]] = {
    "DeviceClass": device_class_to_v1,
    "ResourceClaim": claim_to_v1,
    "ResourceClaimTemplate": claim_template_to_v1,
    "ResourceSlice": resource_slice_to_v1,
}
FROM_V1: dict[str, Callable[[Obj], Obj]] = {
    "DeviceClass": device_class_from_v1,
    "ResourceClaim": claim_from_v1,
    "ResourceClaimTemplate": claim_template_from_v1,
    "ResourceSlice": resource_slice_from_v1,
}
VALID_MARKS = ("YES", "YES (captured output)", "YES (parser edge case)")


def published_objects(version: str) -> list[tuple[str, dict[str, Any]]]:
    """(file, object) for every object of `version` of the kinds v1beta1 shares with v1, in files
    INDEX.md marks valid whose objects pass the structural check."""
    entries = json.loads((REALWORLD / "index.json").read_text())["files"]
    found = []
    for entry in entries:
        if entry["dir"] != version or entry["presumed_valid"] not in VALID_MARKS:
            continue
        try:
            documents = list(yaml.safe_load_all((REALWORLD / entry["file"]).read_text()))
        except yaml.YAMLError:
            continue  # the parser edge cases: tests/test_realworld.py reads them as kubectl does
        for document in documents:
            items = document.get("items", [document]) if isinstance(document, dict) else []
            for item in items:
                if (
                    isinstance(item, dict)
                    and item.get("apiVersion") == f"{GROUP}/{version}"
                    and item.get("kind") in TO_V1
                ):
                    found.append((entry["file"], item))
    return found


def go_normal(value: Any) -> Any:
    """What Go's decoder and `omitempty` make of a document: nulls and empty lists and maps gone."""
    if isinstance(value, dict):
        kept = {key: go_normal(item) for key, item in value.items()}
        return {key: item for key, item in kept.items() if item is not None and item != [] and item != {}}
    if isinstance(value, list):
        return [go_normal(item) for item in value]
    return value


@pytest.fixture(scope="module")
def checker() -> StructuralChecker:
    return StructuralChecker.load()


@needs_realworld
def test_published_v1beta1_objects_become_v1_objects_that_pass_v1s_schema(checker: StructuralChecker) -> None:
    objects = published_objects("v1beta1")
    assert len(objects) > 100
    problems = []
    for file, obj in objects:
        wire = checker.check(GroupVersionKind(GROUP, "v1beta1", obj["kind"]), obj)
        if wire.errors:
            continue  # not a v1beta1 object kube-apiserver decodes
        as_v1 = checker.check(GroupVersionKind(GROUP, "v1", obj["kind"]), TO_V1[obj["kind"]](obj))
        if as_v1.errors or len(as_v1.warnings) > len(wire.warnings):
            problems.append(f"{file}: {[str(e) for e in as_v1.errors]} {as_v1.warnings}")
    assert problems == []


@needs_realworld
def test_published_v1beta1_objects_round_trip_through_v1(checker: StructuralChecker) -> None:
    for file, obj in published_objects("v1beta1"):
        back = FROM_V1[obj["kind"]](TO_V1[obj["kind"]](obj))
        # Every device of v1beta1's answer has a basic, empty or not.
        assert go_normal(back) == go_normal(obj), file


@needs_realworld
@pytest.mark.parametrize("version", ["v1", "v1beta2"])
def test_published_objects_of_v1s_shape_round_trip_through_v1beta1(version: str) -> None:
    objects = published_objects(version)
    assert objects
    for file, obj in objects:
        as_v1 = {**obj, "apiVersion": f"{GROUP}/v1"}
        there_and_back = TO_V1[obj["kind"]](FROM_V1[obj["kind"]](as_v1))
        assert go_normal(there_and_back) == go_normal(as_v1), file


def test_the_module_names_every_field_v1beta1_moves() -> None:
    assert conversion.EXACT_REQUEST_FIELDS == (
        "deviceClassName",
        "selectors",
        "allocationMode",
        "count",
        "adminAccess",
        "tolerations",
        "capacity",
    )
    assert len(conversion.BASIC_DEVICE_FIELDS) == 12
