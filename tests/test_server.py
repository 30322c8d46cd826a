"""The HTTP edge: status codes, content types, limits and health."""

from __future__ import annotations

import asyncio
import gc
import logging
import shutil
import ssl
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import orjson
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient

from tests.kept_alive import read_answer, review_request
from tests.live_server import HeldRequest, connection_refused, free_port
from tests.reviews import admission_review, allocated_claim, resource_claim
from webhook.admission import AdmissionRequest, Verdict
from webhook.logs import extra_fields
from webhook.metrics import Metrics
from webhook.registry import REGISTRY
from webhook.server import WebhookServer, connections, create_app
from webhook.server import app as server_app
from webhook.server.app import server_tls
from webhook.server.process import YOUNG_COLLECTION_THRESHOLD, settle_collector
from webhook.server.state import METRICS_KEY, READINESS_KEY, RELOADER_KEY, TRAFFIC_KEY
from webhook.settings import ListenAddress, Settings

Client = TestClient[web.Request, web.Application]
MakeClient = Callable[[web.Application], Awaitable[Client]]
JSON = {"Content-Type": "application/json"}


@pytest.fixture
async def client(aiohttp_client: MakeClient) -> Client:
    return await aiohttp_client(create_app(Settings(max_body_bytes=64 * 1024)))


async def post_review(client: Client, document: Any) -> tuple[int, dict[str, Any]]:
    response = await client.post("/validate?timeout=10s", data=orjson.dumps(document), headers=JSON)
    return response.status, await response.json()


async def test_an_allowed_review_is_200_with_the_uid_echoed(client: Client) -> None:
    status, answer = await post_review(client, admission_review(resource_claim(), uid="u-1"))
    assert status == 200
    assert answer == {
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "response": {"uid": "u-1", "allowed": True},
    }


async def test_a_denied_review_is_also_http_200(client: Client) -> None:
    document = admission_review(
        allocated_claim(reserved_for=33), operation="UPDATE", old=allocated_claim(), sub_resource="status"
    )
    status, answer = await post_review(client, document)
    assert status == 200
    assert answer["response"]["allowed"] is False
    assert answer["response"]["status"]["code"] == 422


async def test_a_v1beta1_review_is_answered_in_v1beta1(client: Client) -> None:
    _, answer = await post_review(
        client, admission_review(resource_claim(), api_version="admission.k8s.io/v1beta1")
    )
    assert answer["apiVersion"] == "admission.k8s.io/v1beta1"


