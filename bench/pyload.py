"""The fallback load generator, for machines without `wrk`: aiohttp client, same output as bench/mix.lua.

    .venv/bin/python bench/pyload.py --connections C --seconds D --ca CA [--mean-delay-ms M] URL BODIES

Keeps C keep-alive connections busy for D seconds, each posting the next body of BODIES (one per
line), after an exponentially distributed wait of mean M ms when pacing (as mix.lua does), and
prints one line of JSON with the counts and latency percentiles that mix.lua's done() prints. It is
much slower than wrk: one Python process spends about as much CPU per request as the server does,
so on a 2-core machine it is the bottleneck at 32 connections. bench/load.py uses it only when wrk
is missing and cannot be installed, and says so in its output.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import ssl
import sys
import time
from pathlib import Path

import orjson
from aiohttp import ClientSession, ClientTimeout, TCPConnector


def percentile(sorted_values: list[float], fraction: float) -> float:
    if not sorted_values:
        return 0.0
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


async def drive(
    url: str,
    bodies: list[bytes],
    connections: int,
    seconds: float,
    context: ssl.SSLContext,
    mean_delay_ms: float = 0.0,
) -> None:
    latencies: list[float] = []
    errors = {"connect": 0, "read": 0, "write": 0, "status": 0, "timeout": 0}
    received = 0
    headers = {"Content-Type": "application/json"}
    deadline = time.perf_counter() + seconds
    connector = TCPConnector(limit=connections, ssl=context)
    async with ClientSession(connector=connector, timeout=ClientTimeout(total=5)) as session:

        async def connection(offset: int) -> None:
            nonlocal received
            index = offset
            while time.perf_counter() < deadline:
                if mean_delay_ms:
                    await asyncio.sleep(random.expovariate(1000 / mean_delay_ms))
                body = bodies[index % len(bodies)]
                index += 1
                start = time.perf_counter()
                try:
                    async with session.post(url, data=body, headers=headers) as response:
                        payload = await response.read()
                        if response.status >= 400:
                            errors["status"] += 1
                except TimeoutError:
                    errors["timeout"] += 1
                    continue
                except OSError:
                    errors["connect"] += 1
                    continue
                latencies.append(time.perf_counter() - start)
                received += len(payload)

        started = time.perf_counter()
        await asyncio.gather(*(connection(i) for i in range(connections)))
        duration = time.perf_counter() - started
    latencies.sort()
    micro = [value * 1e6 for value in latencies]
    summary = {
        "requests": len(latencies),
        "duration_us": int(duration * 1e6),
        "bytes": received,
        "errors": errors,
        "latency_us": {
            "min": int(micro[0]) if micro else 0,
            "mean": sum(micro) / len(micro) if micro else 0.0,
            "max": int(micro[-1]) if micro else 0,
            "p50": int(percentile(micro, 0.50)),
            "p90": int(percentile(micro, 0.90)),
            "p99": int(percentile(micro, 0.99)),
            "p99.9": int(percentile(micro, 0.999)),
        },
    }
    sys.stdout.write(orjson.dumps(summary).decode() + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--connections", type=int, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--ca", type=Path, required=True, help="the CA that signed the server's certificate")
    parser.add_argument("--mean-delay-ms", type=float, default=0.0, help="pace: mean wait between requests")
    parser.add_argument("url")
    parser.add_argument("bodies", type=Path)
    args = parser.parse_args(argv)
    bodies = [line for line in args.bodies.read_bytes().splitlines() if line]
    context = ssl.create_default_context(cafile=str(args.ca))
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    asyncio.run(drive(args.url, bodies, args.connections, args.seconds, context, args.mean_delay_ms))
    return 0


if __name__ == "__main__":
    sys.exit(main())
