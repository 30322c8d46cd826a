"""Kubernetes 1.30's own validation tables for the structured-parameters kinds, run end to end.

The corpus (`structured/*.json`) holds one file per Go test function of 1.30 -- PodSchedulingContext,
ResourceSlice, ResourceClaimParameters, ResourceClassParameters, the namedresources model
(`TestValidateResources`, `TestValidateSelector`) and the CEL compiler (`TestCompile`) -- each case
ported from the Go table to the v1alpha2 JSON that encoding/json makes of the Go object (so
`creationTimestamp: null`, `instances: null`, `vendorParameters: null` appear where Go writes them),
plus `mutations_*.json`: boundary variants whose expected errors were derived from the 1.30 Go code.
Each file's `source` names the repository, commit and path the cases were read from.

A case: `name`, `operation` (CREATE, UPDATE or UPDATE+status), `object`, `oldObject` for updates,
`expected` (the Go `wantFailures`: `type` = cause reason, `field`, `message` = the error body; a
`message` of null marks a body the Go test does not pin down -- a value Go prints as a struct
literal, or a cel-go syntax error the Go test checks with `strings.Contains`, whose parts are then
listed in `messageContains`), and `go` (the Go test case) or `derivedFrom` (the Go code a mutation
follows).

Every case goes through the public entry point, `webhook.review()`, with the default judge: the
envelope, the structural check, the rules and the webhook's namespace policy all run. A case marked
`"namespaceRules": false` runs with the namespace rules off because the Go expectation is about the
API server alone. The checks: the verdict; `details.causes` (reason and field, in order, each
message); `status.message` (the `apierrors.NewInvalid` aggregate); code, reason, group, kind, name;
and no warnings unless the case lists them -- an unknown-field warning would mean the case's JSON does
not match the v1alpha2 types.
"""

from __future__ import annotations

import functools
import itertools
import json
import unicodedata
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from webhook import review
from webhook.admission import Judge
from webhook.settings import PolicySettings

CORPUS = Path(__file__).parent / "structured"
GROUP = "resource.k8s.io"
VERSION = "v1alpha2"
OPERATIONS = {"CREATE": ("CREATE", ""), "UPDATE": ("UPDATE", ""), "UPDATE+status": ("UPDATE", "status")}
RESOURCES = {
    "PodSchedulingContext": "podschedulingcontexts",
    "ResourceSlice": "resourceslices",
    "ResourceClaimParameters": "resourceclaimparameters",
    "ResourceClassParameters": "resourceclassparameters",
}
_uids = itertools.count(1)


def corpus_cases() -> Iterator[Any]:
    for path in sorted(CORPUS.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        for entry in document["cases"]:
            yield pytest.param(entry, id=f"{path.stem}/{entry['name']}")


@functools.cache
def judge_without_namespace_rules() -> Judge:
    return Judge.build(PolicySettings(namespace_rules=False))


def admission_review(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The AdmissionReview kube-apiserver would send for this case."""
    operation, subresource = OPERATIONS[entry["operation"]]
    obj = entry["object"]
    kind = obj["kind"]
    metadata = obj.get("metadata") or {}
    request: dict[str, Any] = {
        "uid": f"corpus-structured-{next(_uids)}",
        "kind": {"group": GROUP, "version": VERSION, "kind": kind},
        "resource": {"group": GROUP, "version": VERSION, "resource": RESOURCES[kind]},
        "requestKind": {"group": GROUP, "version": VERSION, "kind": kind},
        "requestResource": {"group": GROUP, "version": VERSION, "resource": RESOURCES[kind]},
        "name": metadata.get("name") or "",
        "namespace": metadata.get("namespace") or "",
        "operation": operation,
        "userInfo": {"username": "kubernetes-admin", "groups": ["system:masters", "system:authenticated"]},
        "object": obj,
        "dryRun": False,
        "options": {"apiVersion": "meta.k8s.io/v1", "kind": f"{operation.title()}Options"},
    }
    if subresource:
        request["subResource"] = subresource
        request["requestSubResource"] = subresource
    if "oldObject" in entry:
        request["oldObject"] = entry["oldObject"]
    return {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": request}


def go_quote(text: str) -> str:
    """`%q` of the printable names the corpus uses (its loader refuses any other)."""
    assert all(char == " " or unicodedata.category(char)[0] in "LMNPS" for char in text), text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def expected_status_message(kind: str, name: str, expected: list[Mapping[str, Any]]) -> str:
    """`apierrors.NewInvalid(...).Error()`: distinct `field: body` strings, bracketed when several."""
    distinct = list(dict.fromkeys(f"{error['field']}: {error['message']}" for error in expected))
    aggregate = distinct[0] if len(distinct) == 1 else "[" + ", ".join(distinct) + "]"
    return f"{kind}.{GROUP} {go_quote(name)} is invalid: {aggregate}"


def test_the_corpus_is_not_empty() -> None:
    files = sorted(path.name for path in CORPUS.glob("*.json"))
    assert len(files) >= 12, files
    assert sum(1 for _ in corpus_cases()) >= 300


@pytest.mark.parametrize("entry", list(corpus_cases()))
def test_the_webhook_answers_as_kube_apiserver_1_30(entry: Mapping[str, Any]) -> None:
    document = admission_review(entry)
    uid = document["request"]["uid"]
    if entry.get("namespaceRules", True):
        answer = review(document)
    else:
        answer = review(document, judge=judge_without_namespace_rules())

    assert answer["apiVersion"] == "admission.k8s.io/v1"
    assert answer["kind"] == "AdmissionReview"
    response = answer["response"]
    assert response["uid"] == uid
    assert response.get("warnings", []) == entry.get("warnings", [])

    expected = entry["expected"]
    if not expected:
        assert response["allowed"] is True, json.dumps(response.get("status"), indent=1)
        assert "status" not in response
        return

    assert response["allowed"] is False
    status = response["status"]
    assert (status["code"], status["reason"], status["status"]) == (422, "Invalid", "Failure"), status
    kind = entry["object"]["kind"]
    name = (entry["object"].get("metadata") or {}).get("name") or ""
    details = status["details"]
    assert (details["group"], details["kind"], details.get("name", "")) == (GROUP, kind, name)

    causes = details["causes"]
    assert [(cause["reason"], cause["field"]) for cause in causes] == [
        (error["type"], error["field"]) for error in expected
    ]
    for cause, error in zip(causes, expected, strict=True):
        if error["message"] is not None:
            assert cause["message"] == error["message"], cause["field"]
        for part in error.get("messageContains", []):
            assert part in cause["message"], cause["field"]
    if all(error["message"] is not None for error in expected):
        assert status["message"] == expected_status_message(kind, name, expected)
