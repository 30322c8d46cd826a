"""The benchmark's mix of AdmissionReviews: realistic requests, allowed and denied, with their weights.

What a DRA cluster sends its webhook most is status traffic: the scheduler and drivers update
ResourceClaim status (reservations for up to 32 pods, allocation results with resource handles) and
PodSchedulingContext status (unsuitable nodes for each claim, up to 128 names). Users create claims
and, less often, touch templates. The mix weighs them that way; about one request in four is denied,
so the error-rendering path (causes, aggregated message) is measured too.

Every entry says the verdict it must get (`allowed`), and the load benchmark checks each one against
the real server before it starts timing: a benchmark of wrong answers measures nothing.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import orjson

GROUP_VERSION = "resource.k8s.io/v1alpha2"
DRIVER = "gpu.example.com"
# resource.ResourceClaimReservedForMaxSize and resource.PodSchedulingNodeListMaxSize (1.30).
RESERVED_FOR_MAX = 32
NODE_LIST_MAX = 128


@dataclass(frozen=True, slots=True)
class MixEntry:
    """One request of the mix: its name, how many of every `sum(weights)` requests it is, the body
    as the API server sends it, and the verdict the webhook must give."""

    name: str
    kind: str
    weight: int
    body: bytes
    allowed: bool


# --- objects ------------------------------------------------------------------------------------------


def _metadata(name: str, *, group_version: str = GROUP_VERSION, **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "namespace": "team-a",
        "uid": "5e5c3f0e-2d8a-4b8e-9a51-6f0e1c2d3b4a",
        "resourceVersion": "184467",
        "generation": 1,
        "creationTimestamp": "2024-05-01T10:00:00Z",
        "labels": {"app.kubernetes.io/name": "trainer", "app.kubernetes.io/instance": name},
        "annotations": {"example.com/owner": "ml-platform"},
        "managedFields": [
            {
                "manager": "kube-scheduler",
                "operation": "Update",
                "apiVersion": group_version,
                "time": "2024-05-01T10:00:01Z",
                "fieldsType": "FieldsV1",
                "fieldsV1": {"f:status": {"f:reservedFor": {}}},
                "subresource": "status",
            }
        ],
        **extra,
    }


def _claim_spec() -> dict[str, Any]:
    return {
        "resourceClassName": DRIVER,
        "allocationMode": "WaitForFirstConsumer",
        "parametersRef": {"apiGroup": "gpu.example.com", "kind": "GpuClaimParameters", "name": "a100-40g"},
    }


def _consumer(i: int) -> dict[str, Any]:
    return {"resource": "pods", "name": f"trainer-{i}", "uid": f"0a1b2c3d-0000-4000-8000-{i:012d}"}


def _handles() -> list[dict[str, Any]]:
    """Four handles: two opaque (classic DRA), two structured (namedresources results on a node)."""
    opaque = [
        {"driverName": DRIVER, "data": orjson.dumps({"gpu": i, "uuid": f"GPU-{i:08x}", "mig": None}).decode()}
        for i in range(2)
    ]
    structured = [
        {
            "driverName": DRIVER,
            "structuredData": {
                "vendorClaimParameters": {"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig"},
                "nodeName": "worker-017",
                "results": [{"namedResources": {"name": f"gpu-{i}"}} for i in range(2)],
            },
        }
        for _ in range(2)
    ]
    return [*opaque, *structured]


def _allocated_claim(name: str, reserved: int) -> dict[str, Any]:
    return {
        "apiVersion": GROUP_VERSION,
        "kind": "ResourceClaim",
        "metadata": _metadata(name),
        "spec": _claim_spec(),
        "status": {
            "driverName": DRIVER,
            "allocation": {
                "resourceHandles": _handles(),
                "availableOnNodes": {
                    "nodeSelectorTerms": [
                        {
                            "matchFields": [
                                {"key": "metadata.name", "operator": "In", "values": ["worker-017"]}
                            ]
                        }
                    ]
                },
                "shareable": True,
            },
            "reservedFor": [_consumer(i) for i in range(reserved)],
        },
    }


def _template(name: str, **extra_labels: str) -> dict[str, Any]:
    metadata = _metadata(name)
    metadata["labels"] = {**metadata["labels"], **extra_labels}
    return {
        "apiVersion": GROUP_VERSION,
        "kind": "ResourceClaimTemplate",
        "metadata": metadata,
        "spec": {"metadata": {"labels": {"gpu.example.com/pool": "a100"}}, "spec": _claim_spec()},
    }


def _scheduling_context(name: str, *, nodes: int, claims: int) -> dict[str, Any]:
    node_names = [f"worker-{i:03d}" for i in range(nodes)]
    return {
        "apiVersion": GROUP_VERSION,
        "kind": "PodSchedulingContext",
        "metadata": _metadata(name),
        "spec": {"selectedNode": "worker-017", "potentialNodes": node_names},
        "status": {
            "resourceClaims": [
                {"name": f"gpu-{c}", "unsuitableNodes": node_names[c::2]} for c in range(claims)
            ]
        },
    }


# --- reviews ------------------------------------------------------------------------------------------


def _review(
    uid: str,
    obj: dict[str, Any],
    *,
    operation: str,
    old: dict[str, Any] | None = None,
    sub_resource: str = "",
) -> dict[str, Any]:
    kind = obj["kind"]
    version = obj["apiVersion"].rpartition("/")[2]
    request: dict[str, Any] = {
        "uid": uid,
        "kind": {"group": "resource.k8s.io", "version": version, "kind": kind},
        "resource": {"group": "resource.k8s.io", "version": version, "resource": kind.lower() + "s"},
        "requestKind": {"group": "resource.k8s.io", "version": version, "kind": kind},
        "requestResource": {
            "group": "resource.k8s.io",
            "version": version,
            "resource": kind.lower() + "s",
        },
        "name": obj["metadata"]["name"],
        "namespace": obj["metadata"].get("namespace", ""),
        "operation": operation,
        "userInfo": {
            "username": "system:kube-scheduler",
            "uid": "uid-scheduler",
            "groups": ["system:authenticated"],
        },
        "object": obj,
        "oldObject": old,
        "dryRun": False,
        "options": {"apiVersion": "meta.k8s.io/v1", "kind": "UpdateOptions" if old else "CreateOptions"},
    }
    if sub_resource:
        request["subResource"] = sub_resource
        request["requestSubResource"] = sub_resource
    return {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": request}


def _claim_status_reserve() -> dict[str, Any]:
    """The scheduler adds the 32nd consumer to a shareable, allocated claim: allowed."""
    old = _allocated_claim("trainer-gpus", RESERVED_FOR_MAX - 1)
    new = _allocated_claim("trainer-gpus", RESERVED_FOR_MAX)
    return _review("bench-claim-status-reserve", new, operation="UPDATE", old=old, sub_resource="status")


def _claim_status_too_many() -> dict[str, Any]:
    """A 33rd consumer: denied (reservedFor: Too long: may not be more than 32)."""
    old = _allocated_claim("trainer-gpus", RESERVED_FOR_MAX)
    new = _allocated_claim("trainer-gpus", RESERVED_FOR_MAX + 1)
    return _review("bench-claim-status-too-many", new, operation="UPDATE", old=old, sub_resource="status")


def _claim_status_allocation_changed() -> dict[str, Any]:
    """A driver rewrites a handle of a populated allocation: denied (status.allocation is immutable)."""
    old = _allocated_claim("trainer-gpus", RESERVED_FOR_MAX)
    new = copy.deepcopy(old)
    new["status"]["allocation"]["resourceHandles"][0]["data"] = '{"gpu": 7}'
    return _review("bench-claim-status-realloc", new, operation="UPDATE", old=old, sub_resource="status")


def _claim_create() -> dict[str, Any]:
    """A claim made from a template for a new pod (generateName, no status, no managed fields yet)."""
    metadata = _metadata("trainer-gpus-x7k2p", generateName="trainer-gpus-")
    del metadata["managedFields"]
    claim = {
        "apiVersion": GROUP_VERSION,
        "kind": "ResourceClaim",
        "metadata": metadata,
        "spec": _claim_spec(),
    }
    return _review("bench-claim-create", claim, operation="CREATE")


def _claim_create_invalid() -> dict[str, Any]:
    """A bad class name and allocation mode: denied with two causes."""
    review = _claim_create()
    request = review["request"]
    request["uid"] = "bench-claim-create-invalid"
    request["object"]["spec"]["resourceClassName"] = "GPU_Class"
    request["object"]["spec"]["allocationMode"] = "Eventually"
    return review


def _template_update() -> dict[str, Any]:
    """A label on the template's own metadata changes: allowed."""
    old = _template("trainer-template")
    new = _template("trainer-template", tier="gold")
    return _review("bench-template-update", new, operation="UPDATE", old=old)


