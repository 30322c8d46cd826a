"""TLS for the webhook: issuing certificates, the server's SSLContext, and reloading the pair live.

Three things live here, each usable without the others:

* Issuing (`issue_ca`, `issue_serving_certificate`, `issue_client_certificate`, `write_secret_files`,
  `issue_webhook_certificates`): a CA and leaf certificates made with `cryptography`, written in the
  layout of a Kubernetes TLS Secret (`tls.crt`, `tls.key`, `ca.crt`). Serving certificates always
  carry subjectAltNames: kube-apiserver is a Go client and Go has refused certificates that only name
  the host in the Common Name since 1.15 (`x509: certificate relies on legacy Common Name field`).
* Serving (`build_server_context`): one `ssl.SSLContext` with TLS 1.2 as the floor, ECDHE with AEAD
  ciphers only for TLS 1.2, no compression, no renegotiation, ALPN `http/1.1` and, when a client CA is
  given, client certificates required and verified (mTLS).
* Reloading (`CertificateReloader`): kubelet updates a mounted Secret by writing a new hidden
  directory and swapping the `..data` symlink to it; cert-manager and other writers may rewrite the
  files in place. The reloader therefore compares the *content* of the resolved files, not the mtime
  of a link, validates the new pair in memory (both PEM files complete, the key matches the
  certificate, not expired) and only then puts it in service: loaded with `load_cert_chain` into a
  fresh context configured like the server's, which the server's (unchanged) context hands every new
  handshake from its `sni_callback`. Open connections keep the pair they started with and every new
  handshake gets the new one; nothing is restarted and nothing is dropped. A refused pair is logged
  once and the old pair keeps serving. (Why not `load_cert_chain` on the server's own context: see
  `CertificateReloader`.)
"""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
import ipaddress
import logging
import os
import secrets
import ssl
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, TypeVar

from cryptography import x509
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from webhook.rules.names import is_dns1123_label, is_dns1123_subdomain
from webhook.watched import WatchedFiles

LOGGER: Final = logging.getLogger("webhook.tls")

# The file names of a Kubernetes TLS Secret (`kubernetes.io/tls`) as mounted in a pod, plus the CA key
# that only a development directory holds.
CERT_FILE: Final = "tls.crt"
KEY_FILE: Final = "tls.key"
CA_CERT_FILE: Final = "ca.crt"
CA_KEY_FILE: Final = "ca.key"
CLIENT_CERT_FILE: Final = "client.crt"
CLIENT_KEY_FILE: Final = "client.key"
KEY_FILE_MODE: Final = 0o600  # private keys: readable by the owner only
CERT_FILE_MODE: Final = 0o644  # certificates are public
DIRECTORY_MODE: Final = 0o700  # a directory we create holds keys

KeyType = Literal["ecdsa", "rsa"]
KEY_TYPES: Final[tuple[KeyType, ...]] = ("ecdsa", "rsa")
RSA_KEY_BITS: Final = 2048
PrivateKey = ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey

DEFAULT_CA_DAYS: Final = 3650
DEFAULT_SERVING_DAYS: Final = 365
# Certificates start a little in the past so that a peer whose clock runs behind accepts them at once.
CLOCK_SKEW_ALLOWANCE: Final = dt.timedelta(minutes=5)
CA_COMMON_NAME: Final = "dra-webhook-ca"
DEVELOPMENT_CA_COMMON_NAME: Final = "dra-webhook development CA"
# The loopback addresses a development certificate always names, so that a client reaching
# "localhost" over IPv6 verifies too.
DEVELOPMENT_LOOPBACK_ADDRESSES: Final = ("::1",)

# A kubelet symlink swap between reading tls.crt and tls.key gives a torn read; reading again after the
# links moved settles it without counting an error.
_TORN_READ_RETRIES: Final = 3

