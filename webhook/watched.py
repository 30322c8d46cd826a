"""Files re-read while the server runs, and the value built from them: the one rule of both watchers.

The serving certificate pair (`webhook.tls.CertificateReloader`) and the configuration file
(`webhook.config.ConfigWatcher`) are each a `WatchedFiles`: read the files, compare their content
with the content in service (by digest), build a value from a new content and put it in service, or
refuse it, keeping the value in service. A refusal is counted and reported once per content, not at
every poll; once the files hold the content in service again, the refusal is over (`last_error` is
None) and the same break later is reported again.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar, Generic, TypeVar

_Value = TypeVar("_Value")


class WatchedFiles(ABC, Generic[_Value]):
    """A value built from the content of some files, kept current by `poll()`.

    A subclass says how to `read` the files (their contents, in a fixed order) and how to `build` the
    value from them, raising one of `refusals` when it cannot; `applied` and `refused` are told of
    each change (to log it). The constructor reads and builds once, and raises what they raise: a
    server must not start on files it cannot use.

    `reloads` counts the contents put in service after the first, `reload_errors` the refusals, and
    `last_error` is the reason of the refusal in force: None while the files hold the content in
    service. `poll()` may run in a worker thread (one at a time); the value in service changes by one
    assignment.
    """

    refusals: ClassVar[tuple[type[Exception], ...]]

    def __init__(self) -> None:
        contents = self.read()
        self.value: _Value = self.build(contents)
        self.reloads = 0
        self.reload_errors = 0
        self.last_error: str | None = None
        self._in_service = content_digest(contents)
        # What was refused last: the digest of a content, or the reason the files could not be read.
        self._refused: bytes | str | None = None

    @abstractmethod
    def read(self) -> Sequence[bytes]:
        """The contents of the files; raises one of `refusals` when they cannot be read."""

    @abstractmethod
    def build(self, contents: Sequence[bytes]) -> _Value:
        """The value of these contents; raises one of `refusals` when they are not usable."""

    def applied(self, value: _Value, previous: _Value) -> None:
        """Told when a new value went into service."""

    def refused(self, reason: str) -> None:
        """Told once per refused content (or unreadable state), with the reason."""

    def poll(self) -> _Value | None:
        """Read the files again: the new value if their content changed to a usable one, else None
        (unchanged, refused, or refused already). Never raises one of `refusals`."""
        try:
            contents = self.read()
        except self.refusals as error:
            self._refuse(str(error), str(error))
            return None
        digest = content_digest(contents)
        if digest == self._in_service:
            self._refused = self.last_error = None  # back to the content in service: a break is news again
            return None
        if digest == self._refused:
            return None
        try:
            value = self.build(contents)
        except self.refusals as error:
            self._refuse(digest, str(error))
            return None
        previous, self.value = self.value, value
        self._in_service, self._refused, self.last_error = digest, None, None
        self.reloads += 1
        self.applied(value, previous)
        return value

    def _refuse(self, refused: bytes | str, reason: str) -> None:
        if refused == self._refused:
            return
        self._refused, self.last_error = refused, reason
        self.reload_errors += 1
        self.refused(reason)


def content_digest(contents: Sequence[bytes]) -> bytes:
    """The SHA-256 of the contents, each prefixed by its length (no two sequences share one)."""
    digest = hashlib.sha256()
    for content in contents:
        digest.update(len(content).to_bytes(8, "big"))
        digest.update(content)
    return digest.digest()
