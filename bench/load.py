"""The load benchmark: the real webhook against the ceiling of its own stack, on loopback.

    .venv/bin/python bench/load.py [--mix v1|v1alpha2|all] [--seconds 10] [--repeat 3] [--rate 1000]  # ~4 min
    .venv/bin/python bench/load.py --soak 1000000          # memory over a million requests

One run does all of this, on 127.0.0.1 only, bounded in time and request count:

1. installs `wrk` from Debian if it is missing and this is root (else falls back to bench/pyload.py,
   and says that the generator, not the server, is then the bottleneck);
2. issues a throw-away CA and serving certificate into a temporary directory;
3. starts the real server, `python -m webhook serve`, with its default worker count, and beside it
   bench/echo.py -- aiohttp on the same TLS, loop and worker count, that parses the body and allows
   it: the ceiling of this stack;
4. sends every request of the mix (bench/reviews.py; `--mix`: v1 by default, v1alpha2 or all) once
   to each and checks the verdicts: a wrong answer stops the benchmark, since a fast wrong webhook
   measures nothing;
5. runs three loads, after an untimed warm-up of each server: 1 connection and 32 connections as
   fast as the server answers (closed loop: throughput and the latency of a saturated server), and
   32 connections paced at `--rate` requests per second in all (exponential waits between a
   connection's requests: the latency at a realistic load). `--repeat N` (3) timed runs per load and
   server, interleaved -- echo, webhook, echo, webhook, ... -- so that each webhook run has an echo
   run beside it in time, and what slows the machine for a while (neighbours, the hypervisor) slows
   both of a pair alike. Meanwhile the worker processes' RSS is sampled every 0.2 s, and their CPU
   time, the generator's and the whole machine's are read before and after (/proc);
6. prints throughput, p50/p99/p99.9 latency, CPU per request (server and load generator), the CPU
   other processes took meanwhile (a shared machine disturbs the figures: see it), peak RSS per
   worker, the ratio webhook/echo and the targets below (`TARGET_*`), and writes it all to
   bench/results/latest.json (git-ignored).

The throughput ratio is the median of the N pairwise ratios webhook/echo at 32 saturated connections,
printed with every pair and their spread; the table shows the pair of that median for a saturated
load and, for the paced one (whose throughput is the offered rate), each server's run that other
processes disturbed least. The target is called met only when every pair meets it, not met when
none does, and too close to call otherwise, or when the pairs spread by more than
`RATIO_SPREAD_LIMIT` of their median (the machine was too noisy for one figure).

Closed loop and latency: with C connections each waiting for its answer, the mean latency is
C / throughput (Little's law), whatever the server does: at 32 saturated connections a p99 within
5 ms needs well over 32 / 5 ms = 6,400 answers per second, about half of what even the echo server
reaches on 2 cores. The paced run measures what the latency target is about, the time a
review takes when the webhook is not saturated.

The load generator on a 2-core machine: wrk competes with the server's workers for the same two
cores. It runs with ONE thread (`-t1`), unpinned: one wrk thread drives 32 keep-alive TLS
connections at several times the rate the server reaches, and it spends a small fraction of a
core doing so (reported as "wrk CPU per request"). Pinning it to a core would take that whole core
from one of the two workers; more threads would only add context switches. Its CPU time is measured
(getrusage of the finished child), so the cost of the generator is a figure in the results, not a
guess.

`--soak N` runs only the webhook at 32 connections, in chunks of `--soak-chunk` seconds, until N
requests have been answered (or `--soak-max-seconds` have passed), and reports each worker's RSS
after every chunk: memory is flat when it does not grow after the first chunk (the warm-up).
`--profile` also records the webhook's workers with py-spy during one more 32-connection run and
writes a flame graph per worker to bench/results/.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import platform
import resource
import shutil
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT))

from bench.reviews import DEFAULT_MIX, MIXES, MixEntry, mix, weighted_order  # noqa: E402
from webhook.native import inspect_build  # noqa: E402
from webhook.tls import ensure_development_certificates  # noqa: E402

RESULTS = BENCH / "results"
HOST = "127.0.0.1"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")
MIB = 1024 * 1024
RSS_SAMPLE_SECONDS = 0.2
NOT_VALIDATED = "is not validated by this webhook"

# The targets: at least half the echo server's throughput, p99 within 5 ms at 32 connections, p50
# within 1 ms at one.
TARGET_RATIO = 0.5
# Pairwise ratios spread wider than this fraction of their median say the machine was too noisy.
RATIO_SPREAD_LIMIT = 0.15
TARGET_P99_MS_AT_32 = 5.0
TARGET_P50_MS_AT_1 = 1.0
# Flat memory: no worker's RSS may grow by more than this over a soak (`rss_growth`).
SOAK_GROWTH_LIMIT_MIB = 2.0
# The paced load: about what a busy cluster's DRA traffic could send one webhook, well below the
# saturation throughput of 2 workers on 2 cores.
DEFAULT_RATE = 1000.0


# --- processes -----------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def descendants(root: int) -> list[int]:
    """The pids of every live process below `root`, from /proc (any depth)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry))
    found: list[int] = []
    pending = [root]
    while pending:
        for child in children.get(pending.pop(), []):
            found.append(child)
            pending.append(child)
    return sorted(found)


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a live process."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime (fields 14 and 15)


