"""Structured logs: one JSON object per line for log collectors, or plain text for people.

Every record carries its time (UTC), level, logger, message and process id (several workers write to
one stream), plus the fields passed as `extra=`. Two kinds of line matter to operators:

* a **decision** line (logger ``webhook.decision``) per denial and per warn-mode "would deny", keyed by
  the request uid, with kind, apiVersion, the release the rules that found the causes are exact to
  (``release``), namespace/name, operation, user, dry-run and the causes; an internal error
  is logged once, with its stack, by the judge (`Judge.judge`), with the same request fields;
* an **access** line (logger ``webhook.access``) per HTTP request, only with ``--access-log``.

Nothing of the object is logged beyond what a denial already tells the user: the causes, each cut to
`MAX_CAUSE_MESSAGE_CHARS`, at most `MAX_LOGGED_CAUSES` of them. Allowed requests are not logged.
"""

from __future__ import annotations

import logging
import math
import re
import sys
import time
from collections.abc import Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any, Final

import orjson

from webhook.settings import LogFormat

if TYPE_CHECKING:
    from webhook.admission import AdmissionRequest, Verdict
    from webhook.field import FieldError
    from webhook.rules.release import Release

DECISION_LOGGER: Final = "webhook.decision"
ACCESS_LOGGER: Final = "webhook.access"
# A denial may carry hundreds of causes, each echoing a bad value: the log keeps enough to act on.
MAX_LOGGED_CAUSES: Final = 32
MAX_CAUSE_MESSAGE_CHARS: Final = 512

# The attributes every LogRecord has; anything else on a record came from `extra=`.
_RECORD_ATTRIBUTES: Final = frozenset(
    {
        *logging.LogRecord("", 0, "", 0, "", None, None).__dict__,
        "message",
        "asctime",
        "taskName",
    }
)

log = logging.getLogger(DECISION_LOGGER)


# --- configuration ----------------------------------------------------------------------------------


def resolve_log_format(choice: str, stream: IO[str] | None = None) -> LogFormat:
    """``auto`` is text on a terminal and JSON lines anywhere else; ``json`` and ``text`` are themselves."""
    if choice == "auto":
        return LogFormat.TEXT if (stream or sys.stderr).isatty() else LogFormat.JSON
    return LogFormat(choice)


def configure_logging(*, level: str, log_format: LogFormat, stream: IO[str] | None = None) -> None:
    """Send every record of the process, in `log_format`, to `stream` (stderr), from `level` up.

    Neither format prints where a record was logged from nor the thread or process *name*, so
    records stop collecting them (the "Optimization" section of the `logging` documentation): the
    caller's frame walk (`Logger.findCaller`) alone was an eighth of a decision line's cost. The
    process id, which both formats print, is still collected.
    """
    logging._srcfile = None  # no findCaller: pathname, lineno and funcName stay at their defaults
    logging.logThreads = False
    logging.logMultiprocessing = False
    handler = LineHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format is LogFormat.JSON else TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())


class LineHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """A `StreamHandler` that flushes its stream after each line without taking its lock a second time:
    `Handler.handle` holds it around `emit` already, and `StreamHandler.flush` would take it again."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            stream = self.stream
            stream.write(self.format(record) + self.terminator)
            if hasattr(stream, "flush"):  # as StreamHandler.flush
                stream.flush()
        except RecursionError:
            raise
        except Exception:  # as StreamHandler.emit: reported by `handleError`, never raised
            self.handleError(record)


def log_with_fields(
    logger: logging.Logger, level: int, msg: str, args: tuple[Any, ...], fields: dict[str, Any]
) -> None:
    """What `logger.log(level, msg, *args, extra=fields)` would do in its caller's place, the record
    given `fields` at once rather than one by one (`Logger._log` and `Logger.makeRecord`, which checks
    each against the record's attributes: the larger part of a line's cost). The record is still made
    by `logger.makeRecord` and given to `logger.handle`: its level, filters and handlers are the
    process's. `fields` must not be a record's own attribute names."""
    if not logger.isEnabledFor(level):
        return
    if logging._srcfile:  # records collect where they were logged from (`configure_logging` stops it)
        pathname, lineno, function, _ = logger.findCaller(False, 2)
    else:
        pathname, lineno, function = "(unknown file)", 0, "(unknown function)"
    record = logger.makeRecord(logger.name, level, pathname, lineno, msg, args, None, function)
    record.__dict__.update(fields)
    logger.handle(record)


def extra_fields(record: logging.LogRecord) -> dict[str, Any]:
    """The fields a record was given with `extra=` (or by `log_with_fields`), in the order they were
    given, as they are now: a filter that rewrote one (a redaction, say) is printed as it left it."""
    return {key: value for key, value in record.__dict__.items() if key not in _RECORD_ATTRIBUTES}


# The last second `_timestamp` printed, and its text up to the seconds: one tuple, replaced whole,
# so that a thread reads a matching pair.
_last_second: tuple[int, str] = (0, "1970-01-01T00:00:00")


def _timestamp(record: logging.LogRecord) -> str:
    """`record.created` as ``2024-05-01T12:00:00.123Z``: the text of
    ``datetime.fromtimestamp(created, UTC).isoformat(timespec="milliseconds")`` with ``Z`` for
    ``+00:00``, computed as datetime does (microseconds rounded half to even, then cut to
    milliseconds), the date and time of day formatted once per second."""
    global _last_second
    created = record.created
    second = math.floor(created)
    microseconds = round((created - second) * 1_000_000)
    if microseconds >= 1_000_000:
        second += 1
        microseconds -= 1_000_000
    last = _last_second
    if last[0] == second:
        text = last[1]
    else:
        text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        _last_second = (second, text)
    return f"{text}.{microseconds // 1000:03d}Z"


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line: time, level, logger, msg, pid, then the extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": _timestamp(record),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
            "pid": record.process,
        }
        entry.update(extra_fields(record))
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return orjson.dumps(entry, default=str, option=orjson.OPT_NON_STR_KEYS).decode()


class TextFormatter(logging.Formatter):
    """``time LEVEL logger: msg key=value ...``, then the traceback if there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line = f"{_timestamp(record)} {record.levelname:<7} {record.name}: {record.getMessage()}"
        fields = " ".join(f"{key}={_text_value(value)}" for key, value in extra_fields(record).items())
        if fields:
            line = f"{line} {fields}"
        if record.exc_info:
            line = f"{line}\n{self.formatException(record.exc_info)}"
        if record.stack_info:
            line = f"{line}\n{self.formatStack(record.stack_info)}"
        return line


