"""The rules alone, without HTTP: reviews per second on one core, for every request of the mix.

    .venv/bin/python bench/rules.py [--mix v1|v1alpha2|all] [--seconds S] [--json PATH]

For each request (the load mix of bench/reviews.py, plus one of every kind written rarely) it times,
in this process and on one core:

* parse   -- `parse_review(bytes)`: orjson and the pydantic envelope;
* schema  -- the structural check of the object (and of the old one's changes on updates);
* judge   -- `Judge.judge(request)`: the structural check, the rules, the namespace policy, the verdict;
* answer  -- `orjson.dumps(review_response(...))`;
* total   -- parse + judge + answer: what one review costs the server beyond HTTP and TLS.

The same request timed again and again finds its objects in the cache (its parse especially); the
last line times the whole mix in its order, each body parsed afresh, as the server meets it.

Each figure is the best of five timed runs of about `S/5` seconds each, timed in CPU time of this
process (`time.process_time`): on a shared machine, time spent waiting for a core is not counted,
and the minimum is the figure least disturbed by the other processes. The last lines time a CEL
selector that was never seen (a compilation; every later review of the same selector is a cache
hit), so a slow rule is visible. A kind the registry does not (yet) validate is flagged: its
"judge" is only the unknown-kind answer. Not a unit test: numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.reviews import (
    DEFAULT_MIX,
    MIXES,
    MixEntry,
    claim_parameters_with_new_selector,
    mix,
    other_kinds,
    weighted_order,
)
from webhook.admission import Judge, Verdict, parse_review, review_response
from webhook.native import inspect_build
from webhook.rules.kinds import GroupVersionKind

RUNS = 5
NOT_VALIDATED = "is not validated by this webhook"
DEFAULT_JSON = Path(__file__).resolve().parent / "results" / "rules.json"


def best_seconds_per_call(call: Callable[[], object], seconds: float) -> float:
    """The best, over RUNS runs of about seconds/RUNS each, of the mean time of one call."""
    calls = 1
    while True:  # calibrate: enough calls for one run to take about seconds/RUNS
        start = time.process_time()
        for _ in range(calls):
            call()
        elapsed = time.process_time() - start
        if elapsed >= seconds / RUNS / 4 or calls >= 1 << 20:
            break
        calls *= 2
    calls = max(1, int(calls * (seconds / RUNS) / max(elapsed, 1e-9)))
    best = float("inf")
    for _ in range(RUNS):
        start = time.process_time()
        for _ in range(calls):
            call()
        best = min(best, (time.process_time() - start) / calls)
    return best


def measure(entry: MixEntry, judge: Judge, seconds: float) -> dict[str, Any]:
    review = parse_review(entry.body)
    request = review.request
    verdict = judge.judge(request)
    obj, old = request.object, request.old_object
    gvk = GroupVersionKind(request.kind.group, request.kind.version, request.kind.kind)

    def structural() -> None:
        assert judge.structural is not None
        judge.structural.check(gvk, obj)
        if old is not None:  # as Judge.judge_object: the old object too
            judge.structural.check(gvk, old)

    def answer(verdict: Verdict = verdict) -> bytes:
        return orjson.dumps(review_response(review, verdict))

    share = seconds / 4
    parse = best_seconds_per_call(lambda: parse_review(entry.body), share)
    schema = best_seconds_per_call(structural, share) if judge.structural is not None else 0.0
    judging = best_seconds_per_call(lambda: judge.judge(request), share)
    answering = best_seconds_per_call(answer, share)
    total = parse + judging + answering
    validated = not any(NOT_VALIDATED in warning for warning in verdict.warnings)
    return {
        "name": entry.name,
        "kind": entry.kind,
        "operation": request.operation + ("/" + request.sub_resource if request.sub_resource else ""),
        "bytes": len(entry.body),
        "expected_allowed": entry.allowed,
        "allowed": verdict.allowed,
        "validated": validated,
        "parse_us": parse * 1e6,
        "schema_us": schema * 1e6,
        "judge_us": judging * 1e6,
        "answer_us": answering * 1e6,
        "total_us": total * 1e6,
        "reviews_per_second": 1 / total,
    }


def measure_cold_selector(judge: Judge, seconds: float) -> dict[str, Any]:
    """A ResourceClaimParameters whose selector was never compiled: judge time of a cache miss."""
    serials = itertools.count(1_000_000)
    bodies = [claim_parameters_with_new_selector(next(serials)) for _ in range(200)]
    requests = [parse_review(body).request for body in bodies]
    deadline = time.process_time() + seconds
    times: list[float] = []
    for request in requests:
        start = time.process_time()
        judge.judge(request)
        times.append(time.process_time() - start)
        if time.process_time() > deadline:
            break
    times.sort()
    return {
        "name": "claim-parameters-create (new selector: CEL compile)",
        "samples": len(times),
        "judge_us_median": times[len(times) // 2] * 1e6,
        "judge_us_max": times[-1] * 1e6,
    }


def mix_round(judge: Judge, which: str = DEFAULT_MIX) -> tuple[Callable[[], None], int]:
    """One round of the mix `which` as the server sees it (each body parsed afresh, the requests in
    the mix's order, each answer serialised), and the number of reviews in it."""
    entries = mix(which)
    bodies = [entries[i].body for i in weighted_order(entries)]

    def one_round() -> None:
        for body in bodies:
            review = parse_review(body)
            orjson.dumps(review_response(review, judge.judge(review.request)))

    return one_round, len(bodies)


def one_request(judge: Judge, which: str, name: str) -> tuple[Callable[[], None], int]:
    """The request `name` of the mix `which` (or of the kinds outside it), parsed afresh, judged and
    answered: one review per call, as `mix_round` does for the whole mix."""
    body = next(entry.body for entry in [*mix(which), *other_kinds()] if entry.name == name)

    def once() -> None:
        review = parse_review(body)
        orjson.dumps(review_response(review, judge.judge(review.request)))

    return once, 1


def measure_interleaved(judge: Judge, seconds: float, which: str) -> dict[str, Any]:
    """The mix as the server sees it: each body parsed afresh, the requests in the mix's order."""
    one_round, reviews = mix_round(judge, which)
    per_round = best_seconds_per_call(one_round, seconds)
    return {"requests_per_round": reviews, "total_us": per_round / reviews * 1e6}


def print_table(rows: list[dict[str, Any]], cold: dict[str, Any]) -> None:
    header = (
        f"{'request':34} {'kind':24} {'operation':16} {'bytes':>6} {'parse':>7} {'schema':>7} "
        f"{'judge':>7} {'answer':>7} {'total':>7} {'reviews/s':>9}  verdict"
    )
    print(f"µs per review, one core; judge includes schema; rules {inspect_build().describe()}")
    print(header)
    print("-" * len(header))
    for row in rows:
        verdict = "allowed" if row["allowed"] else "denied"
        if row["allowed"] != row["expected_allowed"]:
            verdict += " (EXPECTED " + ("allowed" if row["expected_allowed"] else "denied") + ")"
        if not row["validated"]:
            verdict += " (KIND NOT REGISTERED: unknown-kind answer only)"
        print(
            f"{row['name']:34} {row['kind']:24} {row['operation']:16} {row['bytes']:6d} "
            f"{row['parse_us']:7.1f} {row['schema_us']:7.1f} {row['judge_us']:7.1f} "
            f"{row['answer_us']:7.1f} {row['total_us']:7.1f} {row['reviews_per_second']:9.0f}  {verdict}"
        )
    print()
    print("per kind (reviews/s per core, slowest request of the kind):")
    by_kind: dict[str, float] = {}
    for row in rows:
        by_kind[row["kind"]] = min(by_kind.get(row["kind"], float("inf")), row["reviews_per_second"])
    for kind, rate in sorted(by_kind.items(), key=lambda item: item[1]):
        print(f"  {kind:28} {rate:9.0f}")
    mix_rows = [row for row in rows if row["weight"]]
    weights = sum(row["weight"] for row in mix_rows)
    mean_us = sum(row["total_us"] * row["weight"] for row in mix_rows) / weights
    print(f"  {'load mix (weighted)':28} {1e6 / mean_us:9.0f}   ({mean_us:.1f} µs per review)")
    print()
    print(
        f"{cold['name']}: median {cold['judge_us_median'] / 1000:.2f} ms, "
        f"max {cold['judge_us_max'] / 1000:.2f} ms over {cold['samples']} selectors"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="time spent on each request")
    parser.add_argument(
        "--mix", choices=MIXES, default=DEFAULT_MIX, help=f"the load mix (bench/reviews.py); {DEFAULT_MIX}"
    )
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write the figures")
    args = parser.parse_args(argv)

    judge = Judge.build()
    rows = []
    for entry in mix(args.mix):
        rows.append({**measure(entry, judge, args.seconds), "weight": entry.weight})
    for entry in other_kinds():
        rows.append({**measure(entry, judge, args.seconds), "weight": 0})
    cold = measure_cold_selector(judge, args.seconds)
    interleaved = measure_interleaved(judge, args.seconds, args.mix)
    print_table(rows, cold)
    print(
        f"load mix {args.mix} interleaved, each body parsed afresh: "
        f"{interleaved['total_us']:.1f} µs per review "
        f"({1e6 / interleaved['total_us']:.0f} reviews/s per core)"
    )
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_bytes(
        orjson.dumps(
            {
                "python": sys.version.split()[0],
                "rules": inspect_build().describe(),
                "mix": args.mix,
                "requests": rows,
                "cold_selector": cold,
                "interleaved": interleaved,
            },
            option=orjson.OPT_INDENT_2,
        )
    )
    print(f"\nwritten to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
