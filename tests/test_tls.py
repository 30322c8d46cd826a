"""TLS: issued certificates, the server context's hardening, mTLS, and live reload of the pair.

Protocol facts (versions, ciphers, client certificates, host names) are checked with an in-memory
handshake between two `ssl.SSLObject`s, which shows the error each side saw; reload and mTLS at the
request level are checked against a tiny aiohttp server on 127.0.0.1 with our context.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import datetime as dt
import ipaddress
import logging
import os
import shutil
import ssl
import stat
import threading
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import aiohttp
import pytest
from aiohttp import web
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from webhook import cli, tls
from webhook.tls import CertificateError, CertificateReloader, IssuedCertificate
from webhook.tls import serving as serving_module
from webhook.tls.pem import read_file

# --------------------------------------------------------------------------------------------------
# Keys are slow: every certificate the module needs is made once.


@dataclass(frozen=True)
class Certificates:
    ca: IssuedCertificate
    other_ca: IssuedCertificate
    serving: IssuedCertificate  # localhost, 127.0.0.1 — signed by ca
    serving_next: IssuedCertificate  # the same names, a new key — the rotation target
    serving_rsa: IssuedCertificate
    expired: IssuedCertificate  # expired on 2020-01-11
    client: IssuedCertificate  # clientAuth, signed by ca
    stranger: IssuedCertificate  # clientAuth, signed by other_ca
    common_name_only: IssuedCertificate  # CN=localhost, no subjectAltName — what Go refuses


@pytest.fixture(scope="module")
def certs() -> Certificates:
    ca = tls.issue_ca()
    other_ca = tls.issue_ca(common_name="someone else's CA")
    long_ago = dt.datetime(2020, 1, 1, tzinfo=dt.UTC)
    return Certificates(
        ca=ca,
        other_ca=other_ca,
        serving=_localhost(ca),
        serving_next=_localhost(ca),
        serving_rsa=_localhost(ca, key_type="rsa"),
        expired=_localhost(tls.issue_ca(days=30, now=long_ago), days=10, now=long_ago),
        client=tls.issue_client_certificate(ca, common_name="kube-apiserver"),
        stranger=tls.issue_client_certificate(other_ca, common_name="kube-apiserver"),
        common_name_only=_common_name_only_certificate(ca, "localhost"),
    )


def _localhost(
    ca: IssuedCertificate, *, key_type: tls.KeyType = "ecdsa", days: int = 30, now: dt.datetime | None = None
) -> IssuedCertificate:
    return tls.issue_serving_certificate(
        ca, dns_names=["localhost"], ip_addresses=["127.0.0.1"], key_type=key_type, days=days, now=now
    )


def _common_name_only_certificate(ca: IssuedCertificate, host: str) -> IssuedCertificate:
    key = ec.generate_private_key(ec.SECP256R1())
    now = dt.datetime.now(dt.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)]))
        .issuer_name(ca.certificate.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(hours=1))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(ca.private_key, hashes.SHA256())
    )
    return IssuedCertificate(certificate, key)


def write_pair(directory: Path, issued: IssuedCertificate) -> tuple[Path, Path]:
    directory.mkdir(parents=True, exist_ok=True)
    cert_file, key_file = directory / "tls.crt", directory / "tls.key"
    cert_file.write_bytes(issued.cert_pem)
    key_file.write_bytes(issued.key_pem)
    return cert_file, key_file


def server_context(
    directory: Path, issued: IssuedCertificate, *, client_ca: IssuedCertificate | None = None
) -> ssl.SSLContext:
    cert_file, key_file = write_pair(directory, issued)
    client_ca_file = None
    if client_ca is not None:
        client_ca_file = directory / "client-ca.crt"
        client_ca_file.write_bytes(client_ca.cert_pem)
    return tls.build_server_context(cert_file, key_file, client_ca_file=client_ca_file)


def go_like_client(ca: IssuedCertificate, *, client: IssuedCertificate | None = None) -> ssl.SSLContext:
    """A client that verifies as Go's crypto/tls does: chain to the CA, host name from subjectAltName
    only (Go >= 1.15 ignores the Common Name), TLS 1.2 or later."""
    context = ssl.create_default_context(cadata=ca.cert_pem.decode())
    context.hostname_checks_common_name = False
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    if client is not None:
        _load_client_certificate(context, client)
    return context


def _load_client_certificate(context: ssl.SSLContext, client: IssuedCertificate) -> None:
    with serving_module._in_memory_files(client.cert_pem, client.key_pem) as (cert_path, key_path):
        context.load_cert_chain(cert_path, key_path)


def serial_of(certificate_der: bytes | None) -> int:
    assert certificate_der is not None
    return x509.load_der_x509_certificate(certificate_der).serial_number


# --------------------------------------------------------------------------------------------------
# An in-memory handshake: both ends in this thread, bytes moved by hand, each side's error kept.


@dataclass
class Handshake:
    client: ssl.SSLObject
    server: ssl.SSLObject
    client_error: ssl.SSLError | None
    server_error: ssl.SSLError | None

    @property
    def succeeded(self) -> bool:
        return self.client_error is None and self.server_error is None


def handshake(
    server_context: ssl.SSLContext, client_context: ssl.SSLContext, server_hostname: str = "localhost"
) -> Handshake:
    to_server, to_client = ssl.MemoryBIO(), ssl.MemoryBIO()
    client_out, server_out = ssl.MemoryBIO(), ssl.MemoryBIO()
    client = client_context.wrap_bio(to_client, client_out, server_hostname=server_hostname)
    server = server_context.wrap_bio(to_server, server_out, server_side=True)
    done = {"client": False, "server": False}
    errors: dict[str, ssl.SSLError | None] = {"client": None, "server": None}

    def step(side: str, end: ssl.SSLObject) -> None:
        if done[side] or errors[side] is not None:
            return
        try:
            end.do_handshake()
            done[side] = True
        except ssl.SSLWantReadError:
            pass
        except ssl.SSLError as err:
            errors[side] = err

    for _ in range(10):
        step("client", client)
        to_server.write(client_out.read())
        step("server", server)
        to_client.write(server_out.read())
        if all(done[side] or errors[side] is not None for side in done):
            break
    return Handshake(client, server, errors["client"], errors["server"])


# --------------------------------------------------------------------------------------------------
# Issuing


_Extension = TypeVar("_Extension", bound=x509.ExtensionType)


def _extension(certificate: x509.Certificate, kind: type[_Extension]) -> x509.Extension[_Extension]:
    return certificate.extensions.get_extension_for_class(kind)


def test_the_serving_certificate_names_the_service_every_way_it_is_dialled(tmp_path: Path) -> None:
    issued = tls.issue_webhook_certificates(
        tmp_path,
        service="dra-webhook",
        namespace="dra-system",
        dns_names=["webhook.example.com", "dra-webhook.dra-system.svc"],  # the duplicate appears once
        ip_addresses=["10.0.0.7", "fd00::7"],
    )
    names = _extension(issued.serving.certificate, x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.DNSName) == [
        "dra-webhook",
        "dra-webhook.dra-system",
        "dra-webhook.dra-system.svc",
        "dra-webhook.dra-system.svc.cluster.local",
        "webhook.example.com",
    ]
    assert names.get_values_for_type(x509.IPAddress) == [
        ipaddress.ip_address("10.0.0.7"),
        ipaddress.ip_address("fd00::7"),
    ]
    subject = issued.serving.certificate.subject.get_attributes_for_oid(NameOID.COMMON_NAME)
    assert [attribute.value for attribute in subject] == ["dra-webhook.dra-system.svc"]
    assert sorted(path.name for path in issued.files) == ["ca.crt", "ca.key", "tls.crt", "tls.key"]


@pytest.mark.parametrize("key_type", ["ecdsa", "rsa"])
def test_a_serving_certificate_has_the_extensions_of_a_tls_server_leaf(
    certs: Certificates, key_type: tls.KeyType
) -> None:
    serving = tls.issue_serving_certificate(certs.ca, dns_names=["svc.ns.svc"], key_type=key_type)
    certificate = serving.certificate

    constraints = _extension(certificate, x509.BasicConstraints)
    assert constraints.critical and not constraints.value.ca
    usage = _extension(certificate, x509.KeyUsage)
    assert usage.critical and usage.value.digital_signature and not usage.value.key_cert_sign
    # keyEncipherment belongs to RSA key transport only (RFC 5480 forbids it for EC keys)
    assert usage.value.key_encipherment is (key_type == "rsa")
    assert list(_extension(certificate, x509.ExtendedKeyUsage).value) == [ExtendedKeyUsageOID.SERVER_AUTH]
    assert _extension(certificate, x509.SubjectKeyIdentifier).value == (
        x509.SubjectKeyIdentifier.from_public_key(serving.private_key.public_key())
    )
    ca_key_id = _extension(certs.ca.certificate, x509.SubjectKeyIdentifier).value.digest
    assert _extension(certificate, x509.AuthorityKeyIdentifier).value.key_identifier == ca_key_id
    certificate.verify_directly_issued_by(certs.ca.certificate)
    assert certificate.version is x509.Version.v3
    if key_type == "rsa":
        assert isinstance(serving.private_key, rsa.RSAPrivateKey) and serving.private_key.key_size == 2048
    else:
        assert isinstance(serving.private_key, ec.EllipticCurvePrivateKey)
        assert serving.private_key.curve.name == "secp256r1"


def test_a_ca_may_sign_leaves_only(certs: Certificates) -> None:
    certificate = certs.ca.certificate
    constraints = _extension(certificate, x509.BasicConstraints)
    assert constraints.critical and constraints.value.ca and constraints.value.path_length == 0
    usage = _extension(certificate, x509.KeyUsage)
    assert usage.critical and usage.value.key_cert_sign and usage.value.crl_sign
    assert certificate.issuer == certificate.subject
    certificate.verify_directly_issued_by(certificate)
    key_id = _extension(certificate, x509.SubjectKeyIdentifier).value.digest
    assert _extension(certificate, x509.AuthorityKeyIdentifier).value.key_identifier == key_id


def test_certificates_start_before_now_for_peers_whose_clock_lags() -> None:
    now = dt.datetime(2030, 1, 1, tzinfo=dt.UTC)
    ca = tls.issue_ca(days=100, now=now)
    serving = tls.issue_serving_certificate(ca, dns_names=["a"], days=10, now=now)
    assert serving.certificate.not_valid_before_utc == now - dt.timedelta(minutes=5)
    assert serving.not_after == now + dt.timedelta(days=10)


def test_a_serving_certificate_never_outlives_its_ca() -> None:
    ca = tls.issue_ca(days=10)
    serving = tls.issue_serving_certificate(ca, dns_names=["a"], days=365)
    assert serving.not_after == ca.not_after


def test_a_client_certificate_is_for_client_auth_only(certs: Certificates) -> None:
    certificate = certs.client.certificate
    assert list(_extension(certificate, x509.ExtendedKeyUsage).value) == [ExtendedKeyUsageOID.CLIENT_AUTH]
    assert not _extension(certificate, x509.BasicConstraints).value.ca
    with pytest.raises(x509.ExtensionNotFound):
        _extension(certificate, x509.SubjectAlternativeName)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({}, "a serving certificate needs at least one DNS name or IP address"),
        ({"dns_names": ["Bad_Name"]}, "invalid DNS name 'Bad_Name': a lowercase RFC 1123 subdomain"),
        ({"ip_addresses": ["300.1.1.1"]}, "invalid IP address '300.1.1.1'"),
        ({"dns_names": ["a"], "days": 0}, "validity must be at least 1 day, got 0"),
    ],
)
def test_unusable_serving_requests_are_refused(
    certs: Certificates, arguments: dict[str, object], message: str
) -> None:
    with pytest.raises(CertificateError, match="^" + message.replace("(", r"\(")):
        tls.issue_serving_certificate(certs.ca, **arguments)  # type: ignore[arg-type]


def test_a_wildcard_dns_name_is_allowed(certs: Certificates) -> None:
    serving = tls.issue_serving_certificate(certs.ca, dns_names=["*.example.com"])
    names = _extension(serving.certificate, x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.DNSName) == ["*.example.com"]


@pytest.mark.parametrize(
    ("service", "namespace", "message"),
    [
        ("web.hook", "ns", "invalid service name 'web.hook': must not contain dots"),
        ("webhook", "", "invalid namespace name '': a lowercase RFC 1123 label must consist of"),
    ],
)
def test_service_and_namespace_must_be_dns_labels(service: str, namespace: str, message: str) -> None:
    with pytest.raises(CertificateError, match="^" + message):
        tls.service_dns_names(service, namespace)


def test_keys_are_written_0600_and_certificates_0644_whatever_the_umask(tmp_path: Path) -> None:
    previous = os.umask(0o077)
    try:
        tls.issue_webhook_certificates(tmp_path / "out", service="s", namespace="n", client_common_name="api")
    finally:
        os.umask(previous)
    modes = {path.name: stat.S_IMODE(path.stat().st_mode) for path in (tmp_path / "out").iterdir()}
    assert modes == {
        "tls.key": 0o600,
        "ca.key": 0o600,
        "client.key": 0o600,
        "tls.crt": 0o644,
        "ca.crt": 0o644,
        "client.crt": 0o644,
    }
    assert stat.S_IMODE((tmp_path / "out").stat().st_mode) == 0o700


def test_existing_files_are_never_overwritten_silently(tmp_path: Path) -> None:
    tls.issue_webhook_certificates(tmp_path, service="s", namespace="n")
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    with pytest.raises(FileExistsError, match=r"refusing to overwrite .*tls\.key.*pass --force"):
        tls.issue_webhook_certificates(tmp_path, service="s", namespace="n")
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == before

    tls.issue_webhook_certificates(tmp_path, service="s", namespace="n", force=True)
    after = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    assert after.keys() == before.keys()
    assert all(after[name] != before[name] for name in before)


def test_a_partial_refusal_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "ca.crt").write_bytes(b"someone's CA")
    with pytest.raises(FileExistsError):
        tls.issue_webhook_certificates(tmp_path, service="s", namespace="n")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["ca.crt"]


def test_a_given_ca_signs_and_its_key_stays_where_it_is(tmp_path: Path, certs: Certificates) -> None:
    ca_cert, ca_key = write_pair(tmp_path / "ca", certs.ca)
    issued = tls.issue_webhook_certificates(
        tmp_path / "out", service="s", namespace="n", ca_cert_file=ca_cert, ca_key_file=ca_key
    )
    assert not issued.ca_generated
    assert sorted(path.name for path in (tmp_path / "out").iterdir()) == ["ca.crt", "tls.crt", "tls.key"]
    assert (tmp_path / "out" / "ca.crt").read_bytes() == certs.ca.cert_pem
    issued.serving.certificate.verify_directly_issued_by(certs.ca.certificate)


@pytest.mark.parametrize(
    ("ca_name", "key_name", "message"),
    [
        ("serving", "serving", r"is not a CA certificate \(needs basicConstraints CA:TRUE"),
        ("ca", "other_ca", r"the private key in .*key does not match the certificate in .*crt"),
    ],
)
def test_a_given_ca_must_be_a_ca_with_its_own_key(
    tmp_path: Path, certs: Certificates, ca_name: str, key_name: str, message: str
) -> None:
    ca_cert = tmp_path / "ca.crt"
    ca_cert.write_bytes(getattr(certs, ca_name).cert_pem)
    ca_key = tmp_path / "ca.key"
    ca_key.write_bytes(getattr(certs, key_name).key_pem)
    with pytest.raises(CertificateError, match=message):
        tls.issue_webhook_certificates(
            tmp_path / "out", service="s", namespace="n", ca_cert_file=ca_cert, ca_key_file=ca_key
        )
    assert not (tmp_path / "out").exists()


def test_the_ca_bundle_can_carry_the_old_ca_through_a_rotation(tmp_path: Path, certs: Certificates) -> None:
    old_bundle = tmp_path / "old-ca.crt"
    expired = tls.issue_ca(common_name="long gone", days=1, now=dt.datetime(2020, 1, 1, tzinfo=dt.UTC))
    # the old file may already hold two CAs, one of them expired; repeating a CA changes nothing
    old_bundle.write_bytes(certs.other_ca.cert_pem + expired.cert_pem + certs.other_ca.cert_pem)

    issued = tls.issue_webhook_certificates(
        tmp_path / "out", service="s", namespace="n", ca_bundle_with=[old_bundle]
    )

    new_ca = tls.load_ca(tmp_path / "out" / "ca.crt", tmp_path / "out" / "ca.key")
    assert [cert.subject for cert in issued.ca_bundle.certificates] == [
        new_ca.certificate.subject,
        certs.other_ca.certificate.subject,
    ]
    assert issued.ca_bundle.dropped_expired == (expired.certificate,)
    assert (tmp_path / "out" / "ca.crt").read_bytes() == new_ca.cert_pem + certs.other_ca.cert_pem
    assert base64.b64decode(issued.ca_bundle.base64) == new_ca.cert_pem + certs.other_ca.cert_pem
    # a client trusting the bundle accepts the old serving certificate and the new one
    trusting = ssl.create_default_context(cadata=issued.ca_bundle.pem.decode())
    trusting.hostname_checks_common_name = False
    new_serving = tls.issue_serving_certificate(new_ca, dns_names=["localhost"])
    old_serving = tls.issue_serving_certificate(certs.other_ca, dns_names=["localhost"])
    for serving in (new_serving, old_serving):
        assert handshake(server_context(tmp_path / "srv", serving), trusting).succeeded


def test_a_ca_bundle_holds_only_cas(tmp_path: Path, certs: Certificates) -> None:
    not_a_ca = tmp_path / "serving.crt"
    not_a_ca.write_bytes(certs.serving.cert_pem)
    with pytest.raises(CertificateError, match=r"serving\.crt \(CN=localhost\) is not a CA certificate"):
        tls.issue_webhook_certificates(
            tmp_path / "out", service="s", namespace="n", ca_bundle_with=[not_a_ca]
        )
    assert not (tmp_path / "out").exists()


def test_development_certificates_are_made_once_for_loopback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cert_dir = tmp_path / "certs"
    with caplog.at_level(logging.WARNING, logger="webhook.tls"):
        assert tls.ensure_development_certificates(cert_dir) is True
    assert "not for production" in caplog.text
    assert sorted(path.name for path in cert_dir.iterdir()) == ["ca.crt", "ca.key", "tls.crt", "tls.key"]
    assert stat.S_IMODE((cert_dir / "ca.key").stat().st_mode) == 0o600
    pair = tls.read_key_pair(cert_dir / "tls.crt", cert_dir / "tls.key")
    names = _extension(pair.certificate, x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.DNSName) == ["localhost"]
    assert names.get_values_for_type(x509.IPAddress) == [
        ipaddress.ip_address("127.0.0.1"),
        ipaddress.ip_address("::1"),
    ]
    before = (cert_dir / "tls.crt").read_bytes()
    assert tls.ensure_development_certificates(cert_dir) is False
    assert (cert_dir / "tls.crt").read_bytes() == before


def test_development_certificates_reuse_the_development_ca(tmp_path: Path) -> None:
    tls.ensure_development_certificates(tmp_path)
    ca_before = (tmp_path / "ca.crt").read_bytes()
    (tmp_path / "tls.crt").unlink()
    (tmp_path / "tls.key").unlink()
    assert tls.ensure_development_certificates(tmp_path, hosts=("webhook.local",)) is True
    assert (tmp_path / "ca.crt").read_bytes() == ca_before
    ca = tls.load_ca(tmp_path / "ca.crt", tmp_path / "ca.key")
    pair = tls.read_key_pair(tmp_path / "tls.crt", tmp_path / "tls.key")
    pair.certificate.verify_directly_issued_by(ca.certificate)
    names = _extension(pair.certificate, x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.DNSName) == ["webhook.local"]


def test_development_certificates_never_replace_half_a_pair(tmp_path: Path, certs: Certificates) -> None:
    (tmp_path / "tls.key").write_bytes(certs.serving.key_pem)
    with pytest.raises(CertificateError, match=r"holds only one of tls\.crt and tls\.key"):
        tls.ensure_development_certificates(tmp_path)
    assert (tmp_path / "tls.key").read_bytes() == certs.serving.key_pem


# --------------------------------------------------------------------------------------------------
# Host names: subjectAltName only, as Go


def test_a_go_like_client_accepts_our_certificate_by_name_and_by_address(
    tmp_path: Path, certs: Certificates
) -> None:
    context = server_context(tmp_path, certs.serving)
    for host in ("localhost", "127.0.0.1"):
        assert handshake(context, go_like_client(certs.ca), server_hostname=host).succeeded


def test_a_go_like_client_refuses_a_certificate_that_names_the_host_only_in_its_common_name(
    tmp_path: Path, certs: Certificates
) -> None:
    # Go 1.15+: "x509: certificate relies on legacy Common Name field, use SANs instead"
    context = server_context(tmp_path, certs.common_name_only)
    result = handshake(context, go_like_client(certs.ca))
    assert isinstance(result.client_error, ssl.SSLCertVerificationError)
    assert (
        result.client_error.verify_message == "Hostname mismatch, certificate is not valid for 'localhost'."
    )


def test_python_by_default_still_falls_back_to_the_common_name(tmp_path: Path, certs: Certificates) -> None:
    # Why go_like_client sets hostname_checks_common_name = False: CPython's default (True, even with
    # check_hostname) accepts the CN-only certificate that Go refuses, so it cannot stand in for Go.
    client = ssl.create_default_context(cadata=certs.ca.cert_pem.decode())
    assert client.check_hostname and client.hostname_checks_common_name
    assert handshake(server_context(tmp_path, certs.common_name_only), client).succeeded


# --------------------------------------------------------------------------------------------------
# Protocol versions, ciphers, options


def test_the_context_forbids_compression_and_renegotiation(tmp_path: Path, certs: Certificates) -> None:
    context = server_context(tmp_path, certs.serving)
    assert context.minimum_version is ssl.TLSVersion.TLSv1_2
    assert context.options & ssl.OP_NO_COMPRESSION
    assert context.options & ssl.OP_NO_RENEGOTIATION
    assert context.verify_mode is ssl.CERT_NONE


def test_tls12_suites_are_ecdhe_with_aead_only(tmp_path: Path, certs: Certificates) -> None:
    suites = [
        suite
        for suite in server_context(tmp_path, certs.serving).get_ciphers()
        if suite["protocol"] == "TLSv1.2"
    ]
    assert sorted(suite["name"] for suite in suites) == sorted(serving_module.TLS12_CIPHERS.split(":"))
    assert all(suite["kea"] == "kx-ecdhe" and suite["aead"] for suite in suites)


def _legacy_client(certs: Certificates, *, version: ssl.TLSVersion, ciphers: str) -> ssl.SSLContext:
    # SECLEVEL=0 lets OpenSSL 3 offer old protocols and suites at all, so that a refusal comes from the
    # server and not from the client's own defaults.
    client = go_like_client(certs.ca)
    client.minimum_version = ssl.TLSVersion.MINIMUM_SUPPORTED
    client.maximum_version = version
    client.set_ciphers(ciphers + ":@SECLEVEL=0")
    return client


@pytest.mark.filterwarnings(r"ignore:ssl\.TLSVersion\.TLSv1(_1)? is deprecated:DeprecationWarning")
@pytest.mark.parametrize("version", [ssl.TLSVersion.TLSv1, ssl.TLSVersion.TLSv1_1])
def test_tls_before_1_2_is_refused(tmp_path: Path, certs: Certificates, version: ssl.TLSVersion) -> None:
    result = handshake(
        server_context(tmp_path, certs.serving), _legacy_client(certs, version=version, ciphers="ALL")
    )
    assert result.server_error is not None and result.server_error.reason == "UNSUPPORTED_PROTOCOL"
    assert result.client_error is not None and result.client_error.reason == "TLSV1_ALERT_PROTOCOL_VERSION"


def test_the_same_legacy_client_gets_through_once_it_allows_tls12(
    tmp_path: Path, certs: Certificates
) -> None:
    # the control for the test above: that client works, it is only the version the server refuses
    client = _legacy_client(certs, version=ssl.TLSVersion.TLSv1_2, ciphers="ALL")
    result = handshake(server_context(tmp_path, certs.serving), client)
    assert result.succeeded and result.client.version() == "TLSv1.2"


@pytest.mark.parametrize(
    "suite",
    [
        "ECDHE-RSA-AES128-SHA",  # CBC, not AEAD
        "ECDHE-RSA-AES256-SHA384",  # CBC, not AEAD
        "AES128-GCM-SHA256",  # static RSA key exchange, no forward secrecy
        "DHE-RSA-AES128-GCM-SHA256",  # finite-field DHE
    ],
)
def test_weak_tls12_suites_are_refused(tmp_path: Path, certs: Certificates, suite: str) -> None:
    client = _legacy_client(certs, version=ssl.TLSVersion.TLSv1_2, ciphers=suite)
    result = handshake(server_context(tmp_path, certs.serving_rsa), client)
    assert result.server_error is not None and result.server_error.reason == "NO_SHARED_CIPHER"


@pytest.mark.parametrize(
    ("serving", "suite"),
    [
        ("serving", "ECDHE-ECDSA-AES128-GCM-SHA256"),
        ("serving", "ECDHE-ECDSA-CHACHA20-POLY1305"),
        ("serving_rsa", "ECDHE-RSA-AES256-GCM-SHA384"),
        ("serving_rsa", "ECDHE-RSA-CHACHA20-POLY1305"),
    ],
)
def test_go_tls12_suites_are_accepted(tmp_path: Path, certs: Certificates, serving: str, suite: str) -> None:
    client = go_like_client(certs.ca)
    client.maximum_version = ssl.TLSVersion.TLSv1_2
    client.set_ciphers(suite)
    result = handshake(server_context(tmp_path, getattr(certs, serving)), client)
    assert result.succeeded and result.client.cipher()[0] == suite  # type: ignore[index]


def test_tls13_is_preferred(tmp_path: Path, certs: Certificates) -> None:
    result = handshake(server_context(tmp_path, certs.serving), go_like_client(certs.ca))
    assert result.succeeded and result.client.version() == "TLSv1.3"


@pytest.mark.parametrize(("offered", "selected"), [(["h2", "http/1.1"], "http/1.1"), (["h2"], None)])
def test_alpn_settles_on_http11_when_go_offers_h2(
    tmp_path: Path, certs: Certificates, offered: list[str], selected: str | None
) -> None:
    # kube-apiserver offers h2 first on loopback; without a common protocol the handshake still succeeds
    client = go_like_client(certs.ca)
    client.set_alpn_protocols(offered)
    result = handshake(server_context(tmp_path, certs.serving), client)
    assert result.succeeded and result.client.selected_alpn_protocol() == selected


# --------------------------------------------------------------------------------------------------
# mTLS


def test_mtls_accepts_a_client_certificate_from_the_client_ca(tmp_path: Path, certs: Certificates) -> None:
    context = server_context(tmp_path, certs.serving, client_ca=certs.ca)
    assert context.verify_mode is ssl.CERT_REQUIRED
    result = handshake(context, go_like_client(certs.ca, client=certs.client))
    assert result.succeeded
    assert serial_of(result.server.getpeercert(binary_form=True)) == certs.client.certificate.serial_number


@pytest.mark.parametrize(
    ("client", "reason"),
    [
        (None, "PEER_DID_NOT_RETURN_A_CERTIFICATE"),
        ("stranger", "CERTIFICATE_VERIFY_FAILED"),  # another CA
        ("serving", "CERTIFICATE_VERIFY_FAILED"),  # right CA, but extendedKeyUsage serverAuth only
    ],
)
@pytest.mark.parametrize("version", [ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3])
def test_mtls_refuses_a_missing_or_foreign_client_certificate(
    tmp_path: Path, certs: Certificates, client: str | None, reason: str, version: ssl.TLSVersion
) -> None:
    context = server_context(tmp_path, certs.serving, client_ca=certs.ca)
    client_context = go_like_client(certs.ca, client=getattr(certs, client) if client else None)
    client_context.maximum_version = version
    result = handshake(context, client_context)
    assert result.server_error is not None and result.server_error.reason == reason


def test_the_client_ca_must_be_a_ca(tmp_path: Path, certs: Certificates) -> None:
    with pytest.raises(CertificateError, match=r"client-ca\.crt \(CN=kube-apiserver\) is not a CA"):
        server_context(tmp_path, certs.serving, client_ca=certs.client)


async def test_mtls_at_the_request_level(tmp_path: Path, certs: Certificates) -> None:
    context = server_context(tmp_path, certs.serving, client_ca=certs.ca)
    async with https_server(context) as url, aiohttp.ClientSession() as session:
        async with session.get(url, ssl=go_like_client(certs.ca, client=certs.client)) as response:
            assert response.status == 200 and await response.text() == "ok"
        for anonymous in (go_like_client(certs.ca), go_like_client(certs.ca, client=certs.stranger)):
            with pytest.raises(aiohttp.ClientError):
                async with session.get(url, ssl=anonymous) as response:
                    await response.text()


# --------------------------------------------------------------------------------------------------
# Reload


class SecretVolume:
    """A directory laid out as kubelet's AtomicWriter lays out a mounted Secret: `tls.crt` ->
    `..data/tls.crt`, `..data` -> `..2024_05_01_10_00_00.<n>`; a new generation is written to a new
    directory, `..data_tmp` is pointed at it and renamed over `..data`, and the old one is removed."""

    def __init__(self, root: Path, files: Mapping[str, bytes]) -> None:
        self.root = root
        self.generation = 0
        root.mkdir(parents=True, exist_ok=True)
        self.publish(files)
        for name in files:
            (root / name).symlink_to(Path("..data") / name)

    @property
    def cert_file(self) -> Path:
        return self.root / "tls.crt"

    @property
    def key_file(self) -> Path:
        return self.root / "tls.key"

    def publish(self, files: Mapping[str, bytes]) -> None:
        old = self.root / os.readlink(self.root / "..data") if (self.root / "..data").is_symlink() else None
        self.generation += 1
        target = self.root / f"..2024_05_01_10_00_00.{self.generation:09d}"
        target.mkdir()
        for name, data in files.items():
            (target / name).write_bytes(data)
        (self.root / "..data_tmp").symlink_to(target.name)
        os.rename(self.root / "..data_tmp", self.root / "..data")
        if old is not None:
            shutil.rmtree(old)

    def publish_pair(self, issued: IssuedCertificate) -> None:
        self.publish({"tls.crt": issued.cert_pem, "tls.key": issued.key_pem})


def volume_with(tmp_path: Path, issued: IssuedCertificate) -> SecretVolume:
    return SecretVolume(tmp_path / "secret", {"tls.crt": issued.cert_pem, "tls.key": issued.key_pem})


def reloading_context(volume: SecretVolume) -> tuple[ssl.SSLContext, CertificateReloader]:
    context = tls.build_server_context(volume.cert_file, volume.key_file)
    return context, CertificateReloader(context, volume.cert_file, volume.key_file)


@contextlib.asynccontextmanager
async def https_server(context: ssl.SSLContext) -> AsyncIterator[str]:
    async def ok(request: web.Request) -> web.Response:
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_get("/", ok)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=context)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"https://localhost:{port}/"
    finally:
        await runner.cleanup()


class HttpsConnection:
    """One client connection speaking HTTP/1.1 with keep-alive, exposing the certificate it was served
    (aiohttp's client hides its transport once a response is read)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, url: str, client: ssl.SSLContext) -> HttpsConnection:
        port = int(url.rsplit(":", 1)[1].strip("/"))
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", port, ssl=client, server_hostname="localhost"
        )
        return cls(reader, writer)

    @property
    def served_serial(self) -> int:
        return serial_of(self.writer.get_extra_info("ssl_object").getpeercert(binary_form=True))

    async def get(self) -> tuple[int, bytes]:
        self.writer.write(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        await self.writer.drain()
        head = (await self.reader.readuntil(b"\r\n\r\n")).decode()
        status = int(head.split(" ", 2)[1])
        length = next(
            int(line.split(":", 1)[1])
            for line in head.split("\r\n")
            if line.lower().startswith("content-length:")
        )
        return status, await self.reader.readexactly(length)

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, ssl.SSLError):
            await self.writer.wait_closed()


