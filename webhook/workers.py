"""Every core: several worker processes serving one port, and the supervisor that keeps them running.

With ``--workers 1`` the webhook serves in this process (`webhook.server.serve`). With more, this
process becomes a supervisor:

* it checks what every worker would trip on first (the certificate, the configuration file), so a
  broken setup fails once, with one message;
* it starts N workers (fresh interpreters, `python -c` with their settings pickled on stdin, and no
  other process: `multiprocessing` would add a resource tracker that nobody reaps); each binds the
  port itself with SO_REUSEPORT, so the kernel spreads connections over them and a dying worker takes
  only its own connections down;
* a worker that dies is replaced (at once if it had been up a while, with a growing delay if it keeps
  dying young); a first-generation worker that cannot start (port taken) stops the whole server;
* SIGTERM or SIGINT (Ctrl-C reaches the whole process group; workers ignore SIGINT) becomes one
  SIGTERM per worker; each stops gracefully (`WebhookServer.stop`), and the supervisor exits 0 when all
  did, or SIGKILLs those still running after the grace period (plus the shutdown delay and a margin);
  it waits for each worker it started, so none is left behind, running or as a zombie;
* it serves the metrics: the workers write prometheus_client multiprocess files into a private
  temporary directory (``PROMETHEUS_MULTIPROC_DIR``, set before they start, removed at exit) and a
  scrape of the supervisor sums them, counters of replaced workers included.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Protocol

from webhook.settings import Settings

log = logging.getLogger("webhook.workers")

METRICS_DIRECTORY_ENV: Final = "PROMETHEUS_MULTIPROC_DIR"
# A replacement starts at once when the worker it replaces had been up this long; a worker dying
# younger is restarted after FIRST_RESPAWN_DELAY, doubling up to MAX_RESPAWN_DELAY (no busy loop).
HEALTHY_AFTER_SECONDS: Final = 10.0
FIRST_RESPAWN_DELAY_SECONDS: Final = 0.5
MAX_RESPAWN_DELAY_SECONDS: Final = 10.0
# Time past grace period + shutdown delay before a worker that has not stopped is killed.
STOP_MARGIN_SECONDS: Final = 5.0
# Exit statuses of a worker that count as a clean stop once the supervisor asked it to stop (it may
# have been told before it installed its handler).
_CLEAN_STOPS: Final = frozenset({0, -signal.SIGTERM, -signal.SIGINT})


def run(settings: Settings) -> int:
    """Serve with `settings.workers` processes; the exit status of the service."""
    if settings.workers <= 1:
        # One process counts in memory; a leftover multiprocess directory from the environment would
        # switch prometheus_client to files nobody reads.
        os.environ.pop(METRICS_DIRECTORY_ENV, None)
        from webhook.server import serve

        return serve(settings)
    return Supervisor(settings).run()


# What a worker process runs: `worker_main`, with the settings and the supervisor's pid that the
# supervisor pickles on its stdin.
WORKER_COMMAND: Final = (sys.executable, "-c", "from webhook.workers import worker_main; worker_main()")


def worker_main() -> None:
    """A worker process: serve the shared port until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the supervisor's to turn into SIGTERM
    settings, parent_pid = pickle.load(sys.stdin.buffer)  # what the supervisor (`_spawn`) wrote
    from webhook.logs import configure_logging
    from webhook.server import serve

    configure_logging(level=settings.log_level, log_format=settings.log_format)
    sys.exit(serve(settings, worker=True, parent_pid=parent_pid))


class MetricsListener(Protocol):
    """What the supervisor keeps of the metrics listener it runs (`webhook.server.start_metrics_listener`)."""

    async def cleanup(self) -> None: ...


@dataclass(slots=True)
class WorkerSlot:
    """One place in the pool and the process that currently holds it."""

    index: int
    process: subprocess.Popen[bytes] | None = None
    generation: int = 0  # 0 for the first process of the slot
    started_at: float = 0.0
    young_deaths: int = 0  # consecutive deaths before HEALTHY_AFTER_SECONDS
    respawn: asyncio.TimerHandle | None = field(default=None, repr=False)


