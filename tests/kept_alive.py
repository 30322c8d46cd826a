"""Reviews streamed over kept-alive connections while the server is told to stop (docs/operations.md,
"Shutdown": no review written on an open connection is lost).

A few clients, each on one kept-alive TLS connection, send reviews at a steady rate (the way
kube-apiserver's pool of connections does), one at a time, never pipelined. SIGTERM goes to the main
process in the middle of the stream. A client moves to a new connection when an answer says
`Connection: close`, or when the server closed the connection before it wrote (its reader has seen
EOF: Go's transport drops such a connection from its pool too); it stops when it cannot connect any
more. A request written on an established connection that got EOF, a reset or nothing instead of an
answer is *lost*: kube-apiserver reports `failed to call webhook: Post ...: EOF` and, with
`failurePolicy: Fail`, the user's request fails.

Loopback only; every wait bounded; the server's process group is killed by its id whatever happens.
Run as a script to repeat the measurement and print the numbers:

    python -m tests.kept_alive --runs 5          # runs, requests, lost; exit status, stop time
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import ssl
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from tests.live_server import LiveServer, development_certificates, live_server
from tests.reviews import admission_review, resource_claim

CLIENTS = 4
REVIEWS_PER_SECOND = 600.0  # in all, over the clients
STREAM_BEFORE_SIGTERM_SECONDS = 1.0
IO_TIMEOUT_SECONDS = 20.0  # an answer that takes this long is lost too
EXIT_WITHIN_SECONDS = 15.0


@dataclass
class StreamCounts:
    """What the clients saw, summed over them."""

    written: int = 0  # requests written on an established connection
    answered: int = 0  # ... and answered correctly
    lost: list[str] = field(default_factory=list)  # ... and answered by EOF, a reset or nothing (uids)
    wrong: list[str] = field(default_factory=list)  # ... and answered with something else
    told_to_close: int = 0  # answers that carried `Connection: close`
    closed_before_write: int = 0  # connections the server had closed before the client wrote on them
    connections: int = 0  # connections opened


@dataclass
class StopOutcome:
    counts: StreamCounts
    exit_code: int | None  # None: still running EXIT_WITHIN_SECONDS after SIGTERM
    stop_seconds: float  # from SIGTERM to the main process's exit
    left_in_group: list[str]  # processes of the server's group after its exit (`group_members`)


def review_request(uid: str, port: int) -> bytes:
    body = orjson.dumps(admission_review(resource_claim(), uid=uid))
    head = (
        f"POST /validate?timeout=10s HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def read_answer(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 answer with a Content-Length; ConnectionError if the connection ends first."""
    async with asyncio.timeout(IO_TIMEOUT_SECONDS):
        status_line = await reader.readline()
        if not status_line.endswith(b"\r\n"):
            raise ConnectionResetError("closed before an answer")
        headers: dict[str, str] = {}
        while (line := await reader.readline()) != b"\r\n":
            if not line:
                raise ConnectionResetError("closed inside an answer")
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        body = await reader.readexactly(int(headers.get("content-length", "0")))
    return int(status_line.split()[1]), headers, body


def _abort(writer: asyncio.StreamWriter | None) -> None:
    if writer is not None:
        with contextlib.suppress(Exception):
            writer.transport.abort()


async def stream_reviews(
    port: int, tls: ssl.SSLContext, name: str, per_second: float, until: float, counts: StreamCounts
) -> None:
    """One client: reviews at `per_second` on a kept-alive connection until it cannot connect (or the
    loop time `until`)."""
    loop = asyncio.get_running_loop()
    reader: asyncio.StreamReader | None = None
    writer: asyncio.StreamWriter | None = None
    interval, next_send, n = 1.0 / per_second, loop.time(), 0
    try:
        while loop.time() < until:
            if reader is not None and reader.at_eof():
                counts.closed_before_write += 1
                _abort(writer)
                reader = writer = None
            if reader is None or writer is None:
                try:
                    reader, writer = await asyncio.wait_for(
                        asyncio.open_connection("127.0.0.1", port, ssl=tls, server_hostname="127.0.0.1"),
                        IO_TIMEOUT_SECONDS,
                    )
                except (OSError, ssl.SSLError, TimeoutError):
                    return  # the listener is closed (or the handshake was cut): nothing was written
                counts.connections += 1
            assert reader is not None and writer is not None
            n += 1
            uid = f"{name}-{n}"
            writer.write(review_request(uid, port))
            counts.written += 1
            try:
                status, headers, body = await read_answer(reader)
            except (OSError, ssl.SSLError, asyncio.IncompleteReadError, TimeoutError):
                counts.lost.append(uid)
                _abort(writer)
                reader = writer = None
                continue
            if status == 200 and orjson.loads(body).get("response", {}).get("uid") == uid:
                counts.answered += 1
            else:
                counts.wrong.append(uid)
            if headers.get("connection", "").lower() == "close":
                counts.told_to_close += 1
                _abort(writer)
                reader = writer = None
            next_send = max(next_send + interval, loop.time() - interval)
            await asyncio.sleep(max(0.0, next_send - loop.time()))
    finally:
        _abort(writer)


