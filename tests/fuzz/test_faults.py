"""Faults while serving, and what the webhook does about each (docs/robustness.md, "Faults"):

* certificate files removed or corrupted: the pair in memory keeps serving, the refusal is logged
  once, a good pair written later is picked up;
* the disk full when logging: every answer still goes out; the lost log lines are the only loss;
* a worker killed in the middle of requests: its clients see a connection error (never a wrong
  answer; kube-apiserver then applies the webhook's failurePolicy), the other workers' requests are
  answered, and a replacement worker serves;
* SIGTERM while abusive clients hold connections: the server still exits 0, promptly;
* SIGTERM while clients stream reviews over kept-alive connections, again and again: not one review
  written on an open connection goes unanswered, and no process of the server is left.

The happy paths (SIGTERM during a burst, a killed worker replaced) are tests/test_workers.py's.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import io
import logging
import os
import shutil
import signal
import socket
import ssl
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, cast

import orjson
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient
from cryptography import x509

from tests.fuzz.abuse import (
    TEST_LIMITS,
    Abuse,
    GuardedServer,
    close_quietly,
    guarded_server,
    open_tls,
    read_response,
    request_head,
    review_body,
)
from tests.fuzz.profiles import budget
from tests.fuzz.seeds import admission_review, seed
from tests.kept_alive import CLIENTS, EXIT_WITHIN_SECONDS, sigterm_during_streams
from tests.live_server import HeldRequest, development_certificates, live_server, wait_for
from tests.test_tls import SecretVolume
from webhook.admission import Judge
from webhook.logs import configure_logging
from webhook.server import create_app
from webhook.settings import LogFormat, Settings

JSON = {"Content-Type": "application/json"}


def copy_certs(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    return target


async def review_over(
    port: int, tls: ssl.SSLContext, uid: str, *, kind: str = "ResourceClaim"
) -> dict[str, Any]:
    reader, writer = await open_tls(port, tls)
    try:
        body = review_body(uid, kind)
        writer.write(request_head(len(body), port=port) + body)
        status, _, answer = await read_response(reader)
        assert status == 200
        document: dict[str, Any] = orjson.loads(answer)
        assert document["response"]["uid"] == uid
        return document
    finally:
        close_quietly(writer)


async def readiness(port: int, tls: ssl.SSLContext) -> int:
    reader, writer = await open_tls(port, tls)
    try:
        writer.write(b"GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        status, _, _ = await read_response(reader)
        return status
    finally:
        close_quietly(writer)


def served_serial(port: int, cafile: Path) -> int:
    """The serial number of the certificate a new connection is served."""
    context = ssl.create_default_context(cafile=str(cafile))
    with (
        socket.create_connection(("127.0.0.1", port), timeout=10) as raw,
        context.wrap_socket(raw, server_hostname="127.0.0.1") as connection,
    ):
        der = connection.getpeercert(binary_form=True)
    assert der is not None
    return x509.load_der_x509_certificate(der).serial_number


# --- certificates -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fault", ["files removed", "directory removed", "files corrupted", "key of another pair"]
)
async def test_a_broken_certificate_on_disk_never_stops_the_serving(
    tmp_path: Path, cert_dir: Path, fault: str
) -> None:
    # A mounted Secret, as kubelet lays it out: a new content is published whole. Each fault is one
    # change as the reloader sees it: a check between two writes of a fault made file by file would
    # see a third pair, broken differently, and rightly refuse it too.
    pair = {name: (cert_dir / name).read_bytes() for name in ("ca.crt", "tls.crt", "tls.key")}
    volume = SecretVolume(tmp_path / "live", pair)
    live = volume.root
    with guarded_server(tmp_path, live, cert_reload_interval_seconds=0.1) as server:
        tls = server.client_tls()
        serial = served_serial(server.port, live / "ca.crt")
        reader, writer = await open_tls(server.port, tls)  # a kept-alive connection across the fault
        if fault == "files removed":
            # Two changes, one refusal: the certificate is read first, and is missing in both.
            (live / "tls.crt").unlink()
            (live / "tls.key").unlink()
        elif fault == "directory removed":
            live.rename(tmp_path / "removed")  # gone at once, not file by file
            shutil.rmtree(tmp_path / "removed")
        elif fault == "files corrupted":
            volume.publish(
                {**pair, "tls.crt": b"-----BEGIN CERTIFICATE-----\ngarbage\n", "tls.key": os.urandom(300)}
            )
        else:
            development_certificates(tmp_path / "other")
            volume.publish({**pair, "tls.key": (tmp_path / "other" / "tls.key").read_bytes()})
        wait_for(
            lambda: any(
                "refusing the new certificate pair" in line.get("msg", "") for line in server.log_lines()
            ),
            timeout=10,
            what="the reloader to refuse the broken pair",
        )
        await asyncio.sleep(0.5)  # several more checks: refused once, not on every check
        refusals = [line for line in server.log_lines() if "refusing" in line.get("msg", "")]
        assert len(refusals) == 1
        body = review_body("kept-alive")
        writer.write(request_head(len(body), port=server.port) + body)
        status, _, _ = await read_response(reader)
        assert status == 200
        close_quietly(writer)
        await review_over(server.port, tls, "new-connection")
        assert served_serial(server.port, cert_dir / "ca.crt") == serial  # still the pair in memory
        assert await readiness(server.port, tls) == 200
        assert await server.stopped() == 0


async def test_a_good_pair_written_after_a_broken_one_is_served(tmp_path: Path, cert_dir: Path) -> None:
    live = copy_certs(cert_dir, tmp_path / "live")
    with guarded_server(tmp_path, live, cert_reload_interval_seconds=0.1) as server:
        old_serial = served_serial(server.port, live / "ca.crt")
        (live / "tls.crt").unlink()
        wait_for(
            lambda: any("refusing" in line.get("msg", "") for line in server.log_lines()),
            timeout=10,
            what="the refusal",
        )
        # A new serving pair from the same development CA (cert-manager renewing the Secret).
        (live / "tls.key").unlink()
        development_certificates(live)
        wait_for(
            lambda: served_serial(server.port, live / "ca.crt") != old_serial,
            timeout=10,
            what="the new pair to be served",
        )
        await review_over(server.port, server.client_tls(), "after-the-rotation")
        assert await server.stopped() == 0


# --- the disk full ----------------------------------------------------------------------------------


class FullDisk(io.TextIOBase):
    """A stream on a full disk: every write fails with ENOSPC, as /dev/full does."""

    def __init__(self) -> None:
        self.attempts = 0

    def write(self, text: str) -> int:
        self.attempts += 1
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def flush(self) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def writable(self) -> bool:
        return True


class CrashingJudge(Judge):
    """A judge whose rules crash: the internal-error path, which logs a stack trace."""

    def _judge(self, request: Any) -> Any:
        raise RuntimeError("a rule crashed")


@pytest.fixture
def full_disk_logging(monkeypatch: pytest.MonkeyPatch) -> Iterator[FullDisk]:
    """Every log record of the process goes to a full disk, and so does stderr (where `logging`
    reports its own failures)."""
    disk = FullDisk()
    root = logging.getLogger()
    saved_handlers, saved_level = list(root.handlers), root.level
    monkeypatch.setattr(sys, "stderr", disk)
    configure_logging(level="debug", log_format=LogFormat.JSON, stream=cast(IO[str], disk))
    try:
        yield disk
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in saved_handlers:
            root.addHandler(handler)
        root.setLevel(saved_level)


async def test_the_disk_full_when_logging_loses_log_lines_and_no_answer(
    aiohttp_client: Any, full_disk_logging: FullDisk
) -> None:
    settings = Settings(access_log=True)
    client: TestClient[web.Request, web.Application] = await aiohttp_client(create_app(settings))
    claim = seed("ResourceClaim")
    claim["spec"]["resourceClassName"] = "Not A Name"  # denied, so logged
    for uid, document in (
        ("allowed", admission_review(seed("ResourceClaim"), kind="ResourceClaim", uid="allowed")),
        ("denied", admission_review(claim, kind="ResourceClaim", uid="denied")),
    ):
        response = await client.post("/validate", data=orjson.dumps(document), headers=JSON)
        assert response.status == 200
        answer = await response.json()
        assert answer["response"]["uid"] == uid
        assert answer["response"]["allowed"] is (uid == "allowed")
    assert full_disk_logging.attempts > 0  # the denial was logged, or tried to be


async def test_the_disk_full_when_logging_an_internal_error(
    aiohttp_client: Any, full_disk_logging: FullDisk
) -> None:
    base = Judge.build()
    judge = CrashingJudge(
        policy=base.policy, namespace_policy=base.namespace_policy, structural=base.structural
    )
    client: TestClient[web.Request, web.Application] = await aiohttp_client(
        create_app(Settings(), judge=judge)
    )
    document = admission_review(seed("ResourceClaim"), kind="ResourceClaim", uid="crash")
    response = await client.post("/validate", data=orjson.dumps(document), headers=JSON)
    assert response.status == 200
    answer = (await response.json())["response"]
    assert answer["uid"] == "crash" and answer["status"]["code"] == 500
    assert full_disk_logging.attempts > 0


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
async def test_a_server_whose_log_stream_is_dev_full_serves_and_stops(tmp_path: Path, cert_dir: Path) -> None:
    """The real thing: every write to stderr fails with ENOSPC, from the first log line on."""
    with guarded_server(tmp_path, cert_dir, stderr_path="/dev/full", access_log=True) as server:
        tls = server.client_tls()
        claim = seed("ResourceClaim")
        claim["spec"]["resourceClassName"] = "Not A Name"
        for i in range(20):
            await review_over(server.port, tls, f"allowed-{i}")
        reader, writer = await open_tls(server.port, tls)
        body = orjson.dumps(admission_review(claim, kind="ResourceClaim", uid="denied"))
        writer.write(request_head(len(body), port=server.port) + body)
        status, _, answer = await read_response(reader)
        close_quietly(writer)
        assert status == 200 and orjson.loads(answer)["response"]["allowed"] is False
        assert await server.stopped() == 0


# --- a worker killed mid-request --------------------------------------------------------------------


def socket_inodes(pid: int) -> set[str]:
    inodes = set()
    with contextlib.suppress(FileNotFoundError, PermissionError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
    return inodes


def server_side_inode(server_port: int, client_port: int) -> str | None:
    """The inode of the server's socket of the loopback connection from `client_port`."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(FileNotFoundError), open(table) as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                local_port = int(fields[1].rsplit(":", 1)[1], 16)
                remote_port = int(fields[2].rsplit(":", 1)[1], 16)
                if local_port == server_port and remote_port == client_port:
                    return fields[9]
    return None


