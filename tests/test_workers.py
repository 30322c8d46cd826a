"""Workers under a supervisor, for real: SIGTERM during a burst loses nothing, a killed worker is
replaced, a server that cannot start says so and stops. SIGTERM during streams over
kept-alive connections, repeated, is tests/fuzz/test_faults.py's."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
import orjson
import pytest

from tests.live_server import (
    JSON_HEADERS,
    HeldRequest,
    LiveServer,
    connection_refused,
    free_port,
    live_server,
    metric_samples,
    sample,
    wait_for,
)
from tests.reviews import admission_review, resource_claim
from webhook.settings import Settings
from webhook.workers import HEALTHY_AFTER_SECONDS, Supervisor, WorkerSlot

# Slow reviews held open across SIGTERM, and the concurrent burst beside them.
HELD_REQUESTS = 6
BURST_TASKS = 8
MAX_BURST_REQUESTS_PER_TASK = 5000  # a bound; SIGTERM ends the burst long before


def review_body(uid: str) -> bytes:
    return orjson.dumps(admission_review(resource_claim(), uid=uid))


def assert_valid_answer(status: int, answer: Any, uid: str) -> None:
    assert status == 200
    assert answer["kind"] == "AdmissionReview"
    assert answer["response"] == {"uid": uid, "allowed": True}


async def scrape(server: LiveServer) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    async with (
        aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=5)) as session,
        session.get(server.metrics_url()) as response,
    ):
        return metric_samples(await response.text())


async def total_requests(server: LiveServer) -> float:
    samples = await scrape(server)
    return sum(value for (name, _), value in samples.items() if name == "dra_webhook_requests_total")


async def flushed_total_requests(server: LiveServer, expected: float) -> float:
    """The total once it reaches `expected`: each worker adds its counts every METRICS_FLUSH_SECONDS."""
    deadline = time.monotonic() + 5
    while (total := await total_requests(server)) < expected:
        assert time.monotonic() < deadline, f"the workers flushed {total} requests, not {expected}"
        await asyncio.sleep(0.05)
    return total


# --- SIGTERM ----------------------------------------------------------------------------------------


async def test_sigterm_during_a_burst_answers_every_accepted_request_and_exits_0(
    tmp_path: Path, cert_dir: Path
) -> None:
    with live_server(tmp_path, cert_dir, "--access-log", workers=2) as server:
        held = [
            await HeldRequest.open(
                server.port, server.client_tls(), review_body(f"held-{i}"), uid=f"held-{i}"
            )
            for i in range(HELD_REQUESTS)
        ]

        async def all_held_in_flight() -> bool:
            return sample(await scrape(server), "dra_webhook_requests_in_flight") == HELD_REQUESTS

        deadline = time.monotonic() + 10
        while not await all_held_in_flight():
            assert time.monotonic() < deadline, "the held requests never reached the handlers"
            await asyncio.sleep(0.05)

        answered: dict[str, Any] = {}
        failures: list[BaseException] = []

        async def burst(task: int, session: aiohttp.ClientSession) -> None:
            for n in range(MAX_BURST_REQUESTS_PER_TASK):
                uid = f"burst-{task}-{n}"
                try:
                    async with session.post(
                        server.url("/validate"), data=review_body(uid), headers=JSON_HEADERS
                    ) as r:
                        assert_valid_answer(r.status, await r.json(), uid)
                        answered[uid] = True
                except aiohttp.ClientConnectionError as error:  # refused, or closed before an answer
                    failures.append(error)
                    return

        async with server.session(limit=BURST_TASKS) as session:
            tasks = [asyncio.create_task(burst(task, session)) for task in range(BURST_TASKS)]
            # SIGTERM once the burst is being answered (a first answer takes a few ms on a quiet
            # machine, and its new TLS connection far longer on a loaded one).
            deadline = time.monotonic() + 10
            while not answered:
                assert time.monotonic() < deadline, "the burst should be answered before SIGTERM"
                await asyncio.sleep(0.05)
            server.send(signal.SIGTERM)
            deadline = time.monotonic() + 10
            while not await connection_refused(server.port):
                assert time.monotonic() < deadline, "the listener never closed"
                await asyncio.sleep(0.05)
            # The listener is closed; the held reviews were accepted before: each gets its answer.
            for request in held:
                status, answer = await request.finish()
                assert_valid_answer(status, answer, request.uid)
            await asyncio.wait_for(asyncio.gather(*tasks), 20)

        assert await asyncio.to_thread(server.wait, 30) == 0
        assert (
            len(failures) == BURST_TASKS
        )  # every burst task ended on the closed listener, none on a bad answer
        # Every answer the server sent reached its client: nothing accepted was dropped.
        logged = {line["uid"] for line in server.log_lines() if line.get("logger") == "webhook.access"}
        assert logged == set(answered) | {request.uid for request in held}
        for pid in server.worker_pids():
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)


# --- a worker killed ---------------------------------------------------------------------------------


async def post_reviews(server: LiveServer, count: int, prefix: str) -> list[int]:
    async with server.session(fresh_connections=True) as session:

        async def post(uid: str) -> int:
            async with session.post(
                server.url("/validate"), data=review_body(uid), headers=JSON_HEADERS
            ) as r:
                assert_valid_answer(r.status, await r.json(), uid)
                return r.status

        return await asyncio.gather(*(post(f"{prefix}-{i}") for i in range(count)))


async def test_a_worker_killed_with_sigkill_is_replaced_and_the_server_keeps_answering(
    tmp_path: Path, cert_dir: Path
) -> None:
    with live_server(tmp_path, cert_dir, "--access-log", workers=2) as server:
        await post_reviews(server, 10, "before")
        # A worker killed with SIGKILL loses the counts it has not flushed yet: kill it after.
        assert await flushed_total_requests(server, 10) == 10
        first_workers = server.worker_pids()
        assert len(first_workers) == 2
        victim = first_workers[0]
        os.kill(victim, signal.SIGKILL)  # a process of the server this test started
        wait_for(
            lambda: any("SIGKILL" in line["msg"] for line in server.log_lines()),
            timeout=10,
            what="the supervisor to see the worker die",
        )
        await post_reviews(server, 10, "during")  # the other worker answers meanwhile

        def replacement_serving() -> list[int]:
            return [pid for pid in server.serving_pids() if pid not in first_workers]

        (replacement,) = wait_for(replacement_serving, timeout=20, what="a replacement worker serving")
        await post_reviews(server, 20, "after")

        def answered_after() -> list[int]:
            return [
                line["pid"]
                for line in server.log_lines()
                if line.get("logger") == "webhook.access" and line["uid"].startswith("after-")
            ]

        wait_for(lambda: len(answered_after()) == 20, timeout=5, what="the access lines")
        assert replacement in answered_after()  # the new worker takes its share

        samples = await scrape(server)
        assert sample(samples, "dra_webhook_workers") == 2
        assert sample(samples, "dra_webhook_worker_restarts_total") == 1
        # The killed worker's counts stay in the sum.
        assert await flushed_total_requests(server, 40) == 40

        server.send(signal.SIGTERM)
        assert await asyncio.to_thread(server.wait, 30) == 0


# --- Ctrl-C, one worker, start-up failures ----------------------------------------------------------


async def test_ctrl_c_on_the_process_group_stops_every_worker_with_status_0(
    tmp_path: Path, cert_dir: Path
) -> None:
    with live_server(tmp_path, cert_dir, workers=2, metrics=False) as server:
        await post_reviews(server, 4, "review")
        os.killpg(server.process.pid, signal.SIGINT)  # what a terminal does: the whole group
        assert await asyncio.to_thread(server.wait, 30) == 0
        for pid in server.worker_pids():
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
        messages = [line["msg"] for line in server.log_lines()]
        assert "SIGINT: stopping the workers" in messages
        assert messages.count("stopped") == 2  # each worker stopped gracefully


async def test_one_worker_serves_in_process_with_its_own_metrics(tmp_path: Path, cert_dir: Path) -> None:
    with live_server(tmp_path, cert_dir, workers=1) as server:
        await post_reviews(server, 3, "review")
        samples = await scrape(server)
        assert sample(samples, "dra_webhook_workers") == 1
        assert await total_requests(server) == 3
        assert server.worker_pids() == []  # no supervisor
        assert server.serving_pids() == [server.process.pid]
        server.send(signal.SIGTERM)
        assert await asyncio.to_thread(server.wait, 30) == 0


def run_serve(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("DRA_WEBHOOK_")}
    return subprocess.run(
        [sys.executable, "-m", "webhook", "serve", "--host", "127.0.0.1", "--log-format", "text", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=tmp_path,
        check=False,
    )


def test_a_taken_port_stops_the_supervisor_with_status_3(tmp_path: Path, cert_dir: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_serve(tmp_path, "--port", str(port), "--workers", "2", "--cert-dir", str(cert_dir))
    assert result.returncode == 3, result.stderr
    assert "cannot start: cannot listen: " in result.stderr
    assert "could not start; stopping the server" in result.stderr


def test_a_broken_configuration_stops_the_server_before_any_worker_starts(
    tmp_path: Path, cert_dir: Path
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("unknownKind: maybe\n")
    result = run_serve(
        tmp_path,
        "--port",
        str(free_port()),
        "--workers",
        "2",
        "--cert-dir",
        str(cert_dir),
        "--config",
        str(config),
    )
    assert result.returncode == 3, result.stderr
    assert f"cannot start: {config}: unknownKind must be allow or deny, not 'maybe'" in result.stderr
    assert "started worker" not in result.stderr


def test_missing_certificates_stop_a_single_worker_with_status_3(tmp_path: Path) -> None:
    result = run_serve(
        tmp_path,
        "--port",
        str(free_port()),
        "--workers",
        "1",
        "--cert-dir",
        str(tmp_path / "none"),
        "--no-generate-certs",
    )
    assert result.returncode == 3, result.stderr
    assert "cannot start: " in result.stderr


def gone(pid: int) -> bool:
    """The process has exited (a zombie left for a non-reaping init counts as exited)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


