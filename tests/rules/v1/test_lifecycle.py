"""How 1.37 merges hand-written and declarative errors (`ValidateDeclarativelyWithMigrationChecks`)."""

from __future__ import annotations

import pytest

from webhook.field import ROOT, FieldError, Stability, covered_by_declarative, invalid, required, with_origin
from webhook.rules.v1.declarative import alpha, beta
from webhook.rules.v1.lifecycle import enforced_declarative_errors, merge_validations

A, B = ROOT.child("a"), ROOT.child("b")


def covered(error: FieldError, origin: str = "") -> FieldError:
    return covered_by_declarative(with_origin([error], origin))[0]


def declared(error: FieldError, origin: str = "", stability: Stability = Stability.BETA) -> FieldError:
    marked = with_origin([error], origin)
    return (
        beta(marked)
        if stability is Stability.BETA
        else alpha(marked)
        if stability is Stability.ALPHA
        else marked
    )[0]


def test_alpha_declarative_errors_are_never_enforced() -> None:
    errors = [
        declared(required(A), stability=Stability.ALPHA),
        declared(required(B), stability=Stability.STANDARD),
    ]
    assert [error.field for error in enforced_declarative_errors(errors)] == ["b"]


@pytest.mark.parametrize(
    ("handwritten", "declarative", "fields"),
    [
        # A covered error with a beta twin (same type, field and origin) gives way to it; the twin comes last.
        ([covered(required(A)), required(B)], [declared(required(A))], ["b", "a"]),
        # Without the covered mark, both stay.
        ([required(A)], [declared(required(A))], ["a", "a"]),
        # A covered error without a twin stays.
        ([covered(required(A))], [declared(required(B))], ["a", "b"]),
        # Invalid errors are twins only when both have an origin, and the same one.
        ([covered(invalid(A, "x", "m"))], [declared(invalid(A, "x", "n"))], ["a", "a"]),
        ([covered(invalid(A, "x", "m"), "format=x")], [declared(invalid(A, "y", "n"), "format=x")], ["a"]),
        (
            [covered(invalid(A, "x", "m"), "format=x")],
            [declared(invalid(A, "y", "n"), "format=y")],
            ["a", "a"],
        ),
        # Only beta errors replace: a standard declarative error is added, the covered one stays.
        ([covered(required(A))], [declared(required(A), stability=Stability.STANDARD)], ["a", "a"]),
        # An alpha twin is shadow: it neither replaces nor shows.
        ([covered(required(A))], [declared(required(A), stability=Stability.ALPHA)], ["a"]),
    ],
)
def test_covered_handwritten_errors_give_way_to_enforced_beta_twins(
    handwritten: list[FieldError], declarative: list[FieldError], fields: list[str]
) -> None:
    assert [error.field for error in merge_validations(handwritten, declarative)] == fields


def test_one_twin_replaces_every_covered_error_it_matches() -> None:
    handwritten = [covered(invalid(A, "x", "m1"), "o"), covered(invalid(A, "x", "m2"), "o")]
    merged = merge_validations(handwritten, [declared(invalid(A, "x", "d"), "o")])
    assert [error.detail for error in merged] == ["d"]


def test_a_repeated_hand_written_text_is_reported_once() -> None:
    # ErrorList.Filter goes through ToAggregate, which keeps the first of equal texts.
    error = invalid(A, "x", "m")
    assert merge_validations([error, required(B), error], []) == [error, required(B)]


def test_a_repeat_of_a_replaced_error_goes_with_it() -> None:
    error = covered(required(A))
    assert [e.field for e in merge_validations([error, error], [declared(required(A))])] == ["a"]


def test_declarative_errors_are_not_deduplicated() -> None:
    twice = [declared(required(A), stability=Stability.STANDARD)] * 2
    assert len(merge_validations([], twice)) == 2