async def served_serial(url: str, client: ssl.SSLContext) -> int:
    """The serial of the certificate a new connection is served."""
    connection = await HttpsConnection.open(url, client)
    try:
        return connection.served_serial
    finally:
        await connection.close()


def test_the_reloader_loads_what_is_on_disk_at_start(tmp_path: Path, certs: Certificates) -> None:
    volume = volume_with(tmp_path, certs.serving)
    _, reloader = reloading_context(volume)
    assert (reloader.reloads, reloader.reload_errors) == (0, 0)
    assert reloader.not_after == certs.serving.not_after
    assert reloader.reload_if_changed() is False


def test_the_reloader_refuses_to_start_on_a_broken_pair(tmp_path: Path, certs: Certificates) -> None:
    cert_file, key_file = write_pair(tmp_path, certs.serving)
    context = tls.build_server_context(cert_file, key_file)
    key_file.write_bytes(certs.serving_next.key_pem)
    with pytest.raises(CertificateError, match="does not match the certificate"):
        CertificateReloader(context, cert_file, key_file)


async def test_a_kubelet_symlink_swap_is_served_to_new_connections_without_dropping_open_ones(
    tmp_path: Path, certs: Certificates
) -> None:
    volume = volume_with(tmp_path, certs.serving)
    context, reloader = reloading_context(volume)
    client = go_like_client(certs.ca)
    async with https_server(context) as url:
        kept_alive = await HttpsConnection.open(url, client)  # opened before the swap
        assert await kept_alive.get() == (200, b"ok")
        assert kept_alive.served_serial == certs.serving.certificate.serial_number

        volume.publish_pair(certs.serving_next)
        assert reloader.reload_if_changed() is True

        assert reloader.context is context  # loaded into the same context, not a new one
        assert await served_serial(url, client) == certs.serving_next.certificate.serial_number
        assert (reloader.reloads, reloader.reload_errors) == (1, 0)
        assert reloader.not_after == certs.serving_next.not_after
        assert await kept_alive.get() == (200, b"ok")  # the open connection goes on with its pair
        assert kept_alive.served_serial == certs.serving.certificate.serial_number
        await kept_alive.close()
        assert reloader.reload_if_changed() is False


