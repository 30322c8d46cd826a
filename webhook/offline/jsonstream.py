"""JSON input as kubectl's YAML-or-JSON decoder reads it: one document, JSON lines, or a stream of
concatenated objects, with the line and column of the first syntax error.

kubectl re-encodes JSON before sending it, so integral floats arrive as integers (`1.0` as `1`), as
they do from YAML.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import orjson

from webhook.offline.documents import Document, ReadResult, UnreadableInput, field_path, sent_number


def read_json(source: str, content: bytes, *, first_line: int, find_duplicates: bool = False) -> ReadResult:
    """One JSON document (starting on `first_line`), else JSON lines, else a stream of values; with
    `find_duplicates`, each document names the fields it gives twice (a second, slower reading)."""
    try:
        read = ReadResult([Document(source, first_line, _as_sent(orjson.loads(content)))], syntax="json")
    except orjson.JSONDecodeError:
        lines = _read_json_lines(source, content)
        read = ReadResult(lines, syntax="json") if lines is not None else _read_json_stream(source, content)
    if find_duplicates and read.documents:
        duplicates = _duplicates_per_document(content)
        if any(duplicates):
            documents = [
                dataclasses.replace(document, duplicates=found)
                for document, found in zip(read.documents, duplicates, strict=False)
            ]
            read = dataclasses.replace(read, documents=[*documents, *read.documents[len(documents) :]])
    return read


class _Repeated(dict[str, Any]):
    """A decoded JSON object that gave some keys more than once (the last value kept, as Go does)."""

    repeated: tuple[str, ...] = ()


def _keep_last(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    repeated: dict[str, None] = {}
    for key, value in pairs:
        if key in obj:
            repeated.setdefault(key, None)
        obj[key] = value
    if not repeated:
        return obj
    marked = _Repeated(obj)
    marked.repeated = tuple(repeated)
    return marked


def _duplicates_per_document(content: bytes) -> list[tuple[str, ...]]:
    """The duplicated field paths of each JSON value of `content`, in order; stops at a syntax error
    (the documents read before it keep theirs)."""
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return []
    decoder = json.JSONDecoder(object_pairs_hook=_keep_last)
    found: list[tuple[str, ...]] = []
    position = _skip_space(text, 0)
    while position < len(text):
        try:
            value, end = decoder.raw_decode(text, position)
        except ValueError:
            break
        found.append(tuple(_repeated_paths(value, "")))
        position = _skip_space(text, end)
    return found


def _repeated_paths(value: Any, path: str) -> list[str]:
    if isinstance(value, dict):
        paths = [field_path(path, key) for key in value.repeated] if isinstance(value, _Repeated) else []
        for key, item in value.items():
            if isinstance(item, dict | list):
                paths.extend(_repeated_paths(item, field_path(path, key)))
        return paths
    if isinstance(value, list):
        return [
            found
            for index, item in enumerate(value)
            if isinstance(item, dict | list)
            for found in _repeated_paths(item, f"{path}[{index}]")
        ]
    return []


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
