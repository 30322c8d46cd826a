"""Serve the webhook with settings given as JSON: the subprocess the robustness tests abuse.

``python -m tests.fuzz.launch '{"port": 8443, "cert_dir": "...", "limits": {"header_timeout_seconds": 1}}'``

The command line has no flags for the connection limits (their defaults suit production), and the
tests need them short, so this builds `Settings` directly and runs what ``dra-webhook serve`` runs:
`webhook.workers.run` (one process, or a supervisor and workers). Logs are JSON lines on stderr, at
the level given by ``log_level``; ``"guard_log": true`` adds the guard's debug line for each
connection it closes, and why.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

from webhook.logs import configure_logging
from webhook.settings import ConnectionLimits, ListenAddress, LogFormat, Settings
from webhook.workers import run

PATH_FIELDS = ("cert_dir", "client_ca_file", "config_file")


def settings_from(spec: dict[str, Any]) -> Settings:
    fields = dict(spec)
    fields.pop("guard_log", None)
    limits = ConnectionLimits(**fields.pop("limits", {}))
    for name in PATH_FIELDS:
        if fields.get(name) is not None:
            fields[name] = Path(fields[name])
    if fields.get("metrics_address") is not None:  # "HOST:PORT", as the command line takes it
        fields["metrics_address"] = ListenAddress.parse(fields["metrics_address"])
    return Settings(**fields, limits=limits, log_format=LogFormat.JSON)


def main(argv: list[str]) -> int:
    spec = json.loads(argv[1])
    settings = settings_from(spec)
    configure_logging(level=settings.log_level, log_format=settings.log_format)
    if spec.get("guard_log"):
        logging.getLogger("webhook.server").setLevel(logging.DEBUG)
    return run(settings)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
