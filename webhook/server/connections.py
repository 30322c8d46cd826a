"""Connections: the bounds aiohttp lacks against slow and abusive clients, and the drain at shutdown
(`ConnectionGuard`, one per server, and a `GuardedConnection` in front of aiohttp's protocol on each
connection)."""

from __future__ import annotations

import array
import asyncio
import contextlib
import fcntl
import logging
import resource
import termios
from collections.abc import Awaitable, Callable
from typing import Any, Final, cast

from aiohttp import web

from webhook.settings import ConnectionLimits

log = logging.getLogger("webhook.server")

# While draining, a connection on which nothing has happened for this long (no request being read,
# handled or answered, no byte of a next one) is closed by the server, and a TLS handshake in
# progress for this long is no longer waited for. A client streaming reviews on a connection sends
# its next one sooner, and is told to go elsewhere by its answer (`Connection: close`), the one way
# HTTP/1.1 has to move it without a race; closing a connection under a client is left to those
# its client is not using.
DRAIN_IDLE_SECONDS: Final = 1.0
# How often a drain looks for idle connections and checks whether any is left.
DRAIN_CHECK_SECONDS: Final = 0.05
# Open files kept free of connections: listeners, certificate and log files, the metrics listener.
RESERVED_FILE_DESCRIPTORS: Final = 64


_CLOSING_REASONS: Final = {
    "slow-head": "no complete request head within the header timeout",
    "slow-write": "the client has not read its answer within the write timeout",
    "evicted": "the connection limit is reached: closing the connection idle for the longest",
    "refused": "the connection limit is reached and every connection is busy: refusing a new one",
}