# TLS 1.2 suites: ECDHE key exchange with an AEAD cipher only, in Go's preference order. These are
# exactly the TLS 1.2 suites of Go's default (and of Mozilla's "intermediate" profile); TLS 1.3 suites
# are all AEAD and are not affected by set_ciphers.
TLS12_CIPHERS: Final = ":".join(
    (
        "ECDHE-ECDSA-AES128-GCM-SHA256",
        "ECDHE-RSA-AES128-GCM-SHA256",
        "ECDHE-ECDSA-AES256-GCM-SHA384",
        "ECDHE-RSA-AES256-GCM-SHA384",
        "ECDHE-ECDSA-CHACHA20-POLY1305",
        "ECDHE-RSA-CHACHA20-POLY1305",
    )
)
# kube-apiserver forces HTTP/1.1 towards webhooks except on loopback, where Go offers h2 first and
# falls back; announcing only http/1.1 makes that fallback happen (aiohttp serves HTTP/1.1 only).
ALPN_PROTOCOLS: Final = ("http/1.1",)


_T = TypeVar("_T")


class CertificateError(Exception):
    """A certificate, key or CA that cannot be used; the message names the file and the reason."""


# --------------------------------------------------------------------------------------------------
# Issuing


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


def private_key_pem(key: PrivateKey) -> bytes:
    # PKCS#8 ("BEGIN PRIVATE KEY"): read by Go's tls.X509KeyPair, OpenSSL and cert-manager alike.
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


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
    start = _utc(now)
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
    start = _utc(now)
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


def _utc(now: dt.datetime | None) -> dt.datetime:
    return now.astimezone(dt.UTC) if now is not None else dt.datetime.now(dt.UTC)


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


# --------------------------------------------------------------------------------------------------
# Reading certificates and keys


def _read_bytes(path: Path, what: str) -> bytes:
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


def _require_matching_key(
    certificate: x509.Certificate, key: PrivateKey, cert_path: Path, key_path: Path
) -> None:
    if _public_key_der(certificate) != _public_key_der(key):
        raise CertificateError(f"the private key in {key_path} does not match the certificate in {cert_path}")


def load_ca(cert_file: Path, key_file: Path, *, now: dt.datetime | None = None) -> IssuedCertificate:
    """An existing CA to sign with: a CA certificate (basicConstraints CA, keyCertSign), its matching
    key, and still valid."""
    certificate = parse_certificates(_read_bytes(cert_file, "CA certificate"), cert_file)[0]
    key = parse_private_key(_read_bytes(key_file, "CA key"), key_file)
    _require_matching_key(certificate, key, cert_file, key_file)
    _require_ca(certificate, cert_file)
    if certificate.not_valid_after_utc <= _utc(now):
        raise CertificateError(
            f"the CA in {cert_file} expired at {certificate.not_valid_after_utc.isoformat()}"
        )
    return IssuedCertificate(certificate, key)


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


def _require_ca(certificate: x509.Certificate, path: Path) -> None:
    if not _is_ca(certificate):
        raise CertificateError(
            f"{path} ({certificate.subject.rfc4514_string()}) is not a CA certificate "
            "(needs basicConstraints CA:TRUE and keyUsage keyCertSign)"
        )


# --------------------------------------------------------------------------------------------------
# CA bundles (caBundle of the webhook configuration, ca.crt of the Secret)


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
    moment = _utc(now)
    by_fingerprint: dict[bytes, x509.Certificate] = {signing_ca.fingerprint(hashes.SHA256()): signing_ca}
    dropped: list[x509.Certificate] = []
    for path, certificates in kept:
        for certificate in certificates:
            _require_ca(certificate, path)
            if certificate.not_valid_after_utc <= moment:
                dropped.append(certificate)
                continue
            by_fingerprint.setdefault(certificate.fingerprint(hashes.SHA256()), certificate)
    return CABundle(tuple(by_fingerprint.values()), tuple(dropped))


def read_ca_bundle_files(paths: Sequence[Path]) -> list[tuple[Path, list[x509.Certificate]]]:
    return [(path, parse_certificates(_read_bytes(path, "CA bundle"), path)) for path in paths]


# --------------------------------------------------------------------------------------------------
# Writing the Secret layout


