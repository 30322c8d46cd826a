"""One process's server: `WebhookServer` boots (certificate, configuration, rules), listens (with
SO_REUSEPORT when several workers share the port), keeps the certificate and the configuration
current, and stops without losing a review sent on an open connection. `serve()` runs one until
SIGTERM/SIGINT; `webhook.workers` runs several under a supervisor."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import signal
from collections.abc import Coroutine
from typing import Any, Final

from aiohttp import web

from webhook.admission import Judge
from webhook.config import ConfigError, ConfigWatcher
from webhook.logs import ACCESS_LOGGER
from webhook.metrics import single_process_registry
from webhook.registry import REGISTRY
from webhook.server.app import (
    VALIDATE_PATH,
    attach_certificate_reloader,
    attach_config_watcher,
    create_app,
    judge_with_policy,
    server_tls,
    start_metrics_listener,
)
from webhook.server.connections import ConnectionGuard, GuardedAppRunner
from webhook.server.handlers import StructuredAccessLogger, quiet_client_errors
from webhook.server.state import METRICS_KEY, READINESS_KEY, TRAFFIC_KEY
from webhook.settings import Settings
from webhook.tls import CertificateError

log = logging.getLogger("webhook.server")

# CPython collects its young generation whenever 700 more objects live than at the last collection.
# A review's objects (its parsed body, the judge's lists and paths) are freed by reference counting
# as soon as the answer is written, yet at 700 the collector ran several times inside every large
# review (a 128-device ResourceSlice parses into some 10,000 containers), walking objects about to be
# freed anyway and promoting them, so that about one review in a thousand also paid a full
# collection of ~4 ms. With this threshold only cycles that requests leave behind, or a body of more
# than this many containers, start a collection (docs/performance.md, "The garbage collector").
YOUNG_COLLECTION_THRESHOLD: Final = 50_000

# Pending connections the kernel queues per listener: a rolling restart of kube-apiservers reconnects
# all at once, and 128 (aiohttp's default) overflows into SYN retries of a second.
LISTEN_BACKLOG: Final = 1024
# A worker whose supervisor is gone (SIGKILL, OOM) stops within this many seconds instead of
# holding the port forever.
PARENT_CHECK_INTERVAL_SECONDS: Final = 1.0
# aiohttp's own shutdown wait, after ours (`WebhookServer.stop`) drained the connections or ran out of
# grace period: for the reviews that outlived it.
FINAL_SHUTDOWN_TIMEOUT_SECONDS: Final = 1.0
# Exit status of a process that could not start (certificate, configuration, port): the supervisor
# stops instead of restarting it in a loop.
EXIT_BOOT_FAILED: Final = 3
# After an error answer to a request whose body was not read (413, 408), aiohttp reads and drops the
# rest before closing, so that the client sees the answer rather than a reset; its default of 10 s
# would let a slow client hold the connection 10 s more.
LINGER_SECONDS: Final = 2.0


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
    settle_collector()
    watch = asyncio.create_task(_watch_parent(parent_pid, stop)) if parent_pid is not None else None
    await stop.wait()
    if watch is not None:
        watch.cancel()
    await server.stop()
    return 0


def settle_collector() -> None:
    """Set the cyclic garbage collector for serving, once start-up is done.

    * Take what start-up built out of its sight (`gc.freeze`): the modules, the judge's compiled
      schemas, CEL environments and registry, the app live as long as the process, and a full
      collection walked all of them again and again for the few cycles requests leave (about 7 % of
      a v1 review's instructions, docs/performance.md). Reference counting still frees whatever of
      them is dropped later (a judge replaced by a configuration reload); only a cycle among such
      objects would stay, and they are built as trees.
    * Collect the young generation only when `YOUNG_COLLECTION_THRESHOLD` more objects live than at
      the last collection, not CPython's 700: see there."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, *gc.get_threshold()[1:])


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
