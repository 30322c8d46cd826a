"""Certificates and keys in PEM: reading them, and the checks every user of a pair or a CA makes.

A file caught half-written is refused rather than half-read (`parse_certificates`), a key must be an
unencrypted ECDSA or RSA key, a pair's key must match its certificate, and a CA must be able to sign.
Every refusal is a `CertificateError` whose message names the file and the reason.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

PrivateKey = ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey


class CertificateError(Exception):
    """A certificate, key or CA that cannot be used; the message names the file and the reason."""


def private_key_pem(key: PrivateKey) -> bytes:
    # PKCS#8 ("BEGIN PRIVATE KEY"): read by Go's tls.X509KeyPair, OpenSSL and cert-manager alike.
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def utc(now: dt.datetime | None) -> dt.datetime:
    """`now` in UTC; the current time when None."""
    return now.astimezone(dt.UTC) if now is not None else dt.datetime.now(dt.UTC)


def read_file(path: Path, what: str) -> bytes:
    """The bytes of `path`; CertificateError naming it as `what` when it cannot be read."""
    try:
        return path.read_bytes()
    except OSError as err:
        raise CertificateError(f"cannot read {what} {path}: {err.strerror or err}") from None


def _require_complete_pem(data: bytes, path: Path) -> None:
    # A file caught half-written ends inside a PEM block: cryptography would quietly skip the partial
    # block (keeping a chain without its last certificate), so count the armour lines ourselves.
    begins, ends = data.count(b"-----BEGIN "), data.count(b"-----END ")
    if begins == 0:
        raise CertificateError(f"{path} holds no PEM block (empty or half-written)")
    if begins != ends:
        raise CertificateError(f"{path} ends inside a PEM block (half-written?)")


def parse_certificates(data: bytes, path: Path) -> list[x509.Certificate]:
    """All certificates of a PEM file, the leaf first; CertificateError when there is none."""
    _require_complete_pem(data, path)
    try:
        return x509.load_pem_x509_certificates(data)
    except ValueError as err:
        raise CertificateError(f"{path} holds no readable PEM certificate: {err}") from None


def parse_private_key(data: bytes, path: Path) -> PrivateKey:
    """An unencrypted ECDSA or RSA private key (PKCS#8, SEC1 or PKCS#1 PEM)."""
    _require_complete_pem(data, path)
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except TypeError:
        raise CertificateError(
            f"{path} holds an encrypted private key; the webhook needs it unencrypted"
        ) from None
    except (ValueError, UnsupportedAlgorithm) as err:
        raise CertificateError(f"{path} holds no readable PEM private key: {err}") from None
    if not isinstance(key, ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey):
        raise CertificateError(f"{path} holds a {type(key).__name__}; use an ECDSA or RSA key")
    return key


def _public_key_der(key: x509.Certificate | PrivateKey) -> bytes:
    return key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def require_matching_key(
    certificate: x509.Certificate, key: PrivateKey, cert_path: Path, key_path: Path
) -> None:
    if _public_key_der(certificate) != _public_key_der(key):
        raise CertificateError(f"the private key in {key_path} does not match the certificate in {cert_path}")


def _is_ca(certificate: x509.Certificate) -> bool:
    try:
        constraints = certificate.extensions.get_extension_for_class(x509.BasicConstraints).value
    except x509.ExtensionNotFound:
        return False
    if not constraints.ca:
        return False
    try:
        usage = certificate.extensions.get_extension_for_class(x509.KeyUsage).value
    except x509.ExtensionNotFound:
        return True
    return usage.key_cert_sign


def require_ca(certificate: x509.Certificate, path: Path) -> None:
    if not _is_ca(certificate):
        raise CertificateError(
            f"{path} ({certificate.subject.rfc4514_string()}) is not a CA certificate "
            "(needs basicConstraints CA:TRUE and keyUsage keyCertSign)"
        )
