"""What a run reports and how: the tally behind the summary line and the exit code, and the text,
JSON, TAP and JUnit formats, fed the same cases by both commands.

The text form is plain, line by line, when it goes to a pipe or a file (what scripts and the docs
read); on a terminal it is the pretty form: each line starts with a coloured mark (✔ valid or
passed, ✖ invalid, failed or unreadable, ⚠ a warning, • skipped) and the summary is bold. `Style`
says which, from `--color` and the `NO_COLOR` / `FORCE_COLOR` conventions."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal, Protocol, TextIO

import orjson
import yaml

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_UNREADABLE: Final = 2


@dataclass(slots=True)
class Tally:
    """Counts for the summary line and the exit code."""

    files: int = 0
    valid: int = 0
    invalid: int = 0
    not_validated: int = 0
    skipped: int = 0
    errors: int = 0

    @property
    def objects(self) -> int:
        return self.valid + self.invalid + self.not_validated + self.skipped

    def add(self, status: str) -> None:
        if status in ("valid", "pass"):
            self.valid += 1
        elif status in ("invalid", "fail"):
            self.invalid += 1
        elif status == "not-validated":
            self.not_validated += 1
        elif status == "skipped":
            self.skipped += 1
        else:
            self.errors += 1

    @property
    def exit_code(self) -> int:
        if self.errors:
            return EXIT_UNREADABLE
        return EXIT_FAILED if self.invalid or self.not_validated else EXIT_OK


def counted(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


@dataclass(frozen=True, slots=True)
class Case:
    """One test case of a JUnit or TAP report: an object of `validate`, a review of `review`."""

    suite: str  # the input it came from
    name: str
    outcome: Literal["pass", "fail", "skip", "error"]
    message: str = ""
    details: tuple[str, ...] = ()  # lines: the causes of a denial, where an error was found


Mark = Literal["ok", "fail", "warn", "skip"]


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the text form, and what it says (the mark of the pretty form)."""

    mark: Mark
    text: str


@dataclass(frozen=True, slots=True)
class Style:
    """How the text form looks: plain, or pretty (marks and ANSI colour)."""

    pretty: bool = False

    _MARKS: ClassVar[Mapping[str, tuple[str, str]]] = {
        "ok": ("\N{HEAVY CHECK MARK}", "\x1b[32m"),
        "fail": ("\N{HEAVY MULTIPLICATION X}", "\x1b[31m"),
        "warn": ("\N{WARNING SIGN}", "\x1b[33m"),
        "skip": ("\N{BULLET}", "\x1b[2m"),
    }
    _RESET: ClassVar[str] = "\x1b[0m"

    def line(self, line: Line) -> str:
        if not self.pretty:
            return line.text
        symbol, colour = self._MARKS[line.mark]
        return f"{colour}{symbol}{self._RESET} {line.text}"

    def summary(self, text: str) -> str:
        return f"\x1b[1m{text}{self._RESET}" if self.pretty else text


PLAIN: Final = Style()


def style_for(color: str, *, terminal: bool, environ: Mapping[str, str]) -> Style:
    """The style of a run: `--color always|never|auto`; auto is pretty on a terminal unless NO_COLOR
    is set to anything (no-color.org), and pretty anywhere when FORCE_COLOR is set (other than 0)."""
    if color == "always":
        return Style(pretty=True)
    if color == "never" or environ.get("NO_COLOR"):
        return PLAIN
    if environ.get("FORCE_COLOR", "0") not in ("", "0"):
        return Style(pretty=True)
    return Style(pretty=terminal)


class Report(Protocol):
    def add(
        self, cases: Sequence[Case], items: Sequence[Mapping[str, Any]], lines: Sequence[Line]
    ) -> None: ...

    def finish(self, summary: Mapping[str, int], summary_line: str) -> None: ...


class TextReport:
    """Lines as they come (`claim.yaml: ResourceClaim.resource.k8s.io "x" is invalid: ...`)."""

    def __init__(self, out: TextIO, *, summary: bool, style: Style = PLAIN) -> None:
        self.out = out
        self.summary = summary
        self.style = style

    def add(self, cases: Sequence[Case], items: Sequence[Mapping[str, Any]], lines: Sequence[Line]) -> None:
        for line in lines:
            self.out.write(self.style.line(line) + "\n")

    def finish(self, summary: Mapping[str, int], summary_line: str) -> None:
        if self.summary:
            self.out.write(self.style.summary(summary_line) + "\n")