async def test_workers_stop_when_their_supervisor_is_killed(tmp_path: Path, cert_dir: Path) -> None:
    with live_server(tmp_path, cert_dir, workers=2, metrics=False) as server:
        workers = server.worker_pids()
        server.process.kill()  # SIGKILL: the supervisor cannot tell anyone
        server.process.wait(timeout=10)
        wait_for(lambda: all(gone(pid) for pid in workers), timeout=10, what="the orphaned workers to stop")
        assert await connection_refused(server.port)


def test_a_worker_that_keeps_dying_young_is_replaced_ever_more_slowly() -> None:
    """0.5 s, doubling up to 10 s while it dies within 10 s of its start; at once after a healthy run."""
    supervisor = Supervisor(Settings(workers=2))
    slot = WorkerSlot(0)
    delays = []
    for _ in range(7):
        slot.started_at = time.monotonic()  # died at once
        delays.append(supervisor._respawn_delay(slot))
    assert delays == [0.5, 1.0, 2.0, 4.0, 8.0, 10.0, 10.0]
    slot.started_at = time.monotonic() - HEALTHY_AFTER_SECONDS
    assert supervisor._respawn_delay(slot) == 0.0
    slot.started_at = time.monotonic()
    assert supervisor._respawn_delay(slot) == 0.5  # the count of young deaths starts again