def write_secret_files(
    out_dir: Path,
    *,
    serving: IssuedCertificate,
    ca_bundle_pem: bytes | None,
    ca_key: PrivateKey | None = None,
    client: IssuedCertificate | None = None,
    force: bool = False,
) -> list[Path]:
    """Write `tls.crt`, `tls.key` and `ca.crt` (plus `ca.key` when the CA was made here, and
    `client.crt`/`client.key` when asked), keys with mode 0600, certificates 0644.

    Nothing is overwritten unless `force`: when any target exists, FileExistsError names them all and
    no file is written. Each file is written to a temporary name and then linked (or, with `force`,
    renamed) into place, so a reader never sees a half-written file written by us.
    """
    files: list[tuple[str, bytes, int]] = [
        (KEY_FILE, serving.key_pem, KEY_FILE_MODE),
        (CERT_FILE, serving.cert_pem, CERT_FILE_MODE),
    ]
    if ca_bundle_pem is not None:
        files.append((CA_CERT_FILE, ca_bundle_pem, CERT_FILE_MODE))
    if ca_key is not None:
        files.append((CA_KEY_FILE, private_key_pem(ca_key), KEY_FILE_MODE))
    if client is not None:
        files.append((CLIENT_KEY_FILE, client.key_pem, KEY_FILE_MODE))
        files.append((CLIENT_CERT_FILE, client.cert_pem, CERT_FILE_MODE))
    targets = [out_dir / name for name, _, _ in files]
    existing = [str(path) for path in targets if path.exists() or path.is_symlink()]
    if existing and not force:
        raise FileExistsError(f"refusing to overwrite {', '.join(existing)} (pass --force to replace them)")
    out_dir.mkdir(parents=True, exist_ok=True, mode=DIRECTORY_MODE)
    for (_, data, mode), path in zip(files, targets, strict=True):
        _write_file_atomically(path, data, mode=mode, replace=force)
    return targets


def _write_file_atomically(path: Path, data: bytes, *, mode: int, replace: bool) -> None:
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
    try:
        with os.fdopen(fd, "wb") as stream:
            os.fchmod(stream.fileno(), mode)  # exactly `mode`, whatever the umask
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if replace:
            os.replace(temporary, path)
        else:
            os.link(temporary, path)  # fails with FileExistsError instead of clobbering
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


@dataclass(frozen=True)
class IssuedFiles:
    """What `issue_webhook_certificates` did, for the CLI to report."""

    files: list[Path]
    ca_bundle: CABundle
    serving: IssuedCertificate
    ca_generated: bool
    client: IssuedCertificate | None = None


def issue_webhook_certificates(
    out_dir: Path,
    *,
    service: str,
    namespace: str,
    dns_names: Sequence[str] = (),
    ip_addresses: Sequence[str] = (),
    days: int = DEFAULT_SERVING_DAYS,
    key_type: KeyType = "ecdsa",
    ca_cert_file: Path | None = None,
    ca_key_file: Path | None = None,
    ca_bundle_with: Sequence[Path] = (),
    client_common_name: str | None = None,
    force: bool = False,
    now: dt.datetime | None = None,
) -> IssuedFiles:
    """The `certs` command: a CA (new, or the given one) and a serving certificate for the Service,
    written to `out_dir` in the TLS Secret layout, `ca.crt` holding the CA bundle (the signing CA plus
    the CAs of `ca_bundle_with`, for a CA rotation)."""
    if (ca_cert_file is None) != (ca_key_file is None):
        raise CertificateError("--ca-cert and --ca-key go together")
    names = [*service_dns_names(service, namespace), *dns_names]
    kept = read_ca_bundle_files(ca_bundle_with)  # read before anything is generated or written
    if ca_cert_file is not None and ca_key_file is not None:
        ca, ca_generated = load_ca(ca_cert_file, ca_key_file, now=now), False
    else:
        ca, ca_generated = issue_ca(key_type=key_type, now=now), True
    serving = issue_serving_certificate(
        ca,
        dns_names=names,
        ip_addresses=ip_addresses,
        common_name=f"{service}.{namespace}.svc",
        days=days,
        key_type=key_type,
        now=now,
    )
    client = (
        issue_client_certificate(ca, common_name=client_common_name, days=days, key_type=key_type, now=now)
        if client_common_name
        else None
    )
    bundle = build_ca_bundle(ca.certificate, kept, now=now)
    files = write_secret_files(
        out_dir,
        serving=serving,
        ca_bundle_pem=bundle.pem,
        ca_key=ca.private_key if ca_generated else None,
        client=client,
        force=force,
    )
    return IssuedFiles(files, bundle, serving, ca_generated, client)


