"""CA bundles: the CAs a client trusts (`caBundle` of the webhook configuration, `ca.crt` of the
Secret), the signing CA first, then the CAs kept from before a rotation."""

from __future__ import annotations

import base64
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization

from webhook.tls.pem import parse_certificates, read_file, require_ca, utc


@dataclass(frozen=True)
class CABundle:
    """The CA certificates a client should trust: the signing CA first, then the CAs kept from before a
    rotation. Duplicates are removed; expired CAs are dropped (they can verify nothing) and listed."""

    certificates: tuple[x509.Certificate, ...]
    dropped_expired: tuple[x509.Certificate, ...] = ()

    @property
    def pem(self) -> bytes:
        return b"".join(cert.public_bytes(serialization.Encoding.PEM) for cert in self.certificates)

    @property
    def base64(self) -> str:
        """The value for `webhooks[].clientConfig.caBundle`: base64 of the PEM bundle."""
        return base64.b64encode(self.pem).decode("ascii")


def build_ca_bundle(
    signing_ca: x509.Certificate,
    kept: Sequence[tuple[Path, Sequence[x509.Certificate]]] = (),
    *,
    now: dt.datetime | None = None,
) -> CABundle:
    """The bundle for `signing_ca` plus the certificates of `kept` files (path, certificates) —
    typically the old CA during a CA rotation. Every kept certificate must be a CA."""
    moment = utc(now)
    by_fingerprint: dict[bytes, x509.Certificate] = {signing_ca.fingerprint(hashes.SHA256()): signing_ca}
    dropped: list[x509.Certificate] = []
    for path, certificates in kept:
        for certificate in certificates:
            require_ca(certificate, path)
            if certificate.not_valid_after_utc <= moment:
                dropped.append(certificate)
                continue
            by_fingerprint.setdefault(certificate.fingerprint(hashes.SHA256()), certificate)
    return CABundle(tuple(by_fingerprint.values()), tuple(dropped))


def read_ca_bundle_files(paths: Sequence[Path]) -> list[tuple[Path, list[x509.Certificate]]]:
    return [(path, parse_certificates(read_file(path, "CA bundle"), path)) for path in paths]
