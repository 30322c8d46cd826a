"""Kubernetes 1.31's own validation tables for the five kinds of resource.k8s.io/v1alpha3, run end to
end through `webhook.review()`.

The corpus (`v1alpha3/*.json`) holds one file per Go test function of 1.31's
`pkg/apis/resource/validation/validation_{resourceclaim,resourceclaimtemplate,deviceclass,
podschedulingcontext,resourceslice}_test.go`, in the format of the 1.30 port (`test_corpus_claims.py`):
every Go case (`origin.go_case`), written as the v1alpha3 JSON of the Go object, then variants of our
own (`origin.variant` names the Go code the expectation was derived from): boundary sizes, defaults,
empty and null values, order. Each file's `go_test` says where its table was read from. Where a Go
case cannot be sent as JSON, or where the table read is not 1.31's and 1.31's validation code says
otherwise, the case's `note` says what was changed and why: the 1.31 code wins.

A case marked `"cel": true` expects errors only a CEL compiler finds; it runs in
`test_corpus_v1alpha3_cel.py`. Every other case runs here.

The update cases expect what the webhook reports for 1.31's update strategies (see
`webhook/rules/v1alpha3/strategy.py`): the update validator's errors, as the Go tables assert them,
preceded by those of the create pass that the update validator does not repeat.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.corpus.envelope import (
    GROUP,
    OPERATIONS,
    admission_review,
    assert_answered_as_go,
)
from tests.corpus.test_corpus_claims import expand
from webhook import review

CORPUS = Path(__file__).parent / "v1alpha3"
VERSION = "v1alpha3"
API_VERSION = f"{GROUP}/{VERSION}"
# The Go test functions ported here, and how many cases each Go table has (1.31).
GO_TABLES = {
    "TestValidateClaim": 21,
    "TestValidateClaimUpdate": 2,
    "TestValidateClaimStatusUpdate": 23,
    # 1.31's template table is not stored: 1.33's, less its prioritized-list cases (see the file).
    "TestValidateClaimTemplate": 18,
    "TestValidateClaimTemplateUpdate": 2,
    "TestValidateClass": 18,
    "TestValidateClassUpdate": 2,
    "TestValidatePodSchedulingContexts": 17,
    "TestValidatePodSchedulingUpdate": 5,
    "TestValidatePodSchedulingStatusUpdate": 5,
    # 1.31's ResourceSlice table is not stored: the 1.32-dev one, expectations as 1.31's code (see the file).
    "TestValidateResourceSlice": 35,
    "TestValidateResourceSliceUpdate": 5,
}
# Variants of our own, at least, per kind.
MIN_VARIANTS = {
    "ResourceClaim": 60,
    "ResourceClaimTemplate": 30,
    "DeviceClass": 30,
    "PodSchedulingContext": 20,
    "ResourceSlice": 50,
}
_uids = itertools.count(1)


def corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("*.json"))


def corpus_entries() -> Iterator[tuple[Path, dict[str, Any]]]:
    for path in corpus_files():
        for entry in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            yield path, entry


def corpus_cases(*, cel: bool) -> list[Any]:
    return [
        pytest.param(
            entry, id=f"{path.stem}/{'go' if 'go_case' in entry['origin'] else 'variant'}:{entry['name']}"
        )
        for path, entry in corpus_entries()
        if bool(entry.get("cel")) == cel
    ]


# --- the corpus itself --------------------------------------------------------------------------


def test_every_go_table_is_ported_whole() -> None:
    """One file per Go test function, holding every case of its table, and variants beyond it."""
    assert [path.stem for path in corpus_files()] == sorted(GO_TABLES)
    for path in corpus_files():
        document = json.loads(path.read_text(encoding="utf-8"))
        assert document["go_test"]["function"] == path.stem
        names = [entry["name"] for entry in document["cases"]]
        assert len(names) == len(set(names)), path.name
        go_cases = [entry for entry in document["cases"] if "go_case" in entry["origin"]]
        assert len(go_cases) == GO_TABLES[path.stem], path.name
        assert all(entry["origin"]["go_case"] == entry["name"] for entry in go_cases)
        for entry in document["cases"]:
            assert entry["operation"] in OPERATIONS, entry["name"]
            assert ("oldObject" in entry) == (entry["operation"] != "CREATE"), entry["name"]
            assert entry["object"]["apiVersion"] == API_VERSION, entry["name"]


def test_there_are_variants_beyond_the_go_tables() -> None:
    variants: dict[str, int] = {}
    for _, entry in corpus_entries():
        if "variant" in entry["origin"]:
            kind = entry["object"]["kind"]
            variants[kind] = variants.get(kind, 0) + 1
    assert set(variants) == set(MIN_VARIANTS)
    assert all(variants[kind] >= count for kind, count in MIN_VARIANTS.items()), variants


# --- the end-to-end check -----------------------------------------------------------------------


def check_answer(entry: Mapping[str, Any]) -> None:
    """Send the case through `webhook.review()` and compare the answer with the Go expectation."""
    document = admission_review(entry, uid=f"corpus-v1alpha3-{next(_uids)}", expand=expand, version=VERSION)
    assert_answered_as_go(entry, document, review(document))


@pytest.mark.parametrize("entry", corpus_cases(cel=False))
def test_the_webhook_answers_as_kube_apiserver_1_31(entry: Mapping[str, Any]) -> None:
    check_answer(entry)