def ensure_development_certificates(
    cert_dir: Path, *, hosts: Sequence[str] = ("localhost", "127.0.0.1")
) -> bool:
    """Make a development CA and serving pair in `cert_dir` when it holds no `tls.crt`/`tls.key`.

    Returns True when it created them, False when a pair already exists (it is left alone). The
    serving certificate names `hosts` (DNS names and IP addresses told apart) plus `::1`. An existing
    `ca.crt`/`ca.key` is reused so that clients that already trust it keep working. A directory with
    only one of `tls.crt` and `tls.key` is an error: guessing could destroy a real key.
    """
    cert_file, key_file = cert_dir / CERT_FILE, cert_dir / KEY_FILE
    if cert_file.exists() and key_file.exists():
        return False
    if cert_file.exists() or key_file.exists():
        raise CertificateError(
            f"{cert_dir} holds only one of {CERT_FILE} and {KEY_FILE}; add the other or remove it"
        )
    ca_cert_file, ca_key_file = cert_dir / CA_CERT_FILE, cert_dir / CA_KEY_FILE
    reuse_ca = ca_cert_file.exists() and ca_key_file.exists()
    ca = load_ca(ca_cert_file, ca_key_file) if reuse_ca else issue_ca(common_name=DEVELOPMENT_CA_COMMON_NAME)
    dns_names, ip_addresses = split_hosts([*hosts, *DEVELOPMENT_LOOPBACK_ADDRESSES])
    serving = issue_serving_certificate(ca, dns_names=dns_names, ip_addresses=ip_addresses)
    write_secret_files(
        cert_dir,
        serving=serving,
        ca_bundle_pem=None if reuse_ca else ca.cert_pem,
        ca_key=None if reuse_ca else ca.private_key,
    )
    LOGGER.warning(
        "created a development certificate in %s for %s, signed by %s; not for production",
        cert_dir,
        ", ".join([*dns_names, *ip_addresses]),
        ca_cert_file,
    )
    return True


# --------------------------------------------------------------------------------------------------
# Serving


@dataclass(frozen=True)
class KeyPair:
    """A certificate chain and its key, read and checked in memory, ready to load into a context."""

    cert_pem: bytes
    key_pem: bytes
    certificate: x509.Certificate  # the leaf

    @property
    def not_after(self) -> dt.datetime:
        return self.certificate.not_valid_after_utc

    def describe(self) -> str:
        return (
            f"subject {self.certificate.subject.rfc4514_string()!r}, "
            f"serial {self.certificate.serial_number:x}, valid until {self.not_after.isoformat()}"
        )


def read_key_pair(cert_file: Path, key_file: Path, *, now: dt.datetime | None = None) -> KeyPair:
    """Read and check a pair: complete PEM, the key matches the leaf, the leaf has not expired.

    The files are read through their resolved paths; when a symlink moved between the two reads
    (kubelet swapping `..data`), they are read again so that both come from the same generation.
    """
    cert_pem, key_pem = _read_consistent_pair(cert_file, key_file)
    return check_key_pair(cert_pem, key_pem, cert_file=cert_file, key_file=key_file, now=now)


def check_key_pair(
    cert_pem: bytes, key_pem: bytes, *, cert_file: Path, key_file: Path, now: dt.datetime | None = None
) -> KeyPair:
    """Check a pair held in memory (the file names are for the messages)."""
    chain = parse_certificates(cert_pem, cert_file)
    key = parse_private_key(key_pem, key_file)
    _require_matching_key(chain[0], key, cert_file, key_file)
    if chain[0].not_valid_after_utc <= _utc(now):
        raise CertificateError(
            f"the certificate in {cert_file} expired at {chain[0].not_valid_after_utc.isoformat()}"
        )
    return KeyPair(cert_pem, key_pem, chain[0])


