"""`dra-webhook serve`: the flags of the server (each with its `DRA_WEBHOOK_*` variable) become
`Settings`, and the supervisor (`webhook.workers`) serves them."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Final

from webhook.cli.flags import (
    add_policy_flags,
    env_option,
    env_switch,
    flag_policy,
    listen_address,
    non_negative_float,
    one_of,
    port,
    positive_float,
    positive_int,
)
from webhook.settings import (
    DEFAULT_CERT_DIR,
    DEFAULT_CERT_RELOAD_INTERVAL_SECONDS,
    DEFAULT_CONFIG_RELOAD_INTERVAL_SECONDS,
    DEFAULT_GRACE_PERIOD_SECONDS,
    DEFAULT_HOST,
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_PORT,
    DEFAULT_SHUTDOWN_DELAY_SECONDS,
    ENV_PREFIX,
    ConnectionLimits,
    Settings,
    available_cpus,
)

LOG_LEVELS: Final = ("debug", "info", "warning", "error")
LOG_FORMATS: Final = ("auto", "json", "text")


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
    listen = serve.add_argument_group("listening")
    env_option(listen, "--host", DEFAULT_HOST, "address to listen on")
    env_option(listen, "--port", str(DEFAULT_PORT), "port", type=port)
    env_option(
        listen,
        "--workers",
        str(available_cpus()),
        "worker processes sharing the port (SO_REUSEPORT), supervised and replaced when they die; "
        "the default is one per available CPU; 1 serves in this process",
        type=positive_int,
        metavar="N",
    )
    env_option(
        listen,
        "--metrics-address",
        None,
        "serve Prometheus metrics at http://HOST:PORT/metrics (plain HTTP; [::1]:9090 for IPv6, :9090 for "
        "every interface); off when not given",
        type=listen_address,
        metavar="HOST:PORT",
    )
    env_option(
        listen,
        "--max-body-bytes",
        str(DEFAULT_MAX_BODY_BYTES),
        "largest request body accepted (413 beyond it)",
        type=positive_int,
    )

    tls = serve.add_argument_group("TLS")
    env_option(
        tls,
        "--cert-dir",
        str(DEFAULT_CERT_DIR),
        "directory with tls.crt and tls.key (a mounted TLS Secret); development certificates "
        "(ca.crt, tls.crt, tls.key) are generated here when it holds none",
        type=Path,
    )
    env_switch(
        tls,
        "--no-generate-certs",
        "fail instead of generating development certificates when --cert-dir holds none",
    )
    env_option(
        tls,
        "--client-ca",
        None,
        "require client certificates signed by this CA (mTLS: only the apiserver may call)",
        type=Path,
    )
    env_option(
        tls,
        "--cert-reload-interval",
        str(DEFAULT_CERT_RELOAD_INTERVAL_SECONDS),
        "seconds between checks of the certificate files for a rotation",
        type=positive_float,
        metavar="SECONDS",
    )

    clients = serve.add_argument_group(
        "client limits", "bounds on slow and abusive clients (docs/robustness.md); kube-apiserver meets none"
    )
    limits = ConnectionLimits()
    env_option(
        clients,
        "--header-timeout",
        str(limits.header_timeout_seconds),
        "seconds a connection may take to send a complete request head (slowloris)",
        type=positive_float,
        metavar="SECONDS",
    )
    env_option(
        clients,
        "--body-timeout",
        str(limits.body_timeout_seconds),
        "seconds from a complete head to a complete body (408 beyond it)",
        type=positive_float,
        metavar="SECONDS",
    )
    env_option(
        clients,
        "--idle-timeout",
        str(limits.idle_timeout_seconds),
        "seconds a kept-alive connection may wait for its next request (longer than kube-apiserver's 90)",
        type=positive_float,
        metavar="SECONDS",
    )
    env_option(
        clients,
        "--write-timeout",
        str(limits.write_timeout_seconds),
        "seconds an answer may stay blocked by a client that does not read it",
        type=positive_float,
        metavar="SECONDS",
    )
    env_option(
        clients,
        "--max-connections",
        str(limits.max_connections),
        "open connections per worker; past it the longest-idle connection is closed to make room",
        type=positive_int,
        metavar="N",
    )

    shutdown = serve.add_argument_group("shutdown")
    env_option(
        shutdown,
        "--grace-period",
        str(DEFAULT_GRACE_PERIOD_SECONDS),
        "seconds in-flight reviews get to finish after SIGTERM",
        type=non_negative_float,
        metavar="SECONDS",
    )
    env_option(
        shutdown,
        "--shutdown-delay",
        str(DEFAULT_SHUTDOWN_DELAY_SECONDS),
        "seconds between SIGTERM (readiness turns false) and closing the listener, so that endpoints "
        "drop the pod before connections are refused",
        type=non_negative_float,
        metavar="SECONDS",
    )

    logs = serve.add_argument_group("logging")
    env_option(
        logs, "--log-level", "info", "lowest level logged", type=one_of(*LOG_LEVELS), choices=LOG_LEVELS
    )
    env_option(
        logs,
        "--log-format",
        "auto",
        "json: one JSON object per line; text: for people; auto: text on a terminal, else json",
        type=one_of(*LOG_FORMATS),
        choices=LOG_FORMATS,
    )
    env_switch(
        logs, "--access-log", "also log one line per HTTP request (denials and errors are always logged)"
    )

    policy = serve.add_argument_group("policy")
    add_policy_flags(policy)
    env_option(
        policy,
        "--config-reload-interval",
        str(DEFAULT_CONFIG_RELOAD_INTERVAL_SECONDS),
        "seconds between checks of the --config file for a change",
        type=positive_float,
        metavar="SECONDS",
    )
    serve.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from webhook import workers
    from webhook.logs import configure_logging, resolve_log_format

    log_format = resolve_log_format(args.log_format)
    configure_logging(level=args.log_level, log_format=log_format)
    settings = Settings(
        host=args.host,
        port=args.port,
        cert_dir=args.cert_dir,
        client_ca_file=args.client_ca,
        generate_dev_certs=not args.no_generate_certs,
        max_body_bytes=args.max_body_bytes,
        grace_period_seconds=args.grace_period,
        cert_reload_interval_seconds=args.cert_reload_interval,
        policy=flag_policy(args),
        workers=args.workers,
        metrics_address=args.metrics_address,
        log_format=log_format,
        log_level=args.log_level,
        access_log=args.access_log,
        config_file=args.config,
        config_reload_interval_seconds=args.config_reload_interval,
        shutdown_delay_seconds=args.shutdown_delay,
        limits=ConnectionLimits(
            header_timeout_seconds=args.header_timeout,
            body_timeout_seconds=args.body_timeout,
            idle_timeout_seconds=args.idle_timeout,
            write_timeout_seconds=args.write_timeout,
            max_connections=args.max_connections,
        ),
    )
    return workers.run(settings)
