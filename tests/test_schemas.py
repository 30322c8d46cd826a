"""The structural check (webhook/schemas.py) and the schemas it reads (schemas/).

Tables first: what a wrong type, an unknown field, a bad timestamp or quantity, a wrong apiVersion
look like. Then the schema files themselves (regenerated identically, valid Draft 2020-12), the
loader's refusals, a cross-check against kubernetes-validate's own validator, and a property test
that puts arbitrary JSON at every field position and compares with jsonschema on the same files.
"""

from __future__ import annotations

import collections
import contextlib
import copy
import functools
import importlib.util
import json
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped,unused-ignore]
import kubernetes_validate  # type: ignore[import-untyped,unused-ignore]
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webhook.field import ROOT, ErrorType, FieldPath
from webhook.gotime import is_rfc3339
from webhook.offline.inputs import read_documents
from webhook.offline.objects import ManifestObject, objects_of
from webhook.quantity import (
    QUANTITY_FORMAT_WRONG,
    QUANTITY_NUMERIC_WRONG,
    QUANTITY_SUFFIX_WRONG,
    quantity_error,
)
from webhook.rules.kinds import GroupVersionKind
from webhook.schema_nodes import MAX_UNKNOWN_FIELD_WARNINGS
from webhook.schemas import (
    SchemaError,
    StructuralChecker,
    StructuralReport,
    default_schema_directory,
)

REPO = Path(__file__).resolve().parent.parent
SCHEMAS = REPO / "schemas"
GROUP, VERSION = "resource.k8s.io", "v1alpha2"
API_VERSION = f"{GROUP}/{VERSION}"
KINDS = (
    "ResourceClass",
    "ResourceClaim",
    "ResourceClaimTemplate",
    "PodSchedulingContext",
    "ResourceSlice",
    "ResourceClaimParameters",
    "ResourceClassParameters",
)


# Every apiVersion with schemas, and its kinds (each with its list): the kinds the release it is
# judged as serves under it (schemas/generate.py's SCHEMA_SETS; v1alpha3's DeviceTaintRule and
# ResourcePoolStatusRequest come from 1.37, its other kinds from 1.31).
SERVED: dict[str, tuple[str, ...]] = {
    "v1alpha2": KINDS,
    "v1alpha3": (
        "DeviceClass",
        "ResourceClaim",
        "ResourceClaimTemplate",
        "ResourceSlice",
        "PodSchedulingContext",
        "DeviceTaintRule",
        "ResourcePoolStatusRequest",
    ),
    "v1beta1": ("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice"),
    "v1beta2": ("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice", "DeviceTaintRule"),
    "v1": ("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice", "DeviceTaintRule"),
}
SERVED_KINDS = [
    GroupVersionKind(GROUP, version, kind)
    for version, bases in SERVED.items()
    for base in bases
    for kind in (base, base + "List")
]


def gvk(kind: str) -> GroupVersionKind:
    return GroupVersionKind(GROUP, VERSION, kind)


@pytest.fixture(scope="module")
def checker() -> StructuralChecker:
    return StructuralChecker.load()


@pytest.fixture(scope="module")
def strict_checker() -> StructuralChecker:
    return StructuralChecker.load(report_missing_required=True)


# --- valid objects, one per kind, using as many fields as the kind has ---------------------------

METADATA: dict[str, Any] = {
    "name": "example",
    "namespace": "default",
    "uid": "7d5b2c55-0000-4000-8000-000000000001",
    "resourceVersion": "42",
    "generation": 2,
    "creationTimestamp": "2024-05-01T10:00:00Z",
    "deletionTimestamp": "2024-05-01T10:05:00.123456+02:00",
    "deletionGracePeriodSeconds": 30,
    "labels": {"app": "demo", "example.com/tier": ""},
    "annotations": {"example.com/note": "any text"},
    "finalizers": ["example.com/cleanup"],
    "ownerReferences": [
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "name": "owner",
            "uid": "7d5b2c55-0000-4000-8000-000000000002",
            "controller": True,
            "blockOwnerDeletion": False,
        }
    ],
    "managedFields": [
        {
            "manager": "kubectl",
            "operation": "Apply",
            "apiVersion": API_VERSION,
            "time": "2024-05-01T10:00:00Z",
            "fieldsType": "FieldsV1",
            "fieldsV1": {"f:spec": {"f:resourceClassName": {}}},
            "subresource": "",
        }
    ],
    "generateName": "example-",
    "selfLink": "",
}
NODE_SELECTOR: dict[str, Any] = {
    "nodeSelectorTerms": [
        {
            "matchExpressions": [{"key": "kubernetes.io/hostname", "operator": "In", "values": ["node-1"]}],
            "matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node-1"]}],
        }
    ]
}
CLAIM_SPEC: dict[str, Any] = {
    "resourceClassName": "gpu",
    "allocationMode": "WaitForFirstConsumer",
    "parametersRef": {"apiGroup": "gpu.example.com", "kind": "GpuClaimParameters", "name": "fast"},
}

VALID: dict[str, dict[str, Any]] = {
    "ResourceClass": {
        "apiVersion": API_VERSION,
        "kind": "ResourceClass",
        "metadata": {**METADATA, "namespace": ""},
        "driverName": "gpu.example.com",
        "parametersRef": {
            "apiGroup": "",
            "kind": "ConfigMap",
            "name": "gpu-config",
            "namespace": "kube-system",
        },
        "suitableNodes": NODE_SELECTOR,
        "structuredParameters": True,
    },
    "ResourceClaim": {
        "apiVersion": API_VERSION,
        "kind": "ResourceClaim",
        "metadata": METADATA,
        "spec": CLAIM_SPEC,
        "status": {
            "driverName": "gpu.example.com",
            "allocation": {
                "resourceHandles": [
                    {"driverName": "gpu.example.com", "data": "opaque"},
                    {
                        "driverName": "gpu.example.com",
                        "structuredData": {
                            "vendorClassParameters": {"mode": "fast"},
                            "vendorClaimParameters": {"any": ["json", 1]},
                            "nodeName": "node-1",
                            "results": [
                                {
                                    "vendorRequestParameters": {"text": "x"},
                                    "namedResources": {"name": "gpu-0"},
                                },
                            ],
                        },
                    },
                ],
                "availableOnNodes": NODE_SELECTOR,
                "shareable": True,
            },
            "reservedFor": [
                {
                    "apiGroup": "",
                    "resource": "pods",
                    "name": "pod-a",
                    "uid": "7d5b2c55-0000-4000-8000-0000000000a1",
                },
                {"resource": "pods", "name": "pod-b", "uid": "7d5b2c55-0000-4000-8000-0000000000b1"},
            ],
            "deallocationRequested": False,
        },
    },
    "ResourceClaimTemplate": {
        "apiVersion": API_VERSION,
        "kind": "ResourceClaimTemplate",
        "metadata": METADATA,
        "spec": {"metadata": {"labels": {"app": "demo"}, "annotations": {"a": "b"}}, "spec": CLAIM_SPEC},
    },
    "PodSchedulingContext": {
        "apiVersion": API_VERSION,
        "kind": "PodSchedulingContext",
        "metadata": METADATA,
        "spec": {"selectedNode": "node-1", "potentialNodes": ["node-1", "node-2"]},
        "status": {"resourceClaims": [{"name": "gpu", "unsuitableNodes": ["node-2"]}]},
    },
    "ResourceSlice": {
        "apiVersion": API_VERSION,
        "kind": "ResourceSlice",
        "metadata": {**METADATA, "namespace": ""},
        "nodeName": "node-1",
        "driverName": "gpu.example.com",
        "namedResources": {
            "instances": [
                {
                    "name": "gpu-0",
                    "attributes": [
                        {"name": "memory", "quantity": "16Gi"},
                        {"name": "cores", "quantity": 4096},
                        {"name": "fast", "bool": True},
                        {"name": "index", "int": -9223372036854775808},
                        {"name": "lanes", "intSlice": {"ints": [1, 2, 3]}},
                        {"name": "model", "string": "A100"},
                        {"name": "tags", "stringSlice": {"strings": ["a", "b"]}},
                        {"name": "driver", "version": "1.2.3-rc.1+build.5"},
                    ],
                }
            ]
        },
    },
    "ResourceClaimParameters": {
        "apiVersion": API_VERSION,
        "kind": "ResourceClaimParameters",
        "metadata": METADATA,
        "generatedFrom": {"apiGroup": "gpu.example.com", "kind": "GpuClaimParameters", "name": "fast"},
        "shareable": True,
        "driverRequests": [
            {
                "driverName": "gpu.example.com",
                "vendorParameters": {"any": {"nested": [1, 2]}},
                "requests": [
                    {"vendorParameters": {"n": 7}, "namedResources": {"selector": 'attributes.bool["fast"]'}},
                ],
            }
        ],
    },
    "ResourceClassParameters": {
        "apiVersion": API_VERSION,
        "kind": "ResourceClassParameters",
        "metadata": METADATA,
        "generatedFrom": {"apiGroup": "", "kind": "ConfigMap", "name": "gpu-config", "namespace": "default"},
        "vendorParameters": [{"driverName": "gpu.example.com", "parameters": {"mode": "fast"}}],
        "filters": [{"driverName": "gpu.example.com", "namedResources": {"selector": "true"}}],
    },
}


# --- valid objects of the newer apiVersions (1.31's v1alpha3; 1.37's v1alpha3 kinds, v1, v1beta2,
# v1beta1): every field a structural check looks at, not a combination the rules would accept
# (a slice with devices *and* shared counters, say).

CEL = [{"cel": {"expression": 'device.driver == "gpu.example.com"'}}]
OPAQUE = {"driver": "gpu.example.com", "parameters": {"apiVersion": "gpu.example.com/v1", "kind": "Config"}}
TOLERATIONS = [
    {"key": "example.com/unhealthy", "operator": "Equal", "value": "yes", "effect": "NoExecute"},
    {"operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": 300},
]
TAINT = {
    "key": "example.com/unhealthy",
    "value": "yes",
    "effect": "NoSchedule",
    "timeAdded": "2025-01-02T03:04:05Z",
}
CONDITIONS = [
    {
        "type": "Ready",
        "status": "True",
        "observedGeneration": 3,
        "lastTransitionTime": "2025-01-02T03:04:05Z",
        "reason": "Prepared",
        "message": "the device is ready",
    }
]

V1ALPHA3_CLAIM_SPEC: dict[str, Any] = {
    "controller": "gpu.example.com",
    "devices": {
        "requests": [
            {
                "name": "gpu",
                "deviceClassName": "gpu.example.com",
                "selectors": CEL,
                "allocationMode": "ExactCount",
                "count": 2,
                "adminAccess": False,
            }
        ],
        "constraints": [{"requests": ["gpu"], "matchAttribute": "gpu.example.com/numa"}],
        "config": [{"requests": ["gpu"], "opaque": OPAQUE}],
    },
}

