"""Reloading the serving pair while serving: kubelet updates a mounted Secret by writing a new hidden
directory and swapping the `..data` symlink to it; cert-manager and other writers may rewrite the
files in place. So the reloader compares the *content* of the resolved files, not the mtime of a
link, validates the new pair in memory (both PEM files complete, the key matches the certificate,
not expired) and only then puts it in service: loaded into a fresh context configured like the
server's, which the server's (unchanged) context hands every new handshake from its
`sni_callback`. Open connections keep the pair they started with and every new handshake gets the
new one; nothing is restarted and nothing is dropped. A refused pair is logged once and the old pair
keeps serving. (Why not `load_cert_chain` on the server's own context: see `CertificateReloader`.)
"""

from __future__ import annotations

import datetime as dt
import logging
import ssl
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from cryptography import x509

from webhook.tls.pem import CertificateError
from webhook.tls.serving import (
    KeyPair,
    check_key_pair,
    client_cas_of,
    hardened_context,
    load_key_pair,
    read_consistent_pair,
)
from webhook.watched import WatchedFiles

LOGGER: Final = logging.getLogger("webhook.tls")


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
        self._client_cas = client_cas_of(context)
        super().__init__()
        context.sni_callback = self._select_serving_context

    @property
    def not_after(self) -> dt.datetime:
        return self.value.pair.not_after

    @property
    def certificate(self) -> x509.Certificate:
        return self.value.pair.certificate

    def read(self) -> tuple[bytes, bytes]:
        return read_consistent_pair(self.cert_file, self.key_file)

    def build(self, contents: Sequence[bytes]) -> ServingPair:
        cert_pem, key_pem = contents
        pair = check_key_pair(cert_pem, key_pem, cert_file=self.cert_file, key_file=self.key_file)
        context = hardened_context(self._client_cas)
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
