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
import functools
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from webhook.settings import (
    DEFAULT_CERT_DIR,
    DEFAULT_CERT_RELOAD_INTERVAL_SECONDS,
    DEFAULT_CONFIG_RELOAD_INTERVAL_SECONDS,
    DEFAULT_GRACE_PERIOD_SECONDS,
    DEFAULT_HOST,
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_PORT,
    DEFAULT_SHUTDOWN_DELAY_SECONDS,
    ENV_PREFIX,
    ConnectionLimits,
    ListenAddress,
    PolicySettings,
    Settings,
    UnknownKindPolicy,
    available_cpus,
    env_name,
)

# Exit statuses of the commands' own checks (review and validate count theirs in offline.reports):
# 0 done, 2 an input or a flag or environment value that cannot be used (argparse's status for a usage
# error too).
EXIT_OK: Final = 0
EXIT_UNREADABLE: Final = 2

Runner = Callable[[argparse.Namespace], int]


# A command whose reader went away (`dra-webhook validate dir -v | head`) stops quietly with the
# status a shell reports for a process that SIGPIPE ended: 128 + 13.
EXIT_CLOSED_PIPE: Final = 128 + signal.SIGPIPE


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    runner: Runner = args.run
    try:
        return runner(args)
    except BrokenPipeError:
        return _closed_pipe()


