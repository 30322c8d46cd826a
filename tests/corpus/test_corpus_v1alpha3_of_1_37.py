"""The kinds Kubernetes 1.37 serves under resource.k8s.io/v1alpha3, judged as 1.37, end to end through
`webhook.review()` (the format and the runner are `tests/corpus/v1_corpus.py`'s):

* ResourcePoolStatusRequest: its 1.37 tables in `v1alpha3_of_1_37/` -- the hand-written validation's
  (`validation_resourcepoolstatusrequest_test.go`) and the declarative validation's
  (`pkg/registry/resource/resourcepoolstatusrequest/declarative_validation_test.go`), each Go case and
  variants of our own; each file's `go_test` says where it was read. The declarative table matches
  errors by type, field and origin only; the messages here are those of the validators it names.
* DeviceTaintRule: 1.37 serves it in v1's shape and validates it as v1's, so every case of the v1 tables
  (`v1/TestValidateDeviceTaint*.json`) is run again as a v1alpha3 object, with the same answer.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.corpus.v1_corpus import CORPUS as V1_CORPUS
from tests.corpus.v1_corpus import OPERATIONS, check_answer, corpus_cases, corpus_files

CORPUS = Path(__file__).parent / "v1alpha3_of_1_37"
VERSION = "v1alpha3"
API_VERSION = f"resource.k8s.io/{VERSION}"
GO_TABLES = {
    "TestValidateResourcePoolStatusRequest": 8,
    "TestValidateResourcePoolStatusRequestUpdate": 1,
    "TestValidateResourcePoolStatusRequestStatusUpdate": 3,
    "TestDeclarativeValidate": 14,
    "TestDeclarativeValidateUpdate": 2,
    "TestDeclarativeValidateStatusUpdate": 37,
}


def test_every_go_table_is_ported_whole() -> None:
    assert sorted(path.stem for path in corpus_files(CORPUS)) == sorted(GO_TABLES)
    for path in corpus_files(CORPUS):
        document = json.loads(path.read_text(encoding="utf-8"))
        assert document["go_test"]["function"] == path.stem
        names = [entry["name"] for entry in document["cases"]]
        assert len(names) == len(set(names)), path.name
        go_cases = [entry for entry in document["cases"] if "go_case" in entry["origin"]]
        assert len(go_cases) == GO_TABLES[path.stem], path.name
        for entry in document["cases"]:
            assert entry["operation"] in OPERATIONS, entry["name"]
            assert ("oldObject" in entry) == (entry["operation"] != "CREATE"), entry["name"]
            assert entry["object"]["apiVersion"] == API_VERSION, entry["name"]


@pytest.mark.parametrize("entry", list(corpus_cases(cel=False, corpus=CORPUS)))
def test_resource_pool_status_requests_are_judged_as_kube_apiserver_1_37(entry: Mapping[str, Any]) -> None:
    check_answer(entry, version=VERSION)


def device_taint_rule_cases() -> Iterator[Any]:
    """The v1 DeviceTaintRule cases, as v1alpha3 objects."""
    for path in corpus_files(V1_CORPUS):
        if not path.stem.startswith("TestValidateDeviceTaint"):
            continue
        for entry in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            as_v1alpha3 = copy.deepcopy(entry)
            for key in ("object", "oldObject"):
                if key in as_v1alpha3:
                    as_v1alpha3[key]["apiVersion"] = API_VERSION
            yield pytest.param(as_v1alpha3, id=f"{path.stem}/{entry['name']}")


def test_the_device_taint_rule_tables_are_all_here() -> None:
    assert len(list(device_taint_rule_cases())) >= 26  # the 22 + 4 Go cases, and variants


@pytest.mark.parametrize("entry", list(device_taint_rule_cases()))
def test_device_taint_rules_are_judged_as_in_v1(entry: Mapping[str, Any]) -> None:
    check_answer(entry, version=VERSION)
