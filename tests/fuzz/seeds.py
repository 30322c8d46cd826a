"""Seed objects for the fuzzers: one valid, richly filled object of every kind the webhook validates.

Every optional field that leads to a rule is set (node selectors, structured handles, named
resources, CEL selectors, owner references...), so a mutation anywhere reaches some rule. Each seed
is a CREATE the webhook allows, and an UPDATE of itself that it allows (`test_seeds_are_allowed`):
the fuzzers start from code paths that pass and break them one field at a time.
"""

from __future__ import annotations

import copy
from typing import Any

GROUP_VERSION = "resource.k8s.io/v1alpha2"
DRIVER = "gpu.example.com"


def _metadata(name: str, *, namespace: str | None = "default") -> dict[str, Any]:
    meta: dict[str, Any] = {
        "name": name,
        "resourceVersion": "7",
        "uid": "5a0d4c4e-4f4a-4c4e-9a0d-000000000001",
        "generation": 1,
        "creationTimestamp": "2024-05-01T10:00:00Z",
        "labels": {"app.kubernetes.io/name": "fuzz", "tier": "gpu"},
        "annotations": {"example.com/note": "seed object"},
        "finalizers": ["example.com/cleanup"],
        "ownerReferences": [
            {
                "apiVersion": "apps/v1",
                "kind": "Deployment",
                "name": "owner",
                "uid": "5a0d4c4e-4f4a-4c4e-9a0d-000000000002",
                "controller": True,
                "blockOwnerDeletion": True,
            }
        ],
        "managedFields": [
            {
                "manager": "kubectl",
                "operation": "Apply",
                "apiVersion": GROUP_VERSION,
                "time": "2024-05-01T10:00:00Z",
                "fieldsType": "FieldsV1",
                "fieldsV1": {"f:metadata": {"f:labels": {}}},
            }
        ],
    }
    if namespace is not None:
        meta["namespace"] = namespace
    return meta


def _node_selector() -> dict[str, Any]:
    return {
        "nodeSelectorTerms": [
            {
                "matchExpressions": [
                    {"key": "kubernetes.io/hostname", "operator": "In", "values": ["node-a", "node-b"]},
                    {"key": "example.com/gpu", "operator": "Exists"},
                ],
                "matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["node-c"]}],
            }
        ]
    }


def resource_class() -> dict[str, Any]:
    return {
        "apiVersion": GROUP_VERSION,
        "kind": "ResourceClass",
        "metadata": _metadata("gpu-class", namespace=None),
        "driverName": DRIVER,
        "parametersRef": {
            "apiGroup": "gpu.example.com",
            "kind": "GpuClassParameters",
            "name": "default",
            "namespace": "gpu-system",
        },
        "suitableNodes": _node_selector(),
        "structuredParameters": False,
    }


def resource_claim() -> dict[str, Any]:
    return {
        "apiVersion": GROUP_VERSION,
        "kind": "ResourceClaim",
        "metadata": _metadata("gpu-claim"),
        "spec": {
            "resourceClassName": "gpu-class",
            "allocationMode": "WaitForFirstConsumer",
            "parametersRef": {"apiGroup": "gpu.example.com", "kind": "GpuClaimParameters", "name": "two"},
        },
        "status": {
            "driverName": DRIVER,
            "allocation": {
                "resourceHandles": [
                    {"driverName": DRIVER, "data": "opaque handle"},
                    {
                        "driverName": DRIVER,
                        "structuredData": {
                            "vendorClaimParameters": {"count": 2},
                            "vendorClassParameters": {"profile": "fast"},
                            "nodeName": "node-a",
                            "results": [
                                {
                                    "vendorRequestParameters": {"memory": "16Gi"},
                                    "namedResources": {"name": "gpu-0"},
                                }
                            ],
                        },
                    },
                ],
                "availableOnNodes": _node_selector(),
                "shareable": True,
            },
            "reservedFor": [
                {"resource": "pods", "name": "pod-0", "uid": "5a0d4c4e-4f4a-4c4e-9a0d-000000000003"},
                {
                    "apiGroup": "batch",
                    "resource": "jobs",
                    "name": "job-0",
                    "uid": "5a0d4c4e-4f4a-4c4e-9a0d-000000000004",
                },
            ],
            "deallocationRequested": False,
        },
    }


def resource_claim_template() -> dict[str, Any]:
    return {
        "apiVersion": GROUP_VERSION,
        "kind": "ResourceClaimTemplate",
        "metadata": _metadata("gpu-template"),
        "spec": {
            "metadata": {"labels": {"tier": "gpu"}, "annotations": {"example.com/from": "template"}},
            "spec": {
                "resourceClassName": "gpu-class",
                "allocationMode": "Immediate",
                "parametersRef": {"apiGroup": "gpu.example.com", "kind": "GpuClaimParameters", "name": "one"},
            },
        },
    }


def pod_scheduling_context() -> dict[str, Any]:
    return {
        "apiVersion": GROUP_VERSION,
        "kind": "PodSchedulingContext",
        "metadata": _metadata("pod-0"),
        "spec": {"selectedNode": "node-a", "potentialNodes": ["node-a", "node-b", "node-c"]},
        "status": {
            "resourceClaims": [
                {"name": "gpu", "unsuitableNodes": ["node-c"]},
                {"name": "fpga", "unsuitableNodes": []},
            ]
        },
    }


