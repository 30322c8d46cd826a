"""The command line: flags and environment become `Settings`, and each subcommand runs one thing.

    dra-webhook serve      serve HTTPS (development certificates generated on first run)
    dra-webhook review     judge AdmissionReviews offline: print the answers or check expectations
    dra-webhook validate   validate manifests offline (CREATE, or UPDATE against --old objects)
    dra-webhook manifests  print the Kubernetes objects that deploy the webhook, caBundle filled in
    dra-webhook certs      issue a CA and a serving certificate as a TLS Secret's files, print the caBundle

Each subcommand is one `_add_<name>` function that declares its flags and sets its runner. Every
flag of `serve` can also be set by a `DRA_WEBHOOK_<FLAG>` environment variable.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from webhook.settings import (
    DEFAULT_CERT_DIR,
    DEFAULT_GRACE_PERIOD_SECONDS,
    DEFAULT_HOST,
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_PORT,
    ENV_PREFIX,
    PolicySettings,
    Settings,
    UnknownKindPolicy,
    env_default,
)

EXIT_ALLOWED: Final = 0
EXIT_DENIED: Final = 1
EXIT_UNREADABLE: Final = 2

Runner = Callable[[argparse.Namespace], int]


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    runner: Runner = args.run
    return runner(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dra-webhook",
        description="Validating admission webhook for Kubernetes resource.k8s.io/v1alpha2 (DRA), "
        "exact to kube-apiserver 1.30.",
    )
    subcommands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_serve(subcommands)
    _add_review(subcommands)
    _add_validate(subcommands)
    _add_manifests(subcommands)
    _add_certs(subcommands)
    return parser


# --- serve ------------------------------------------------------------------------------------------


def _add_serve(subcommands: Any) -> None:
    serve = subcommands.add_parser(
        "serve",
        help="serve the webhook over HTTPS",
        description="Serve POST /validate over HTTPS. Every flag can also be set by the environment "
        f"variable {ENV_PREFIX}<FLAG> (e.g. {ENV_PREFIX}PORT=9443).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    serve.add_argument("--host", default=env_default("host", DEFAULT_HOST), help="address to listen on")
    serve.add_argument(
        "--port", type=int, default=int(env_default("port", str(DEFAULT_PORT)) or DEFAULT_PORT), help="port"
    )
    serve.add_argument(
        "--cert-dir",
        type=Path,
        default=Path(env_default("cert_dir", str(DEFAULT_CERT_DIR)) or DEFAULT_CERT_DIR),
        help="directory with tls.crt and tls.key (a mounted TLS Secret); development certificates "
        "(ca.crt, tls.crt, tls.key) are generated here when it holds none",
    )
    serve.add_argument(
        "--no-generate-certs",
        action="store_true",
        default=_env_flag("no_generate_certs"),
        help="fail instead of generating development certificates when --cert-dir holds none",
    )
    serve.add_argument(
        "--client-ca",
        type=Path,
        default=_env_path("client_ca"),
        help="require client certificates signed by this CA (mTLS: only the apiserver may call)",
    )
    serve.add_argument(
        "--max-body-bytes",
        type=int,
        default=int(env_default("max_body_bytes", str(DEFAULT_MAX_BODY_BYTES)) or DEFAULT_MAX_BODY_BYTES),
        help="largest request body accepted (413 beyond it)",
    )
    serve.add_argument(
        "--grace-period",
        type=float,
        default=float(env_default("grace_period", str(DEFAULT_GRACE_PERIOD_SECONDS)) or 10),
        help="seconds in-flight reviews get to finish after SIGTERM",
    )
    _add_policy_flags(serve)
    serve.add_argument(
        "--log-level", default=env_default("log_level", "info"), help="debug, info, warning, error"
    )
    serve.set_defaults(run=_run_serve)


def _add_policy_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--unknown-kind",
        choices=[policy.value for policy in UnknownKindPolicy],
        default=env_default("unknown_kind", UnknownKindPolicy.ALLOW.value),
        help="answer for kinds this webhook does not validate: allow (with a warning) or deny",
    )
    parser.add_argument(
        "--no-namespace-rules",
        action="store_true",
        default=_env_flag("no_namespace_rules"),
        help="turn off the webhook's own namespace rules for parametersRef (SPEC Part C)",
    )


def _policy_from(args: argparse.Namespace) -> PolicySettings:
    return PolicySettings(
        namespace_rules=not args.no_namespace_rules,
        unknown_kind=UnknownKindPolicy(args.unknown_kind),
    )


def _run_serve(args: argparse.Namespace) -> int:
    from webhook.server import serve

    _configure_logging(args.log_level)
    settings = Settings(
        host=args.host,
        port=args.port,
        cert_dir=args.cert_dir,
        client_ca_file=args.client_ca,
        generate_dev_certs=not args.no_generate_certs,
        max_body_bytes=args.max_body_bytes,
        grace_period_seconds=args.grace_period,
        policy=_policy_from(args),
    )
    serve(settings)
    return 0


# --- review -----------------------------------------------------------------------------------------


def _add_review(subcommands: Any) -> None:
    review = subcommands.add_parser(
        "review",
        help="judge AdmissionReviews offline: print the answers, or check them against expectations",
        description="Read AdmissionReviews (JSON, JSON lines or YAML; files, directories, or - for "
        "stdin) and print the answer of each, as the server would give it. Review suites "
        "(YAML with tests:) and --expect files hold the expected verdicts (docs/offline.md). "
        "Exit 0: all allowed or all expectations met; 1: any denied without an expectation, or any "
        "expectation unmet; 2: unreadable input.",
    )
    review.add_argument(
        "files",
        nargs="*",
        default=["-"],
        metavar="PATH",
        help="AdmissionReview files, review suites or directories of them; - is stdin",
    )
    review.add_argument(
        "--expect",
        action="append",
        default=[],
        metavar="FILE",
        help="expectations for the reviews, matched by file name or uid (repeatable)",
    )
    review.add_argument(
        "-o",
        "--output",
        choices=["answers", "text", "json", "junit", "tap"],
        default=None,
        help="answers: the AdmissionReview answers (the default without expectations); text: one "
        "line per review (the default with expectations or suites); json, junit, tap: reports",
    )
    review.add_argument("--compact", action="store_true", help="one answer per line instead of indented JSON")
    _add_offline_run_flags(review)
    _add_policy_flags(review)
    review.set_defaults(run=_run_review)


def _run_review(args: argparse.Namespace) -> int:
    from webhook.offline import ReviewRun, run_review

    run = ReviewRun(
        inputs=tuple(args.files),
        expect=tuple(args.expect),
        policy=_policy_from(args),
        output=args.output,
        compact=args.compact,
        summary=args.summary,
        jobs=_jobs(args.jobs),
    )
    exit_code = run_review(
        run, out=sys.stdout, err=sys.stderr, read_stdin=_read_stdin, progress=_progress_stream()
    )
    sys.stdout.flush()
    return exit_code


# --- validate ---------------------------------------------------------------------------------------


def _add_validate(subcommands: Any) -> None:
    validate = subcommands.add_parser(
        "validate",
        help="validate manifests offline, as CREATE or as UPDATE against --old objects",
        description="Judge every resource.k8s.io object of YAML or JSON manifests (files, "
        "directories, or - for stdin; multi-document; Lists expanded) as the API server and this "
        "webhook would. Objects of other groups are skipped. Exit 0: all valid; 1: any invalid; "
        "2: unreadable input.",
    )
    validate.add_argument(
        "paths", nargs="+", metavar="PATH", help="manifest files or directories; - is stdin"
    )
    validate.add_argument(
        "--old",
        action="append",
        default=[],
        metavar="FILE",
        help="old versions of the objects: an object matching one by group, kind, namespace and name "
        "is judged as an UPDATE of it (repeatable)",
    )
    validate.add_argument(
        "--subresource",
        choices=["status"],
        default="",
        help="judge the updates as updates of this subresource (needs --old)",
    )
    validate.add_argument(
        "--strict", action="store_true", help="objects this webhook does not validate are failures"
    )
    validate.add_argument(
        "-n",
        "--namespace",
        default="default",
        help="the namespace of namespaced objects that name none, as kubectl's -n",
    )
    validate.add_argument(
        "-o", "--output", choices=["text", "json", "junit", "tap"], default="text", help="report format"
    )
    validate.add_argument(
        "-v", "--verbose", action="store_true", help="text output: also list valid and skipped objects"
    )
    _add_offline_run_flags(validate)
    _add_policy_flags(validate)
    validate.set_defaults(run=_run_validate)


def _run_validate(args: argparse.Namespace) -> int:
    from webhook.offline import ValidateOptions, ValidateRun, run_validate

    run = ValidateRun(
        inputs=tuple(args.paths),
        old=tuple(args.old),
        options=ValidateOptions(
            policy=_policy_from(args),
            subresource=args.subresource,
            strict=args.strict,
            namespace=args.namespace,
        ),
        output=args.output,
        summary=args.summary,
        verbose=args.verbose,
        jobs=_jobs(args.jobs),
    )
    exit_code = run_validate(
        run, out=sys.stdout, err=sys.stderr, read_stdin=_read_stdin, progress=_progress_stream()
    )
    sys.stdout.flush()
    return exit_code


def _add_offline_run_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--summary", action="store_true", help="end with a summary line")
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="judge files in N processes (0: one per CPU); results stay in input order",
    )


def _jobs(jobs: int) -> int:
    return jobs if jobs > 0 else os.cpu_count() or 1


def _read_stdin() -> bytes:
    return sys.stdin.buffer.read()


def _progress_stream() -> Any:
    """A progress line goes to stderr only when it is a terminal."""
    return sys.stderr if sys.stderr.isatty() else None


# --- manifests --------------------------------------------------------------------------------------


def _add_manifests(subcommands: Any) -> None:
    from webhook.manifests import DEFAULT_IMAGE, DEFAULT_SERVICE

    manifests = subcommands.add_parser(
        "manifests",
        help="print the Kubernetes objects that deploy the webhook (multi-document YAML)",
        description="Print the objects of manifests/base for a namespace, with the caBundle filled in, "
        "for clusters without kustomize or cert-manager: kubectl apply -f - reads them. The TLS Secret "
        "dra-webhook-tls is not printed; create it from the files of `dra-webhook certs`.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    manifests.add_argument("--namespace", required=True, help="namespace of the webhook's Service and pods")
    manifests.add_argument("--service", default=DEFAULT_SERVICE, help="name of the webhook's Service")
    manifests.add_argument(
        "--ca-bundle",
        type=Path,
        help="PEM (or the printed base64) of the CA that signed the serving certificate, e.g. certs/ca.crt",
    )
    manifests.add_argument("--image", default=DEFAULT_IMAGE, help="container image of the webhook")
    manifests.set_defaults(run=_run_manifests)


def _run_manifests(args: argparse.Namespace) -> int:
    from webhook.manifests import read_ca_bundle, render_objects, render_yaml

    try:
        ca_bundle = read_ca_bundle(args.ca_bundle) if args.ca_bundle is not None else None
        objects = render_objects(
            namespace=args.namespace, service=args.service, image=args.image, ca_bundle=ca_bundle
        )
    except OSError as error:
        print(f"{args.ca_bundle}: cannot read: {error.strerror or error}", file=sys.stderr)
        return EXIT_UNREADABLE
    except ValueError as error:
        print(f"dra-webhook manifests: {error}", file=sys.stderr)
        return EXIT_UNREADABLE
    if ca_bundle is None:
        print(
            "dra-webhook manifests: no --ca-bundle: the webhook configuration carries no caBundle, so the "
            "API server trusts only its own roots; add one before applying (docs/deploy.md)",
            file=sys.stderr,
        )
    sys.stdout.write(render_yaml(objects))
    sys.stdout.flush()
    return EXIT_ALLOWED


# --- certs ------------------------------------------------------------------------------------------


def _add_certs(subcommands: Any) -> None:
    from webhook import tls

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
    certs.add_argument("--service", required=True, help="name of the webhook's Service")
    certs.add_argument("--namespace", required=True, help="namespace of the webhook's Service")
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
    certs.set_defaults(run=_run_certs)


# certs: the certificates could not be issued or written (a bad flag value, a file in the way).
EXIT_CERTS_FAILED: Final = 1


def _run_certs(args: argparse.Namespace) -> int:
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
    return EXIT_ALLOWED


# --- shared -----------------------------------------------------------------------------------------


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _env_flag(name: str) -> bool:
    return (env_default(name, "") or "").lower() in ("1", "true", "yes", "on")


def _env_path(name: str) -> Path | None:
    value = env_default(name)
    return Path(value) if value else None


def _configure_logging(level: str) -> None:
    logging.basicConfig(level=level.upper(), format="%(asctime)s %(levelname)s %(name)s %(message)s")


if __name__ == "__main__":
    sys.exit(main())
