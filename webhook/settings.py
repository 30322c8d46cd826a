"""Every knob of the service, its default, the reason for it and how it is set, each declared once.

Configuration flows one way: flags / `DRA_WEBHOOK_*` environment -> `Settings` (frozen) ->
`create_app(settings)`. Every field of `Settings` and of the `ConnectionLimits` it holds, and the
switches of `PolicySettings` the command line sets, carry a `Flag` in their metadata
(webhook/settings_flags.py). From that one declaration `webhook.cli` makes the flag of
`dra-webhook serve`, its environment variable and the field's value: a new setting is one field here
(and its row in docs/operations.md, which tests/test_settings.py holds to the declarations).
`serve --help` lists the flags in the order of the fields. Nothing below the command line reads the
environment; the one variable set below it is prometheus_client's `PROMETHEUS_MULTIPROC_DIR`, which
the supervisor (`webhook.workers`) hands to its workers. The policy switches may also come from a
YAML file (`webhook.config`), which overrides `Settings.policy` for what it sets and is re-read while
serving.
"""

from __future__ import annotations

import enum
import math
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from webhook.settings_flags import FLAG, Flag, FlagGroup, port_number, positive_int, positive_seconds, seconds

# Two objects of up to ~3 MiB each plus the envelope: what kube-apiserver may send, and the limit
# the reference webhook frameworks use. aiohttp's default (1 MiB) is too small.
DEFAULT_MAX_BODY_BYTES: Final = 7 * 1024 * 1024
DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8443
DEFAULT_CERT_DIR: Final = Path("certs")
# kube-apiserver's default webhook timeout is 10 s; we answer in milliseconds, so a grace period of
# 10 s lets every accepted review finish before the process exits.
DEFAULT_GRACE_PERIOD_SECONDS: Final = 10.0
# How often the certificate files are checked for a rotation (kubelet swaps Secrets within ~1 min).
DEFAULT_CERT_RELOAD_INTERVAL_SECONDS: Final = 5.0
# How often the configuration file is checked for a change: a mounted ConfigMap changes within ~1 min,
# and reading a small file every 2 s costs nothing.
DEFAULT_CONFIG_RELOAD_INTERVAL_SECONDS: Final = 2.0
# Seconds between the start of shutdown (readiness false) and the closing of the listener. Zero by
# default so that SIGTERM stops promptly; in a cluster a few seconds let endpoints drop the pod before
# new connections are refused.
DEFAULT_SHUTDOWN_DELAY_SECONDS: Final = 0.0


# The headings of `dra-webhook serve --help`, in the order of the fields below that use them first.
LISTENING: Final = FlagGroup("listening")
TLS: Final = FlagGroup("TLS")
CLIENT_LIMITS: Final = FlagGroup(
    "client limits", "bounds on slow and abusive clients (docs/robustness.md); kube-apiserver meets none"
)
SHUTDOWN: Final = FlagGroup("shutdown")
LOGGING: Final = FlagGroup("logging")
POLICY: Final = FlagGroup("policy")


class UnknownKindPolicy(enum.Enum):
    """What to answer for a kind this webhook does not validate."""

    # Allow, with a warning that names what was not checked: a webhook registered too broadly must
    # not block a cluster, and the warning keeps it from looking like a real check.
    ALLOW = "allow"
    # Deny: for clusters that want every resource.k8s.io object checked and prefer a loud failure.
    DENY = "deny"


class Enforcement(enum.Enum):
    """Per-kind enforcement: deny invalid objects, or allow them with every error as a warning."""

    DENY = "deny"
    WARN = "warn"


