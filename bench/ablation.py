"""Where a worker's time goes: the webhook's CPU per review with its parts switched off one by one.

    .venv/bin/python bench/ablation.py [--seconds 5] [--repeat 3]

One worker (`--workers 1`), 8 connections, the load mix, on 127.0.0.1. Each variant is the real
`dra-webhook serve` started through this file, which first replaces some functions of the running
process (a benchmark-only experiment: the answers of the switched-off variants are NOT the
webhook's):

* full          -- nothing switched off;
* no-structural-check -- the judge built without the structural check
                   (`PolicySettings.structural_check=False`): the rules judge the objects as sent;
* no-judge      -- `Judge.judge` answers "allowed" at once (no structural check, rules, denials, and
                   so no decision log lines);
* ...-no-guard  -- and the connection guard (head/write deadlines, connection limit) is not installed;
* ...-no-timeout -- and no body-read deadline (`asyncio.timeout` around reading the body);
* ...-no-metrics -- and no Prometheus observations;
* echo          -- bench/echo.py, the ceiling of the stack.

The difference between two rows is what the switched-off part costs per review (each row after
no-structural-check switches off what the row before it did, and more). CPU time per review
is read from /proc (server process only); each variant runs `--repeat` times and the run other
processes disturbed least is kept.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import ssl
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))

from bench.load import (  # noqa: E402
    HOST,
    Generator,
    Load,
    Server,
    find_or_install_wrk,
    free_port,
    run_load,
    wait_until_ready,
    write_bodies,
)
from bench.reviews import mix  # noqa: E402
from webhook.tls import ensure_development_certificates  # noqa: E402

VARIANTS: dict[str, tuple[str, ...]] = {
    "full": (),
    "no-structural-check": ("structural",),
    "no-judge": ("judge",),
    "no-judge-no-guard": ("judge", "guard"),
    "no-judge-no-guard-no-timeout": ("judge", "guard", "timeout"),
    "no-judge-no-guard-no-timeout-no-metrics": ("judge", "guard", "timeout", "metrics"),
}
OFF_ENV = "DRA_WEBHOOK_BENCH_OFF"


def switch_off(parts: set[str]) -> None:
    """Replace the named parts of the webhook in this process (before it starts serving)."""
    import asyncio

    from aiohttp import web

    from webhook import admission, metrics
    from webhook.server import process
    from webhook.settings import PolicySettings

    if "structural" in parts:
        build = admission.Judge.build

        def build_unchecked(policy: PolicySettings | None = None) -> admission.Judge:
            return build(dataclasses.replace(policy or PolicySettings(), structural_check=False))

        admission.Judge.build = staticmethod(build_unchecked)  # type: ignore[method-assign]
    if "judge" in parts:
        admission.Judge.judge = lambda self, request: admission.allowed()  # type: ignore[method-assign]
    if "guard" in parts:

        class UnguardedAppRunner(web.AppRunner):
            def __init__(self, app: web.Application, *, guard: Any, **kwargs: Any) -> None:
                super().__init__(app, **kwargs)

        process.GuardedAppRunner = UnguardedAppRunner  # type: ignore[attr-defined, assignment]
    if "timeout" in parts:
        asyncio.timeout = lambda delay: contextlib.nullcontext()  # type: ignore[assignment, return-value]
    if "metrics" in parts:
        metrics.Metrics.observe_review = lambda self, *args: None  # type: ignore[method-assign]


def start_variant(name: str, cert_dir: Path, log: Path) -> Server:
    port = free_port()
    if name == "echo":
        command = [sys.executable, str(BENCH / "echo.py"), "--port", str(port), "--cert-dir", str(cert_dir)]
        env = dict(os.environ)
    else:
        command = [
            sys.executable, __file__, "--serve",
            "serve", "--host", HOST, "--port", str(port), "--cert-dir", str(cert_dir),
            "--no-generate-certs", "--workers", "1",
        ]  # fmt: skip
        env = {**os.environ, OFF_ENV: ",".join(VARIANTS[name])}
    with log.open("ab") as output:
        process = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT)
    return Server(name, process, port)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--serve"]:  # a variant: switch parts off, then run the real command line
        switch_off({part for part in os.environ.get(OFF_ENV, "").split(",") if part})
        from webhook.cli import main as webhook_main

        return webhook_main(argv[1:])
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    generator: Generator = find_or_install_wrk(True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="dra-webhook-ablation-") as temporary:
        directory = Path(temporary)
        cert_dir = directory / "certs"
        cert_dir.mkdir()
        ensure_development_certificates(cert_dir)
        context = ssl.create_default_context(cafile=str(cert_dir / "ca.crt"))
        bodies = directory / "bodies.jsonl"
        write_bodies(mix(), bodies)
        for name in [*VARIANTS, "echo"]:
            server = start_variant(name, cert_dir, directory / f"{name}.log")
            try:
                wait_until_ready(server, context, expected_workers=1, timeout=60)
                run_load(generator, server, Load(8, 2.0), bodies, cert_dir / "ca.crt")  # warm-up
                tries = [
                    run_load(generator, server, Load(8, args.seconds), bodies, cert_dir / "ca.crt")
                    for _ in range(args.repeat)
                ]
                best = min(tries, key=lambda run: run["other_cpu_cores_busy"])
                rows.append(best)
                print(
                    f"{name:42} {best['server_cpu_us_per_request']:6.0f} µs/review "
                    f"{best['requests_per_second']:7.0f} req/s  (other processes: "
                    f"{best['other_cpu_cores_busy']:.2f} cores)",
                    flush=True,
                )
            finally:
                server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