class Supervisor:
    """Starts, watches, replaces and stops the workers; serves their summed metrics."""

    def __init__(self, settings: Settings, *, command: tuple[str, ...] = WORKER_COMMAND) -> None:
        self.settings = settings
        self._command = command
        self._slots = [WorkerSlot(index) for index in range(settings.workers)]
        self.restarts = 0
        self._stopping = False
        self._exit_code = 0
        self._metrics_directory: Path | None = None
        self._stop: asyncio.Event | None = None
        self._all_stopped: asyncio.Event | None = None

    def run(self) -> int:
        return asyncio.run(self._run())

    # -- the life of the pool --------------------------------------------------------------------

    async def _run(self) -> int:
        from webhook.server import EXIT_BOOT_FAILED

        if not self._preflight():
            return EXIT_BOOT_FAILED
        loop = asyncio.get_running_loop()
        self._stop, self._all_stopped = asyncio.Event(), asyncio.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, self._request_stop, signum)
        directory = Path(tempfile.mkdtemp(prefix="dra-webhook-metrics-"))
        self._metrics_directory = directory
        os.environ[METRICS_DIRECTORY_ENV] = str(directory)  # before the first worker starts
        metrics_runner = None
        try:
            log.info("starting %d workers", len(self._slots), extra={"workers": len(self._slots)})
            for slot in self._slots:
                self._spawn(slot)
            try:
                metrics_runner = await self._start_metrics_listener(directory)  # while the workers boot
            except OSError as error:
                log.error("cannot serve metrics on %s: %s", self.settings.metrics_address, error.strerror)
                self._exit_code = EXIT_BOOT_FAILED
                self._stop.set()
            await self._stop.wait()
            await self._stop_workers()
        finally:
            if metrics_runner is not None:
                await metrics_runner.cleanup()
            shutil.rmtree(directory, ignore_errors=True)
        log.info("all workers stopped", extra={"exitCode": self._exit_code})
        return self._exit_code

    def _preflight(self) -> bool:
        """What every worker would check first, checked once: the certificate (generating development
        certificates here, not racing in N workers) and the configuration file."""
        # The TLS and configuration modules only: importing the server (aiohttp, the rules' judge) here
        # would delay the workers' start for nothing.
        from webhook.config import ConfigError, load_config
        from webhook.registry import REGISTRY
        from webhook.tls import CertificateError, build_server_context, ensure_development_certificates

        settings = self.settings
        try:
            if settings.generate_dev_certs:
                ensure_development_certificates(settings.cert_dir)
            build_server_context(
                settings.cert_file, settings.key_file, client_ca_file=settings.client_ca_file
            )
            if settings.config_file is not None:
                known_kinds = set(REGISTRY)
                load_config(settings.config_file, base=settings.policy, known_kinds=known_kinds)
        except (CertificateError, ConfigError, OSError) as error:
            log.error("cannot start: %s", error)
            return False
        return True

    async def _start_metrics_listener(self, directory: Path) -> MetricsListener | None:
        address = self.settings.metrics_address
        if address is None:
            return None
        from webhook.metrics import WorkerPoolCollector, multiprocess_registry
        from webhook.server import start_metrics_listener

        registry = multiprocess_registry(directory, WorkerPoolCollector(self.stats))
        return await start_metrics_listener(registry, address)

    def stats(self) -> tuple[int, int]:
        """(workers running, workers replaced so far), for the metrics."""
        live = sum(1 for slot in self._slots if slot.process is not None)
        return live, self.restarts

    def _request_stop(self, signum: int) -> None:
        if self._stop is None or self._stop.is_set():
            log.info("%s: already stopping", signal.Signals(signum).name)
            return
        log.info("%s: stopping the workers", signal.Signals(signum).name)
        self._stop.set()

    # -- one worker ------------------------------------------------------------------------------

    def _spawn(self, slot: WorkerSlot) -> None:
        slot.respawn = None
        if self._stopping:
            return
        # The sentinel: a pipe whose write end only the worker holds (every other descriptor is
        # closed in it), so that its read end here reads EOF once the worker is gone.
        sentinel, worker_end = os.pipe()
        try:
            process = subprocess.Popen(self._command, stdin=subprocess.PIPE, pass_fds=(worker_end,))
        except BaseException:
            os.close(sentinel)
            raise
        finally:
            os.close(worker_end)
        assert process.stdin is not None
        with contextlib.suppress(BrokenPipeError), process.stdin:  # a worker dead at once says so below
            process.stdin.write(pickle.dumps((self.settings, os.getpid())))
        slot.process, slot.started_at = process, time.monotonic()
        asyncio.get_running_loop().add_reader(sentinel, self._on_exit, slot, process, sentinel)
        log.info(
            "started worker %d (pid %s)",
            slot.index,
            process.pid,
            extra={"worker": slot.index, "workerPid": process.pid, "generation": slot.generation},
        )

    def _on_exit(self, slot: WorkerSlot, process: subprocess.Popen[bytes], sentinel: int) -> None:
        loop = asyncio.get_running_loop()
        loop.remove_reader(sentinel)
        os.close(sentinel)
        code = process.wait()  # reaped: no zombie (the sentinel closes as the process exits)
        self._forget_live_metrics(process.pid)
        slot.process = None
        fields = {"worker": slot.index, "workerPid": process.pid, "exitCode": code}
        if self._stopping:
            if code not in _CLEAN_STOPS:
                log.warning("worker %d (pid %s) %s while stopping", slot.index, process.pid, _how(code))
                # A failure that started the stop (a worker that could not start) keeps its status.
                self._exit_code = self._exit_code or 1
            if all(other.process is None for other in self._slots):
                assert self._all_stopped is not None
                self._all_stopped.set()
            return
        from webhook.server import EXIT_BOOT_FAILED

        if code == EXIT_BOOT_FAILED and slot.generation == 0:
            log.error("worker %d could not start; stopping the server", slot.index, extra=fields)
            self._exit_code = EXIT_BOOT_FAILED
            assert self._stop is not None
            self._stop.set()
            return
        delay = self._respawn_delay(slot)
        self.restarts += 1
        slot.generation += 1
        log.warning(
            "worker %d (pid %s) %s; replacing it in %gs",
            slot.index,
            process.pid,
            _how(code),
            delay,
            extra=fields,
        )
        slot.respawn = loop.call_later(delay, self._spawn, slot)

    def _respawn_delay(self, slot: WorkerSlot) -> float:
        if time.monotonic() - slot.started_at >= HEALTHY_AFTER_SECONDS:
            slot.young_deaths = 0
            return 0.0
        doublings = min(slot.young_deaths, 16)
        delay = min(FIRST_RESPAWN_DELAY_SECONDS * (1 << doublings), MAX_RESPAWN_DELAY_SECONDS)
        slot.young_deaths += 1
        return delay

    def _forget_live_metrics(self, pid: int) -> None:
        """A dead worker's in-flight and expiry gauges stop counting; its counters stay in the sums."""
        if self._metrics_directory is None:
            return
        from prometheus_client.multiprocess import mark_process_dead

        mark_process_dead(pid, str(self._metrics_directory))  # type: ignore[no-untyped-call]

    # -- stopping --------------------------------------------------------------------------------

    async def _stop_workers(self) -> None:
        self._stopping = True
        assert self._all_stopped is not None
        for slot in self._slots:
            if slot.respawn is not None:
                slot.respawn.cancel()
                slot.respawn = None
        running = [slot.process for slot in self._slots if slot.process is not None]
        if not running:
            return
        log.info("stopping %d workers (SIGTERM)", len(running))
        for process in running:
            _signal(process, signal.SIGTERM)
        patience = (
            self.settings.grace_period_seconds + self.settings.shutdown_delay_seconds + STOP_MARGIN_SECONDS
        )
        try:
            await asyncio.wait_for(self._all_stopped.wait(), patience)
        except TimeoutError:
            stuck = [slot.process for slot in self._slots if slot.process is not None]
            log.error("%d workers did not stop within %gs; killing them", len(stuck), patience)
            self._exit_code = 1
            for process in stuck:
                _signal(process, signal.SIGKILL)
            try:
                await asyncio.wait_for(self._all_stopped.wait(), STOP_MARGIN_SECONDS)
            except TimeoutError:
                log.error("workers survived SIGKILL; giving up on them")


def _signal(process: subprocess.Popen[bytes], signum: int) -> None:
    # Popen.send_signal signals a process only while it is not reaped (its pid cannot be reused yet).
    with contextlib.suppress(ProcessLookupError):  # already gone: its sentinel will say so
        process.send_signal(signum)


def _how(code: int) -> str:
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code}"
