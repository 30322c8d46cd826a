"""Structured logs: one JSON object per line for log collectors, or plain text for people.

Every record carries its time (UTC), level, logger, message and process id (several workers write to
one stream), plus the fields passed as `extra=`. Two kinds of line matter to operators:

* a **decision** line (logger ``webhook.decision``) per denial and per warn-mode "would deny",
  written by `webhook.admission.decisions`;
* an **access** line (logger ``webhook.access``) per HTTP request, only with ``--access-log``.

This module knows how a line is written, not what a request or a verdict is.
"""

from __future__ import annotations

import logging
import re
import sys
from datetime import UTC, datetime
from typing import IO, Any, Final

import orjson

from webhook.settings import LogFormat

ACCESS_LOGGER: Final = "webhook.access"

# The attributes every LogRecord has; anything else on a record came from `extra=`.
_RECORD_ATTRIBUTES: Final = frozenset(
    {
        *logging.LogRecord("", 0, "", 0, "", None, None).__dict__,
        "message",
        "asctime",
        "taskName",
    }
)


# --- configuration ----------------------------------------------------------------------------------


def configure_logging(*, level: str, log_format: LogFormat, stream: IO[str] | None = None) -> None:
    """Send every record of the process, in `log_format`, to `stream` (stderr), from `level` up.

    Neither format prints the thread or process *name*, so records stop collecting them (the public
    switches of the "Optimization" section of the `logging` documentation). The process id, which
    both formats print, is still collected.
    """
    logging.logThreads = False
    logging.logMultiprocessing = False
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format is LogFormat.JSON else TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())


def extra_fields(record: logging.LogRecord) -> dict[str, Any]:
    """The fields a record was given with `extra=`, in the order they were given, as they are now:
    a filter that rewrote one (a redaction, say) is printed as it left it."""
    return {key: value for key, value in record.__dict__.items() if key not in _RECORD_ATTRIBUTES}


def _timestamp(record: logging.LogRecord) -> str:
    """`record.created` as ``2024-05-01T12:00:00.123Z`` (UTC, milliseconds)."""
    moment = datetime.fromtimestamp(record.created, UTC)
    return moment.isoformat(timespec="milliseconds").removesuffix("+00:00") + "Z"


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
