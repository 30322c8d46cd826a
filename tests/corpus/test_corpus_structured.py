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
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.corpus.envelope import GROUP, admission_review, expected_status_message
from webhook import review
from webhook.admission import Judge
from webhook.settings import PolicySettings

CORPUS = Path(__file__).parent / "structured"
_uids = itertools.count(1)


def corpus_cases() -> Iterator[Any]:
    for path in sorted(CORPUS.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        for entry in document["cases"]:
            yield pytest.param(entry, id=f"{path.stem}/{entry['name']}")


@functools.cache
def judge_without_namespace_rules() -> Judge:
    return Judge.build(PolicySettings(namespace_rules=False))


def test_the_corpus_is_not_empty() -> None:
    files = sorted(path.name for path in CORPUS.glob("*.json"))
    assert len(files) >= 12, files
    assert sum(1 for _ in corpus_cases()) >= 300


@pytest.mark.parametrize("entry", list(corpus_cases()))
def test_the_webhook_answers_as_kube_apiserver_1_30(entry: Mapping[str, Any]) -> None:
    document = admission_review(entry, uid=f"corpus-structured-{next(_uids)}")
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
