"""Time the structural check of one large ResourceClaim (prints numbers; not a test).

The object is the issue's yardstick: a ResourceClaim with 32 reservedFor entries and 32 resource
handles (each with structured data), labels, annotations and managed fields. It is timed three ways:

* `StructuralChecker.check` (the compiled walker the webhook uses);
* `jsonschema` (Draft 2020-12) on the same schema file, collecting every error as the webhook must;
* `jsonschema` stopping at the first error (`is_valid`), the least it could do.

Run from the repository root:  .venv/bin/python schemas/timing.py
"""

from __future__ import annotations

import json
import statistics
import timeit
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped,unused-ignore]

from webhook.rules.kinds import GroupVersionKind
from webhook.schemas import StructuralChecker

CLAIM = GroupVersionKind("resource.k8s.io", "v1alpha2", "ResourceClaim")
SCHEMA_FILE = Path(__file__).resolve().parent / "resource.k8s.io" / "v1alpha2" / "resourceclaim.json"
ROUNDS = 7
HOSTNAME_IS_N1 = {"key": "kubernetes.io/hostname", "operator": "In", "values": ["n1"]}


def large_claim() -> dict[str, Any]:
    handles = [
        {
            "driverName": f"gpu-{i}.example.com",
            "data": "x" * 64,
            "structuredData": {
                "vendorClaimParameters": {"any": ["json", i]},
                "nodeName": f"node-{i}",
                "results": [{"namedResources": {"name": f"gpu-{i}-{k}"}} for k in range(2)],
            },
        }
        for i in range(32)
    ]
    reserved = [
        {"apiGroup": "", "resource": "pods", "name": f"pod-{i}", "uid": f"00000000-0000-0000-0000-{i:012d}"}
        for i in range(32)
    ]
    return {
        "apiVersion": "resource.k8s.io/v1alpha2",
        "kind": "ResourceClaim",
        "metadata": {
            "name": "big-claim",
            "namespace": "default",
            "uid": "11111111-2222-3333-4444-555555555555",
            "resourceVersion": "12345",
            "generation": 3,
            "creationTimestamp": "2024-05-01T10:00:00Z",
            "labels": {f"label-{i}": f"value-{i}" for i in range(8)},
            "annotations": {f"example.com/note-{i}": "text" for i in range(8)},
            "finalizers": ["example.com/finalizer"],
            "managedFields": [
                {
                    "manager": "kube-controller-manager",
                    "operation": "Update",
                    "apiVersion": "resource.k8s.io/v1alpha2",
                    "time": "2024-05-01T10:00:00Z",
                    "fieldsType": "FieldsV1",
                    "fieldsV1": {"f:status": {"f:reservedFor": {}}},
                    "subresource": "status",
                }
            ],
        },
        "spec": {
            "resourceClassName": "gpu",
            "allocationMode": "WaitForFirstConsumer",
            "parametersRef": {"apiGroup": "gpu.example.com", "kind": "GpuClaimParameters", "name": "fast"},
        },
        "status": {
            "driverName": "gpu.example.com",
            "allocation": {
                "resourceHandles": handles,
                "shareable": True,
                "availableOnNodes": {"nodeSelectorTerms": [{"matchExpressions": [HOSTNAME_IS_N1]}]},
            },
            "reservedFor": reserved,
            "deallocationRequested": False,
        },
    }


def microseconds(statement: Any, number: int) -> tuple[float, float]:
    """Median and best time of one call, in microseconds."""
    runs = [t / number * 1e6 for t in timeit.repeat(statement, number=number, repeat=ROUNDS)]
    return statistics.median(runs), min(runs)


def main() -> None:
    claim = large_claim()
    checker = StructuralChecker.load()
    report = checker.check(CLAIM, claim)
    assert not report.errors and not report.warnings, report
    validator = Draft202012Validator(json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
    assert validator.is_valid(claim)

    print(f"ResourceClaim with {len(claim['status']['reservedFor'])} reservedFor entries and ", end="")
    print(f"{len(claim['status']['allocation']['resourceHandles'])} resource handles, {ROUNDS} rounds:")
    rows = [
        ("StructuralChecker.check", lambda: checker.check(CLAIM, claim), 2000),
        ("jsonschema, every error", lambda: list(validator.iter_errors(claim)), 50),
        ("jsonschema, is_valid", lambda: validator.is_valid(claim), 50),
    ]
    for name, statement, number in rows:
        median, best = microseconds(statement, number)
        print(f"  {name:26} median {median:9.1f} us   best {best:9.1f} us")


if __name__ == "__main__":
    main()
