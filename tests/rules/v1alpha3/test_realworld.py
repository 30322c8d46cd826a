"""The v1alpha3 rules over published manifests (`../shared/realworld`, see its INDEX.md; skipped when
absent; `DRA_WEBHOOK_REALWORLD` may name the directory instead).

Every document of a file presumed valid, whose shape the 1.31 OpenAPI accepts, passes the rules of
its kind once the API server has put it in a namespace (or taken it out of one); every document of
the 1.31 round-trip fixtures of kubernetes/api, full of placeholder values, fails them. CEL selectors
are judged by `webhook.cel` and are not what this test is about.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import yaml

from webhook.rules.v1alpha3.kinds import KINDS

REALWORLD = Path(
    os.environ.get("DRA_WEBHOOK_REALWORLD", Path(__file__).parents[3].parent / "shared" / "realworld")
)
API_VERSION = "resource.k8s.io/v1alpha3"
RULES = {rules.gvk.kind: rules for rules in KINDS}

pytestmark = pytest.mark.skipif(not (REALWORLD / "index.json").is_file(), reason=f"{REALWORLD} is absent")


def documents(*, presumed_valid: str, file_prefix: str = "") -> list[Any]:
    """(id, document) params of the v1alpha3 files so marked, documents of the five kinds only."""
    if not (REALWORLD / "index.json").is_file():
        return []
    params = []
    for entry in json.loads((REALWORLD / "index.json").read_text(encoding="utf-8"))["files"]:
        if entry["dir"] != "v1alpha3" or entry["presumed_valid"] != presumed_valid:
            continue
        if not Path(entry["file"]).name.startswith(file_prefix):
            continue
        loaded = list(yaml.safe_load_all((REALWORLD / entry["file"]).read_text(encoding="utf-8")))
        for index, (document, indexed) in enumerate(zip(loaded, entry["docs"], strict=False)):
            if not isinstance(document, dict) or document.get("apiVersion") != API_VERSION:
                continue
            if document.get("kind") in RULES and 31 in indexed.get("schema_ok_in", []):
                params.append(pytest.param(document, id=f"{Path(entry['file']).name}#{index}"))
    return params


def as_the_api_server_has_it(document: dict[str, Any]) -> dict[str, Any]:
    """EnsureObjectNamespaceMatchesRequestNamespace: kubectl's namespace, or none for a cluster-scoped kind."""
    metadata = dict(document.get("metadata") or {})
    if RULES[document["kind"]].namespaced:
        metadata.setdefault("namespace", "default")
    else:
        metadata.pop("namespace", None)
    return {**document, "metadata": metadata}


@pytest.mark.parametrize("document", documents(presumed_valid="YES"))
def test_published_valid_manifests_pass(document: dict[str, Any]) -> None:
    errors = RULES[document["kind"]].validate_create(as_the_api_server_has_it(document))
    assert [str(error) for error in errors] == []


@pytest.mark.parametrize(
    "document", documents(presumed_valid="NO (fixture)", file_prefix="kubernetes__api__testdata__v1.31.0__")
)
def test_the_1_31_round_trip_fixtures_fail(document: dict[str, Any]) -> None:
    assert RULES[document["kind"]].validate_create(as_the_api_server_has_it(document))


def test_the_published_manifests_are_many() -> None:
    assert len(documents(presumed_valid="YES")) >= 30
    assert (
        len(documents(presumed_valid="NO (fixture)", file_prefix="kubernetes__api__testdata__v1.31.0__")) == 5
    )