def _closed_pipe() -> int:
    """stdout's reader is gone: nothing more can be said there, and Python's own flush at exit must
    not print a traceback about it either (stdout now writes to /dev/null)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor behind sys.stdout (a test's capture)
        pass
    finally:
        os.close(devnull)
    return EXIT_CLOSED_PIPE


def build_parser() -> argparse.ArgumentParser:
    from webhook.registry import REGISTRY

    judged = ", ".join(
        f"{api_version} as {release} does" for api_version, release in REGISTRY.version_table()
    )
    parser = argparse.ArgumentParser(
        prog="dra-webhook",
        description=f"Validating admission webhook for Kubernetes Dynamic Resource Allocation: it judges "
        f"{judged} (docs/versions.md).",
    )
    parser.add_argument("--version", action="version", version=version_text())
    subcommands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_serve(subcommands)
    _add_review(subcommands)
    _add_validate(subcommands)
    _add_manifests(subcommands)
    _add_certs(subcommands)
    return parser


def version_text() -> str:
    """``dra-webhook 0.1.0; rules: compiled with mypyc``: the version, and which build of the rules runs."""
    from importlib.metadata import PackageNotFoundError, version

    import webhook

    try:
        number = version("dra-webhook")
    except PackageNotFoundError:  # run from a source tree that was never installed
        number = "(not installed)"
    return f"dra-webhook {number}; rules: {webhook.BUILD.describe()}"


# --- serve ------------------------------------------------------------------------------------------


def _add_serve(subcommands: Any) -> None:
    serve = subcommands.add_parser(
        "serve",
        help="serve the webhook over HTTPS",
        description="Serve POST /validate over HTTPS, GET /healthz and GET /readyz; with "
        "--metrics-address, GET /metrics over plain HTTP. Every flag can also be set by the environment "
        f"variable named after it in brackets (e.g. {ENV_PREFIX}PORT=9443); a flag given on the command "
        "line wins. The policy switches can also come from a YAML file (--config), re-read when it "
        "changes. docs/operations.md describes metrics, logs, workers, shutdown and the file.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    listen = serve.add_argument_group("listening")
    _env_option(listen, "--host", DEFAULT_HOST, "address to listen on")
    _env_option(listen, "--port", str(DEFAULT_PORT), "port", type=_port)
    _env_option(
        listen,
        "--workers",
        str(available_cpus()),
        "worker processes sharing the port (SO_REUSEPORT), supervised and replaced when they die; "
        "the default is one per available CPU; 1 serves in this process",
        type=_positive_int,
        metavar="N",
    )
    _env_option(
        listen,
        "--metrics-address",
        None,
        "serve Prometheus metrics at http://HOST:PORT/metrics (plain HTTP; [::1]:9090 for IPv6, :9090 for "
        "every interface); off when not given",
        type=_listen_address,
        metavar="HOST:PORT",
    )
    _env_option(
        listen,
        "--max-body-bytes",
        str(DEFAULT_MAX_BODY_BYTES),
        "largest request body accepted (413 beyond it)",
        type=_positive_int,
    )

    tls = serve.add_argument_group("TLS")
    _env_option(
        tls,
        "--cert-dir",
        str(DEFAULT_CERT_DIR),
        "directory with tls.crt and tls.key (a mounted TLS Secret); development certificates "
        "(ca.crt, tls.crt, tls.key) are generated here when it holds none",
        type=Path,
    )
    _env_switch(
        tls,
        "--no-generate-certs",
        "fail instead of generating development certificates when --cert-dir holds none",
    )
    _env_option(
        tls,
        "--client-ca",
        None,
        "require client certificates signed by this CA (mTLS: only the apiserver may call)",
        type=Path,
    )
    _env_option(
        tls,
        "--cert-reload-interval",
        str(DEFAULT_CERT_RELOAD_INTERVAL_SECONDS),
        "seconds between checks of the certificate files for a rotation",
        type=_positive_float,
        metavar="SECONDS",
    )

    clients = serve.add_argument_group(
        "client limits", "bounds on slow and abusive clients (docs/robustness.md); kube-apiserver meets none"
    )
    limits = ConnectionLimits()
    _env_option(
        clients,
        "--header-timeout",
        str(limits.header_timeout_seconds),
        "seconds a connection may take to send a complete request head (slowloris)",
        type=_positive_float,
        metavar="SECONDS",
    )
    _env_option(
        clients,
        "--body-timeout",
        str(limits.body_timeout_seconds),
        "seconds from a complete head to a complete body (408 beyond it)",
        type=_positive_float,
        metavar="SECONDS",
    )
    _env_option(
        clients,
        "--idle-timeout",
        str(limits.idle_timeout_seconds),
        "seconds a kept-alive connection may wait for its next request (longer than kube-apiserver's 90)",
        type=_positive_float,
        metavar="SECONDS",
    )
    _env_option(
        clients,
        "--write-timeout",
        str(limits.write_timeout_seconds),
        "seconds an answer may stay blocked by a client that does not read it",
        type=_positive_float,
        metavar="SECONDS",
    )
    _env_option(
        clients,
        "--max-connections",
        str(limits.max_connections),
        "open connections per worker; past it the longest-idle connection is closed to make room",
        type=_positive_int,
        metavar="N",
    )

    shutdown = serve.add_argument_group("shutdown")
    _env_option(
        shutdown,
        "--grace-period",
        str(DEFAULT_GRACE_PERIOD_SECONDS),
        "seconds in-flight reviews get to finish after SIGTERM",
        type=_non_negative_float,
        metavar="SECONDS",
    )
    _env_option(
        shutdown,
        "--shutdown-delay",
        str(DEFAULT_SHUTDOWN_DELAY_SECONDS),
        "seconds between SIGTERM (readiness turns false) and closing the listener, so that endpoints "
        "drop the pod before connections are refused",
        type=_non_negative_float,
        metavar="SECONDS",
    )

    logs = serve.add_argument_group("logging")
    _env_option(
        logs, "--log-level", "info", "lowest level logged", type=_one_of(*LOG_LEVELS), choices=LOG_LEVELS
    )
    _env_option(
        logs,
        "--log-format",
        "auto",
        "json: one JSON object per line; text: for people; auto: text on a terminal, else json",
        type=_one_of(*LOG_FORMATS),
        choices=LOG_FORMATS,
    )
    _env_switch(
        logs, "--access-log", "also log one line per HTTP request (denials and errors are always logged)"
    )

    policy = serve.add_argument_group("policy")
    _add_policy_flags(policy)
    _env_option(
        policy,
        "--config-reload-interval",
        str(DEFAULT_CONFIG_RELOAD_INTERVAL_SECONDS),
        "seconds between checks of the --config file for a change",
        type=_positive_float,
        metavar="SECONDS",
    )
    serve.set_defaults(run=_run_serve)


def _add_policy_flags(parser: Any) -> None:
    """The policy switches: flags of serve, review and validate (same judgement everywhere)."""
    kinds = [policy.value for policy in UnknownKindPolicy]
    _env_option(
        parser,
        "--unknown-kind",
        UnknownKindPolicy.ALLOW.value,
        "answer for kinds this webhook does not validate: allow (with a warning) or deny",
        type=_one_of(*kinds),
        choices=kinds,
    )
    _env_switch(
        parser,
        "--no-namespace-rules",
        "turn off the webhook's own namespace rules for parametersRef (README.md, What it checks)",
    )
    _env_option(
        parser,
        "--config",
        None,
        "YAML file of policy switches (unknownKind, namespaceRules, enforcement per kind); what it sets "
        "overrides the flags; serve re-reads it when it changes and keeps the old one if it is broken",
        type=Path,
        metavar="FILE",
    )


def _flag_policy(args: argparse.Namespace) -> PolicySettings:
    """The policy the flags (and their environment variables) say, without the --config file."""
    return PolicySettings(
        namespace_rules=not args.no_namespace_rules,
        unknown_kind=UnknownKindPolicy(args.unknown_kind),
    )


def _policy_from(args: argparse.Namespace) -> PolicySettings:
    """The policy of the flags with the --config file applied (for the offline commands; serve
    applies and watches the file itself)."""
    policy = _flag_policy(args)
    if args.config is None:
        return policy
    from webhook.config import ConfigError, load_config
    from webhook.registry import REGISTRY

    try:
        return load_config(args.config, base=policy, known_kinds=set(REGISTRY))
    except ConfigError as error:
        print(f"dra-webhook: {error}", file=sys.stderr)
        raise SystemExit(EXIT_UNREADABLE) from None


def _run_serve(args: argparse.Namespace) -> int:
    from webhook.logs import configure_logging, resolve_log_format
    from webhook.workers import run

    log_format = resolve_log_format(args.log_format)
    configure_logging(level=args.log_level, log_format=log_format)
    settings = Settings(
        host=args.host,
        port=args.port,
        cert_dir=args.cert_dir,
        client_ca_file=args.client_ca,
        generate_dev_certs=not args.no_generate_certs,
        max_body_bytes=args.max_body_bytes,
        grace_period_seconds=args.grace_period,
        cert_reload_interval_seconds=args.cert_reload_interval,
        policy=_flag_policy(args),
        workers=args.workers,
        metrics_address=args.metrics_address,
        log_format=log_format,
        log_level=args.log_level,
        access_log=args.access_log,
        config_file=args.config,
        config_reload_interval_seconds=args.config_reload_interval,
        shutdown_delay_seconds=args.shutdown_delay,
        limits=ConnectionLimits(
            header_timeout_seconds=args.header_timeout,
            body_timeout_seconds=args.body_timeout,
            idle_timeout_seconds=args.idle_timeout,
            write_timeout_seconds=args.write_timeout,
            max_connections=args.max_connections,
        ),
    )
    return run(settings)


# --- flags from the environment ---------------------------------------------------------------------

LOG_LEVELS: Final = ("debug", "info", "warning", "error")
LOG_FORMATS: Final = ("auto", "json", "text")
_TRUE_WORDS: Final = ("1", "true", "yes", "on")
_FALSE_WORDS: Final = ("", "0", "false", "no", "off")


def _env_option(parser: Any, flag: str, default: str | None, help: str, **options: Any) -> None:
    """A flag whose default is its environment variable, else `default`. Both are strings that argparse
    converts and checks with `type` (a bad environment value is a usage error, as a bad flag is)."""
    env = env_name(flag)
    parser.add_argument(flag, default=os.environ.get(env) or default, help=f"{help} [{env}]", **options)


def _env_switch(parser: Any, flag: str, help: str) -> None:
    """An on/off flag; its environment variable takes 1/true/yes/on or 0/false/no/off."""
    env = env_name(flag)
    raw = os.environ.get(env, "")
    if raw.lower() not in (*_TRUE_WORDS, *_FALSE_WORDS):
        print(f"dra-webhook: {env}={raw!r}: expected true or false", file=sys.stderr)
        raise SystemExit(EXIT_UNREADABLE)  # the status of a usage error
    parser.add_argument(flag, action="store_true", default=raw.lower() in _TRUE_WORDS, help=f"{help} [{env}]")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: must be at least 1")
    return value


def _port(text: str) -> int:
    value = _positive_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"{text!r}: a port is at most 65535")
    return value


def _non_negative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: must be zero or more")
    return value


def _positive_float(text: str) -> float:
    value = _non_negative_float(text)
    if value == 0:
        raise argparse.ArgumentTypeError(f"{text!r}: must be more than zero")
    return value


def _listen_address(text: str) -> ListenAddress:
    try:
        return ListenAddress.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _one_of(*choices: str) -> Callable[[str], str]:
    """A `type` that checks a value against `choices` (argparse checks `choices` only on the command
    line, not on a default taken from the environment)."""

    def choice(text: str) -> str:
        if text.lower() not in choices:
            raise argparse.ArgumentTypeError(f"{text!r}: choose from {', '.join(choices)}")
        return text.lower()

    return choice


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
    _add_color_flag(review)
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
        style=_style(args.color),
    )
    exit_code = run_review(
        run,
        out=sys.stdout,
        err=sys.stderr,
        read_stdin=functools.partial(_read_stdin, "AdmissionReviews or review suites"),
        progress=_progress_stream(),
    )
    sys.stdout.flush()
    return exit_code


# --- validate ---------------------------------------------------------------------------------------


def _add_validate(subcommands: Any) -> None:
    validate = subcommands.add_parser(
        "validate",
        help="validate manifests offline, as CREATE or as UPDATE against --old objects",
        description="Judge every resource.k8s.io object of YAML or JSON manifests (files, "
        "directories, or - for stdin; multi-document; Lists expanded) as kubectl, the API server and "
        "this webhook would. A resource.k8s.io kind or apiVersion that no Kubernetes release from 1.27 "
        "to 1.37 serves fails as kubectl fails it (no matches for kind); a served kind the webhook does "
        "not validate fails unless --ignore-missing-schemas; unknown and duplicate fields fail as "
        "kubectl's default --validate=strict fails them. Objects of other groups, documents that are "
        "no Kubernetes objects and templates without resource.k8s.io are skipped and counted. Exit 0: "
        "all valid; 1: any invalid or not validated; 2: unreadable input (docs/offline.md).",
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
        "--validate",
        dest="field_validation",
        type=_field_validation,
        default="strict",
        metavar="MODE",
        help="kubectl's --validate: strict (or true, the default): unknown and duplicate fields fail "
        "the object as the API server's strict decoding fails it; warn: they are warnings; ignore (or "
        "false): they are dropped",
    )
    validate.add_argument(
        "--strict",
        dest="field_validation",
        action="store_const",
        const="strict",
        help="the same as --validate=strict (kubeconform's -strict), the default",
    )
    validate.add_argument(
        "--ignore-missing-schemas",
        action="store_true",
        help="skip resource.k8s.io objects of served kinds this webhook does not validate instead of "
        "failing them (kubeconform's -ignore-missing-schemas)",
    )
    validate.add_argument(
        "--skip-kinds",
        action="append",
        default=[],
        metavar="LIST",
        help="comma-separated kinds (DeviceTaintRule) or apiVersion/kind "
        "(resource.k8s.io/v1alpha3/DeviceTaintRule) to skip (kubeconform's -skip; repeatable)",
    )
    validate.add_argument(
        "--include",
        action="append",
        default=[],
        metavar="GLOB",
        help="read only the files of a directory walk that match (instead of *.yaml, *.yml, *.json; "
        "repeatable); matched against the path and every trailing part of it",
    )
    validate.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="leave out matching files and directories, walked or named (e.g. 'charts/*/templates', "
        "'*.values.yaml'; repeatable)",
    )
    validate.add_argument(
        "--kubernetes-version",
        metavar="X.Y",
        type=_kubernetes_release,
        help="judge as a cluster of this release would: an apiVersion it does not serve is invalid "
        "(default: each apiVersion as the release its rules are exact to)",
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
    _add_color_flag(validate)
    _add_policy_flags(validate)
    validate.set_defaults(run=_run_validate)


def _field_validation(text: str) -> str:
    """kubectl's --validate values: strict (true), warn, ignore (false)."""
    value = {"true": "strict", "false": "ignore"}.get(text.lower(), text.lower())
    if value not in ("strict", "warn", "ignore"):
        raise argparse.ArgumentTypeError(
            f"{text!r}: must be one of strict (or true), warn, ignore (or false)"
        )
    return value


