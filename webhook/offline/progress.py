"""The progress line of a long run on a terminal: on stderr, only when stderr is a terminal, and
taken off before any result line is written (results and progress share the terminal)."""

from __future__ import annotations

import time
from typing import Final, TextIO

# A progress line appears only on a terminal and only once a run has lasted this long.
PROGRESS_AFTER_SECONDS: Final = 0.5
PROGRESS_EVERY_SECONDS: Final = 0.2


class Progress:
    """A progress line on stderr for long runs on a terminal; silent otherwise."""

    def __init__(self, stream: TextIO | None, *, total_files: int, noun: str) -> None:
        self.stream = stream
        self.total_files = total_files
        self.noun = noun
        self.files = 0
        self.items = 0
        self.started = time.monotonic()
        self.shown_at = 0.0
        self.shown = False

    def advance(self, items: int) -> None:
        self.files += 1
        self.items += items
        if self.stream is None:
            return
        now = time.monotonic()
        if now - self.started < PROGRESS_AFTER_SECONDS or now - self.shown_at < PROGRESS_EVERY_SECONDS:
            return
        rate = self.items / max(now - self.started, 1e-9)
        self.stream.write(
            f"\r\x1b[Kdra-webhook: {self.files}/{self.total_files} files, {self.items} {self.noun}"
            f" ({rate:.0f}/s)"
        )
        self.stream.flush()
        self.shown_at, self.shown = now, True

    def clear(self) -> None:
        """Take the line off the terminal, before a result is written there (the next `advance`
        may show it again)."""
        if self.stream is not None and self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False

    def finish(self) -> None:
        self.clear()