class ConnectionGuard:
    """The bounds aiohttp lacks, for every connection of one server (settings.ConnectionLimits).

    aiohttp limits header sizes, queues at most 32 pipelined requests per connection, and closes a
    connection idle for `keepalive_timeout`; it has no deadline on a request's head, none on an
    answer the client does not read, and no connection limit. The guard sits in front of aiohttp's
    protocol on each connection (`wrap`) and adds, as Go's net/http server has them:

    * a head deadline, from the connection's start or the first byte of a later request to the
      moment a handler runs (ReadHeaderTimeout): slowloris headers;
    * a write deadline, while an answer is blocked by a client that stopped reading (WriteTimeout);
    * a connection limit: past it, the connection idle for the longest is closed to make room (a
      slowloris connection counts as idle), or the new connection if all are busy.

    The body deadline is the handler's (`_read_review`). Each closing is told to `on_close` (the
    metrics), with its reason.

    At shutdown it drains the connections (`start_draining`, `close_idle_connections`, `drained`):
    aiohttp's own shutdown closes every idle kept-alive connection at once and stops reading from
    all, while a client may be writing its next request on one; that request gets EOF instead of an
    answer. Draining, each answer carries `Connection: close` (the client sends its next request
    elsewhere, and aiohttp closes the connection after the answer), and a connection is closed by
    the server only once nothing has happened on it for DRAIN_IDLE_SECONDS and no byte is waiting.
    """

    def __init__(
        self,
        limits: ConnectionLimits,
        *,
        loop: asyncio.AbstractEventLoop,
        on_close: Callable[[str], None] | None = None,
    ) -> None:
        self.limits = limits
        self.loop = loop
        self.on_close = on_close
        self.max_connections = min(limits.max_connections, _open_file_budget())
        self.open: dict[asyncio.BaseProtocol, GuardedConnection] = {}  # aiohttp's protocol -> guard
        self.draining = False
        # Connections accepted whose TLS handshake is not complete (the protocols see a connection only
        # after it), with the time each was accepted, oldest first. A handshake that fails is never
        # reported: a drain stops waiting for it after DRAIN_IDLE_SECONDS, and the next accept drops it.
        self.handshaking: dict[GuardedConnection, float] = {}

    def wrap(self, make_protocol: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        """The protocol factory to listen with: aiohttp's, behind a `GuardedConnection`."""

        def accept() -> asyncio.Protocol:
            connection = GuardedConnection(make_protocol(), self)
            self._handshake_started(connection)
            return connection

        return accept

    def _handshake_started(self, connection: GuardedConnection) -> None:
        now = self.loop.time()
        handshaking = self.handshaking
        while handshaking:
            oldest, accepted_at = next(iter(handshaking.items()))
            if now - accepted_at < DRAIN_IDLE_SECONDS:
                break
            del handshaking[oldest]
        handshaking[connection] = now

    def handshake_done(self, connection: GuardedConnection) -> None:
        self.handshaking.pop(connection, None)

    def admit(self, connection: GuardedConnection) -> bool:
        if len(self.open) >= self.max_connections:
            idle = [other for other in self.open.values() if not other.in_request]
            if not idle:
                self.count_closing("refused")
                return False
            min(idle, key=lambda other: other.last_active).close("evicted")
        self.open[connection.inner] = connection
        return True

    def release(self, connection: GuardedConnection) -> None:
        self.open.pop(connection.inner, None)

    def count_closing(self, reason: str) -> None:
        if self.on_close is not None:
            self.on_close(reason)
        log.debug("closing a connection: %s", _CLOSING_REASONS[reason], extra={"reason": reason})

    @web.middleware
    async def middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Tells each connection when a request's head is complete (its handler runs) and when it is
        done: the head deadline stops at the first, the connection is idle again after the second.
        While draining, the answer closes its connection."""
        connection = self.open.get(request.protocol)
        if connection is None:  # not a guarded connection (a test client, a closing one)
            return await handler(request)
        connection.request_started()
        try:
            response = await handler(request)
        except web.HTTPException as error:  # an error answer (415, 413, 404...) is an answer too
            if self.draining:
                error.force_close()
            raise
        finally:
            connection.request_finished()
        if self.draining:
            response.force_close()  # `Connection: close`: the client sends its next review elsewhere
        return response

    # -- the drain ---------------------------------------------------------------------------------

    def start_draining(self) -> None:
        """From now on, every answer closes its connection."""
        self.draining = True

    def close_idle_connections(self) -> int:
        """Close each connection idle for DRAIN_IDLE_SECONDS with no byte waiting; how many."""
        now = self.loop.time()
        closed = 0
        for connection in list(self.open.values()):
            if connection.idle_for(now) >= DRAIN_IDLE_SECONDS and connection.close_if_quiet():
                closed += 1
        return closed

    def drained(self) -> bool:
        """No connection is left on which a client may still send a request: none open, none in a
        TLS handshake begun less than DRAIN_IDLE_SECONDS ago."""
        if self.open:
            return False
        now = self.loop.time()
        return all(now - accepted_at >= DRAIN_IDLE_SECONDS for accepted_at in self.handshaking.values())

    async def drain(self, *, until: float | None = None) -> None:
        """Drain: answers close their connections (`start_draining`), idle connections are closed as
        they come (`close_idle_connections`), until `drained()`, or until the loop time `until` if
        given (while the listener still accepts). The caller bounds it (the grace period)."""
        self.start_draining()
        while True:
            if self.close_idle_connections():
                log.debug("closed idle connections while draining", extra={"connections": len(self.open)})
            done = self.drained() if until is None else self.loop.time() >= until
            if done:
                return
            await asyncio.sleep(DRAIN_CHECK_SECONDS)


class GuardedConnection(asyncio.Protocol):
    """aiohttp's protocol for one connection, behind the guard's deadlines (see `ConnectionGuard`)."""

    def __init__(self, inner: asyncio.Protocol, guard: ConnectionGuard) -> None:
        self.inner = inner
        self.guard = guard
        self.transport: asyncio.Transport | None = None
        self.in_request = False
        self.request_arriving = False  # bytes of a request whose handler has not started yet
        self.last_active = guard.loop.time()
        self._admitted = False
        # When the head being waited for began (the connection, or the first bytes of a later
        # request), None while no head is awaited. The head deadline is `head_started` plus the header
        # timeout; its timer is not cancelled when a head completes in time, but checks when it fires
        # and re-arms for the head awaited then, if any (one timer per timeout, not one per request).
        self._head_started: float | None = None
        self._head_timer: asyncio.TimerHandle | None = None
        self._write_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        self.guard.handshake_done(self)
        if not self.guard.admit(self):
            self.transport.abort()
            return
        self._admitted = True
        self._await_head(self.last_active)
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if not self._admitted:
            return  # refused: aborted, and aiohttp's protocol never saw the connection
        self.last_active = now = self.guard.loop.time()
        if not self.in_request:
            self.request_arriving = True
            if self._head_started is None:
                self._await_head(now)  # the first bytes of the next request
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        # The transport's buffer is full: the client is not reading. Resumed below when it drains.
        if self._write_deadline is None:
            self._write_deadline = self.guard.loop.call_later(
                self.guard.limits.write_timeout_seconds, self.close, "slow-write"
            )
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self._cancel_write_deadline()
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        self._cancel_write_deadline()
        self.guard.release(self)
        if self._admitted:
            self.inner.connection_lost(exc)

    def request_started(self) -> None:
        self.in_request, self.request_arriving = True, False
        self._head_started = None  # in time: the deadline is off (its timer will find so)

    def request_finished(self) -> None:
        self.in_request = False
        self.last_active = self.guard.loop.time()

    def close(self, reason: str) -> None:
        """Drop the connection at once (abort: a close would wait to flush to a client that does
        not read)."""
        self.guard.count_closing(reason)
        self.guard.release(self)  # room for the next connection now, not when the loss is reported
        if self.transport is not None:
            self.transport.abort()

    def idle_for(self, now: float) -> float:
        """Seconds since anything happened on the connection; 0 while a request is being read or
        handled, bytes of a next one have come, or an answer is still being sent."""
        transport = self.transport
        if self.in_request or self.request_arriving or transport is None or transport.is_closing():
            return 0.0
        if transport.get_write_buffer_size():
            self.last_active = now  # idle, at the earliest, from when the answer is all sent
            return 0.0
        return now - self.last_active

    def close_if_quiet(self) -> bool:
        """Close the connection (gracefully: TLS close_notify, then FIN) unless bytes from the client
        wait in the socket unread. True when closed."""
        if self.transport is None or _unread_bytes(self.transport):
            return False
        log.debug("closing a connection idle while draining")
        self.transport.close()
        return True

    def _await_head(self, started: float) -> None:
        self._head_started = started
        if self._head_timer is None:
            self._head_timer = self.guard.loop.call_later(
                self.guard.limits.header_timeout_seconds, self._head_timer_fired
            )

    def _head_timer_fired(self) -> None:
        self._head_timer = None
        started = self._head_started
        if started is None or self.in_request:
            return  # the head came in time; no other is awaited yet
        remaining = started + self.guard.limits.header_timeout_seconds - self.guard.loop.time()
        if remaining > 0:  # a later head, whose own deadline is still ahead
            self._head_timer = self.guard.loop.call_later(remaining, self._head_timer_fired)
            return
        self.close("slow-head")

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _cancel_write_deadline(self) -> None:
        if self._write_deadline is not None:
            self._write_deadline.cancel()
            self._write_deadline = None


def _unread_bytes(transport: asyncio.BaseTransport) -> int:
    """Bytes received on the transport's socket that the event loop has not read yet (FIONREAD)."""
    sock = transport.get_extra_info("socket")
    if sock is None:
        return 0
    count = array.array("i", [0])
    try:
        fcntl.ioctl(sock.fileno(), termios.FIONREAD, count)
    except OSError:  # closed meanwhile
        return 0
    return count[0]


def _open_file_budget() -> int:
    """The connections the open-file limit allows, after raising its soft limit to the hard one (as Go
    programs do at start-up since Go 1.19)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    return max(soft - RESERVED_FILE_DESCRIPTORS, 1)


class GuardedAppRunner(web.AppRunner):
    """An AppRunner whose sites listen through a `ConnectionGuard` (aiohttp's sites take their protocol
    factory from `runner.server`; aiohttp's own shutdown still sees its real Server)."""

    def __init__(self, app: web.Application, *, guard: ConnectionGuard, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.guard = guard
        app.middlewares.insert(0, guard.middleware)

    @property
    def server(self) -> Any:
        server = super().server
        return None if server is None else self.guard.wrap(server)
