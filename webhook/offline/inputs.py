"""Where documents come from: files, directories walked for them, and stdin (`-`, read once, by the
main process), and which syntax an input is in.

An input whose first significant character is `{` is JSON (`webhook.offline.jsonstream`); anything
else is YAML (`webhook.offline.goyaml`): kubectl's YAML-or-JSON decoder decides the same way.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Final

from webhook.offline.documents import ReadResult, UnreadableInput
from webhook.offline.goyaml import read_yaml
from webhook.offline.jsonstream import read_json

STDIN: Final = "-"
STDIN_NAME: Final = "<stdin>"
# What a directory walk picks up; files named on the command line are read whatever their name.
MANIFEST_SUFFIXES: Final = (".yaml", ".yml", ".json")
REVIEW_SUFFIXES: Final = (".json", ".jsonl", ".ndjson", ".yaml", ".yml")


def display_name(path: str) -> str:
    return STDIN_NAME if path == STDIN else path


def read_input(path: str, read_stdin: Callable[[], bytes]) -> bytes:
    """The bytes of one input (`-` is stdin), or `UnreadableInput`."""
    if path == STDIN:
        return read_stdin()
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise UnreadableInput(path, f"cannot read: {error.strerror or error}") from None


def no_stdin() -> bytes:
    raise UnreadableInput(STDIN_NAME, "stdin is read once, by the main process")


_BYTE_ORDER_MARK: Final = b"\xef\xbb\xbf"
_LEADING_SPACE: Final = re.compile(rb"\s*")


def read_documents(source: str, content: bytes, *, find_duplicates: bool = False) -> ReadResult:
    """Decode a JSON or YAML stream into documents, as kubectl's YAML-or-JSON decoder would. YAML
    documents always name the fields they give twice; JSON documents do with `find_duplicates`."""
    start = _LEADING_SPACE.match(
        content, len(_BYTE_ORDER_MARK) if content.startswith(_BYTE_ORDER_MARK) else 0
    )
    offset = start.end() if start else 0
    if content[offset : offset + 1] == b"{":
        return read_json(
            source,
            content.removeprefix(_BYTE_ORDER_MARK),
            first_line=1 + content.count(b"\n", 0, offset),
            find_duplicates=find_duplicates,
        )
    return read_yaml(source, content)


@dataclass(frozen=True, slots=True)
class PathFilter:
    """`--include` and `--exclude`: glob patterns (`fnmatch`: `*` matches across `/` too) held
    against a path, its directories, and every trailing part of them (`templates/*` matches
    `charts/gpu/templates/claim.yaml`, `templates` any directory of that name and all below it).

    `--exclude` leaves out files and whole directories, walked or named on the command line.
    `--include` replaces the suffix rule of a directory walk (`.yaml`, `.yml`, `.json`): a walked file
    is read when it matches one of them; files named on the command line are read whatever their
    name. Hidden files and directories are never walked."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def excludes(self, path: str) -> bool:
        return any(_matches(path, pattern) for pattern in self.exclude)

    def walks_to(self, path: str, suffixes: Sequence[str]) -> bool:
        """Whether a file found by walking a directory is read."""
        if self.include:
            return any(_matches(path, pattern) for pattern in self.include) and not self.excludes(path)
        return path.lower().endswith(tuple(suffixes)) and not self.excludes(path)


def _matches(path: str, pattern: str) -> bool:
    """Whether `pattern` matches the path, one of its directories, or a trailing part of either
    (`a/b/c.yaml` is held against `c.yaml`, `b/c.yaml`, `a/b/c.yaml`, `b`, `a/b` and `a`)."""
    parts = PurePath(path).parts
    pattern = pattern.rstrip("/") or pattern
    return any(
        fnmatch.fnmatchcase("/".join(parts[start:end]), pattern)
        for end in range(len(parts), 0, -1)
        for start in range(end)
    )


def expand_paths(
    paths: Sequence[str], suffixes: Sequence[str], path_filter: PathFilter | None = None
) -> list[str]:
    """Files as given, `-` as given, directories walked recursively in name order (hidden entries
    left out, and what `path_filter` leaves out). A path that does not exist is kept: reading it
    reports the error."""
    path_filter = path_filter or PathFilter()
    expanded: list[str] = []
    for path in paths:
        if path != STDIN and path_filter.excludes(path):
            continue
        if path != STDIN and os.path.isdir(path):
            for root, directories, files in os.walk(path):
                directories[:] = sorted(
                    name
                    for name in directories
                    if not name.startswith(".") and not path_filter.excludes(os.path.join(root, name))
                )
                expanded.extend(
                    os.path.join(root, name)
                    for name in sorted(files)
                    if not name.startswith(".") and path_filter.walks_to(os.path.join(root, name), suffixes)
                )
        else:
            expanded.append(path)
    return expanded


Task = tuple[str, bytes | None]  # an input path, and its content when it was read already (stdin)


def read_stdin_once(paths: Sequence[str], read_stdin: Callable[[], bytes]) -> list[Task]:
    """Tasks for the inputs; stdin is read here, once, so that any process can judge it."""
    content: bytes | None = None
    tasks: list[Task] = []
    for path in paths:
        if path == STDIN:
            if content is None:
                content = read_stdin()
            tasks.append((path, content))
        else:
            tasks.append((path, None))
    return tasks