@dataclass(frozen=True, slots=True)
class PolicySettings:
    """The switches of the webhook's own rules (webhook.rules.policy) and of its answers to the unexpected."""

    unknown_kind: UnknownKindPolicy = field(
        default=UnknownKindPolicy.ALLOW,
        metadata={
            FLAG: Flag(
                "--unknown-kind",
                "answer for kinds this webhook does not validate: allow (with a warning) or deny",
                POLICY,
                parse=UnknownKindPolicy,
                choices=tuple(policy.value for policy in UnknownKindPolicy),
                offline=True,
            )
        },
    )
    namespace_rules: bool = field(
        default=True,
        metadata={
            FLAG: Flag(
                "--no-namespace-rules",
                "turn off the webhook's own namespace rules for parametersRef (README.md, What it checks)",
                POLICY,
                when_given=False,
                offline=True,
            )
        },
    )
    # No flag for the fields below: they come from the configuration file (webhook.config) or the
    # Python API.
    class_reference_scope: bool = True
    claim_reference_namespace: bool = True
    # (apiGroup, kind) -> namespaced, added to the built-in table of core kinds.
    extra_scopes: tuple[tuple[str, str, bool], ...] = ()
    # kind -> enforcement, the kind named for all its apiVersions (`ResourceClaim`) or for one
    # (`ResourceClaim.v1alpha3.resource.k8s.io`, see `enforcement_key`); the most specific applies, and
    # kinds not named use `default_enforcement`.
    enforcement: tuple[tuple[str, Enforcement], ...] = ()
    default_enforcement: Enforcement = Enforcement.DENY
    # The structural check (schemas/): wrong JSON types, malformed quantities and timestamps are
    # errors, unknown fields warnings. Missing required fields are left to the rules, which report
    # them with the API server's own messages (see webhook.schemas).
    structural_check: bool = True

    def enforcement_for(self, kind: str, *, version: str = "", group: str = "") -> Enforcement:
        """The enforcement of `kind` in one apiVersion: its version's own setting, else the kind's,
        else the default."""
        qualified = enforcement_key(kind, version=version, group=group) if version else None
        for_kind: Enforcement | None = None
        for name, enforcement in self.enforcement:
            if name == qualified:
                return enforcement
            if name == kind and for_kind is None:
                for_kind = enforcement
        return for_kind if for_kind is not None else self.default_enforcement


def enforcement_key(kind: str, *, version: str, group: str) -> str:
    """How the enforcement table names a kind of one apiVersion: ``ResourceClaim.v1alpha3.resource.k8s.io``,
    kind, version and group joined by dots as kubectl names a resource of one version
    (``kubectl get resourceclaims.v1alpha3.resource.k8s.io``)."""
    return f"{kind}.{version}.{group}" if group else f"{kind}.{version}"


class LogFormat(enum.Enum):
    """How log records are written: JSON lines for collectors, text for people at a terminal."""

    JSON = "json"
    TEXT = "text"


LOG_FORMATS: Final = ("auto", "json", "text")
LOG_LEVELS: Final = ("debug", "info", "warning", "error")


def read_log_format(choice: str) -> LogFormat:
    """``--log-format``: ``auto`` is text on a terminal (stderr) and JSON lines anywhere else."""
    if choice == "auto":
        return LogFormat.TEXT if sys.stderr.isatty() else LogFormat.JSON
    return LogFormat(choice)


