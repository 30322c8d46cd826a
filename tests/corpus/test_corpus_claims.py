"""Kubernetes 1.30's own validation tables for ResourceClaim, ResourceClaimTemplate and ResourceClass,
run end to end through `webhook.review()`.

The corpus (`claims/*.json`) holds one file per Go test function of
`pkg/apis/resource/validation/validation_resource{claim,claimtemplate,class}_test.go` (1.30):
`TestValidateClaim`, `TestValidateClaimUpdate`, `TestValidateClaimStatusUpdate`,
`TestValidateClaimTemplate`, `TestValidateClaimTemplateUpdate`, `TestValidateClass`,
`TestValidateClassUpdate`. Each file's `go_test` names the Go function, the validator it calls and the
repository and commit the table was read from. Every Go case is there (`origin.go_case` names it),
written as the v1alpha2 JSON of the Go object, followed by variants of our own (`origin.variant` says
which Go code the expectation was derived from): boundary sizes, unicode, empty strings, nulls.

A case: `name`, `operation` (CREATE, UPDATE or UPDATE+status), `object`, `oldObject` for updates,
optional `warnings` (the webhook's own, e.g. an unknown reference scope) and `expected`, the Go
`wantFailures` in order: `type` (the cause reason), `field`, and `message` (the error body). A `message`
of null marks a value Go prints as a struct literal (`%#v` of a ResourceClaimSpec; `go_value` names the
Go type): those are compared by field and type only.
Large values are written with macros, expanded before the review is built:
`{"$repeat": s, "times": n}` (a string), `{"$concat": [...]}` (strings joined),
`{"$items": template, "count": n, "start": k}` (a list; "{i}" in the template's strings becomes the
index, counted from `start`, 0 when absent) and `{"$chain": [list, ...]}` (lists joined).

Every case runs with the default judge -- envelope, structural check, rules and the webhook's
namespace policy: no Go case in these tables trips the policy (a reference of unknown scope only
warns), so nothing is switched off. The Go update tests call `Validate*Update` directly; the webhook
answers with exactly that list (ObjectMetaUpdate errors, then the immutable fields, then the create
validation of the new object), so an error Go reports twice there is expected twice here.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.corpus.envelope import (
    OPERATIONS,
    admission_review,
    assert_answered_as_go,
)
from webhook import review

CORPUS = Path(__file__).parent / "claims"
# The kinds of this corpus.
KINDS = {"ResourceClaim", "ResourceClaimTemplate", "ResourceClass"}
# The Go test functions ported here, and how many cases each Go table has (1.30).
GO_TABLES = {
    "TestValidateClaim": 22,
    "TestValidateClaimUpdate": 4,
    "TestValidateClaimStatusUpdate": 30,
    "TestValidateClaimTemplate": 22,
    "TestValidateClaimTemplateUpdate": 4,
    "TestValidateClass": 25,
    "TestValidateClassUpdate": 2,
}
_uids = itertools.count(1)


# --- loading ------------------------------------------------------------------------------------


def corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("*.json"))


def corpus_cases() -> Iterator[Any]:
    for path in corpus_files():
        document = json.loads(path.read_text(encoding="utf-8"))
        for entry in document["cases"]:
            origin = "go" if "go_case" in entry["origin"] else "variant"
            yield pytest.param(entry, id=f"{path.stem}/{origin}:{entry['name']}")


def expand(value: Any, index: int | None = None) -> Any:
    """Expand the corpus macros (see the module docstring); "{i}" is replaced inside `$items`."""
    if isinstance(value, Mapping):
        if "$repeat" in value:
            return str(value["$repeat"]) * int(value["times"])
        if "$concat" in value:
            return "".join(expand(part, index) for part in value["$concat"])
        if "$items" in value:
            start = int(value.get("start", 0))
            return [expand(value["$items"], i) for i in range(start, start + int(value["count"]))]
        if "$chain" in value:
            return [item for part in value["$chain"] for item in expand(part, index)]
        return {key: expand(item, index) for key, item in value.items()}
    if isinstance(value, list):
        return [expand(item, index) for item in value]
    if isinstance(value, str) and index is not None:
        return value.replace("{i}", str(index))
    return value


# --- the request and the expected answer --------------------------------------------------------


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


def test_there_are_about_thirty_variants_per_kind() -> None:
    variants: dict[str, int] = {}
    for path in corpus_files():
        for entry in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            if "variant" in entry["origin"]:
                kind = entry["object"]["kind"]
                variants[kind] = variants.get(kind, 0) + 1
    assert set(variants) == KINDS
    assert all(count >= 30 for count in variants.values()), variants


def test_the_macros_expand() -> None:
    template = {"name": "pod-{i}", "data": {"$concat": [{"$repeat": "é", "times": 2}, "!"]}}
    assert expand({"$items": template, "count": 2}) == [
        {"name": "pod-0", "data": "éé!"},
        {"name": "pod-1", "data": "éé!"},
    ]
    assert expand({"keep": "{i}"}) == {"keep": "{i}"}


# --- the end-to-end check -----------------------------------------------------------------------


@pytest.mark.parametrize("entry", list(corpus_cases()))
def test_the_webhook_answers_as_kube_apiserver_1_30(entry: Mapping[str, Any]) -> None:
    document = admission_review(entry, uid=f"corpus-claims-{next(_uids)}", expand=expand)
    assert_answered_as_go(entry, document, review(document))
