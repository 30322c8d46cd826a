"""Judging review files: every AdmissionReview of a file, and every test of a suite, answered by the
`Judge` the server uses."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from webhook.admission import Judge, UnreadableReview, parse_review, review_response
from webhook.offline.documents import Document, ReadResult, UnreadableInput
from webhook.offline.expectations import Expectation
from webhook.offline.inputs import display_name, no_stdin, read_documents, read_input
from webhook.offline.suites import is_suite, lines_of_suite_tests, suite_tests
from webhook.registry import api_version_of
from webhook.release import Release
from webhook.settings import PolicySettings


@dataclass(frozen=True, slots=True)
class JudgedReview:
    """One review judged (or found unreadable), with the suite's expectation if it came from one."""

    source: str
    line: int
    name: str
    uid: str = ""
    answer: Mapping[str, Any] | None = None
    error: str = ""
    from_suite: bool = False
    expect: Expectation | None = None
    # The reviewed object's apiVersion and the release it was judged as, when its kind is registered.
    api_version: str = ""
    release: Release | None = None


class ReviewJudge:
    """Reads review files and suites and judges every AdmissionReview in them."""

    def __init__(self, judge: Judge) -> None:
        self.judge = judge

    @classmethod
    def build(cls, policy: PolicySettings) -> ReviewJudge:
        return cls(Judge.build(policy))

    def judge_input(self, path: str, content: bytes | None = None) -> list[JudgedReview]:
        source = display_name(path)
        try:
            data = content if content is not None else read_input(path, no_stdin)
        except UnreadableInput as problem:
            return [JudgedReview(source, 0, source, error=problem.reason)]
        read = read_documents(source, data)
        judged: list[JudgedReview] = []
        several = len(read.documents) > 1
        suite_lines: Mapping[int, Sequence[int]] | None = None  # read once, for the first suite
        for document in read.documents:
            if document.data is None:
                continue
            name = f"{source}:{document.line}" if several else source
            if is_suite(document.data):
                if suite_lines is None:
                    suite_lines = lines_of_suite_tests(data)
                judged.extend(self.judge_suite(source, document, suite_lines.get(document.line, ())))
            else:
                judged.append(self.judge_review(source, document.line, name, document.data))
        if read.error is not None:
            judged.append(JudgedReview(source, read.error.line, source, error=_review_read_error(read)))
        return judged

    def judge_review(self, source: str, line: int, name: str, document: Any) -> JudgedReview:
        try:
            parsed = parse_review(document if isinstance(document, Mapping) else orjson.dumps(document))
        except UnreadableReview as unreadable:
            return JudgedReview(source, line, name, error=unreadable.reason)
        request = parsed.request
        answer = review_response(parsed, self.judge.judge(request))
        gvk, registry = request.kind.gvk(), self.judge.registry
        if gvk not in registry:
            return JudgedReview(source, line, name, uid=request.uid, answer=answer)
        return JudgedReview(
            source,
            line,
            name,
            uid=request.uid,
            answer=answer,
            api_version=api_version_of(gvk),
            release=registry.release_of(gvk),
        )

    def judge_suite(self, source: str, document: Document, lines: Sequence[int] = ()) -> list[JudgedReview]:
        """The tests of a suite document. `lines` are the lines its tests start on
        (`lines_of_suite_tests`), where a test's problems and inline reviews are located (else at the
        document's line)."""
        judged: list[JudgedReview] = []
        tests = suite_tests(source, document.data, self.judge.registry)
        for index, test in enumerate(tests):
            test_line = lines[index] if len(lines) == len(tests) else document.line
            if test.problem:
                problem = JudgedReview(source, test_line, test.title, error=test.problem, from_suite=True)
                judged.append(problem)
                continue
            for number, (line, review) in enumerate(test.reviews, start=1):
                case = f"{test.title} [{number}/{len(test.reviews)}]" if len(test.reviews) > 1 else test.title
                judged_review = self.judge_review(source, line or test_line, case, review)
                judged.append(dataclasses.replace(judged_review, from_suite=True, expect=test.expect))
        return judged


def _review_read_error(read: ReadResult) -> str:
    error = read.error
    assert error is not None
    if read.syntax == "json":
        # The same words as the server's 400 for a body that is not JSON, with where it broke.
        detail = error.reason.removeprefix("invalid JSON: ")
        return f"request body is not valid JSON: {detail}: line {error.line} column {error.column}"
    return str(
        error.reason if not error.line else f"{error.reason} (line {error.line}, column {error.column})"
    )
