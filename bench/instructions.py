"""Instructions per review of the load mix, counted by callgrind: a figure that does not move with
the neighbours' load, unlike timings on a shared machine (repeatable to a few hundred instructions
here, with address-space randomisation off for the counted runs by `setarch`, util-linux).

    .venv/bin/python bench/instructions.py [--rounds 20] [--mix v1|v1alpha2|all] [--only NAME]
    DRA_WEBHOOK_PURE_PYTHON=1 .venv/bin/python bench/instructions.py   # the same, rules in pure Python

Each review is what the server does with a body beyond HTTP and TLS: `parse_review` (orjson and the
envelope), `Judge.judge` (structural check, rules, namespace policy, verdict) and the
answer's `orjson.dumps`, over the mix of bench/reviews.py in its interleaved order, with the garbage
collector set as the server sets it (`settle_collector`: start-up frozen out of its sight, the
young generation's threshold raised). This script runs itself twice under `valgrind --tool=callgrind`
(valgrind is a Debian package), after the same imports and warm-up, once with no measured rounds and
once with `--rounds`, and divides the difference by the number of reviews: start-up and warm-up cancel
out.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.reviews import DEFAULT_MIX, MIXES  # noqa: E402

COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def run_rounds(rounds: int, which: str, only: str | None) -> int:
    """Warm up, then judge the mix `rounds` times; returns the number of reviews in one round. With
    `only`, the round is that one request of the mix."""
    from bench.rules import mix_round, one_request
    from webhook.admission import Judge
    from webhook.server.process import settle_collector

    judge = Judge.build()
    one_round, reviews = one_request(judge, which, only) if only else mix_round(judge, which)
    settle_collector()  # as the server does once it has started
    for _ in range(3 + rounds):
        one_round()
    return reviews


def count_instructions(valgrind: str, rounds: int, which: str, only: str | None) -> int:
    # Without address-space randomisation: with it, each run's start-up (imports, the first CEL
    # compiles) differs by several million instructions from the next one's, whatever else is equal.
    setarch = shutil.which("setarch")
    fixed_addresses = [setarch, "--addr-no-randomize"] if setarch is not None else []
    callgrind = [*fixed_addresses, valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    selection = ["--mix", which, *(["--only", only] if only else [])]
    completed = subprocess.run(
        [*callgrind, sys.executable, __file__, "--child", str(rounds), *selection],
        capture_output=True,
        text=True,
        check=True,
    )
    found = COLLECTED.search(completed.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no instruction count:\n{completed.stderr[-2000:]}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=20, help="measured rounds of the mix (default 20)")
    parser.add_argument("--mix", choices=MIXES, default=DEFAULT_MIX, help=f"the load mix; {DEFAULT_MIX}")
    parser.add_argument("--only", metavar="NAME", help="one request of the mix (bench/reviews.py's name)")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        run_rounds(args.child, args.mix, args.only)
        return 0
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    import webhook

    reviews = run_rounds(0, args.mix, args.only)
    baseline = count_instructions(valgrind, 0, args.mix, args.only)
    measured = count_instructions(valgrind, args.rounds, args.mix, args.only)
    per_review = (measured - baseline) / (args.rounds * reviews)
    build = webhook.BUILD.describe()
    what = f"{args.only} of mix {args.mix}" if args.only else f"mix {args.mix}"
    print(
        f"{per_review:,.0f} instructions per review of {what} "
        f"({args.rounds} rounds of {reviews}; rules {build})"
    )
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")  # the same dict and set layouts in both runs
    sys.exit(main())
