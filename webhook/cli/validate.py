"""`dra-webhook validate`: validate manifests offline, as CREATE or as UPDATE against --old objects."""

from __future__ import annotations

import argparse
import functools
import sys
from typing import Any

from webhook.cli.command import kubernetes_release
from webhook.cli.flags import OFFLINE, add_setting_flags, policy_from
from webhook.cli.terminal import (
    add_color_flag,
    add_offline_run_flags,
    process_count,
    progress_stream,
    read_stdin,
    style,
)


def add(subcommands: Any) -> None:
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
        type=kubernetes_release,
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
    add_offline_run_flags(validate)
    add_color_flag(validate)
    add_setting_flags(validate, OFFLINE, grouped=False)
    validate.set_defaults(run=run)


def _field_validation(text: str) -> str:
    """kubectl's --validate values: strict (true), warn, ignore (false)."""
    value = {"true": "strict", "false": "ignore"}.get(text.lower(), text.lower())
    if value not in ("strict", "warn", "ignore"):
        raise argparse.ArgumentTypeError(
            f"{text!r}: must be one of strict (or true), warn, ignore (or false)"
        )
    return value


def run(args: argparse.Namespace) -> int:
    from webhook.offline import PathFilter, ValidateOptions, ValidateRun, run_validate

    run = ValidateRun(
        inputs=tuple(args.paths),
        old=tuple(args.old),
        options=ValidateOptions(
            policy=policy_from(args),
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
        jobs=process_count(args.jobs),
        paths=PathFilter(include=tuple(args.include), exclude=tuple(args.exclude)),
        style=style(args.color),
    )
    exit_code = run_validate(
        run,
        out=sys.stdout,
        err=sys.stderr,
        read_stdin=functools.partial(read_stdin, "Kubernetes manifests"),
        progress=progress_stream(),
    )
    sys.stdout.flush()
    return exit_code
