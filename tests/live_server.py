"""A real `dra-webhook serve` in a subprocess, on loopback, for the tests of workers, metrics and shutdown.

Loopback only, free ports, every wait bounded. The server logs JSON lines to a file that the tests
read (worker pids, "serving" lines, decisions). Whatever happens, the process group the helper
started is killed at the end, by its id.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from webhook.tls import ensure_development_certificates

STARTUP_TIMEOUT_SECONDS = 30.0
JSON_HEADERS = {"Content-Type": "application/json"}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def development_certificates(directory: Path) -> Path:
    """A certificate directory with ca.crt, tls.crt and tls.key for 127.0.0.1 and localhost."""
    ensure_development_certificates(directory)
    return directory


def wait_for(condition: Callable[[], Any], *, timeout: float, what: str, interval: float = 0.05) -> Any:
    """Poll `condition` until it returns something truthy; fail the test after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(interval)


@dataclass
class LiveServer:
    process: subprocess.Popen[bytes]
    port: int
    metrics_port: int | None
    cert_dir: Path
    log_file: Path
    workers: int

    def url(self, path: str) -> str:
        return f"https://127.0.0.1:{self.port}{path}"

    def metrics_url(self) -> str:
        assert self.metrics_port is not None
        return f"http://127.0.0.1:{self.metrics_port}/metrics"

    def client_tls(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.cert_dir / "ca.crt"))

    def session(self, *, fresh_connections: bool = False, limit: int = 100) -> aiohttp.ClientSession:
        """A client trusting the development CA; `fresh_connections` opens one connection per request,
        so that the kernel spreads them over the workers."""
        connector = aiohttp.TCPConnector(ssl=self.client_tls(), force_close=fresh_connections, limit=limit)
        return aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=15))

    def log_lines(self) -> list[dict[str, Any]]:
        lines = []
        for line in self.log_file.read_text(errors="replace").splitlines():
            with contextlib.suppress(ValueError):
                lines.append(json.loads(line))
        return lines

    def serving_pids(self) -> list[int]:
        """The pids of the worker processes that logged "serving", in order."""
        return [line["pid"] for line in self.log_lines() if line.get("msg", "").startswith("serving https")]

    def worker_pids(self) -> list[int]:
        """The pids of the workers the supervisor started, in order."""
        return [
            line["workerPid"] for line in self.log_lines() if "workerPid" in line and "started" in line["msg"]
        ]

    def send(self, signum: int) -> None:
        self.process.send_signal(signum)

    def wait(self, timeout: float) -> int:
        return self.process.wait(timeout=timeout)


@contextlib.contextmanager
def live_server(
    tmp_path: Path,
    cert_dir: Path,
    *args: str,
    workers: int = 2,
    metrics: bool = True,
) -> Iterator[LiveServer]:
    """Start `dra-webhook serve` with `workers` processes and wait until every worker serves."""
    port = free_port()
    metrics_port = free_port() if metrics else None
    log_file = tmp_path / f"server-{port}.log"
    command = [
        sys.executable,
        "-m",
        "webhook",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--cert-dir",
        str(cert_dir),
        "--no-generate-certs",
        "--log-format",
        "json",
        *(["--metrics-address", f"127.0.0.1:{metrics_port}"] if metrics_port else []),
        *args,
    ]
    env = {key: value for key, value in os.environ.items() if not key.startswith("DRA_WEBHOOK_")}
    with log_file.open("wb") as log:
        process = subprocess.Popen(
            command, stdout=log, stderr=log, env=env, start_new_session=True, cwd=tmp_path
        )
    server = LiveServer(process, port, metrics_port, cert_dir, log_file, workers)
    try:

        def all_serving() -> bool:
            if process.poll() is not None:
                raise AssertionError(f"the server exited with {process.returncode}:\n{log_file.read_text()}")
            return len(server.serving_pids()) >= workers

        wait_for(all_serving, timeout=STARTUP_TIMEOUT_SECONDS, what=f"{workers} serving workers")
        yield server
    finally:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)  # the group this helper started
            process.wait(timeout=10)
        else:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)  # workers that outlived their supervisor


class HeldRequest:
    """A review whose headers and first half of the body are sent, so that it is in flight at the
    server; `finish()` sends the rest and reads the answer."""

    def __init__(
        self, uid: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, rest: bytes
    ) -> None:
        self.uid, self._reader, self._writer, self._rest = uid, reader, writer, rest
        self.headers: dict[str, str] = {}  # of the answer, lower-cased names, once `finish()` read it

    @classmethod
    async def open(cls, port: int, tls: ssl.SSLContext, body: bytes, *, uid: str) -> HeldRequest:
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", port, ssl=tls, server_hostname="127.0.0.1"
        )
        head = (
            f"POST /validate HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode()
        half = len(body) // 2
        writer.write(head + body[:half])
        await writer.drain()
        return cls(uid, reader, writer, body[half:])

    def close(self) -> None:
        self._writer.close()

    async def finish(self) -> tuple[int, Any]:
        """Send the rest of the body; the status and the decoded JSON answer."""
        self._writer.write(self._rest)
        await self._writer.drain()
        status_line = await asyncio.wait_for(self._reader.readline(), 15)
        headers = {}
        while (line := await asyncio.wait_for(self._reader.readline(), 15)) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            headers[name.strip().lower()] = value.strip()
        self.headers = headers
        body = await asyncio.wait_for(self._reader.readexactly(int(headers["content-length"])), 15)
        self._writer.close()
        with contextlib.suppress(ssl.SSLError, ConnectionError):
            await self._writer.wait_closed()
        return int(status_line.split()[1]), json.loads(body)


async def connection_refused(port: int) -> bool:
    """Whether nothing accepts connections on `port`. A reset counts as a refusal: a connection caught
    in the backlog of a listener that is closing at that moment is reset, never accepted."""
    try:
        _, writer = await asyncio.open_connection("127.0.0.1", port)
    except (ConnectionRefusedError, ConnectionResetError):
        return True
    writer.close()
    return False


def metric_samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """The samples of a Prometheus text exposition: (name, labels) -> value."""
    from prometheus_client.parser import text_string_to_metric_families

    samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples


def sample(samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


async def eventually(condition: Callable[[], Awaitable[bool]], *, timeout: float = 5.0) -> bool:
    """Whether `condition` comes true within `timeout` seconds, asked every 20 ms."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not await condition():
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True
