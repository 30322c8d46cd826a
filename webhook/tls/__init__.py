"""TLS for the webhook: issuing certificates, the files of a TLS Secret, serving, and reloading live.

Each part is usable without the others, one module each:

* `webhook.tls.issue`: a CA and leaf certificates made with `cryptography` (`issue_ca`,
  `issue_serving_certificate`, `issue_client_certificate`), or the CA an operator brings (`load_ca`);
* `webhook.tls.files`: written in the layout of a Kubernetes TLS Secret (`tls.crt`, `tls.key`,
  `ca.crt`): the `certs` command (`issue_webhook_certificates`) and the development pair
  (`ensure_development_certificates`);
* `webhook.tls.bundle`: the CA bundle a client trusts, through a CA rotation;
* `webhook.tls.serving`: the server's hardened `ssl.SSLContext` (`build_server_context`) and the
  serving pair read and checked in memory;
* `webhook.tls.reload`: the pair put in service again when its files change (`CertificateReloader`);
* `webhook.tls.pem`: reading PEM files, and `CertificateError`, the one error of them all.

This package exports what the rest of the webhook uses; logs are written as ``webhook.tls``.
"""

from __future__ import annotations

from webhook.tls.files import IssuedFiles, ensure_development_certificates, issue_webhook_certificates
from webhook.tls.issue import (
    DEFAULT_CA_DAYS,
    DEFAULT_SERVING_DAYS,
    KEY_TYPES,
    IssuedCertificate,
    KeyType,
    issue_ca,
    issue_client_certificate,
    issue_serving_certificate,
    load_ca,
    service_dns_names,
)
from webhook.tls.pem import CertificateError
from webhook.tls.reload import CertificateReloader
from webhook.tls.serving import KeyPair, build_server_context, check_key_pair, load_key_pair, read_key_pair

__all__ = [
    "DEFAULT_CA_DAYS",
    "DEFAULT_SERVING_DAYS",
    "KEY_TYPES",
    "CertificateError",
    "CertificateReloader",
    "IssuedCertificate",
    "IssuedFiles",
    "KeyPair",
    "KeyType",
    "build_server_context",
    "check_key_pair",
    "ensure_development_certificates",
    "issue_ca",
    "issue_client_certificate",
    "issue_serving_certificate",
    "issue_webhook_certificates",
    "load_ca",
    "load_key_pair",
    "read_key_pair",
    "service_dns_names",
]
