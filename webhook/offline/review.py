"""`dra-webhook review`: every review of the inputs judged, held against its expectation, reported
(or its answer printed), and the exit code."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TextIO

import orjson

from webhook.offline.documents import UnreadableInput, location
from webhook.offline.expectations import Expectation, ExpectationRule, SuiteError, load_expectation_rules
from webhook.offline.inputs import (
    REVIEW_SUFFIXES,
    STDIN,
    display_name,
    expand_paths,
    read_input,
    read_stdin_once,
)
from webhook.offline.progress import Progress
from webhook.offline.reports import (
    EXIT_UNREADABLE,
    PLAIN,
    Case,
    Line,
    Report,
    Style,
    Tally,
    counted,
    make_report,
)
from webhook.offline.review_judge import JudgedReview, ReviewJudge
from webhook.offline.workers import judge_in_order
from webhook.rules.values import mapping, text
from webhook.settings import PolicySettings

ReviewStatus = Literal["pass", "fail", "error"]


@dataclass(frozen=True, slots=True)
class ReviewOutcome:
    judged: JudgedReview
    status: ReviewStatus
    expected: bool  # an expectation applied (else: pass means allowed, fail means denied)
    problems: tuple[str, ...] = ()

    @property
    def response(self) -> Mapping[str, Any]:
        return mapping(mapping(self.judged.answer).get("response"))

    def line(self) -> str:
        judged = self.judged
        if self.status == "error":
            where = location(judged.source, judged.line)
            title = (
                f"{where} ({judged.name})" if judged.from_suite and judged.name != judged.source else where
            )
            return f"ERROR {title}: {judged.error}"
        if self.expected:
            return (
                f"PASS {judged.name}"
                if self.status == "pass"
                else f"FAIL {judged.name}: " + "; ".join(self.problems)
            )
        if self.status == "pass":
            return f"ALLOWED {judged.name}"
        return f"DENIED {judged.name}: {self._denial()}"

    def _denial(self) -> str:
        return text(mapping(self.response.get("status")).get("message"))

    def case(self) -> Case:
        judged = self.judged
        if self.status == "error":
            return Case(judged.source, judged.name, "error", judged.error)
        if self.status == "pass":
            return Case(judged.source, judged.name, "pass")
        message = "; ".join(self.problems) if self.expected else f"denied: {self._denial()}"
        return Case(judged.source, judged.name, "fail", message, _cause_lines(self.response))

    def as_json(self) -> dict[str, Any]:
        judged = self.judged
        result: dict[str, Any] = {
            "source": judged.source,
            "line": judged.line,
            "name": judged.name,
            "status": self.status,
            "expected": self.expected,
        }
        if judged.uid:
            result["uid"] = judged.uid
        if judged.release is not None:
            result["apiVersion"] = judged.api_version
            result["release"] = judged.release.version
        if judged.error:
            result["error"] = judged.error
        if self.problems:
            result["problems"] = list(self.problems)
        if judged.answer is not None:
            result["answer"] = judged.answer
        return result


def _cause_lines(response: Mapping[str, Any]) -> tuple[str, ...]:
    causes = mapping(mapping(response.get("status")).get("details")).get("causes")
    if not isinstance(causes, list):
        return ()
    return tuple(
        f"{cause.get('field')}: {cause.get('message')}" for cause in causes if isinstance(cause, Mapping)
    )


def evaluate(judged: JudgedReview, rules: Sequence[ExpectationRule], used: set[int]) -> ReviewOutcome:
    """Hold one judged review against its expectation: the suite's, else the first `--expect`
    rule that matches it, else "must be allowed"."""
    if judged.error:
        return ReviewOutcome(judged, "error", judged.from_suite)
    response = mapping(mapping(judged.answer).get("response"))
    expect = judged.expect
    if expect is None and not judged.from_suite:
        for index, rule in enumerate(rules):
            if rule.matches(judged.source, judged.uid):
                used.add(index)
                expect = rule.expect
                break
    if expect is None and not judged.from_suite:
        return ReviewOutcome(judged, "pass" if response.get("allowed") is True else "fail", False)
    problems = (expect or Expectation()).problems(response)
    return ReviewOutcome(judged, "fail" if problems else "pass", True, tuple(problems))


@dataclass(frozen=True, slots=True)
class ReviewRun:
    """`dra-webhook review`, as its flags asked for it."""

    inputs: tuple[str, ...]
    expect: tuple[str, ...] = ()
    policy: PolicySettings = field(default_factory=PolicySettings)
    output: str | None = None  # None: answers, or text when there are expectations or suites
    compact: bool = False
    summary: bool = False
    jobs: int = 1
    style: Style = PLAIN  # the text form: plain, or pretty on a terminal


def run_review(
    run: ReviewRun,
    *,
    out: TextIO,
    err: TextIO,
    read_stdin: Callable[[], bytes],
    progress: TextIO | None = None,
) -> int:
    """Judge every review of the inputs, hold them against their expectations, report, exit code."""
    rules: list[ExpectationRule] = []
    for path in run.expect:
        try:
            rules.extend(load_expectation_rules(display_name(path), read_input(path, read_stdin)))
        except (SuiteError, UnreadableInput) as problem:
            err.write(f"{problem}\n")
            return EXIT_UNREADABLE
    # An expectation file kept beside the reviews it is for is not itself a review.
    expect_files = {os.path.realpath(path) for path in run.expect if path != STDIN}
    paths = [
        path
        for path in expand_paths(run.inputs, REVIEW_SUFFIXES)
        if path == STDIN or os.path.realpath(path) not in expect_files
    ]
    tasks = read_stdin_once(paths, read_stdin)
    review_judge = ReviewJudge.build(run.policy)
    answers = ReviewAnswers(out, err, compact=run.compact)
    output = run.output
    tally = Tally()
    used: set[int] = set()
    meter = Progress(progress, total_files=len(tasks), noun="reviews")
    report: Report | None = (
        None
        if output in (None, "answers")
        else make_report(output, out, summary=run.summary, title="dra-webhook review", style=run.style)
    )
    pending: list[ReviewOutcome] = []  # the default output decides answers-or-text on the first suite
    try:
        for judged_reviews in judge_in_order(
            review_judge,
            tasks,
            jobs=run.jobs,
            build_worker_judge=functools.partial(ReviewJudge.build, run.policy),
        ):
            tally.files += 1
            outcomes = [evaluate(judged, rules, used) for judged in judged_reviews]
            for outcome in outcomes:
                tally.add(outcome.status)
            meter.clear()  # no result is ever written after a progress line on the same terminal
            if output is None:
                pending.extend(outcomes)
                if rules or any(outcome.judged.from_suite for outcome in outcomes):
                    output = "text"
                    report = make_report(
                        output, out, summary=run.summary, title="dra-webhook review", style=run.style
                    )
                    _add_outcomes(report, pending)
                    pending = []
            elif report is None:
                answers.add(outcomes)
            else:
                _add_outcomes(report, outcomes)
            meter.advance(len(judged_reviews))
    finally:
        meter.finish()
    if pending:
        answers.add(pending)
    unused = [
        ReviewOutcome(JudgedReview(rule.origin, 0, rule.origin), "fail", True, ("matched no review",))
        for index, rule in enumerate(rules)
        if index not in used
    ]
    for outcome in unused:
        tally.add(outcome.status)
    if report is not None:
        _add_outcomes(report, unused)
    else:
        answers.add(unused)
    summary_line = review_summary_line(tally)
    if report is not None:
        report.finish(_review_summary(tally), summary_line)
    if run.summary and output != "text":
        err.write(summary_line + "\n")
    return tally.exit_code


def _add_outcomes(report: Report, outcomes: Sequence[ReviewOutcome]) -> None:
    report.add(
        [outcome.case() for outcome in outcomes],
        [outcome.as_json() for outcome in outcomes],
        [Line("ok" if outcome.status == "pass" else "fail", outcome.line()) for outcome in outcomes],
    )


class ReviewAnswers:
    """The `answers` output: each AdmissionReview answer as JSON on `out`, problems on `err`."""

    def __init__(self, out: TextIO, err: TextIO, *, compact: bool) -> None:
        self.out = out
        self.err = err
        self.option = 0 if compact else orjson.OPT_INDENT_2

    def add(self, outcomes: Iterable[ReviewOutcome]) -> None:
        for outcome in outcomes:
            judged = outcome.judged
            if judged.answer is not None:
                self.out.write(orjson.dumps(judged.answer, option=self.option).decode() + "\n")
            if outcome.status == "error":
                where = location(judged.source, judged.line if judged.from_suite else 0)
                self.err.write(f"{where}: {judged.error}\n")
            elif outcome.expected and outcome.status == "fail":
                self.err.write(outcome.line() + "\n")


def _review_summary(tally: Tally) -> dict[str, int]:
    return {
        "files": tally.files,
        "reviews": tally.objects,
        "passed": tally.valid,
        "failed": tally.invalid,
        "errors": tally.errors,
    }


def review_summary_line(tally: Tally) -> str:
    return (
        f"Summary: {counted(tally.objects + tally.errors, 'review')} in {counted(tally.files, 'file')}: "
        f"{tally.valid} passed, {tally.invalid} failed, {counted(tally.errors, 'error')}"
    )
