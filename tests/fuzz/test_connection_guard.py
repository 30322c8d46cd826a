"""ConnectionGuard's rules on their own, with fake transports: which connection makes room, which
deadline runs when, which connection a drain closes (the same rules, end to end over TLS, are
test_slow_clients.py's and, for the drain, test_server.py's and test_workers.py's).

The deadlines run on a `ManualClock`: which one fires when is checked to the millisecond, and no test
depends on how promptly a loaded machine wakes it (with real timers of 50 ms, a wake-up 25 ms late
was enough to see a deadline fire "early")."""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable
from typing import Any, cast

import pytest

from webhook.server import connections
from webhook.server.connections import ConnectionGuard, GuardedConnection
from webhook.settings import ConnectionLimits

SHORT = 0.05  # the drain idle time of the drain tests, which run on the event loop's clock


class ManualClock:
    """What a ConnectionGuard asks of its event loop, `time()` and `call_later()`, on a clock that
    moves only when a test says (`advance`), running each timer due meanwhile at its own time, in
    order. `loop` is the clock as the guard's loop."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[tuple[asyncio.TimerHandle, Callable[..., object], tuple[Any, ...]]] = []

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return cast(asyncio.AbstractEventLoop, self)

    def time(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> asyncio.TimerHandle:
        timer = asyncio.TimerHandle(self.now + delay, callback, args, self.loop)
        self.timers.append((timer, callback, args))
        return timer

    def get_debug(self) -> bool:  # asked by the timer handles
        return False

    def _timer_handle_cancelled(self, timer: asyncio.TimerHandle) -> None:  # told by `timer.cancel()`
        pass

    def advance(self, seconds: float) -> None:
        until = self.now + seconds
        while due := [entry for entry in self.timers if entry[0].when() <= until]:
            entry = min(due, key=lambda entry: entry[0].when())
            self.timers.remove(entry)
            timer, callback, args = entry
            if not timer.cancelled():
                self.now = timer.when()
                callback(*args)
        self.now = until


class FakeTransport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.aborted = False
        self.closed = False  # gracefully
        self.unsent = 0  # bytes of an answer not handed to the kernel yet

    def abort(self) -> None:
        self.aborted = True

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.aborted or self.closed

    def get_write_buffer_size(self) -> int:
        return self.unsent

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default


class RecordingProtocol(asyncio.Protocol):
    """Stands for aiohttp's protocol: records what the guard passes on."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.calls.append("made")

    def data_received(self, data: bytes) -> None:
        self.calls.append(f"data {data!r}")

    def pause_writing(self) -> None:
        self.calls.append("pause")

    def resume_writing(self) -> None:
        self.calls.append("resume")

    def connection_lost(self, exc: Exception | None) -> None:
        self.calls.append("lost")


class CountingGuard(ConnectionGuard):
    """A guard whose closings are counted by reason, as the metrics count them (`on_close`)."""

    def __init__(self, limits: ConnectionLimits, loop: asyncio.AbstractEventLoop) -> None:
        self.closed: collections.Counter[str] = collections.Counter()
        super().__init__(limits, loop=loop, on_close=self.count)

    def count(self, reason: str) -> None:
        self.closed[reason] += 1


def guard(clock: ManualClock | None = None, **limits: Any) -> CountingGuard:
    """A guard whose deadlines run on `clock`, or on the running event loop's."""
    defaults = {"header_timeout_seconds": 60.0, "write_timeout_seconds": 60.0, "max_connections": 3}
    loop = clock.loop if clock is not None else asyncio.get_running_loop()
    return CountingGuard(ConnectionLimits(**{**defaults, **limits}), loop)


def connect(guarded: ConnectionGuard) -> tuple[GuardedConnection, FakeTransport, RecordingProtocol]:
    connection, inner = accept(guarded)
    transport = FakeTransport()
    connection.connection_made(transport)
    return connection, transport, inner


