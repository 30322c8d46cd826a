"""The fast paths answer as the slow paths do (see references.py for the shared parts).

V1 ResourceSlice: the usual attribute, a device's checks, attributes and capacities, names remembered.
"""

from __future__ import annotations

import copy
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
)
from webhook import schema_nodes
from webhook.field import (
    ROOT,
    ErrorList,
    FieldPath,
    invalid,
)
from webhook.rules.equality import (
    semantic_equal,
)
from webhook.rules.kinds import GroupVersionKind
from webhook.rules.v1 import (
    declarative,
    resourceslice,
    slicedevices,
)
from webhook.rules.v1 import names as v1_names
from webhook.rules.v1 import shapes as v1_shapes
from webhook.rules.v1.declared import common as declared_common
from webhook.rules.v1.declared import slices as declared_slices
from webhook.rules.v1.devices import (
    too_many,
    truncate_if_too_long,
    validate_binding_parameters,
    validate_map,
    validate_set,
)
from webhook.rules.v1.devices import validate_slice as validate_v1_slice
from webhook.rules.v1.devicetaints import validate_device_taint
from webhook.rules.v1.gojson import DEVICE_COUNTER_CONSUMPTION, go_encoded
from webhook.rules.v1.remembered import ValidValues
from webhook.rules.values import mapping, optional_mapping, sequence, text

# --- v1 ResourceSlice: the usual attribute (bench/reviews.py's 128-device slice) -------------------------


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
            for member in declared_slices.ATTRIBUTE_MEMBERS
            if (sequence(members.get(member)) if member.endswith("s") else members.get(member) is not None)
        ]
        errs += declarative.beta(
            declarative.union(specified, declared_slices.ATTRIBUTE_MEMBERS, attributes_path.key(key))
        )
    consumptions = sequence(fields.get("consumesCounters"))
    if consumptions:
        consumptions_path = path.child("consumesCounters")
        over = declarative.beta(declarative.max_items(len(consumptions), 2, consumptions_path))
        errs += over or declarative.beta(
            declarative.unique(
                consumptions,
                lambda a, b: declared_slices._counter_set_of(a) == declared_slices._counter_set_of(b),
                consumptions_path,
                lambda item: go_encoded(item, DEVICE_COUNTER_CONSUMPTION),
            )
        )
        if not over:
            errs += declared_common.each(
                consumptions, None, consumptions_path, declared_slices._counter_consumption
            )
    errs += declared_common.each(
        list(sequence(fields.get("taints"))), None, path.child("taints"), declared_common.device_taint
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
        declared_slices._device(device, None, path),
        declared_slices._device(device, None, path, usual_attributes=usual),
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
        declared_slices.validate_resource_slice({"spec": spec}, None),
        declared_slices.validate_resource_slice(
            {"spec": spec}, None, usual_attributes=usual, plain_devices=plain
        ),
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


# `_usual_attributes` knows a member by identity once found ("string", "version", a number), and the
# names and version values of the last attributes it walked by position: a later attribute with the
# same member object, or at the same position with the same name object or an equal version, has
# only the rest looked at. Devices whose attributes share those objects, the later ones spoiled, are
# found usual exactly when each attribute is. (Equal string literals here are one object, as a JSON
# decoder's repeated keys are.)
_SHARED_MEMBERS = [
    [{"v": {"version": "1.0.0"}, "w": {"version": "x"}}],
    [{"v": {"version": "1.0.0"}, "w": {"version": "1.0.0" + "0" * 60}}],
    [{"s": {"string": "a"}, "t": {"string": "x" * 65}}],
    [{"s": {"string": "a"}, "t": {"string": "é" * 33}}],
    [{"s": {"string": "a"}, "t": {"string": "1.0.0"}, "v": {"version": "x"}}],
    [{"i": {"int": 1}, "j": {"int": None}}],
    [{"i": {"int": 1}, "b": {"bool": True}, "j": {"int": "text"}, "c": {"bool": "1.0.0"}}],
    [{"b": {"bool": False}, "s": {"string": None}, "v": {"version": 3}}],
    [{"v": {"version": "1.0.0"}}, {"v": {"version": "1.0.0"}}, {"v": {"version": "1.0.1"}}, {"v": {"version": "01.0.0"}}],
    [{"v": {"version": "1.0.0"}, "s": {"string": "a"}}, {"v": {"string": "1.0.0"}, "s": {"version": "a"}}],
    [{"a": {"int": 1}, "b": {"int": 2}}, {"a": {"int": 1}, "-b": {"int": 2}}],
    [{"a": {"int": 1}}, {"-b": {"int": 1}, "a": {"int": 1}}, {"a": {"int": 1}, "x" * 64: {"int": 1}}],
]  # fmt: skip


@pytest.mark.parametrize("attribute_maps", _SHARED_MEMBERS)
def test_attributes_sharing_their_members_are_each_looked_at(attribute_maps: list[dict[str, Any]]) -> None:
    devices = [{"name": f"d{i}", "attributes": attributes} for i, attributes in enumerate(attribute_maps)]
    usual, plain = slicedevices.device_flags(devices)
    assert usual == [
        all(
            not v1_names.validate_qualified_name(name, ROOT)
            and slicedevices._is_valid_scalar_attribute(attribute)
            for name, attribute in attributes.items()
        )
        for attributes in attribute_maps
    ]
    path = ROOT.child("spec", "devices")
    expected = reference_devices({"devices": devices}, None, path)
    assert resourceslice._validate_devices({"devices": devices}, None, path, usual, plain) == expected


# --- v1 names found valid, remembered (device, attribute and capacity names) ------------------------------


_REMEMBERED = {
    "VALID_QUALIFIED_NAMES": v1_names._validate_qualified_name,
    "VALID_DNS_LABELS": v1_names.validate_dns_label,
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
