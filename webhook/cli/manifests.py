"""`dra-webhook manifests`: print the Kubernetes objects that deploy the webhook, caBundle filled in."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from webhook.cli.command import EXIT_OK, EXIT_UNREADABLE, kubernetes_release


def add(subcommands: Any) -> None:
    from webhook.manifests import DEFAULT_IMAGE, DEFAULT_NAMESPACE, DEFAULT_SERVICE

    manifests = subcommands.add_parser(
        "manifests",
        help="print the Kubernetes objects that deploy the webhook (multi-document YAML)",
        description="Print the objects of manifests/base for a namespace, with the caBundle filled in, "
        "for clusters without kustomize or cert-manager: kubectl apply -f - reads them. The TLS Secret "
        "dra-webhook-tls is not printed; create it from the files of `dra-webhook certs`.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    manifests.add_argument(
        "--namespace", default=DEFAULT_NAMESPACE, help="namespace of the webhook's Service and pods"
    )
    manifests.add_argument("--service", default=DEFAULT_SERVICE, help="name of the webhook's Service")
    manifests.add_argument(
        "--ca-bundle",
        type=Path,
        help="PEM (or the printed base64) of the CA that signed the serving certificate, e.g. certs/ca.crt",
    )
    manifests.add_argument("--image", default=DEFAULT_IMAGE, help="container image of the webhook")
    manifests.add_argument(
        "--kubernetes-version",
        metavar="X.Y",
        type=kubernetes_release,
        help="the cluster's Kubernetes release: the webhook configuration of its era (the kinds it serves, "
        "each in the apiVersion the webhook judges it in); default: the newest era, as manifests/base",
    )
    manifests.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from webhook import eras
    from webhook.manifests import read_ca_bundle, release_notes, render_objects, render_yaml

    release = args.kubernetes_version if args.kubernetes_version is not None else eras.NEWEST_RELEASE
    try:
        era = eras.era_of(release)
    except ValueError as error:
        print(f"dra-webhook manifests: --kubernetes-version: {error}", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        ca_bundle = read_ca_bundle(args.ca_bundle) if args.ca_bundle is not None else None
        objects = render_objects(
            namespace=args.namespace, service=args.service, image=args.image, ca_bundle=ca_bundle, era=era
        )
    except OSError as error:
        print(f"{args.ca_bundle}: cannot read: {error.strerror or error}", file=sys.stderr)
        return EXIT_UNREADABLE
    except ValueError as error:
        print(f"dra-webhook manifests: {error}", file=sys.stderr)
        return EXIT_UNREADABLE
    for note in release_notes(release) if args.kubernetes_version is not None else ():
        print(f"dra-webhook manifests: {note}", file=sys.stderr)
    if ca_bundle is None:
        print(
            "dra-webhook manifests: no --ca-bundle: the webhook configuration carries no caBundle, so the "
            "API server trusts only its own roots; add one before applying (docs/deploy.md)",
            file=sys.stderr,
        )
    sys.stdout.write(render_yaml(objects))
    sys.stdout.flush()
    return EXIT_OK