def _run_validate(args: argparse.Namespace) -> int:
    from webhook.offline import PathFilter, ValidateOptions, ValidateRun, run_validate

    run = ValidateRun(
        inputs=tuple(args.paths),
        old=tuple(args.old),
        options=ValidateOptions(
            policy=_policy_from(args),
            subresource=args.subresource,
            namespace=args.namespace,
            field_validation=args.field_validation,
            ignore_missing_schemas=args.ignore_missing_schemas,
            skip_kinds=frozenset(
                kind.strip() for kinds in args.skip_kinds for kind in kinds.split(",") if kind.strip()
            ),
            kubernetes_version=args.kubernetes_version or "",
        ),
        output=args.output,
        summary=args.summary,
        verbose=args.verbose,
        jobs=_jobs(args.jobs),
        paths=PathFilter(include=tuple(args.include), exclude=tuple(args.exclude)),
        style=_style(args.color),
    )
    exit_code = run_validate(
        run,
        out=sys.stdout,
        err=sys.stderr,
        read_stdin=functools.partial(_read_stdin, "Kubernetes manifests"),
        progress=_progress_stream(),
    )
    sys.stdout.flush()
    return exit_code


def _kubernetes_release(text: str) -> str:
    """`--kubernetes-version`: a release webhook/eras.py knows ("1.31", "v1.31.4" -> "1.31")."""
    from webhook.eras import parse_release

    try:
        return parse_release(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


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


def _add_color_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--color",
        choices=["auto", "always", "never"],
        default="auto",
        help="the pretty text form (marks and colour): auto: on a terminal, unless NO_COLOR is set "
        "(FORCE_COLOR turns it on)",
    )


