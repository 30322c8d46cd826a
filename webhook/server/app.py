"""The applications: the webhook's (`create_app`) and the plain-HTTP metrics listener's, and the work
an app does while it runs (certificate and configuration reloads, metrics flushes)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Final

from aiohttp import web
from prometheus_client import CollectorRegistry

from webhook.admission import Judge, namespace_policy_from
from webhook.config import ConfigWatcher
from webhook.metrics import Metrics
from webhook.schemas import StructuralChecker
from webhook.server.handlers import ReviewEndpoint, healthz, json_errors, metrics_page, readyz
from webhook.server.state import (
    CONFIG_KEY,
    JUDGE_KEY,
    METRICS_KEY,
    READINESS_KEY,
    REGISTRY_KEY,
    RELOADER_KEY,
    SETTINGS_KEY,
    TRAFFIC_KEY,
    CurrentJudge,
    Readiness,
    Traffic,
)
from webhook.settings import ListenAddress, PolicySettings, Settings
from webhook.tls import CertificateReloader, build_server_context, ensure_development_certificates

log = logging.getLogger("webhook.server")

VALIDATE_PATH: Final = "/validate"
METRICS_PATH: Final = "/metrics"
# How old the counts of a scrape may be: each process adds its reviews to the instruments this often
# (`Metrics.flush`), when it stops, and right before a scrape of its own registry.
METRICS_FLUSH_SECONDS: Final = 0.5


def create_app(
    settings: Settings, *, judge: Judge | None = None, metrics: Metrics | None = None
) -> web.Application:
    """The webhook application. `judge` defaults to one built from `settings.policy`, `metrics` to
    instruments on a private registry."""
    app = web.Application(client_max_size=settings.max_body_bytes, middlewares=[json_errors])
    judge = judge or Judge.build(settings.policy)
    app[SETTINGS_KEY] = settings
    app[JUDGE_KEY] = current = CurrentJudge(judge)
    app[METRICS_KEY] = metrics = metrics or Metrics(judge.registry)
    app[TRAFFIC_KEY] = traffic = Traffic()
    metrics.count_in_flight(lambda: traffic.in_flight)
    app[READINESS_KEY] = Readiness(rules_ready=True)
    endpoint = ReviewEndpoint(settings, current, metrics, traffic)
    app.router.add_post(VALIDATE_PATH, endpoint.validate)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.on_shutdown.append(_mark_shutting_down)

    async def flush_metrics() -> None:
        metrics.flush_or_log()

    app.cleanup_ctx.append(_every(METRICS_FLUSH_SECONDS, flush_metrics, last_round=True))
    return app


def create_metrics_app(registry: CollectorRegistry) -> web.Application:
    """The plain-HTTP metrics application: `GET /metrics` and nothing else."""
    app = web.Application(middlewares=[json_errors])
    app[REGISTRY_KEY] = registry
    app.router.add_get(METRICS_PATH, metrics_page)
    return app


async def start_metrics_listener(registry: CollectorRegistry, address: ListenAddress) -> web.AppRunner:
    """Serve `registry` at http://address/metrics until the returned runner is cleaned up."""
    runner = web.AppRunner(create_metrics_app(registry), access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    await web.TCPSite(runner, address.host, address.port).start()
    log.info("serving metrics on http://%s%s", address, METRICS_PATH)
    return runner


async def _mark_shutting_down(app: web.Application) -> None:
    app[READINESS_KEY].shutting_down = True


def server_tls(settings: Settings) -> ssl.SSLContext:
    """The TLS context of the served certificate, generating development certificates if allowed
    (`ensure_development_certificates` logs what it made, once)."""
    if settings.generate_dev_certs:
        ensure_development_certificates(settings.cert_dir)
    return build_server_context(settings.cert_file, settings.key_file, client_ca_file=settings.client_ca_file)


def attach_certificate_reloader(app: web.Application, context: ssl.SSLContext) -> None:
    """Reload the serving pair when its files change, for as long as the app runs."""
    settings, metrics = app[SETTINGS_KEY], app[METRICS_KEY]
    reloader = CertificateReloader(context, settings.cert_file, settings.key_file)
    app[RELOADER_KEY] = reloader
    app[READINESS_KEY].certificate_ready = True

    def measure() -> None:
        metrics.observe_certificate(
            reloads=reloader.reloads,
            reload_errors=reloader.reload_errors,
            not_after_timestamp=reloader.not_after.timestamp(),
        )

    async def check() -> None:
        await asyncio.to_thread(reloader.reload_if_changed)
        measure()

    measure()
    app.cleanup_ctx.append(_every(settings.cert_reload_interval_seconds, check))


def attach_config_watcher(app: web.Application, watcher: ConfigWatcher) -> None:
    """Apply the configuration file's changes while the app runs; a broken file changes nothing."""
    app[CONFIG_KEY] = watcher
    current, metrics = app[JUDGE_KEY], app[METRICS_KEY]

    async def check() -> None:
        policy = await asyncio.to_thread(watcher.poll)
        if policy is not None:
            current.judge = judge_with_policy(current.judge, policy)
        metrics.observe_config(reloads=watcher.reloads, reload_errors=watcher.reload_errors)

    app.cleanup_ctx.append(_every(app[SETTINGS_KEY].config_reload_interval_seconds, check))


def judge_with_policy(judge: Judge, policy: PolicySettings) -> Judge:
    """`judge` with another policy: the same rule registry, the same schemas unless switched."""
    structural = judge.structural
    if policy.structural_check != judge.policy.structural_check:
        structural = StructuralChecker.load() if policy.structural_check else None
    return dataclasses.replace(
        judge, policy=policy, namespace_policy=namespace_policy_from(policy), structural=structural
    )


def _every(
    interval: float, action: Callable[[], Awaitable[None]], *, last_round: bool = False
) -> Callable[[web.Application], AsyncIterator[None]]:
    """A cleanup context that runs `action` every `interval` seconds while the app runs, and once
    more when it stops if `last_round` (by then aiohttp has answered or cancelled every request)."""

    async def context(app: web.Application) -> AsyncIterator[None]:
        async def loop() -> None:
            while True:
                await asyncio.sleep(interval)
                try:
                    await action()
                except Exception:  # a watcher must outlive one bad round
                    log.exception("periodic check failed")

        task = asyncio.create_task(loop())
        yield
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        if last_round:
            await action()

    return context