def _read_consistent_pair(cert_file: Path, key_file: Path) -> tuple[bytes, bytes]:
    # kubelet publishes a new generation directory, renames `..data` to point at it and deletes the old
    # one. Reading through the resolved paths and checking that they still resolve the same afterwards
    # gives both files from one generation; a read that failed because the links moved is retried.
    for attempt in range(1, _TORN_READ_RETRIES + 1):
        resolved = _resolve(cert_file, key_file)
        try:
            pair = (_read_bytes(resolved[0], "certificate"), _read_bytes(resolved[1], "private key"))
        except CertificateError:
            if attempt < _TORN_READ_RETRIES and _resolve(cert_file, key_file) != resolved:
                continue
            raise
        if attempt == _TORN_READ_RETRIES or _resolve(cert_file, key_file) == resolved:
            break
    return pair


def _resolve(cert_file: Path, key_file: Path) -> tuple[Path, Path]:
    return Path(os.path.realpath(cert_file)), Path(os.path.realpath(key_file))


@contextlib.contextmanager
def _in_memory_files(*contents: bytes) -> Iterator[list[str]]:
    """Paths that OpenSSL can open, holding `contents`: anonymous memory files on Linux (the key never
    touches a disk), else files in a private temporary directory, removed at once."""
    if hasattr(os, "memfd_create"):
        fds = [os.memfd_create("dra-webhook-tls", os.MFD_CLOEXEC) for _ in contents]
        try:
            for fd, data in zip(fds, contents, strict=True):
                _write_all(fd, data)
            yield [f"/proc/self/fd/{fd}" for fd in fds]
        finally:
            for fd in fds:
                os.close(fd)
        return
    with tempfile.TemporaryDirectory(prefix="dra-webhook-tls-") as directory:  # created mode 0700
        paths = []
        for index, data in enumerate(contents):
            path = Path(directory, str(index))
            path.write_bytes(data)
            paths.append(str(path))
        yield paths


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def load_key_pair(context: ssl.SSLContext, pair: KeyPair) -> None:
    """Load a checked pair into `context` from memory (not from the watched files, which may have
    changed again since they were checked)."""
    with _in_memory_files(pair.cert_pem, pair.key_pem) as (cert_path, key_path):
        context.load_cert_chain(cert_path, key_path)


def build_server_context(
    cert_file: Path, key_file: Path, *, client_ca_file: Path | None = None
) -> ssl.SSLContext:
    """The server's SSLContext, hardened like Go's crypto/tls server defaults.

    TLS 1.2 is the minimum; TLS 1.2 suites are ECDHE + AEAD only; compression and renegotiation are
    off; the server picks the cipher. With `client_ca_file`, every client must present a certificate
    that chains to it (with extendedKeyUsage clientAuth, if it has one) or the handshake fails.
    Raises CertificateError when the pair or the client CA cannot be used.
    """
    client_cas = None if client_ca_file is None else _read_client_cas(client_ca_file)
    context = _hardened_context(client_cas)
    load_key_pair(context, read_key_pair(cert_file, key_file))
    return context


