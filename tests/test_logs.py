"""Structured logs: the line formats, and one decision line per denial, warn and internal error."""

from __future__ import annotations

import dataclasses
import io
import json
import logging
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.reviews import admission_review, allocated_claim, claim_template, resource_claim
from webhook.admission import AdmissionRequest, Judge, log_decision, parse_review, request_fields
from webhook.admission.decisions import MAX_CAUSE_MESSAGE_CHARS, MAX_LOGGED_CAUSES
from webhook.field import ROOT, invalid
from webhook.logs import JsonFormatter, TextFormatter, configure_logging
from webhook.registry import REGISTRY, KindRegistry, ServedKinds
from webhook.release import KUBERNETES_1_30
from webhook.rules.kinds import GroupVersionKind, KindRules, Obj
from webhook.settings import Enforcement, LogFormat, PolicySettings, UnknownKindPolicy, read_log_format


def record(message: str = "hello %s", *args: Any, **extra: Any) -> logging.LogRecord:
    log_record = logging.LogRecord(
        "webhook.test", logging.WARNING, __file__, 1, message, args or ("world",), None
    )
    log_record.created = 1_700_000_000.25
    log_record.process = 42
    log_record.__dict__.update(extra)
    return log_record


def test_a_json_line_has_time_level_logger_message_pid_and_the_extra_fields() -> None:
    line = JsonFormatter().format(record(uid="u-1", causes=[{"field": "spec"}], dryRun=False))
    assert "\n" not in line
    assert json.loads(line) == {
        "time": "2023-11-14T22:13:20.250Z",
        "level": "warning",
        "logger": "webhook.test",
        "msg": "hello world",
        "pid": 42,
        "uid": "u-1",
        "causes": [{"field": "spec"}],
        "dryRun": False,
    }


@pytest.mark.parametrize(
    ("created", "time"),
    [
        (1_700_000_000.0, "2023-11-14T22:13:20.000Z"),
        (1_700_000_000.999, "2023-11-14T22:13:20.999Z"),
        # As datetime does: the microseconds rounded (half to even), then cut to milliseconds.
        (1_700_000_000.0019999, "2023-11-14T22:13:20.002Z"),
        (1_700_000_000.9999998, "2023-11-14T22:13:21.000Z"),
        (0.0, "1970-01-01T00:00:00.000Z"),
    ],
)
def test_a_line_is_timed_in_utc_to_the_millisecond(created: float, time: str) -> None:
    timed = record()
    timed.created = created
    assert json.loads(JsonFormatter().format(timed))["time"] == time
    assert TextFormatter().format(timed).startswith(time + " WARNING ")


def test_an_exception_stays_on_the_json_line() -> None:
    failing = record()
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        failing.exc_info = sys.exc_info()
    line = JsonFormatter().format(failing)
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["exception"].startswith("Traceback (most recent call last):")
    assert entry["exception"].endswith("RuntimeError: boom")


def test_a_text_line_is_for_people() -> None:
    line = TextFormatter().format(record(uid="u-1", user="system:admin", dryRun=True, note="two words", n=3))
    assert line == (
        "2023-11-14T22:13:20.250Z WARNING webhook.test: hello world uid=u-1 user=system:admin dryRun=true "
        'note="two words" n=3'
    )


class FakeStream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