VALID_V1ALPHA3: dict[str, dict[str, Any]] = {
    "DeviceClass": {
        "apiVersion": "resource.k8s.io/v1alpha3",
        "kind": "DeviceClass",
        "metadata": {**METADATA, "namespace": ""},
        "spec": {"selectors": CEL, "config": [{"opaque": OPAQUE}], "suitableNodes": NODE_SELECTOR},
    },
    "ResourceClaim": {
        "apiVersion": "resource.k8s.io/v1alpha3",
        "kind": "ResourceClaim",
        "metadata": METADATA,
        "spec": V1ALPHA3_CLAIM_SPEC,
        "status": {
            "allocation": {
                "devices": {
                    "results": [
                        {"request": "gpu", "driver": "gpu.example.com", "pool": "node-1", "device": "gpu-0"}
                    ],
                    "config": [{"source": "FromClaim", "requests": ["gpu"], "opaque": OPAQUE}],
                },
                "nodeSelector": NODE_SELECTOR,
                "controller": "gpu.example.com",
            },
            "reservedFor": [
                {"resource": "pods", "name": "pod-a", "uid": "7d5b2c55-0000-4000-8000-0000000000a1"}
            ],
            "deallocationRequested": False,
        },
    },
    "ResourceClaimTemplate": {
        "apiVersion": "resource.k8s.io/v1alpha3",
        "kind": "ResourceClaimTemplate",
        "metadata": METADATA,
        "spec": {"metadata": {"labels": {"app": "demo"}}, "spec": V1ALPHA3_CLAIM_SPEC},
    },
    "ResourceSlice": {
        "apiVersion": "resource.k8s.io/v1alpha3",
        "kind": "ResourceSlice",
        "metadata": {**METADATA, "namespace": ""},
        "spec": {
            "driver": "gpu.example.com",
            "pool": {"name": "node-1", "generation": 1, "resourceSliceCount": 1},
            "nodeName": "node-1",
            "devices": [
                {
                    "name": "gpu-0",
                    "basic": {
                        "attributes": {
                            "model": {"string": "A100"},
                            "index": {"int": 0},
                            "fast": {"bool": True},
                            "driverVersion": {"version": "1.2.3"},
                        },
                        "capacity": {"memory": "80Gi", "cores": 6912},
                    },
                }
            ],
        },
    },
    "PodSchedulingContext": {**VALID["PodSchedulingContext"], "apiVersion": "resource.k8s.io/v1alpha3"},
    # 1.37's v1alpha3 kinds.
    "DeviceTaintRule": {
        "apiVersion": "resource.k8s.io/v1alpha3",
        "kind": "DeviceTaintRule",
        "metadata": {**METADATA, "namespace": ""},
        "spec": {
            "deviceSelector": {"driver": "gpu.example.com", "pool": "node-1", "device": "gpu-0"},
            "taint": TAINT,
        },
        "status": {"conditions": CONDITIONS},
    },
    "ResourcePoolStatusRequest": {
        "apiVersion": "resource.k8s.io/v1alpha3",
        "kind": "ResourcePoolStatusRequest",
        "metadata": {**METADATA, "namespace": ""},
        "spec": {
            "driver": "gpu.example.com",
            "poolName": "node-1",
            "limit": 100,
            "defaultPartitionTypeAttribute": "gpu.example.com/profile",
        },
        "status": {
            "poolCount": 1,
            "conditions": CONDITIONS,
            "pools": [
                {
                    "driver": "gpu.example.com",
                    "poolName": "node-1",
                    "nodeName": "node-1",
                    "generation": 4,
                    "resourceSliceCount": 1,
                    "totalDevices": 8,
                    "allocatedDevices": 2,
                    "availableDevices": 5,
                    "unavailableDevices": 1,
                    "validationError": "",
                    "partitionSummary": [
                        {"attribute": "gpu.example.com/profile", "type": "Half", "total": 4, "allocatable": 3}
                    ],
                    "shareableSummary": {
                        "fullyAvailableDevices": 1,
                        "partiallyAvailableDevices": 2,
                        "capacity": [
                            {"name": "memory", "total": "80Gi", "consumed": "20Gi", "available": "60Gi"}
                        ],
                    },
                }
            ],
        },
    },
}

# 1.37: v1 and v1beta2 have one shape; v1beta1 has the request fields in the request (no
# `exactly`) and a slice's device fields under `basic`.
EXACT_REQUEST: dict[str, Any] = {
    "deviceClassName": "gpu.example.com",
    "selectors": CEL,
    "allocationMode": "ExactCount",
    "count": 1,
    "adminAccess": False,
    "tolerations": TOLERATIONS,
    "capacity": {"requests": {"memory": "10Gi", "cores": 64}},
}
SUBREQUESTS: list[dict[str, Any]] = [
    {"name": "big", "deviceClassName": "gpu.example.com", "selectors": CEL, "allocationMode": "All"},
    {"name": "small", "deviceClassName": "gpu.example.com", "count": 2, "tolerations": TOLERATIONS},
]
CLAIM_DEVICES_1_37: dict[str, Any] = {
    "constraints": [
        {"requests": ["gpu"], "matchAttribute": "gpu.example.com/numa"},
        {"requests": ["gpu", "either"], "distinctAttribute": "gpu.example.com/uuid"},
    ],
    "config": [{"requests": ["gpu"], "opaque": OPAQUE}],
}
CLAIM_STATUS_1_37: dict[str, Any] = {
    "allocation": {
        "devices": {
            "results": [
                {
                    "request": "gpu",
                    "driver": "gpu.example.com",
                    "pool": "node-1",
                    "device": "gpu-0",
                    "adminAccess": False,
                    "tolerations": TOLERATIONS,
                    "bindingConditions": ["example.com/attached"],
                    "bindingFailureConditions": ["example.com/failed"],
                    "shareID": "8f6c3c1e-5d0a-4c63-9f4a-2b1b0d9e7a11",
                    "consumedCapacity": {"memory": "10Gi"},
                },
                {"request": "either/small", "driver": "gpu.example.com", "pool": "node-1", "device": "gpu-1"},
            ],
            "config": [{"source": "FromClass", "requests": ["gpu"], "opaque": OPAQUE}],
        },
        "nodeSelector": NODE_SELECTOR,
        "allocationTimestamp": "2025-01-02T03:04:05Z",
    },
    "reservedFor": [{"resource": "pods", "name": "pod-a", "uid": "7d5b2c55-0000-4000-8000-0000000000a1"}],
    "devices": [
        {
            "driver": "gpu.example.com",
            "pool": "node-1",
            "device": "gpu-0",
            "shareID": "8f6c3c1e-5d0a-4c63-9f4a-2b1b0d9e7a11",
            "conditions": CONDITIONS,
            "data": {"any": ["json", 1]},
            "networkData": {
                "interfaceName": "eth1",
                "ips": ["10.0.0.7/24"],
                "hardwareAddress": "ea:9f:00:00:00:01",
            },
        }
    ],
}
DEVICE_1_37: dict[str, Any] = {
    "attributes": {
        "model": {"string": "A100"},
        "index": {"int": 0},
        "fast": {"bool": True},
        "driverVersion": {"version": "1.2.3"},
        "links": {"strings": ["nvlink-0", "nvlink-1"]},
        "numas": {"ints": [0, 1]},
    },
    "capacity": {
        "memory": {
            "value": "80Gi",
            "requestPolicy": {"default": "10Gi", "validRange": {"min": "1Gi", "max": "80Gi", "step": "1Gi"}},
        },
        "cores": {"value": 6912, "requestPolicy": {"validValues": [64, 128]}},
    },
    "consumesCounters": [{"counterSet": "gpu-0-counters", "counters": {"memory": {"value": "80Gi"}}}],
    "nodeName": "node-1",
    "taints": [TAINT],
    "bindsToNode": True,
    "bindingConditions": ["example.com/attached"],
    "bindingFailureConditions": ["example.com/failed"],
    "allowMultipleAllocations": True,
}
SLICE_SPEC_1_37: dict[str, Any] = {
    "driver": "gpu.example.com",
    "pool": {"name": "node-1", "generation": 1, "resourceSliceCount": 1},
    "perDeviceNodeSelection": True,
    "sharedCounters": [{"name": "gpu-0-counters", "counters": {"memory": {"value": "80Gi"}}}],
}


def examples_1_37(version: str) -> dict[str, dict[str, Any]]:
    """The valid objects of one of 1.37's apiVersions v1, v1beta2 (one shape) and v1beta1."""
    api_version = f"{GROUP}/{version}"
    if version == "v1beta1":
        requests: list[dict[str, Any]] = [
            {"name": "gpu", **EXACT_REQUEST},
            {"name": "either", "firstAvailable": SUBREQUESTS},
        ]
        devices = [{"name": "gpu-0", "basic": DEVICE_1_37}]
    else:
        requests = [
            {"name": "gpu", "exactly": EXACT_REQUEST},
            {"name": "either", "firstAvailable": SUBREQUESTS},
        ]
        devices = [{"name": "gpu-0", **DEVICE_1_37}]
    claim_spec = {"devices": {"requests": requests, **CLAIM_DEVICES_1_37}}
    found: dict[str, dict[str, Any]] = {
        "DeviceClass": {
            "apiVersion": api_version,
            "kind": "DeviceClass",
            "metadata": {**METADATA, "namespace": ""},
            "spec": {
                "selectors": CEL,
                "config": [{"opaque": OPAQUE}],
                "extendedResourceName": "example.com/gpu",
            },
        },
        "ResourceClaim": {
            "apiVersion": api_version,
            "kind": "ResourceClaim",
            "metadata": METADATA,
            "spec": claim_spec,
            "status": CLAIM_STATUS_1_37,
        },
        "ResourceClaimTemplate": {
            "apiVersion": api_version,
            "kind": "ResourceClaimTemplate",
            "metadata": METADATA,
            "spec": {"metadata": {"labels": {"app": "demo"}}, "spec": claim_spec},
        },
        "ResourceSlice": {
            "apiVersion": api_version,
            "kind": "ResourceSlice",
            "metadata": {**METADATA, "namespace": ""},
            "spec": {**SLICE_SPEC_1_37, "devices": devices},
        },
    }
    if version != "v1beta1":
        found["DeviceTaintRule"] = {**VALID_V1ALPHA3["DeviceTaintRule"], "apiVersion": api_version}
    return found


EXAMPLES: dict[str, dict[str, dict[str, Any]]] = {
    "v1alpha2": VALID,
    "v1alpha3": VALID_V1ALPHA3,
    **{version: examples_1_37(version) for version in ("v1beta1", "v1beta2", "v1")},
}
# The Kubernetes release whose definitions each apiVersion's kind comes from (schemas/generate.py).
RELEASES: dict[tuple[str, str], str] = {
    (version, kind): "1.30.0" if version == "v1alpha2" else "1.31.0" if version == "v1alpha3" else "1.37.0"
    for version, kinds in SERVED.items()
    for kind in kinds
} | {("v1alpha3", "DeviceTaintRule"): "1.37.0", ("v1alpha3", "ResourcePoolStatusRequest"): "1.37.0"}
NEWER_VERSIONS = [version for version in SERVED if version != VERSION]
NEWER_KINDS = [
    (version, kind)
    for version in NEWER_VERSIONS
    for base in SERVED[version]
    for kind in (base, base + "List")
]