def group_members(pgid: int) -> list[str]:
    """The processes of group `pgid` still in the process table ("pid state name (parent ppid)"),
    zombies included."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            stat = (entry / "stat").read_text()
            name = stat[stat.index("(") + 1 : stat.rindex(")")]
            fields = stat[stat.rindex(")") + 2 :].split()
            if int(fields[2]) == pgid:  # state, ppid, pgrp, ...
                members.append(f"{entry.name} {fields[0]} {name} (parent {fields[1]})")
    return members


async def sigterm_during_streams(
    server: LiveServer, *, clients: int = CLIENTS, per_second: float = REVIEWS_PER_SECOND
) -> StopOutcome:
    """Stream reviews from `clients` connections, SIGTERM the main process, and see what was lost."""
    loop = asyncio.get_running_loop()
    counts = StreamCounts()
    tls = server.client_tls()
    until = loop.time() + STREAM_BEFORE_SIGTERM_SECONDS + EXIT_WITHIN_SECONDS + IO_TIMEOUT_SECONDS
    streams = [
        asyncio.create_task(stream_reviews(server.port, tls, f"c{i}", per_second / clients, until, counts))
        for i in range(clients)
    ]
    await asyncio.sleep(STREAM_BEFORE_SIGTERM_SECONDS)
    # Every client connected and streaming before SIGTERM (a client that connects after it finds the
    # listener closed, and is never told to close): within the second above on a quiet machine, later
    # on a loaded one.
    deadline = loop.time() + IO_TIMEOUT_SECONDS
    while counts.connections < clients or counts.answered == 0:
        assert loop.time() < deadline, f"the clients were not all streaming before SIGTERM: {counts}"
        await asyncio.sleep(0.05)
    sent_at = time.monotonic()
    server.send(signal.SIGTERM)
    try:
        exit_code: int | None = await asyncio.to_thread(server.wait, EXIT_WITHIN_SECONDS)
    except Exception:  # subprocess.TimeoutExpired
        exit_code = None
    stop_seconds = time.monotonic() - sent_at
    await asyncio.wait_for(asyncio.gather(*streams), IO_TIMEOUT_SECONDS + 5)
    return StopOutcome(counts, exit_code, stop_seconds, _group_after_exit(server.process.pid))


def _group_after_exit(pgid: int, settle_seconds: float = 1.0) -> list[str]:
    """The group's members after the main process exited, given a moment to go (none should)."""
    deadline = time.monotonic() + settle_seconds
    while (members := group_members(pgid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return members


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=CLIENTS)
    parser.add_argument("--rate", type=float, default=REVIEWS_PER_SECOND)
    options = parser.parse_args()
    total_written = total_lost = bad_runs = 0
    with tempfile.TemporaryDirectory(prefix="dra-webhook-kept-alive-") as directory:
        cert_dir = development_certificates(Path(directory, "certs"))
        for run in range(1, options.runs + 1):
            run_dir = Path(directory, f"run-{run}")
            run_dir.mkdir()
            with live_server(run_dir, cert_dir, workers=options.workers, metrics=False) as server:
                outcome = asyncio.run(
                    sigterm_during_streams(server, clients=options.clients, per_second=options.rate)
                )
            counts = outcome.counts
            total_written += counts.written
            total_lost += len(counts.lost)
            bad = bool(counts.lost or counts.wrong or outcome.exit_code != 0 or outcome.left_in_group)
            bad_runs += bad
            print(
                f"run {run}: written {counts.written}, answered {counts.answered}, lost {len(counts.lost)}"
                f" {counts.lost or ''}, wrong {len(counts.wrong)}, told to close {counts.told_to_close},"
                f" closed before write {counts.closed_before_write}, connections {counts.connections};"
                f" exit {outcome.exit_code} after {outcome.stop_seconds:.2f}s;"
                f" left in group {outcome.left_in_group or 'none'}",
                flush=True,
            )
    print(f"{options.runs} runs, {total_written} requests, {total_lost} lost, {bad_runs} bad runs")
    sys.exit(1 if bad_runs else 0)


if __name__ == "__main__":
    os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)
    main()