@pytest.mark.parametrize(
    ("choice", "tty", "expected"),
    [
        ("auto", True, LogFormat.TEXT),
        ("auto", False, LogFormat.JSON),
        ("json", True, LogFormat.JSON),
        ("text", False, LogFormat.TEXT),
    ],
)
def test_the_log_format_is_text_on_a_terminal_and_json_elsewhere(
    choice: str, tty: bool, expected: LogFormat, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stderr", FakeStream(tty))
    assert read_log_format(choice) is expected


@pytest.fixture
def restore_root_logger() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    # configure_logging also stops records collecting their thread and process name.
    collected = logging.logThreads, logging.logMultiprocessing
    yield
    for handler in list(root.handlers):
        root.removeHandler(handler)
    for handler in handlers:
        root.addHandler(handler)
    root.setLevel(level)
    logging.logThreads, logging.logMultiprocessing = collected


@pytest.mark.usefixtures("restore_root_logger")
def test_configure_logging_sends_every_record_in_the_chosen_format() -> None:
    stream = io.StringIO()
    configure_logging(level="warning", log_format=LogFormat.JSON, stream=stream)
    logging.getLogger("webhook.test").info("not shown")
    logging.getLogger("aiohttp.server").warning("shown, %s", "as JSON")
    (line,) = stream.getvalue().splitlines()
    assert json.loads(line)["msg"] == "shown, as JSON"
    assert json.loads(line)["logger"] == "aiohttp.server"
    assert json.loads(line)["pid"] == os.getpid()  # still collected: both formats print it


# --- decisions --------------------------------------------------------------------------------------


Lines = Callable[[], list[dict[str, Any]]]


@pytest.fixture
def decision_lines() -> Iterator[Lines]:
    """Reads the JSON lines logged by webhook.decision and webhook.admission, without time and pid."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    loggers = [logging.getLogger("webhook.decision"), logging.getLogger("webhook.admission")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)

    def lines() -> list[dict[str, Any]]:
        entries = [json.loads(line) for line in stream.getvalue().splitlines()]
        for entry in entries:
            del entry["time"], entry["pid"]
        return entries

    yield lines
    for logger, level in zip(loggers, levels, strict=True):
        logger.removeHandler(handler)
        logger.setLevel(level)


def request_of(document: dict[str, Any]) -> AdmissionRequest:
    return parse_review(document).request


def too_many_consumers(**status: Any) -> dict[str, Any]:
    new = allocated_claim(reserved_for=33, **status)
    new["metadata"]["annotations"] = {"team": "a-value-no-denial-mentions"}
    return admission_review(
        new, operation="UPDATE", old=allocated_claim(), sub_resource="status", uid="u-deny"
    )


def test_a_denial_is_one_line_with_the_request_and_its_causes_and_nothing_else_of_the_object(
    decision_lines: Lines,
) -> None:
    request = request_of(too_many_consumers())
    log_decision(request, Judge.build().judge(request))
    assert decision_lines() == [
        {
            "level": "info",
            "logger": "webhook.decision",
            "msg": "denied ResourceClaim default/claim (UPDATE)",
            "event": "denied",
            "uid": "u-deny",
            "kind": "ResourceClaim",
            "apiVersion": "resource.k8s.io/v1alpha2",
            "release": "1.30",
            "namespace": "default",
            "objectName": "claim",
            "operation": "UPDATE",
            "subresource": "status",
            "user": "kubernetes-admin",
            "dryRun": False,
            "code": 422,
            "reason": "Invalid",
            "causes": [
                {
                    "reason": "FieldValueTooLong",
                    "message": "Too long: may not be longer than 32",
                    "field": "status.reservedFor",
                }
            ],
        }
    ]
    assert "a-value-no-denial-mentions" not in json.dumps(decision_lines())
    assert "pod-3" not in json.dumps(decision_lines())  # the consumers themselves are not logged


def test_a_denial_without_causes_logs_its_message(decision_lines: Lines) -> None:
    document = admission_review(
        resource_claim(), kind="Foo", group="example.com", version="v1", uid="u-unknown"
    )
    request = request_of(document)
    judge = Judge.build(PolicySettings(unknown_kind=UnknownKindPolicy.DENY))
    log_decision(request, judge.judge(request))
    (line,) = decision_lines()
    assert line["event"] == "denied"
    assert line["code"] == 403
    assert line["reason"] == "Forbidden"
    assert (
        line["statusMessage"]
        == "dra-webhook does not validate example.com/v1, Kind=Foo and its unknown-kind policy is deny"
    )
    assert "causes" not in line


def test_warn_mode_logs_what_it_would_have_denied(decision_lines: Lines) -> None:
    policy = PolicySettings(enforcement=(("ResourceClaimTemplate", Enforcement.WARN),))
    document = admission_review(
        claim_template(resourceClassName="other.example.com"),
        operation="UPDATE",
        old=claim_template(),
        uid="u-warn",
    )
    request = request_of(document)
    log_decision(request, Judge.build(policy).judge(request))
    (line,) = decision_lines()
    assert line["event"] == "warned"
    assert line["msg"] == "warned ResourceClaimTemplate default/template (UPDATE)"
    assert line["code"] == 200
    assert [cause["field"] for cause in line["causes"]] == ["spec"]


def test_an_allowed_request_is_not_logged(decision_lines: Lines) -> None:
    request = request_of(admission_review(resource_claim()))
    log_decision(request, Judge.build().judge(request))
    assert decision_lines() == []


CRASHING = GroupVersionKind("crash.example.com", "v1", "Crash")


def crash(obj: Obj, old: Obj | None = None) -> list[Any]:
    raise RuntimeError("a rule that crashes")


def test_an_internal_error_is_one_line_with_the_request_fields_and_the_stack(
    decision_lines: Lines,
) -> None:
    judge = dataclasses.replace(
        Judge.build(),
        structural=None,
        registry=KindRegistry(
            [
                *REGISTRY.entries,
                ServedKinds(KUBERNETES_1_30, (KindRules(CRASHING, "crashes", True, crash, crash),)),
            ]
        ),
    )
    document = admission_review(
        {"metadata": {"name": "x", "namespace": "ns"}},
        kind="Crash",
        group="crash.example.com",
        version="v1",
        uid="u-crash",
    )
    document["request"]["dryRun"] = True
    request = request_of(document)
    verdict = judge.judge(request)
    log_decision(request, verdict)  # the judge logged it already: no second line
    (line,) = decision_lines()
    stack = line.pop("exception")
    assert stack.endswith("RuntimeError: a rule that crashes")
    assert line == {
        "level": "error",
        "logger": "webhook.admission",
        "msg": "internal error while judging",
        "event": "error",
        "uid": "u-crash",
        "kind": "Crash",
        "apiVersion": "crash.example.com/v1",
        "namespace": "ns",
        "objectName": "x",
        "operation": "CREATE",
        "subresource": "",
        "user": "kubernetes-admin",
        "dryRun": True,
    }


def test_a_long_denial_logs_a_bounded_number_of_shortened_causes(decision_lines: Lines) -> None:
    from webhook.admission import denied_invalid

    long_value = "x" * 2000
    errors = [
        invalid(ROOT.child("spec").index(i), long_value, "too long a value")
        for i in range(MAX_LOGGED_CAUSES + 8)
    ]
    request = request_of(admission_review(resource_claim()))
    verdict = denied_invalid("ResourceClaim", "claim", errors)
    log_decision(request, verdict)
    (line,) = decision_lines()
    assert len(line["causes"]) == MAX_LOGGED_CAUSES
    assert line["causesOmitted"] == 8
    assert all(len(cause["message"]) == MAX_CAUSE_MESSAGE_CHARS for cause in line["causes"])
    assert line["causes"][0]["message"].endswith("...")
    # The line copies the answer's causes; the answer keeps them whole.
    assert verdict.status is not None
    assert verdict.status["details"]["causes"] == [error.cause() for error in errors]


def test_a_create_with_generate_name_takes_the_name_from_the_object_when_there_is_one() -> None:
    document = admission_review(resource_claim("from-object"))
    document["request"]["name"] = ""
    assert request_fields(request_of(document))["objectName"] == "from-object"


# --- the exact bytes of a decision line ----------------------------------------------------------------


def _fixed_time_and_pid(record: logging.LogRecord) -> bool:
    record.created = 1_700_000_000.25
    record.process = 42
    return True


def logged_bytes(log_format: LogFormat, request: AdmissionRequest, verdict: Any) -> str:
    """What `configure_logging`'s handler writes for one decision, the time and pid fixed."""
    stream = io.StringIO()
    configure_logging(level="info", log_format=log_format, stream=stream)
    (handler,) = logging.getLogger().handlers
    handler.addFilter(_fixed_time_and_pid)
    log_decision(request, verdict)
    return stream.getvalue()


DENIAL_JSON = (
    '{"time":"2023-11-14T22:13:20.250Z","level":"info","logger":"webhook.decision",'
    '"msg":"denied ResourceClaim default/claim (UPDATE)","pid":42,"event":"denied","uid":"u-deny",'
    '"kind":"ResourceClaim","apiVersion":"resource.k8s.io/v1alpha2","release":"1.30",'
    '"namespace":"default","objectName":"claim","operation":"UPDATE","subresource":"status","user":"kubernetes-admin",'
    '"dryRun":false,"code":422,"reason":"Invalid","causes":[{"reason":"FieldValueTooLong",'
    '"message":"Too long: may not be longer than 32","field":"status.reservedFor"}]}\n'
)
DENIAL_TEXT = (
    "2023-11-14T22:13:20.250Z INFO    webhook.decision: denied ResourceClaim default/claim (UPDATE) "
    "event=denied uid=u-deny kind=ResourceClaim apiVersion=resource.k8s.io/v1alpha2 release=1.30 "
    "namespace=default objectName=claim operation=UPDATE subresource=status user=kubernetes-admin dryRun=false code=422 "
    'reason=Invalid causes=[{"reason":"FieldValueTooLong","message":"Too long: may not be longer than 32",'
    '"field":"status.reservedFor"}]\n'
)
FORBIDDEN_JSON = (
    '{"time":"2023-11-14T22:13:20.250Z","level":"info","logger":"webhook.decision",'
    '"msg":"denied Foo default/claim (CREATE)","pid":42,"event":"denied","uid":"u-unknown",'
    '"kind":"Foo","apiVersion":"example.com/v1","namespace":"default","objectName":"claim",'
    '"operation":"CREATE","subresource":"","user":"kubernetes-admin","dryRun":false,"code":403,'
    '"reason":"Forbidden","statusMessage":"dra-webhook does not validate example.com/v1, Kind=Foo and '
    'its unknown-kind policy is deny"}\n'
)
FORBIDDEN_TEXT = (
    "2023-11-14T22:13:20.250Z INFO    webhook.decision: denied Foo default/claim (CREATE) event=denied "
    "uid=u-unknown kind=Foo apiVersion=example.com/v1 namespace=default objectName=claim "
    'operation=CREATE subresource="" user=kubernetes-admin dryRun=false code=403 reason=Forbidden '
    'statusMessage="dra-webhook does not validate example.com/v1, Kind=Foo and its unknown-kind policy '
    'is deny"\n'
)


@pytest.mark.usefixtures("restore_root_logger")
@pytest.mark.parametrize(
    ("log_format", "expected"), [(LogFormat.JSON, DENIAL_JSON), (LogFormat.TEXT, DENIAL_TEXT)]
)
def test_a_denial_line_is_exactly_these_bytes(log_format: LogFormat, expected: str) -> None:
    request = request_of(too_many_consumers())
    assert logged_bytes(log_format, request, Judge.build().judge(request)) == expected


@pytest.mark.usefixtures("restore_root_logger")
@pytest.mark.parametrize(
    ("log_format", "expected"), [(LogFormat.JSON, FORBIDDEN_JSON), (LogFormat.TEXT, FORBIDDEN_TEXT)]
)
def test_a_denial_without_causes_is_exactly_these_bytes(log_format: LogFormat, expected: str) -> None:
    request = request_of(
        admission_review(resource_claim(), kind="Foo", group="example.com", version="v1", uid="u-unknown")
    )
    judge = Judge.build(PolicySettings(unknown_kind=UnknownKindPolicy.DENY))
    assert logged_bytes(log_format, request, judge.judge(request)) == expected


@pytest.mark.usefixtures("restore_root_logger")
def test_log_level_warning_silences_decision_lines() -> None:
    request = request_of(too_many_consumers())
    verdict = Judge.build().judge(request)
    stream = io.StringIO()
    configure_logging(level="warning", log_format=LogFormat.JSON, stream=stream)
    log_decision(request, verdict)
    assert stream.getvalue() == ""


def test_a_decision_line_is_a_record_for_every_handler(caplog: pytest.LogCaptureFixture) -> None:
    request = request_of(too_many_consumers())
    verdict = Judge.build().judge(request)
    with caplog.at_level(logging.INFO, logger="webhook.decision"):
        log_decision(request, verdict)
    (captured,) = caplog.records
    assert captured.name == "webhook.decision"
    assert captured.levelno == logging.INFO
    assert captured.getMessage() == "denied ResourceClaim default/claim (UPDATE)"
    assert captured.uid == "u-deny"  # type: ignore[attr-defined]
    assert captured.reason == "Invalid"  # type: ignore[attr-defined]
    assert captured.funcName == "log_decision"  # where it was logged


@pytest.mark.usefixtures("restore_root_logger")
def test_a_field_a_filter_rewrote_is_printed_as_the_filter_left_it() -> None:
    def redact(log_record: logging.LogRecord) -> bool:
        log_record.user = "<redacted>"
        return True

    stream = io.StringIO()
    configure_logging(level="info", log_format=LogFormat.JSON, stream=stream)
    decisions = logging.getLogger("webhook.decision")
    decisions.addFilter(redact)
    try:
        request = request_of(too_many_consumers())
        log_decision(request, Judge.build().judge(request))
    finally:
        decisions.removeFilter(redact)
    (line,) = stream.getvalue().splitlines()
    assert json.loads(line)["user"] == "<redacted>"
