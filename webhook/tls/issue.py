"""Issuing certificates with `cryptography`: a CA, serving certificates for a Service, client
certificates for mTLS, and the CA an operator brings (`load_ca`).

Serving certificates always carry subjectAltNames: kube-apiserver is a Go client and Go has refused
certificates that only name the host in the Common Name since 1.15 (`x509: certificate relies on
legacy Common Name field`).
"""

from __future__ import annotations

import datetime as dt
import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, TypeVar

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from webhook.rules.names import is_dns1123_label, is_dns1123_subdomain
from webhook.tls.pem import (
    CertificateError,
    PrivateKey,
    parse_certificates,
    parse_private_key,
    private_key_pem,
    read_file,
    require_ca,
    require_matching_key,
    utc,
)

KeyType = Literal["ecdsa", "rsa"]
KEY_TYPES: Final[tuple[KeyType, ...]] = ("ecdsa", "rsa")
RSA_KEY_BITS: Final = 2048

DEFAULT_CA_DAYS: Final = 3650
DEFAULT_SERVING_DAYS: Final = 365
# Certificates start a little in the past so that a peer whose clock runs behind accepts them at once.
CLOCK_SKEW_ALLOWANCE: Final = dt.timedelta(minutes=5)
CA_COMMON_NAME: Final = "dra-webhook-ca"

_T = TypeVar("_T")


@dataclass(frozen=True)
class IssuedCertificate:
    """A certificate with its private key."""

    certificate: x509.Certificate
    private_key: PrivateKey

    @property
    def cert_pem(self) -> bytes:
        return self.certificate.public_bytes(serialization.Encoding.PEM)

    @property
    def key_pem(self) -> bytes:
        return private_key_pem(self.private_key)

    @property
    def not_after(self) -> dt.datetime:
        return self.certificate.not_valid_after_utc


def generate_private_key(key_type: KeyType = "ecdsa") -> PrivateKey:
    """ECDSA P-256 (the default: small, fast, accepted by every Go client) or RSA 2048."""
    if key_type == "ecdsa":
        return ec.generate_private_key(ec.SECP256R1())
    if key_type == "rsa":
        return rsa.generate_private_key(public_exponent=65537, key_size=RSA_KEY_BITS)
    raise CertificateError(f"unknown key type {key_type!r}; use one of {', '.join(KEY_TYPES)}")


def issue_ca(
    *,
    common_name: str = CA_COMMON_NAME,
    days: int = DEFAULT_CA_DAYS,
    key_type: KeyType = "ecdsa",
    now: dt.datetime | None = None,
) -> IssuedCertificate:
    """A self-signed CA that may sign leaf certificates only (path length 0)."""
    _require_positive_days(days)
    key = generate_private_key(key_type)
    start = utc(now)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    key_id = x509.SubjectKeyIdentifier.from_public_key(key.public_key())
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start - CLOCK_SKEW_ALLOWANCE)
        .not_valid_after(start + dt.timedelta(days=days))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            _key_usage(digital_signature=True, key_cert_sign=True, crl_sign=True),
            critical=True,
        )
        .add_extension(key_id, critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(key_id), critical=False)
        .sign(key, hashes.SHA256())
    )
    return IssuedCertificate(certificate, key)


def issue_serving_certificate(
    ca: IssuedCertificate,
    *,
    dns_names: Sequence[str] = (),
    ip_addresses: Sequence[str] = (),
    common_name: str | None = None,
    days: int = DEFAULT_SERVING_DAYS,
    key_type: KeyType = "ecdsa",
    now: dt.datetime | None = None,
) -> IssuedCertificate:
    """A TLS server certificate for the given DNS names and IP addresses, signed by `ca`.

    At least one name is required: the names go into subjectAltName, which is all a Go client reads.
    The Common Name (first DNS name by default) is informational only. The validity ends no later
    than the CA's own.
    """
    dns = _unique(_checked_dns_name(name) for name in dns_names)
    ips = _unique(_checked_ip_address(address) for address in ip_addresses)
    if not dns and not ips:
        raise CertificateError("a serving certificate needs at least one DNS name or IP address")
    subject_name = common_name or (dns[0] if dns else str(ips[0]))
    alt_names: list[x509.GeneralName] = [x509.DNSName(name) for name in dns]
    alt_names += [x509.IPAddress(address) for address in ips]
    return _issue_leaf(
        ca,
        common_name=subject_name,
        usage=ExtendedKeyUsageOID.SERVER_AUTH,
        alt_names=alt_names,
        days=days,
        key_type=key_type,
        now=now,
    )


