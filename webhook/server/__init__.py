"""The HTTP edge: the only package that imports aiohttp.

`POST /validate` takes an AdmissionReview and answers with HTTP 200 and a verdict; a request that is
not a readable AdmissionReview gets an HTTP 4xx with a one-line JSON reason. `GET /healthz` says the
process is alive, `GET /readyz` that the certificate is loaded and the rules are built, and turns
false as soon as shutdown starts.

* `webhook.server.handlers`: the handlers, the JSON errors and the access line;
* `webhook.server.app`: the applications (`create_app`, the metrics listener) and what they do
  while they run (certificate and configuration reloads, metrics flushes);
* `webhook.server.state`: the app's typed keys and the objects behind them;
* `webhook.server.connections`: the bounds on slow and abusive clients, and the drain at shutdown;
* `webhook.server.process`: one process's server (`WebhookServer`, `serve`), which stops without
  losing a review sent on an open connection.

This package exports what the rest of the webhook uses; logs are written as ``webhook.server``.
"""

from __future__ import annotations

from webhook.server.app import create_app, create_metrics_app, start_metrics_listener
from webhook.server.process import EXIT_BOOT_FAILED, BootError, WebhookServer, run_loop, serve

__all__ = [
    "EXIT_BOOT_FAILED",
    "BootError",
    "WebhookServer",
    "create_app",
    "create_metrics_app",
    "run_loop",
    "serve",
    "start_metrics_listener",
]
