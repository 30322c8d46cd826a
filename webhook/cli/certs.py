"""`dra-webhook certs`: issue a CA and a serving certificate as a TLS Secret's files, print the caBundle."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Final

from webhook.cli.command import EXIT_OK
from webhook.settings import DEFAULT_CERT_DIR


def add(subcommands: Any) -> None:
    from webhook import tls
    from webhook.manifests import DEFAULT_NAMESPACE, DEFAULT_SERVICE

    certs = subcommands.add_parser(
        "certs",
        help="issue a CA and a serving certificate for the webhook's Service; print the caBundle",
        description="Write tls.crt, tls.key and ca.crt (the files of a Kubernetes TLS Secret; ca.key too "
        "when the CA is made here) for <service>, <service>.<ns>, <service>.<ns>.svc and "
        "<service>.<ns>.svc.cluster.local plus --dns/--ip, and print the base64 caBundle for the "
        "ValidatingWebhookConfiguration on stdout. Existing files are never overwritten without --force. "
        "CA rotation: certs/README.md.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    certs.add_argument("--service", default=DEFAULT_SERVICE, help="name of the webhook's Service")
    certs.add_argument("--namespace", default=DEFAULT_NAMESPACE, help="namespace of the webhook's Service")
    certs.add_argument("--out", type=Path, default=DEFAULT_CERT_DIR, help="directory to write the files to")
    certs.add_argument(
        "--dns", action="append", default=[], metavar="NAME", help="another DNS name (repeatable)"
    )
    certs.add_argument(
        "--ip", action="append", default=[], metavar="ADDR", help="an IP address, e.g. 127.0.0.1 (repeatable)"
    )
    certs.add_argument(
        "--days", type=int, default=tls.DEFAULT_SERVING_DAYS, help="validity of the serving certificate"
    )
    certs.add_argument("--ca-cert", type=Path, help="sign with this CA instead of making one (with --ca-key)")
    certs.add_argument("--ca-key", type=Path, help="the private key of --ca-cert; it is not copied to --out")
    certs.add_argument(
        "--ca-bundle-with",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help="CA certificates to keep trusting next to the signing CA in ca.crt and the caBundle, "
        "e.g. the old ca.crt during a CA rotation (repeatable; expired CAs are dropped)",
    )
    certs.add_argument("--key-type", choices=tls.KEY_TYPES, default="ecdsa", help="ECDSA P-256 or RSA 2048")
    certs.add_argument(
        "--client-cert",
        metavar="NAME",
        help="also issue client.crt/client.key with this common name, for --client-ca (mTLS)",
    )
    certs.add_argument("--force", action="store_true", help="replace existing files")
    certs.set_defaults(run=run)


# certs: the certificates could not be issued or written (a bad flag value, a file in the way).
EXIT_CERTS_FAILED: Final = 1


def run(args: argparse.Namespace) -> int:
    from webhook import tls

    try:
        issued = tls.issue_webhook_certificates(
            args.out,
            service=args.service,
            namespace=args.namespace,
            dns_names=args.dns,
            ip_addresses=args.ip,
            days=args.days,
            key_type=args.key_type,
            ca_cert_file=args.ca_cert,
            ca_key_file=args.ca_key,
            ca_bundle_with=args.ca_bundle_with,
            client_common_name=args.client_cert,
            force=args.force,
        )
    except (tls.CertificateError, FileExistsError) as error:
        print(f"dra-webhook certs: {error}", file=sys.stderr)
        return EXIT_CERTS_FAILED
    except OSError as error:
        print(f"dra-webhook certs: {error.filename}: {error.strerror or error}", file=sys.stderr)
        return EXIT_CERTS_FAILED
    for dropped in issued.ca_bundle.dropped_expired:
        print(
            f"dra-webhook certs: left out the expired CA {dropped.subject.rfc4514_string()} "
            f"(expired {dropped.not_valid_after_utc.isoformat()})",
            file=sys.stderr,
        )
    print(
        f"dra-webhook certs: wrote {', '.join(str(path) for path in issued.files)}; the serving "
        f"certificate is valid until {issued.serving.not_after.isoformat()}; the caBundle "
        f"({_count(len(issued.ca_bundle.certificates), 'CA')}) follows on stdout",
        file=sys.stderr,
    )
    print(issued.ca_bundle.base64)
    return EXIT_OK


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
