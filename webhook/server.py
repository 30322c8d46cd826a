"""The HTTP edge: the only module that imports aiohttp.

`POST /validate` takes an AdmissionReview and answers with HTTP 200 and a verdict; a request that is
not a readable AdmissionReview gets the HTTP error of SPEC A.4 with a one-line JSON reason
(`{"code": 415, "message": "..."}`). `GET /healthz` says the process is alive, `GET /readyz` that
the certificate is loaded and the rules are built, and turns false as soon as shutdown starts.
Each answer is counted (`webhook.metrics`) and each denial logged (`webhook.logs`).

`WebhookServer` runs one process's share of the service: it boots (certificate, configuration,
rules), listens (with SO_REUSEPORT when several workers share the port), keeps the certificate and
the configuration current, and stops without losing a review sent on an open connection: readiness
false and `Connection: close` on every answer, an optional delay, the listener closed, then each
connection closed once its client cannot be sending on it, within the grace period (`stop`).
`serve()` runs one until SIGTERM/SIGINT; `webhook.workers` runs several under a supervisor.
"""

from __future__ import annotations

import array
import asyncio
import collections
import contextlib
import dataclasses
import fcntl
import logging
import os
import resource
import signal
import ssl
import termios
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from dataclasses import dataclass
from time import perf_counter
from typing import Any, Final, cast

import orjson
from aiohttp import hdrs, web
from aiohttp.abc import AbstractAccessLogger
from aiohttp.http_exceptions import HttpProcessingError
from prometheus_client import CollectorRegistry
from prometheus_client.exposition import choose_encoder

from webhook.admission import (
    AdmissionRequest,
    AdmissionReview,
    Judge,
    UnreadableReview,
    Verdict,
    errored,
    namespace_policy_from,
    parse_review,
    review_response,
)
from webhook.config import ConfigError, ConfigWatcher
from webhook.logs import ACCESS_LOGGER, log_decision, request_fields
from webhook.metrics import Metrics, single_process_registry
from webhook.registry import REGISTRY
from webhook.schemas import StructuralChecker
from webhook.settings import ConnectionLimits, ListenAddress, PolicySettings, Settings
from webhook.tls import (
    CertificateError,
    CertificateReloader,
    build_server_context,
    ensure_development_certificates,
)

log = logging.getLogger("webhook.server")

VALIDATE_PATH: Final = "/validate"
METRICS_PATH: Final = "/metrics"
JSON_CONTENT_TYPE: Final = "application/json"
JSON_CONTENT_TYPES: Final = frozenset({JSON_CONTENT_TYPE})
# Pending connections the kernel queues per listener: a rolling restart of kube-apiservers reconnects
# all at once, and 128 (aiohttp's default) overflows into SYN retries of a second.
LISTEN_BACKLOG: Final = 1024
# A worker whose supervisor is gone (SIGKILL, OOM) stops within this many seconds instead of
# holding the port forever.
PARENT_CHECK_INTERVAL_SECONDS: Final = 1.0
# aiohttp's own shutdown wait, after ours (`WebhookServer.stop`) drained the connections or ran out of
# grace period: for the reviews that outlived it.
FINAL_SHUTDOWN_TIMEOUT_SECONDS: Final = 1.0
# While draining, a connection on which nothing has happened for this long (no request being read,
# handled or answered, no byte of a next one) is closed by the server, and a TLS handshake in
# progress for this long is no longer waited for. A client streaming reviews on a connection sends
# its next one sooner, and is told to go elsewhere by its answer (`Connection: close`), the one way
# HTTP/1.1 has to move it without a race; closing a connection under a client is left to those
# its client is not using.
DRAIN_IDLE_SECONDS: Final = 1.0
# How often a drain looks for idle connections and checks whether any is left.
DRAIN_CHECK_SECONDS: Final = 0.05
# How old the counts of a scrape may be: each process adds its reviews to the instruments this often
# (`Metrics.flush`), when it stops, and right before a scrape of its own registry.
METRICS_FLUSH_SECONDS: Final = 0.5
# Exit status of a process that could not start (certificate, configuration, port): the supervisor
# stops instead of restarting it in a loop.
EXIT_BOOT_FAILED: Final = 3
# The review uid, kept on the request for the access line: a typed key from aiohttp 3.14 on (a plain
# string key warns there), a string before.
UID_REQUEST_KEY: Final[Any] = web.RequestKey("uid", str) if hasattr(web, "RequestKey") else "dra_webhook.uid"