def issue_client_certificate(
    ca: IssuedCertificate,
    *,
    common_name: str,
    days: int = DEFAULT_SERVING_DAYS,
    key_type: KeyType = "ecdsa",
    now: dt.datetime | None = None,
) -> IssuedCertificate:
    """A TLS client certificate (extendedKeyUsage clientAuth) for mTLS, e.g. for kube-apiserver's
    AdmissionConfiguration kubeconfig; the server verifies it against `--client-ca`."""
    if not common_name:
        raise CertificateError("a client certificate needs a common name")
    return _issue_leaf(
        ca,
        common_name=common_name,
        usage=ExtendedKeyUsageOID.CLIENT_AUTH,
        alt_names=[],
        days=days,
        key_type=key_type,
        now=now,
    )


def _issue_leaf(
    ca: IssuedCertificate,
    *,
    common_name: str,
    usage: x509.ObjectIdentifier,
    alt_names: list[x509.GeneralName],
    days: int,
    key_type: KeyType,
    now: dt.datetime | None,
) -> IssuedCertificate:
    _require_positive_days(days)
    key = generate_private_key(key_type)
    start = utc(now)
    not_after = min(start + dt.timedelta(days=days), ca.certificate.not_valid_after_utc)
    builder = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)]))
        .issuer_name(ca.certificate.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start - CLOCK_SKEW_ALLOWANCE)
        .not_valid_after(not_after)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        # keyEncipherment only makes sense for RSA key transport (RFC 5480 forbids it for EC keys).
        .add_extension(
            _key_usage(digital_signature=True, key_encipherment=isinstance(key, rsa.RSAPrivateKey)),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(_authority_key_identifier(ca), critical=False)
    )
    if alt_names:
        builder = builder.add_extension(x509.SubjectAlternativeName(alt_names), critical=False)
    return IssuedCertificate(builder.sign(ca.private_key, hashes.SHA256()), key)


def _key_usage(
    *,
    digital_signature: bool = False,
    key_encipherment: bool = False,
    key_cert_sign: bool = False,
    crl_sign: bool = False,
) -> x509.KeyUsage:
    return x509.KeyUsage(
        digital_signature=digital_signature,
        content_commitment=False,
        key_encipherment=key_encipherment,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=key_cert_sign,
        crl_sign=crl_sign,
        encipher_only=False,
        decipher_only=False,
    )


def _authority_key_identifier(ca: IssuedCertificate) -> x509.AuthorityKeyIdentifier:
    try:
        ski = ca.certificate.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    except x509.ExtensionNotFound:  # a CA brought by the operator may lack one
        return x509.AuthorityKeyIdentifier.from_issuer_public_key(ca.private_key.public_key())
    return x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ski)


def _require_positive_days(days: int) -> None:
    if days < 1:
        raise CertificateError(f"validity must be at least 1 day, got {days}")


def _unique(items: Iterable[_T]) -> list[_T]:
    return list(dict.fromkeys(items))


def _checked_dns_name(name: str) -> str:
    # A SAN DNS name: a lowercase RFC 1123 subdomain, optionally with a leading wildcard label.
    bare = name.removeprefix("*.")
    problems = is_dns1123_subdomain(bare)
    if problems:
        raise CertificateError(f"invalid DNS name {name!r}: {'; '.join(problems)}")
    return name


def _checked_ip_address(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    try:
        return ipaddress.ip_address(address)
    except ValueError:
        raise CertificateError(f"invalid IP address {address!r}") from None


def service_dns_names(service: str, namespace: str) -> list[str]:
    """The names kube-apiserver may use for a Service: it dials `<service>.<namespace>.svc`; the others
    cover in-cluster clients that use a shorter or the fully qualified form."""
    for what, value in (("service", service), ("namespace", namespace)):
        problems = is_dns1123_label(value)
        if problems:
            raise CertificateError(f"invalid {what} name {value!r}: {'; '.join(problems)}")
    return [
        service,
        f"{service}.{namespace}",
        f"{service}.{namespace}.svc",
        f"{service}.{namespace}.svc.cluster.local",
    ]


def split_hosts(hosts: Iterable[str]) -> tuple[list[str], list[str]]:
    """Split host names from IP addresses: ("localhost", "127.0.0.1") -> (["localhost"], ["127.0.0.1"])."""
    dns_names: list[str] = []
    ip_addresses: list[str] = []
    for host in hosts:
        try:
            ipaddress.ip_address(host)
        except ValueError:
            dns_names.append(host)
        else:
            ip_addresses.append(host)
    return _unique(dns_names), _unique(ip_addresses)


def load_ca(cert_file: Path, key_file: Path, *, now: dt.datetime | None = None) -> IssuedCertificate:
    """An existing CA to sign with: a CA certificate (basicConstraints CA, keyCertSign), its matching
    key, and still valid."""
    certificate = parse_certificates(read_file(cert_file, "CA certificate"), cert_file)[0]
    key = parse_private_key(read_file(key_file, "CA key"), key_file)
    require_matching_key(certificate, key, cert_file, key_file)
    require_ca(certificate, cert_file)
    if certificate.not_valid_after_utc <= utc(now):
        raise CertificateError(
            f"the CA in {cert_file} expired at {certificate.not_valid_after_utc.isoformat()}"
        )
    return IssuedCertificate(certificate, key)
