"""What every answer of the webhook must be, whatever it was sent: the fuzzers' single oracle.

An input is either read, and answered with an AdmissionReview of the same apiVersion whose
`response.uid` is the request's uid, or not read, and answered with an HTTP 4xx and a one-line JSON
reason. Never a 500 from the HTTP layer, never an exception escaping, never a hang. One step stricter
than the contract: a verdict of code 500 (the judge caught a crash) also fails here, because a crash
the judge catches is still a bug in a rule.
"""

from __future__ import annotations

import contextlib
import signal
import unicodedata
from collections.abc import Iterator, Mapping
from typing import Any

import orjson

from webhook.admission import Judge, UnreadableReview, review

# Far above the slowest legitimate review (milliseconds) and far below a test runner's patience: a
# review that runs this long on a loaded two-core machine is a hang.
REVIEW_TIME_LIMIT_SECONDS = 20.0


class Hang(AssertionError):
    """An input took longer than its time limit."""


@contextlib.contextmanager
def bounded_time(seconds: float, what: str) -> Iterator[None]:
    """Fail with `Hang` if the block runs longer than `seconds` (SIGALRM; main thread only)."""

    def expire(signum: int, frame: Any) -> None:
        raise Hang(f"{what} did not finish within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def request_uid(document: Any) -> Any:
    request = document.get("request") if isinstance(document, Mapping) else None
    return request.get("uid") if isinstance(request, Mapping) else None


def check_answer(document: Any, answer: Any) -> None:
    """`answer` is a proper AdmissionReview answer to `document`, and not an internal error."""
    assert isinstance(answer, dict), answer
    assert answer["apiVersion"] == document["apiVersion"]
    assert answer["kind"] == "AdmissionReview"
    response = answer["response"]
    assert response["uid"] == request_uid(document)
    assert isinstance(response["allowed"], bool)
    assert "patch" not in response and "patchType" not in response
    status = response.get("status")
    if response["allowed"]:
        assert status is None, status
    else:
        assert isinstance(status, dict) and status["status"] == "Failure", status
        assert status["code"] != 500, f"the judge caught a crash: {status['message']}"
        assert 400 <= status["code"] < 500, status
        assert isinstance(status["message"], str) and status["message"]
        for cause in status.get("details", {}).get("causes", []):
            assert set(cause) <= {"reason", "message", "field"}, cause
            assert all(isinstance(value, str) for value in cause.values()), cause
    for warning in response.get("warnings", []):
        # kube-apiserver drops a warning with a control character (`unicode.IsControl`, category Cc).
        assert isinstance(warning, str) and len(warning) <= 256, warning
        assert not any(unicodedata.category(char) == "Cc" for char in warning), warning


def check_unreadable(error: UnreadableReview) -> None:
    assert 400 <= error.status < 500, error.status
    assert error.reason and "\n" not in error.reason and "Traceback" not in error.reason


def judged(document: Any, judge: Judge, *, encodable: bool = True) -> dict[str, Any] | None:
    """Judge `document` with `webhook.review`, check the answer (or the refusal), return the answer
    (None when it was refused as unreadable). `encodable`: the server must be able to write the answer
    (false only for documents no JSON decoder could have produced, such as lone surrogates)."""
    with bounded_time(REVIEW_TIME_LIMIT_SECONDS, "review()"):
        try:
            answer = review(document, judge=judge)
        except UnreadableReview as error:
            check_unreadable(error)
            return None
    check_answer(document, answer)
    if encodable:
        orjson.dumps(answer)
    return answer
