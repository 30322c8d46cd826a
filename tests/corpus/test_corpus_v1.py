"""Kubernetes 1.37's validation tables for resource.k8s.io/v1 DeviceClass, ResourceClaim,
ResourceClaimTemplate, ResourceSlice and DeviceTaintRule, run end to end through `webhook.review()` (see
`tests/corpus/v1_corpus.py`).
The cases that need real CEL errors run in `test_corpus_v1_cel.py`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from tests.corpus.v1_corpus import OPERATIONS, check_answer, corpus_cases, corpus_files

# The Go test functions ported, with the number of cases of each Go table (derivedAttributes cases,
# which are not part of 1.37, left out: see each file's go_test).
GO_TABLES = {
    "TestValidateClass": 22,
    "TestValidateClassUpdate": 4,
    "TestValidateClaim": 42,
    "TestValidateClaimUpdate": 3,
    "TestValidateClaimStatusUpdate": 59,
    "TestValidateClaimTemplate": 21,
    "TestValidateClaimTemplateUpdate": 3,
    "TestValidateResourceSlice": 124,
    "TestValidateResourceSliceUpdate": 20,
    "TestValidateDeviceTaint": 22,
    "TestValidateDeviceTaintUpdate": 4,
}


def test_every_go_table_is_ported_whole() -> None:
    assert sorted(path.stem for path in corpus_files()) == sorted(GO_TABLES)
    for path in corpus_files():
        document = json.loads(path.read_text(encoding="utf-8"))
        assert document["go_test"]["function"] == path.stem
        names = [entry["name"] for entry in document["cases"]]
        assert len(names) == len(set(names)), path.name
        go_cases = [entry for entry in document["cases"] if "go_case" in entry["origin"]]
        assert len(go_cases) == GO_TABLES[path.stem], path.name
        for entry in document["cases"]:
            assert entry["operation"] in OPERATIONS, entry["name"]
            assert ("oldObject" in entry) == (entry["operation"] != "CREATE"), entry["name"]


@pytest.mark.parametrize("entry", list(corpus_cases(cel=False)))
def test_the_webhook_answers_as_kube_apiserver_1_37(entry: Mapping[str, Any]) -> None:
    check_answer(entry)
