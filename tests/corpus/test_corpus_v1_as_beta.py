"""The 1.37 corpora (the validation tables in tests/corpus/v1/, the declarative validation tables in
tests/corpus/v1_declarative/) re-expressed in the older apiVersions a 1.37 API server serves,
which it converts to its internal type and judges by the same rules:

* as **v1beta2** (v1's shape): the same answer, case by case -- verdict, cause fields, types and
  messages (1.37 reports every path of a v1beta2 object as v1's, docs/versions.md), in the same
  order but where v1beta2's tags order a driver's checks otherwise (`webhook.rules.declaredorder`);
* as **v1beta1** (request fields beside the request instead of under `exactly`, slice devices under
  `basic`): each object converted from v1 as 1.37 converts it back (`webhook.rules.v1beta1.conversion`),
  the same verdict. v1beta1 has no DeviceTaintRule, and a case whose object v1beta1 cannot carry (a
  field 1.37 added to v1 only, such as `partitionTypeAttribute` or `nodeAllocatableResources`; a
  `nodeName: ""` that the conversion drops) is not a v1beta1 case: only the cases whose objects come
  back from v1beta1 unchanged are re-expressed.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from tests.corpus.envelope import admission_review, in_version
from tests.corpus.test_corpus_claims import expand
from tests.corpus.test_corpus_v1_declarative import CORPUS as DECLARATIVE_CORPUS
from tests.corpus.v1_corpus import CORPUS
from tests.corpus.v1_corpus import every_case as every_v1_case
from webhook.admission import review
from webhook.field import ErrorType
from webhook.rules.kinds import Obj
from webhook.rules.v1beta1.conversion import (
    claim_from_v1,
    claim_template_from_v1,
    claim_template_to_v1,
    claim_to_v1,
    device_class_from_v1,
    device_class_to_v1,
    resource_slice_from_v1,
    resource_slice_to_v1,
)

_uids = itertools.count(1)
# The `driver` of a configuration's opaque part, which v1beta2 tags maxLength before its format.
OPAQUE_DRIVER_PATH = re.compile(r"(?:.+\.)?config\[\d+\]\.opaque\.driver", re.DOTALL)
V1BETA1_FROM_V1: dict[str, Callable[[Obj], Obj]] = {
    "DeviceClass": device_class_from_v1,
    "ResourceClaim": claim_from_v1,
    "ResourceClaimTemplate": claim_template_from_v1,
    "ResourceSlice": resource_slice_from_v1,
}


def every_case() -> list[Any]:
    return every_v1_case(CORPUS, DECLARATIVE_CORPUS)


def answer_of(entry: Mapping[str, Any], version: str) -> dict[str, Any]:
    document = admission_review(entry, uid=f"corpus-as-{version}-{next(_uids)}", expand=expand, version="v1")
    kind = document["request"]["object"]["kind"]
    convert = V1BETA1_FROM_V1[kind] if version == "v1beta1" else None
    response: dict[str, Any] = review(in_version(document, version, convert))["response"]
    return response


def in_v1beta2_tag_order(causes: list[dict[str, str]]) -> list[dict[str, str]]:
    """v1's causes in the order 1.37 gives them for v1beta2: at a configuration's driver, the
    TooLong of its `maxLength` tag before the Invalid ones of its format tag."""
    ordered: list[dict[str, str]] = []
    for cause in causes:
        at = len(ordered)
        if cause["reason"] == ErrorType.TOO_LONG.value and OPAQUE_DRIVER_PATH.fullmatch(cause["field"]):
            while at and ordered[at - 1]["field"] == cause["field"]:
                at -= 1
        ordered.insert(at, cause)
    return ordered


@pytest.mark.parametrize("entry", every_case())
def test_a_v1beta2_object_gets_the_answer_of_its_v1_twin(entry: Mapping[str, Any]) -> None:
    v1, v1beta2 = answer_of(entry, "v1"), answer_of(entry, "v1beta2")
    assert v1beta2["allowed"] is v1["allowed"]
    if not v1["allowed"]:
        causes = v1["status"]["details"]["causes"]
        expected = in_v1beta2_tag_order(causes)
        assert v1beta2["status"]["details"]["causes"] == expected
        if expected == causes:
            assert v1beta2["status"]["message"] == v1["status"]["message"]
        else:  # the same errors in another order
            assert sorted(v1beta2["status"]["message"]) == sorted(v1["status"]["message"])


V1_FROM_V1BETA1: dict[str, Callable[[Obj], Obj]] = {
    "DeviceClass": device_class_to_v1,
    "ResourceClaim": claim_to_v1,
    "ResourceClaimTemplate": claim_template_to_v1,
    "ResourceSlice": resource_slice_to_v1,
}


def carried_by_v1beta1(entry: Mapping[str, Any]) -> bool:
    """Whether every object of the case comes back from v1beta1 as it was (its apiVersion aside)."""
    for field in ("object", "oldObject"):
        if field not in entry:
            continue
        obj = expand(entry[field])
        kind = obj.get("kind")
        if kind not in V1BETA1_FROM_V1:
            return False
        back = dict(
            V1_FROM_V1BETA1[kind]({**V1BETA1_FROM_V1[kind](obj), "apiVersion": "resource.k8s.io/v1beta1"})
        )
        if {**back, "apiVersion": obj.get("apiVersion")} != obj:
            return False
    return True


V1BETA1_CASES = [case for case in every_case() if carried_by_v1beta1(case.values[0])]


def test_most_of_the_corpus_is_a_v1beta1_corpus_too() -> None:
    assert len(V1BETA1_CASES) >= 0.75 * len(
        [case for case in every_case() if case.values[0]["object"].get("kind") in V1BETA1_FROM_V1]
    )


@pytest.mark.parametrize("entry", V1BETA1_CASES)
def test_a_v1beta1_object_gets_the_verdict_of_its_v1_twin(entry: Mapping[str, Any]) -> None:
    assert answer_of(entry, "v1beta1")["allowed"] is answer_of(entry, "v1")["allowed"]
