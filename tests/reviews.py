"""Builders of AdmissionReviews and DRA objects for tests: small, explicit, and valid unless told."""

from __future__ import annotations

import copy
import itertools
from typing import Any

GROUP_VERSION = "resource.k8s.io/v1alpha2"
_uids = itertools.count(1)


def metadata(name: str = "claim", namespace: str | None = "default", **extra: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "name": name,
        "resourceVersion": "1",
        "uid": "00000000-0000-0000-0000-00000000000a",
    }
    if namespace is not None:
        meta["namespace"] = namespace
    meta.update(extra)
    return meta


def resource_claim(name: str = "claim", **spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": GROUP_VERSION,
        "kind": "ResourceClaim",
        "metadata": metadata(name),
        "spec": {"resourceClassName": "gpu.example.com", "allocationMode": "WaitForFirstConsumer", **spec},
    }


def allocated_claim(
    name: str = "claim", *, reserved_for: int = 0, handles: int = 1, **status: Any
) -> dict[str, Any]:
    claim = resource_claim(name)
    claim["status"] = {
        "driverName": "gpu.example.com",
        "allocation": {
            "resourceHandles": [
                {"driverName": "gpu.example.com", "data": f"handle-{i}"} for i in range(handles)
            ],
            "shareable": True,
        },
        "reservedFor": [consumer(i) for i in range(reserved_for)],
        **status,
    }
    return claim


def consumer(i: int) -> dict[str, str]:
    return {"resource": "pods", "name": f"pod-{i}", "uid": f"uid-{i}"}


def claim_template(name: str = "template", **spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": GROUP_VERSION,
        "kind": "ResourceClaimTemplate",
        "metadata": metadata(name),
        "spec": {
            "spec": {"resourceClassName": "gpu.example.com", "allocationMode": "WaitForFirstConsumer", **spec}
        },
    }


def admission_review(
    obj: Any,
    *,
    operation: str = "CREATE",
    old: Any = None,
    kind: str | None = None,
    group: str = "resource.k8s.io",
    version: str = "v1alpha2",
    sub_resource: str = "",
    api_version: str = "admission.k8s.io/v1",
    uid: str | None = None,
) -> dict[str, Any]:
    if kind is None:
        kind = obj["kind"] if isinstance(obj, dict) and "kind" in obj else "ResourceClaim"
    request: dict[str, Any] = {
        "uid": uid or f"review-{next(_uids)}",
        "kind": {"group": group, "version": version, "kind": kind},
        "resource": {"group": group, "version": version, "resource": kind.lower() + "s"},
        "operation": operation,
        "userInfo": {"username": "kubernetes-admin", "groups": ["system:masters"]},
        "object": copy.deepcopy(obj),
        "dryRun": False,
    }
    if sub_resource:
        request["subResource"] = sub_resource
    if isinstance(obj, dict):
        request["name"] = obj.get("metadata", {}).get("name", "")
        request["namespace"] = obj.get("metadata", {}).get("namespace", "")
    if old is not None:
        request["oldObject"] = copy.deepcopy(old)
    return {"apiVersion": api_version, "kind": "AdmissionReview", "request": request}