# 1.31's v1alpha3 ResourceSliceList has its ListMeta under `listMeta`, not `metadata` (the json tag
# in kubernetes/api v0.31.0 resource/v1alpha3/types.go; fixed in v1beta1).
LIST_META_FIELDS = {("v1alpha3", "ResourceSliceList"): "listMeta"}


def valid(kind: str, version: str = VERSION) -> dict[str, Any]:
    """A fresh, valid object of a kind or of a list kind (a list holds the kind's example)."""
    if kind.endswith("List"):
        item = valid(kind[: -len("List")], version)
        return {
            "apiVersion": f"{GROUP}/{version}",
            "kind": kind,
            LIST_META_FIELDS.get((version, kind), "metadata"): {
                "resourceVersion": "7",
                "continue": "",
                "remainingItemCount": 0,
            },
            "items": [item],
        }
    return copy.deepcopy(EXAMPLES[version][kind])


def with_value(obj: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A copy of `obj` with `value` at `path` (str keys, int indexes), creating what is missing."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(head, int):
        items = list(obj) if isinstance(obj, list) else []
        while len(items) <= head:
            items.append({})
        items[head] = with_value(items[head], rest, value)
        return items
    mapping = dict(obj) if isinstance(obj, dict) else {}
    mapping[head] = with_value(mapping.get(head), rest, value)
    return mapping


def messages(report: StructuralReport) -> list[str]:
    return [str(error) for error in report.errors]


# --- which kinds ----------------------------------------------------------------------------------


def test_the_checker_knows_the_kinds_of_every_api_version_and_their_lists(checker: StructuralChecker) -> None:
    assert len(SERVED_KINDS) == 56
    assert set(checker.kinds) == set(SERVED_KINDS)
    assert all(checker.knows(kind) for kind in SERVED_KINDS)


@pytest.mark.parametrize(
    "other",
    [
        GroupVersionKind("resource.k8s.io", "v1alpha3", "ResourceClass"),  # a pre-release shape
        GroupVersionKind("resource.k8s.io", "v1beta1", "DeviceTaintRule"),  # 1.37 serves it in v1beta2+
        GroupVersionKind("resource.k8s.io", "v1", "PodSchedulingContext"),  # gone since 1.32
        GroupVersionKind("resource.k8s.io", "v1beta3", "ResourceClaim"),
        GroupVersionKind("", "v1", "Pod"),
        GroupVersionKind("resource.k8s.io", "v1alpha2", "DeviceClass"),
    ],
)
def test_a_kind_without_a_schema_is_unknown_and_cannot_be_checked(
    checker: StructuralChecker, other: GroupVersionKind
) -> None:
    assert not checker.knows(other)
    with pytest.raises(KeyError):
        checker.check(other, {})


@pytest.mark.parametrize("kind", [kind for base in KINDS for kind in (base, base + "List")])
def test_a_valid_object_has_no_errors_and_no_warnings(checker: StructuralChecker, kind: str) -> None:
    assert checker.check(gvk(kind), valid(kind)) == StructuralReport(errors=[], warnings=())


# --- wrong JSON types -----------------------------------------------------------------------------

WRONG_TYPES = [
    # kind, where, value, the one error
    (
        "ResourceClaim",
        ("status", "reservedFor"),
        "string",
        'status.reservedFor: Invalid value: "string": status.reservedFor in body must be of type array: "string"',
    ),
    (
        "ResourceClaim",
        ("spec",),
        [],
        'spec: Invalid value: "array": spec in body must be of type object: "array"',
    ),
    (
        "ResourceClaim",
        ("spec", "resourceClassName"),
        5,
        'spec.resourceClassName: Invalid value: "integer": spec.resourceClassName in body must be of type string: "integer"',
    ),
    (
        "ResourceClaim",
        ("status", "reservedFor", 1, "uid"),
        {"a": 1},
        'status.reservedFor[1].uid: Invalid value: "object": status.reservedFor[1].uid in body must be of type string: "object"',
    ),
    (
        "ResourceClaim",
        ("status", "allocation", "shareable"),
        "true",
        'status.allocation.shareable: Invalid value: "string": status.allocation.shareable in body must be of type boolean: "string"',
    ),
    (
        "ResourceClaim",
        ("status", "allocation", "resourceHandles", 1, "structuredData", "results", 0, "namedResources"),
        "gpu-0",
        'status.allocation.resourceHandles[1].structuredData.results[0].namedResources: Invalid value: "string": '
        'status.allocation.resourceHandles[1].structuredData.results[0].namedResources in body must be of type object: "string"',
    ),
    (
        "ResourceClaim",
        ("metadata",),
        "example",
        'metadata: Invalid value: "string": metadata in body must be of type object: "string"',
    ),
    (
        "ResourceClaim",
        ("metadata", "labels", "app"),
        True,
        'metadata.labels[app]: Invalid value: "boolean": metadata.labels[app] in body must be of type string: "boolean"',
    ),
    (
        "ResourceClaim",
        ("metadata", "generation"),
        2.0,  # Go does not decode 2.0 into an int64
        'metadata.generation: Invalid value: "number": metadata.generation in body must be of type integer: "number"',
    ),
    (
        "ResourceClaim",
        ("metadata", "deletionGracePeriodSeconds"),
        2**63,  # one past int64
        'metadata.deletionGracePeriodSeconds: Invalid value: "number": metadata.deletionGracePeriodSeconds in body must be of type integer: "number"',
    ),
    (
        "ResourceClaim",
        ("metadata", "ownerReferences", 0, "controller"),
        1,
        'metadata.ownerReferences[0].controller: Invalid value: "integer": metadata.ownerReferences[0].controller in body must be of type boolean: "integer"',
    ),
    (
        "ResourceClaim",
        ("metadata", "creationTimestamp"),
        1714557600,
        'metadata.creationTimestamp: Invalid value: "integer": metadata.creationTimestamp in body must be of type string: "integer"',
    ),
    (
        "ResourceClass",
        ("suitableNodes", "nodeSelectorTerms", 0, "matchExpressions", 0, "values"),
        "node-1",
        'suitableNodes.nodeSelectorTerms[0].matchExpressions[0].values: Invalid value: "string": '
        'suitableNodes.nodeSelectorTerms[0].matchExpressions[0].values in body must be of type array: "string"',
    ),
    (
        "ResourceClass",
        ("structuredParameters",),
        "yes",
        'structuredParameters: Invalid value: "string": structuredParameters in body must be of type boolean: "string"',
    ),
    (
        "ResourceClaimTemplate",
        ("spec", "spec", "allocationMode"),
        ["Immediate"],
        'spec.spec.allocationMode: Invalid value: "array": spec.spec.allocationMode in body must be of type string: "array"',
    ),
    (
        "PodSchedulingContext",
        ("spec", "potentialNodes", 1),
        7,
        'spec.potentialNodes[1]: Invalid value: "integer": spec.potentialNodes[1] in body must be of type string: "integer"',
    ),
    (
        "PodSchedulingContext",
        ("status", "resourceClaims", 0, "unsuitableNodes"),
        {"node-2": True},
        'status.resourceClaims[0].unsuitableNodes: Invalid value: "object": status.resourceClaims[0].unsuitableNodes in body must be of type array: "object"',
    ),
    (
        "ResourceSlice",
        ("namedResources", "instances", 0, "attributes", 4, "intSlice", "ints", 1),
        "2",
        'namedResources.instances[0].attributes[4].intSlice.ints[1]: Invalid value: "string": '
        'namedResources.instances[0].attributes[4].intSlice.ints[1] in body must be of type integer: "string"',
    ),
    (
        "ResourceSlice",
        ("namedResources", "instances", 0, "attributes", 0, "quantity"),
        False,
        'namedResources.instances[0].attributes[0].quantity: Invalid value: "boolean": '
        'namedResources.instances[0].attributes[0].quantity in body must be of type string,number: "boolean"',
    ),
    (
        "ResourceClaimParameters",
        ("driverRequests", 0, "requests"),
        {},
        'driverRequests[0].requests: Invalid value: "object": driverRequests[0].requests in body must be of type array: "object"',
    ),
    (
        "ResourceClassParameters",
        ("filters", 0, "namedResources", "selector"),
        True,
        'filters[0].namedResources.selector: Invalid value: "boolean": filters[0].namedResources.selector in body must be of type string: "boolean"',
    ),
    (
        "ResourceClaimList",
        ("items", 0, "spec", "parametersRef", "name"),
        3.5,
        'items[0].spec.parametersRef.name: Invalid value: "number": items[0].spec.parametersRef.name in body must be of type string: "number"',
    ),
    (
        "ResourceClassList",
        ("metadata", "remainingItemCount"),
        "1",
        'metadata.remainingItemCount: Invalid value: "string": metadata.remainingItemCount in body must be of type integer: "string"',
    ),
]


@pytest.mark.parametrize(("kind", "where", "value", "expected"), WRONG_TYPES)
def test_a_value_of_the_wrong_json_type_is_a_type_error_at_its_path(
    checker: StructuralChecker, kind: str, where: tuple[Any, ...], value: Any, expected: str
) -> None:
    report = checker.check(gvk(kind), with_value(valid(kind), where, value))
    assert messages(report) == [expected]
    [error] = report.errors
    assert error.type is ErrorType.TYPE_INVALID
    assert error.cause()["reason"] == "FieldValueTypeInvalid"
    assert report.warnings == ()


def test_every_wrong_type_is_reported_not_only_the_first(checker: StructuralChecker) -> None:
    claim = valid("ResourceClaim")
    claim["spec"]["resourceClassName"] = 1
    claim["status"]["reservedFor"][0]["name"] = 2
    claim["status"]["reservedFor"][1]["uid"] = 3
    report = checker.check(gvk("ResourceClaim"), claim)
    assert [error.field for error in report.errors] == [
        "spec.resourceClassName",
        "status.reservedFor[0].name",
        "status.reservedFor[1].uid",
    ]


@pytest.mark.parametrize("obj", [None, [], "ResourceClaim", 3, True])
def test_an_object_that_is_not_a_json_object_is_one_error_at_the_root(
    checker: StructuralChecker, obj: Any
) -> None:
    report = checker.check(gvk("ResourceClaim"), obj)
    [error] = report.errors
    assert error.type is ErrorType.TYPE_INVALID
    assert error.field == str(ROOT) == "<nil>"
    assert error.detail.startswith("body must be of type object: ")


# --- null, raw JSON --------------------------------------------------------------------------------


def positions_in(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a value inside a decoded JSON document."""
    if isinstance(value, dict):
        for key, child in value.items():
            yield (*prefix, key)
            yield from positions_in(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield (*prefix, index)
            yield from positions_in(child, (*prefix, index))


@pytest.mark.parametrize("kind", KINDS)
def test_null_is_accepted_at_every_position_as_go_reads_it_as_absent(
    checker: StructuralChecker, kind: str
) -> None:
    example = valid(kind)
    positions = list(positions_in(example))
    assert len(positions) > 20
    for position in positions:
        report = checker.check(gvk(kind), with_value(example, position, None))
        assert report == StructuralReport(errors=[], warnings=()), position


@pytest.mark.parametrize(
    "raw",
    ["a string", 42, -1.5, True, ["a", {"b": None}], {"Any": {"Keys": ["at", "any", "depth"]}}, {}],
)
@pytest.mark.parametrize(
    ("kind", "where"),
    [
        ("ResourceClassParameters", ("vendorParameters", 0, "parameters")),
        ("ResourceClaimParameters", ("driverRequests", 0, "vendorParameters")),
        ("ResourceClaimParameters", ("driverRequests", 0, "requests", 0, "vendorParameters")),
        (
            "ResourceClaim",
            ("status", "allocation", "resourceHandles", 1, "structuredData", "vendorClassParameters"),
        ),
        ("ResourceClaim", ("metadata", "managedFields", 0, "fieldsV1")),
    ],
)
def test_raw_extension_and_fields_v1_accept_any_json_without_unknown_fields(
    checker: StructuralChecker, kind: str, where: tuple[Any, ...], raw: Any
) -> None:
    # runtime.RawExtension and metav1.FieldsV1 keep their raw bytes, whatever they are.
    report = checker.check(gvk(kind), with_value(valid(kind), where, raw))
    assert report == StructuralReport(errors=[], warnings=())


# --- unknown fields -----------------------------------------------------------------------------

UNKNOWN_FIELDS = [
    ("ResourceClaim", ("foo",), 'unknown field "foo"'),
    ("ResourceClaim", ("spec", "foo"), 'unknown field "spec.foo"'),
    ("ResourceClaim", ("Spec",), 'unknown field "Spec"'),  # sigs.k8s.io/json is case-sensitive
    ("ResourceClaim", ("spec", "resourceclassname"), 'unknown field "spec.resourceclassname"'),
    ("ResourceClaim", ("status", "reservedFor", 1, "extra"), 'unknown field "status.reservedFor[1].extra"'),
    ("ResourceClaim", ("metadata", "clusterName"), 'unknown field "metadata.clusterName"'),  # gone since 1.25
    (
        "ResourceClaim",
        ("status", "allocation", "resourceHandles", 0, "resourceHandle"),
        'unknown field "status.allocation.resourceHandles[0].resourceHandle"',
    ),
    ("ResourceClaimTemplate", ("spec", "spec", "devices"), 'unknown field "spec.spec.devices"'),
    ("ResourceSlice", ("spec",), 'unknown field "spec"'),
    (
        "ResourceSlice",
        ("namedResources", "instances", 0, "attributes", 2, "float"),
        'unknown field "namedResources.instances[0].attributes[2].float"',
    ),
    ("PodSchedulingContext", ("status", "claims"), 'unknown field "status.claims"'),
    ("ResourceClaimList", ("items", 0, "spec", "x"), 'unknown field "items[0].spec.x"'),
    (
        "ResourceClass",
        ("suitableNodes", "nodeSelectorTerms", 0, "matchLabels"),
        'unknown field "suitableNodes.nodeSelectorTerms[0].matchLabels"',
    ),
    ("ResourceClass", ("weird\nkey",), 'unknown field "weird\\nkey"'),  # %q quoting
]


@pytest.mark.parametrize(("kind", "where", "warning"), UNKNOWN_FIELDS)
def test_an_unknown_field_is_a_warning_worded_as_strict_decoding_words_it(
    checker: StructuralChecker, kind: str, where: tuple[Any, ...], warning: str
) -> None:
    report = checker.check(gvk(kind), with_value(valid(kind), where, {"any": "value"}))
    assert report.errors == []
    assert report.warnings == (warning,)


def test_map_keys_are_not_fields(checker: StructuralChecker) -> None:
    claim = valid("ResourceClaim")
    claim["metadata"]["labels"] = {"anything": "x", "Spec": "y"}
    claim["metadata"]["annotations"] = {"foo": "bar"}
    assert checker.check(gvk("ResourceClaim"), claim) == StructuralReport(errors=[], warnings=())


def test_unknown_fields_are_warned_in_document_order_and_not_looked_into(checker: StructuralChecker) -> None:
    claim = {"zeta": {"inner": 1}, **valid("ResourceClaim"), "alpha": 1}
    claim["spec"] = {"b": 1, **claim["spec"], "a": 2}
    report = checker.check(gvk("ResourceClaim"), claim)
    assert report.warnings == (
        'unknown field "zeta"',
        'unknown field "spec.b"',
        'unknown field "spec.a"',
        'unknown field "alpha"',
    )


def test_at_most_one_hundred_unknown_fields_are_warned(checker: StructuralChecker) -> None:
    # sigs.k8s.io/json saveStrictError keeps at most 100 strict errors.
    claim = valid("ResourceClaim")
    claim["spec"].update({f"extra{i:03d}": i for i in range(150)})
    report = checker.check(gvk("ResourceClaim"), claim)
    assert len(report.warnings) == MAX_UNKNOWN_FIELD_WARNINGS == 100
    assert report.warnings[0] == 'unknown field "spec.extra000"'
    assert report.warnings[-1] == 'unknown field "spec.extra099"'


def test_unknown_fields_and_type_errors_are_reported_together(checker: StructuralChecker) -> None:
    claim = valid("ResourceClaim")
    claim["spec"]["extra"] = 1
    claim["spec"]["allocationMode"] = 1
    report = checker.check(gvk("ResourceClaim"), claim)
    assert [error.field for error in report.errors] == ["spec.allocationMode"]
    assert report.warnings == ('unknown field "spec.extra"',)


# --- apiVersion and kind ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "field", "value", "expected"),
    [
        (
            "ResourceClaim",
            "apiVersion",
            "resource.k8s.io/v1alpha3",
            'apiVersion: Unsupported value: "resource.k8s.io/v1alpha3": supported values: "resource.k8s.io/v1alpha2"',
        ),
        (
            "ResourceClaim",
            "apiVersion",
            "v1",
            'apiVersion: Unsupported value: "v1": supported values: "resource.k8s.io/v1alpha2"',
        ),
        (
            "ResourceClaim",
            "kind",
            "ResourceClass",
            'kind: Unsupported value: "ResourceClass": supported values: "ResourceClaim"',
        ),
        (
            "ResourceClaim",
            "kind",
            "resourceclaim",
            'kind: Unsupported value: "resourceclaim": supported values: "ResourceClaim"',
        ),
        (
            "ResourceSliceList",
            "kind",
            "ResourceSlice",
            'kind: Unsupported value: "ResourceSlice": supported values: "ResourceSliceList"',
        ),
        (
            "ResourceClaim",
            "kind",
            7,
            'kind: Invalid value: "integer": kind in body must be of type string: "integer"',
        ),
    ],
)
def test_an_api_version_or_kind_other_than_the_schemas_is_not_supported(
    checker: StructuralChecker, kind: str, field: str, value: Any, expected: str
) -> None:
    assert messages(checker.check(gvk(kind), {**valid(kind), field: value})) == [expected]


@pytest.mark.parametrize("missing", [None, "absent"])
def test_an_absent_or_null_api_version_and_kind_are_taken_from_the_request(
    checker: StructuralChecker, missing: str | None
) -> None:
    claim = valid("ResourceClaim")
    if missing == "absent":
        del claim["apiVersion"], claim["kind"]
    else:
        claim["apiVersion"] = claim["kind"] = None
    assert checker.check(gvk("ResourceClaim"), claim) == StructuralReport(errors=[], warnings=())


def test_the_items_of_a_list_are_not_checked_for_their_kind(checker: StructuralChecker) -> None:
    # A typed Go decoder does not look at the TypeMeta of list items.
    claims = valid("ResourceClaimList")
    claims["items"][0]["kind"] = "Something"
    assert checker.check(gvk("ResourceClaimList"), claims).errors == []


# --- timestamps and quantities ----------------------------------------------------------------------


def test_a_timestamp_go_cannot_parse_is_a_date_time_type_error(checker: StructuralChecker) -> None:
    claim = with_value(valid("ResourceClaim"), ("metadata", "managedFields", 0, "time"), "2024-05-01")
    assert messages(checker.check(gvk("ResourceClaim"), claim)) == [
        'metadata.managedFields[0].time: Invalid value: "2024-05-01": '
        'metadata.managedFields[0].time in body must be of type date-time: "2024-05-01"'
    ]


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("1", None),
        ("0", None),
        ("16Gi", None),
        ("100m", None),
        ("1.5", None),
        ("-2k", None),
        ("+3M", None),
        ("1e3", None),
        ("1E-3", None),
        ("5n", None),
        (" 7 ", None),  # UnmarshalJSON trims spaces
        ("1.", None),  # "we currently allow 1.G" (quantity.go)
        (".5", None),
        ("-", None),  # parses as zero
        ("-Ki", None),
        ("123456789012345678901234567890", None),
        ("", QUANTITY_FORMAT_WRONG),
        ("abc", QUANTITY_FORMAT_WRONG),
        ("1Gb", QUANTITY_FORMAT_WRONG),
        ("1.5.5", QUANTITY_FORMAT_WRONG),
        ("1 Gi", QUANTITY_FORMAT_WRONG),
        ("1e", QUANTITY_SUFFIX_WRONG),
        ("1Mm", QUANTITY_SUFFIX_WRONG),
        ("1ki", QUANTITY_SUFFIX_WRONG),
        ("1e+", QUANTITY_SUFFIX_WRONG),
        ("1e99999999999999999999", QUANTITY_SUFFIX_WRONG),
        (".e-10", QUANTITY_NUMERIC_WRONG),  # no digit, and too small for the int64 fast path
    ],
)
def test_quantities_parse_as_go_parse_quantity(text: str, error: str | None) -> None:
    assert quantity_error(text) == error


def test_a_quantity_go_cannot_parse_is_invalid_with_gos_message(checker: StructuralChecker) -> None:
    where = ("namedResources", "instances", 0, "attributes", 0, "quantity")
    report = checker.check(gvk("ResourceSlice"), with_value(valid("ResourceSlice"), where, "16 gigs"))
    assert messages(report) == [
        'namedResources.instances[0].attributes[0].quantity: Invalid value: "16 gigs": '
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
    ]
    assert report.errors[0].type is ErrorType.INVALID


def _int32_generation(document: dict[str, Any]) -> None:
    meta = document["$defs"]["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]
    meta["properties"]["generation"]["format"] = "int32"


@pytest.mark.parametrize(
    ("generation", "expected"),
    [
        (0, []),
        (2**31 - 1, []),
        (-(2**31), []),
        (None, []),
        (
            2**31,
            [
                "metadata.generation: Invalid value: 2147483648: metadata.generation in body must be of type int32"
            ],
        ),
        (
            -(2**31) - 1,
            [
                "metadata.generation: Invalid value: -2147483649: metadata.generation in body must be of type int32"
            ],
        ),
        (
            2**63,
            [
                'metadata.generation: Invalid value: "number": metadata.generation in body must be of type integer: "number"'
            ],
        ),
        (
            "1",
            [
                'metadata.generation: Invalid value: "string": metadata.generation in body must be of type integer: "string"'
            ],
        ),
    ],
)
def test_an_int32_field_takes_only_the_integers_an_int32_holds(
    tmp_path: Path, generation: Any, expected: list[str]
) -> None:
    # json.Unmarshal into an int32 fails for an integer out of its range, as for a wrong type.
    directory = copy_of_schemas(tmp_path)
    edit_schema(directory, "resourceclaim.json", _int32_generation)
    checker = StructuralChecker.load(directory)
    claim = with_value(valid("ResourceClaim"), ("metadata", "generation"), generation)
    report = checker.check(gvk("ResourceClaim"), claim)
    assert messages(report) == expected
    assert all(error.type is ErrorType.TYPE_INVALID for error in report.errors)


# --- required fields ---------------------------------------------------------------------------------


def test_missing_required_fields_are_left_to_the_rules_by_default(checker: StructuralChecker) -> None:
    # ValidateClass reports a missing driverName as Required *and* Invalid; a structural Required
    # error would deny first and hide the second.
    resource_class = {"apiVersion": API_VERSION, "kind": "ResourceClass", "metadata": {"name": "gpu"}}
    assert checker.check(gvk("ResourceClass"), resource_class) == StructuralReport(errors=[], warnings=())


@pytest.mark.parametrize(
    ("kind", "obj", "expected"),
    [
        ("ResourceClass", {"metadata": {"name": "gpu"}}, ["driverName: Required value"]),
        ("ResourceClass", {"driverName": None}, ["driverName: Required value"]),
        ("ResourceClaim", {}, ["spec: Required value"]),
        ("ResourceClaim", {"spec": {}}, ["spec.resourceClassName: Required value"]),
        (
            "ResourceClaim",
            {"spec": {"resourceClassName": "gpu"}, "status": {"reservedFor": [{"resource": "pods"}]}},
            ["status.reservedFor[0].name: Required value", "status.reservedFor[0].uid: Required value"],
        ),
        (
            "ResourceSlice",
            {"driverName": "d", "namedResources": {}},
            ["namedResources.instances: Required value"],
        ),
        ("ResourceClassList", {}, ["items: Required value"]),
    ],
)
def test_missing_required_fields_are_required_errors_when_asked_for(
    strict_checker: StructuralChecker, kind: str, obj: dict[str, Any], expected: list[str]
) -> None:
    report = strict_checker.check(gvk(kind), obj)
    assert messages(report) == expected
    assert all(error.type is ErrorType.REQUIRED for error in report.errors)


@pytest.mark.parametrize("kind", [kind for base in KINDS for kind in (base, base + "List")])
def test_the_valid_examples_have_every_required_field(strict_checker: StructuralChecker, kind: str) -> None:
    assert strict_checker.check(gvk(kind), valid(kind)).errors == []


# --- the schema files --------------------------------------------------------------------------------


def schema_files() -> list[Path]:
    return sorted(SCHEMAS.glob("*/*/*.json"))


def relative(path: Path) -> str:
    return path.relative_to(SCHEMAS).as_posix()


def test_there_is_one_schema_file_per_kind() -> None:
    assert {relative(path) for path in schema_files()} == {
        f"{kind.group}/{kind.version}/{kind.kind.lower()}.json" for kind in SERVED_KINDS
    }


@pytest.mark.parametrize("path", schema_files(), ids=relative)
def test_every_schema_file_is_a_valid_draft_2020_12_schema(path: Path) -> None:
    jsonschema.Draft202012Validator.check_schema(json.loads(path.read_text(encoding="utf-8")))


@functools.cache
def generator() -> Any:
    """schemas/generate.py as a module (registered first: its dataclass looks itself up there)."""
    spec = importlib.util.spec_from_file_location("schemas_generate", SCHEMAS / "generate.py")
    assert spec is not None and spec.loader is not None
    generate = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = generate
    spec.loader.exec_module(generate)
    return generate


def test_the_schema_files_are_exactly_what_the_generator_makes_from_each_release() -> None:
    assert generator().main(["--check"]) == 0


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (lambda directory: (directory / GROUP / "v1" / "resourceclaim.json").write_text("{}"), "out of date"),
        (lambda directory: (directory / GROUP / "v1alpha3" / "devicetaintrule.json").unlink(), "out of date"),
        (
            lambda directory: shutil.copy(
                directory / GROUP / "v1beta2" / "devicetaintrule.json",
                directory / GROUP / "v1beta1" / "devicetaintrule.json",
            ),
            "not made by this script",
        ),
    ],
    ids=["changed", "missing", "stray"],
)
def test_the_generator_check_finds_a_changed_missing_or_stray_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Callable[[Path], Any], complaint: str
) -> None:
    directory = copy_of_schemas(tmp_path)
    assert generator().main(["--check", "--output", str(directory)]) == 0
    change(directory)
    assert generator().main(["--check", "--output", str(directory)]) == 1
    assert complaint in capsys.readouterr().err


def test_the_generator_takes_each_kind_from_the_release_its_api_version_is_judged_as() -> None:
    releases = {
        (schema_set.version, kind): schema_set.kubernetes_version
        for schema_set in generator().SCHEMA_SETS
        for kind in schema_set.kinds
    }
    assert releases == {
        **{("v1alpha2", kind): "1.30.0" for kind in SERVED["v1alpha2"]},
        **{("v1alpha3", kind): "1.31.0" for kind in SERVED["v1alpha3"][:5]},
        ("v1alpha3", "DeviceTaintRule"): "1.37.0",  # 1.31 has no DeviceTaintRule
        ("v1alpha3", "ResourcePoolStatusRequest"): "1.37.0",
        **{(version, kind): "1.37.0" for version in ("v1beta1", "v1beta2", "v1") for kind in SERVED[version]},
    }
    for path in schema_files():
        document = json.loads(path.read_text(encoding="utf-8"))
        [entry] = document["x-kubernetes-group-version-kind"]
        release = releases[entry["version"], entry["kind"].removesuffix("List")]
        assert f"from the Kubernetes {release} OpenAPI" in document["$comment"], path


def test_the_schemas_keep_the_openapi_list_semantics_and_required_fields() -> None:
    claim = json.loads((SCHEMAS / GROUP / VERSION / "resourceclaim.json").read_text(encoding="utf-8"))
    status = claim["$defs"]["io.k8s.api.resource.v1alpha2.ResourceClaimStatus"]["properties"]
    assert status["reservedFor"]["x-kubernetes-list-type"] == "map"
    assert status["reservedFor"]["x-kubernetes-list-map-keys"] == ["uid"]
    consumer = claim["$defs"]["io.k8s.api.resource.v1alpha2.ResourceClaimConsumerReference"]
    assert consumer["required"] == ["resource", "name", "uid"]
    assert claim["required"] == ["spec"]
    meta = claim["$defs"]["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]["properties"]
    assert meta["finalizers"]["x-kubernetes-list-type"] == "set"
    assert meta["ownerReferences"]["x-kubernetes-list-map-keys"] == ["uid"]
    assert claim["x-kubernetes-group-version-kind"] == [
        {"group": GROUP, "kind": "ResourceClaim", "version": VERSION}
    ]


def test_the_default_directory_holds_the_repository_schemas() -> None:
    directory = default_schema_directory()
    assert sorted(p.relative_to(directory).as_posix() for p in directory.glob("*/*/*.json")) == [
        relative(path) for path in schema_files()
    ]
    assert directory.resolve() == SCHEMAS.resolve()


# --- the loader refuses what it does not implement ---------------------------------------------------


def copy_of_schemas(tmp_path: Path) -> Path:
    target = tmp_path / "schemas"
    shutil.copytree(SCHEMAS / GROUP, target / GROUP)
    return target


def edit_schema(directory: Path, name: str, change: Callable[[dict[str, Any]], None]) -> None:
    path = directory / GROUP / VERSION / name
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document), encoding="utf-8")


def test_a_copy_of_the_schemas_loads_from_any_directory(tmp_path: Path) -> None:
    assert len(StructuralChecker.load(copy_of_schemas(tmp_path)).kinds) == 56


def _add_pattern(document: dict[str, Any]) -> None:
    document["$defs"]["io.k8s.api.resource.v1alpha2.ResourceClaimSpec"]["properties"]["allocationMode"][
        "pattern"
    ] = "x"


def _dangle(document: dict[str, Any]) -> None:
    document["properties"]["spec"]["$ref"] = "#/$defs/io.k8s.api.resource.v1alpha2.Nothing"


def _unknown_format(document: dict[str, Any]) -> None:
    document["$defs"]["io.k8s.apimachinery.pkg.apis.meta.v1.Time"]["format"] = "date"


def _no_gvk(document: dict[str, Any]) -> None:
    del document["x-kubernetes-group-version-kind"]


def _no_kind_enum(document: dict[str, Any]) -> None:
    del document["properties"]["kind"]["enum"]


def _bad_type(document: dict[str, Any]) -> None:
    document["properties"]["status"] = {"type": "struct"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_add_pattern, "unsupported keyword 'pattern'"),
        (_dangle, "unresolvable reference"),
        (_unknown_format, "unsupported format 'date'"),
        (_no_gvk, "exactly one x-kubernetes-group-version-kind"),
        (_no_kind_enum, "properties.kind.enum must list 'ResourceClaim'"),
        (_bad_type, "bad type 'struct'"),
    ],
)
def test_the_loader_refuses_a_schema_it_cannot_check_faithfully(
    tmp_path: Path, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    directory = copy_of_schemas(tmp_path)
    edit_schema(directory, "resourceclaim.json", change)
    with pytest.raises(SchemaError, match=message) as raised:
        StructuralChecker.load(directory)
    assert "resourceclaim.json" in str(raised.value)


def test_the_loader_refuses_two_schemas_for_one_kind(tmp_path: Path) -> None:
    directory = copy_of_schemas(tmp_path)
    shutil.copy(
        directory / GROUP / VERSION / "resourceclaim.json", directory / GROUP / VERSION / "claim-copy.json"
    )
    with pytest.raises(
        SchemaError, match=re.escape("a second schema for resource.k8s.io/v1alpha2, Kind=ResourceClaim")
    ):
        StructuralChecker.load(directory)


def test_the_loader_refuses_a_file_that_is_not_json(tmp_path: Path) -> None:
    directory = copy_of_schemas(tmp_path)
    (directory / GROUP / VERSION / "resourceclass.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(SchemaError, match=re.escape("resourceclass.json: cannot read")):
        StructuralChecker.load(directory)


def test_the_loader_refuses_an_empty_or_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(SchemaError, match="no schema files"):
        StructuralChecker.load(tmp_path)
    with pytest.raises(SchemaError, match="not a directory"):
        StructuralChecker.load(tmp_path / "nowhere")


# --- cross-check with kubernetes-validate ------------------------------------------------------------


def kubernetes_validate_rejects(obj: dict[str, Any], release: str = "1.30.0") -> bool:
    try:
        kubernetes_validate.validate(obj, release, strict=True)
    except kubernetes_validate.ValidationError:
        return True
    return False


def flags(checker: StructuralChecker, kind: str, obj: dict[str, Any], version: str = VERSION) -> bool:
    report = checker.check(GroupVersionKind(GROUP, version, kind), obj)
    return bool(report.errors or report.warnings)


AGREED = [
    # name, kind, where, value: both kubernetes-validate (strict) and the checker flag it
    ("reservedFor is a string", "ResourceClaim", ("status", "reservedFor"), "pods"),
    ("spec is a list", "ResourceClaim", ("spec",), []),
    ("driverName is a number", "ResourceClass", ("driverName",), 5),
    ("a label value is a bool", "ResourceClaim", ("metadata", "labels", "app"), True),
    ("generation is a string", "ResourceClaimTemplate", ("metadata", "generation"), "2"),
    ("potentialNodes holds a number", "PodSchedulingContext", ("spec", "potentialNodes", 0), 1),
    (
        "an attribute int is a string",
        "ResourceSlice",
        ("namedResources", "instances", 0, "attributes", 3, "int"),
        "1",
    ),
    (
        "a quantity is a bool",
        "ResourceSlice",
        ("namedResources", "instances", 0, "attributes", 0, "quantity"),
        True,
    ),
    ("requests is an object", "ResourceClaimParameters", ("driverRequests", 0, "requests"), {}),
    ("a selector is a number", "ResourceClassParameters", ("filters", 0, "namedResources", "selector"), 1),
    ("an unknown top-level field", "ResourceClaim", ("foo",), 1),
    ("an unknown nested field", "ResourceClaim", ("status", "allocation", "foo"), 1),
    ("an unknown field in a list item", "PodSchedulingContext", ("status", "resourceClaims", 0, "x"), 1),
    ("an unknown field in list metadata", "ResourceClassList", ("metadata", "foo"), 1),
    ("a required field is missing", "ResourceClass", ("driverName",), "<delete>"),
    ("a required list is missing", "ResourceSlice", ("namedResources", "instances"), "<delete>"),
    (
        "an attribute name is missing",
        "ResourceSlice",
        ("namedResources", "instances", 0, "attributes", 0, "name"),
        "<delete>",
    ),
]


def without(obj: Any, path: tuple[Any, ...]) -> Any:
    obj = copy.deepcopy(obj)
    parent = obj
    for segment in path[:-1]:
        parent = parent[segment]
    del parent[path[-1]]
    return obj


def mutated(kind: str, where: tuple[Any, ...], value: Any, version: str = VERSION) -> dict[str, Any]:
    example = valid(kind, version)
    result: dict[str, Any] = (
        without(example, where) if value == "<delete>" else with_value(example, where, value)
    )
    return result


@pytest.mark.parametrize("kind", [kind for base in KINDS for kind in (base, base + "List")])
def test_kubernetes_validate_accepts_the_valid_examples_too(kind: str) -> None:
    assert not kubernetes_validate_rejects(valid(kind))


@pytest.mark.parametrize(("name", "kind", "where", "value"), AGREED, ids=[case[0] for case in AGREED])
def test_kubernetes_validate_and_the_checker_agree(
    strict_checker: StructuralChecker, name: str, kind: str, where: tuple[Any, ...], value: Any
) -> None:
    obj = mutated(kind, where, value)
    assert kubernetes_validate_rejects(obj)
    assert flags(strict_checker, kind, obj)


# Where Go's decoder (and so the checker) disagrees with a plain JSON Schema reading of the OpenAPI.
DIVERGENT = [
    # name, kind, where, value, kubernetes-validate rejects, the checker flags
    (
        "RawExtension holding a string",
        "ResourceClassParameters",
        ("vendorParameters", 0, "parameters"),
        "x",
        True,
        False,
    ),
    (
        "FieldsV1 holding a list",
        "ResourceClaim",
        ("metadata", "managedFields", 0, "fieldsV1"),
        [1],
        True,
        False,
    ),
    (
        "a required string that is null",
        "ResourceSlice",
        ("namedResources", "instances", 0, "name"),
        None,
        True,
        True,
    ),
    ("an integer written as 2.0", "ResourceClaim", ("metadata", "generation"), 2.0, False, True),
    ("an unparsable timestamp", "ResourceClaim", ("metadata", "creationTimestamp"), "soon", False, True),
    (
        "an unparsable quantity",
        "ResourceSlice",
        ("namedResources", "instances", 0, "attributes", 0, "quantity"),
        "lots",
        False,
        True,
    ),
    ("a list item of another kind", "ResourceClassList", ("items", 0, "kind"), "Pod", True, False),
]


@pytest.mark.parametrize(
    ("name", "kind", "where", "value", "kv_rejects", "flagged"),
    DIVERGENT,
    ids=[case[0] for case in DIVERGENT],
)
def test_the_documented_differences_from_kubernetes_validate(
    checker: StructuralChecker,
    strict_checker: StructuralChecker,
    name: str,
    kind: str,
    where: tuple[Any, ...],
    value: Any,
    kv_rejects: bool,
    flagged: bool,
) -> None:
    obj = mutated(kind, where, value)
    assert kubernetes_validate_rejects(obj) is kv_rejects
    # A null required field is "missing" only to the checker that reports missing required fields.
    assert flags(strict_checker, kind, obj) is flagged
    if value is None:
        assert not flags(checker, kind, obj)


# --- the newer apiVersions: v1alpha3 (1.31, and 1.37's kinds), v1, v1beta2, v1beta1 (1.37) -----------


def newer_gvk(version: str, kind: str) -> GroupVersionKind:
    return GroupVersionKind(GROUP, version, kind)


def release_of(version: str, kind: str) -> str:
    return RELEASES[version, kind.removesuffix("List")]


@pytest.mark.parametrize(("version", "kind"), NEWER_KINDS)
def test_a_valid_object_of_a_newer_api_version_has_no_errors_and_no_warnings(
    checker: StructuralChecker, strict_checker: StructuralChecker, version: str, kind: str
) -> None:
    obj = valid(kind, version)
    assert checker.check(newer_gvk(version, kind), obj) == StructuralReport(errors=[], warnings=())
    assert strict_checker.check(newer_gvk(version, kind), obj).errors == []


@pytest.mark.parametrize(("version", "kind"), NEWER_KINDS)
def test_kubernetes_validate_accepts_the_newer_valid_examples_too(version: str, kind: str) -> None:
    assert not kubernetes_validate_rejects(valid(kind, version), release_of(version, kind))


NEWER_WRONG_TYPES = [
    # version, kind, where, value, the one error
    (
        "v1alpha3",
        "ResourceClaim",
        ("spec", "devices", "requests", 0, "count"),
        "2",
        'spec.devices.requests[0].count: Invalid value: "string": '
        'spec.devices.requests[0].count in body must be of type integer: "string"',
    ),
    (
        "v1alpha3",
        "ResourceClaim",
        ("status", "deallocationRequested"),
        "true",
        'status.deallocationRequested: Invalid value: "string": '
        'status.deallocationRequested in body must be of type boolean: "string"',
    ),
    (
        "v1alpha3",
        "DeviceClass",
        ("spec", "suitableNodes"),
        [],
        'spec.suitableNodes: Invalid value: "array": spec.suitableNodes in body must be of type object: "array"',
    ),
    (
        "v1alpha3",
        "ResourceSlice",
        ("spec", "devices", 0, "basic", "capacity", "memory"),
        True,
        'spec.devices[0].basic.capacity[memory]: Invalid value: "boolean": '
        'spec.devices[0].basic.capacity[memory] in body must be of type string,number: "boolean"',
    ),
    (
        "v1alpha3",
        "PodSchedulingContext",
        ("spec", "selectedNode"),
        ["node-1"],
        'spec.selectedNode: Invalid value: "array": spec.selectedNode in body must be of type string: "array"',
    ),
    (
        "v1alpha3",
        "ResourceClaimTemplateList",
        ("items", 0, "spec", "spec", "devices", "requests"),
        {},
        'items[0].spec.spec.devices.requests: Invalid value: "object": '
        'items[0].spec.spec.devices.requests in body must be of type array: "object"',
    ),
    (
        "v1alpha3",
        "DeviceTaintRule",
        ("spec", "taint", "timeAdded"),
        "yesterday",
        'spec.taint.timeAdded: Invalid value: "yesterday": spec.taint.timeAdded in body must be of type date-time: "yesterday"',
    ),
    (
        "v1alpha3",
        "ResourcePoolStatusRequest",
        ("spec", "limit"),
        2**31,
        "spec.limit: Invalid value: 2147483648: spec.limit in body must be of type int32",
    ),
    (
        "v1alpha3",
        "ResourcePoolStatusRequest",
        ("status", "pools", 0, "totalDevices"),
        "8",
        'status.pools[0].totalDevices: Invalid value: "string": '
        'status.pools[0].totalDevices in body must be of type integer: "string"',
    ),
    (
        "v1",
        "ResourceClaim",
        ("spec", "devices", "requests", 0, "exactly", "selectors"),
        {"cel": {"expression": "true"}},
        'spec.devices.requests[0].exactly.selectors: Invalid value: "object": '
        'spec.devices.requests[0].exactly.selectors in body must be of type array: "object"',
    ),
    (
        "v1",
        "ResourceClaim",
        ("status", "devices", 0, "networkData", "ips"),
        "10.0.0.7/24",
        'status.devices[0].networkData.ips: Invalid value: "string": '
        'status.devices[0].networkData.ips in body must be of type array: "string"',
    ),
    (
        "v1",
        "ResourceClaim",
        ("status", "allocation", "devices", "results", 0, "consumedCapacity", "memory"),
        {"value": "10Gi"},
        'status.allocation.devices.results[0].consumedCapacity[memory]: Invalid value: "object": '
        'status.allocation.devices.results[0].consumedCapacity[memory] in body must be of type string,number: "object"',
    ),
    (
        "v1",
        "ResourceSlice",
        ("spec", "devices", 0, "attributes", "model"),
        "A100",
        'spec.devices[0].attributes[model]: Invalid value: "string": '
        'spec.devices[0].attributes[model] in body must be of type object: "string"',
    ),
    (
        "v1",
        "ResourceSlice",
        ("spec", "devices", 0, "capacity", "memory", "value"),
        [1],
        'spec.devices[0].capacity[memory].value: Invalid value: "array": '
        'spec.devices[0].capacity[memory].value in body must be of type string,number: "array"',
    ),
    (
        "v1",
        "DeviceTaintRule",
        ("spec", "taint", "effect"),
        1,
        'spec.taint.effect: Invalid value: "integer": spec.taint.effect in body must be of type string: "integer"',
    ),
    (
        "v1",
        "DeviceClass",
        ("spec", "extendedResourceName"),
        False,
        'spec.extendedResourceName: Invalid value: "boolean": '
        'spec.extendedResourceName in body must be of type string: "boolean"',
    ),
    (
        "v1beta2",
        "ResourceClaim",
        ("spec", "devices", "requests", 1, "firstAvailable", 1, "count"),
        1.5,
        'spec.devices.requests[1].firstAvailable[1].count: Invalid value: "number": '
        'spec.devices.requests[1].firstAvailable[1].count in body must be of type integer: "number"',
    ),
    (
        "v1beta2",
        "ResourceSliceList",
        ("items", 0, "spec", "pool", "generation"),
        "1",
        'items[0].spec.pool.generation: Invalid value: "string": '
        'items[0].spec.pool.generation in body must be of type integer: "string"',
    ),
    (
        "v1beta2",
        "DeviceTaintRule",
        ("status", "conditions", 0, "lastTransitionTime"),
        "2025-01-02",
        'status.conditions[0].lastTransitionTime: Invalid value: "2025-01-02": '
        'status.conditions[0].lastTransitionTime in body must be of type date-time: "2025-01-02"',
    ),
    (
        "v1beta1",
        "ResourceClaim",
        ("spec", "devices", "requests", 0, "count"),
        "1",
        'spec.devices.requests[0].count: Invalid value: "string": '
        'spec.devices.requests[0].count in body must be of type integer: "string"',
    ),
    (
        "v1beta1",
        "ResourceSlice",
        ("spec", "devices", 0, "basic", "attributes", "index", "int"),
        "7",
        'spec.devices[0].basic.attributes[index].int: Invalid value: "string": '
        'spec.devices[0].basic.attributes[index].int in body must be of type integer: "string"',
    ),
    (
        "v1beta1",
        "DeviceClass",
        ("spec", "selectors", 0, "cel"),
        'device.driver == "gpu.example.com"',
        'spec.selectors[0].cel: Invalid value: "string": spec.selectors[0].cel in body must be of type object: "string"',
    ),
]


@pytest.mark.parametrize(("version", "kind", "where", "value", "expected"), NEWER_WRONG_TYPES)
def test_a_wrong_json_type_in_a_newer_api_version_is_a_type_error_at_its_path(
    checker: StructuralChecker, version: str, kind: str, where: tuple[Any, ...], value: Any, expected: str
) -> None:
    report = checker.check(newer_gvk(version, kind), with_value(valid(kind, version), where, value))
    assert messages(report) == [expected]
    [error] = report.errors
    assert error.type is ErrorType.TYPE_INVALID
    assert error.cause()["reason"] == "FieldValueTypeInvalid"
    assert report.warnings == ()


def test_every_api_version_has_its_wrong_type_and_unknown_field_cases() -> None:
    for table in (NEWER_WRONG_TYPES, NEWER_UNKNOWN_FIELDS):
        assert {case[0] for case in table} == set(NEWER_VERSIONS)


NEWER_UNKNOWN_FIELDS = [
    # version, kind, where, the one warning: mostly a field of another release or apiVersion
    (
        "v1alpha3",
        "ResourceClaim",
        ("spec", "devices", "requests", 0, "exactly"),
        "spec.devices.requests[0].exactly",
    ),
    ("v1alpha3", "ResourceClaim", ("spec", "resourceClassName"), "spec.resourceClassName"),
    (
        "v1alpha3",
        "ResourceClaimTemplate",
        ("spec", "spec", "devices", "requests", 0, "device"),
        "spec.spec.devices.requests[0].device",
    ),
    ("v1alpha3", "DeviceClass", ("spec", "extendedResourceName"), "spec.extendedResourceName"),
    ("v1alpha3", "ResourceSlice", ("spec", "devices", 0, "attributes"), "spec.devices[0].attributes"),
    ("v1alpha3", "DeviceTaintRule", ("spec", "selector"), "spec.selector"),
    ("v1alpha3", "ResourcePoolStatusRequest", ("spec", "pool"), "spec.pool"),
    (
        "v1",
        "ResourceClaim",
        ("spec", "devices", "requests", 0, "deviceClassName"),
        "spec.devices.requests[0].deviceClassName",
    ),
    ("v1", "ResourceClaim", ("status", "allocation", "controller"), "status.allocation.controller"),
    ("v1", "ResourceSlice", ("spec", "devices", 0, "basic"), "spec.devices[0].basic"),
    ("v1", "DeviceClass", ("spec", "suitableNodes"), "spec.suitableNodes"),
    (
        "v1",
        "DeviceTaintRuleList",
        ("items", 0, "spec", "deviceSelector", "deviceClassName"),
        "items[0].spec.deviceSelector.deviceClassName",
    ),
    ("v1beta2", "ResourceClaim", ("status", "deallocationRequested"), "status.deallocationRequested"),
    ("v1beta2", "ResourceClaimTemplate", ("spec", "spec", "controller"), "spec.spec.controller"),
    (
        "v1beta1",
        "ResourceClaim",
        ("spec", "devices", "requests", 0, "exactly"),
        "spec.devices.requests[0].exactly",
    ),
    ("v1beta1", "ResourceSlice", ("spec", "devices", 0, "attributes"), "spec.devices[0].attributes"),
    ("v1beta1", "DeviceClass", ("spec", "config", 0, "parameters"), "spec.config[0].parameters"),
]


@pytest.mark.parametrize(("version", "kind", "where", "field"), NEWER_UNKNOWN_FIELDS)
def test_an_unknown_field_in_a_newer_api_version_is_a_warning(
    checker: StructuralChecker, version: str, kind: str, where: tuple[Any, ...], field: str
) -> None:
    report = checker.check(
        newer_gvk(version, kind), with_value(valid(kind, version), where, {"any": "value"})
    )
    assert report.errors == []
    assert report.warnings == (f'unknown field "{field}"',)


def test_a_v1alpha3_resource_slice_list_has_its_list_metadata_under_list_meta(
    checker: StructuralChecker,
) -> None:
    # Kubernetes 1.31 (v1alpha3 ResourceSliceList: metav1.ListMeta `json:"listMeta"`); every other
    # list, of every apiVersion, has it under metadata.
    slices = valid("ResourceSliceList", "v1alpha3")
    slices["metadata"] = slices.pop("listMeta")
    report = checker.check(newer_gvk("v1alpha3", "ResourceSliceList"), slices)
    assert report == StructuralReport(errors=[], warnings=('unknown field "metadata"',))


@pytest.mark.parametrize(
    ("version", "kind", "wrong"),
    [
        ("v1alpha3", "DeviceClass", "resource.k8s.io/v1alpha2"),
        ("v1alpha3", "DeviceTaintRule", "resource.k8s.io/v1beta2"),
        ("v1", "ResourceClaim", "resource.k8s.io/v1beta1"),
        ("v1beta2", "ResourceSlice", "resource.k8s.io/v1"),
        ("v1beta1", "ResourceClaimTemplate", "resource.k8s.io/v1beta2"),
    ],
)
def test_a_newer_object_names_its_own_api_version(
    checker: StructuralChecker, version: str, kind: str, wrong: str
) -> None:
    report = checker.check(newer_gvk(version, kind), {**valid(kind, version), "apiVersion": wrong})
    assert messages(report) == [
        f'apiVersion: Unsupported value: "{wrong}": supported values: "{GROUP}/{version}"'
    ]


@pytest.mark.parametrize(("version", "kind"), [(v, k) for v in NEWER_VERSIONS for k in SERVED[v]])
def test_null_is_accepted_at_every_position_of_a_newer_object(
    checker: StructuralChecker, version: str, kind: str
) -> None:
    example = valid(kind, version)
    positions = list(positions_in(example))
    assert len(positions) > 20
    for position in positions:
        report = checker.check(newer_gvk(version, kind), with_value(example, position, None))
        assert report == StructuralReport(errors=[], warnings=()), position


@pytest.mark.parametrize("raw", ["a string", 42, ["a", {"b": None}], {"Any": {"Keys": ["at", "depth"]}}])
@pytest.mark.parametrize(
    ("version", "kind", "where"),
    [
        ("v1alpha3", "DeviceClass", ("spec", "config", 0, "opaque", "parameters")),
        (
            "v1alpha3",
            "ResourceClaim",
            ("status", "allocation", "devices", "config", 0, "opaque", "parameters"),
        ),
        ("v1", "ResourceClaim", ("spec", "devices", "config", 0, "opaque", "parameters")),
        ("v1", "ResourceClaim", ("status", "devices", 0, "data")),
        ("v1beta2", "DeviceClass", ("spec", "config", 0, "opaque", "parameters")),
        (
            "v1beta1",
            "ResourceClaimTemplate",
            ("spec", "spec", "devices", "config", 0, "opaque", "parameters"),
        ),
        ("v1", "DeviceTaintRule", ("metadata", "managedFields", 0, "fieldsV1")),
    ],
)
def test_the_raw_json_of_newer_objects_accepts_any_json(
    checker: StructuralChecker, version: str, kind: str, where: tuple[Any, ...], raw: Any
) -> None:
    report = checker.check(newer_gvk(version, kind), with_value(valid(kind, version), where, raw))
    assert report == StructuralReport(errors=[], warnings=())


NEWER_AGREED = [
    # name, version, kind, where, value: both kubernetes-validate (strict, at the kind's release)
    # and the checker flag it
    (
        "v1alpha3 count is a string",
        "v1alpha3",
        "ResourceClaim",
        ("spec", "devices", "requests", 0, "count"),
        "1",
    ),
    (
        "v1alpha3 a device without name",
        "v1alpha3",
        "ResourceSlice",
        ("spec", "devices", 0, "name"),
        "<delete>",
    ),
    ("v1alpha3 an unknown slice field", "v1alpha3", "ResourceSlice", ("spec", "nodeSelectors"), 1),
    ("v1alpha3 taint effect missing", "v1alpha3", "DeviceTaintRule", ("spec", "taint", "effect"), "<delete>"),
    ("v1alpha3 limit is a string", "v1alpha3", "ResourcePoolStatusRequest", ("spec", "limit"), "10"),
    ("v1 exactly is a list", "v1", "ResourceClaim", ("spec", "devices", "requests", 0, "exactly"), []),
    ("v1 an unknown request field", "v1", "ResourceClaim", ("spec", "devices", "requests", 0, "count"), 1),
    (
        "v1 capacity value missing",
        "v1",
        "ResourceSlice",
        ("spec", "devices", 0, "capacity", "memory", "value"),
        "<delete>",
    ),
    (
        "v1 a bool attribute is a string",
        "v1",
        "ResourceSlice",
        ("spec", "devices", 0, "attributes", "fast", "bool"),
        "yes",
    ),
    (
        "v1 a condition status is a bool",
        "v1",
        "ResourceClaim",
        ("status", "devices", 0, "conditions", 0, "status"),
        True,
    ),
    ("v1beta2 the taint is a string", "v1beta2", "DeviceTaintRule", ("spec", "taint"), "NoSchedule"),
    (
        "v1beta2 a toleration is a string",
        "v1beta2",
        "ResourceClaimTemplate",
        ("spec", "spec", "devices", "requests", 0, "exactly", "tolerations", 0),
        "x",
    ),
    ("v1beta1 basic is a list", "v1beta1", "ResourceSlice", ("spec", "devices", 0, "basic"), []),
    ("v1beta1 an unknown list field", "v1beta1", "DeviceClassList", ("metadata", "foo"), 1),
]


@pytest.mark.parametrize(
    ("name", "version", "kind", "where", "value"), NEWER_AGREED, ids=[case[0] for case in NEWER_AGREED]
)
def test_kubernetes_validate_and_the_checker_agree_on_newer_objects(
    strict_checker: StructuralChecker, name: str, version: str, kind: str, where: tuple[Any, ...], value: Any
) -> None:
    obj = mutated(kind, where, value, version)
    assert kubernetes_validate_rejects(obj, release_of(version, kind))
    assert flags(strict_checker, kind, obj, version)


# --- published manifests -------------------------------------------------------------------------


def realworld_directory() -> Path | None:
    """`../shared/realworld` of the project (from the main checkout; one level further up from a
    worktree beside it), or None when it is not there."""
    for base in (REPO.parent, REPO.parent.parent):
        candidate = base / "shared" / "realworld"
        if (candidate / "index.json").is_file():
            return candidate
    return None


def published_objects(directory: Path, *, presumed_valid: str) -> Iterator[tuple[str, ManifestObject]]:
    """The resource.k8s.io objects of the files whose `presumed_valid` starts with the given word,
    read as `dra-webhook validate` reads them (Lists expanded)."""
    index = json.loads((directory / "index.json").read_text(encoding="utf-8"))
    for entry in index["files"]:
        if not entry["presumed_valid"].startswith(presumed_valid):
            continue
        result = read_documents(entry["file"], (directory / entry["file"]).read_bytes())
        assert result.error is None, result.error
        for document in result.documents:
            for obj in objects_of(document):
                # Documents that are not Kubernetes objects (a CI workflow) are no DRA objects.
                if isinstance(obj, ManifestObject) and obj.gvk.group == GROUP:
                    yield entry["file"], obj


# A valid 1.33 manifest (the index says so: v1alpha3 with firstAvailable, which 1.33's v1alpha3 has)
# that 1.31, the release v1alpha3 is judged as, does not know: an unknown field, not an error.
PUBLISHED_WARNINGS = {
    (
        "v1alpha3/kubernetes__kubernetes__test__integration__scheduler_perf__dra__templates__"
        "resourceclaimtemplate-first-available.yaml",
        'unknown field "spec.spec.devices.requests[0].firstAvailable"',
    )
}


def test_every_published_valid_dra_object_passes_the_structural_check_of_its_api_version(
    checker: StructuralChecker,
) -> None:
    directory = realworld_directory()
    if directory is None:
        pytest.skip("../shared/realworld is not there")
    judged: collections.Counter[str] = collections.Counter()
    failures: list[str] = []
    warnings: set[tuple[str, str]] = set()
    for source, obj in published_objects(directory, presumed_valid="YES"):
        assert checker.knows(obj.gvk), f"{source}: {obj.gvk} has no schema"
        report = checker.check(obj.gvk, obj.obj)
        judged[obj.gvk.version] += 1
        failures.extend(f"{source}: {obj.kind} {obj.name}: {error}" for error in report.errors)
        warnings.update((source, warning) for warning in report.warnings)
    assert failures == []
    assert warnings == PUBLISHED_WARNINGS
    assert set(judged) == set(SERVED)
    assert sum(judged.values()) > 700, judged


# --- property: arbitrary JSON at every field position ------------------------------------------------


def load_schema(kind: str, version: str = VERSION) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(
        (SCHEMAS / GROUP / version / f"{kind.lower()}.json").read_text("utf-8")
    )
    return document


def resolve(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = document["$defs"][schema["$ref"].split("/")[-1]]
    return schema


def field_positions(document: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Every field position a schema defines: names, index 0 for list items, key "k" for map values."""
    found: list[tuple[Any, ...]] = []

    def walk(schema: dict[str, Any], prefix: tuple[Any, ...]) -> None:
        schema = resolve(document, schema)
        if "properties" in schema:
            for name, child in schema["properties"].items():
                found.append((*prefix, name))
                walk(child, (*prefix, name))
        elif isinstance(schema.get("additionalProperties"), dict):
            found.append((*prefix, "k"))
            walk(schema["additionalProperties"], (*prefix, "k"))
        elif "items" in schema:
            found.append((*prefix, 0))
            walk(schema["items"], (*prefix, 0))

    walk(document, ())
    return found


def render(document: dict[str, Any], path: Any) -> str:
    """A jsonschema error path as the checker renders fields (child, [index], [key])."""
    schema, rendered = resolve(document, document), FieldPath()
    for segment in path:
        if isinstance(segment, int):
            rendered, schema = rendered.index(segment), resolve(document, schema["items"])
        elif "properties" in schema:
            rendered, schema = rendered.child(segment), resolve(document, schema["properties"][segment])
        else:
            rendered, schema = rendered.key(segment), resolve(document, schema["additionalProperties"])
    return str(rendered)


def go_decoding_validator(document: dict[str, Any]) -> Any:
    """jsonschema with Go's notion of JSON types and the formats the checker implements."""

    def is_integer(_: Any, value: Any) -> bool:
        return type(value) is int and -(2**63) <= value < 2**63

    def is_number(_: Any, value: Any) -> bool:
        return type(value) in (int, float)

    types = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine_many(
        {"integer": is_integer, "number": is_number}
    )
    validator_class = jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=types)
    formats = jsonschema.FormatChecker(formats=())
    formats.checks("date-time")(lambda value: not isinstance(value, str) or is_rfc3339(value))
    formats.checks("quantity")(lambda value: not isinstance(value, str) or quantity_error(value) is None)
    formats.checks("int64")(lambda value: True)
    formats.checks("int32")(lambda value: type(value) is not int or -(2**31) <= value < 2**31)
    return validator_class(document, format_checker=formats)


ALL_KINDS = {
    version: [kind for base in bases for kind in (base, base + "List")] for version, bases in SERVED.items()
}
SCHEMA_DOCUMENTS = {
    (version, kind): load_schema(kind, version) for version, kinds in ALL_KINDS.items() for kind in kinds
}
# The schema's own positions (index 0, map key "k") and those of the valid example (later indexes too).
POSITIONS = {
    (version, kind): sorted(
        set(field_positions(document)) | set(positions_in(valid(kind, version))), key=repr
    )
    for (version, kind), document in SCHEMA_DOCUMENTS.items()
}
VALIDATORS = {key: go_decoding_validator(document) for key, document in SCHEMA_DOCUMENTS.items()}

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(
        [
            "16Gi",
            "1.5",
            "2024-05-01T10:00:00Z",
            2**31,
            *(f"{GROUP}/{version}" for version in SERVED),
            "ResourceClaim",
        ]
    ),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=8,
)


