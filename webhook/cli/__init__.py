"""The command line: flags and environment become `Settings`, and each subcommand runs one thing.

    dra-webhook serve      serve HTTPS (development certificates generated on first run)
    dra-webhook review     judge AdmissionReviews offline: print the answers or check expectations
    dra-webhook validate   validate manifests offline (CREATE, or UPDATE against --old objects)
    dra-webhook manifests  print the Kubernetes objects that deploy the webhook, caBundle filled in
    dra-webhook certs      issue a CA and a serving certificate as a TLS Secret's files, print the caBundle

Each subcommand is a module of this package (`serve.py`, `review.py`, ...) whose `add` function
declares its flags and sets its runner (`command.py`). Every flag of `serve` can also be set by a
`DRA_WEBHOOK_<FLAG>` environment variable (`flags.py`); what `review` and `validate` share at the
terminal is in `terminal.py`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from webhook.cli import certs, manifests, review, serve, validate
from webhook.cli.command import EXIT_CLOSED_PIPE, Runner

__all__ = ["EXIT_CLOSED_PIPE", "build_parser", "main", "version_text"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    runner: Runner = args.run
    try:
        return runner(args)
    except BrokenPipeError:
        return _closed_pipe()


def _closed_pipe() -> int:
    """stdout's reader is gone: nothing more can be said there, and Python's own flush at exit must
    not print a traceback about it either (stdout now writes to /dev/null)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor behind sys.stdout (a test's capture)
        pass
    finally:
        os.close(devnull)
    return EXIT_CLOSED_PIPE


def build_parser() -> argparse.ArgumentParser:
    judged = _judged_as()
    parser = argparse.ArgumentParser(
        prog="dra-webhook",
        description=f"Validating admission webhook for Kubernetes Dynamic Resource Allocation: it judges "
        f"{judged} (docs/versions.md).",
    )
    parser.add_argument("--version", action="version", version=version_text())
    subcommands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for subcommand in (serve, review, validate, manifests, certs):
        subcommand.add(subcommands)
    return parser


def _judged_as() -> str:
    """``resource.k8s.io/v1 as Kubernetes 1.37 does, ...``; an apiVersion judged as a second release
    names that release's kinds: ``resource.k8s.io/v1alpha3 (DeviceTaintRule, ...) as Kubernetes 1.37
    does``."""
    from webhook.registry import REGISTRY

    named: set[str] = set()
    parts = []
    for api_version, release in REGISTRY.version_table():
        judged = api_version
        if api_version in named:
            judged += f" ({', '.join(REGISTRY.kinds_judged_as(api_version, release))})"
        parts.append(f"{judged} as {release} does")
        named.add(api_version)
    return ", ".join(parts)


def version_text() -> str:
    """``dra-webhook 0.1.0; rules: compiled with mypyc``: the version, and which build of the rules runs."""
    from importlib.metadata import PackageNotFoundError, version

    import webhook

    try:
        number = version("dra-webhook")
    except PackageNotFoundError:  # run from a source tree that was never installed
        number = "(not installed)"
    return f"dra-webhook {number}; rules: {webhook.BUILD.describe()}"