class JsonReport:
    """One JSON document: `{"results": [...], "summary": {...}}`."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.items: list[Mapping[str, Any]] = []

    def add(self, cases: Sequence[Case], items: Sequence[Mapping[str, Any]], lines: Sequence[Line]) -> None:
        self.items.extend(items)

    def finish(self, summary: Mapping[str, int], summary_line: str) -> None:
        document = {"results": self.items, "summary": dict(summary)}
        self.out.write(orjson.dumps(document, option=orjson.OPT_INDENT_2).decode() + "\n")


class TapReport:
    """TAP version 13, streamed, the plan at the end; details as YAML blocks."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.count = 0
        self.out.write("TAP version 13\n")

    def add(self, cases: Sequence[Case], items: Sequence[Mapping[str, Any]], lines: Sequence[Line]) -> None:
        for case in cases:
            self.count += 1
            title = " ".join(f"{case.suite} {case.name}".split()).replace("#", "\\#")
            ok = "ok" if case.outcome in ("pass", "skip") else "not ok"
            directive = f" # SKIP {case.message}" if case.outcome == "skip" else ""
            self.out.write(f"{ok} {self.count} - {title}{directive}\n")
            if case.outcome in ("fail", "error"):
                block: dict[str, Any] = {
                    "severity": "fail" if case.outcome == "fail" else "error",
                    "message": case.message,
                }
                if case.details:
                    block["details"] = list(case.details)
                body = yaml.safe_dump(block, sort_keys=False, allow_unicode=True, width=10_000)
                self.out.write("  ---\n" + "".join(f"  {line}\n" for line in body.splitlines()) + "  ...\n")

    def finish(self, summary: Mapping[str, int], summary_line: str) -> None:
        self.out.write(f"1..{self.count}\n# {summary_line}\n")


class JUnitReport:
    """JUnit XML: one <testsuite> per input, one <testcase> per object or review."""

    def __init__(self, out: TextIO, *, title: str) -> None:
        self.out = out
        self.title = title
        self.suites: dict[str, list[Case]] = {}

    def add(self, cases: Sequence[Case], items: Sequence[Mapping[str, Any]], lines: Sequence[Line]) -> None:
        for case in cases:
            self.suites.setdefault(case.suite, []).append(case)

    def finish(self, summary: Mapping[str, int], summary_line: str) -> None:
        root = ElementTree.Element("testsuites", name=self.title)
        totals = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
        for suite_name, cases in self.suites.items():
            counts = {
                "tests": len(cases),
                "failures": sum(case.outcome == "fail" for case in cases),
                "errors": sum(case.outcome == "error" for case in cases),
                "skipped": sum(case.outcome == "skip" for case in cases),
            }
            suite = ElementTree.SubElement(root, "testsuite", {"name": _xml_safe(suite_name)})
            for key, value in counts.items():
                suite.set(key, str(value))
            for case in cases:
                element = ElementTree.SubElement(
                    suite, "testcase", classname=_xml_safe(suite_name), name=_xml_safe(case.name)
                )
                if case.outcome != "pass":
                    tag = {"fail": "failure", "error": "error", "skip": "skipped"}[case.outcome]
                    result = ElementTree.SubElement(element, tag, message=_xml_safe(case.message))
                    if case.outcome != "skip":
                        result.set("type", "Invalid" if case.outcome == "fail" else "Error")
                    if case.details:
                        result.text = _xml_safe("\n".join(case.details))
            for key, value in counts.items():
                totals[key] += value
        for key, value in totals.items():
            root.set(key, str(value))
        ElementTree.indent(root)
        self.out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        self.out.write(ElementTree.tostring(root, encoding="unicode") + "\n")


_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_safe(text: str) -> str:
    """XML 1.0 cannot carry most control characters, even escaped."""
    return _XML_FORBIDDEN.sub("\ufffd", text)


def make_report(output: str, out: TextIO, *, summary: bool, title: str, style: Style = PLAIN) -> Report:
    if output == "json":
        return JsonReport(out)
    if output == "junit":
        return JUnitReport(out, title=title)
    if output == "tap":
        return TapReport(out)
    return TextReport(out, summary=summary, style=style)