def test_a_swap_between_reading_the_certificate_and_the_key_is_read_again(
    tmp_path: Path, certs: Certificates, monkeypatch: pytest.MonkeyPatch
) -> None:
    # kubelet renames ..data and deletes the old generation right after the certificate was read: the
    # key read fails, the links have moved, so both files are read again from the new generation.
    volume = volume_with(tmp_path, certs.serving)
    _, reloader = reloading_context(volume)
    read_bytes = read_file
    swaps: list[Path] = []

    def read_then_swap(path: Path, what: str) -> bytes:
        data = read_bytes(path, what)
        if what == "certificate" and not swaps:
            swaps.append(path)
            volume.publish_pair(certs.serving_next)
        return data

    monkeypatch.setattr(serving_module, "read_file", read_then_swap)
    assert reloader.reload_if_changed() is True
    assert swaps and (reloader.reloads, reloader.reload_errors) == (1, 0)
    assert reloader.certificate == certs.serving_next.certificate


def test_load_cert_chain_into_a_used_context_keeps_an_old_certificate_of_another_key_type(
    tmp_path: Path, certs: Certificates
) -> None:
    # The CPython/OpenSSL fact behind CertificateReloader's design: an SSLContext holds one certificate
    # per key type. Loading a new pair of the same type replaces the old one for new handshakes, but
    # after loading an RSA pair over an ECDSA one the ECDSA certificate is still loaded, and chosen.
    context = server_context(tmp_path, certs.serving)
    tls.load_key_pair(
        context,
        tls.check_key_pair(
            certs.serving_next.cert_pem, certs.serving_next.key_pem, cert_file=tmp_path, key_file=tmp_path
        ),
    )
    served = handshake(context, go_like_client(certs.ca)).client.getpeercert(binary_form=True)
    assert serial_of(served) == certs.serving_next.certificate.serial_number
    tls.load_key_pair(
        context,
        tls.check_key_pair(
            certs.serving_rsa.cert_pem, certs.serving_rsa.key_pem, cert_file=tmp_path, key_file=tmp_path
        ),
    )
    for version in (ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3):
        client = go_like_client(certs.ca)
        client.maximum_version = version
        served = handshake(context, client).client.getpeercert(binary_form=True)
        assert serial_of(served) == certs.serving_next.certificate.serial_number  # not serving_rsa