async def finish_or_reset(request: HeldRequest) -> tuple[int, Any] | None:
    """The held request's status and answer, or None when its connection was reset or closed
    (EOF before a status line leaves HeldRequest.finish without a Content-Length: KeyError)."""
    try:
        return await request.finish()
    except (ConnectionError, asyncio.IncompleteReadError, ssl.SSLError, KeyError, ValueError):
        return None


def expected_answer(uid: str) -> dict[str, Any]:
    return {
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "response": {"uid": uid, "allowed": True},
    }


def worker_pids(server: GuardedServer) -> list[int]:
    return [
        line["workerPid"] for line in server.log_lines() if "workerPid" in line and "started" in line["msg"]
    ]


async def test_a_worker_killed_mid_request_fails_only_its_own_requests(
    tmp_path: Path, cert_dir: Path
) -> None:
    limits = {**TEST_LIMITS, "body_timeout_seconds": 30.0}
    with guarded_server(tmp_path, cert_dir, limits=limits, workers=2) as server:
        wait_for(lambda: len(worker_pids(server)) == 2, timeout=30, what="two workers")
        wait_for(
            lambda: sum("serving https" in line.get("msg", "") for line in server.log_lines()) == 2,
            timeout=30,
            what="both workers serving",
        )
        pids = worker_pids(server)
        tls = server.client_tls()
        held: dict[int, list[HeldRequest]] = {pid: [] for pid in pids}
        for attempt in range(60):  # SO_REUSEPORT spreads connections; hold some on each worker
            request = await HeldRequest.open(
                server.port, tls, review_body(f"held-{attempt}"), uid=f"held-{attempt}"
            )
            client_port: int = request._writer.get_extra_info("sockname")[1]

            def listed(port: int = client_port) -> str | None:
                return server_side_inode(server.port, port)

            inode = wait_for(listed, timeout=5, what="the server's socket of the connection")
            owner = next((pid for pid in pids if inode in socket_inodes(pid)), None)
            assert owner is not None
            held[owner].append(request)
            if all(len(requests) >= 2 for requests in held.values()):
                break
        victim, survivor = pids
        assert held[victim] and held[survivor], "the kernel never spread the connections"
        os.kill(victim, signal.SIGKILL)  # a process of the server this test started
        for request in held[victim]:
            assert await finish_or_reset(request) is None  # reset: never an answer, never a wrong one
        for request in held[survivor]:
            assert await finish_or_reset(request) == (200, expected_answer(request.uid))
        wait_for(lambda: len(worker_pids(server)) == 3, timeout=30, what="a replacement worker")
        for i in range(10):
            await review_over(server.port, tls, f"after-{i}")
        assert await server.stopped() == 0


