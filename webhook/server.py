"""The HTTP edge: the only module that imports aiohttp.

`POST /validate` takes an AdmissionReview and answers with HTTP 200 and a verdict; a request that is
not a readable AdmissionReview gets the HTTP error of SPEC A.4 with a one-line JSON reason
(`{"code": 415, "message": "..."}`). `GET /healthz` says the process is alive, `GET /readyz` that
the certificate is loaded and the rules are built, and turns false as soon as shutdown starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Final

import orjson
from aiohttp import web

from webhook.admission import Judge, UnreadableReview, errored, parse_review, review_response
from webhook.settings import Settings
from webhook.tls import CertificateReloader, build_server_context, ensure_development_certificates

log = logging.getLogger("webhook.server")

VALIDATE_PATH: Final = "/validate"
JSON_CONTENT_TYPES: Final = frozenset({"application/json"})


@dataclass(slots=True)
class Readiness:
    """Ready once the rules are built and the certificate is loaded; not ready once shutdown starts."""

    rules_ready: bool = False
    certificate_ready: bool = False
    shutting_down: bool = False

    @property
    def ready(self) -> bool:
        return self.rules_ready and self.certificate_ready and not self.shutting_down


SETTINGS_KEY: Final = web.AppKey("settings", Settings)
JUDGE_KEY: Final = web.AppKey("judge", Judge)
READINESS_KEY: Final = web.AppKey("readiness", Readiness)
RELOADER_KEY: Final = web.AppKey("certificate_reloader", CertificateReloader)


# --- handlers ---------------------------------------------------------------------------------------


async def validate(request: web.Request) -> web.Response:
    if request.content_type not in JSON_CONTENT_TYPES:
        raise _http_error(415, f"Content-Type must be application/json, got {request.content_type!r}")
    limit = request.app[SETTINGS_KEY].max_body_bytes
    if request.content_length is not None and request.content_length > limit:
        raise _http_error(413, f"request body of {request.content_length} bytes exceeds the limit of {limit}")
    try:
        body = await request.read()  # aiohttp stops reading at client_max_size (413)
    except web.HTTPRequestEntityTooLarge:
        raise _http_error(413, f"request body exceeds the limit of {limit} bytes") from None
    try:
        review = parse_review(body)
    except UnreadableReview as unreadable:
        raise _http_error(unreadable.status, unreadable.reason) from None
    judge = request.app[JUDGE_KEY]
    verdict = judge.judge(review.request)
    try:
        answer = orjson.dumps(review_response(review, verdict))
    except TypeError:  # a value that orjson cannot write: answer, and keep the uid
        log.exception("cannot encode the answer", extra={"uid": review.request.uid})
        answer = orjson.dumps(review_response(review, errored("dra-webhook: cannot encode the answer")))
    return web.Response(body=answer, content_type="application/json")


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


# --- the application --------------------------------------------------------------------------------


def create_app(settings: Settings, *, judge: Judge | None = None) -> web.Application:
    """The webhook application. `judge` defaults to one built from `settings.policy`."""
    app = web.Application(client_max_size=settings.max_body_bytes, middlewares=[json_errors])
    app[SETTINGS_KEY] = settings
    app[JUDGE_KEY] = judge or Judge.build(settings.policy)
    app[READINESS_KEY] = Readiness(rules_ready=True)
    app.router.add_post(VALIDATE_PATH, validate)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.on_shutdown.append(_mark_shutting_down)
    return app


async def _mark_shutting_down(app: web.Application) -> None:
    app[READINESS_KEY].shutting_down = True


def server_tls(settings: Settings) -> ssl.SSLContext:
    """The TLS context of the served certificate, generating development certificates if allowed."""
    if settings.generate_dev_certs and ensure_development_certificates(settings.cert_dir):
        log.info("generated development certificates in %s", settings.cert_dir)
    return build_server_context(settings.cert_file, settings.key_file, client_ca_file=settings.client_ca_file)


def attach_certificate_reloader(app: web.Application, context: ssl.SSLContext) -> None:
    """Reload the serving pair when its files change, for as long as the app runs."""
    settings = app[SETTINGS_KEY]
    reloader = CertificateReloader(context, settings.cert_file, settings.key_file)
    app[RELOADER_KEY] = reloader
    app[READINESS_KEY].certificate_ready = True

    async def watch(app: web.Application) -> AsyncIterator[None]:
        async def loop() -> None:
            while True:
                await asyncio.sleep(settings.cert_reload_interval_seconds)
                await asyncio.to_thread(reloader.reload_if_changed)

        task = asyncio.create_task(loop())
        yield
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    app.cleanup_ctx.append(watch)


def serve(settings: Settings) -> None:
    """Serve HTTPS until SIGINT or SIGTERM, then finish in-flight reviews within the grace period."""
    context = server_tls(settings)
    app = create_app(settings)
    attach_certificate_reloader(app, context)
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    log.info("serving https://%s:%d%s", settings.host, settings.port, VALIDATE_PATH)
    web.run_app(
        app,
        host=settings.host,
        port=settings.port,
        ssl_context=context,
        shutdown_timeout=settings.grace_period_seconds,
        access_log=None,
        print=None,
    )
