"""What a subcommand is, and the exit statuses the subcommands share.

Each subcommand is a module of this package with an `add(subcommands)` function that declares its
parser and sets its `run`: a `Runner` from the parsed arguments to the process's exit status.
"""

from __future__ import annotations

import argparse
import signal
from collections.abc import Callable
from typing import Final

Runner = Callable[[argparse.Namespace], int]

# Exit statuses of the commands' own checks (review and validate count theirs in offline.reports):
# 0 done, 2 an input or a flag or environment value that cannot be used (argparse's status for a usage
# error too).
EXIT_OK: Final = 0
EXIT_UNREADABLE: Final = 2

# A command whose reader went away (`dra-webhook validate dir -v | head`) stops quietly with the
# status a shell reports for a process that SIGPIPE ended: 128 + 13.
EXIT_CLOSED_PIPE: Final = 128 + signal.SIGPIPE


def kubernetes_release(text: str) -> str:
    """The type of a `--kubernetes-version` flag: a release webhook/eras.py knows ("1.31", "v1.31.4"
    -> "1.31"); anything else, the empty string included, is a usage error."""
    from webhook.eras import parse_release

    try:
        return parse_release(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
