"""The ceiling of the stack: an aiohttp server that reads the review and allows it, nothing more.

    .venv/bin/python bench/echo.py --port P --cert-dir DIR [--workers N]

Same stack as `dra-webhook serve`: aiohttp, the webhook's hardened TLS context on the same
certificate (`webhook.tls.build_server_context`), uvloop when it is installed, the same body limit,
orjson to parse the body and write the answer, the garbage collector set as the webhook sets it
(`settle_collector`), and N worker processes sharing the port with SO_REUSEPORT. Whatever the
webhook does beyond this -- the envelope model, the structural check, the rules, metrics, logging --
is what `bench/load.py` measures as the ratio webhook/echo.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
from aiohttp import web

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from webhook.server.process import settle_collector
from webhook.settings import DEFAULT_MAX_BODY_BYTES
from webhook.tls import build_server_context


async def validate(request: web.Request) -> web.Response:
    review: Any = orjson.loads(await request.read())
    answer = {
        "apiVersion": review["apiVersion"],
        "kind": "AdmissionReview",
        "response": {"uid": review["request"]["uid"], "allowed": True},
    }
    return web.Response(body=orjson.dumps(answer), content_type="application/json")


async def healthz(request: web.Request) -> web.Response:
    return web.Response(text="ok\n")


async def settle(app: web.Application) -> None:
    settle_collector()


def serve_one(host: str, port: int, cert_dir: Path, *, reuse_port: bool) -> None:
    context = build_server_context(cert_dir / "tls.crt", cert_dir / "tls.key")
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    app = web.Application(client_max_size=DEFAULT_MAX_BODY_BYTES)
    app.router.add_post("/validate", validate)
    app.router.add_get("/readyz", healthz)
    app.on_startup.append(settle)
    web.run_app(
        app, host=host, port=port, ssl_context=context, reuse_port=reuse_port, access_log=None, print=None
    )


def supervise(argv: list[str], workers: int) -> int:
    """Start `workers` processes of this script on the shared port; stop them all on SIGTERM/SIGINT."""
    children = [
        subprocess.Popen([sys.executable, __file__, *argv, "--workers", "1", "--reuse-port"])
        for _ in range(workers)
    ]

    def stop(signum: int, frame: object) -> None:
        for child in children:
            child.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    return max(child.wait() for child in children)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--cert-dir", type=Path, required=True, help="holds tls.crt and tls.key")
    parser.add_argument("--workers", type=int, default=1, help="processes sharing the port")
    parser.add_argument("--reuse-port", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.workers > 1:
        return supervise(
            ["--host", args.host, "--port", str(args.port), "--cert-dir", str(args.cert_dir)], args.workers
        )
    serve_one(args.host, args.port, args.cert_dir, reuse_port=args.reuse_port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