def _hardened_context(client_cas: bytes | None) -> ssl.SSLContext:
    """A server context without a certificate; `client_cas` (DER, concatenated) turns on mTLS."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.set_ciphers(TLS12_CIPHERS)
    context.options |= (
        ssl.OP_NO_COMPRESSION  # CRIME
        | ssl.OP_NO_RENEGOTIATION  # client-initiated renegotiation is a DoS vector; TLS 1.3 has none
        | ssl.OP_CIPHER_SERVER_PREFERENCE
        | ssl.OP_SINGLE_ECDH_USE
    )
    context.set_alpn_protocols(list(ALPN_PROTOCOLS))
    if client_cas is not None:
        context.load_verify_locations(cadata=client_cas)
        context.verify_mode = ssl.CERT_REQUIRED
    return context


def _read_client_cas(client_ca_file: Path) -> bytes:
    certificates = parse_certificates(_read_bytes(client_ca_file, "client CA"), client_ca_file)
    for certificate in certificates:
        _require_ca(certificate, client_ca_file)
    return b"".join(certificate.public_bytes(serialization.Encoding.DER) for certificate in certificates)


def _client_cas_of(context: ssl.SSLContext) -> bytes | None:
    """The client CAs (DER) of a context built by build_server_context, read back from its trust
    store; None when it does not verify clients."""
    if context.verify_mode is ssl.CERT_NONE:
        return None
    return b"".join(context.get_ca_certs(binary_form=True))


@dataclass(frozen=True)
class ServingPair:
    """A checked pair and the context that serves it (what `CertificateReloader` keeps in service)."""

    pair: KeyPair
    context: ssl.SSLContext


class CertificateReloader(WatchedFiles[ServingPair]):
    """Keeps the server's `context` serving the pair currently in `cert_file`/`key_file`.

    Each pair is loaded into a fresh context configured like `context`, and `context.sni_callback`
    (which OpenSSL calls on every ClientHello, with or without SNI) switches each new connection to the
    context of the pair in service. Loading a new pair into the server's own context instead is not
    enough: OpenSSL keeps one certificate per key type, so after an ECDSA -> RSA rotation the old ECDSA
    certificate stays loaded and is still chosen; and `load_cert_chain` sets the certificate before the
    key, so a connection created in between (the GIL is released while OpenSSL reads) would get a
    certificate without its key. With a fresh context per pair the switch is one attribute assignment,
    so `reload_if_changed()` may run in a worker thread. Open connections keep the pair they started with.

    The constructor loads the current pair (raising CertificateError if it is unusable: at start-up that
    must stop the server). `reload_if_changed()` never raises: when the content of the files differs from
    the pair in service it checks the new pair in memory and switches to it, or logs why it refused and
    keeps the old one (a refused content is reported once, not on every check; the rule of
    `webhook.watched.WatchedFiles`, shared with the configuration file).

    Counters for the metrics: `reloads` (successful reloads after start-up), `reload_errors` (refused
    pairs), `not_after` (expiry of the serving certificate) and `last_error`.
    """

    refusals = (CertificateError, ssl.SSLError, OSError)

    def __init__(self, context: ssl.SSLContext, cert_file: Path, key_file: Path) -> None:
        self.context = context
        self.cert_file = Path(cert_file)
        self.key_file = Path(key_file)
        # read once, here: a reload in a worker thread never touches the server's context
        self._client_cas = _client_cas_of(context)
        super().__init__()
        context.sni_callback = self._select_serving_context

    @property
    def not_after(self) -> dt.datetime:
        return self.value.pair.not_after

    @property
    def certificate(self) -> x509.Certificate:
        return self.value.pair.certificate

    def read(self) -> tuple[bytes, bytes]:
        return _read_consistent_pair(self.cert_file, self.key_file)

    def build(self, contents: Sequence[bytes]) -> ServingPair:
        cert_pem, key_pem = contents
        pair = check_key_pair(cert_pem, key_pem, cert_file=self.cert_file, key_file=self.key_file)
        context = _hardened_context(self._client_cas)
        load_key_pair(context, pair)
        return ServingPair(pair, context)

    def _select_serving_context(
        self, connection: ssl.SSLObject | ssl.SSLSocket, server_name: str | None, context: ssl.SSLContext
    ) -> None:
        connection.context = self.value.context

    def reload_if_changed(self) -> bool:
        """Load the pair on disk if its content changed and it is usable. True when a new pair was loaded."""
        return self.poll() is not None

    def applied(self, value: ServingPair, previous: ServingPair) -> None:
        LOGGER.info(
            "reloaded the serving certificate from %s: %s (was serial %x)",
            self.cert_file,
            value.pair.describe(),
            previous.pair.certificate.serial_number,
        )

    def refused(self, reason: str) -> None:
        LOGGER.error(
            "refusing the new certificate pair (%s); still serving %s", reason, self.value.pair.describe()
        )