def _style(color: str) -> Any:
    from webhook.offline.reports import style_for

    return style_for(color, terminal=sys.stdout.isatty(), environ=os.environ)


def _read_stdin(what: str) -> bytes:
    """stdin, read once; on a terminal, first a word on stderr of what is awaited there."""
    if sys.stdin.isatty():
        print(
            f"dra-webhook: reading {what} from stdin; end with Ctrl-D (or give files or directories as "
            "arguments, see --help)",
            file=sys.stderr,
        )
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
    manifests.add_argument(
        "--kubernetes-version",
        metavar="X.Y",
        help="the cluster's Kubernetes release: the webhook configuration of its era (the kinds it serves, "
        "each in the apiVersion the webhook judges it in); default: the newest era, as manifests/base",
    )
    manifests.set_defaults(run=_run_manifests)


def _run_manifests(args: argparse.Namespace) -> int:
    from webhook import eras
    from webhook.manifests import read_ca_bundle, release_notes, render_objects, render_yaml

    try:
        release = (
            eras.parse_release(args.kubernetes_version) if args.kubernetes_version else eras.NEWEST_RELEASE
        )
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
    for note in release_notes(release) if args.kubernetes_version else ():
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
    return EXIT_OK


# --- shared -----------------------------------------------------------------------------------------


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


if __name__ == "__main__":
    sys.exit(main())
