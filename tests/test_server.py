"""The HTTP edge: status codes, content types, limits and health (SPEC A.1, A.4, A.5)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import orjson
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient

from tests.reviews import admission_review, allocated_claim, resource_claim
from webhook.server import READINESS_KEY, create_app
from webhook.settings import Settings

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