# --- SIGTERM while abusers hold connections ---------------------------------------------------------


async def test_sigterm_under_abuse_answers_the_accepted_review_and_exits_promptly(
    tmp_path: Path, cert_dir: Path
) -> None:
    # The abusers end at their deadlines (1 s), within a second or two of SIGTERM; a grace period
    # far longer tells an exit at those deadlines from one at the grace period on a loaded machine too.
    grace = 15.0
    with guarded_server(tmp_path, cert_dir, grace_period_seconds=grace) as server:
        tls = server.client_tls()
        abuse = Abuse(server.port, tls)
        await abuse.slowloris(10)
        await abuse.slow_bodies(5)
        await abuse.non_readers(1)
        await abuse.idle_crowd(50)
        held = await HeldRequest.open(server.port, tls, review_body("accepted"), uid="accepted")
        await asyncio.sleep(0.5)
        started = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        status, answer = await held.finish()
        assert status == 200 and answer["response"]["uid"] == "accepted"
        code = await asyncio.to_thread(server.process.wait, grace + 30)
        took = time.monotonic() - started
        print(f"stopped {took:.2f}s after SIGTERM")
        await abuse.stop()
        assert code == 0
        # A slow body ends at its deadline (1 s) instead of holding the shutdown for the grace period.
        assert took < grace, took