# A character that makes a text value quoted: `re`'s \s is `str.isspace` (both Py_UNICODE_ISSPACE).
_QUOTED_CHARACTER: Final = re.compile(r'[\s"]')


def _text_value(value: Any) -> str:
    if isinstance(value, str):
        return value if value and _QUOTED_CHARACTER.search(value) is None else f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float) or value is None:
        return str(value)
    return orjson.dumps(value, default=str, option=orjson.OPT_NON_STR_KEYS).decode()


# --- decisions --------------------------------------------------------------------------------------


def request_fields(request: AdmissionRequest, release: Release | None = None) -> dict[str, Any]:
    """What identifies a request in a log line: never the object, only its coordinates and the caller;
    with `release`, the release its kind was judged as (``"release": "1.30"``, after the apiVersion)."""
    gvk = request.kind
    fields: dict[str, Any] = {
        "uid": request.uid,
        "kind": gvk.kind,
        "apiVersion": f"{gvk.group}/{gvk.version}" if gvk.group else gvk.version,
    }
    if release is not None:
        fields["release"] = release.version
    fields["namespace"] = request.namespace
    # `name` is a LogRecord attribute and cannot be an extra field. A CREATE with generateName
    # has no request.name; the object may carry one.
    fields["objectName"] = request.name or request.object_name
    fields["operation"] = request.operation
    fields["subresource"] = request.sub_resource
    fields["user"] = request.user_info.username if request.user_info is not None else ""
    fields["dryRun"] = bool(request.dry_run)
    return fields


def logged_causes(
    errors: Sequence[FieldError], rendered: Sequence[Mapping[str, str]] | None = None
) -> list[Mapping[str, str]]:
    """The causes of a denial as the answer carries them (field, reason, message), each message cut
    to `MAX_CAUSE_MESSAGE_CHARS`, at most `MAX_LOGGED_CAUSES`. `rendered` is the answer's own list
    of causes (`errors` rendered by `FieldError.cause`), when there is one: its causes are logged as
    they are, a copy only of those whose message is cut (rendering a bad value costs more than the
    rest of the line)."""
    if rendered is not None and len(rendered) == len(errors):
        selected = rendered[:MAX_LOGGED_CAUSES]
    else:
        selected = [error.cause() for error in errors[:MAX_LOGGED_CAUSES]]
    return [
        cause if len(cause["message"]) <= MAX_CAUSE_MESSAGE_CHARS else _cut_message(cause)
        for cause in selected
    ]


def _cut_message(cause: Mapping[str, str]) -> dict[str, str]:
    message = cause["message"]
    return {**cause, "message": message[: MAX_CAUSE_MESSAGE_CHARS - 3] + "..."}


def log_decision(request: AdmissionRequest, verdict: Verdict) -> None:
    """One line per denial (``denied``) and per warn-mode allowance of an invalid object (``warned``).

    Allowed requests are not logged, and neither are internal errors: the judge logged those once,
    with the stack and the same request fields.
    """
    if (
        verdict.internal_error
        or (verdict.allowed and not verdict.errors)
        or not log.isEnabledFor(logging.INFO)
    ):
        return
    event = "warned" if verdict.allowed else "denied"
    fields: dict[str, Any] = {
        "event": event,
        **request_fields(request, verdict.release),
        "code": verdict.code,
    }
    status = verdict.status
    if status is not None:
        fields["reason"] = status.get("reason", "")
    if verdict.errors:
        details = status.get("details") if status is not None else None
        rendered = details.get("causes") if isinstance(details, dict | Mapping) else None
        fields["causes"] = logged_causes(verdict.errors, rendered if isinstance(rendered, list) else None)
        if len(verdict.errors) > MAX_LOGGED_CAUSES:
            fields["causesOmitted"] = len(verdict.errors) - MAX_LOGGED_CAUSES
    elif status is not None:
        # `message` is a LogRecord attribute and cannot be an extra field.
        fields["statusMessage"] = str(status.get("message", ""))[:MAX_CAUSE_MESSAGE_CHARS]
    name = fields["objectName"]
    where = f"{fields['namespace']}/{name}" if fields["namespace"] else name
    args = (event, fields["kind"], where or "<unnamed>", fields["operation"])
    log_with_fields(log, logging.INFO, "%s %s %s (%s)", args, fields)