@dataclass(frozen=True, slots=True)
class ListenAddress:
    """A TCP address to listen on, written ``HOST:PORT`` (``[::1]:9090`` for IPv6; ``:9090`` for all
    interfaces)."""

    host: str
    port: int

    @classmethod
    def parse(cls, text: str) -> ListenAddress:
        """Read ``HOST:PORT``; raises ValueError with the reason."""
        host, colon, port_text = text.strip().rpartition(":")
        if not colon or not port_text.isdigit():
            raise ValueError(f"{text!r} is not HOST:PORT")
        if host.startswith("[") and host.endswith("]"):
            host = host[1:-1]
        elif ":" in host:
            raise ValueError(f"{text!r}: write an IPv6 host in brackets, e.g. [::1]:9090")
        port = int(port_text)
        if not 0 < port < 65536:
            raise ValueError(f"{text!r}: the port must be between 1 and 65535")
        return cls(host or "0.0.0.0", port)

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """What one connection may take from the server: the bounds on slow and abusive clients
    (docs/robustness.md). kube-apiserver sends each review whole, at once, and reads the answer at
    once, so none of these ever touches it; they stop a client that holds a connection without
    finishing a request or without reading its answer."""

    # From the connection's start (after TLS), or the first byte of a later request, to a complete
    # request head (Go's ReadHeaderTimeout): slowloris headers.
    header_timeout_seconds: float = field(
        default=10.0,
        metadata={
            FLAG: Flag(
                "--header-timeout",
                "seconds a connection may take to send a complete request head (slowloris)",
                CLIENT_LIMITS,
                parse=positive_seconds,
                metavar="SECONDS",
            )
        },
    )
    # From a complete head to a complete body: a slowly sent body, oversize or not. Answered 408.
    body_timeout_seconds: float = field(
        default=10.0,
        metadata={
            FLAG: Flag(
                "--body-timeout",
                "seconds from a complete head to a complete body (408 beyond it)",
                CLIENT_LIMITS,
                parse=positive_seconds,
                metavar="SECONDS",
            )
        },
    )
    # A kept-alive connection with no request (aiohttp's keepalive_timeout). Longer than the 90 s after
    # which kube-apiserver's client drops its idle connections (apimachinery SetOldTransportDefaults),
    # so that the server is never the one closing a connection the client is about to reuse.
    idle_timeout_seconds: float = field(
        default=120.0,
        metadata={
            FLAG: Flag(
                "--idle-timeout",
                "seconds a kept-alive connection may wait for its next request (longer than "
                "kube-apiserver's 90)",
                CLIENT_LIMITS,
                parse=positive_seconds,
                metavar="SECONDS",
            )
        },
    )
    # An answer blocked by a client that does not read it (Go's WriteTimeout, counted while blocked).
    write_timeout_seconds: float = field(
        default=10.0,
        metadata={
            FLAG: Flag(
                "--write-timeout",
                "seconds an answer may stay blocked by a client that does not read it",
                CLIENT_LIMITS,
                parse=positive_seconds,
                metavar="SECONDS",
            )
        },
    )
    # Open connections per process (each worker has its own). Past it, the connection idle for the
    # longest is closed to make room, or the new one if every connection is busy. Also capped below
    # the process's open-file limit.
    max_connections: int = field(
        default=1000,
        metadata={
            FLAG: Flag(
                "--max-connections",
                "open connections per worker; past it the longest-idle connection is closed to make room",
                CLIENT_LIMITS,
                parse=positive_int,
                metavar="N",
            )
        },
    )


