"""What review and validate share: their run flags (--summary, --jobs, --color), stdin, the progress
line and the colour of their reports, each decided by whether a terminal is there."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any


def add_offline_run_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--summary", action="store_true", help="end with a summary line")
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="judge files in N processes (0: one per CPU); results stay in input order",
    )


def process_count(jobs: int) -> int:
    """--jobs as a number of processes: 0 is one per CPU."""
    return jobs if jobs > 0 else os.cpu_count() or 1


def add_color_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--color",
        choices=["auto", "always", "never"],
        default="auto",
        help="the pretty text form (marks and colour): auto: on a terminal, unless NO_COLOR is set "
        "(FORCE_COLOR turns it on)",
    )


def style(color: str) -> Any:
    from webhook.offline.reports import style_for

    return style_for(color, terminal=sys.stdout.isatty(), environ=os.environ)


def read_stdin(what: str) -> bytes:
    """stdin, read once; on a terminal, first a word on stderr of what is awaited there."""
    if sys.stdin.isatty():
        print(
            f"dra-webhook: reading {what} from stdin; end with Ctrl-D (or give files or directories as "
            "arguments, see --help)",
            file=sys.stderr,
        )
    return sys.stdin.buffer.read()


def progress_stream() -> Any:
    """A progress line goes to stderr only when it is a terminal."""
    return sys.stderr if sys.stderr.isatty() else None
