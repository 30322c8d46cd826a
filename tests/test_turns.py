"""Reviews judged back to back: what arrives in one turn of the event loop is worked in one callback."""

from __future__ import annotations

import asyncio

import pytest

from webhook.server.turns import TurnQueue


class Recorder:
    """A `work` function that notes each body and the batch it came in."""

    def __init__(self) -> None:
        self.batches: list[list[bytes]] = []
        self.current: list[bytes] = []

    def work(self, body: bytes) -> str:
        if body == b"broken":
            raise ValueError("cannot read it")
        if not self.batches or self.batches[-1] is not self.current:
            self.batches.append(self.current)
        self.current.append(body)
        return body.decode().upper()

    def next_turn(self) -> None:
        self.current = []


async def test_bodies_submitted_in_one_turn_are_worked_together_in_arrival_order() -> None:
    recorder = Recorder()
    turns = TurnQueue(recorder.work)
    answers = [turns.submit(body) for body in (b"a", b"b", b"c")]
    assert recorder.batches == []  # nothing is worked before the turn ends
    assert await asyncio.gather(*answers) == ["A", "B", "C"]
    assert recorder.batches == [[b"a", b"b", b"c"]]


async def test_a_body_submitted_in_a_later_turn_is_worked_in_a_later_callback() -> None:
    recorder = Recorder()
    turns = TurnQueue(recorder.work)
    recorder.next_turn()
    first = await turns.submit(b"first")
    recorder.next_turn()
    second = await turns.submit(b"second")
    assert (first, second) == ("FIRST", "SECOND")
    assert recorder.batches == [[b"first"], [b"second"]]


async def test_a_failure_reaches_its_own_submitter_only() -> None:
    recorder = Recorder()
    turns = TurnQueue(recorder.work)
    before, broken, after = (turns.submit(body) for body in (b"before", b"broken", b"after"))
    assert await before == "BEFORE"
    with pytest.raises(ValueError, match="cannot read it"):
        await broken
    assert await after == "AFTER"


async def test_the_body_of_a_cancelled_submitter_is_not_worked() -> None:
    recorder = Recorder()
    turns = TurnQueue(recorder.work)
    kept, dropped = turns.submit(b"kept"), turns.submit(b"dropped")
    dropped.cancel()
    assert await kept == "KEPT"
    assert recorder.batches == [[b"kept"]]