def _template_spec_changed() -> dict[str, Any]:
    """The claim spec inside a template changes: denied (spec is immutable)."""
    old = _template("trainer-template")
    new = _template("trainer-template")
    new["spec"]["spec"]["resourceClassName"] = "fpga.example.com"
    return _review("bench-template-spec-changed", new, operation="UPDATE", old=old)


def _scheduling_status_update() -> dict[str, Any]:
    """A driver reports unsuitable nodes among 128 potential ones for two claims: allowed."""
    old = _scheduling_context("trainer-0", nodes=NODE_LIST_MAX, claims=0)
    new = _scheduling_context("trainer-0", nodes=NODE_LIST_MAX, claims=2)
    return _review("bench-scheduling-status", new, operation="UPDATE", old=old, sub_resource="status")


def _scheduling_status_duplicate() -> dict[str, Any]:
    """The same claim reported twice: denied (status.claims[1]: Duplicate value)."""
    old = _scheduling_context("trainer-0", nodes=NODE_LIST_MAX, claims=0)
    new = _scheduling_context("trainer-0", nodes=NODE_LIST_MAX, claims=2)
    new["status"]["resourceClaims"][1]["name"] = "gpu-0"
    return _review("bench-scheduling-duplicate", new, operation="UPDATE", old=old, sub_resource="status")