@pytest.mark.parametrize(("first", "then"), [("serving", "serving_rsa"), ("serving_rsa", "serving")])
@pytest.mark.parametrize("version", [ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3])
def test_a_rotation_to_another_key_type_is_served(
    tmp_path: Path, certs: Certificates, first: str, then: str, version: ssl.TLSVersion
) -> None:
    volume = volume_with(tmp_path, getattr(certs, first))
    context, reloader = reloading_context(volume)
    volume.publish_pair(getattr(certs, then))
    assert reloader.reload_if_changed() is True
    client = go_like_client(certs.ca)
    client.maximum_version = version
    served = handshake(context, client).client.getpeercert(binary_form=True)
    assert serial_of(served) == getattr(certs, then).certificate.serial_number


@pytest.mark.parametrize(("host", "server_name"), [("localhost", "localhost"), ("127.0.0.1", None)])
def test_the_new_pair_is_served_with_and_without_sni(
    tmp_path: Path, certs: Certificates, host: str, server_name: str | None
) -> None:
    # kube-apiserver sends no SNI when the webhook URL names an IP address (a sidecar on 127.0.0.1)
    volume = volume_with(tmp_path, certs.serving)
    context, reloader = reloading_context(volume)
    volume.publish_pair(certs.serving_next)
    assert reloader.reload_if_changed() is True
    names: list[str | None] = []
    select = context.sni_callback
    assert select is not None

    def spy(connection: ssl.SSLObject, name: str | None, front: ssl.SSLContext) -> None:
        names.append(name)
        select(connection, name, front)  # type: ignore[arg-type]

    context.sni_callback = spy
    served = handshake(context, go_like_client(certs.ca), server_hostname=host).client.getpeercert(True)
    assert names == [server_name]
    assert serial_of(served) == certs.serving_next.certificate.serial_number