def test_the_schemas_reach_every_field_of_every_kind() -> None:
    assert (
        "status",
        "allocation",
        "resourceHandles",
        0,
        "structuredData",
        "results",
        0,
        "namedResources",
        "name",
    ) in POSITIONS["v1alpha2", "ResourceClaim"]
    assert ("metadata", "labels", "k") in POSITIONS["v1alpha2", "ResourceSlice"]
    assert ("spec", "devices", 0, "basic", "capacity", "k") in POSITIONS["v1alpha3", "ResourceSlice"]
    assert ("status", "pools", 0, "shareableSummary", "capacity", 0, "available") in POSITIONS[
        "v1alpha3", "ResourcePoolStatusRequest"
    ]
    assert ("status", "devices", 0, "networkData", "ips", 0) in POSITIONS["v1", "ResourceClaim"]
    assert ("spec", "devices", 0, "basic", "consumesCounters", 0, "counters", "k", "value") in POSITIONS[
        "v1beta1", "ResourceSlice"
    ]
    assert ("items", 0, "spec", "taint", "timeAdded") in POSITIONS["v1beta2", "DeviceTaintRuleList"]
    counts = {
        version: sum(len(POSITIONS[version, kind]) for kind in kinds) for version, kinds in ALL_KINDS.items()
    }
    assert counts["v1alpha2"] > 700
    assert all(count > 700 for count in counts.values()), counts