def _entry(name: str, weight: int, review: dict[str, Any], *, allowed: bool) -> MixEntry:
    kind = review["request"]["kind"]["kind"]
    return MixEntry(name, kind, weight, orjson.dumps(review), allowed)


# --- resource.k8s.io/v1 (what a cluster of Kubernetes 1.34 or later sends) ------------------------------

V1 = "resource.k8s.io/v1"
GPU_CLASS = "gpu.example.com"
NIC_DRIVER = "rdma.example.com"
NODE = "worker-017"
# resource.ResourceSliceMaxDevices (1.37): a full slice.
SLICE_MAX_DEVICES = 128
# The finalizer kube-scheduler puts on a claim before it allocates it (1.37: resourceclaim.Finalizer).
CLAIM_FINALIZER = "resource.kubernetes.io/delete-protection"


def _cel(expression: str) -> dict[str, Any]:
    return {"cel": {"expression": expression}}


def _v1_claim_spec() -> dict[str, Any]:
    """A training pod's devices, as a user writes them in a template (and the API server defaults
    them): two GPUs and a NIC on one PCIe root, selected by CEL, plus a first-available accelerator.
    Every selector is compiled once and then found in webhook.cel's cache."""
    return {
        "devices": {
            "requests": [
                {
                    "name": "gpus",
                    "exactly": {
                        "deviceClassName": GPU_CLASS,
                        "selectors": [
                            _cel(
                                'device.attributes["gpu.example.com"].productName.startsWith("NVIDIA A100")'
                            ),
                            _cel(
                                'device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0'
                            ),
                        ],
                        "allocationMode": "ExactCount",
                        "count": 2,
                    },
                },
                {
                    "name": "nic",
                    "exactly": {
                        "deviceClassName": "rdma.example.com",
                        "selectors": [_cel('device.attributes["rdma.example.com"].linkType == "infiniband"')],
                        "allocationMode": "ExactCount",
                        "count": 1,
                    },
                },
                {
                    "name": "accel",
                    "firstAvailable": [
                        {
                            "name": "large",
                            "deviceClassName": GPU_CLASS,
                            "selectors": [
                                _cel(
                                    'device.capacity["gpu.example.com"].memory'
                                    '.compareTo(quantity("80Gi")) >= 0'
                                )
                            ],
                            "allocationMode": "ExactCount",
                            "count": 1,
                        },
                        {
                            "name": "small",
                            "deviceClassName": GPU_CLASS,
                            "selectors": [_cel('device.attributes["gpu.example.com"].type == "gpu"')],
                            "allocationMode": "ExactCount",
                            "count": 1,
                        },
                    ],
                },
            ],
            "constraints": [
                {"requests": ["gpus", "nic"], "matchAttribute": "resource.kubernetes.io/pcieRoot"}
            ],
            "config": [
                {
                    "requests": ["gpus"],
                    "opaque": {
                        "driver": DRIVER,
                        "parameters": {
                            "apiVersion": "gpu.example.com/v1",
                            "kind": "GpuConfig",
                            "sharing": {"strategy": "TimeSlicing", "timeSlicingConfig": {"interval": "Long"}},
                        },
                    },
                }
            ],
        }
    }