def test_mtls_holds_after_a_reload(tmp_path: Path, certs: Certificates) -> None:
    volume = volume_with(tmp_path, certs.serving)
    client_ca_file = tmp_path / "client-ca.crt"
    client_ca_file.write_bytes(certs.ca.cert_pem)
    context = tls.build_server_context(volume.cert_file, volume.key_file, client_ca_file=client_ca_file)
    reloader = CertificateReloader(context, volume.cert_file, volume.key_file)
    volume.publish_pair(certs.serving_rsa)
    assert reloader.reload_if_changed() is True

    accepted = handshake(context, go_like_client(certs.ca, client=certs.client))
    assert accepted.succeeded
    assert serial_of(accepted.client.getpeercert(True)) == certs.serving_rsa.certificate.serial_number
    for refused in (go_like_client(certs.ca), go_like_client(certs.ca, client=certs.stranger)):
        assert handshake(context, refused).server_error is not None


def test_the_same_content_under_a_new_inode_is_not_a_reload(tmp_path: Path, certs: Certificates) -> None:
    volume = volume_with(tmp_path, certs.serving)
    _, reloader = reloading_context(volume)
    inode = volume.cert_file.stat().st_ino
    volume.publish_pair(certs.serving)  # kubelet resyncs the same Secret into a new directory
    assert volume.cert_file.stat().st_ino != inode
    assert reloader.reload_if_changed() is False
    assert (reloader.reloads, reloader.reload_errors) == (0, 0)


