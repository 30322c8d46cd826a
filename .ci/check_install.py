"""Check an installed dra-webhook as a user meets it: the commands of a virtual environment it was
pip-installed into, run outside the checkout, so nothing comes from the source tree.

    python3 .ci/check_install.py VENV [--build compiled|pure|any]

* ``--version`` names the version of the package metadata, and the build of the rules (`--build`);
* ``validate`` and ``review`` judge files of tests/data with the API server's own messages;
* ``from webhook import review, review_manifest`` works, and a manifest is judged from Python;
* ``certs`` writes a certificate and ``manifests`` renders the deployment with its CA;
* ``serve`` starts with that certificate, becomes ready, answers a review over HTTPS, stops on SIGTERM.

Standard library only (it runs with whatever python3 the machine has); exits 1 at the first failure.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "tests" / "data" / "offline" / "manifests" / "claims.yaml"
DENIED_MANIFEST = (
    'ResourceClaim.resource.k8s.io "broken" is invalid: spec.allocationMode: Unsupported value: "Sometimes": '
    'supported values: "Immediate", "WaitForFirstConsumer"'
)
# What validate says after the message: the apiVersion and the release the object was judged as.
JUDGED_AS = "(resource.k8s.io/v1alpha2, judged as Kubernetes 1.30)"
REVIEW = ROOT / "tests" / "data" / "claim-status-too-many-consumers.json"
DENIED_REVIEW = (
    'ResourceClaim.resource.k8s.io "gpu-claim" is invalid: '
    "status.reservedFor: Too long: may not be longer than 32"
)
BUILDS = {"compiled": "compiled with mypyc", "pure": "pure Python"}
# The Python API as the README shows it: a v1 claim with an unsupported allocation mode.
PYTHON_API = (
    "import json\n"
    "from webhook import review, review_manifest\n"
    "exactly = {'deviceClassName': 'gpu.example.com', 'allocationMode': 'Sometimes'}\n"
    "request = {'name': 'gpu', 'exactly': exactly}\n"
    "claim = {'apiVersion': 'resource.k8s.io/v1', 'kind': 'ResourceClaim', 'metadata': {'name': 'gpu'},\n"
    "         'spec': {'devices': {'requests': [request]}}}\n"
    "print(json.dumps(review_manifest(claim)))\n"
)
DENIED_BY_PYTHON = (
    'ResourceClaim.resource.k8s.io "gpu" is invalid: spec.devices.requests[0].exactly.allocationMode: '
    'Unsupported value: "Sometimes": supported values: "All", "ExactCount"'
)


class CheckFailed(Exception):
    pass


def check(condition: bool, what: str) -> None:
    if not condition:
        raise CheckFailed(what)


def run(venv: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # No DRA_WEBHOOK_* from the caller's environment: the installed build decides.
    environ = {name: value for name, value in os.environ.items() if not name.startswith("DRA_WEBHOOK_")}
    return subprocess.run(
        [str(venv / "bin" / argv[0]), *argv[1:]],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def check_version(venv: Path, build: str, cwd: Path) -> str:
    metadata = run(
        venv, "python", "-c", "import importlib.metadata as m; print(m.version('dra-webhook'))", cwd=cwd
    )
    check(metadata.returncode == 0, f"no dra-webhook metadata: {metadata.stderr}")
    number = metadata.stdout.strip()
    shown = run(venv, "dra-webhook", "--version", cwd=cwd)
    text = " ".join(shown.stdout.split())  # argparse wraps the version text
    check(shown.returncode == 0, f"--version: exit status {shown.returncode}: {shown.stderr}")
    check(text.startswith(f"dra-webhook {number}; rules: "), f"--version {text!r} is not metadata's {number}")
    if build != "any":
        check(f"rules: {BUILDS[build]}" in text, f"--version {text!r}: expected the rules {BUILDS[build]}")
    return text


def check_offline(venv: Path, cwd: Path) -> None:
    validated = run(venv, "dra-webhook", "validate", str(MANIFEST), cwd=cwd)
    check(
        validated.returncode == 1, f"validate: exit status {validated.returncode}, not 1: {validated.stderr}"
    )
    check(
        validated.stdout == f"{MANIFEST}: {DENIED_MANIFEST} {JUDGED_AS}\n",
        f"validate printed {validated.stdout!r}, not the API server's message",
    )
    reviewed = run(venv, "dra-webhook", "review", str(REVIEW), cwd=cwd)
    check(reviewed.returncode == 1, f"review: exit status {reviewed.returncode}, not 1: {reviewed.stderr}")
    status = json.loads(reviewed.stdout)["response"]["status"]
    check(status["message"] == DENIED_REVIEW, f"review: {status['message']!r}")


def check_python_api(venv: Path, cwd: Path) -> None:
    judged = run(venv, "python", "-c", PYTHON_API, cwd=cwd)
    check(judged.returncode == 0, f"the Python API: exit status {judged.returncode}: {judged.stderr}")
    response = json.loads(judged.stdout)
    check(response["allowed"] is False, f"review_manifest allowed an invalid claim: {response}")
    check(
        response["status"]["message"] == DENIED_BY_PYTHON,
        f"review_manifest: {response['status']['message']!r}",
    )


def check_certs_and_manifests(venv: Path, cwd: Path) -> Path:
    certs = cwd / "certs"
    made = run(
        venv, "dra-webhook", "certs", "--service", "dra-webhook", "--namespace", "ci", "--out", str(certs),
        "--dns", "localhost", "--ip", "127.0.0.1", cwd=cwd,
    )  # fmt: skip
    check(made.returncode == 0, f"certs: exit status {made.returncode}: {made.stderr}")
    check(
        all((certs / name).is_file() for name in ("tls.crt", "tls.key", "ca.crt")), "certs wrote no key pair"
    )
    rendered = run(
        venv, "dra-webhook", "manifests", "--namespace", "ci", "--ca-bundle", str(certs / "ca.crt"), cwd=cwd
    )
    check(rendered.returncode == 0, f"manifests: exit status {rendered.returncode}: {rendered.stderr}")
    check(
        "kind: ValidatingWebhookConfiguration" in rendered.stdout,
        "manifests: no ValidatingWebhookConfiguration",
    )
    return certs


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def check_serve(venv: Path, certs: Path, cwd: Path) -> None:
    port = free_port()
    server = subprocess.Popen(
        [
            str(venv / "bin" / "dra-webhook"), "serve", "--host", "127.0.0.1", "--port", str(port),
            "--cert-dir", str(certs), "--no-generate-certs", "--workers", "1", "--log-format", "text",
        ],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    context = ssl.create_default_context(cafile=str(certs / "ca.crt"))
    base = f"https://localhost:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            check(server.poll() is None, f"serve exited with status {server.returncode}")
            try:
                with urllib.request.urlopen(f"{base}/readyz", context=context, timeout=5) as ready:
                    if ready.status == 200:
                        break
            except OSError:
                pass
            check(time.monotonic() < deadline, "serve was not ready within 30 s")
            time.sleep(0.2)
        request = urllib.request.Request(
            f"{base}/validate", data=REVIEW.read_bytes(), headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, context=context, timeout=10) as answer:
            response = json.loads(answer.read())["response"]
        check(not response["allowed"], "serve allowed the review")
        check(response["status"]["message"] == DENIED_REVIEW, f"serve: {response['status']['message']!r}")
        server.send_signal(signal.SIGTERM)
        check(server.wait(timeout=30) == 0, f"serve stopped with status {server.returncode}")
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        log = server.stdout.read() if server.stdout else ""
        if server.returncode != 0:
            print(log, file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("venv", type=Path, help="a virtual environment dra-webhook was installed into")
    parser.add_argument(
        "--build", choices=["compiled", "pure", "any"], default="any", help="the build expected"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dra-webhook-check-") as scratch:
        cwd = Path(scratch)
        try:
            version = check_version(args.venv, args.build, cwd)
            check_offline(args.venv, cwd)
            check_python_api(args.venv, cwd)
            check_serve(args.venv, check_certs_and_manifests(args.venv, cwd), cwd)
        except (CheckFailed, subprocess.TimeoutExpired, OSError, ValueError, KeyError) as failure:
            print(f"check_install: {args.venv}: FAILED: {failure}", file=sys.stderr)
            return 1
    checked = "validate, review, the Python API, certs, manifests, serve"
    print(f"check_install: {args.venv}: {version}; {checked} as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