def accept(guarded: ConnectionGuard) -> tuple[GuardedConnection, RecordingProtocol]:
    """A connection accepted, its TLS handshake not complete yet (no `connection_made`)."""
    inner = RecordingProtocol()
    connection = guarded.wrap(lambda: inner)()
    assert isinstance(connection, GuardedConnection)
    return connection, inner


async def test_past_the_limit_the_longest_idle_connection_makes_room() -> None:
    guarded = guard()
    first, first_transport, _ = connect(guarded)
    second, second_transport, _ = connect(guarded)
    third, third_transport, _ = connect(guarded)
    first.request_started()  # busy: never evicted
    second.last_active, third.last_active = 10.0, 5.0  # third idle for longer
    fourth, fourth_transport, fourth_inner = connect(guarded)
    assert third_transport.aborted and not first_transport.aborted and not second_transport.aborted
    assert not fourth_transport.aborted and fourth_inner.calls == ["made"]
    assert guarded.closed == {"evicted": 1}
    assert set(guarded.open.values()) == {first, second, fourth}


async def test_each_closing_is_told_to_the_metrics_with_a_reason_they_know() -> None:
    from webhook.metrics import CONNECTION_CLOSING_REASONS, Metrics
    from webhook.registry import REGISTRY
    from webhook.server.connections import _CLOSING_REASONS

    assert set(_CLOSING_REASONS) == set(CONNECTION_CLOSING_REASONS)
    metrics = Metrics(REGISTRY)
    guarded = ConnectionGuard(
        ConnectionLimits(max_connections=1),
        loop=asyncio.get_running_loop(),
        on_close=metrics.observe_connection_closed,
    )
    connect(guarded)
    connect(guarded)  # the first, idle, is evicted
    value = metrics.registry.get_sample_value("dra_webhook_connections_closed_total", {"reason": "evicted"})
    assert value == 1.0
    assert (
        metrics.registry.get_sample_value("dra_webhook_connections_closed_total", {"reason": "refused"})
        == 0.0
    )


async def test_when_every_connection_is_busy_the_new_one_is_refused() -> None:
    guarded = guard(max_connections=2)
    for connection, _, _ in (connect(guarded), connect(guarded)):
        connection.request_started()
    refused, transport, inner = connect(guarded)
    assert transport.aborted
    assert inner.calls == []  # aiohttp never sees it
    refused.data_received(b"GET / HTTP/1.1\r\n")
    refused.connection_lost(None)
    assert inner.calls == []
    assert guarded.closed == {"refused": 1}
    assert len(guarded.open) == 2


def test_a_head_not_complete_within_the_deadline_closes_the_connection() -> None:
    clock = ManualClock()
    guarded = guard(clock, header_timeout_seconds=1.0)
    _, transport, inner = connect(guarded)
    clock.advance(0.99)
    assert not transport.aborted
    clock.advance(0.02)
    assert transport.aborted
    assert guarded.closed == {"slow-head": 1}
    assert inner.calls == ["made"]


def test_the_head_deadline_stops_when_the_handler_starts_and_rearms_on_the_next_request() -> None:
    clock = ManualClock()
    guarded = guard(clock, header_timeout_seconds=1.0)
    connection, transport, _ = connect(guarded)
    connection.data_received(b"POST /validate HTTP/1.1\r\n\r\n")
    connection.request_started()
    clock.advance(4.0)  # a slow handler, or a slow body: not the head deadline's business
    connection.request_finished()
    clock.advance(4.0)  # idle between requests: still not
    assert not transport.aborted
    connection.data_received(b"POST /valid")  # the next request starts at 8 s, and stalls
    clock.advance(0.99)
    assert not transport.aborted
    clock.advance(0.02)
    assert transport.aborted
    assert guarded.closed == {"slow-head": 1}


def test_a_write_blocked_past_the_deadline_drops_the_connection() -> None:
    clock = ManualClock()
    guarded = guard(clock, write_timeout_seconds=1.0)
    connection, transport, inner = connect(guarded)
    connection.request_started()
    connection.pause_writing()
    clock.advance(0.99)
    connection.resume_writing()  # the client read in time
    clock.advance(4.0)
    assert not transport.aborted
    connection.pause_writing()  # and then stopped reading
    clock.advance(0.99)
    assert not transport.aborted
    clock.advance(0.02)
    assert transport.aborted
    assert guarded.closed == {"slow-write": 1}
    assert inner.calls == ["made", "pause", "resume", "pause"]