def _v1_claim(name: str, *, finalizer: bool = False, generate_name: bool = False) -> dict[str, Any]:
    extra: dict[str, Any] = {"generateName": "trainer-0-gpus-"} if generate_name else {}
    metadata = _metadata(name, group_version=V1, **extra)
    metadata["ownerReferences"] = [
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "name": "trainer-0",
            "uid": "0a1b2c3d-0000-4000-8000-000000000000",
            "controller": True,
            "blockOwnerDeletion": True,
        }
    ]
    metadata["annotations"] = {"resource.kubernetes.io/pod-claim-name": "gpus"}
    if finalizer:
        metadata["finalizers"] = [CLAIM_FINALIZER]
    return {"apiVersion": V1, "kind": "ResourceClaim", "metadata": metadata, "spec": _v1_claim_spec()}


def _v1_allocation() -> dict[str, Any]:
    """What kube-scheduler allocates for `_v1_claim_spec` on one node: two GPUs, a NIC and the
    first-available accelerator's second choice, with the claim's config and the node's selector."""
    results = [
        {"request": "gpus", "driver": DRIVER, "pool": NODE, "device": "gpu-3"},
        {"request": "gpus", "driver": DRIVER, "pool": NODE, "device": "gpu-5"},
        {"request": "nic", "driver": NIC_DRIVER, "pool": NODE, "device": "nic-1"},
        {"request": "accel/small", "driver": DRIVER, "pool": NODE, "device": "gpu-6"},
    ]
    config = _v1_claim_spec()["devices"]["config"][0]
    return {
        "devices": {"results": results, "config": [{"source": "FromClaim", **config}]},
        "nodeSelector": {
            "nodeSelectorTerms": [
                {"matchFields": [{"key": "metadata.name", "operator": "In", "values": [NODE]}]}
            ]
        },
    }


def _v1_allocated_claim(*consumers: int) -> dict[str, Any]:
    claim = _v1_claim("trainer-0-gpus-x7k2p", finalizer=True)
    claim["status"] = {
        "allocation": _v1_allocation(),
        "reservedFor": [_consumer(i) for i in consumers],
    }
    return claim


def _v1_claim_create() -> dict[str, Any]:
    """The resourceclaim controller creates a pod's claim from its template: allowed."""
    claim = _v1_claim("trainer-0-gpus-x7k2p", generate_name=True)
    del claim["metadata"]["managedFields"]
    return _review("bench-v1-claim-create", claim, operation="CREATE")


def _v1_claim_create_invalid() -> dict[str, Any]:
    """A selector written without `device.` (a published mistake, see ../shared/realworld/INDEX.md)
    and a request count of -1: denied with two causes."""
    review = _v1_claim_create()
    request = review["request"]
    request["uid"] = "bench-v1-claim-create-invalid"
    gpus = request["object"]["spec"]["devices"]["requests"][0]["exactly"]
    gpus["selectors"][0] = _cel('attributes["gpu.example.com"].productName.startsWith("NVIDIA A100")')
    gpus["count"] = -1
    return review


def _v1_claim_finalizer() -> dict[str, Any]:
    """kube-scheduler puts its finalizer on the claim before allocating it: allowed."""
    old = _v1_claim("trainer-0-gpus-x7k2p")
    new = _v1_claim("trainer-0-gpus-x7k2p", finalizer=True)
    new["metadata"]["resourceVersion"] = "184468"
    return _review("bench-v1-claim-finalizer", new, operation="UPDATE", old=old)


def _v1_claim_status_allocate() -> dict[str, Any]:
    """kube-scheduler writes the allocation and reserves the claim for its pod in one status update
    (a newly set allocation: validated in full): allowed."""
    old = _v1_claim("trainer-0-gpus-x7k2p", finalizer=True)
    new = _v1_allocated_claim(0)
    return _review("bench-v1-claim-status-allocate", new, operation="UPDATE", old=old, sub_resource="status")


