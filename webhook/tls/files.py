"""The files of a Kubernetes TLS Secret (`tls.crt`, `tls.key`, `ca.crt`): writing them safely, the
`certs` command's whole job (`issue_webhook_certificates`) and the development pair `serve` makes
when it has none (`ensure_development_certificates`)."""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from webhook.tls.bundle import CABundle, build_ca_bundle, read_ca_bundle_files
from webhook.tls.issue import (
    DEFAULT_SERVING_DAYS,
    IssuedCertificate,
    KeyType,
    issue_ca,
    issue_client_certificate,
    issue_serving_certificate,
    load_ca,
    service_dns_names,
    split_hosts,
)
from webhook.tls.pem import CertificateError, PrivateKey, private_key_pem

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

DEVELOPMENT_CA_COMMON_NAME: Final = "dra-webhook development CA"
# The loopback addresses a development certificate always names, so that a client reaching
# "localhost" over IPv6 verifies too.
DEVELOPMENT_LOOPBACK_ADDRESSES: Final = ("::1",)


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
