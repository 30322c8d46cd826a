"""`dra-webhook review`: judge AdmissionReviews offline, print the answers or check expectations."""

from __future__ import annotations

import argparse
import functools
import sys
from typing import Any

from webhook.cli.flags import OFFLINE, add_setting_flags, policy_from
from webhook.cli.terminal import (
    add_color_flag,
    add_offline_run_flags,
    process_count,
    progress_stream,
    read_stdin,
    style,
)


def add(subcommands: Any) -> None:
    review = subcommands.add_parser(
        "review",
        help="judge AdmissionReviews offline: print the answers, or check them against expectations",
        description="Read AdmissionReviews (JSON, JSON lines or YAML; files, directories, or - for "
        "stdin) and print the answer of each, as the server would give it. Review suites "
        "(YAML with tests:) and --expect files hold the expected verdicts (docs/offline.md). "
        "Exit 0: all allowed or all expectations met; 1: any denied without an expectation, or any "
        "expectation unmet; 2: unreadable input.",
    )
    review.add_argument(
        "files",
        nargs="*",
        default=["-"],
        metavar="PATH",
        help="AdmissionReview files, review suites or directories of them; - is stdin",
    )
    review.add_argument(
        "--expect",
        action="append",
        default=[],
        metavar="FILE",
        help="expectations for the reviews, matched by file name or uid (repeatable)",
    )
    review.add_argument(
        "-o",
        "--output",
        choices=["answers", "text", "json", "junit", "tap"],
        default=None,
        help="answers: the AdmissionReview answers (the default without expectations); text: one "
        "line per review (the default with expectations or suites); json, junit, tap: reports",
    )
    review.add_argument("--compact", action="store_true", help="one answer per line instead of indented JSON")
    add_offline_run_flags(review)
    add_color_flag(review)
    add_setting_flags(review, OFFLINE, grouped=False)
    review.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from webhook.offline import ReviewRun, run_review

    run = ReviewRun(
        inputs=tuple(args.files),
        expect=tuple(args.expect),
        policy=policy_from(args),
        output=args.output,
        compact=args.compact,
        summary=args.summary,
        jobs=process_count(args.jobs),
        style=style(args.color),
    )
    exit_code = run_review(
        run,
        out=sys.stdout,
        err=sys.stderr,
        read_stdin=functools.partial(read_stdin, "AdmissionReviews or review suites"),
        progress=progress_stream(),
    )
    sys.stdout.flush()
    return exit_code
