"""A guarded webhook in a subprocess, and the clients that abuse it: slowloris heads, slow bodies,
clients that never read, idle crowds; and a steady client that measures what the others cost.

Loopback only. Every loop is bounded in count and every wait in time; the server's process group
is killed by its id at the end, whatever happened. Run as a script it prints latency numbers:

    python -m tests.fuzz.abuse   # p50/p99 of a steady client, alone and under abuse (~1 minute)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from tests.fuzz.seeds import admission_review, seed
from tests.live_server import development_certificates, free_port, wait_for

STARTUP_TIMEOUT_SECONDS = 30.0
IO_TIMEOUT_SECONDS = 15.0
# The limits the tests run the server with: short, so that every deadline passes within seconds.
TEST_LIMITS: dict[str, Any] = {
    "header_timeout_seconds": 1.0,
    "body_timeout_seconds": 1.0,
    "idle_timeout_seconds": 30.0,
    "write_timeout_seconds": 1.0,
    "max_connections": 200,
}


@dataclass
class GuardedServer:
    process: subprocess.Popen[bytes]
    port: int
    cert_dir: Path
    log_file: Path | None

    def client_tls(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.cert_dir / "ca.crt"))

    def log_lines(self) -> list[dict[str, Any]]:
        if self.log_file is None:
            return []
        lines = []
        for line in self.log_file.read_text(errors="replace").splitlines():
            with contextlib.suppress(ValueError):
                lines.append(json.loads(line))
        return lines

    def closings(self) -> dict[str, int]:
        """How many connections the guard closed, by reason (needs ``guard_log``)."""
        counts: dict[str, int] = {}
        for line in self.log_lines():
            if line.get("msg", "").startswith("closing a connection"):
                counts[line["reason"]] = counts.get(line["reason"], 0) + 1
        return counts

    def stop(self, timeout: float = 30.0) -> int:
        """SIGTERM, and the exit status (the process group is killed if it does not exit in time)."""
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=timeout)
        finally:
            _kill_group(self.process)

    async def stopped(self, timeout: float = 30.0) -> int:
        """`stop` from a test's event loop, which keeps running meanwhile. A connection the test
        aborted is only closed on the loop's next turn (asyncio closes the socket in a callback):
        with the loop blocked in `stop`, the server would see it open and idle, close it gracefully,
        wait in vain for the client's side of the TLS close, and drain for the whole grace period."""
        return await asyncio.to_thread(self.stop, timeout)


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # the group this helper started
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=10)


def _accepts_connections(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
        return True
    return False


@contextlib.contextmanager
def guarded_server(
    tmp_path: Path,
    cert_dir: Path,
    *,
    limits: dict[str, Any] | None = None,
    stderr_path: str | None = None,
    **settings: Any,
) -> Iterator[GuardedServer]:
    """`python -m tests.fuzz.launch` with `limits` (TEST_LIMITS by default; fields left out take the
    production defaults) and `settings`; logs go to a file the test reads, or to `stderr_path`."""
    port = free_port()
    spec = {
        "host": "127.0.0.1",
        "port": port,
        "cert_dir": str(cert_dir),
        "generate_dev_certs": False,
        "limits": TEST_LIMITS if limits is None else limits,
        "guard_log": True,
        **settings,
    }
    log_file = None if stderr_path else tmp_path / f"server-{port}.log"
    env = {key: value for key, value in os.environ.items() if not key.startswith("DRA_WEBHOOK_")}
    with open(stderr_path or str(log_file), "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.fuzz.launch", json.dumps(spec)],
            stdout=log,
            stderr=log,
            env=env,
            start_new_session=True,
            cwd=Path(__file__).resolve().parents[2],
        )
    server = GuardedServer(process, port, cert_dir, log_file)
    try:

        def serving() -> bool:
            if process.poll() is not None:
                output = log_file.read_text() if log_file else ""
                raise AssertionError(f"the server exited with {process.returncode}:\n{output}")
            return _accepts_connections(port)

        wait_for(serving, timeout=STARTUP_TIMEOUT_SECONDS, what="the server to listen")
        yield server
    finally:
        _kill_group(process)


# --- raw clients ------------------------------------------------------------------------------------


def review_body(uid: str, kind: str = "ResourceClaim") -> bytes:
    return orjson.dumps(admission_review(seed(kind), kind=kind, uid=uid))