def _v1_claim_status_allocation_changed() -> dict[str, Any]:
    """A result's device rewritten in a set allocation: denied (status.allocation is immutable)."""
    old = _v1_allocated_claim(0)
    new = copy.deepcopy(old)
    new["status"]["allocation"]["devices"]["results"][1]["device"] = "gpu-7"
    return _review("bench-v1-claim-status-realloc", new, operation="UPDATE", old=old, sub_resource="status")


def _v1_claim_status_deallocate() -> dict[str, Any]:
    """The pod is gone: the resourceclaim controller drops the reservation and the allocation: allowed."""
    old = _v1_allocated_claim(0)
    new = _v1_claim("trainer-0-gpus-x7k2p", finalizer=True)
    new["status"] = {}
    return _review(
        "bench-v1-claim-status-deallocate", new, operation="UPDATE", old=old, sub_resource="status"
    )


def _v1_claim_status_reserved_twice() -> dict[str, Any]:
    """The same pod reserved twice: denied (status.reservedFor[1]: Duplicate value)."""
    old = _v1_allocated_claim(0)
    new = _v1_allocated_claim(0, 0)
    return _review(
        "bench-v1-claim-status-reserved-twice", new, operation="UPDATE", old=old, sub_resource="status"
    )


def _v1_template_create() -> dict[str, Any]:
    """A workload's claim template: allowed."""
    metadata = _metadata("trainer-gpus", group_version=V1)
    del metadata["managedFields"]
    template = {
        "apiVersion": V1,
        "kind": "ResourceClaimTemplate",
        "metadata": metadata,
        "spec": {"metadata": {"labels": {"gpu.example.com/pool": "a100"}}, "spec": _v1_claim_spec()},
    }
    return _review("bench-v1-template-create", template, operation="CREATE")


def _v1_slice_device(i: int) -> dict[str, Any]:
    """A GPU as NVIDIA's DRA driver publishes one (attributes and capacity of its v1 slices, e.g.
    ../shared/realworld/v1/kubernetes-sigs__dranet__examples__aws_eks_examples__gpu-efa__*-gpu.yaml)."""
    bus = 0x10 + i // 8
    return {
        "name": f"gpu-{i}",
        "attributes": {
            "addressingMode": {"string": "HMM"},
            "architecture": {"string": "Ampere"},
            "brand": {"string": "Nvidia"},
            "cudaComputeCapability": {"version": "8.0.0"},
            "cudaDriverVersion": {"version": "13.0.0"},
            "driverVersion": {"version": "580.126.9"},
            "index": {"int": i},
            "minor": {"int": i},
            "productName": {"string": "NVIDIA A100-SXM4-40GB"},
            "resource.kubernetes.io/pciBusID": {"string": f"0000:{bus:02x}:{0x1C + i % 8:02x}.0"},
            "resource.kubernetes.io/pcieRoot": {"string": f"pci0000:{bus:02x}"},
            "type": {"string": "gpu"},
            "uuid": {"string": f"GPU-8a10b6f7-077c-d51f-48f0-{i:012x}"},
        },
        "capacity": {"memory": {"value": "40Gi"}},
    }


def _v1_slice(devices: int = SLICE_MAX_DEVICES) -> dict[str, Any]:
    metadata = _cluster_metadata(f"{NODE}-gpu.example.com-x8z2q")
    metadata["generateName"] = f"{NODE}-gpu.example.com-"
    metadata["ownerReferences"] = [
        {"apiVersion": "v1", "kind": "Node", "name": NODE, "uid": "7d1c0a3e-5b2f-4c1d-9e8f-0a1b2c3d4e5f",
         "controller": True}
    ]  # fmt: skip
    return {
        "apiVersion": V1,
        "kind": "ResourceSlice",
        "metadata": metadata,
        "spec": {
            "driver": DRIVER,
            "nodeName": NODE,
            "pool": {"name": NODE, "generation": 1, "resourceSliceCount": 1},
            "devices": [_v1_slice_device(i) for i in range(devices)],
        },
    }


def _v1_slice_create() -> dict[str, Any]:
    """A driver publishes a node's full slice, 128 devices: allowed."""
    return _review("bench-v1-slice-create", _v1_slice(), operation="CREATE")


def _v1_slice_create_invalid() -> dict[str, Any]:
    """The same slice with one device listed twice: denied (spec.devices[127].name: Duplicate value)."""
    review = _v1_slice_create()
    review["request"]["uid"] = "bench-v1-slice-create-invalid"
    review["request"]["object"]["spec"]["devices"][-1]["name"] = "gpu-0"
    return review