def test_an_in_place_rewrite_is_seen_even_when_the_mtime_is_unchanged(
    tmp_path: Path, certs: Certificates
) -> None:
    cert_file, key_file = write_pair(tmp_path, certs.serving)
    context = tls.build_server_context(cert_file, key_file)
    reloader = CertificateReloader(context, cert_file, key_file)
    times = [(path.stat().st_atime_ns, path.stat().st_mtime_ns) for path in (cert_file, key_file)]
    write_pair(tmp_path, certs.serving_next)
    for path, (atime, mtime) in zip((cert_file, key_file), times, strict=True):
        os.utime(path, ns=(atime, mtime))
    assert reloader.reload_if_changed() is True
    assert reloader.certificate == certs.serving_next.certificate
    assert handshake(context, go_like_client(certs.ca)).client.getpeercert(binary_form=True) == (
        certs.serving_next.certificate.public_bytes(serialization.Encoding.DER)
    )


def _half(data: bytes) -> bytes:
    return data[: len(data) // 2]


Content = Callable[[Certificates], bytes]
BROKEN_PAIRS: dict[str, tuple[Content, Content, str]] = {
    # name: (what tls.crt holds, what tls.key holds, the reason logged)
    "half-written certificate": (
        lambda c: _half(c.serving_next.cert_pem),
        lambda c: c.serving_next.key_pem,
        "ends inside a PEM block (half-written?)",
    ),
    "half-written key": (
        lambda c: c.serving_next.cert_pem,
        lambda c: _half(c.serving_next.key_pem),
        "ends inside a PEM block (half-written?)",
    ),
    "empty certificate": (
        lambda c: b"",
        lambda c: c.serving_next.key_pem,
        "holds no PEM block (empty or half-written)",
    ),
    "mismatched key": (
        lambda c: c.serving_next.cert_pem,
        lambda c: c.serving.key_pem,
        "does not match the certificate in",
    ),
    "garbage certificate": (
        lambda c: b"-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n",
        lambda c: c.serving_next.key_pem,
        "holds no readable PEM certificate",
    ),
    "expired certificate": (
        lambda c: c.expired.cert_pem,
        lambda c: c.expired.key_pem,
        "expired at 2020-01-11T00:00:00+00:00",
    ),
}


@pytest.mark.parametrize("broken", list(BROKEN_PAIRS))
async def test_a_broken_pair_is_refused_and_the_old_pair_keeps_serving(
    tmp_path: Path, certs: Certificates, caplog: pytest.LogCaptureFixture, broken: str
) -> None:
    cert_content, key_content, reason = BROKEN_PAIRS[broken]
    volume = volume_with(tmp_path, certs.serving)
    context, reloader = reloading_context(volume)
    client = go_like_client(certs.ca)
    async with https_server(context) as url:
        volume.publish({"tls.crt": cert_content(certs), "tls.key": key_content(certs)})
        with caplog.at_level(logging.ERROR, logger="webhook.tls"):
            assert reloader.reload_if_changed() is False
            assert reloader.reload_if_changed() is False  # the same bad content is reported once
        assert (reloader.reloads, reloader.reload_errors) == (0, 1)
        [record] = caplog.records
        assert record.name == "webhook.tls" and record.levelno == logging.ERROR
        assert reason in record.getMessage() and "still serving" in record.getMessage()
        assert reloader.last_error is not None and reason in reloader.last_error
        assert reloader.not_after == certs.serving.not_after
        assert await served_serial(url, client) == certs.serving.certificate.serial_number

        volume.publish_pair(certs.serving_next)  # the writer finishes
        assert reloader.reload_if_changed() is True
        assert (reloader.reloads, reloader.reload_errors) == (1, 1)
        assert reloader.last_error is None
        assert await served_serial(url, client) == certs.serving_next.certificate.serial_number


@pytest.mark.parametrize("broken", [*BROKEN_PAIRS, "key removed"])
def test_the_same_break_after_a_restore_is_counted_and_logged_again(
    tmp_path: Path, certs: Certificates, caplog: pytest.LogCaptureFixture, broken: str
) -> None:
    """Break the files, restore them, break them the same way: each break is counted and
    logged, and the restore ends the refusal (no `last_error` left behind)."""
    volume = volume_with(tmp_path, certs.serving)
    context, reloader = reloading_context(volume)
    if broken == "key removed":  # the new generation lacks it: the link tls.key leads nowhere
        contents = {"tls.crt": certs.serving.cert_pem}
    else:
        cert_content, key_content, _ = BROKEN_PAIRS[broken]
        contents = {"tls.crt": cert_content(certs), "tls.key": key_content(certs)}
    with caplog.at_level(logging.ERROR, logger="webhook.tls"):
        volume.publish(contents)
        assert reloader.reload_if_changed() is False
        assert (reloader.reload_errors, reloader.last_error is not None) == (1, True)
        volume.publish_pair(certs.serving)  # restored: the pair in service
        assert reloader.reload_if_changed() is False
        assert (reloader.reloads, reloader.reload_errors, reloader.last_error) == (0, 1, None)
        volume.publish(contents)  # the same break again
        assert reloader.reload_if_changed() is False
        assert reloader.reload_if_changed() is False
    assert (reloader.reloads, reloader.reload_errors) == (0, 2)
    assert reloader.last_error is not None
    assert [
        record.getMessage().startswith("refusing the new certificate pair") for record in caplog.records
    ] == [
        True,
        True,
    ]
    assert handshake(context, go_like_client(certs.ca)).succeeded


def test_missing_files_are_refused_once(
    tmp_path: Path, certs: Certificates, caplog: pytest.LogCaptureFixture
) -> None:
    cert_file, key_file = write_pair(tmp_path, certs.serving)
    context = tls.build_server_context(cert_file, key_file)
    reloader = CertificateReloader(context, cert_file, key_file)
    key_file.unlink()
    with caplog.at_level(logging.ERROR, logger="webhook.tls"):
        assert reloader.reload_if_changed() is False
        assert reloader.reload_if_changed() is False
    assert reloader.reload_errors == 1
    assert f"cannot read private key {key_file}: No such file or directory" in caplog.text
    assert handshake(context, go_like_client(certs.ca)).succeeded


async def _watch_on_the_event_loop(reloader: CertificateReloader, *, interval_seconds: float) -> None:
    while True:
        await asyncio.sleep(interval_seconds)
        reloader.reload_if_changed()


async def _watch_in_worker_threads(reloader: CertificateReloader, *, interval_seconds: float) -> None:
    while True:  # what the server does: the file reads and the parsing stay off the event loop
        await asyncio.sleep(interval_seconds)
        await asyncio.to_thread(reloader.reload_if_changed)


@pytest.mark.parametrize("reloaded_in", ["the event loop", "worker threads"])
async def test_reloading_under_concurrent_requests_drops_nothing(
    tmp_path: Path, certs: Certificates, reloaded_in: str
) -> None:
    """Many clients, each request on a new connection (a new handshake), while another thread swaps
    the Secret kubelet-style between an ECDSA and an RSA pair and the reloader watches: every request
    succeeds and both pairs are served.

    Requests go on past the first 300 until both pairs were seen (for at most 20 s): the 12 clients
    tend to handshake in lockstep, and a batch can keep landing on the same pair for a while."""
    volume = volume_with(tmp_path, certs.serving)
    context, reloader = reloading_context(volume)
    client = go_like_client(certs.ca)
    serials = {certs.serving.certificate.serial_number, certs.serving_rsa.certificate.serial_number}
    seen: list[int] = []
    failures: list[BaseException] = []
    stop = threading.Event()
    swaps = 0

    def kubelet() -> None:
        nonlocal swaps
        pairs = [certs.serving_rsa, certs.serving]
        while not stop.wait(0.01):
            volume.publish_pair(pairs[swaps % 2])
            swaps += 1

    deadline = time.monotonic() + 20

    def more_requests() -> bool:
        return len(seen) < 300 or (set(seen) != serials and time.monotonic() < deadline)

    async def requester(url: str) -> None:
        while more_requests():
            try:
                connection = await HttpsConnection.open(url, client)  # a new handshake each time
                try:
                    seen.append(connection.served_serial)
                    assert await connection.get() == (200, b"ok")
                finally:
                    await connection.close()
            except Exception as err:  # every failure is collected and reported
                failures.append(err)

    async with https_server(context) as url:
        if reloaded_in == "the event loop":
            watcher = asyncio.create_task(_watch_on_the_event_loop(reloader, interval_seconds=0.005))
        else:
            watcher = asyncio.create_task(_watch_in_worker_threads(reloader, interval_seconds=0.005))
        swapper = asyncio.create_task(asyncio.to_thread(kubelet))
        try:
            await asyncio.gather(*(requester(url) for _ in range(12)))
        finally:
            stop.set()
            await swapper
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher

    assert failures == []
    assert len(seen) >= 300
    assert set(seen) == serials  # both pairs were served
    assert swaps >= 3 and reloader.reloads >= 2
    assert reloader.reload_errors == 0  # torn reads during the swaps were read again, not refused


def test_without_memfd_the_pair_is_loaded_through_a_private_temporary_file(
    tmp_path: Path, certs: Certificates, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delattr(os, "memfd_create")
    context = server_context(tmp_path, certs.serving)
    assert handshake(context, go_like_client(certs.ca)).succeeded


# --------------------------------------------------------------------------------------------------
# The `certs` command


def run_certs(tmp_path: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, str, str]:
    code = cli.main(
        ["certs", "--service", "dra-webhook", "--namespace", "dra-system", "--out", str(tmp_path), *flags]
    )
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_certs_writes_a_tls_secret_and_prints_the_ca_bundle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_certs(tmp_path, capsys, "--dns", "webhook.example.com", "--ip", "127.0.0.1")
    assert code == 0
    assert out == base64.b64encode((tmp_path / "ca.crt").read_bytes()).decode() + "\n"
    assert err.startswith(f"dra-webhook certs: wrote {tmp_path / 'tls.key'}, {tmp_path / 'tls.crt'}, ")
    pair = tls.read_key_pair(tmp_path / "tls.crt", tmp_path / "tls.key")
    names = _extension(pair.certificate, x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.DNSName) == [
        "dra-webhook",
        "dra-webhook.dra-system",
        "dra-webhook.dra-system.svc",
        "dra-webhook.dra-system.svc.cluster.local",
        "webhook.example.com",
    ]
    assert names.get_values_for_type(x509.IPAddress) == [ipaddress.ip_address("127.0.0.1")]
    assert isinstance(pair.certificate.public_key(), ec.EllipticCurvePublicKey)
    # what the API server does with the caBundle: verify the served certificate for <service>.<ns>.svc
    trusting = ssl.create_default_context(cadata=base64.b64decode(out).decode())
    trusting.hostname_checks_common_name = False
    context = tls.build_server_context(tmp_path / "tls.crt", tmp_path / "tls.key")
    assert handshake(context, trusting, server_hostname="dra-webhook.dra-system.svc").succeeded


def test_certs_without_service_and_namespace_issues_for_the_base_manifests_service(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["certs", "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    pair = tls.read_key_pair(tmp_path / "tls.crt", tmp_path / "tls.key")
    names = _extension(pair.certificate, x509.SubjectAlternativeName).value
    assert "dra-webhook.dra-webhook.svc" in names.get_values_for_type(x509.DNSName)


def test_certs_refuses_to_overwrite_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_certs(tmp_path, capsys)[0] == 0
    key = (tmp_path / "tls.key").read_bytes()
    code, out, err = run_certs(tmp_path, capsys)
    assert (code, out) == (1, "")
    assert err.startswith("dra-webhook certs: refusing to overwrite ") and err.endswith(
        "(pass --force to replace them)\n"
    )
    assert (tmp_path / "tls.key").read_bytes() == key
    assert run_certs(tmp_path, capsys, "--force")[0] == 0
    assert (tmp_path / "tls.key").read_bytes() != key


def test_certs_signs_with_a_given_ca_and_keeps_the_old_one_in_the_bundle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], certs: Certificates
) -> None:
    ca_cert, ca_key = write_pair(tmp_path / "new-ca", certs.ca)
    old_ca = tmp_path / "old-ca.crt"
    old_ca.write_bytes(certs.other_ca.cert_pem)
    out_dir = tmp_path / "out"
    code, out, _ = run_certs(
        out_dir,
        capsys,
        "--ca-cert",
        str(ca_cert),
        "--ca-key",
        str(ca_key),
        "--ca-bundle-with",
        str(old_ca),
        "--key-type",
        "rsa",
    )
    assert code == 0
    assert base64.b64decode(out) == certs.ca.cert_pem + certs.other_ca.cert_pem
    assert sorted(path.name for path in out_dir.iterdir()) == ["ca.crt", "tls.crt", "tls.key"]
    pair = tls.read_key_pair(out_dir / "tls.crt", out_dir / "tls.key")
    pair.certificate.verify_directly_issued_by(certs.ca.certificate)
    assert isinstance(pair.certificate.public_key(), rsa.RSAPublicKey)


def test_certs_issues_a_client_certificate_for_mtls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_certs(tmp_path, capsys, "--client-cert", "kube-apiserver")[0] == 0
    client = tls.read_key_pair(tmp_path / "client.crt", tmp_path / "client.key")
    assert client.certificate.subject.rfc4514_string() == "CN=kube-apiserver"
    context = tls.build_server_context(
        tmp_path / "tls.crt", tmp_path / "tls.key", client_ca_file=tmp_path / "ca.crt"
    )
    client_context = ssl.create_default_context(cafile=str(tmp_path / "ca.crt"))
    client_context.load_cert_chain(tmp_path / "client.crt", tmp_path / "client.key")
    assert handshake(context, client_context, server_hostname="dra-webhook.dra-system.svc").succeeded


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--ca-cert", "ca.crt"], "dra-webhook certs: --ca-cert and --ca-key go together\n"),
        (["--dns", "Not_A_Name"], "dra-webhook certs: invalid DNS name 'Not_A_Name': "),
        (["--ip", "localhost"], "dra-webhook certs: invalid IP address 'localhost'\n"),
        (["--days", "0"], "dra-webhook certs: validity must be at least 1 day, got 0\n"),
        (
            ["--ca-bundle-with", "/nonexistent/ca.crt"],
            "dra-webhook certs: cannot read CA bundle /nonexistent/ca.crt: ",
        ),
    ],
)
def test_certs_reports_unusable_flags_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], message: str
) -> None:
    code, out, err = run_certs(tmp_path / "out", capsys, *flags)
    assert (code, out) == (1, "")
    assert err.startswith(message)
    assert not (tmp_path / "out").exists()


