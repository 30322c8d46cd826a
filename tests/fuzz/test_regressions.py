"""Every crash, hang or slowdown the fuzzers found, pinned as the smallest input that showed it.

Each test names what was wrong and where it was fixed. A new finding goes here, written from the
failing example hypothesis printed (or the seed and body a seeded loop printed).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import orjson
import pytest
from aiohttp.test_utils import TestServer
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.oracle import judged
from tests.fuzz.profiles import FUZZ
from tests.fuzz.seeds import KINDS, admission_review, seed
from webhook.admission import Judge
from webhook.field import go_quote
from webhook.server import create_app
from webhook.server.handlers import quiet_client_errors
from webhook.settings import PolicySettings, Settings


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("obj", "old", "expected_field", "expected_type"),
    [
        ("", None, "<nil>", "string"),
        ([], None, "<nil>", "array"),
        (7, None, "<nil>", "integer"),
        # Past int64 Go's generic decoding reads a float: "number", as the structural check says.
        (2**64, None, "<nil>", "number"),
        ("keep", [], "oldObject.<nil>", "array"),
    ],
)
def test_objects_that_are_not_json_objects_are_denied_with_the_structural_check_off(
    kind: str, obj: Any, old: Any, expected_field: str, expected_type: str
) -> None:
    """Found by test_every_mutated_object_gets_an_answer_with_its_uid (`object: ""`, rules-only
    judge): Judge.judge_object raised TypeError ("unreachable with the structural check on"), and
    the answer was a 500 InternalError. Fixed in webhook/admission.py (`_not_objects`): the same
    FieldValueTypeInvalid denial the structural check gives."""
    judge = Judge.build(PolicySettings(structural_check=False))
    new = seed(kind) if obj == "keep" else obj
    operation = "UPDATE" if old is not None else "CREATE"
    answer = judged(admission_review(new, kind=kind, operation=operation, old=old, uid="not-objects"), judge)
    assert answer is not None
    status = answer["response"]["status"]
    assert status["code"] == 422
    assert status["details"]["causes"] == [
        {
            "reason": "FieldValueTypeInvalid",
            "message": f'Invalid value: "{expected_type}": body must be of type object: "{expected_type}"',
            "field": expected_field,
        }
    ]
    # The same answer as with the structural check on.
    with_schemas = judged(
        admission_review(new, kind=kind, operation=operation, old=old, uid="not-objects"), Judge.build()
    )
    assert with_schemas is not None
    assert with_schemas["response"]["status"]["details"]["causes"] == status["details"]["causes"]


def go_quote_one_char_at_a_time(text: str) -> str:
    """The character loop of `go_quote`, kept here as the reference for its fast path."""
    escapes = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}
    out = ['"']
    for char in text:
        code = ord(char)
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif char in escapes:
            out.append(escapes[char])
        elif 0xD800 <= code <= 0xDFFF:
            out.append("\\ufffd")
        elif char.isprintable() or char == " ":
            out.append(char)
        elif code < 0x80:
            out.append(f"\\x{code:02x}")
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


@FUZZ
@given(
    text=st.text() | st.sampled_from(["", " ", "a\u00a0b", "é" * 100, "\u2028", '"', "\\", "\ud800", "a\x7f"])
)
def test_go_quote_fast_path_is_the_character_loop(text: str) -> None:
    assert go_quote(text) == go_quote_one_char_at_a_time(text)


def test_long_invalid_values_are_quoted_in_linear_time_of_c_not_python() -> None:
    """Found by the slow-client tests: a ResourceSlice with three 16 KiB invalid names took ~35 ms to
    judge, nearly all in go_quote's Python loop (each bad value is quoted for the message and again
    for its cause); a client pipelining such reviews held a core. Fixed in webhook/field.py: values
    with nothing to escape are quoted without the loop (~1 ms for the same review)."""
    text = "N" * (16 * 1024 * 1024)
    started = time.thread_time()  # CPU time: what quoting costs, however busy the machine
    quoted = go_quote(text)
    took = time.thread_time() - started
    assert quoted == f'"{text}"'
    assert took < 0.5  # the loop takes ~2 s for 16 MiB on this machine; the fast path ~10 ms


@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
async def test_a_body_that_does_not_decode_as_its_content_encoding_is_a_400(
    aiohttp_client: Any, encoding: str
) -> None:
    """Found by test_any_content_type_or_encoding (`Content-Encoding: gzip` on a plain JSON body):
    aiohttp's RequestPayloadError escaped `_read_review`, and the middleware answered 500 "internal
    error". A broken chunked framing took the same path (test_http_fuzz's malformed table). Fixed in
    webhook/server/handlers.py: a body that cannot be read is a 400, and the connection is closed."""
    client = await aiohttp_client(create_app(Settings()))
    document = admission_review(seed("ResourceClaim"), kind="ResourceClaim", uid="encoded")
    response = await client.post(
        "/validate",
        data=orjson.dumps(document),
        headers={"Content-Type": "application/json", "Content-Encoding": encoding},
    )
    assert response.status == 400
    assert response.headers["Connection"].lower() == "close"
    reason = await response.json()
    assert reason["code"] == 400
    assert reason["message"] == f"request body cannot be read: Can not decode content-encoding: {encoding}"


async def test_an_encoding_the_server_cannot_decode_is_refused_by_aiohttp_at_the_head(
    aiohttp_client: Any,
) -> None:
    """`br` without the Brotli package: aiohttp's parser refuses the head itself (400, plain text),
    before any handler runs."""
    client = await aiohttp_client(create_app(Settings()))
    response = await client.post(
        "/validate", data=b"{}", headers={"Content-Type": "application/json", "Content-Encoding": "br"}
    )
    assert response.status == 400


@pytest.mark.parametrize(
    "raw",
    [
        b"GET /" + b"a" * 65536 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
        b"POST /validate HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
        b"POST /validate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: rot13\r\n\r\n",
        # Our 400, then aiohttp drains the rest of the body and meets the same decoding error.
        b"POST /validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Encoding: gzip\r\nContent-Length: 4096\r\n\r\n" + b"{" * 4096,
    ],
)
async def test_malformed_requests_are_not_logged_as_server_errors(
    raw: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    """Found by test_malformed_http_gets_a_4xx_or_a_closed_connection: aiohttp logged each malformed
    request it refused (after the first on a connection) at error level, with a stack trace, and a
    body that does not decode once more while draining it, so that anyone reaching the port could
    fill the log. Fixed in webhook/server/handlers.py (`quiet_client_errors`,
    installed by WebhookServer.start): kept at debug level."""
    quiet_client_errors()
    server = TestServer(create_app(Settings()))
    await server.start_server()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        # A first well-formed request: aiohttp itself only lowers a bad *first* request to debug.
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert (await asyncio.wait_for(reader.readline(), 10)).startswith(b"HTTP/1.1 200")
        await asyncio.wait_for(reader.readuntil(b"ok\n"), 10)
        with caplog.at_level(logging.INFO):
            writer.write(raw)
            status_line = await asyncio.wait_for(reader.readline(), 10)
            assert status_line.split()[1] == b"400"
            await asyncio.sleep(0.1)
        writer.close()
    finally:
        await server.close()
    assert [record for record in caplog.records if record.levelno >= logging.ERROR] == []