def test_a_closed_connection_leaves_room_and_its_timers_stop() -> None:
    clock = ManualClock()
    guarded = guard(clock, header_timeout_seconds=1.0, max_connections=1)
    connection, transport, inner = connect(guarded)
    connection.connection_lost(None)
    assert guarded.open == {}
    clock.advance(4.0)
    assert not transport.aborted and guarded.closed == {}
    assert inner.calls == ["made", "lost"]
    _, second_transport, _ = connect(guarded)
    assert not second_transport.aborted


# --- the drain at shutdown --------------------------------------------------------------------------


@pytest.fixture
def short_drain(monkeypatch: pytest.MonkeyPatch) -> float:
    monkeypatch.setattr(connections, "DRAIN_IDLE_SECONDS", SHORT)
    return SHORT


async def test_a_drain_closes_only_connections_idle_for_the_drain_idle_time(short_drain: float) -> None:
    guarded = guard()
    guarded.start_draining()
    _, idle_transport, _ = connect(guarded)
    busy, busy_transport, _ = connect(guarded)
    busy.request_started()  # a review being read or judged
    arriving, arriving_transport, _ = connect(guarded)
    assert guarded.close_idle_connections() == 0  # nobody idle for long enough yet
    await asyncio.sleep(short_drain * 2)
    arriving.data_received(b"POST /validate HTTP/1.1\r\n")  # the first bytes of a next review
    assert guarded.close_idle_connections() == 1
    assert idle_transport.closed and not idle_transport.aborted  # closed gracefully, not reset
    assert not busy_transport.closed and not arriving_transport.closed
    assert guarded.closed == {}  # not a closing of the slow-client kind (no metric)


async def test_a_drain_waits_for_an_answer_still_being_sent(short_drain: float) -> None:
    guarded = guard()
    guarded.start_draining()
    connection, transport, _ = connect(guarded)
    connection.request_started()
    connection.request_finished()
    transport.unsent = 100  # the client is slow to read it
    await asyncio.sleep(short_drain * 2)
    assert guarded.close_idle_connections() == 0
    transport.unsent = 0
    assert guarded.close_idle_connections() == 0  # idle from now on, not from the answer's start
    await asyncio.sleep(short_drain * 2)
    assert guarded.close_idle_connections() == 1


async def test_a_drain_is_over_when_no_connection_is_left_nor_a_recent_handshake(short_drain: float) -> None:
    guarded = guard()
    connection, _, _ = connect(guarded)
    assert not guarded.drained()
    connection.connection_lost(None)
    assert guarded.drained()
    handshaking, _ = accept(guarded)  # accepted: its client may send a review once through TLS
    assert not guarded.drained()
    handshaking.connection_made(FakeTransport())
    assert not guarded.drained()  # now an open connection
    handshaking.connection_lost(None)
    assert guarded.drained()
    accept(guarded)  # a handshake that never ends (a port probe, a client gone)
    assert not guarded.drained()
    await asyncio.sleep(short_drain * 2)
    assert guarded.drained()  # no longer waited for
    accept(guarded)
    assert len(guarded.handshaking) == 1  # the failed one is forgotten at the next accept


async def test_a_drain_returns_once_the_last_connection_is_gone(short_drain: float) -> None:
    guarded = guard()
    connection, transport, _ = connect(guarded)
    connection.request_started()
    draining = asyncio.create_task(guarded.drain())
    await asyncio.sleep(short_drain * 2)
    assert not draining.done()  # a review in flight
    connection.request_finished()
    await asyncio.sleep(short_drain * 4)
    assert transport.closed  # idle, then closed by the drain
    assert not draining.done()  # until its loss is reported
    connection.connection_lost(None)
    await asyncio.wait_for(draining, 1)
