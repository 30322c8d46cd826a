"""The handlers: `POST /validate`, `GET /healthz`, `GET /readyz`, `GET /metrics`, and how errors leave.

`POST /validate` takes an AdmissionReview and answers with HTTP 200 and a verdict; a request that is
not a readable AdmissionReview gets an HTTP error with a one-line JSON reason
(`{"code": 415, "message": "..."}`). Each answer is counted (`webhook.metrics`) and each denial
logged (the decision line of `webhook.admission`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from time import perf_counter
from typing import Final

import orjson
from aiohttp import hdrs, web
from aiohttp.abc import AbstractAccessLogger
from aiohttp.http_exceptions import HttpProcessingError
from prometheus_client.exposition import choose_encoder

from webhook.admission import (
    AdmissionRequest,
    AdmissionReview,
    UnreadableReview,
    Verdict,
    errored,
    log_decision,
    parse_review,
    request_fields,
    review_response,
)
from webhook.metrics import Metrics
from webhook.server.state import READINESS_KEY, REGISTRY_KEY, UID_REQUEST_KEY, CurrentJudge, Traffic
from webhook.settings import Settings

log = logging.getLogger("webhook.server")

JSON_CONTENT_TYPE: Final = "application/json"
JSON_CONTENT_TYPES: Final = frozenset({JSON_CONTENT_TYPE})


@dataclass(slots=True)
class ReviewEndpoint:
    """`POST /validate`, with the app's state bound once (`create_app`) rather than looked up in the
    app at each request. The objects are the app's own: a configuration reload swaps the judge
    inside `current`."""

    settings: Settings
    current: CurrentJudge
    metrics: Metrics
    traffic: Traffic

    async def validate(self, request: web.Request) -> web.Response:
        metrics, traffic = self.metrics, self.traffic
        started = perf_counter()
        traffic.enter()
        try:
            try:
                review = await _read_review(request, self.settings)
            except web.HTTPException as error:
                _record_unreadable(metrics, error.status, perf_counter() - started)
                raise
            if self.settings.access_log:  # for the access line (`StructuredAccessLogger`)
                request[UID_REQUEST_KEY] = review.request.uid
            verdict = self.current.judge.judge(review.request)
            answer, verdict = _encode_answer(review, verdict)
            _record_answer(metrics, review.request, verdict, perf_counter() - started)
            return web.Response(body=answer, content_type="application/json")
        finally:
            traffic.leave()


async def _read_review(request: web.Request, settings: Settings) -> AdmissionReview:
    """The AdmissionReview of the request, or an HTTP error: 415 for a body that is not JSON, 413 over
    the body limit, 408 for a body not received in time, 400 for one that cannot be read or is not an
    AdmissionReview."""
    # The usual header is exactly `application/json`: then so is the parsed type (aiohttp's parse,
    # `request.content_type`, runs only for any other value).
    if (
        request.headers.get(hdrs.CONTENT_TYPE) != JSON_CONTENT_TYPE
        and request.content_type not in JSON_CONTENT_TYPES
    ):
        raise _http_error(415, f"Content-Type must be application/json, got {request.content_type!r}")
    limit = settings.max_body_bytes
    if request.content_length is not None and request.content_length > limit:
        raise _http_error(413, f"request body of {request.content_length} bytes exceeds the limit of {limit}")
    body_timeout = settings.limits.body_timeout_seconds
    try:
        if request.content.is_eof():
            # The whole body is buffered already (the usual case): reading it cannot wait, so a
            # deadline could never fire, and arming one costs more than the read.
            body = await request.read()
        else:
            async with asyncio.timeout(body_timeout):
                body = await request.read()  # aiohttp stops reading at client_max_size (413)
    except web.HTTPRequestEntityTooLarge:
        raise _http_error(413, f"request body exceeds the limit of {limit} bytes") from None
    except TimeoutError:  # a slowly sent body (SECURITY.md): answered, and the connection closed
        error = _http_error(408, f"request body not received within {body_timeout:g}s")
        error.force_close()
        raise error from None
    except web.RequestPayloadError as unreadable:  # a broken chunked framing or Content-Encoding
        error = _http_error(400, f"request body cannot be read: {_payload_problem(unreadable)}")
        error.force_close()
        raise error from None
    try:
        return parse_review(body)
    except UnreadableReview as unreadable:
        raise _http_error(unreadable.status, unreadable.reason) from None


def _payload_problem(unreadable: web.RequestPayloadError) -> str:
    """What is wrong with a body aiohttp could not read, in one line: the message of the parser's
    error (`Can not decode content-encoding: gzip`) without the status and layout its text adds."""
    cause = unreadable.__cause__
    text = cause.message if isinstance(cause, HttpProcessingError) and cause.message else str(unreadable)
    return " ".join(text.split())


def _encode_answer(review: AdmissionReview, verdict: Verdict) -> tuple[bytes, Verdict]:
    try:
        return orjson.dumps(review_response(review, verdict)), verdict
    except TypeError:  # a value that orjson cannot write: answer, and keep the uid
        log.exception("cannot encode the answer", extra={"event": "error", **request_fields(review.request)})
        failed = errored("dra-webhook: cannot encode the answer")
        return orjson.dumps(review_response(review, failed)), failed


# Counting and logging an answer must not cost the answer: a metric that cannot be written (a new
# label value whose multiprocess file is gone, say) is logged, and the verdict still goes out.


def _record_answer(metrics: Metrics, judged: AdmissionRequest, verdict: Verdict, seconds: float) -> None:
    try:
        metrics.observe_review(judged, verdict, seconds)
        log_decision(judged, verdict)
    except Exception:
        log.exception("cannot record the answer", extra={"event": "error", **request_fields(judged)})


def _record_unreadable(metrics: Metrics, status: int, seconds: float) -> None:
    try:
        metrics.observe_unreadable(status, seconds)
    except Exception:
        log.exception("cannot record an unreadable request", extra={"event": "error", "code": status})


async def healthz(request: web.Request) -> web.Response:
    return web.Response(text="ok\n")


async def readyz(request: web.Request) -> web.Response:
    readiness = request.app[READINESS_KEY]
    if readiness.ready:
        return web.Response(text="ok\n")
    reasons = []
    if readiness.shutting_down:
        reasons.append("shutting down")
    if not readiness.rules_ready:
        reasons.append("rules not built")
    if not readiness.certificate_ready:
        reasons.append("certificate not loaded")
    return web.Response(status=503, text="not ready: " + ", ".join(reasons) + "\n")


async def metrics_page(request: web.Request) -> web.Response:
    """The Prometheus exposition (OpenMetrics when the scraper asks for it)."""
    encoder, content_type = choose_encoder(request.headers.get("Accept", ""))
    body = encoder(request.app[REGISTRY_KEY])
    response = web.Response(body=body)
    response.headers["Content-Type"] = content_type
    return response


# --- errors as one-line JSON ------------------------------------------------------------------------


def _http_error(status: int, message: str) -> web.HTTPException:
    error = web.HTTPException()
    error.set_status(status)
    error.content_type = "application/json"
    error.body = orjson.dumps({"code": status, "message": message}) + b"\n"
    return error


@web.middleware
async def json_errors(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Every HTTP error leaves as one line of JSON; nothing escapes as a stack trace."""
    try:
        return await handler(request)
    except web.HTTPException as error:
        if error.status < 400 or error.content_type == "application/json":
            raise
        raise _http_error(error.status, error.reason) from None
    except (asyncio.CancelledError, ConnectionError):
        raise
    except Exception:
        log.exception("unexpected error in %s %s", request.method, request.path)
        raise _http_error(500, "internal error; see the webhook log") from None


