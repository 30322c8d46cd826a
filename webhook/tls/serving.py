"""Serving TLS: the server's `ssl.SSLContext`, hardened like Go's crypto/tls server defaults, and the
serving pair read, checked and loaded from memory.

One context with TLS 1.2 as the floor, ECDHE with AEAD ciphers only for TLS 1.2, no compression, no
renegotiation, ALPN `http/1.1` and, when a client CA is given, client certificates required and
verified (mTLS). A pair is read so that a kubelet swap of the Secret's `..data` link between the two
reads is read again (`read_key_pair`), checked in memory (complete PEM, matching key, not expired)
and loaded into a context from memory, never from the watched files (`load_key_pair`).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import ssl
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from cryptography import x509
from cryptography.hazmat.primitives import serialization

from webhook.tls.pem import (
    CertificateError,
    parse_certificates,
    parse_private_key,
    read_file,
    require_ca,
    require_matching_key,
    utc,
)

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
    cert_pem, key_pem = read_consistent_pair(cert_file, key_file)
    return check_key_pair(cert_pem, key_pem, cert_file=cert_file, key_file=key_file, now=now)


def check_key_pair(
    cert_pem: bytes, key_pem: bytes, *, cert_file: Path, key_file: Path, now: dt.datetime | None = None
) -> KeyPair:
    """Check a pair held in memory (the file names are for the messages)."""
    chain = parse_certificates(cert_pem, cert_file)
    key = parse_private_key(key_pem, key_file)
    require_matching_key(chain[0], key, cert_file, key_file)
    if chain[0].not_valid_after_utc <= utc(now):
        raise CertificateError(
            f"the certificate in {cert_file} expired at {chain[0].not_valid_after_utc.isoformat()}"
        )
    return KeyPair(cert_pem, key_pem, chain[0])


def read_consistent_pair(cert_file: Path, key_file: Path) -> tuple[bytes, bytes]:
    # kubelet publishes a new generation directory, renames `..data` to point at it and deletes the old
    # one. Reading through the resolved paths and checking that they still resolve the same afterwards
    # gives both files from one generation; a read that failed because the links moved is retried.
    for attempt in range(1, _TORN_READ_RETRIES + 1):
        resolved = _resolve(cert_file, key_file)
        try:
            pair = (read_file(resolved[0], "certificate"), read_file(resolved[1], "private key"))
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
    context = hardened_context(client_cas)
    load_key_pair(context, read_key_pair(cert_file, key_file))
    return context


def hardened_context(client_cas: bytes | None) -> ssl.SSLContext:
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
    certificates = parse_certificates(read_file(client_ca_file, "client CA"), client_ca_file)
    for certificate in certificates:
        require_ca(certificate, client_ca_file)
    return b"".join(certificate.public_bytes(serialization.Encoding.DER) for certificate in certificates)


def client_cas_of(context: ssl.SSLContext) -> bytes | None:
    """The client CAs (DER) of a context built by build_server_context, read back from its trust
    store; None when it does not verify clients."""
    if context.verify_mode is ssl.CERT_NONE:
        return None
    return b"".join(context.get_ca_certs(binary_form=True))
