"""Every knob of the service, its default and the reason for it, built once from flags and environment.

Configuration flows one way: flags / `DRA_WEBHOOK_*` environment -> `Settings` (frozen) ->
`create_app(settings)`. Nothing below the command line reads the environment.
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

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
ENV_PREFIX: Final = "DRA_WEBHOOK_"


class UnknownKindPolicy(enum.Enum):
    """What to answer for a kind this webhook does not validate (SPEC A.2)."""

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
    """The switches of the webhook's own rules (SPEC Part C) and of its answers to the unexpected."""

    namespace_rules: bool = True
    class_reference_scope: bool = True
    claim_reference_namespace: bool = True
    # (apiGroup, kind) -> namespaced, added to the built-in table of core kinds.
    extra_scopes: tuple[tuple[str, str, bool], ...] = ()
    unknown_kind: UnknownKindPolicy = UnknownKindPolicy.ALLOW
    # kind name -> enforcement; kinds not named use `default_enforcement`.
    enforcement: tuple[tuple[str, Enforcement], ...] = ()
    default_enforcement: Enforcement = Enforcement.DENY
    # The structural check (schemas/) reports wrong types and missing required fields.
    structural_check: bool = True

    def enforcement_for(self, kind: str) -> Enforcement:
        for name, enforcement in self.enforcement:
            if name == kind:
                return enforcement
        return self.default_enforcement


@dataclass(frozen=True, slots=True)
class Settings:
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    cert_dir: Path = DEFAULT_CERT_DIR
    client_ca_file: Path | None = None
    # Generate a development CA and serving pair into cert_dir when it holds none.
    generate_dev_certs: bool = True
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    grace_period_seconds: float = DEFAULT_GRACE_PERIOD_SECONDS
    cert_reload_interval_seconds: float = DEFAULT_CERT_RELOAD_INTERVAL_SECONDS
    policy: PolicySettings = field(default_factory=PolicySettings)

    @property
    def cert_file(self) -> Path:
        return self.cert_dir / "tls.crt"

    @property
    def key_file(self) -> Path:
        return self.cert_dir / "tls.key"


def env_default(name: str, default: str | None = None) -> str | None:
    """The `DRA_WEBHOOK_<NAME>` environment value for a flag, or the default."""
    return os.environ.get(ENV_PREFIX + name.upper().replace("-", "_"), default)