class StructuredAccessLogger(AbstractAccessLogger):
    """One ``webhook.access`` line per HTTP request (``--access-log``), with the review uid if any."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        self.logger.info(
            "%s %s %d",
            request.method,
            request.path,
            response.status,
            extra={
                "remote": request.remote,
                "method": request.method,
                "path": request.path,
                "status": response.status,
                "durationMs": round(time * 1000, 3),
                "uid": request.get(UID_REQUEST_KEY, ""),
            },
        )


class ClientErrorsAtDebug(logging.Filter):
    """aiohttp logs each malformed request it refuses with 400 (a bad request line, a header too long,
    a broken Content-Length) as an error with a stack trace, and once more a body it could not decode
    when it drains the rest after our 400: the client's fault, not the server's, and a way for anyone
    who reaches the port to fill the log. Such records are kept at debug level."""

    def filter(self, record: logging.LogRecord) -> bool:
        client_fault = record.exc_info is not None and isinstance(
            record.exc_info[1], HttpProcessingError | web.RequestPayloadError
        )
        if not client_fault:
            return True
        if not logging.getLogger(record.name).isEnabledFor(logging.DEBUG):
            return False
        record.levelno, record.levelname = logging.DEBUG, logging.getLevelName(logging.DEBUG)
        return True


def quiet_client_errors() -> None:
    """Install `ClientErrorsAtDebug` on aiohttp's server logger (once)."""
    server_log = logging.getLogger("aiohttp.server")
    if not any(isinstance(existing, ClientErrorsAtDebug) for existing in server_log.filters):
        server_log.addFilter(ClientErrorsAtDebug())
