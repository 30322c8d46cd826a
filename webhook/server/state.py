"""The state of the webhook application: what `create_app` binds under typed `AppKey`s, and the small
objects behind them (readiness, the judge in service, the reviews in flight)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from aiohttp import web
from prometheus_client import CollectorRegistry

from webhook.admission import Judge
from webhook.config import ConfigWatcher
from webhook.metrics import Metrics
from webhook.settings import Settings
from webhook.tls import CertificateReloader

# The review uid, kept on the request for the access line: a typed key from aiohttp 3.14 on (a plain
# string key warns there), a string before.
UID_REQUEST_KEY: Final[Any] = web.RequestKey("uid", str) if hasattr(web, "RequestKey") else "dra_webhook.uid"


@dataclass(slots=True)
class Readiness:
    """Ready once the rules are built and the certificate is loaded; not ready once shutdown starts."""

    rules_ready: bool = False
    certificate_ready: bool = False
    shutting_down: bool = False

    @property
    def ready(self) -> bool:
        return self.rules_ready and self.certificate_ready and not self.shutting_down


@dataclass(slots=True)
class CurrentJudge:
    """The judge in service. A configuration reload swaps it (one assignment, between requests)."""

    judge: Judge


@dataclass(slots=True)
class Traffic:
    """Reviews being handled now (a gauge, and what a shutdown waits for)."""

    in_flight: int = 0

    def enter(self) -> None:
        self.in_flight += 1

    def leave(self) -> None:
        self.in_flight -= 1


SETTINGS_KEY: Final = web.AppKey("settings", Settings)
JUDGE_KEY: Final = web.AppKey("judge", CurrentJudge)
READINESS_KEY: Final = web.AppKey("readiness", Readiness)
METRICS_KEY: Final = web.AppKey("metrics", Metrics)
TRAFFIC_KEY: Final = web.AppKey("traffic", Traffic)
RELOADER_KEY: Final = web.AppKey("certificate_reloader", CertificateReloader)
CONFIG_KEY: Final = web.AppKey("config_watcher", ConfigWatcher)
REGISTRY_KEY: Final = web.AppKey("metrics_registry", CollectorRegistry)
