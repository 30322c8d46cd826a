"""Fuzzing at the HTTP layer: structured reviews through the aiohttp application (hypothesis), and
malformed HTTP itself (request lines, headers, framing) against a real TLS server.

Hypothesis drives a synchronous test, so the application runs on an event loop of the module's own
(`app_client`), started once: each example is one POST. The malformed-HTTP table is sent raw over
TLS; every request gets a 4xx (or the connection closed), never a 5xx, and the server keeps
answering well-formed reviews after each.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.abuse import (
    GuardedServer,
    close_quietly,
    guarded_server,
    open_tls,
    read_response,
    request_head,
)
from tests.fuzz.hostile import mutated
from tests.fuzz.oracle import check_answer
from tests.fuzz.profiles import FUZZ
from tests.fuzz.seeds import seed_reviews
from webhook.server import create_app
from webhook.settings import Settings

SEED_REVIEWS = seed_reviews()
JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def app_client() -> Iterator[tuple[asyncio.Runner, TestClient[web.Request, web.Application]]]:
    """The webhook application on a loop of its own, for synchronous hypothesis tests."""
    runner = asyncio.Runner()

    async def start() -> TestClient[web.Request, web.Application]:
        client: TestClient[web.Request, web.Application] = TestClient(TestServer(create_app(Settings())))
        await client.start_server()
        return client

    client = runner.run(start())
    try:
        yield runner, client
    finally:
        runner.run(client.close())
        runner.close()


def post(
    app: tuple[asyncio.Runner, TestClient[web.Request, web.Application]], body: bytes, headers: dict[str, str]
) -> tuple[int, bytes]:
    runner, client = app

    async def send() -> tuple[int, bytes]:
        async with client.post("/validate?timeout=10s", data=body, headers=headers) as response:
            return response.status, await response.read()

    return runner.run(asyncio.wait_for(send(), 30))


@FUZZ
@given(document=st.sampled_from(range(len(SEED_REVIEWS))).flatmap(lambda i: mutated(SEED_REVIEWS[i])))
def test_mutated_reviews_through_the_application(
    app_client: tuple[asyncio.Runner, TestClient[web.Request, web.Application]], document: Any
) -> None:
    try:
        body = orjson.dumps(document)
    except (TypeError, orjson.JSONEncodeError):
        return  # not writable as JSON (nan, ints past 64 bits): no client could send it
    status, payload = post(app_client, body, JSON)
    if status == 200:
        check_answer(document, orjson.loads(payload))
    else:
        assert 400 <= status < 500, (status, payload[:300])
        assert orjson.loads(payload)["code"] == status


@FUZZ
@given(
    content_type=st.sampled_from(
        [
            "application/json",
            "application/json; charset=utf-8",
            "APPLICATION/JSON",
            "application/json-patch+json",
            "text/plain",
            "",
            "application/json; charset=latin-1",
            "multipart/form-data; boundary=x",
            "application/x-www-form-urlencoded",
        ]
    ),
    encoding=st.sampled_from(["", "gzip", "deflate", "br", "identity", "gzip, gzip"]),
    index=st.sampled_from(range(len(SEED_REVIEWS))),
)
def test_any_content_type_or_encoding(
    app_client: tuple[asyncio.Runner, TestClient[web.Request, web.Application]],
    content_type: str,
    encoding: str,
    index: int,
) -> None:
    """The body is plain JSON whatever the headers claim: a wrong Content-Encoding is a 4xx (the
    body does not decompress), not a 500."""
    headers = {"Content-Type": content_type} if content_type else {}
    if encoding:
        headers["Content-Encoding"] = encoding
    status, payload = post(app_client, orjson.dumps(SEED_REVIEWS[index]), headers)
    assert status == 200 or 400 <= status < 500, (status, payload[:300])
    if status == 200:
        check_answer(SEED_REVIEWS[index], orjson.loads(payload))


# --- malformed HTTP over TLS ------------------------------------------------------------------------

BODY = orjson.dumps(SEED_REVIEWS[0])
HEAD = b"POST /validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"

MALFORMED: dict[str, bytes] = {
    "no request line": b"\r\n\r\n",
    "garbage": b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 64 + b"\r\n\r\n",
    "HTTP/0.9": b"GET /healthz\r\n\r\n",
    "HTTP/2 preface on HTTP/1.1": b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    "unknown method": b"BREW /validate HTTP/1.1\r\nHost: x\r\n\r\n",
    "absolute URI": b"POST https://evil.example/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
    "path traversal": b"GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
    "NUL in the path": b"GET /healthz\x00 HTTP/1.1\r\nHost: x\r\n\r\n",
    "a request line of 64 KiB": b"GET /" + b"a" * 65536 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    "a header of 64 KiB": HEAD + b"X-Big: " + b"b" * 65536 + b"\r\nContent-Length: 0\r\n\r\n",
    "500 headers": HEAD + b"".join(b"X-%d: v\r\n" % i for i in range(500)) + b"Content-Length: 0\r\n\r\n",
    "a header without a colon": HEAD + b"NoColonHere\r\nContent-Length: 0\r\n\r\n",
    "a header name with a space": HEAD + b"Bad Name: v\r\nContent-Length: 0\r\n\r\n",
    "obsolete line folding": HEAD + b"X-Folded: a\r\n b\r\nContent-Length: 0\r\n\r\n",
    "a bare LF": b"POST /validate HTTP/1.1\nHost: x\nContent-Length: 0\n\n",
    "negative Content-Length": HEAD + b"Content-Length: -1\r\n\r\n",
    "Content-Length past int64": HEAD + b"Content-Length: 99999999999999999999999\r\n\r\n",
    "two different Content-Lengths": HEAD + b"Content-Length: 5\r\nContent-Length: 6\r\n\r\n{}",
    "Content-Length and chunked": HEAD
    + b"Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    "a chunk size that is not hex": HEAD + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
    "a chunk size past int64": HEAD + b"Transfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n{}\r\n",
    "chunked, then gzip": HEAD + b"Transfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n",
    "an unknown transfer encoding": HEAD + b"Transfer-Encoding: rot13\r\n\r\n",
    "Content-Length shorter than the body": HEAD + b"Content-Length: 10\r\n\r\n" + BODY,
    "Expect 100-continue": HEAD + b"Expect: 100-continue\r\nContent-Length: %d\r\n\r\n" % len(BODY) + BODY,
    "Upgrade to websocket": HEAD + b"Connection: Upgrade\r\nUpgrade: websocket\r\nContent-Length: 0\r\n\r\n",
    "Upgrade to h2c": HEAD
    + b"Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\nContent-Length: 0\r\n\r\n",
    "gzip that is not gzip": HEAD
    + b"Content-Encoding: gzip\r\nContent-Length: %d\r\n\r\n" % len(BODY)
    + BODY,
    "a gzip bomb header with no body": HEAD + b"Content-Encoding: gzip\r\nContent-Length: 0\r\n\r\n",
    "HTTP/1.0 without Host": b"POST /validate HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
    % len(BODY)
    + BODY,
}


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory: pytest.TempPathFactory, cert_dir: Path) -> Iterator[GuardedServer]:
    with guarded_server(tmp_path_factory.mktemp("server"), cert_dir) as server:  # 1 s deadlines
        yield server


async def still_answering(server: GuardedServer, tls: ssl.SSLContext) -> None:
    reader, writer = await open_tls(server.port, tls)
    try:
        writer.write(request_head(len(BODY), port=server.port) + BODY)
        status, _, payload = await read_response(reader)
        assert status == 200
        check_answer(SEED_REVIEWS[0], orjson.loads(payload))
    finally:
        close_quietly(writer)


@pytest.mark.parametrize("name", sorted(MALFORMED))
async def test_malformed_http_gets_a_4xx_or_a_closed_connection(tls_server: GuardedServer, name: str) -> None:
    tls = tls_server.client_tls()
    reader, writer = await open_tls(tls_server.port, tls)
    try:
        writer.write(MALFORMED[name])
        with contextlib.suppress(ConnectionError, ssl.SSLError):
            await writer.drain()
        try:
            status, _, _ = await read_response(reader, timeout=10)
        except (ConnectionError, asyncio.IncompleteReadError, ssl.SSLError):
            status = None  # closed without an answer: acceptable for garbage
        assert status is None or status < 500, (name, status)
    finally:
        close_quietly(writer)
    await still_answering(tls_server, tls)
    assert tls_server.process.poll() is None
    # A client's malformed request is not the server's error: no error lines (with stack traces) in
    # the log for anyone who reaches the port to fill it with.
    errors = [line for line in tls_server.log_lines() if line.get("level") in ("error", "critical")]
    assert errors == [], errors[:1]
    # Kept at debug level, they are not written at all while the log level is info.
    client_faults = [line for line in tls_server.log_lines() if line.get("logger") == "aiohttp.server"]
    assert client_faults == [], client_faults[:1]