@pytest.mark.parametrize("version", SERVED)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_arbitrary_json_at_any_field_position_gives_a_report_matching_jsonschema(
    checker: StructuralChecker, strict_checker: StructuralChecker, version: str, data: st.DataObject
) -> None:
    kind = data.draw(st.sampled_from(ALL_KINDS[version]), label="kind")
    base = data.draw(st.sampled_from([valid(kind, version), {}]), label="base")
    positions = data.draw(
        st.lists(st.sampled_from(POSITIONS[version, kind]), min_size=1, max_size=3), label="positions"
    )
    obj: Any = base
    for position in positions:
        obj = with_value(obj, position, data.draw(json_values, label=str(position)))

    report = checker.check(GroupVersionKind(GROUP, version, kind), obj)

    assert isinstance(report, StructuralReport)
    assert all(isinstance(warning, str) for warning in report.warnings)
    for error in report.errors:
        assert error.body()  # every error renders

    # The same schema file read by jsonschema, with Go's JSON types: errors at the same fields.
    strict = strict_checker.check(GroupVersionKind(GROUP, version, kind), obj)
    document = SCHEMA_DOCUMENTS[version, kind]
    expected: set[str] = set()
    for error in VALIDATORS[version, kind].iter_errors(obj):
        if error.validator == "required":
            missing = [name for name in error.validator_value if name not in error.instance]
            expected.update(render(document, (*error.absolute_path, name)) for name in missing)
        else:
            expected.add(render(document, error.absolute_path))
    # jsonschema's "required" only asks for the key; the checker also counts a null as missing.
    null_fields = set()
    for position in positions_in(obj):
        value: Any = obj
        for segment in position:
            value = value[segment]
        if value is None:
            with contextlib.suppress(KeyError, TypeError):  # under an unknown field or in raw JSON
                null_fields.add(render(document, position))
    null_required = {error.field for error in strict.errors if error.type is ErrorType.REQUIRED} & null_fields
    assert {error.field for error in strict.errors} - null_required == expected
    assert {error.field for error in report.errors} == {
        error.field for error in strict.errors if error.type is not ErrorType.REQUIRED
    }