def resource_slice() -> dict[str, Any]:
    return {
        "apiVersion": GROUP_VERSION,
        "kind": "ResourceSlice",
        "metadata": _metadata("node-a-gpu", namespace=None),
        "nodeName": "node-a",
        "driverName": DRIVER,
        "namedResources": {
            "instances": [
                {
                    "name": "gpu-0",
                    "attributes": [
                        {"name": "healthy", "bool": True},
                        {"name": "cores", "int": 6912},
                        {"name": "memory", "quantity": "40Gi"},
                        {"name": "model", "string": "a100"},
                        {"name": "driver-version", "version": "535.104.5"},
                        {"name": "slots", "intSlice": {"ints": [0, 1, 2]}},
                        {"name": "features", "stringSlice": {"strings": ["mig", "nvlink"]}},
                    ],
                },
                {"name": "gpu-1", "attributes": [{"name": "healthy", "bool": False}]},
            ]
        },
    }


def resource_claim_parameters() -> dict[str, Any]:
    return {
        "apiVersion": GROUP_VERSION,
        "kind": "ResourceClaimParameters",
        "metadata": _metadata("two-gpus"),
        "generatedFrom": {"apiGroup": "gpu.example.com", "kind": "GpuClaimParameters", "name": "two"},
        "shareable": True,
        "driverRequests": [
            {
                "driverName": DRIVER,
                "vendorParameters": {"apiVersion": "gpu.example.com/v1", "kind": "Config", "sharing": "time"},
                "requests": [
                    {
                        "vendorParameters": {"memory": "16Gi"},
                        "namedResources": {
                            "selector": 'attributes.quantity["memory"].isGreaterThan(quantity("10Gi")) '
                            '&& attributes.string["model"] in ["a100", "h100"]'
                        },
                    },
                    {"namedResources": {"selector": "attributes.bool['healthy']"}},
                ],
            }
        ],
    }


def resource_class_parameters() -> dict[str, Any]:
    return {
        "apiVersion": GROUP_VERSION,
        "kind": "ResourceClassParameters",
        "metadata": _metadata("fast-gpus"),
        "generatedFrom": {
            "apiGroup": "gpu.example.com",
            "kind": "GpuClassParameters",
            "name": "default",
            "namespace": "gpu-system",
        },
        "vendorParameters": [{"driverName": DRIVER, "parameters": {"profile": "fast"}}],
        "filters": [
            {
                "driverName": DRIVER,
                "namedResources": {
                    "selector": "attributes.int['cores'] > 1000 && attributes.bool['healthy']"
                },
            }
        ],
    }


SEEDS: dict[str, Any] = {
    "ResourceClass": resource_class,
    "ResourceClaim": resource_claim,
    "ResourceClaimTemplate": resource_claim_template,
    "PodSchedulingContext": pod_scheduling_context,
    "ResourceSlice": resource_slice,
    "ResourceClaimParameters": resource_claim_parameters,
    "ResourceClassParameters": resource_class_parameters,
}
KINDS: tuple[str, ...] = tuple(SEEDS)
# Kinds whose status has its own update rules (the `status` subresource).
STATUS_KINDS: frozenset[str] = frozenset({"ResourceClaim", "PodSchedulingContext"})


def seed(kind: str) -> dict[str, Any]:
    """A fresh, valid object of `kind` (a deep copy: mutate it freely)."""
    return copy.deepcopy(SEEDS[kind]())


def admission_review(
    obj: Any,
    *,
    kind: str,
    operation: str = "CREATE",
    old: Any = None,
    sub_resource: str = "",
    group: str = "resource.k8s.io",
    version: str = "v1alpha2",
    uid: str = "fuzz-uid",
    api_version: str = "admission.k8s.io/v1",
) -> dict[str, Any]:
    """The AdmissionReview kube-apiserver would send for `obj`, whatever `obj` is (copied)."""
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    meta = meta if isinstance(meta, dict) else {}
    request: dict[str, Any] = {
        "uid": uid,
        "kind": {"group": group, "version": version, "kind": kind},
        "resource": {"group": group, "version": version, "resource": kind.lower() + "s"},
        "requestKind": {"group": group, "version": version, "kind": kind},
        "operation": operation,
        "userInfo": {
            "username": "system:serviceaccount:kube-system:fuzz",
            "uid": "u",
            "groups": ["system:authenticated"],
        },
        "object": copy.deepcopy(obj),
        "dryRun": False,
        "options": {
            "apiVersion": "meta.k8s.io/v1",
            "kind": "CreateOptions" if operation == "CREATE" else "UpdateOptions",
        },
    }
    for key, value in (("name", meta.get("name")), ("namespace", meta.get("namespace"))):
        if isinstance(value, str):
            request[key] = value
    if sub_resource:
        request["subResource"] = sub_resource
    if old is not None:
        request["oldObject"] = copy.deepcopy(old)
    return {"apiVersion": api_version, "kind": "AdmissionReview", "request": request}


def seed_reviews() -> list[dict[str, Any]]:
    """A CREATE and an UPDATE of every kind, and a status UPDATE where the kind has one, all allowed."""
    reviews = []
    for kind in KINDS:
        reviews.append(admission_review(seed(kind), kind=kind, uid=f"seed-create-{kind}"))
        reviews.append(
            admission_review(
                seed(kind), kind=kind, operation="UPDATE", old=seed(kind), uid=f"seed-update-{kind}"
            )
        )
        if kind in STATUS_KINDS:
            reviews.append(
                admission_review(
                    seed(kind),
                    kind=kind,
                    operation="UPDATE",
                    old=seed(kind),
                    sub_resource="status",
                    uid=f"seed-status-{kind}",
                )
            )
    return reviews