# --- the mixes ---------------------------------------------------------------------------------------------

MIXES = ("v1", "v1alpha2", "all")
# What `make bench` (bench/load.py), bench/rules.py and bench/instructions.py measure by default: the
# mix of the clusters that run DRA today (v1 is served from Kubernetes 1.34 on).
DEFAULT_MIX = "v1"


def v1alpha2_mix() -> list[MixEntry]:
    """The v1alpha2 mix (Kubernetes 1.30), 20 requests per round: 15 allowed, 5 denied."""
    return [
        _entry("claim-status-reserve", 6, _claim_status_reserve(), allowed=True),
        _entry("claim-status-too-many", 1, _claim_status_too_many(), allowed=False),
        _entry("claim-status-allocation-changed", 1, _claim_status_allocation_changed(), allowed=False),
        _entry("claim-create", 3, _claim_create(), allowed=True),
        _entry("claim-create-invalid", 1, _claim_create_invalid(), allowed=False),
        _entry("template-update", 2, _template_update(), allowed=True),
        _entry("template-spec-changed", 1, _template_spec_changed(), allowed=False),
        _entry("scheduling-status", 4, _scheduling_status_update(), allowed=True),
        _entry("scheduling-status-duplicate", 1, _scheduling_status_duplicate(), allowed=False),
    ]


def v1_mix() -> list[MixEntry]:
    """The v1 mix (Kubernetes 1.34 and later), 20 requests per round: 17 allowed, 3 denied.

    The weights follow one pod's claim through its life, as the 1.34+ control plane writes it: the
    resourceclaim controller creates it from the pod's template (create); kube-scheduler puts its
    finalizer on it (update) and then, in one status update, sets the allocation and reserves it for
    the pod (allocate); when the pod is gone the controller drops reservation and allocation (status
    update) and then the finalizer (update). Per pod: one create, two metadata updates, two status
    updates, the allocating one the costliest; a failed bind retried adds allocating updates. Drivers
    publish a node's slice when they start and when its devices change, far more rarely than pods
    come and go: one full 128-device slice in 20 requests is an upper bound, kept so the heaviest
    object is measured. Templates are written once per workload."""
    return [
        _entry("v1-claim-create", 4, _v1_claim_create(), allowed=True),
        _entry("v1-claim-create-invalid", 1, _v1_claim_create_invalid(), allowed=False),
        _entry("v1-claim-finalizer", 3, _v1_claim_finalizer(), allowed=True),
        _entry("v1-claim-status-allocate", 6, _v1_claim_status_allocate(), allowed=True),
        _entry("v1-claim-status-allocation-changed", 1, _v1_claim_status_allocation_changed(), allowed=False),
        _entry("v1-claim-status-deallocate", 2, _v1_claim_status_deallocate(), allowed=True),
        _entry("v1-claim-status-reserved-twice", 1, _v1_claim_status_reserved_twice(), allowed=False),
        _entry("v1-slice-create-128-devices", 1, _v1_slice_create(), allowed=True),
        _entry("v1-template-create", 1, _v1_template_create(), allowed=True),
    ]


def mix(which: str = DEFAULT_MIX) -> list[MixEntry]:
    """The benchmark's mix: `v1` (the default), `v1alpha2` (as it was before v1 was judged), or
    `all` (both, one round of each: 40 requests)."""
    if which == "v1":
        return v1_mix()
    if which == "v1alpha2":
        return v1alpha2_mix()
    if which == "all":
        return [*v1alpha2_mix(), *v1_mix()]
    raise ValueError(f"unknown mix {which!r}: one of {', '.join(MIXES)}")


def weighted_order(entries: list[MixEntry]) -> list[int]:
    """One round of the mix as entry indexes, interleaved (not 6 of a kind in a row), deterministic."""
    remaining = [entry.weight for entry in entries]
    order: list[int] = []
    while any(remaining):
        for i, left in enumerate(remaining):
            if left:
                order.append(i)
                remaining[i] -= 1
    return order


# --- kinds outside the load mix (rare writes), for the rules micro-benchmark --------------------------


def _cluster_metadata(name: str) -> dict[str, Any]:
    metadata = _metadata(name)
    del metadata["namespace"], metadata["managedFields"]
    return metadata