def test_the_ca_rotation_of_the_readme_keeps_every_step_trusted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """certs/README.md "Rotating the CA": at each step the published caBundle verifies what is served."""
    service = ["--service", "dra-webhook", "--namespace", "dra-system"]
    host = "dra-webhook.dra-system.svc"

    def certs_command(*flags: str) -> str:
        assert cli.main(["certs", *service, *flags]) == 0
        return capsys.readouterr().out

    def verifies(bundle_base64: str, served: Path) -> bool:
        client = ssl.create_default_context(cadata=base64.b64decode(bundle_base64).decode())
        client.hostname_checks_common_name = False
        context = tls.build_server_context(served / "tls.crt", served / "tls.key")
        return handshake(context, client, server_hostname=host).succeeded

    current, following, final = tmp_path / "current", tmp_path / "next", tmp_path / "final"
    old_bundle = certs_command("--out", str(current))
    # 1. a new CA, the old one kept in the bundle
    both = certs_command("--out", str(following), "--ca-bundle-with", str(current / "ca.crt"))
    assert base64.b64decode(both).count(b"BEGIN CERTIFICATE") == 2
    # 2. the bundle is published while the old certificate is served; 3. then the new one is served
    assert verifies(both, current) and verifies(both, following)
    assert not verifies(old_bundle, following)  # why the bundle must be published first
    # 4. the old CA leaves: re-issued with the new CA alone
    new_only = certs_command(
        "--out", str(final), "--ca-cert", str(following / "ca.crt"), "--ca-key", str(following / "ca.key")
    )
    assert base64.b64decode(new_only).count(b"BEGIN CERTIFICATE") == 1
    assert verifies(new_only, following) and verifies(new_only, final)
    assert not verifies(new_only, current)
