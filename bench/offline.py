"""How fast `dra-webhook validate` and `dra-webhook review` judge files offline: prints objects/second.

    .venv/bin/python bench/offline.py [--objects N] [--files F] [--jobs J]

Writes N manifests (claims, templates, classes, scheduling contexts; about one in five invalid) as
F multi-document YAML files plus one JSON-lines review file into a temporary directory, then times
the whole command (reading, YAML decoding, judging, the text report) in this process, and with -j J
processes when J > 1. The first run is a warm-up that loads the schemas; the best of three counts.
Not a unit test: numbers depend on the machine; measure before and after a change.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from webhook.offline import ReviewRun, ValidateRun, run_review, run_validate

GROUP_VERSION = "resource.k8s.io/v1alpha2"


def manifest(index: int) -> dict[str, Any]:
    name = f"object-{index}" if index % 5 else f"Object_{index}"  # every fifth name is invalid
    metadata = {"name": name, "namespace": "default", "labels": {"app": "bench", "index": str(index)}}
    shape = index % 4
    if shape == 0:
        spec: dict[str, Any] = {"resourceClassName": "gpu.example.com", "allocationMode": "Immediate"}
        return {"apiVersion": GROUP_VERSION, "kind": "ResourceClaim", "metadata": metadata, "spec": spec}
    if shape == 1:
        spec = {"spec": {"resourceClassName": "gpu.example.com"}}
        return {
            "apiVersion": GROUP_VERSION,
            "kind": "ResourceClaimTemplate",
            "metadata": metadata,
            "spec": spec,
        }
    if shape == 2:
        del metadata["namespace"]
        return {
            "apiVersion": GROUP_VERSION,
            "kind": "ResourceClass",
            "metadata": metadata,
            "driverName": "gpu.example.com",
        }
    spec = {"selectedNode": "worker-1", "potentialNodes": [f"worker-{n}" for n in range(8)]}
    return {"apiVersion": GROUP_VERSION, "kind": "PodSchedulingContext", "metadata": metadata, "spec": spec}


def review_of(obj: dict[str, Any], index: int) -> dict[str, Any]:
    return {
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "request": {
            "uid": f"bench-{index}",
            "kind": {"group": "resource.k8s.io", "version": "v1alpha2", "kind": obj["kind"]},
            "operation": "CREATE",
            "name": obj["metadata"]["name"],
            "namespace": obj["metadata"].get("namespace", ""),
            "object": obj,
        },
    }


def write_inputs(directory: Path, *, objects: int, files: int) -> tuple[Path, Path]:
    manifests = directory / "manifests"
    manifests.mkdir()
    objs = [manifest(index) for index in range(objects)]
    per_file = -(-objects // files)
    for number in range(files):
        chunk = objs[number * per_file : (number + 1) * per_file]
        if chunk:
            (manifests / f"part-{number:04d}.yaml").write_text(yaml.safe_dump_all(chunk, sort_keys=False))
    reviews = directory / "reviews.jsonl"
    reviews.write_bytes(b"\n".join(orjson.dumps(review_of(obj, i)) for i, obj in enumerate(objs)) + b"\n")
    return manifests, reviews


def best_of(runs: int, action: Callable[[], int]) -> float:
    action()  # warm-up: schemas, regexes, imports
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - started)
    return best


def no_stdin() -> bytes:
    return b""


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--objects", type=int, default=5000)
    parser.add_argument("--files", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as temporary:
        manifests, reviews = write_inputs(Path(temporary), objects=args.objects, files=args.files)

        def validate(jobs: int) -> Callable[[], int]:
            run = ValidateRun(inputs=(str(manifests),), jobs=jobs)
            return lambda: run_validate(run, out=io.StringIO(), err=io.StringIO(), read_stdin=no_stdin)

        def review(jobs: int) -> Callable[[], int]:
            run = ReviewRun(inputs=(str(reviews),), output="text", jobs=jobs)
            return lambda: run_review(run, out=io.StringIO(), err=io.StringIO(), read_stdin=no_stdin)

        rows = [("validate", 1, best_of(3, validate(1))), ("review", 1, best_of(3, review(1)))]
        if args.jobs > 1:
            rows.append(("validate", args.jobs, best_of(3, validate(args.jobs))))
        for command, jobs, seconds in rows:
            print(
                f"{command:8} -j {jobs}: {args.objects} objects in {seconds:.3f} s = "
                f"{args.objects / seconds:,.0f} objects/second"
            )


if __name__ == "__main__":
    main()