def rss_bytes(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_BYTES
    except (OSError, IndexError, ValueError):
        return 0


def peak_rss_bytes(pid: int) -> int:
    """VmHWM: the process's own high-water mark of resident memory since it started."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


@dataclass
class Server:
    """A server under test: its process, the processes that answer requests, and its port."""

    name: str
    process: subprocess.Popen[bytes]
    port: int
    workers: list[int] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"https://{HOST}:{self.port}/validate"

    def all_pids(self) -> list[int]:
        return [self.process.pid, *descendants(self.process.pid)]

    def cpu_seconds(self) -> float:
        return sum(cpu_seconds(pid) for pid in self.all_pids())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def worker_pids(root: int) -> list[int]:
    """The processes that serve requests: the children of a supervisor, or the process itself.
    Helper processes of multiprocessing (resource tracker, fork server) are not workers."""
    helpers = ("resource_tracker", "forkserver", "semaphore_tracker")
    workers = [pid for pid in descendants(root) if not any(name in command_line(pid) for name in helpers)]
    return workers or [root]


def wait_until_ready(
    server: Server, context: ssl.SSLContext, *, expected_workers: int, timeout: float
) -> None:
    """Until /readyz answers and the worker count has stayed the same for a second."""
    deadline = time.monotonic() + timeout
    while True:
        if server.process.poll() is not None:
            raise SystemExit(f"{server.name} exited with {server.process.returncode} before it was ready")
        if time.monotonic() > deadline:
            raise SystemExit(f"{server.name} was not ready within {timeout:.0f} s")
        try:
            connection = http.client.HTTPSConnection(HOST, server.port, context=context, timeout=2)
            connection.request("GET", "/readyz")
            if connection.getresponse().status == 200:
                break
        except OSError:
            pass
        time.sleep(0.2)
    stable_since, workers = time.monotonic(), worker_pids(server.process.pid)
    while time.monotonic() - stable_since < 1.0 or len(workers) < expected_workers:
        if time.monotonic() > deadline:
            break
        time.sleep(0.2)
        now = worker_pids(server.process.pid)
        if now != workers:
            stable_since, workers = time.monotonic(), now
    server.workers = workers


def webhook_has_workers_flag() -> bool:
    help_text = subprocess.run(
        [sys.executable, "-m", "webhook", "serve", "--help"], capture_output=True, text=True, cwd=ROOT
    ).stdout
    return "--workers" in help_text


def default_worker_count(has_flag: bool) -> int:
    """What `dra-webhook serve` starts without --workers: Settings documents `available_cpus()`."""
    if not has_flag:
        return 1
    from webhook.settings import available_cpus

    return available_cpus()


def start_webhook(cert_dir: Path, log_file: Path) -> Server:
    port = free_port()
    command = [
        sys.executable, "-m", "webhook", "serve",
        "--host", HOST, "--port", str(port), "--cert-dir", str(cert_dir), "--no-generate-certs",
    ]  # fmt: skip
    with log_file.open("ab") as log:
        process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    return Server("webhook", process, port)


def start_echo(cert_dir: Path, workers: int, log_file: Path) -> Server:
    port = free_port()
    command = [
        sys.executable, str(BENCH / "echo.py"),
        "--host", HOST, "--port", str(port), "--cert-dir", str(cert_dir), "--workers", str(workers),
    ]  # fmt: skip
    with log_file.open("ab") as log:
        process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    return Server("echo", process, port)


# --- verdicts ------------------------------------------------------------------------------------------


def check_verdicts(server: Server, entries: list[MixEntry], context: ssl.SSLContext) -> list[dict[str, Any]]:
    """Each request of the mix once; its verdict must be the expected one, from a real rule."""
    checked = []
    connection = http.client.HTTPSConnection(HOST, server.port, context=context, timeout=10)
    for entry in entries:
        connection.request("POST", "/validate", body=entry.body, headers={"Content-Type": "application/json"})
        reply = connection.getresponse()
        body = reply.read()
        response = orjson.loads(body).get("response", {}) if reply.status == 200 else {}
        allowed = response.get("allowed")
        warnings = response.get("warnings") or []
        problem = ""
        if reply.status != 200:
            problem = f"HTTP {reply.status}: {body[:200]!r}"
        elif any(NOT_VALIDATED in warning for warning in warnings):
            problem = f"{entry.kind} is not registered: the answer is the unknown-kind policy, not a rule"
        elif allowed != entry.allowed:
            problem = f"expected allowed={entry.allowed}, got allowed={allowed}"
        checked.append({"name": entry.name, "allowed": allowed, "ok": not problem, "problem": problem})
    connection.close()
    return checked


# --- load ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Load:
    """One load: `connections` busy connections, for `seconds`; paced when `mean_delay_ms` > 0."""

    connections: int
    seconds: float
    mean_delay_ms: float = 0.0

    @property
    def mode(self) -> str:
        return "paced" if self.mean_delay_ms else "saturated"

    @property
    def offered_rate(self) -> float | None:
        return self.connections * 1000 / self.mean_delay_ms if self.mean_delay_ms else None

    def warmup(self, seconds: float) -> Load:
        return Load(self.connections, seconds, self.mean_delay_ms)


def paced(connections: int, rate: float, seconds: float) -> Load:
    """`connections` connections offering `rate` requests per second in all."""
    return Load(connections, seconds, mean_delay_ms=connections * 1000 / rate)


@dataclass(frozen=True)
class Generator:
    """wrk, or the Python fallback; both print one JSON line (mix.lua's done())."""

    wrk: str | None

    @property
    def name(self) -> str:
        return "wrk -t1" if self.wrk else "bench/pyload.py (fallback: the generator is the bottleneck)"

    def command(self, url: str, load: Load, bodies: Path, ca_file: Path) -> list[str]:
        delay = [f"{load.mean_delay_ms:g}"] if load.mean_delay_ms else []
        if self.wrk:
            return [
                self.wrk, "-t1", f"-c{load.connections}", f"-d{load.seconds:g}s", "--timeout", "5s",
                "-s", str(BENCH / "mix.lua"), url, "--", str(bodies), *delay,
            ]  # fmt: skip
        return [
            sys.executable, str(BENCH / "pyload.py"), "--connections", str(load.connections),
            "--seconds", f"{load.seconds:g}", "--ca", str(ca_file),
            *(["--mean-delay-ms", *delay] if delay else []), url, str(bodies),
        ]  # fmt: skip


def find_or_install_wrk(allow_install: bool) -> Generator:
    wrk = shutil.which("wrk")
    if wrk is None and allow_install and os.geteuid() == 0 and shutil.which("apt-get"):
        print("wrk is missing: installing it with apt-get (Debian package wrk)", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "wrk"]):
            subprocess.run(command, check=False, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        wrk = shutil.which("wrk")
    if wrk is None:
        print("wrk is not available: falling back to bench/pyload.py, which is itself the bottleneck")
    return Generator(wrk)


class RssSampler:
    """Samples the RSS of some processes every RSS_SAMPLE_SECONDS in a thread; keeps the peak of each."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self.peak: dict[int, int] = dict.fromkeys(pids, 0)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            for pid in self.pids:
                self.peak[pid] = max(self.peak[pid], rss_bytes(pid))
            self._stop.wait(RSS_SAMPLE_SECONDS)

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def machine_busy_seconds() -> float:
    """CPU time every process of the machine has used (all cores; /proc/stat minus idle and iowait)."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / CLOCK_TICKS  # user..steal; guest time is already in user


def run_load(generator: Generator, server: Server, load: Load, bodies: Path, ca_file: Path) -> dict[str, Any]:
    """One timed run: the generator's summary plus server, generator and other CPU, and peak worker RSS."""
    command = generator.command(server.url, load, bodies, ca_file)
    before = server.cpu_seconds(), children_cpu_seconds(), machine_busy_seconds(), time.monotonic()
    with RssSampler(server.workers) as sampler:
        finished = subprocess.run(command, capture_output=True, text=True, timeout=load.seconds + 60)
    after = server.cpu_seconds(), children_cpu_seconds(), machine_busy_seconds(), time.monotonic()
    server_cpu, generator_cpu, busy, wall = (b - a for a, b in zip(before, after, strict=True))
    lines = [line for line in finished.stdout.splitlines() if line.startswith("{")]
    if finished.returncode != 0 or not lines:
        raise SystemExit(
            f"the load generator failed ({finished.returncode}):\n{finished.stdout}{finished.stderr}"
        )
    summary = orjson.loads(lines[-1])
    requests = max(summary["requests"], 1)
    duration = summary["duration_us"] / 1e6
    return {
        "server": server.name,
        "connections": load.connections,
        "mode": load.mode,
        "offered_requests_per_second": load.offered_rate,
        "seconds": round(duration, 3),
        "requests": summary["requests"],
        "requests_per_second": round(summary["requests"] / duration, 1),
        "errors": summary["errors"],
        "latency_ms": {key: round(value / 1000, 3) for key, value in summary["latency_us"].items()},
        "server_cpu_us_per_request": round(server_cpu / requests * 1e6, 1),
        "server_cpu_cores_busy": round(server_cpu / wall, 2),
        "generator_cpu_us_per_request": round(generator_cpu / requests * 1e6, 1),
        "generator_cpu_cores_busy": round(generator_cpu / wall, 2),
        # What the rest of the machine took meanwhile: other people's processes on a shared machine.
        "other_cpu_cores_busy": round(max(busy - server_cpu - generator_cpu, 0.0) / wall, 2),
        "peak_rss_mib_per_worker": [round(sampler.peak[pid] / MIB, 1) for pid in server.workers],
    }


# --- the benchmark -------------------------------------------------------------------------------------


def pair_ratio(pair: tuple[dict[str, Any], ...]) -> float:
    """webhook / echo throughput of one interleaved pair of runs."""
    echo, webhook = pair
    return float(webhook["requests_per_second"]) / max(float(echo["requests_per_second"]), 1e-9)


def kept_runs(pairs: list[tuple[dict[str, Any], ...]], load: Load) -> list[dict[str, Any]]:
    """The echo and the webhook run shown for a load, each with every run of its server ("repeats")
    and every pair's ratio ("pairs"). A saturated load shows the pair whose ratio is the median (the
    lower one of an even count); a paced one, whose throughput is the offered rate whatever the
    server, each server's run that other processes disturbed least."""
    ratios = [round(pair_ratio(pair), 3) for pair in pairs]
    if load.mode == "saturated":
        median_index = sorted(range(len(pairs)), key=lambda i: ratios[i])[(len(pairs) - 1) // 2]
        shown = list(pairs[median_index])
    else:
        shown = [
            min((pair[i] for pair in pairs), key=lambda run: run["other_cpu_cores_busy"]) for i in (0, 1)
        ]
    found = []
    for i, result in enumerate(shown):
        extra: dict[str, Any] = {"pair_ratios": ratios}
        if len(pairs) > 1:
            extra["repeats"] = [pair[i] for pair in pairs]
        found.append({**result, **extra})
    return found


@contextlib.contextmanager
def servers_under_test(directory: Path, *, with_echo: bool) -> Iterator[tuple[Server, Server | None, Path]]:
    cert_dir = directory / "certs"
    cert_dir.mkdir()
    ensure_development_certificates(cert_dir)
    ca_file = cert_dir / "ca.crt"
    client_context = ssl.create_default_context(cafile=str(ca_file))
    expected = default_worker_count(webhook_has_workers_flag())
    webhook = start_webhook(cert_dir, directory / "webhook.log")
    echo: Server | None = None
    try:
        wait_until_ready(webhook, client_context, expected_workers=expected, timeout=60)
        if with_echo:
            echo = start_echo(cert_dir, len(webhook.workers), directory / "echo.log")
            wait_until_ready(echo, client_context, expected_workers=len(webhook.workers), timeout=60)
        yield webhook, echo, ca_file
    finally:
        for server in (echo, webhook):
            if server is not None:
                server.stop()


def write_bodies(entries: list[MixEntry], path: Path) -> None:
    path.write_bytes(b"".join(entries[i].body + b"\n" for i in weighted_order(entries)))


def machine() -> dict[str, Any]:
    versions: dict[str, Any] = {"python": platform.python_version(), "kernel": platform.release()}
    for module in ("aiohttp", "uvloop", "orjson", "pydantic"):
        with contextlib.suppress(ImportError):
            versions[module] = __import__(module).__version__
    # Whether the webhook's rules ran compiled (webhook/native.py): the servers decide the same way.
    rules = inspect_build().describe()
    return {"cpus": os.cpu_count(), "affinity": len(os.sched_getaffinity(0)), "rules": rules, **versions}


def _target(value: float, target: str, met: bool, note: str = "") -> dict[str, Any]:
    return {"value": value, "target": target, "met": met, **({"note": note} if note else {})}


def targets(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The targets (`TARGET_*`), from the runs that measure each."""

    def run(server: str, connections: int, mode: str) -> dict[str, Any] | None:
        wanted = (server, connections, mode)
        return next((r for r in runs if (r["server"], r["connections"], r["mode"]) == wanted), None)

    found: dict[str, Any] = {}
    webhook32, echo32 = run("webhook", 32, "saturated"), run("echo", 32, "saturated")
    if webhook32 and echo32:
        found["throughput_ratio_at_32"] = ratio_target(
            webhook32.get("pair_ratios")
            or [round(webhook32["requests_per_second"] / echo32["requests_per_second"], 3)]
        )
    if webhook32:
        p99 = webhook32["latency_ms"]["p99"]
        mean_ms = 32000 / webhook32["requests_per_second"]
        note = f"closed loop: the mean latency is 32 / throughput = {mean_ms:.1f} ms"
        found["p99_ms_at_32_saturated"] = _target(
            p99, f"<= {TARGET_P99_MS_AT_32}", p99 <= TARGET_P99_MS_AT_32, note
        )
    webhook32_paced = run("webhook", 32, "paced")
    if webhook32_paced:
        p99 = webhook32_paced["latency_ms"]["p99"]
        note = f"at {webhook32_paced['requests_per_second']:.0f} req/s offered by 32 connections"
        found["p99_ms_at_32_paced"] = _target(
            p99, f"<= {TARGET_P99_MS_AT_32}", p99 <= TARGET_P99_MS_AT_32, note
        )
    webhook1 = run("webhook", 1, "saturated")
    if webhook1:
        p50 = webhook1["latency_ms"]["p50"]
        found["p50_ms_at_1"] = _target(p50, f"<= {TARGET_P50_MS_AT_1}", p50 <= TARGET_P50_MS_AT_1)
    return found


def ratio_target(ratios: list[float]) -> dict[str, Any]:
    """The throughput target from the pairwise ratios: their median and spread, and a verdict that is
    "met" only when every pair meets it, "NOT MET" when none does, and "UNDECIDED" when the pairs fall
    on both sides of it; a spread wider than `RATIO_SPREAD_LIMIT` of the median is said."""
    low, high, median = min(ratios), max(ratios), round(statistics.median(ratios), 3)
    if low >= TARGET_RATIO:
        status, verdict = "met", "every pair meets it"
    elif high < TARGET_RATIO:
        status, verdict = "NOT MET", "no pair meets it"
    else:
        status, verdict = "UNDECIDED", "too close to call: the pairs fall on both sides of the target"
    if median > 0 and (high - low) / median > RATIO_SPREAD_LIMIT:
        verdict += (
            f"; the pairs spread by more than {RATIO_SPREAD_LIMIT:.0%} of their median (a noisy machine)"
        )
    pairs = ", ".join(f"{ratio:.3f}" for ratio in ratios)
    note = f"median of {len(ratios)} interleaved pairs ({pairs}), spread {low:.3f}-{high:.3f}: {verdict}"
    return {
        **_target(median, f">= {TARGET_RATIO}", status == "met", note),
        "status": status,
        "pairs": ratios,
        "spread": [low, high],
    }


def print_runs(runs: list[dict[str, Any]]) -> None:
    print()
    header = (
        f"{'server':8} {'load':14} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'p99.9':>7} {'max ms':>7} "
        f"{'errors':>6} {'CPU µs/req':>10} {'cores':>5} {'gen µs/req':>10} {'gen':>4} {'other':>5}  "
        "peak RSS MiB/worker"
    )
    print(header)
    print("-" * len(header))
    for r in runs:
        latency = r["latency_ms"]
        load = f"{r['connections']} {r['mode']}"
        print(
            f"{r['server']:8} {load:14} {r['requests_per_second']:7.0f} {latency['p50']:7.2f} "
            f"{latency['p99']:7.2f} {latency['p99.9']:7.2f} {latency['max']:7.1f} "
            f"{sum(r['errors'].values()):6d} "
            f"{r['server_cpu_us_per_request']:10.0f} {r['server_cpu_cores_busy']:5.2f} "
            f"{r['generator_cpu_us_per_request']:10.0f} {r['generator_cpu_cores_busy']:4.2f} "
            f"{r['other_cpu_cores_busy']:5.2f}  "
            + ", ".join(f"{mib:.1f}" for mib in r["peak_rss_mib_per_worker"])
        )
    print("(cores: CPU cores busy on average; gen: the load generator's; other: every other process's)")


def print_targets(found: dict[str, Any]) -> None:
    for name, target in found.items():
        verdict = target.get("status") or ("met" if target["met"] else "NOT MET")
        note = f"  [{target['note']}]" if "note" in target else ""
        print(f"{name:24} {target['value']:>8} (target {target['target']}): {verdict}{note}")


def benchmark(args: argparse.Namespace, generator: Generator, directory: Path) -> dict[str, Any]:
    entries = mix(args.mix)
    bodies = directory / "bodies.jsonl"
    write_bodies(entries, bodies)
    loads = [Load(connections, args.seconds) for connections in args.connections]
    if args.rate:
        loads.append(paced(32, args.rate, args.seconds))
    with servers_under_test(directory, with_echo=True) as (webhook, echo, ca_file):
        assert echo is not None
        context = ssl.create_default_context(cafile=str(ca_file))
        verdicts = check_verdicts(webhook, entries, context)
        wrong = [v for v in verdicts if not v["ok"]]
        for v in wrong:
            print(f"VERDICT PROBLEM {v['name']}: {v['problem']}")
        if wrong and not args.allow_wrong_verdicts:
            raise SystemExit("wrong verdicts: not benchmarking (--allow-wrong-verdicts to measure anyway)")
        print(
            f"mix {args.mix}; webhook: {len(webhook.workers)} worker(s); "
            f"echo: {len(echo.workers)} worker(s); "
            f"generator: {generator.name}; {args.seconds:g} s per run after {args.warmup:g} s of warm-up",
            flush=True,
        )
        runs = []
        for load in loads:
            for server in (echo, webhook):
                run_load(generator, server, load.warmup(args.warmup), bodies, ca_file)  # not kept
            pairs = []
            for _ in range(args.repeat):  # interleaved: echo, webhook, echo, webhook, ...
                pairs.append(
                    tuple(run_load(generator, server, load, bodies, ca_file) for server in (echo, webhook))
                )
            for result in kept_runs(pairs, load):
                runs.append(result)
                print(
                    f"  {result['server']:8} {load.connections:3d} connections {load.mode:9}: "
                    f"{result['requests_per_second']:6.0f} req/s, p99 {result['latency_ms']['p99']:.2f} ms",
                    flush=True,
                )
        peak = {s.name: [round(peak_rss_bytes(pid) / MIB, 1) for pid in s.workers] for s in (webhook, echo)}
        profiles = profile(webhook, generator, args, bodies, ca_file) if args.profile else []
        webhook_log_bytes = (directory / "webhook.log").stat().st_size
    print_runs(runs)
    found = targets(runs)
    print()
    print("peak RSS per worker (VmHWM, MiB): " + "; ".join(f"{name} {mib}" for name, mib in peak.items()))
    print(f"webhook rules: {inspect_build().describe()}")
    print_targets(found)
    if not generator.wrk:
        print("the load generator was bench/pyload.py: it, not the servers, limits these figures")
    return {
        "machine": machine(),
        "generator": generator.name,
        "seconds_per_run": args.seconds,
        "repeat": args.repeat,
        "warmup_seconds": args.warmup,
        "webhook_workers": len(webhook.workers),
        "mix_name": args.mix,
        "mix": [
            {"name": e.name, "kind": e.kind, "weight": e.weight, "bytes": len(e.body), "allowed": e.allowed}
            for e in entries
        ],
        "verdicts": verdicts,
        "runs": runs,
        "peak_rss_mib_per_worker": peak,
        "targets": found,
        "webhook_log_bytes": webhook_log_bytes,
        "profiles": profiles,
    }


def profile(
    webhook: Server, generator: Generator, args: argparse.Namespace, bodies: Path, ca_file: Path
) -> list[str]:
    """py-spy flame graphs of each webhook worker during one more 32-connection run."""
    py_spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(py_spy).exists():
        print("--profile: py-spy is not installed (pip install -e '.[bench]')")
        return []
    RESULTS.mkdir(parents=True, exist_ok=True)
    outputs = [RESULTS / f"profile-worker-{i}.svg" for i in range(len(webhook.workers))]
    recorders = [
        subprocess.Popen(
            [
                py_spy,
                "record",
                "--pid",
                str(pid),
                "--duration",
                f"{args.seconds:g}",
                "--rate",
                "250",
                "--nonblocking",
                "--output",
                str(output),
                "--format",
                "flamegraph",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for pid, output in zip(webhook.workers, outputs, strict=True)
    ]
    run_load(generator, webhook, Load(32, args.seconds), bodies, ca_file)
    for recorder in recorders:
        recorder.wait(timeout=args.seconds + 60)
    written = [str(output) for output in outputs if output.exists()]
    print("profiles: " + ", ".join(written))
    return written


def soak(args: argparse.Namespace, generator: Generator, directory: Path) -> dict[str, Any]:
    """The webhook alone at 32 connections until args.soak requests: RSS of each worker over time."""
    entries = mix(args.mix)
    bodies = directory / "bodies.jsonl"
    write_bodies(entries, bodies)
    samples: list[dict[str, Any]] = []
    with servers_under_test(directory, with_echo=False) as (webhook, _, ca_file):
        workers = webhook.workers
        print(
            f"soak: {len(workers)} worker(s), until {args.soak} requests, "
            f"RSS after every {args.soak_chunk:g} s",
            flush=True,
        )
        start, total = time.monotonic(), 0
        samples.append(
            {"requests": 0, "seconds": 0.0, "rss_mib": [round(rss_bytes(p) / MIB, 1) for p in workers]}
        )
        print(f"{'requests':>10} {'seconds':>8} {'req/s':>7} {'p99 ms':>7} {'errors':>6}  RSS MiB per worker")
        while total < args.soak and time.monotonic() - start < args.soak_max_seconds:
            result = run_load(generator, webhook, Load(32, args.soak_chunk), bodies, ca_file)
            total += result["requests"]
            sample = {
                "requests": total,
                "seconds": round(time.monotonic() - start, 1),
                "requests_per_second": result["requests_per_second"],
                "p99_ms": result["latency_ms"]["p99"],
                "errors": sum(result["errors"].values()),
                "rss_mib": [round(rss_bytes(p) / MIB, 1) for p in workers],
            }
            samples.append(sample)
            print(
                f"{total:10d} {sample['seconds']:8.0f} {sample['requests_per_second']:7.0f} "
                f"{sample['p99_ms']:7.2f} {sample['errors']:6d}  "
                + ", ".join(f"{mib:.1f}" for mib in sample["rss_mib"]),
                flush=True,
            )
        peak = [round(peak_rss_bytes(pid) / MIB, 1) for pid in workers]
        alive = all(pid in webhook.all_pids() for pid in workers)
    growth = rss_growth(samples)
    flat = all(g <= SOAK_GROWTH_LIMIT_MIB for g in growth)
    print(
        f"RSS growth, the highest of the second half of the soak against the first's (MiB per worker): "
        f"{growth}; peak {peak}; "
        + ("flat" if flat else f"GROWS (limit {SOAK_GROWTH_LIMIT_MIB} MiB)")
        + ("" if alive else "; a worker was replaced during the soak: its RSS is not comparable")
    )
    return {
        "machine": machine(),
        "generator": generator.name,
        "requests": total,
        "errors": sum(s.get("errors", 0) for s in samples),
        "samples": samples,
        "growth_after_warmup_mib": growth,
        "growth_limit_mib": SOAK_GROWTH_LIMIT_MIB,
        "peak_rss_mib_per_worker": peak,
        "workers_survived": alive,
        "flat": flat,
    }


def rss_growth(samples: list[dict[str, Any]]) -> list[float]:
    """How much each worker's RSS grew over a soak: the highest sample of its second half less the
    highest of its first, after the first chunk (start-up and warm-up). Between chunks a worker's RSS
    moves within a band of several MiB (what the allocator keeps of the last large bodies: the v1
    mix's 76 KB slice parses into some 10,000 objects), so one sample against another measures where
    in that band each fell; a leak lifts the whole band, and its top with it."""
    after_warmup = [sample["rss_mib"] for sample in samples[1:]]
    half = max(1, len(after_warmup) // 2)
    first, second = after_warmup[:half], after_warmup[half:] or after_warmup[-1:]
    return [
        round(max(rss[worker] for rss in second) - max(rss[worker] for rss in first), 1)
        for worker in range(len(after_warmup[0]))
    ]


def parse_connections(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each timed run")
    parser.add_argument("--warmup", type=float, default=3.0, help="untimed run before each timed one")
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="timed runs per load and server, interleaved echo/webhook; the ratio is the median pair's",
    )
    parser.add_argument(
        "--connections", type=parse_connections, default=[1, 32], help="saturated loads, e.g. 1,32"
    )
    parser.add_argument(
        "--rate", type=float, default=DEFAULT_RATE, help="requests/s of the paced 32-connection load; 0: none"
    )
    parser.add_argument(
        "--mix",
        choices=MIXES,
        default=DEFAULT_MIX,
        help=f"the requests sent (bench/reviews.py); {DEFAULT_MIX}",
    )
    parser.add_argument("--profile", action="store_true", help="py-spy flame graphs of the webhook workers")
    parser.add_argument("--soak", type=int, default=0, metavar="REQUESTS", help="a memory soak this long")
    parser.add_argument("--soak-chunk", type=float, default=20.0, help="seconds between soak RSS samples")
    parser.add_argument("--soak-max-seconds", type=float, default=1800.0, help="a soak stops after this")
    parser.add_argument("--no-install", action="store_true", help="never apt-get install wrk")
    parser.add_argument(
        "--generator", choices=["wrk", "python"], default="wrk", help="python: bench/pyload.py even with wrk"
    )
    parser.add_argument(
        "--allow-wrong-verdicts", action="store_true", help="measure even when a verdict of the mix is wrong"
    )
    parser.add_argument("--json", type=Path, default=None, help="default: bench/results/latest.json")
    args = parser.parse_args(argv)

    generator = find_or_install_wrk(not args.no_install) if args.generator == "wrk" else Generator(None)
    with tempfile.TemporaryDirectory(prefix="dra-webhook-bench-") as temporary:
        if args.soak:
            results = soak(args, generator, Path(temporary))
            default_json = RESULTS / "soak.json"
        else:
            results = benchmark(args, generator, Path(temporary))
            default_json = RESULTS / "latest.json"
    output = args.json or default_json
    output.parent.mkdir(parents=True, exist_ok=True)
    results["finished"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    output.write_bytes(orjson.dumps(results, option=orjson.OPT_INDENT_2))
    print(f"\nwritten to {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