@dataclass(slots=True)
class Readiness:
    """Ready once the rules are built and the certificate is loaded; not ready once shutdown starts."""

    rules_ready: bool = False
    certificate_ready: bool = False
    shutting_down: bool = False

    @property
    def ready(self) -> bool:
        return self.rules_ready and self.certificate_ready and not self.shutting_down


@dataclass(slots=True)
class CurrentJudge:
    """The judge in service. A configuration reload swaps it (one assignment, between requests)."""

    judge: Judge


@dataclass(slots=True)
class Traffic:
    """Reviews being handled now, and those cut off by the end of a grace period."""

    in_flight: int = 0
    cut_off: int = 0

    def enter(self) -> None:
        self.in_flight += 1

    def leave(self) -> None:
        self.in_flight -= 1


SETTINGS_KEY: Final = web.AppKey("settings", Settings)
JUDGE_KEY: Final = web.AppKey("judge", CurrentJudge)
READINESS_KEY: Final = web.AppKey("readiness", Readiness)
METRICS_KEY: Final = web.AppKey("metrics", Metrics)
TRAFFIC_KEY: Final = web.AppKey("traffic", Traffic)
RELOADER_KEY: Final = web.AppKey("certificate_reloader", CertificateReloader)
CONFIG_KEY: Final = web.AppKey("config_watcher", ConfigWatcher)
REGISTRY_KEY: Final = web.AppKey("metrics_registry", CollectorRegistry)


# --- handlers ---------------------------------------------------------------------------------------


@dataclass(slots=True)
class ReviewEndpoint:
    """`POST /validate`, with the app's state bound once (`create_app`) rather than looked up in the
    app at each request. The objects are the app's own: a configuration reload swaps the judge
    inside `current`."""

    settings: Settings
    current: CurrentJudge
    metrics: Metrics
    traffic: Traffic

    async def validate(self, request: web.Request) -> web.Response:
        metrics, traffic = self.metrics, self.traffic
        started = perf_counter()
        traffic.enter()
        try:
            try:
                review = await _read_review(request, self.settings)
            except web.HTTPException as error:
                _record_unreadable(metrics, error.status, perf_counter() - started)
                raise
            if self.settings.access_log:  # for the access line (`StructuredAccessLogger`)
                request[UID_REQUEST_KEY] = review.request.uid
            verdict = self.current.judge.judge(review.request)
            answer, verdict = _encode_answer(review, verdict)
            _record_answer(metrics, review.request, verdict, perf_counter() - started)
            return web.Response(body=answer, content_type="application/json")
        except asyncio.CancelledError:
            traffic.cut_off += 1  # the grace period ended (or the client left) before the answer
            raise
        finally:
            traffic.leave()


async def _read_review(request: web.Request, settings: Settings) -> AdmissionReview:
    """The AdmissionReview of the request, or the HTTP error of SPEC A.4."""
    # The usual header is exactly `application/json`: then so is the parsed type (aiohttp's parse,
    # `request.content_type`, runs only for any other value).
    if (
        request.headers.get(hdrs.CONTENT_TYPE) != JSON_CONTENT_TYPE
        and request.content_type not in JSON_CONTENT_TYPES
    ):
        raise _http_error(415, f"Content-Type must be application/json, got {request.content_type!r}")
    limit = settings.max_body_bytes
    if request.content_length is not None and request.content_length > limit:
        raise _http_error(413, f"request body of {request.content_length} bytes exceeds the limit of {limit}")
    body_timeout = settings.limits.body_timeout_seconds
    try:
        if request.content.is_eof():
            # The whole body is buffered already (the usual case): reading it cannot wait, so a
            # deadline could never fire, and arming one costs more than the read.
            body = await request.read()
        else:
            async with asyncio.timeout(body_timeout):
                body = await request.read()  # aiohttp stops reading at client_max_size (413)
    except web.HTTPRequestEntityTooLarge:
        raise _http_error(413, f"request body exceeds the limit of {limit} bytes") from None
    except TimeoutError:  # a slowly sent body (SECURITY.md): answered, and the connection closed
        error = _http_error(408, f"request body not received within {body_timeout:g}s")
        error.force_close()
        raise error from None
    except web.RequestPayloadError as unreadable:  # a broken chunked framing or Content-Encoding
        error = _http_error(400, "request body cannot be read: " + " ".join(str(unreadable).split()))
        error.force_close()
        raise error from None
    try:
        return parse_review(body)
    except UnreadableReview as unreadable:
        raise _http_error(unreadable.status, unreadable.reason) from None