async def test_reviews_sent_at_once_each_get_their_own_answer(client: Client) -> None:
    allowed = admission_review(resource_claim(), uid="allowed")
    denied = admission_review(
        allocated_claim(reserved_for=33), operation="UPDATE", old=allocated_claim(), sub_resource="status",
        uid="denied",
    )  # fmt: skip
    unreadable = {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"}
    answers = await asyncio.gather(*(post_review(client, doc) for doc in (allowed, unreadable, denied) * 4))
    for (status, answer), expected in zip(answers, ("allowed", "unreadable", "denied") * 4, strict=True):
        if expected == "unreadable":
            assert status == 400 and answer["code"] == 400
        else:
            assert status == 200
            assert answer["response"]["uid"] == expected
            assert answer["response"]["allowed"] is (expected == "allowed")


@pytest.mark.parametrize(
    ("body", "headers", "status"),
    [
        (b"not json", JSON, 400),
        (b"[]", JSON, 400),
        (
            b'{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"kind": {"version": "v1", "kind": "X"}, "operation": "CREATE"}}',
            JSON,
            400,
        ),
        (b'{"apiVersion": "admission.k8s.io/v9", "kind": "AdmissionReview", "request": {}}', JSON, 400),
        (b"{}", {"Content-Type": "text/plain"}, 415),
        (b"{}", {}, 415),
    ],
)
async def test_unreadable_requests_get_an_http_error_with_a_json_reason(
    client: Client, body: bytes, headers: dict[str, str], status: int
) -> None:
    response = await client.post("/validate", data=body, headers=headers)
    assert response.status == status
    reason = await response.json()
    assert reason["code"] == status
    assert reason["message"]
    assert "Traceback" not in reason["message"]


async def test_an_oversize_body_is_413(client: Client) -> None:
    response = await client.post("/validate", data=b"x" * (64 * 1024 + 1), headers=JSON)
    assert response.status == 413
    assert (await response.json())["code"] == 413


async def test_an_oversize_chunked_body_is_413_without_reading_it_all(client: Client) -> None:
    async def chunks() -> Any:
        for _ in range(100):
            yield b"x" * 4096

    response = await client.post("/validate", data=chunks(), headers=JSON)
    assert response.status == 413


async def test_wrong_method_is_405_and_unknown_path_is_404(client: Client) -> None:
    wrong_method = await client.get("/validate")
    assert wrong_method.status == 405
    assert (await wrong_method.json())["code"] == 405
    unknown = await client.post("/mutate", data=b"{}", headers=JSON)
    assert unknown.status == 404
    assert (await unknown.json())["code"] == 404


async def test_health_and_readiness(client: Client) -> None:
    assert (await client.get("/healthz")).status == 200
    # Readiness also needs a loaded certificate, which only `serve` attaches.
    not_ready = await client.get("/readyz")
    assert not_ready.status == 503
    assert "certificate not loaded" in await not_ready.text()
    client.app[READINESS_KEY].certificate_ready = True
    assert (await client.get("/readyz")).status == 200
    client.app[READINESS_KEY].shutting_down = True
    assert (await client.get("/readyz")).status == 503


# --- a whole server in this process: readiness and graceful shutdown ---------------------------------


SHUTDOWN_DELAY_SECONDS = 2.0


async def get_status(session: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    async with session.get(url) as response:
        return response.status, await response.text()


async def test_readiness_turns_false_at_shutdown_while_accepted_reviews_finish(cert_dir: Path) -> None:
    settings = Settings(
        port=0,
        cert_dir=cert_dir,
        generate_dev_certs=False,
        # Two new TLS connections are made during the delay: a few ms each on a quiet machine, far
        # longer when the machine is loaded (this loop also runs the server).
        shutdown_delay_seconds=SHUTDOWN_DELAY_SECONDS,
        grace_period_seconds=5,
    )
    server = WebhookServer(settings)
    await server.start()
    tls = ssl.create_default_context(cafile=str(cert_dir / "ca.crt"))
    url = f"https://127.0.0.1:{server.port}"
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=tls, force_close=True)) as session:
        assert await get_status(session, url + "/readyz") == (200, "ok\n")
        body = orjson.dumps(admission_review(resource_claim(), uid="held"))
        held = await HeldRequest.open(server.port, tls, body, uid="held")
        stopping = asyncio.create_task(server.stop())
        await asyncio.sleep(0.05)
        # During the shutdown delay the listener still accepts, and says it is not ready.
        assert await get_status(session, url + "/readyz") == (503, "not ready: shutting down\n")
        assert await get_status(session, url + "/healthz") == (200, "ok\n")
        deadline = asyncio.get_running_loop().time() + SHUTDOWN_DELAY_SECONDS + 5
        while not await connection_refused(server.port):
            assert asyncio.get_running_loop().time() < deadline, "the listener never closed"
            await asyncio.sleep(0.02)
        assert not stopping.done()  # waiting for the held review
        status, answer = await held.finish()
        assert status == 200
        assert answer["response"] == {"uid": "held", "allowed": True}
        # The answer closes its connection: a keep-alive client moves to another replica.
        assert held.headers["connection"] == "close"
        await asyncio.wait_for(stopping, 5)


