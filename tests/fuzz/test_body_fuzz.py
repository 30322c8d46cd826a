"""Byte-level fuzzing of request bodies, and hand-made hostile JSON, through the same path as
`POST /validate`: in-process (`parse_review` + the judge, fast), through the aiohttp application
(`aiohttp_client`), and a few through a real TLS server in a subprocess.

Every body is answered with an AdmissionReview carrying the request's uid, or refused with an HTTP
4xx and a one-line JSON reason. Never a 500, never a hang. Loops are seeded (`profiles.run_seed`)
and bounded (`profiles.budget`); a failure names the seed and the body that failed.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient

from tests.fuzz.abuse import GuardedServer, guarded_server, open_tls, read_response, request_head
from tests.fuzz.bytefuzz import HOSTILE_TOKENS, corpus, mutate, mutated_bodies
from tests.fuzz.hostile import DEEP_NESTING
from tests.fuzz.oracle import REVIEW_TIME_LIMIT_SECONDS, bounded_time, check_answer, check_unreadable
from tests.fuzz.profiles import budget, run_seed
from tests.fuzz.seeds import admission_review, seed
from webhook.admission import Judge, UnreadableReview, parse_review, review_response
from webhook.server import create_app
from webhook.settings import Settings

Client = TestClient[web.Request, web.Application]
JSON = {"Content-Type": "application/json"}


@functools.cache
def judge() -> Judge:
    return Judge.build()


def judged_body(body: bytes) -> tuple[int, Any]:
    """What the server does with a body, without HTTP: (200, answer) or (4xx, None)."""
    with bounded_time(REVIEW_TIME_LIMIT_SECONDS, f"a body of {len(body)} bytes"):
        try:
            review = parse_review(body)
        except UnreadableReview as error:
            check_unreadable(error)
            return error.status, None
        answer = orjson.loads(orjson.dumps(review_response(review, judge().judge(review.request))))
    check_answer(orjson.loads(body), answer)
    return 200, answer


def check_http_answer(body: bytes, status: int, payload: bytes) -> None:
    """An HTTP answer to `body`: 200 with the uid, or a 4xx with a one-line JSON reason."""
    if status == 200:
        check_answer(orjson.loads(body), orjson.loads(payload))
    else:
        assert 400 <= status < 500, (status, payload[:300])
        reason = orjson.loads(payload)
        assert reason["code"] == status and isinstance(reason["message"], str), reason
        assert payload.count(b"\n") <= 1 and b"Traceback" not in payload


# --- hand-made hostile JSON -------------------------------------------------------------------------


def envelope_with(obj: bytes, *, kind: str = "ResourceClaim", uid: str = "hostile") -> bytes:
    """A well-formed AdmissionReview whose `request.object` is the raw JSON text `obj`."""
    marker = "__OBJECT__"
    text = orjson.dumps(admission_review(marker, kind=kind, uid=uid))
    return text.replace(b'"__OBJECT__"', obj)


def claim_with(field: str, raw_value: bytes) -> bytes:
    """A ResourceClaim whose `spec.<field>` is the raw JSON text `raw_value`."""
    claim = seed("ResourceClaim")
    claim["spec"][field] = "__VALUE__"
    return envelope_with(orjson.dumps(claim).replace(b'"__VALUE__"', raw_value))


HOSTILE_BODIES: dict[str, tuple[bytes, set[int]]] = {
    # name: (body, acceptable HTTP statuses)
    "nesting just under orjson's limit": (envelope_with(b"[" * (DEEP_NESTING) + b"]" * DEEP_NESTING), {200}),
    "nesting past orjson's limit": (envelope_with(b"[" * 1100 + b"]" * 1100), {400}),
    "objects nested in spec": (
        claim_with("parametersRef", b'{"a":' * DEEP_NESTING + b"1" + b"}" * DEEP_NESTING),
        {200},
    ),
    "an array of 200k nulls": (claim_with("resourceClassName", b"[" + b"null," * 200_000 + b"null]"), {200}),
    "16 KiB of text in every string": (
        orjson.dumps(
            admission_review(
                {
                    "apiVersion": "resource.k8s.io/v1alpha2",
                    "kind": "ResourceClaim",
                    "metadata": {
                        "name": "n" * 16384,
                        "namespace": "s" * 16384,
                        "labels": {"k" * 16384: "v" * 16384},
                    },
                    "spec": {"resourceClassName": "c" * 16384, "allocationMode": "m" * 16384},
                },
                kind="ResourceClaim",
                uid="u" * 16384,
            )
        ),
        {200},
    ),
    "integer past uint64": (claim_with("resourceClassName", b"18446744073709551616"), {200}),
    "integer of 400 digits": (claim_with("resourceClassName", b"9" * 400), {400}),  # past float64, as 1e400
    "float past float64": (claim_with("resourceClassName", b"1e400"), {400}),
    "negative float past float64": (claim_with("resourceClassName", b"-1e400"), {400}),
    "denormal float": (claim_with("resourceClassName", b"4.9e-324"), {200}),
    "NaN": (claim_with("resourceClassName", b"NaN"), {400}),
    "invalid UTF-8 in a string": (claim_with("resourceClassName", b'"\xff\xfe"'), {400}),
    "overlong UTF-8": (claim_with("resourceClassName", b'"\xc0\xaf"'), {400}),
    "escaped lone surrogate": (claim_with("resourceClassName", b'"\\ud800"'), {400}),
    "escaped NUL": (claim_with("resourceClassName", b'"a\\u0000b"'), {200}),
    "duplicate keys in the object": (
        claim_with("resourceClassName", b'"a", "resourceClassName": "b"'),
        {200},
    ),
    "duplicate uid": (
        orjson.dumps(admission_review(seed("ResourceClaim"), kind="ResourceClaim", uid="one")).replace(
            b'"uid":"one"', b'"uid":"one","uid":"two"'
        ),
        {200},
    ),
    "byte-order mark": (b"\xef\xbb\xbf" + envelope_with(orjson.dumps(seed("ResourceClaim"))), {400}),  # as Go
    "two documents": (envelope_with(orjson.dumps(seed("ResourceClaim"))) * 2, {400}),
    "trailing garbage": (envelope_with(orjson.dumps(seed("ResourceClaim"))) + b"garbage", {400}),
    "empty body": (b"", {400}),
    "null body": (b"null", {400}),
    "a bare string": (b'"AdmissionReview"', {400}),
    "the object is a string": (envelope_with(b'"ResourceClaim"'), {200}),
    "the object is a number": (envelope_with(b"42"), {200}),
    "the object is null": (envelope_with(b"null"), {200}),
    "request.kind is a list": (
        orjson.dumps(admission_review(seed("ResourceClaim"), kind="ResourceClaim")).replace(
            b'"kind":{"group":"resource.k8s.io","version":"v1alpha2","kind":"ResourceClaim"}', b'"kind":[]', 1
        ),
        {400},
    ),
    "the object says ResourceClass, request.kind ResourceClaim": (
        envelope_with(orjson.dumps(seed("ResourceClass")), kind="ResourceClaim"),
        {200},
    ),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_BODIES))
def test_hostile_json_is_answered_or_refused(name: str) -> None:
    body, statuses = HOSTILE_BODIES[name]
    status, answer = judged_body(body)
    assert status in statuses, (name, status)
    if name == "duplicate uid":  # the last key wins, as in Go's decoder
        assert answer["response"]["uid"] == "two"
    if name == "the object says ResourceClass, request.kind ResourceClaim":
        assert answer["response"]["status"]["code"] == 400


def test_a_corpus_body_of_each_kind_is_allowed() -> None:
    for body in corpus()[:16]:
        status, answer = judged_body(body)
        assert status == 200 and answer["response"]["allowed"], answer


# --- mutated bodies ---------------------------------------------------------------------------------


def test_mutated_bodies_are_answered_or_refused() -> None:
    seed_value = run_seed()
    statuses: dict[int, int] = {}
    for index, body in enumerate(mutated_bodies(budget(1500), seed_value)):
        try:
            status, _ = judged_body(body)
        except AssertionError as failure:
            raise AssertionError(f"seed {seed_value}, body {index}: {body[:500]!r}") from failure
        statuses[status] = statuses.get(status, 0) + 1
    # The mutator keeps enough bodies readable to reach the rules, and breaks enough to be refused.
    assert statuses.get(200, 0) > 0 and statuses.get(400, 0) > 0, statuses


@pytest.fixture
async def client(aiohttp_client: Any) -> Client:
    return await aiohttp_client(create_app(Settings()))  # type: ignore[no-any-return]


async def test_mutated_bodies_through_the_application(client: Client) -> None:
    seed_value = run_seed() + 1
    for index, body in enumerate(mutated_bodies(budget(300), seed_value)):
        response = await client.post("/validate?timeout=10s", data=body, headers=JSON)
        payload = await response.read()
        try:
            check_http_answer(body, response.status, payload)
        except AssertionError as failure:
            raise AssertionError(f"seed {seed_value}, body {index}: {body[:500]!r}") from failure


@pytest.mark.parametrize("name", sorted(HOSTILE_BODIES))
async def test_hostile_json_through_the_application(client: Client, name: str) -> None:
    body, statuses = HOSTILE_BODIES[name]
    response = await client.post("/validate", data=body, headers=JSON)
    assert response.status in statuses
    check_http_answer(body, response.status, await response.read())


# --- through a real TLS server ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory: pytest.TempPathFactory, cert_dir: Path) -> Iterator[GuardedServer]:
    with guarded_server(tmp_path_factory.mktemp("server"), cert_dir, limits={}) as server:
        yield server


async def test_hostile_bodies_through_a_tls_server_subprocess(tls_server: GuardedServer) -> None:
    """A few bodies of each family over TLS, on one kept-alive connection (what kube-apiserver does),
    reconnecting only when the server closes after a refusal."""
    rng = random.Random(run_seed() + 2)
    bodies = [body for body, _ in HOSTILE_BODIES.values()]
    pool = corpus()
    bodies += [mutate(rng.choice(pool), rng, pool) for _ in range(budget(40))]
    bodies += [envelope_with(token) for token in HOSTILE_TOKENS]
    tls = tls_server.client_tls()
    reader, writer = await open_tls(tls_server.port, tls)
    try:
        for body in bodies:
            if writer.is_closing() or reader.at_eof():
                writer.close()
                reader, writer = await open_tls(tls_server.port, tls)
            writer.write(request_head(len(body), port=tls_server.port) + body)
            status, headers, payload = await read_response(reader)
            check_http_answer(body, status, payload)
            if headers.get("connection", "").lower() == "close":
                writer.close()
                reader, writer = await open_tls(tls_server.port, tls)
    finally:
        writer.close()
    assert tls_server.process.poll() is None  # still serving


def test_the_corpus_is_valid_json() -> None:
    for body in corpus():
        orjson.loads(body)


def test_the_mutator_is_deterministic() -> None:
    assert mutated_bodies(20, 7) == mutated_bodies(20, 7)