def _encode_answer(review: AdmissionReview, verdict: Verdict) -> tuple[bytes, Verdict]:
    try:
        return orjson.dumps(review_response(review, verdict)), verdict
    except TypeError:  # a value that orjson cannot write: answer, and keep the uid
        log.exception("cannot encode the answer", extra={"event": "error", **request_fields(review.request)})
        failed = errored("dra-webhook: cannot encode the answer")
        return orjson.dumps(review_response(review, failed)), failed


# Counting and logging an answer must not cost the answer: a metric that cannot be written (a new
# label value whose multiprocess file is gone, say) is logged, and the verdict still goes out.


def _record_answer(metrics: Metrics, judged: AdmissionRequest, verdict: Verdict, seconds: float) -> None:
    try:
        metrics.observe_review(judged, verdict, seconds)
        log_decision(judged, verdict)
    except Exception:
        log.exception("cannot record the answer", extra={"event": "error", **request_fields(judged)})


def _record_unreadable(metrics: Metrics, status: int, seconds: float) -> None:
    try:
        metrics.observe_unreadable(status, seconds)
    except Exception:
        log.exception("cannot record an unreadable request", extra={"event": "error", "code": status})


async def healthz(request: web.Request) -> web.Response:
    return web.Response(text="ok\n")


async def readyz(request: web.Request) -> web.Response:
    readiness = request.app[READINESS_KEY]
    if readiness.ready:
        return web.Response(text="ok\n")
    reasons = []
    if readiness.shutting_down:
        reasons.append("shutting down")
    if not readiness.rules_ready:
        reasons.append("rules not built")
    if not readiness.certificate_ready:
        reasons.append("certificate not loaded")
    return web.Response(status=503, text="not ready: " + ", ".join(reasons) + "\n")


async def metrics_page(request: web.Request) -> web.Response:
    """The Prometheus exposition (OpenMetrics when the scraper asks for it)."""
    encoder, content_type = choose_encoder(request.headers.get("Accept", ""))
    body = encoder(request.app[REGISTRY_KEY])
    response = web.Response(body=body)
    response.headers["Content-Type"] = content_type
    return response


# --- errors as one-line JSON ------------------------------------------------------------------------


def _http_error(status: int, message: str) -> web.HTTPException:
    error = web.HTTPException()
    error.set_status(status)
    error.content_type = "application/json"
    error.body = orjson.dumps({"code": status, "message": message}) + b"\n"
    return error


@web.middleware
async def json_errors(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Every HTTP error leaves as one line of JSON; nothing escapes as a stack trace."""
    try:
        return await handler(request)
    except web.HTTPException as error:
        if error.status < 400 or error.content_type == "application/json":
            raise
        raise _http_error(error.status, error.reason) from None
    except (asyncio.CancelledError, ConnectionError):
        raise
    except Exception:
        log.exception("unexpected error in %s %s", request.method, request.path)
        raise _http_error(500, "internal error; see the webhook log") from None


class StructuredAccessLogger(AbstractAccessLogger):
    """One ``webhook.access`` line per HTTP request (``--access-log``), with the review uid if any."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        self.logger.info(
            "%s %s %d",
            request.method,
            request.path,
            response.status,
            extra={
                "remote": request.remote,
                "method": request.method,
                "path": request.path,
                "status": response.status,
                "durationMs": round(time * 1000, 3),
                "uid": request.get(UID_REQUEST_KEY, ""),
            },
        )


# --- the applications -------------------------------------------------------------------------------


def create_app(
    settings: Settings, *, judge: Judge | None = None, metrics: Metrics | None = None
) -> web.Application:
    """The webhook application. `judge` defaults to one built from `settings.policy`, `metrics` to
    instruments on a private registry."""
    app = web.Application(client_max_size=settings.max_body_bytes, middlewares=[json_errors])
    judge = judge or Judge.build(settings.policy)
    app[SETTINGS_KEY] = settings
    app[JUDGE_KEY] = current = CurrentJudge(judge)
    app[METRICS_KEY] = metrics = metrics or Metrics(judge.registry)
    app[TRAFFIC_KEY] = traffic = Traffic()
    metrics.count_in_flight(lambda: traffic.in_flight)
    app[READINESS_KEY] = Readiness(rules_ready=True)
    endpoint = ReviewEndpoint(settings, current, metrics, traffic)
    app.router.add_post(VALIDATE_PATH, endpoint.validate)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.on_shutdown.append(_mark_shutting_down)

    async def flush_metrics() -> None:
        metrics.flush_or_log()

    app.cleanup_ctx.append(_every(METRICS_FLUSH_SECONDS, flush_metrics, last_round=True))
    return app