async def test_a_review_cut_off_by_the_grace_period_is_logged(
    cert_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(port=0, cert_dir=cert_dir, generate_dev_certs=False, grace_period_seconds=0.2)
    server = WebhookServer(settings)
    await server.start()
    tls = ssl.create_default_context(cafile=str(cert_dir / "ca.crt"))
    held = await HeldRequest.open(
        server.port, tls, orjson.dumps(admission_review(resource_claim())), uid="held"
    )
    assert server.app is not None
    traffic = server.app[TRAFFIC_KEY]
    deadline = asyncio.get_running_loop().time() + 5
    while traffic.in_flight != 1:  # its head read and its handler reading the body
        assert asyncio.get_running_loop().time() < deadline, "the held review never reached its handler"
        await asyncio.sleep(0.01)
    with caplog.at_level(logging.INFO, logger="webhook.server"):
        await asyncio.wait_for(server.stop(), 5)
    messages = [record.getMessage() for record in caplog.records]
    assert "shutting down: not ready, 1 review(s) in flight, grace 0.2s" in messages
    assert "the grace period ended with 1 review(s) unanswered" in messages
    held.close()


@pytest.fixture
def short_drain(monkeypatch: pytest.MonkeyPatch) -> float:
    monkeypatch.setattr(connections, "DRAIN_IDLE_SECONDS", 0.4)
    return 0.4


@pytest.fixture
def long_drain(monkeypatch: pytest.MonkeyPatch) -> float:
    """A drain idle time far longer than what a test does before it must run out, however loaded the
    machine (this loop runs the server and its clients)."""
    monkeypatch.setattr(connections, "DRAIN_IDLE_SECONDS", 2.0)
    return 2.0


async def kept_alive_connection(
    port: int, tls: ssl.SSLContext
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A TLS connection that has had one review answered and stays open for the next."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=tls, server_hostname="127.0.0.1")
    writer.write(review_request("first", port))
    status, headers, _ = await read_answer(reader)
    assert status == 200 and headers.get("connection", "").lower() != "close"
    return reader, writer


async def test_a_review_sent_on_an_idle_kept_alive_connection_while_draining_is_answered(
    cert_dir: Path, long_drain: float
) -> None:
    """aiohttp's own shutdown closes idle kept-alive connections at once: a review the client writes
    on one at that moment gets EOF (kube-apiserver: `failed to call webhook: ... EOF`). Draining,
    the connection stays open while its client may be using it, and the answer says to go elsewhere."""
    server = WebhookServer(
        Settings(port=0, cert_dir=cert_dir, generate_dev_certs=False, grace_period_seconds=5)
    )
    await server.start()
    tls = ssl.create_default_context(cafile=str(cert_dir / "ca.crt"))
    reader, writer = await kept_alive_connection(server.port, tls)
    stopping = asyncio.create_task(server.stop())
    deadline = asyncio.get_running_loop().time() + 5
    while not await connection_refused(server.port):
        assert asyncio.get_running_loop().time() < deadline, "the listener never closed"
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.2)  # idle into the drain, for less than the drain idle time
    writer.write(review_request("during-the-drain", server.port))
    status, headers, body = await read_answer(reader)
    assert status == 200 and orjson.loads(body)["response"] == {"uid": "during-the-drain", "allowed": True}
    assert headers["connection"] == "close"
    assert await asyncio.wait_for(reader.read(), 5) == b""  # then the server closes it
    # A probe of connection_refused accepted just before the listener closed is a handshake that
    # never ends: the drain waits for it for the drain idle time.
    await asyncio.wait_for(stopping, long_drain + 5)
    writer.close()


async def test_an_idle_kept_alive_connection_is_closed_once_idle_for_the_drain_idle_time(
    cert_dir: Path, short_drain: float
) -> None:
    grace = 5.0
    server = WebhookServer(
        Settings(port=0, cert_dir=cert_dir, generate_dev_certs=False, grace_period_seconds=grace)
    )
    await server.start()
    tls = ssl.create_default_context(cafile=str(cert_dir / "ca.crt"))
    loop = asyncio.get_running_loop()
    # The connection is idle from the end of its review at the earliest, which is after this: measured
    # from the end of the client's read instead, the server's idle time would look short by as long as
    # this loop took to get from the one to the other.
    started = loop.time()
    reader, writer = await kept_alive_connection(server.port, tls)
    stopping = asyncio.create_task(server.stop())
    assert await asyncio.wait_for(reader.read(), 5) == b""  # closed by the server, gracefully
    closed_after = loop.time() - started
    await asyncio.wait_for(stopping, 5)
    stopped_after = loop.time() - started
    assert short_drain * 0.9 <= closed_after <= stopped_after < grace / 2
    writer.close()


async def test_a_certificate_broken_restored_and_broken_again_is_counted_and_logged_each_time(
    cert_dir: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A refused certificate pair, as an operator sees it: `certificate_reloads_total{result="error"}` and the log."""
    live = Path(shutil.copytree(cert_dir, tmp_path / "live"))
    settings = Settings(port=0, cert_dir=live, generate_dev_certs=False, cert_reload_interval_seconds=0.02)
    server = WebhookServer(settings)
    await server.start()
    assert server.app is not None
    registry, reloader = server.app[METRICS_KEY].registry, server.app[RELOADER_KEY]
    good = (live / "tls.crt").read_bytes()

    def errors() -> float | None:
        return registry.get_sample_value("dra_webhook_certificate_reloads_total", {"result": "error"})

    async def publish(content: bytes, *, then: Callable[[], bool]) -> None:
        """Replace tls.crt at once (never seen half-written), and wait until `then()` holds."""
        (live / "next.crt").write_bytes(content)
        (live / "next.crt").replace(live / "tls.crt")
        deadline = asyncio.get_running_loop().time() + 5
        while not then():
            assert asyncio.get_running_loop().time() < deadline, "the reloader never saw the change"
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.1)  # a few more checks: nothing more is counted

    try:
        with caplog.at_level(logging.ERROR, logger="webhook.tls"):
            await publish(good[: len(good) // 2], then=lambda: errors() == 1)
            await publish(good, then=lambda: reloader.last_error is None)
            await publish(good[: len(good) // 2], then=lambda: errors() == 2)
            assert errors() == 2
    finally:
        await server.stop()
    refusals = [
        record for record in caplog.records if "refusing the new certificate pair" in record.getMessage()
    ]
    assert len(refusals) == 2


@pytest.mark.parametrize("access_log", [False, True])
async def test_access_lines_only_when_asked(
    cert_dir: Path, caplog: pytest.LogCaptureFixture, access_log: bool
) -> None:
    settings = Settings(port=0, cert_dir=cert_dir, generate_dev_certs=False, access_log=access_log)
    server = WebhookServer(settings)
    await server.start()
    tls = ssl.create_default_context(cafile=str(cert_dir / "ca.crt"))
    try:
        with caplog.at_level(logging.INFO, logger="webhook.access"):
            async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=tls)) as session:
                document = orjson.dumps(admission_review(resource_claim(), uid="u-access"))
                url = f"https://127.0.0.1:{server.port}/validate?timeout=10s"
                async with session.post(url, data=document, headers=JSON) as response:
                    assert response.status == 200
            await asyncio.sleep(0.05)
    finally:
        await server.stop()
    lines = [record for record in caplog.records if record.name == "webhook.access"]
    if not access_log:
        assert lines == []
        return
    (line,) = lines
    assert line.getMessage() == "POST /validate 200"
    fields = extra_fields(line)
    assert fields["uid"] == "u-access"
    assert (fields["method"], fields["path"], fields["status"], fields["remote"]) == (
        "POST",
        "/validate",
        200,
        "127.0.0.1",
    )
    assert fields["durationMs"] >= 0


async def test_the_server_logs_each_denial(client: Client, caplog: pytest.LogCaptureFixture) -> None:
    document = admission_review(
        allocated_claim(reserved_for=33),
        operation="UPDATE",
        old=allocated_claim(),
        sub_resource="status",
        uid="u-d",
    )
    with caplog.at_level(logging.INFO, logger="webhook.decision"):
        await post_review(client, document)
        await post_review(client, admission_review(resource_claim(), uid="u-a"))
    (line,) = [record for record in caplog.records if record.name == "webhook.decision"]
    assert line.getMessage() == "denied ResourceClaim default/claim (UPDATE)"
    assert extra_fields(line)["uid"] == "u-d"


async def test_the_metrics_listener_serves_only_get_metrics(cert_dir: Path) -> None:
    metrics_port = free_port()
    settings = Settings(
        port=0,
        cert_dir=cert_dir,
        generate_dev_certs=False,
        metrics_address=ListenAddress("127.0.0.1", metrics_port),
    )
    server = WebhookServer(settings)
    await server.start()
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{metrics_port}/metrics") as response:
                assert response.status == 200
                assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
                text = await response.text()
            assert "dra_webhook_workers 1.0" in text
            assert "# TYPE dra_webhook_request_duration_seconds histogram" in text
            async with session.get(
                f"http://127.0.0.1:{metrics_port}/metrics",
                headers={"Accept": "application/openmetrics-text; version=1.0.0"},
            ) as response:
                assert response.headers["Content-Type"].startswith("application/openmetrics-text")
            async with session.get(f"http://127.0.0.1:{metrics_port}/validate") as response:
                assert response.status == 404
    finally:
        await server.stop()
    assert await connection_refused(metrics_port)


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("127.0.0.1:9090", ListenAddress("127.0.0.1", 9090)),
        (":9090", ListenAddress("0.0.0.0", 9090)),
        ("[::1]:9090", ListenAddress("::1", 9090)),
        ("localhost:1", ListenAddress("localhost", 1)),
    ],
)
def test_listen_addresses(text: str, address: ListenAddress) -> None:
    assert ListenAddress.parse(text) == address


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("9090", "'9090' is not HOST:PORT"),
        ("host:port", "'host:port' is not HOST:PORT"),
        ("::1:9090", "'::1:9090': write an IPv6 host in brackets, e.g. [::1]:9090"),
        ("127.0.0.1:0", "'127.0.0.1:0': the port must be between 1 and 65535"),
        ("127.0.0.1:65536", "'127.0.0.1:65536': the port must be between 1 and 65535"),
    ],
)
def test_bad_listen_addresses(text: str, message: str) -> None:
    with pytest.raises(ValueError) as refused:
        ListenAddress.parse(text)
    assert str(refused.value) == message


def test_generated_development_certificates_are_announced_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """`webhook.tls` says what it made (a warning: not for production); the server does not say it again."""
    with caplog.at_level(logging.DEBUG):
        server_tls(Settings(cert_dir=tmp_path))
    announcements = [
        (record.name, record.levelname)
        for record in caplog.records
        if "development certificate" in record.getMessage()
    ]
    assert announcements == [("webhook.tls", "WARNING")]
    assert (tmp_path / "tls.crt").exists()


class UnwritableMetrics(Metrics):
    """Instruments whose storage is gone, as when a multiprocess file cannot be created."""

    def observe_review(self, request: AdmissionRequest, verdict: Verdict, seconds: float) -> None:
        raise FileNotFoundError("counter_1234.db")

    def observe_unreadable(self, status: int, seconds: float) -> None:
        raise FileNotFoundError("counter_1234.db")


async def test_a_metric_that_cannot_be_written_costs_no_answer(
    aiohttp_client: MakeClient, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(Settings(), metrics=UnwritableMetrics(REGISTRY))
    client = await aiohttp_client(app)
    with caplog.at_level(logging.ERROR, logger="webhook.server"):
        status, answer = await post_review(client, admission_review(resource_claim(), uid="kept"))
        unreadable = await client.post("/validate", data=b"not json", headers=JSON)
    assert (status, answer["response"]) == (200, {"uid": "kept", "allowed": True})
    assert unreadable.status == 400
    assert (await unreadable.json())["code"] == 400
    logged = [(record.getMessage(), extra_fields(record).get("uid")) for record in caplog.records]
    assert logged == [("cannot record the answer", "kept"), ("cannot record an unreadable request", None)]


class UnflushableMetrics(Metrics):
    def flush(self) -> None:
        raise FileNotFoundError("histogram_1234.db")


async def test_metrics_that_cannot_be_flushed_are_logged_and_cost_no_answer(
    aiohttp_client: MakeClient, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_app, "METRICS_FLUSH_SECONDS", 0.01)
    client = await aiohttp_client(create_app(Settings(), metrics=UnflushableMetrics(REGISTRY)))
    with caplog.at_level(logging.ERROR, logger="webhook.server"):
        for _ in range(3):
            status, answer = await post_review(client, admission_review(resource_claim(), uid="kept"))
            assert (status, answer["response"]) == (200, {"uid": "kept", "allowed": True})
            await asyncio.sleep(0.03)
    messages = {record.getMessage() for record in caplog.records}
    assert messages == {"cannot write the metrics"}


def test_a_head_started_just_before_an_earlier_deadline_gets_its_own_full_timeout() -> None:
    """The head timer is not cancelled when a head completes: when it fires for an earlier request,
    the head awaited then still has its own whole timeout."""
    from tests.fuzz.test_connection_guard import ManualClock, connect, guard

    clock = ManualClock()
    guarded = guard(clock, header_timeout_seconds=1.0)
    connection, transport, _ = connect(guarded)
    connection.data_received(b"POST /validate HTTP/1.1\r\n\r\n")
    connection.request_started()  # in time
    connection.request_finished()
    clock.advance(0.6)
    connection.data_received(b"POST /valid")  # the next head starts before the first timer fires
    clock.advance(0.7)  # past the first request's deadline (1 s), not this one's (1.6 s)
    assert not transport.aborted
    clock.advance(0.29)
    assert not transport.aborted
    clock.advance(0.02)
    assert transport.aborted
    assert guarded.closed == {"slow-head": 1}


def test_serving_leaves_start_up_to_the_collector_and_collects_young_objects_rarely() -> None:
    """Once started, a server freezes what start-up built and collects its young generation only
    when YOUNG_COLLECTION_THRESHOLD more objects live (docs/performance.md, "The garbage collector")."""
    threshold, frozen = gc.get_threshold(), gc.get_freeze_count()
    try:
        settle_collector()
        assert gc.get_freeze_count() > frozen
        assert gc.get_threshold() == (YOUNG_COLLECTION_THRESHOLD, *threshold[1:])
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
