"""Published DRA manifests (../shared/realworld, filed by apiVersion, with INDEX.md / index.json saying
where each came from and whether it was valid when published), judged as `dra-webhook validate` judges
them, for every apiVersion the registry serves: a version registered is checked here with no change to
this file. Skipped when the collection is not beside the project.

* A file marked valid is accepted, and every resource.k8s.io object of a registered apiVersion in it is
  judged (none skipped).
* A file marked as a fixture with placeholder values, a published mistake, a pre-release shape or a
  design prototype is not accepted: some resource.k8s.io object in it is invalid or not judged.
* A kind no Kubernetes release serves under its apiVersion (the v1alpha2 design prototypes'
  DeviceClass, ResourcePool, DevicePool and Pod; the round-trip fixtures' `kind: Status`) is refused as
  kubectl refuses it: `no matches for kind "X" in version "resource.k8s.io/Y"`, every such document.

The collection is read from ``../shared/realworld`` beside the project root, or from the directory
``DRA_WEBHOOK_REALWORLD`` names (a git worktree elsewhere).
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from webhook.admission import Judge
from webhook.offline.manifest_judge import ManifestJudge, ObjectResult, ValidateOptions
from webhook.registry import REGISTRY
from webhook.served import no_kind_match, served_kind

REALWORLD = Path(
    os.environ.get("DRA_WEBHOOK_REALWORLD")
    or Path(__file__).resolve().parent.parent.parent / "shared" / "realworld"
)
GROUP = "resource.k8s.io"
# INDEX.md's "presumed valid" column: what the API accepted when the file was published.
VALID_MARKS = (
    "YES",
    "YES (captured output)",
    "YES (parser edge case)",
    "YES (API) / INTENTIONALLY INVALID (driver)",
)
REJECTED_MARK_PREFIX = "NO ("

# Files whose verdict here differs from INDEX.md's mark, each with its reason. Every entry is checked
# to still differ (`test_each_known_difference_still_holds`), so one that stops differing must go.
# Where the Kubernetes sources of the release an apiVersion is judged as disagree with the mark, the
# sources win; the other entries wait for work in progress, named.
SCHEDULER_PERF = "v1alpha3/kubernetes__kubernetes__test__integration__scheduler_perf__"
KNOWN_DIFFERENCES: dict[str, str] = {
    # INDEX.md marks it valid for the v1alpha3 of 1.33, which has `firstAvailable`; 1.31's v1alpha3
    # has no such field (kubernetes/api v0.31.0 resource/v1alpha3/types.go, DeviceRequest), so 1.31
    # drops it and then requires `deviceClassName`.
    SCHEDULER_PERF + "dra__templates__resourceclaimtemplate-first-available.yaml": "sources win",
    # A CEL selector with an unbalanced `)`: 1.37 compiles device selectors of a DeviceClass and
    # answers "Syntax error: extraneous input ')'" (validation.go validateCELSelector); INDEX.md's
    # check is of the shape only.
    "v1/Project-HAMi__k8s-dra-driver__chart__test.yaml": "sources win",
    # Two CEL selectors that end in `||` (a YAML block scalar whose last alternative was cut): 1.37
    # answers "Syntax error: mismatched input '<EOF>'"; v1beta1 is judged as 1.37 judges it.
    "v1beta1/intel__intel-resource-drivers-for-kubernetes__deployments__qat__examples__deployment-inline.yaml": (
        "sources win"
    ),
}

pytestmark = pytest.mark.skipif(not (REALWORLD / "index.json").is_file(), reason=f"{REALWORLD} is absent")


def registered_versions() -> list[str]:
    return sorted({gvk.version for gvk in REGISTRY if gvk.group == GROUP})


@functools.cache
def index() -> list[dict[str, Any]]:
    files: list[dict[str, Any]] = json.loads((REALWORLD / "index.json").read_text())["files"]
    return files


@functools.cache
def manifest_judge() -> ManifestJudge:
    return ManifestJudge(Judge.build(), ValidateOptions())


def dra_results(entry: dict[str, Any]) -> list[ObjectResult]:
    """The results of a file's resource.k8s.io objects (and of anything unreadable in it)."""
    results = manifest_judge().judge_input(str(REALWORLD / entry["file"]))
    return [
        result for result in results if result.status == "error" or result.api_version.startswith(GROUP + "/")
    ]


