"""The corpus of Kubernetes 1.37's own validation tables for resource.k8s.io/v1 (`v1/*.json`), and how
a case is run end to end through `webhook.review()`.

One file per Go test function of `pkg/apis/resource/validation/validation_{deviceclass,
resourceclaim,resourceclaimtemplate,resourceslice,devicetaintrule}_test.go` (1.37; the commit each was
read from is in the file's `go_test`). Every Go case is there (`origin.go_case`), then variants of our own (`origin.variant`
says which Go code the expectation comes from). The format is that of `claims/` (see
`test_corpus_claims.py`): `operation`, `object`, `oldObject`, `expected` with `type`, `field` and
`message` (null where Go prints a struct whose rendering is not known byte for byte).

The expectations are the API server's answer, not the Go table's: the Go tables call the hand-written
`Validate*` functions alone, while kube-apiserver 1.37 defaults the object first
(`pkg/apis/resource/v1/defaults.go`) and merges the hand-written errors with the declarative ones
(`webhook.rules.v1.lifecycle`): a covered hand-written error with an enforced twin is replaced by the
twin, which comes after every hand-written error; on update a strategy that embeds
`rest.DeclarativeValidation` (ResourceSlice, DeviceTaintRule) first checks the metadata as the REST layer
does. `origin.note` says why a case's answer differs from its Go table, and `origin.go_expected` keeps
the Go table's list where that helps.

Cases whose expectations need real CEL errors carry `"cel": true` and run in
`test_corpus_v1_cel.py` (after the cel branch is merged); the others in `test_corpus_v1.py`.
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
from tests.corpus.test_corpus_claims import expand
from webhook.admission import review

CORPUS = Path(__file__).parent / "v1"
VERSION = "v1"
_uids = itertools.count(1)


def corpus_files(corpus: Path = CORPUS) -> list[Path]:
    return sorted(corpus.glob("*.json"))


def corpus_cases(*, cel: bool, corpus: Path = CORPUS) -> Iterator[Any]:
    for path in corpus_files(corpus):
        document = json.loads(path.read_text(encoding="utf-8"))
        for entry in document["cases"]:
            if bool(entry.get("cel")) != cel:
                continue
            origin = "go" if "go_case" in entry["origin"] else "variant"
            yield pytest.param(entry, id=f"{path.stem}/{origin}:{entry['name']}")


def every_case(*corpora: Path) -> list[Any]:
    """Every case of `corpora`, those that need real CEL errors too, corpus after corpus."""
    return [
        case for corpus in corpora for cel in (False, True) for case in corpus_cases(cel=cel, corpus=corpus)
    ]


def check_answer(entry: Mapping[str, Any], *, version: str = VERSION) -> None:
    """Review the case's AdmissionReview (of `version`) and compare the answer with the case's
    expectation."""
    document = admission_review(entry, uid=f"corpus-{version}-{next(_uids)}", expand=expand, version=version)
    assert_answered_as_go(entry, document, review(document))


__all__ = ["OPERATIONS", "check_answer", "corpus_cases", "corpus_files", "every_case"]
