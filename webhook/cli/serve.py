"""`dra-webhook serve`: the flags of the server (each with its `DRA_WEBHOOK_*` variable, both declared
with the fields of `Settings`) become `Settings`, and the supervisor (`webhook.workers`) serves them."""

from __future__ import annotations

import argparse
from typing import Any

from webhook.cli.flags import SERVE, add_setting_flags, settings_from
from webhook.settings_flags import ENV_PREFIX


def add(subcommands: Any) -> None:
    serve = subcommands.add_parser(
        "serve",
        help="serve the webhook over HTTPS",
        description="Serve POST /validate over HTTPS, GET /healthz and GET /readyz; with "
        "--metrics-address, GET /metrics over plain HTTP. Every flag can also be set by the environment "
        f"variable named after it in brackets (e.g. {ENV_PREFIX}PORT=9443); a flag given on the command "
        "line wins. The policy switches can also come from a YAML file (--config), re-read when it "
        "changes. docs/operations.md describes metrics, logs, workers, shutdown and the file.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    add_setting_flags(serve, SERVE, grouped=True)
    serve.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from webhook import workers
    from webhook.logs import configure_logging

    settings = settings_from(args)
    configure_logging(level=settings.log_level, log_format=settings.log_format)
    return workers.run(settings)
