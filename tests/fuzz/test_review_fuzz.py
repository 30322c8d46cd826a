"""Structured fuzzing of `webhook.review()`: hostile objects and envelopes, every one answered.

`review()` runs exactly what `POST /validate` runs after the body is decoded (the same parsing of
the envelope, the same judge), without HTTP, so thousands of objects go through it in seconds. Each
test starts from valid seeds (`seeds.py`) and breaks them with hostile mutations (`hostile.py`);
the oracle (`oracle.py`) accepts only a proper answer with the request's uid or a 4xx refusal.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.corpus.envelope import admission_review as corpus_review
from tests.corpus.envelope import in_version
from tests.corpus.test_corpus_claims import expand
from tests.corpus.test_corpus_v1_declarative import CORPUS as V1_DECLARATIVE_CORPUS
from tests.corpus.v1_corpus import CORPUS as V1_CORPUS
from tests.corpus.v1_corpus import every_case
from tests.fuzz.hostile import hostile_values, json_values, lone_surrogate_strings, mutated, scalars
from tests.fuzz.oracle import judged
from tests.fuzz.profiles import FUZZ
from tests.fuzz.seeds import KINDS, STATUS_KINDS, admission_review, seed, seed_reviews
from webhook.admission import Judge
from webhook.settings import Enforcement, PolicySettings


@functools.cache
def judge() -> Judge:
    return Judge.build()


@functools.cache
def judge_without_structural_check() -> Judge:
    # With the structural check off, every malformed object reaches the rules themselves.
    return Judge.build(PolicySettings(structural_check=False))


@functools.cache
def warning_judge() -> Judge:
    return Judge.build(PolicySettings(default_enforcement=Enforcement.WARN))


JUDGES = {"default": judge, "rules-only": judge_without_structural_check, "warn": warning_judge}


@pytest.mark.parametrize("document", seed_reviews(), ids=lambda d: d["request"]["uid"])
def test_seeds_are_allowed(document: dict[str, Any]) -> None:
    answer = judged(document, judge())
    assert answer is not None and answer["response"]["allowed"] is True, answer


@st.composite
def object_reviews(draw: st.DrawFn) -> dict[str, Any]:
    """A CREATE, UPDATE or status UPDATE of a mutated seed (and, for updates, a mutated old object)."""
    kind = draw(st.sampled_from(KINDS))
    operation = draw(
        st.sampled_from(
            ("CREATE", "UPDATE", "UPDATE-status") if kind in STATUS_KINDS else ("CREATE", "UPDATE")
        )
    )
    new = draw(mutated(seed(kind)))
    if operation == "CREATE":
        return admission_review(new, kind=kind, uid="fuzz-uid")
    old = draw(st.one_of(st.just(seed(kind)), mutated(seed(kind), max_mutations=2)))
    return admission_review(
        new,
        kind=kind,
        operation="UPDATE",
        old=old,
        sub_resource="status" if operation == "UPDATE-status" else "",
        uid="fuzz-uid",
    )


@FUZZ
@given(document=object_reviews(), judge_name=st.sampled_from(sorted(JUDGES)))
def test_every_mutated_object_gets_an_answer_with_its_uid(document: dict[str, Any], judge_name: str) -> None:
    judged(document, JUDGES[judge_name]())


SEED_REVIEWS = seed_reviews()


@FUZZ
@given(document=st.sampled_from(range(len(SEED_REVIEWS))).flatmap(lambda i: mutated(SEED_REVIEWS[i])))
def test_every_mutated_envelope_gets_an_answer_or_a_4xx(document: Any) -> None:
    """Mutations anywhere in the AdmissionReview: the uid, request.kind, operation, subResource,
    userInfo, dryRun, and the objects; the answer keeps the uid, or the request is refused as
    unreadable (4xx), never a crash."""
    judged(document, judge())


ENVELOPE_FIELDS = (
    "uid",
    "kind",
    "operation",
    "subResource",
    "name",
    "namespace",
    "userInfo",
    "dryRun",
    "object",
    "oldObject",
    "options",
)


@FUZZ
@given(
    index=st.sampled_from(range(len(SEED_REVIEWS))),
    field=st.sampled_from(ENVELOPE_FIELDS),
    value=st.one_of(scalars, json_values, st.just(None)),
)
def test_any_value_in_any_request_field(index: int, field: str, value: Any) -> None:
    document = copy.deepcopy(SEED_REVIEWS[index])
    document["request"][field] = value
    judged(document, judge())


@FUZZ
@given(
    kind=st.sampled_from(KINDS),
    claimed=st.one_of(
        st.sampled_from(KINDS),
        st.sampled_from(("Pod", "ResourceClaimList", "resourceclaim", "", "DeviceClass")),
        st.text(max_size=20),
    ),
    group=st.sampled_from(("resource.k8s.io", "", "core", "resource.k8s.io.evil", "RESOURCE.K8S.IO")),
    version=st.sampled_from(("v1alpha2", "v1alpha3", "v1beta1", "v1", "", "v1alpha2 ")),
    operation=st.sampled_from(("CREATE", "UPDATE", "DELETE", "CONNECT")),
)
def test_objects_whose_kind_disagrees_with_request_kind(
    kind: str, claimed: str, group: str, version: str, operation: str
) -> None:
    """The object says one kind, `request.kind` another: never judged as the wrong kind, never a crash."""
    obj = seed(kind)
    document = admission_review(
        obj, kind=claimed, group=group, version=version, operation=operation, old=seed(kind), uid="mismatch"
    )
    answer = judged(document, judge())
    assert answer is not None
    response = answer["response"]
    judged_as_another_kind = claimed != kind and claimed in KINDS
    if (
        judged_as_another_kind
        and (group, version) == ("resource.k8s.io", "v1alpha2")
        and operation in ("CREATE", "UPDATE")
    ):
        assert response["allowed"] is False and response["status"]["code"] == 400, response


@FUZZ
@given(
    kind=st.sampled_from(KINDS),
    operation=st.sampled_from(("CREATE", "UPDATE")),
    value=hostile_values,
    null_everywhere=st.booleans(),
)
def test_null_or_one_hostile_value_in_every_position_at_once(
    kind: str, operation: str, value: Any, null_everywhere: bool
) -> None:
    """Every leaf of the object replaced at once: by null (Go's zero values everywhere), or by one
    hostile value."""
    replacement = None if null_everywhere else value

    def replaced(node: Any) -> Any:
        if isinstance(node, dict):
            return {key: replaced(child) for key, child in node.items()}
        if isinstance(node, list):
            return [replaced(child) for child in node]
        return copy.deepcopy(replacement)

    obj = replaced(seed(kind))
    document = admission_review(obj, kind=kind, operation=operation, old=replaced(seed(kind)), uid="nulls")
    judged(document, judge())
    judged(document, judge_without_structural_check())


@FUZZ
@given(kind=st.sampled_from(KINDS), text=st.sampled_from(lone_surrogate_strings()), data=st.data())
def test_lone_surrogates_from_python_callers(kind: str, text: str, data: st.DataObject) -> None:
    """A Python caller may hand `review()` strings no JSON decoder produces (lone surrogates)."""
    obj = data.draw(mutated(seed(kind), max_mutations=1, values=st.just(text)))
    judged(admission_review(obj, kind=kind, uid="surrogates"), judge(), encodable=False)


V1_CORPUS_REVIEWS = [
    corpus_review(case.values[0], uid="fuzz-v1", expand=expand)
    for case in every_case(V1_CORPUS, V1_DECLARATIVE_CORPUS)
]


@st.composite
def v1_object_reviews(draw: st.DrawFn) -> dict[str, Any]:
    """A case of the 1.37 corpora (valid and invalid objects of every v1 kind: creates, updates and
    status updates), sent as one of the versions 1.37 judges by v1's rules, its objects mutated."""
    version = draw(st.sampled_from(("v1", "v1", "v1beta2", "v1beta1")))
    document = in_version(draw(st.sampled_from(V1_CORPUS_REVIEWS)), version, None)  # a copy
    request = document["request"]
    request["object"] = draw(mutated(request["object"]))
    if "oldObject" in request and draw(st.booleans()):
        request["oldObject"] = draw(mutated(request["oldObject"], max_mutations=2))
    return document


def test_the_v1_corpora_are_seeds() -> None:
    assert len(V1_CORPUS_REVIEWS) >= 900  # 917 when written


@FUZZ
@given(document=v1_object_reviews(), judge_name=st.sampled_from(sorted(JUDGES)))
def test_every_mutated_v1_object_gets_an_answer_with_its_uid(
    document: dict[str, Any], judge_name: str
) -> None:
    """The 1.37 rules (v1, and v1beta2 and v1beta1 through them) on hostile mutations of every
    corpus case: an answer, never a crash the judge had to catch."""
    judged(document, JUDGES[judge_name]())