def request_head(body_length: int | None, *, port: int, chunked: bool = False) -> bytes:
    length = "Transfer-Encoding: chunked\r\n" if chunked else f"Content-Length: {body_length}\r\n"
    return (
        f"POST /validate?timeout=10s HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"User-Agent: kube-apiserver-admission\r\nContent-Type: application/json\r\n{length}\r\n"
    ).encode()


async def open_tls(
    port: int, tls: ssl.SSLContext, *, receive_buffer: int | None = None
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A TLS connection to the server; `receive_buffer` shrinks the socket's receive buffer (a client
    that does not read then stalls the server's writes after a few answers, not after megabytes)."""
    if receive_buffer is None:
        opening = asyncio.open_connection("127.0.0.1", port, ssl=tls, server_hostname="127.0.0.1")
    else:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        opening = asyncio.open_connection(sock=sock, ssl=tls, server_hostname="127.0.0.1")
    return await asyncio.wait_for(opening, IO_TIMEOUT_SECONDS)


async def read_response(
    reader: asyncio.StreamReader, timeout: float = IO_TIMEOUT_SECONDS
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 response with a Content-Length: status, headers (lower-cased), body."""
    status_line = await asyncio.wait_for(reader.readline(), timeout)
    if not status_line:
        raise ConnectionResetError("closed before an answer")
    headers: dict[str, str] = {}
    while (line := await asyncio.wait_for(reader.readline(), timeout)) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    body = await asyncio.wait_for(reader.readexactly(int(headers.get("content-length", "0"))), timeout)
    return int(status_line.split()[1]), headers, body


async def closed_by_server(reader: asyncio.StreamReader, timeout: float) -> float:
    """Seconds until the server closes the connection (EOF or reset); fails after `timeout`."""
    started = time.monotonic()
    with contextlib.suppress(ConnectionError, ssl.SSLError):
        while await asyncio.wait_for(reader.read(65536), timeout):
            pass
    return time.monotonic() - started


def close_quietly(writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(Exception):
        writer.transport.abort()


def allow_open_files(count: int) -> None:
    """Raise this process's open-file limit to `count` if its hard limit allows (fails otherwise)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < count:
        if hard != resource.RLIM_INFINITY and hard < count:
            raise RuntimeError(f"needs {count} open files; the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (count, hard))


# --- abusers ----------------------------------------------------------------------------------------


@dataclass
class Abuse:
    """Abusive clients running against one server until `stop()`; each kind counts what it did."""

    port: int
    tls: ssl.SSLContext
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    connections_closed_by_server: dict[str, int] = field(default_factory=dict)
    writers: list[asyncio.StreamWriter] = field(default_factory=list)

    def _closed(self, kind: str) -> None:
        self.connections_closed_by_server[kind] = self.connections_closed_by_server.get(kind, 0) + 1

    async def slowloris(self, count: int, *, byte_every: float = 0.2, rounds: int = 200) -> None:
        """`count` clients sending a request head one byte at a time, reconnecting when cut off."""
        for _ in range(count):
            self.tasks.append(asyncio.create_task(self._slowloris_client(byte_every, rounds)))

    async def _slowloris_client(self, byte_every: float, rounds: int) -> None:
        head = request_head(10, port=self.port)
        for _ in range(rounds):
            try:
                _, writer = await open_tls(self.port, self.tls)
                self.writers.append(writer)
                for byte in head[:-4]:  # never the blank line that ends the head
                    writer.write(bytes([byte]))
                    await writer.drain()
                    await asyncio.sleep(byte_every)
            except (ConnectionError, ssl.SSLError, TimeoutError, OSError):
                self._closed("slowloris")
                await asyncio.sleep(0.05)

    async def slow_bodies(self, count: int, *, byte_every: float = 0.2, rounds: int = 200) -> None:
        """`count` clients sending a complete head, then the body one byte at a time."""
        for _ in range(count):
            self.tasks.append(asyncio.create_task(self._slow_body_client(byte_every, rounds)))

    async def _slow_body_client(self, byte_every: float, rounds: int) -> None:
        body = review_body("slow-body")
        for _ in range(rounds):
            try:
                _, writer = await open_tls(self.port, self.tls)
                self.writers.append(writer)
                writer.write(request_head(len(body), port=self.port))
                for byte in body:
                    writer.write(bytes([byte]))
                    await writer.drain()
                    await asyncio.sleep(byte_every)
            except (ConnectionError, ssl.SSLError, TimeoutError, OSError):
                self._closed("slow-body")
                await asyncio.sleep(0.05)

    async def non_readers(self, count: int, *, requests: int = 100) -> None:
        """`count` clients that pipeline reviews with large answers and never read one."""
        for _ in range(count):
            self.tasks.append(asyncio.create_task(self._non_reader(requests)))

    async def _non_reader(self, requests: int) -> None:
        body = large_answer_body()
        pipelined = (request_head(len(body), port=self.port) + body) * requests
        for _ in range(50):
            try:
                _, writer = await open_tls(self.port, self.tls, receive_buffer=4096)
                self.writers.append(writer)
                writer.write(pipelined)
                await writer.drain()
                await asyncio.sleep(60)  # holds the connection, reads nothing
            except (ConnectionError, ssl.SSLError, TimeoutError, OSError):
                self._closed("non-reader")
                await asyncio.sleep(0.05)

    async def idle_crowd(self, count: int, *, concurrency: int = 50) -> int:
        """Open `count` connections that each send one review, read its answer, and then idle.
        Returns how many were opened."""
        semaphore = asyncio.Semaphore(concurrency)
        opened = 0

        async def one(i: int) -> None:
            nonlocal opened
            async with semaphore:
                try:
                    reader, writer = await open_tls(self.port, self.tls)
                    body = review_body(f"idle-{i}")
                    writer.write(request_head(len(body), port=self.port) + body)
                    await read_response(reader)
                    self.writers.append(writer)
                    opened += 1
                except (ConnectionError, ssl.SSLError, TimeoutError, OSError, asyncio.IncompleteReadError):
                    self._closed("idle")

        await asyncio.gather(*(one(i) for i in range(count)))
        return opened

    async def stop(self) -> None:
        # Cancelled again until each has ended: Python 3.11's asyncio.wait_for returns the result of
        # what it waits for when that completes as the cancellation comes, and the cancellation is
        # lost (CPython bpo-42130, fixed in 3.12). A slowloris client that lost it kept going for its 200
        # rounds, and a test that stopped its abusers took minutes, not a second.
        while pending := [task for task in self.tasks if not task.done()]:
            for task in pending:
                task.cancel()
            await asyncio.wait(pending, timeout=0.5)
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for writer in self.writers:
            close_quietly(writer)


def large_answer_body() -> bytes:
    """A review whose denial is large (~100 KiB): every long value is echoed in the message."""
    slice_ = seed("ResourceSlice")
    slice_["nodeName"] = "N" * 16_384
    slice_["driverName"] = "D" * 16_384
    slice_["namedResources"]["instances"][0]["name"] = "I" * 16_384
    return orjson.dumps(admission_review(slice_, kind="ResourceSlice", uid="large-answer"))


# --- the steady client ------------------------------------------------------------------------------


@dataclass
class Latencies:
    seconds: list[float] = field(default_factory=list)
    errors: int = 0

    def quantile(self, q: float) -> float:
        ordered = sorted(self.seconds)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def summary(self) -> str:
        if not self.seconds:
            return f"no answers, {self.errors} errors"
        return (
            f"{len(self.seconds)} reviews, p50 {self.quantile(0.5) * 1000:.2f} ms, "
            f"p99 {self.quantile(0.99) * 1000:.2f} ms, max {max(self.seconds) * 1000:.2f} ms, "
            f"mean {statistics.fmean(self.seconds) * 1000:.2f} ms, {self.errors} errors"
        )


def steady_client(port: int, tls: ssl.SSLContext, *, count: int, pause: float = 0.0) -> Latencies:
    """`count` reviews one after the other on one kept-alive connection, as kube-apiserver sends them,
    with a blocking socket (no event loop of its own to compete with the abusers)."""
    latencies = Latencies()
    body = review_body("steady")
    request = request_head(len(body), port=port) + body
    connection: ssl.SSLSocket | None = None
    for _ in range(count):
        try:
            if connection is None:
                raw = socket.create_connection(("127.0.0.1", port), timeout=IO_TIMEOUT_SECONDS)
                raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                connection = tls.wrap_socket(raw, server_hostname="127.0.0.1")
            started = time.perf_counter()
            connection.sendall(request)
            _read_blocking_response(connection)
            latencies.seconds.append(time.perf_counter() - started)
        except (OSError, ValueError):
            latencies.errors += 1
            if connection is not None:
                connection.close()
            connection = None
        if pause:
            time.sleep(pause)
    if connection is not None:
        connection.close()
    return latencies


def _read_blocking_response(connection: ssl.SSLSocket) -> bytes:
    buffer = b""
    while b"\r\n\r\n" not in buffer:
        chunk = connection.recv(65536)
        if not chunk:
            raise ConnectionResetError("closed before an answer")
        buffer += chunk
    head, _, rest = buffer.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(rest) < length:
        chunk = connection.recv(65536)
        if not chunk:
            raise ConnectionResetError("closed in the middle of an answer")
        rest += chunk
    if not head.startswith(b"HTTP/1.1 200"):
        raise ValueError(head.split(b"\r\n", 1)[0].decode("latin-1"))
    return rest[:length]


@contextlib.asynccontextmanager
async def abuse_running(
    port: int, tls: ssl.SSLContext, *, scale: int = 1, idle: int | None = None
) -> AsyncIterator[Abuse]:
    """Every kind of abuse at once, `scale` times over (and `idle` idle connections, 100 x `scale` by
    default), for as long as the block runs."""
    abuse = Abuse(port, tls)
    await abuse.slowloris(20 * scale)
    await abuse.slow_bodies(10 * scale)
    await abuse.non_readers(2 * scale)
    await abuse.idle_crowd(100 * scale if idle is None else idle)
    try:
        yield abuse
    finally:
        await abuse.stop()


# --- the script -------------------------------------------------------------------------------------

PRODUCTION_LIMITS: dict[str, Any] = {}  # ConnectionLimits' defaults
ABUSE_SECONDS = 25.0  # longer than every production deadline (10 s), so that each one is met
IDLE_CONNECTIONS = 2000  # twice the production connection limit
WORKERS = 2  # as the image runs it


def _abuse_for(
    port: int, cafile: str, seconds: float, scale: int, idle: int, ready: Any, results: Any
) -> None:
    """The abusers, in a process of their own: their Python does not slow the steady client's.
    `ready` is set once every abuser runs and the idle crowd is connected."""
    allow_open_files(idle + 1000)

    async def run() -> dict[str, int]:
        tls = ssl.create_default_context(cafile=cafile)
        async with abuse_running(port, tls, scale=scale, idle=idle) as abuse:
            ready.set()
            await asyncio.sleep(seconds)
            return dict(abuse.connections_closed_by_server)

    results.put(asyncio.run(run()))


def main() -> None:
    """Print the steady client's latency alone and then under abuse, with the production limits."""
    import multiprocessing

    with tempfile.TemporaryDirectory() as scratch:
        tmp = Path(scratch)
        cert_dir = development_certificates(tmp / "certs")
        # Debug level in every worker: each connection the guard closes is logged, and counted below.
        with guarded_server(
            tmp, cert_dir, limits=PRODUCTION_LIMITS, workers=WORKERS, log_level="debug"
        ) as server:
            tls = server.client_tls()
            steady_client(server.port, tls, count=200)  # warm-up
            print("alone:       ", steady_client(server.port, tls, count=3000, pause=0.002).summary())
            spawn = multiprocessing.get_context("spawn")
            results, ready = spawn.Queue(), spawn.Event()
            abusers = spawn.Process(
                target=_abuse_for,
                args=(
                    server.port,
                    str(cert_dir / "ca.crt"),
                    ABUSE_SECONDS,
                    5,
                    IDLE_CONNECTIONS,
                    ready,
                    results,
                ),
            )
            abusers.start()
            during_storm = steady_client(server.port, tls, count=500, pause=0.004)
            print("connecting:  ", during_storm.summary(), f"({IDLE_CONNECTIONS} TLS connections opening)")
            assert ready.wait(timeout=120), "the abusers never got going"
            steady = steady_client(server.port, tls, count=int((ABUSE_SECONDS - 5) / 0.005), pause=0.004)
            print("under abuse: ", steady.summary())
            print("abusers cut off:", results.get(timeout=ABUSE_SECONDS + 30))
            abusers.join(timeout=30)
            print("guard closings:", server.closings())
            print("exit status:", server.stop())


if __name__ == "__main__":
    main()