# --- SIGTERM during streams over kept-alive connections ---------------------------------------------

# Repeated: a few runs in CI, many under `make fuzz` (each run takes about 4 s).
STREAM_RUNS = budget(3)


@pytest.mark.parametrize("run", range(STREAM_RUNS))
async def test_sigterm_during_kept_alive_streams_loses_no_request_and_leaves_no_process(
    tmp_path: Path, cert_dir: Path, run: int
) -> None:
    """4 clients stream reviews (600/s in all) over kept-alive connections, SIGTERM goes to
    the supervisor. Every review written on an open connection is answered; each streaming client is
    told to go elsewhere by an answer (`Connection: close`), never cut off between two reviews; the
    server exits 0 within 15 s and no process of its group is left, running or as a zombie."""
    with live_server(tmp_path, cert_dir, workers=2, metrics=False) as server:
        outcome = await sigterm_during_streams(server)
    counts = outcome.counts
    summary = f"run {run}: {counts}, exit {outcome.exit_code} after {outcome.stop_seconds:.2f}s"
    assert counts.lost == [], summary
    assert counts.wrong == [], summary
    assert counts.closed_before_write == 0, summary
    assert counts.told_to_close >= CLIENTS, summary
    assert outcome.exit_code == 0, summary
    assert outcome.stop_seconds < EXIT_WITHIN_SECONDS, summary
    assert outcome.left_in_group == [], summary