def registered(result: ObjectResult) -> bool:
    return any(result.api_version == f"{GROUP}/{version}" for version in registered_versions())


def files_marked(version: str, *, valid: bool) -> list[dict[str, Any]]:
    """The files of `version` INDEX.md marks valid (or rejected), but for the known differences."""
    return [
        entry
        for entry in index()
        if entry["dir"] == version
        and entry["file"] not in KNOWN_DIFFERENCES
        and (
            entry["presumed_valid"] in VALID_MARKS
            if valid
            else entry["presumed_valid"].startswith(REJECTED_MARK_PREFIX)
        )
    ]


@pytest.mark.parametrize("version", registered_versions())
def test_published_valid_manifests_are_accepted_with_every_object_judged(version: str) -> None:
    entries = files_marked(version, valid=True)
    assert entries, f"no file of {version} is marked valid"
    problems = [
        f"{entry['file']}: {result.status}: {result.message}"
        for entry in entries
        for result in dra_results(entry)
        if result.status == "error" or (registered(result) and result.status != "valid")
    ]
    assert problems == []


@pytest.mark.parametrize("version", registered_versions())
def test_published_mistakes_fixtures_and_prototypes_are_not_accepted(version: str) -> None:
    accepted = []
    for entry in files_marked(version, valid=False):
        results = dra_results(entry)
        if results and all(result.status == "valid" for result in results):
            accepted.append(f"{entry['file']} ({entry['presumed_valid']})")
    assert accepted == []


def accepted(entry: dict[str, Any]) -> bool:
    """Whether `dra-webhook validate` accepts the file with every registered object judged."""
    results = dra_results(entry)
    return all(
        result.status == "valid" for result in results if result.status == "error" or registered(result)
    )


@pytest.mark.parametrize("file", sorted(KNOWN_DIFFERENCES))
def test_each_known_difference_still_holds(file: str) -> None:
    (entry,) = [entry for entry in index() if entry["file"] == file]
    marked_valid = entry["presumed_valid"] in VALID_MARKS
    assert accepted(entry) is not marked_valid, (
        f"{file} now agrees with INDEX.md: drop it from KNOWN_DIFFERENCES"
    )


def never_served(api_version: str, kind: str) -> bool:
    group, _, version = api_version.rpartition("/")
    return group == GROUP and served_kind(version, kind) is None


# The files whose documents name kinds no release serves: the design prototypes of
# kubernetes-sigs/wg-device-management filed as v1alpha2, and the kubernetes/api fixtures of kind Status.
NEVER_SERVED_FILES: dict[str, Callable[[dict[str, Any]], bool]] = {
    "v1alpha2 design prototypes": lambda entry: (
        entry["dir"] == "v1alpha2" and entry["presumed_valid"] == "NO (design prototype)"
    ),
    "kind: Status fixtures": lambda entry: "Status" in entry["dra_kinds"],
}


@pytest.mark.parametrize("files", sorted(NEVER_SERVED_FILES))
def test_kinds_no_release_serves_are_refused_with_kubectls_no_matches_for_kind(files: str) -> None:
    entries = [entry for entry in index() if NEVER_SERVED_FILES[files](entry)]
    expected = [
        (entry["file"], document["apiVersion"], document["kind"])
        for entry in entries
        for document in entry["docs"]
        if never_served(document["apiVersion"], document["kind"])
    ]
    assert expected, f"no document of the {files} names a kind no release serves"
    refused = [
        (entry["file"], result.api_version, result.kind)
        for entry in entries
        for result in dra_results(entry)
        if result.status == "invalid" and result.message == no_kind_match(result.api_version, result.kind)
    ]
    assert sorted(refused) == sorted(expected)
