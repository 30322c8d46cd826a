"""`dra-webhook validate`: every object of the inputs judged, reported, and the exit code."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, TextIO

from webhook.admission import DRA_GROUP, Judge
from webhook.field import go_quote
from webhook.offline.inputs import MANIFEST_SUFFIXES, PathFilter, expand_paths, read_stdin_once
from webhook.offline.manifest_judge import ManifestJudge, ObjectResult, ValidateOptions
from webhook.offline.old_objects import ObjectKey, OldObjects, load_old_objects
from webhook.offline.progress import Progress
from webhook.offline.reports import EXIT_UNREADABLE, PLAIN, Case, Line, Style, Tally, counted, make_report
from webhook.offline.workers import judge_in_order


@dataclass(frozen=True, slots=True)
class ValidateRun:
    """`dra-webhook validate`, as its flags asked for it."""

    inputs: tuple[str, ...]
    old: tuple[str, ...] = ()
    options: ValidateOptions = field(default_factory=ValidateOptions)
    output: str = "text"
    summary: bool = False
    verbose: bool = False
    jobs: int = 1
    paths: PathFilter = field(default_factory=lambda: PathFilter())  # --include / --exclude
    style: Style = PLAIN  # the text form: plain, or pretty on a terminal


def run_validate(
    run: ValidateRun,
    *,
    out: TextIO,
    err: TextIO,
    read_stdin: Callable[[], bytes],
    progress: TextIO | None = None,
) -> int:
    """Judge every object of the inputs; write the report to `out`; return the exit code."""
    judge = Judge.build(run.options.policy)
    old, old_problems = load_old_objects(
        run.old, judge=judge, read_stdin=read_stdin, request_namespace=run.options.namespace
    )
    for problem in old_problems:
        err.write(f"{problem} (in --old)\n")
    if old_problems:
        return EXIT_UNREADABLE
    if run.options.subresource and not run.old:
        err.write(
            f"--subresource {run.options.subresource} judges updates: give the old objects with --old\n"
        )
        return EXIT_UNREADABLE
    paths = expand_paths(run.inputs, MANIFEST_SUFFIXES, run.paths)
    tasks = read_stdin_once(paths, read_stdin)
    manifest_judge = ManifestJudge(judge, run.options, old)
    report = make_report(run.output, out, summary=run.summary, title="dra-webhook validate", style=run.style)
    tally = Tally()
    given: set[ObjectKey] = set()  # of the objects judged, skipped or not validated
    meter = Progress(progress, total_files=len(tasks), noun="objects")
    try:
        for results in judge_in_order(
            manifest_judge,
            tasks,
            jobs=run.jobs,
            build_worker_judge=functools.partial(ManifestJudge.build, run.options, old),
        ):
            tally.files += 1
            for result in results:
                tally.add(result.status)
                if old.by_key and result.kind and result.name:
                    key = old.key_of_given(
                        result.api_version, result.kind, result.namespace, result.name, judge.registry
                    )
                    given.add(key)
            lines = [line for result in results for line in _object_lines(result, verbose=run.verbose)]
            if lines:
                meter.clear()  # no result is ever written after a progress line on the same terminal
            report.add(
                [_object_case(result) for result in results], [result.as_json() for result in results], lines
            )
            meter.advance(len(results))
    finally:
        meter.finish()
    _warn_of_old_objects_not_given(old, given, err)
    summary_line = validate_summary_line(tally)
    report.finish(_validate_summary(tally), summary_line)
    if run.summary and run.output != "text":
        err.write(summary_line + "\n")
    return tally.exit_code


def _warn_of_old_objects_not_given(old: OldObjects, given: set[ObjectKey], err: TextIO) -> None:
    """An old object that no object given matches leaves the object it was meant for judged as a
    CREATE: say so, without failing the run (an old file may hold more than one run needs). An object
    given but not judged (skipped, not validated) says why in its own result."""
    for api_version, (_, kind, namespace, name) in old.not_given(given):
        who = f"{namespace}/{name}" if namespace else name
        err.write(f"--old: {api_version} {kind} {who} matches no object given: ")
        err.write("nothing was judged as an update of it\n")


def _validate_summary(tally: Tally) -> dict[str, int]:
    return {
        "files": tally.files,
        "objects": tally.objects,
        "valid": tally.valid,
        "invalid": tally.invalid,
        "notValidated": tally.not_validated,
        "skipped": tally.skipped,
        "errors": tally.errors,
    }


def validate_summary_line(tally: Tally) -> str:
    return (
        f"Summary: {counted(tally.objects, 'object')} in {counted(tally.files, 'file')}: "
        f"{tally.valid} valid, {tally.invalid} invalid, {tally.not_validated} not validated, "
        f"{tally.skipped} skipped, {counted(tally.errors, 'error')}"
    )


def _object_lines(result: ObjectResult, *, verbose: bool) -> list[Line]:
    """The text lines of one result: always its failure or error, with -v its verdict otherwise, and
    its warnings, each naming the file and the object."""
    lines = []
    status = result.status
    if status == "invalid" and result.kind and result.message.startswith(result.kind + "."):
        lines.append(Line("fail", f"{result.source}: {result.message}{_judged_as(result)}{_hint(result)}"))
    elif status in ("invalid", "not-validated") and not result.kind:
        lines.append(Line("fail", f"{result.location}: {result.message}{_hint(result)}"))
    elif status in ("invalid", "not-validated"):
        lines.append(
            Line(
                "fail",
                f"{result.source}: {_object_prefix(result)}{result.message}"
                f"{_judged_as(result)}{_hint(result)}",
            )
        )
    elif status == "error":
        lines.append(Line("fail", f"{result.location}: {_object_prefix(result)}{result.message}"))
    elif verbose and status == "valid":
        lines.append(
            Line(
                "ok",
                f"{result.source}: {result.kind}.{DRA_GROUP} {go_quote(result.name)} is valid"
                f"{_judged_as(result)}",
            )
        )
    elif verbose and result.kind:
        lines.append(Line("skip", f"{result.source}: {result.title} skipped: {result.message}"))
    elif verbose:
        lines.append(Line("skip", f"{result.location}: skipped: {result.message}"))
    lines.extend(
        Line("warn", f"{result.source}: {result.title}: Warning: {warning}") for warning in result.warnings
    )
    return lines


def _hint(result: ObjectResult) -> str:
    return f" ({result.hint})" if result.hint else ""


def _judged_as(result: ObjectResult) -> str:
    """`` (resource.k8s.io/v1alpha2, judged as Kubernetes 1.30)``: after the verdict on a judged object,
    its apiVersion and the release whose rules and messages it was judged by."""
    return f" ({result.api_version}, judged as {result.release})" if result.release is not None else ""


def _object_prefix(result: ObjectResult) -> str:
    return f"{result.title}: " if result.kind else ""


def _object_case(result: ObjectResult) -> Case:
    name = result.title if result.kind else f"line {result.line}" if result.line else "input"
    outcome: Literal["pass", "fail", "skip", "error"] = {
        "valid": "pass",
        "invalid": "fail",
        "not-validated": "fail",
        "skipped": "skip",
        "error": "error",
    }[result.status]  # type: ignore[assignment]
    details = tuple(f"{cause['field']}: {cause['message']}" for cause in result.causes)
    if result.status == "error":
        details = (f"{result.location}: {result.message}",)
    return Case(result.source, name, outcome, result.message, details)
