"""Reviews judged back to back: the bodies that reach `POST /validate` in one turn of the event loop
are parsed, judged and answered together, in one callback at the end of that turn.

Under load a worker's event loop wakes with several requests ready at once (one per connection
whose bytes arrived). Handled one by one, each review's judging runs between another request's TLS,
HTTP parsing and socket writes, which push the judge's code and data out of the CPU caches; judged
back to back, the reviews of a turn share them warm. A lone request waits for nothing but the end of
its own turn (docs/performance.md, "Reviews judged back to back").
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Generic, TypeVar

Answer = TypeVar("Answer")


class TurnQueue(Generic[Answer]):
    """Calls `work` on each body submitted during a turn of the event loop, in arrival order, at the
    end of that turn; each submitter awaits its own answer, or its own exception."""

    __slots__ = ("_pending", "_work")

    def __init__(self, work: Callable[[bytes], Answer]) -> None:
        self._work = work
        self._pending: list[tuple[bytes, asyncio.Future[Answer]]] = []

    def submit(self, body: bytes) -> asyncio.Future[Answer]:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Answer] = loop.create_future()
        if not self._pending:
            loop.call_soon(self._run)
        self._pending.append((body, answer))
        return answer

    def _run(self) -> None:
        pending, self._pending = self._pending, []
        work = self._work
        for body, answer in pending:
            if answer.done():  # its handler was cancelled meanwhile
                continue
            try:
                answer.set_result(work(body))
            except Exception as error:
                answer.set_exception(error)
