"""The offline commands at a terminal and in a pipe: the progress line never mixes with results, a
closed pipe ends quietly, `review` says what it waits for on a terminal, and the pretty text form
appears on a terminal only (NO_COLOR, FORCE_COLOR, --color)."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from webhook.cli import EXIT_CLOSED_PIPE, main
from webhook.offline import ValidateRun, run_validate
from webhook.offline import progress as offline_progress
from webhook.offline.reports import Line, Style, style_for

ROOT = Path(__file__).resolve().parent.parent
MANIFESTS = ROOT / "tests" / "data" / "offline" / "manifests"
CLAIMS = MANIFESTS / "claims.yaml"
REVIEW = ROOT / "tests" / "data" / "claim-create-allowed.json"


def command(*argv: str) -> list[str]:
    return [sys.executable, "-m", "webhook", *argv]


def environment(**extra: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), **extra}
    env.pop("NO_COLOR", None)
    env.pop("FORCE_COLOR", None)
    return env


def screen(text: str) -> list[str]:
    """The lines a terminal shows for `text`: a carriage return and erase-line clear the line."""
    lines, current = [], ""
    for part in text.replace("\r\x1b[K", "\x00").split("\n"):
        current = part.rsplit("\x00", 1)[-1]
        lines.append(current)
    return [line for line in lines if line]


def test_the_progress_line_is_cleared_before_every_result_on_a_shared_terminal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(offline_progress, "PROGRESS_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(offline_progress, "PROGRESS_EVERY_SECONDS", 0.0)
    for index in range(5):
        (tmp_path / f"{index}.yaml").write_bytes(CLAIMS.read_bytes())
    terminal = io.StringIO()  # stdout and stderr are the same terminal
    run = ValidateRun(inputs=(str(tmp_path),), verbose=True)
    assert run_validate(run, out=terminal, err=terminal, read_stdin=lambda: b"", progress=terminal) == 1
    shown = terminal.getvalue()
    assert "dra-webhook: 1/5 files" in shown  # the progress line was there
    plain = io.StringIO()
    run_validate(run, out=plain, err=plain, read_stdin=lambda: b"")
    assert screen(shown) == plain.getvalue().splitlines()  # and left nothing on any result's line


def test_a_closed_pipe_ends_the_run_quietly_with_the_status_of_sigpipe(tmp_path: Path) -> None:
    for index in range(40):
        (tmp_path / f"{index:02}.yaml").write_bytes(CLAIMS.read_bytes())
    read_end, write_end = os.pipe()
    os.close(read_end)  # `| head` that has already gone
    try:
        done = subprocess.run(
            command("validate", "-v", "-j", "2", str(tmp_path)),
            stdout=write_end,
            stderr=subprocess.PIPE,
            env=environment(),
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    assert done.stderr.decode() == ""
    assert done.returncode == EXIT_CLOSED_PIPE == 141


def test_a_pipe_closed_by_head_leaves_no_traceback(tmp_path: Path) -> None:
    for index in range(300):
        (tmp_path / f"{index:03}.yaml").write_bytes(CLAIMS.read_bytes())
    done = subprocess.run(
        ["sh", "-c", f'"$0" -m webhook validate -v "{tmp_path}" | head -n 2', sys.executable],
        capture_output=True,
        env=environment(),
        timeout=120,
        check=False,
    )
    assert len(done.stdout.decode().splitlines()) == 2
    assert done.stderr.decode() == ""


@pytest.mark.parametrize(
    ("argv", "awaited"),
    [(["review"], "AdmissionReviews or review suites"), (["validate", "-"], "Kubernetes manifests")],
)
def test_reading_stdin_on_a_terminal_says_what_it_waits_for(argv: list[str], awaited: str) -> None:
    controller, terminal = pty.openpty()
    try:
        process = subprocess.Popen(
            command(*argv), stdin=terminal, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment()
        )
        os.write(controller, b"\x04")  # Ctrl-D: the end of the input
        _, err = process.communicate(timeout=60)
    finally:
        os.close(controller)
        os.close(terminal)
    assert f"dra-webhook: reading {awaited} from stdin; end with Ctrl-D" in err.decode()


def test_stdin_from_a_pipe_is_read_without_a_word(capsys: pytest.CaptureFixture[str]) -> None:
    done = subprocess.run(
        command("review", "--compact"),
        input=REVIEW.read_bytes(),
        capture_output=True,
        env=environment(),
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")


# --- the pretty form ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("color", "terminal", "environ", "pretty"),
    [
        ("auto", True, {}, True),
        ("auto", False, {}, False),
        ("auto", True, {"NO_COLOR": "1"}, False),
        ("auto", True, {"NO_COLOR": ""}, True),  # no-color.org: set and not empty
        ("auto", False, {"FORCE_COLOR": "1"}, True),
        ("auto", False, {"FORCE_COLOR": "0"}, False),
        ("always", False, {"NO_COLOR": "1"}, True),
        ("never", True, {"FORCE_COLOR": "1"}, False),
    ],
)
def test_the_pretty_form_is_for_terminals(
    color: str, terminal: bool, environ: dict[str, str], pretty: bool
) -> None:
    assert style_for(color, terminal=terminal, environ=environ).pretty is pretty


def test_pretty_lines_carry_a_coloured_mark() -> None:
    style = Style(pretty=True)
    assert style.line(Line("ok", "a.yaml: valid")) == "\x1b[32m\u2714\x1b[0m a.yaml: valid"
    assert style.line(Line("fail", "a.yaml: invalid")) == "\x1b[31m\u2716\x1b[0m a.yaml: invalid"
    assert Style().line(Line("fail", "a.yaml: invalid")) == "a.yaml: invalid"


def test_validate_in_colour(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--color=always", "-v", "--summary", str(CLAIMS)]) == 1
    out = capsys.readouterr().out.splitlines()
    marks = ["\x1b[32m\u2714\x1b[0m ", "\x1b[31m\u2716\x1b[0m ", "\x1b[2m\u2022\x1b[0m ", "\x1b[1mSummary"]
    assert len(out) == len(marks) and all(
        line.startswith(mark) for line, mark in zip(out, marks, strict=True)
    )


def test_validate_into_a_pipe_is_plain(capsys: pytest.CaptureFixture[str]) -> None:
    main(["validate", "-v", str(CLAIMS)])
    assert "\x1b" not in capsys.readouterr().out
