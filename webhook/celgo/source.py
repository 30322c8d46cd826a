"""Source positions and error lists, rendered exactly as cel-go renders them.

Ports `common/source.go`, `common/location.go`, `common/error.go` and `common/errors.go` of
cel-go (the v0.17 line Kubernetes 1.30 vendors). Offsets and columns count code points, as Go
counts runes; `Errors.display()` is `Errors.ToDisplayString()`: errors sorted by position
(stably), each as ``ERROR: <input>:LINE:COL: message`` plus the source line and a caret line.
"""

from __future__ import annotations

from dataclasses import dataclass

DESCRIPTION = "<input>"
# cel-go's Errors keep at most this many errors, then say how many more were cut.
MAX_ERRORS_TO_REPORT = 100
# cel-go renders the snippet only for lines of at most this many bytes.
MAX_SNIPPET_LENGTH = 16384
_WIDE_DOT = "\uff0e"
_WIDE_IND = "\uff3e"


@dataclass(frozen=True, slots=True)
class Location:
    """A line (1-based) and column (0-based, in code points); (-1, -1) is `common.NoLocation`."""

    line: int
    column: int


NO_LOCATION = Location(-1, -1)


class Source:
    """The expression text with its line offsets (`common.NewTextSource`)."""

    __slots__ = ("_line_offsets", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        offsets: list[int] = []
        offset = 0
        for line in text.split("\n"):
            offset += len(line) + 1
            offsets.append(offset)
        self._line_offsets = offsets

    def _line_offset(self, line: int) -> int | None:
        if line == 1:
            return 0
        if 1 < line <= len(self._line_offsets):
            return self._line_offsets[line - 2]
        return None

    def location_offset(self, location: Location) -> int:
        """`LocationOffset`: -1 when the line is unknown."""
        base = self._line_offset(location.line)
        return -1 if base is None else base + location.column

    def offset_location(self, offset: int) -> Location:
        """`OffsetLocation`."""
        line = 1
        for line_offset in self._line_offsets:
            if line_offset > offset:
                break
            line += 1
        if line == 1:
            return Location(1, offset)
        return Location(line, offset - self._line_offsets[line - 2])

    def snippet(self, line: int) -> str | None:
        start = self._line_offset(line)
        if start is None or self.text == "":
            return None
        end = self._line_offset(line + 1)
        if end is not None:
            return self.text[start : end - 1]
        return self.text[start:]


@dataclass(frozen=True, slots=True)
class Error:
    location: Location
    message: str

    def display(self, source: Source) -> str:
        """`(*Error).ToDisplayString`."""
        text = f"ERROR: {DESCRIPTION}:{self.location.line}:{self.location.column + 1}: {self.message}"
        snippet = source.snippet(self.location.line)
        if snippet is None or len(snippet.encode()) > MAX_SNIPPET_LENGTH:
            return text
        snippet = snippet.replace("\t", " ")
        indicator = []
        for char in snippet[: max(self.location.column, 0)]:
            indicator.append(_WIDE_DOT if len(char.encode()) > 1 else ".")
        at = snippet[self.location.column : self.location.column + 1] if self.location.column >= 0 else ""
        indicator.append(_WIDE_IND if at and len(at.encode()) > 1 else "^")
        return f"{text}\n | {snippet}\n | {''.join(indicator)}"


class Errors:
    """`common.Errors`: collects errors, keeps the first 100, counts all."""

    __slots__ = ("count", "errors", "source")

    def __init__(self, source: Source) -> None:
        self.source = source
        self.errors: list[Error] = []
        self.count = 0

    def report(self, location: Location, message: str) -> None:
        self.count += 1
        if self.count > MAX_ERRORS_TO_REPORT:
            return
        self.errors.append(Error(location, message))

    def __bool__(self) -> bool:
        return bool(self.errors)

    def display(self) -> str:
        """`ToDisplayString`."""
        ordered = sorted(self.errors, key=lambda e: (e.location.line, e.location.column))
        lines = [e.display(self.source) for e in ordered[:MAX_ERRORS_TO_REPORT]]
        if self.count > MAX_ERRORS_TO_REPORT:
            lines.append(f"{self.count - MAX_ERRORS_TO_REPORT} more errors were truncated")
        return "\n".join(lines)