@dataclass(frozen=True, slots=True)
class Settings:
    """What `dra-webhook serve` runs with. Every field is a flag of serve (the `Flag` in its metadata,
    or in those of the fields of `limits` and `policy`); `serve --help` lists them in this order."""

    host: str = field(
        default=DEFAULT_HOST, metadata={FLAG: Flag("--host", "address to listen on", LISTENING, parse=str)}
    )
    port: int = field(
        default=DEFAULT_PORT, metadata={FLAG: Flag("--port", "port", LISTENING, parse=port_number)}
    )
    # Worker processes sharing the port (SO_REUSEPORT); 1 serves in-process, without a supervisor.
    workers: int = field(
        default=1,
        metadata={
            FLAG: Flag(
                "--workers",
                "worker processes sharing the port (SO_REUSEPORT), supervised and replaced when they die; "
                "the default is one per available CPU; 1 serves in this process",
                LISTENING,
                parse=positive_int,
                metavar="N",
                default_text=lambda: str(available_cpus()),
            )
        },
    )
    # The plain-HTTP listener of GET /metrics; None: no metrics listener.
    metrics_address: ListenAddress | None = field(
        default=None,
        metadata={
            FLAG: Flag(
                "--metrics-address",
                "serve Prometheus metrics at http://HOST:PORT/metrics (plain HTTP; [::1]:9090 for IPv6, "
                ":9090 for every interface); off when not given",
                LISTENING,
                parse=ListenAddress.parse,
                metavar="HOST:PORT",
            )
        },
    )
    max_body_bytes: int = field(
        default=DEFAULT_MAX_BODY_BYTES,
        metadata={
            FLAG: Flag(
                "--max-body-bytes",
                "largest request body accepted (413 beyond it)",
                LISTENING,
                parse=positive_int,
            )
        },
    )
    cert_dir: Path = field(
        default=DEFAULT_CERT_DIR,
        metadata={
            FLAG: Flag(
                "--cert-dir",
                "directory with tls.crt and tls.key (a mounted TLS Secret); development certificates "
                "(ca.crt, tls.crt, tls.key) are generated here when it holds none",
                TLS,
                parse=Path,
            )
        },
    )
    # Generate a development CA and serving pair into cert_dir when it holds none.
    generate_dev_certs: bool = field(
        default=True,
        metadata={
            FLAG: Flag(
                "--no-generate-certs",
                "fail instead of generating development certificates when --cert-dir holds none",
                TLS,
                when_given=False,
            )
        },
    )
    client_ca_file: Path | None = field(
        default=None,
        metadata={
            FLAG: Flag(
                "--client-ca",
                "require client certificates signed by this CA (mTLS: only the apiserver may call)",
                TLS,
                parse=Path,
            )
        },
    )
    cert_reload_interval_seconds: float = field(
        default=DEFAULT_CERT_RELOAD_INTERVAL_SECONDS,
        metadata={
            FLAG: Flag(
                "--cert-reload-interval",
                "seconds between checks of the certificate files for a rotation",
                TLS,
                parse=positive_seconds,
                metavar="SECONDS",
            )
        },
    )
    limits: ConnectionLimits = field(default_factory=ConnectionLimits)
    grace_period_seconds: float = field(
        default=DEFAULT_GRACE_PERIOD_SECONDS,
        metadata={
            FLAG: Flag(
                "--grace-period",
                "seconds in-flight reviews get to finish after SIGTERM",
                SHUTDOWN,
                parse=seconds,
                metavar="SECONDS",
            )
        },
    )
    shutdown_delay_seconds: float = field(
        default=DEFAULT_SHUTDOWN_DELAY_SECONDS,
        metadata={
            FLAG: Flag(
                "--shutdown-delay",
                "seconds between SIGTERM (readiness turns false) and closing the listener, so that "
                "endpoints drop the pod before connections are refused",
                SHUTDOWN,
                parse=seconds,
                metavar="SECONDS",
            )
        },
    )
    log_level: str = field(
        default="info",
        metadata={FLAG: Flag("--log-level", "lowest level logged", LOGGING, parse=str, choices=LOG_LEVELS)},
    )
    # The command line resolves `auto` once, in the supervisor, for all its workers.
    log_format: LogFormat = field(
        default=LogFormat.JSON,
        metadata={
            FLAG: Flag(
                "--log-format",
                "json: one JSON object per line; text: for people; auto: text on a terminal, else json",
                LOGGING,
                parse=read_log_format,
                choices=LOG_FORMATS,
                default_text=lambda: "auto",
            )
        },
    )
    # One log line per HTTP request; off by default (decisions are logged either way).
    access_log: bool = field(
        default=False,
        metadata={
            FLAG: Flag(
                "--access-log",
                "also log one line per HTTP request (denials and errors are always logged)",
                LOGGING,
            )
        },
    )
    policy: PolicySettings = field(default_factory=PolicySettings)
    # The YAML file of policy switches (webhook.config), re-read when it changes; None: flags only.
    config_file: Path | None = field(
        default=None,
        metadata={
            FLAG: Flag(
                "--config",
                "YAML file of policy switches (unknownKind, namespaceRules, enforcement per kind); what it "
                "sets overrides the flags; serve re-reads it when it changes and keeps the old one if it "
                "is broken",
                POLICY,
                parse=Path,
                metavar="FILE",
                offline=True,
            )
        },
    )
    config_reload_interval_seconds: float = field(
        default=DEFAULT_CONFIG_RELOAD_INTERVAL_SECONDS,
        metadata={
            FLAG: Flag(
                "--config-reload-interval",
                "seconds between checks of the --config file for a change",
                POLICY,
                parse=positive_seconds,
                metavar="SECONDS",
            )
        },
    )

    @property
    def cert_file(self) -> Path:
        return self.cert_dir / "tls.crt"

    @property
    def key_file(self) -> Path:
        return self.cert_dir / "tls.key"


def available_cpus() -> int:
    """The CPUs this process may use: its affinity mask, capped by a cgroup v2 CPU quota (a container's
    CPU limit), at least 1."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    quota = _cgroup_cpu_quota(Path("/sys/fs/cgroup/cpu.max"))
    if quota is not None:
        cpus = min(cpus, quota)
    return max(cpus, 1)


def _cgroup_cpu_quota(cpu_max: Path) -> int | None:
    """`cpu.max` holds ``<quota> <period>`` or ``max <period>``: the quota in whole CPUs, rounded up."""
    try:
        quota, period = cpu_max.read_text().split()[:2]
        return max(1, math.ceil(int(quota) / int(period)))
    except (OSError, ValueError, ZeroDivisionError):
        return None  # no cgroup v2, no limit ("max"), or unreadable
