"""Docs that run: every shell example in the Markdown of the repository runs against the files it
names, and prints what the page shows (README.md, "Development", says how to write one).

* A fenced block tagged `console` holds commands after `$ ` (a line ending in `\\` continues the
  command) each followed by the output it must print, stdout and stderr together; `$ echo $?`
  prints the exit status of the command before it. A line `...` in shown output stands for any number
  of lines: the one placeholder.
* A fenced block tagged `sh` (or `shell`, `bash`) holds commands that must all succeed.
* `<!-- doc-test: not run: REASON -->` on the line before a block: not run, for REASON (required).
* `<!-- doc-test: server -->`: run while `dra-webhook serve` listens on a free port of 127.0.0.1
  with development certificates in `certs/` (what `make run` does); `localhost:8443` in the
  commands is that address.
* A block without a tag, or an indented one, that starts with a command fails: tag it.

The blocks of one page run in order in one scratch directory holding links to the repository's
top-level entries and a `certs/` of its own, with `dra-webhook` on the PATH and as
`.venv/bin/dra-webhook`: a reader following the page from the top.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.live_server import LiveServer, development_certificates, live_server

ROOT = Path(__file__).resolve().parent.parent
SHELL_TAGS = ("sh", "shell", "bash")
MARKER = re.compile(r"^\s*<!--\s*doc-test:\s*(?P<what>.*?)\s*-->\s*$")
FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>```+|~~~+)(?P<info>[^`]*)$")
# What a command looks like at the start of an untagged or indented block.
COMMAND = re.compile(
    r"^\s*(\$ |dra-webhook |kubectl |make |curl |\.venv/|python3? |docker |openssl |helm |cmctl |PYTHONPATH=)"
)
SERVED_ADDRESS = "localhost:8443"
COMMAND_TIMEOUT_SECONDS = 120


def markdown_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.split()
    files = [ROOT / name for name in listed if not name.startswith("tests/")]
    return files or sorted(ROOT.glob("*.md")) + sorted((ROOT / "docs").glob("*.md"))


@dataclass(frozen=True, slots=True)
class Block:
    """A fenced block of a page: where, its tag, its lines (dedented), and its doc-test marker."""

    page: Path
    line: int
    tag: str
    lines: tuple[str, ...]
    marker: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks_of(page: Path) -> list[Block]:
    lines = page.read_text().splitlines()
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        indent, fence = opening["indent"], opening["fence"]
        previous = next((line for line in reversed(lines[:index]) if line.strip()), "")
        marked = MARKER.match(previous)
        body: list[str] = []
        index += 1
        while index < len(lines) and not lines[index].strip().startswith(fence):
            body.append(lines[index][len(indent) :] if lines[index].startswith(indent) else lines[index])
            index += 1
        start = index - len(body)
        blocks.append(
            Block(page, start, opening["info"].strip(), tuple(body), marked["what"] if marked else "")
        )
        index += 1
    return blocks


def indented_commands(page: Path) -> list[str]:
    """Indented code blocks (four spaces after a blank line, outside fences) that start with a command."""
    found, inside, previous = [], False, ""
    for number, line in enumerate(page.read_text().splitlines(), start=1):
        if FENCE.match(line):
            inside = not inside
        elif not inside and not previous.strip() and line.startswith("    ") and COMMAND.match(line[4:]):
            found.append(f"{page.relative_to(ROOT)}:{number}: {line.strip()}")
        previous = line
    return found


# --- what a page's examples are ---------------------------------------------------------------------------

PAGES = markdown_files()


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_no_command_escapes_the_doc_test(page: Path) -> None:
    untagged = [
        f"{block.where}: {block.lines[0].strip()}"
        for block in blocks_of(page)
        if block.tag == "" and block.lines and COMMAND.match(block.lines[0])
    ]
    assert untagged + indented_commands(page) == [], "tag these blocks sh or console"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_marker_is_understood(page: Path) -> None:
    for block in blocks_of(page):
        if not block.marker:
            continue
        assert block.tag in (*SHELL_TAGS, "console"), f"{block.where}: a marker on a {block.tag!r} block"
        if block.marker.startswith("not run"):
            reason = block.marker.removeprefix("not run").lstrip(":").strip()
            assert reason, f"{block.where}: 'not run' needs a reason"
        else:
            assert block.marker == "server", f"{block.where}: unknown marker {block.marker!r}"


# --- running them -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Command:
    text: str
    output: tuple[str, ...]  # for console blocks: what it must print


def console_commands(block: Block) -> list[Command]:
    commands: list[Command] = []
    command: list[str] = []
    output: list[str] = []
    continuing = False
    for line in block.lines:
        if continuing:
            command.append(line)
            continuing = line.endswith("\\")
        elif line.startswith("$ "):
            if command:
                commands.append(Command("\n".join(command), tuple(output)))
            command, output = [line[2:]], []
            continuing = line.endswith("\\")
        else:
            assert command, f"{block.where}: output before any command"
            output.append(line)
    if command:
        commands.append(Command("\n".join(command), tuple(output)))
    return commands


def matches(shown: tuple[str, ...], printed: list[str]) -> bool:
    """Shown output against printed output; a shown line `...` takes any number of lines."""
    if not shown:
        return not printed
    if shown[0] == "...":
        return any(matches(shown[1:], printed[skip:]) for skip in range(len(printed) + 1))
    return bool(printed) and printed[0] == shown[0] and matches(shown[1:], printed[1:])


def scratch_directory(directory: Path) -> dict[str, str]:
    """Links to the repository's top-level entries, its own certs/, and dra-webhook on the PATH; the
    environment the commands run with."""
    for entry in ROOT.iterdir():
        if entry.name not in (".git", "certs", ".venv") and not entry.name.startswith("."):
            (directory / entry.name).symlink_to(entry)
    (directory / "certs").mkdir()
    bin_dir = directory / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    shim = bin_dir / "dra-webhook"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m webhook "$@"\n')
    shim.chmod(0o755)
    (bin_dir / "python").symlink_to(sys.executable)
    env = {name: value for name, value in os.environ.items() if not name.startswith("DRA_WEBHOOK_")}
    if os.environ.get("DRA_WEBHOOK_PURE_PYTHON"):
        env["DRA_WEBHOOK_PURE_PYTHON"] = os.environ["DRA_WEBHOOK_PURE_PYTHON"]
    env.pop("NO_COLOR", None)
    env.pop("FORCE_COLOR", None)
    env["PYTHONPATH"] = str(ROOT)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return env


def run(command: str, directory: Path, env: dict[str, str]) -> tuple[int, str]:
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail\n{command}"],
        cwd=directory,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=COMMAND_TIMEOUT_SECONDS,
        check=False,
    )
    return done.returncode, done.stdout.decode(errors="replace")


class Page:
    """One page's examples running in order in one scratch directory."""

    def __init__(self, page: Path, directory: Path, server: contextlib.ExitStack) -> None:
        self.page = page
        self.directory = directory
        self.env = scratch_directory(directory)
        self.servers = server
        self.server: LiveServer | None = None
        self.status = 0

    def address(self) -> str:
        if self.server is None:
            cert_dir = development_certificates(self.directory / "certs")
            self.server = self.servers.enter_context(
                live_server(self.directory, cert_dir, workers=1, metrics=False)
            )
        return f"localhost:{self.server.port}"

    def commands(self, block: Block, text: str) -> str:
        return text.replace(SERVED_ADDRESS, self.address()) if block.marker == "server" else text

    def run_block(self, block: Block) -> list[str]:
        problems: list[str] = []
        if block.tag in SHELL_TAGS:
            status, printed = run(
                self.commands(block, "set -e\n" + "\n".join(block.lines)), self.directory, self.env
            )
            if status != 0:
                problems.append(f"{block.where}: exited {status}:\n{printed}")
            return problems
        for command in console_commands(block):
            if command.text.strip() == "echo $?":
                printed_lines = [str(self.status)]
            else:
                self.status, printed = run(self.commands(block, command.text), self.directory, self.env)
                printed_lines = printed.splitlines()
            if not matches(
                tuple(line.rstrip() for line in command.output), [line.rstrip() for line in printed_lines]
            ):
                problems.append(
                    f"{block.where}: $ {command.text}\n--- shown\n"
                    + "\n".join(command.output)
                    + "\n--- printed\n"
                    + "\n".join(printed_lines)
                )
        return problems


@contextlib.contextmanager
def page_runner(page: Path, directory: Path) -> Iterator[Page]:
    with contextlib.ExitStack() as servers:
        yield Page(page, directory, servers)


RUN_PAGES = [
    page for page in PAGES if any(block.tag in (*SHELL_TAGS, "console") for block in blocks_of(page))
]


@pytest.mark.parametrize("page", RUN_PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_shell_example_runs_as_shown(page: Path, tmp_path: Path) -> None:
    problems: list[str] = []
    ran = 0
    with page_runner(page, tmp_path) as runner:
        for block in blocks_of(page):
            if block.tag not in (*SHELL_TAGS, "console") or block.marker.startswith("not run"):
                continue
            ran += 1
            problems.extend(runner.run_block(block))
    assert problems == [], "\n\n".join(problems)
