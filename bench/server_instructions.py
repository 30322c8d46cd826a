"""Instructions per review of the whole server process (TLS, HTTP, envelope, judging, metrics, logs),
counted by callgrind: the server-side twin of bench/instructions.py.

    .venv/bin/python bench/server_instructions.py [--reviews 300] [--echo] [--profile PATH]

One process serves as `dra-webhook serve` does with workers (uvloop, the hardened TLS context,
multiprocess metrics in a private directory, JSON decision lines, here to /dev/null, the garbage
collector set as `settle_collector` sets it) on a loopback port, under `valgrind --tool=callgrind`;
a client sends the mix of bench/reviews.py over one keep-alive TLS connection
and checks every answer is HTTP 200. The server runs twice, once for a warm-up of 30 reviews and
once for 30 + `--reviews`, and the difference of the two counts divided by `--reviews` is the
figure: start-up, warm-up and shutdown cancel out. `--echo` measures bench/echo.py's handler on
the same stack instead. `--profile PATH` runs the server once, counts only the `--reviews` after
the warm-up (callgrind's instrumentation switched on and off around them) and writes their profile
to PATH (`callgrind_annotate --inclusive=yes PATH` shows where they went). The metrics flush timer
fires about 50 times more often per review under valgrind than at full speed, which adds a few
thousand instructions.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")
WARMUP_REVIEWS = 30


async def serve(cert_dir: Path, port_file: Path, echo: bool) -> None:
    """Serve until SIGUSR1, then write nothing more and exit (callgrind prints its count)."""
    from aiohttp import web

    from webhook.logs import configure_logging
    from webhook.server import WebhookServer
    from webhook.server.process import settle_collector
    from webhook.settings import DEFAULT_MAX_BODY_BYTES, LogFormat, Settings
    from webhook.tls import build_server_context

    configure_logging(level="info", log_format=LogFormat.JSON, stream=open(os.devnull, "w"))  # noqa: SIM115
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGUSR1, stop.set)
    if echo:
        from bench.echo import validate

        app = web.Application(client_max_size=DEFAULT_MAX_BODY_BYTES)
        app.router.add_post("/validate", validate)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        context = build_server_context(cert_dir / "tls.crt", cert_dir / "tls.key")
        site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=context)
        await site.start()
        settle_collector()  # as bench/echo.py does at start-up
        port = site.port
    else:
        settings = Settings(
            host="127.0.0.1",
            port=0,
            cert_dir=cert_dir,
            generate_dev_certs=False,
            cert_reload_interval_seconds=3600,
            workers=2,
        )
        server = WebhookServer(settings, reuse_port=True, serve_metrics=False)
        await server.start()
        settle_collector()  # as `serve` does once its server has started
        port = server.port
    port_file.with_suffix(".tmp").write_text(str(port))
    port_file.with_suffix(".tmp").rename(port_file)
    await stop.wait()
    sys.stdout.flush()
    os._exit(0)


def send_reviews(port: int, count: int, cert_dir: Path) -> None:
    """`count` reviews of the mix over one keep-alive TLS connection; every answer must be a 200."""
    from bench.reviews import mix, weighted_order

    entries = mix()
    bodies = [entries[i].body for i in weighted_order(entries)]
    context = ssl.create_default_context(cafile=str(cert_dir / "ca.crt"))
    with context.wrap_socket(
        socket.create_connection(("127.0.0.1", port)), server_hostname="localhost"
    ) as tls:
        answers = tls.makefile("rb")
        for i in range(count):
            body = bodies[i % len(bodies)]
            head = (
                "POST /validate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n"
            )
            tls.sendall(head.encode() + body)
            status_line, length = answers.readline(), 0
            if b" 200 " not in status_line:
                raise SystemExit(f"unexpected answer: {status_line!r}")
            while (line := answers.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            answers.read(length)


def count_instructions(
    valgrind: str, reviews: int, cert_dir: Path, echo: bool, profile: Path | None = None
) -> int:
    """The server's instructions over `reviews`; with `profile`, only those of the reviews after a
    warm-up of WARMUP_REVIEWS (callgrind's instrumentation switched on and off around them by
    `callgrind_control`), and the profile of them written to `profile`."""
    with tempfile.TemporaryDirectory(prefix="dra-webhook-instructions-") as temporary:
        directory = Path(temporary)
        port_file, metrics_dir = directory / "port", directory / "metrics"
        metrics_dir.mkdir()
        # Address randomisation off, as bench/instructions.py has it: start-up then counts the same.
        setarch = shutil.which("setarch")
        command = [
            *([setarch, "--addr-no-randomize"] if setarch is not None else []),
            valgrind, "--tool=callgrind", f"--callgrind-out-file={profile or os.devnull}",
            *(["--instr-atstart=no"] if profile is not None else []),
            sys.executable, __file__, "--serve", str(cert_dir), str(port_file),
        ] + (["--echo"] if echo else [])  # fmt: skip
        environment = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir), "PYTHONHASHSEED": "0"}
        server = subprocess.Popen(command, env=environment, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 300
        while not port_file.exists():
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start:\n{server.communicate()[1][-2000:]}")
            time.sleep(0.2)
        port = int(port_file.read_text())
        if profile is None:
            send_reviews(port, reviews, cert_dir)
        else:
            send_reviews(port, WARMUP_REVIEWS, cert_dir)
            subprocess.run(
                ["callgrind_control", "--instr=on", str(server.pid)], check=True, capture_output=True
            )
            send_reviews(port, reviews, cert_dir)
            subprocess.run(
                ["callgrind_control", "--instr=off", str(server.pid)], check=True, capture_output=True
            )
        server.send_signal(signal.SIGUSR1)
        _, report = server.communicate()
    found = COLLECTED.search(report)
    if found is None:
        raise SystemExit(f"callgrind printed no instruction count:\n{report[-2000:]}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--reviews", type=int, default=300, help="measured reviews (default 300)")
    parser.add_argument("--echo", action="store_true", help="measure bench/echo.py's handler instead")
    parser.add_argument(
        "--profile",
        type=Path,
        metavar="PATH",
        help="one run instead: write the callgrind profile of the measured reviews (after the warm-up) to "
        "PATH, for callgrind_annotate",
    )
    parser.add_argument("--serve", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        from webhook.server import run_loop

        async def serving() -> int:
            await serve(Path(args.serve[0]), Path(args.serve[1]), args.echo)
            return 0

        return run_loop(serving())
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    import webhook
    from webhook.tls import ensure_development_certificates

    with tempfile.TemporaryDirectory(prefix="dra-webhook-instructions-certs-") as certificates:
        cert_dir = Path(certificates)
        ensure_development_certificates(cert_dir)
        if args.profile is not None:
            baseline = 0
            measured = count_instructions(valgrind, args.reviews, cert_dir, args.echo, args.profile.resolve())
        else:
            baseline = count_instructions(valgrind, WARMUP_REVIEWS, cert_dir, args.echo)
            measured = count_instructions(valgrind, WARMUP_REVIEWS + args.reviews, cert_dir, args.echo)
    server = "echo server" if args.echo else f"webhook, rules {webhook.BUILD.describe()}"
    per_review = (measured - baseline) / args.reviews
    print(f"{per_review:,.0f} server instructions per review ({args.reviews} reviews; {server})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