def create_metrics_app(registry: CollectorRegistry) -> web.Application:
    """The plain-HTTP metrics application: `GET /metrics` and nothing else."""
    app = web.Application(middlewares=[json_errors])
    app[REGISTRY_KEY] = registry
    app.router.add_get(METRICS_PATH, metrics_page)
    return app


async def start_metrics_listener(registry: CollectorRegistry, address: ListenAddress) -> web.AppRunner:
    """Serve `registry` at http://address/metrics until the returned runner is cleaned up."""
    runner = web.AppRunner(create_metrics_app(registry), access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    await web.TCPSite(runner, address.host, address.port).start()
    log.info("serving metrics on http://%s%s", address, METRICS_PATH)
    return runner


async def _mark_shutting_down(app: web.Application) -> None:
    app[READINESS_KEY].shutting_down = True


def server_tls(settings: Settings) -> ssl.SSLContext:
    """The TLS context of the served certificate, generating development certificates if allowed
    (`ensure_development_certificates` logs what it made, once)."""
    if settings.generate_dev_certs:
        ensure_development_certificates(settings.cert_dir)
    return build_server_context(settings.cert_file, settings.key_file, client_ca_file=settings.client_ca_file)


def attach_certificate_reloader(app: web.Application, context: ssl.SSLContext) -> None:
    """Reload the serving pair when its files change, for as long as the app runs."""
    settings, metrics = app[SETTINGS_KEY], app[METRICS_KEY]
    reloader = CertificateReloader(context, settings.cert_file, settings.key_file)
    app[RELOADER_KEY] = reloader
    app[READINESS_KEY].certificate_ready = True

    def measure() -> None:
        metrics.observe_certificate(
            reloads=reloader.reloads,
            reload_errors=reloader.reload_errors,
            not_after_timestamp=reloader.not_after.timestamp(),
        )

    async def check() -> None:
        await asyncio.to_thread(reloader.reload_if_changed)
        measure()

    measure()
    app.cleanup_ctx.append(_every(settings.cert_reload_interval_seconds, check))


def attach_config_watcher(app: web.Application, watcher: ConfigWatcher) -> None:
    """Apply the configuration file's changes while the app runs; a broken file changes nothing."""
    app[CONFIG_KEY] = watcher
    current, metrics = app[JUDGE_KEY], app[METRICS_KEY]

    async def check() -> None:
        policy = await asyncio.to_thread(watcher.poll)
        if policy is not None:
            current.judge = judge_with_policy(current.judge, policy)
        metrics.observe_config(reloads=watcher.reloads, reload_errors=watcher.reload_errors)

    app.cleanup_ctx.append(_every(app[SETTINGS_KEY].config_reload_interval_seconds, check))


def judge_with_policy(judge: Judge, policy: PolicySettings) -> Judge:
    """`judge` with another policy: the same rule registry, the same schemas unless switched."""
    structural = judge.structural
    if policy.structural_check != judge.policy.structural_check:
        structural = StructuralChecker.load() if policy.structural_check else None
    return dataclasses.replace(
        judge, policy=policy, namespace_policy=namespace_policy_from(policy), structural=structural
    )


def _every(
    interval: float, action: Callable[[], Awaitable[None]], *, last_round: bool = False
) -> Callable[[web.Application], AsyncIterator[None]]:
    """A cleanup context that runs `action` every `interval` seconds while the app runs, and once
    more when it stops if `last_round` (by then aiohttp has answered or cancelled every request)."""

    async def context(app: web.Application) -> AsyncIterator[None]:
        async def loop() -> None:
            while True:
                await asyncio.sleep(interval)
                try:
                    await action()
                except Exception:  # a watcher must outlive one bad round
                    log.exception("periodic check failed")

        task = asyncio.create_task(loop())
        yield
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        if last_round:
            await action()

    return context


# --- connections: slow and abusive clients, and the drain at shutdown --------------------------------

# After an error answer to a request whose body was not read (413, 408), aiohttp reads and drops the
# rest before closing, so that the client sees the answer rather than a reset; its default of 10 s
# would let a slow client hold the connection 10 s more.
LINGER_SECONDS: Final = 2.0
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

    The body deadline is the handler's (`_read_review`). Each closing is counted in `closed` and
    told to `on_close` (the metrics).

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
        self.closed: collections.Counter[str] = collections.Counter()
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
        self.closed[reason] += 1
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


class ClientErrorsAtDebug(logging.Filter):
    """aiohttp logs each malformed request it refuses with 400 (a bad request line, a header too long,
    a broken Content-Length) as an error with a stack trace, and once more a body it could not decode
    when it drains the rest after our 400: the client's fault, not the server's, and a way for anyone
    who reaches the port to fill the log. Such records are kept at debug level."""

    def filter(self, record: logging.LogRecord) -> bool:
        client_fault = record.exc_info is not None and isinstance(
            record.exc_info[1], HttpProcessingError | web.RequestPayloadError
        )
        if not client_fault:
            return True
        if not logging.getLogger(record.name).isEnabledFor(logging.DEBUG):
            return False
        record.levelno, record.levelname = logging.DEBUG, logging.getLevelName(logging.DEBUG)
        return True


def quiet_client_errors() -> None:
    """Install `ClientErrorsAtDebug` on aiohttp's server logger (once)."""
    server_log = logging.getLogger("aiohttp.server")
    if not any(isinstance(existing, ClientErrorsAtDebug) for existing in server_log.filters):
        server_log.addFilter(ClientErrorsAtDebug())


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


# --- one process's server ---------------------------------------------------------------------------


class BootError(Exception):
    """The server cannot start: the reason is in the message, no stack trace needed."""


class WebhookServer:
    """The webhook of one process: `start()` boots and listens, `stop()` shuts down gracefully."""

    def __init__(
        self,
        settings: Settings,
        *,
        judge: Judge | None = None,
        reuse_port: bool = False,
        serve_metrics: bool = True,
    ) -> None:
        self.settings = settings
        self._judge = judge
        self._reuse_port = reuse_port
        self._serve_metrics = serve_metrics
        self._runner: web.AppRunner | None = None
        self._guard: ConnectionGuard | None = None
        self._site: web.TCPSite | None = None
        self._metrics_runner: web.AppRunner | None = None
        self.app: web.Application | None = None

    @property
    def port(self) -> int:
        """The bound port (useful with port 0)."""
        if self._site is None:
            raise RuntimeError("the server is not started")
        return self._site.port

    async def start(self) -> None:
        """Boot and listen. Raises BootError for a certificate, configuration or address problem."""
        settings = self.settings
        try:
            context = server_tls(settings)
            known_kinds = set(self._judge.registry if self._judge else REGISTRY)
            watcher = (
                ConfigWatcher(settings.config_file, base=settings.policy, known_kinds=known_kinds)
                if settings.config_file is not None
                else None
            )
            policy = watcher.policy if watcher is not None else settings.policy
            judge = judge_with_policy(self._judge, policy) if self._judge else Judge.build(policy)
        except (CertificateError, ConfigError) as error:
            raise BootError(str(error)) from None
        except OSError as error:  # e.g. a certificate directory that cannot be written
            raise BootError(f"{error.filename or ''}: {error.strerror or error}") from None
        app = create_app(settings, judge=judge)
        quiet_client_errors()
        attach_certificate_reloader(app, context)
        if watcher is not None:
            attach_config_watcher(app, watcher)
        self.app = app
        self._guard = guard = ConnectionGuard(
            settings.limits,
            loop=asyncio.get_running_loop(),
            on_close=app[METRICS_KEY].observe_connection_closed,
        )
        runner = GuardedAppRunner(
            app,
            guard=guard,
            handle_signals=False,
            access_log_class=StructuredAccessLogger,
            access_log=logging.getLogger(ACCESS_LOGGER) if settings.access_log else None,
            shutdown_timeout=FINAL_SHUTDOWN_TIMEOUT_SECONDS,
            keepalive_timeout=settings.limits.idle_timeout_seconds,
            lingering_time=LINGER_SECONDS,
        )
        await runner.setup()
        self._runner = runner
        site = web.TCPSite(
            runner,
            settings.host,
            settings.port,
            ssl_context=context,
            backlog=LISTEN_BACKLOG,
            reuse_port=self._reuse_port or None,
        )
        try:
            await site.start()
            self._site = site
            if self._serve_metrics and settings.metrics_address is not None:
                registry = single_process_registry(app[METRICS_KEY])
                self._metrics_runner = await start_metrics_listener(registry, settings.metrics_address)
        except OSError as error:
            await self._cleanup()
            raise BootError(f"cannot listen: {error.strerror or error}") from None
        log.info(
            "serving https://%s:%d%s",
            settings.host,
            site.port,
            VALIDATE_PATH,
            extra={"port": site.port, "reusePort": self._reuse_port},
        )

    async def stop(self) -> None:
        """Stop without losing a review sent on an open connection.

        1. Readiness turns false, and every answer from now on carries `Connection: close`: a
           kept-alive client sends its next review elsewhere, and aiohttp closes the connection
           after the answer.
        2. For the shutdown delay the listener still accepts (those connections are drained too).
        3. The listener closes: new connections are refused.
        4. The drain (`ConnectionGuard.drain`), for up to the grace period: reviews in flight finish,
           their bodies still read; a connection closes after the answer that told its client so; a
           connection idle for DRAIN_IDLE_SECONDS with no byte waiting is closed by the server (its
           client is not using it); TLS handshakes in progress are waited for. aiohttp's own shutdown
           would instead close every idle connection at once and stop reading from all of them,
           while a client may be writing its next review on one.
        5. aiohttp's cleanup: what outlived the grace period is cut off (after
           FINAL_SHUTDOWN_TIMEOUT_SECONDS more for a review still being judged), then the app's
           cleanups run (the certificate and configuration watchers, the last metrics flush).
        """
        if self.app is None or self._guard is None:
            return
        self.app[READINESS_KEY].shutting_down = True
        guard, traffic = self._guard, self.app[TRAFFIC_KEY]
        guard.start_draining()
        grace = self.settings.grace_period_seconds
        log.info(
            "shutting down: not ready, %d review(s) in flight, grace %gs",
            traffic.in_flight,
            grace,
            extra={"connections": len(guard.open)},
        )
        loop = asyncio.get_running_loop()
        if self.settings.shutdown_delay_seconds > 0:
            await guard.drain(until=loop.time() + self.settings.shutdown_delay_seconds)
        if self._site is not None:
            await self._site.stop()
        try:
            await asyncio.wait_for(guard.drain(), grace)
        except TimeoutError:
            log.warning(
                "the grace period ended with %d review(s) unanswered",
                traffic.in_flight,
                extra={"connections": len(guard.open)},
            )
        await self._cleanup()
        log.info("stopped")

    async def _cleanup(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()  # aiohttp: sites, idle connections, in-flight handlers, app
            self._runner = None
        if self._metrics_runner is not None:
            await self._metrics_runner.cleanup()
            self._metrics_runner = None


async def serve_until_stopped(
    settings: Settings, *, worker: bool = False, parent_pid: int | None = None
) -> int:
    """Serve until SIGTERM (or SIGINT, or the parent process going away), then stop gracefully.

    A worker (`worker=True`) shares the port with its siblings, leaves the metrics listener to the
    supervisor and ignores SIGINT: a Ctrl-C reaches the whole process group, and the supervisor
    turns it into one SIGTERM per worker.
    """
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    if worker:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    else:
        loop.add_signal_handler(signal.SIGINT, stop.set)
    server = WebhookServer(settings, reuse_port=worker, serve_metrics=not worker)
    try:
        await server.start()
    except BootError as error:
        log.error("cannot start: %s", error)
        return EXIT_BOOT_FAILED
    except Exception:
        log.exception("cannot start")
        return EXIT_BOOT_FAILED
    watch = asyncio.create_task(_watch_parent(parent_pid, stop)) if parent_pid is not None else None
    await stop.wait()
    if watch is not None:
        watch.cancel()
    await server.stop()
    return 0


async def _watch_parent(parent_pid: int, stop: asyncio.Event) -> None:
    while os.getppid() == parent_pid:
        await asyncio.sleep(PARENT_CHECK_INTERVAL_SECONDS)
    log.warning("the supervisor (pid %d) is gone; shutting down", parent_pid)
    stop.set()


def run_loop(main: Coroutine[Any, Any, int]) -> int:
    """Run `main` on uvloop where it is installed, else on asyncio's loop."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


def serve(settings: Settings, *, worker: bool = False, parent_pid: int | None = None) -> int:
    """Serve HTTPS until SIGTERM/SIGINT, then finish in-flight reviews within the grace period.
    Returns the exit status: 0 after a graceful stop, `EXIT_BOOT_FAILED` if it could not start."""
    return run_loop(serve_until_stopped(settings, worker=worker, parent_pid=parent_pid))
