"""Kubernetes 1.37's declarative validation tables for resource.k8s.io/v1 DeviceClass, ResourceClaim
(+status), ResourceClaimTemplate and ResourceSlice, run end to end through `webhook.review()` (the
format and the runner are `tests/corpus/v1_corpus.py`'s).

One file per Go test function of `pkg/registry/resource/<kind>/declarative_validation_test.go`, named
`<kind>_<function>.json` (`resourceclaim_TestDeclarativeValidate.json`). These tables run the kind's
REST strategy (defaulting, the hand-written validation, the declarative validation and their merge by
`rest.ValidateDeclarativelyWithMigrationChecks`): they are the API server's answers for a whole
object, not one validator's. Each file's `go_test` says where and at which commit it was read and
`go_cases` how many cases its Go table has; every Go case is here (`origin.go_case`), then variants
of our own (`origin.variant`). The Go tables match errors by type, field and origin; the messages
here are those of the validators they name.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.corpus.v1_corpus import OPERATIONS, check_answer, corpus_files, every_case

CORPUS = Path(__file__).parent / "v1_declarative"
KINDS = ("deviceclass", "resourceclaim", "resourceclaimtemplate", "resourceslice")


def test_every_kind_has_its_tables() -> None:
    functions = {path.stem for path in corpus_files(CORPUS)}
    assert functions >= {f"{kind}_TestDeclarativeValidate" for kind in KINDS}
    assert functions >= {f"{kind}_TestDeclarativeValidateUpdate" for kind in KINDS}
    assert "resourceclaim_TestValidateStatusUpdateForDeclarative" in functions


def test_every_go_table_is_ported_whole() -> None:
    for path in corpus_files(CORPUS):
        document = json.loads(path.read_text(encoding="utf-8"))
        kind, _, function = path.stem.partition("_")
        assert kind in KINDS, path.name
        assert document["go_test"]["file"] == f"pkg/registry/resource/{kind}/declarative_validation_test.go"
        assert document["go_test"]["function"] == function
        names = [entry["name"] for entry in document["cases"]]
        assert len(names) == len(set(names)), path.name
        go_cases = [entry for entry in document["cases"] if "go_case" in entry["origin"]]
        assert len(go_cases) == document["go_test"]["go_cases"], path.name
        for entry in document["cases"]:
            assert entry["operation"] in OPERATIONS, entry["name"]
            assert ("oldObject" in entry) == (entry["operation"] != "CREATE"), entry["name"]
            assert entry["object"]["apiVersion"] == "resource.k8s.io/v1", entry["name"]


@pytest.mark.parametrize("entry", every_case(CORPUS))
def test_the_webhook_answers_as_kube_apiserver_1_37(entry: Mapping[str, Any]) -> None:
    check_answer(entry)
