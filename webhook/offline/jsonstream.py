"""JSON input as kubectl's YAML-or-JSON decoder reads it: one document, JSON lines, or a stream of
concatenated objects, with the line and column of the first syntax error.

kubectl re-encodes JSON before sending it, so integral floats arrive as integers (`1.0` as `1`), as
they do from YAML.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from webhook.offline.documents import Document, ReadResult, UnreadableInput, sent_number


def read_json(source: str, content: bytes, *, first_line: int) -> ReadResult:
    """One JSON document (starting on `first_line`), else JSON lines, else a stream of values."""
    try:
        return ReadResult([Document(source, first_line, _as_sent(orjson.loads(content)))], syntax="json")
    except orjson.JSONDecodeError:
        pass
    lines = _read_json_lines(source, content)
    if lines is not None:
        return ReadResult(lines, syntax="json")
    return _read_json_stream(source, content)


def _read_json_lines(source: str, content: bytes) -> list[Document] | None:
    """The fast path for JSON lines: every non-blank line one document, or None."""
    documents = []
    for number, line in enumerate(content.split(b"\n"), start=1):
        if line.strip():
            try:
                documents.append(Document(source, number, _as_sent(orjson.loads(line))))
            except orjson.JSONDecodeError:
                return None
    return documents


def _reject_json_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _read_json_stream(source: str, content: bytes) -> ReadResult:
    """Concatenated JSON values, with the line and column of the first syntax error."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as error:
        return ReadResult([], UnreadableInput(source, f"invalid UTF-8: {error.reason}"), "json")
    decoder = json.JSONDecoder(parse_constant=_reject_json_constant)
    documents: list[Document] = []
    position, line, counted_to = _skip_space(text, 0), 1, 0
    while position < len(text):
        line += text.count("\n", counted_to, position)
        counted_to = position
        try:
            value, end = decoder.raw_decode(text, position)
        except json.JSONDecodeError as error:
            problem = UnreadableInput(
                source,
                f"invalid JSON: {error.msg}",
                line=error.lineno,
                column=error.colno,
            )
            return ReadResult(documents, problem, "json")
        except ValueError as error:
            return ReadResult(documents, UnreadableInput(source, f"invalid JSON: {error}", line=line), "json")
        documents.append(Document(source, line, _as_sent(value)))
        position = _skip_space(text, end)
    return ReadResult(documents, syntax="json")


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\r\n":
        position += 1
    return position


def _as_sent(value: Any) -> Any:
    """A decoded JSON value as kubectl sends it: integral floats become integers (in place)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, dict | list):
                _as_sent(item)
            elif isinstance(item, float):
                value[key] = sent_number(item)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict | list):
                _as_sent(item)
            elif isinstance(item, float):
                value[index] = sent_number(item)
    elif isinstance(value, float):
        return sent_number(value)
    return value