def _resource_class() -> dict[str, Any]:
    resource_class = {
        "apiVersion": GROUP_VERSION,
        "kind": "ResourceClass",
        "metadata": _cluster_metadata("gpu-a100"),
        "driverName": DRIVER,
        "parametersRef": {
            "apiGroup": DRIVER,
            "kind": "GpuClassParameters",
            "name": "a100",
            "namespace": "gpu",
        },
        "suitableNodes": {
            "nodeSelectorTerms": [
                {
                    "matchExpressions": [
                        {"key": "nvidia.com/gpu.product", "operator": "In", "values": ["A100"]}
                    ]
                }
            ]
        },
        "structuredParameters": True,
    }
    return _review("bench-class-create", resource_class, operation="CREATE")


def _resource_slice(instances: int = 64) -> dict[str, Any]:
    """A node's slice of 64 GPUs, each with seven attributes of every value type."""
    resource_slice = {
        "apiVersion": GROUP_VERSION,
        "kind": "ResourceSlice",
        "metadata": _cluster_metadata("worker-017-gpu-example-com-x8z2q"),
        "nodeName": "worker-017",
        "driverName": DRIVER,
        "namedResources": {
            "instances": [
                {
                    "name": f"gpu-{i}",
                    "attributes": [
                        {"name": "memory", "quantity": "40Gi"},
                        {"name": "mig-capable", "bool": True},
                        {"name": "index", "int": i},
                        {"name": "numa", "intSlice": {"ints": [0, 1]}},
                        {"name": "product", "string": "A100-SXM4-40GB"},
                        {"name": "features", "stringSlice": {"strings": ["nvlink", "mig"]}},
                        {"name": "driver-version", "version": "550.54.15"},
                    ],
                }
                for i in range(instances)
            ]
        },
    }
    return _review("bench-slice-create", resource_slice, operation="CREATE")


def _claim_parameters(selector_suffix: str = "") -> dict[str, Any]:
    """Claim parameters with two CEL selectors (compiled once, then memoised by webhook.cel)."""
    parameters = {
        "apiVersion": GROUP_VERSION,
        "kind": "ResourceClaimParameters",
        "metadata": _metadata("a100-40g"),
        "generatedFrom": {"apiGroup": DRIVER, "kind": "GpuClaimParameters", "name": "a100-40g"},
        "shareable": True,
        "driverRequests": [
            {
                "driverName": DRIVER,
                "requests": [
                    {
                        "namedResources": {
                            "selector": 'attributes.quantity["memory"].isGreaterThan(quantity("32Gi"))'
                            + selector_suffix
                        }
                    },
                    {
                        "namedResources": {
                            "selector": 'attributes.string["product"].startsWith("A100") && '
                            'attributes.bool["mig-capable"]'
                        }
                    },
                ],
            }
        ],
    }
    return _review("bench-claim-parameters-create", parameters, operation="CREATE")


def _class_parameters() -> dict[str, Any]:
    parameters = {
        "apiVersion": GROUP_VERSION,
        "kind": "ResourceClassParameters",
        "metadata": _metadata("a100"),
        "generatedFrom": {
            "apiGroup": DRIVER,
            "kind": "GpuClassParameters",
            "name": "a100",
            "namespace": "gpu",
        },
        "vendorParameters": [{"driverName": DRIVER, "data": {"sharing": "time-slicing"}}],
        "filters": [{"driverName": DRIVER, "namedResources": {"selector": 'attributes.int["index"] < 8'}}],
    }
    return _review("bench-class-parameters-create", parameters, operation="CREATE")


def other_kinds() -> list[MixEntry]:
    """The kinds written rarely (by administrators and drivers), each once: allowed, but for a v1
    slice with a device listed twice."""
    return [
        _entry("class-create", 1, _resource_class(), allowed=True),
        _entry("slice-create-64-instances", 1, _resource_slice(), allowed=True),
        _entry("claim-parameters-create", 1, _claim_parameters(), allowed=True),
        _entry("class-parameters-create", 1, _class_parameters(), allowed=True),
        _entry("v1-slice-create-invalid", 1, _v1_slice_create_invalid(), allowed=False),
    ]


def claim_parameters_with_new_selector(serial: int) -> bytes:
    """Claim parameters whose first selector was never seen: measures a CEL compilation (cache miss)."""
    return orjson.dumps(_claim_parameters(f' && attributes.int["index"] != {serial}'))
