"""The offline entry points: `dra-webhook review` and `python -m webhook` (SPEC A.6)."""

from __future__ import annotations

import importlib.metadata
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import webhook
from webhook.cli import main

DATA = Path(__file__).parent / "data"
ALLOWED = DATA / "claim-create-allowed.json"
DENIED = DATA / "claim-status-too-many-consumers.json"


def test_review_prints_the_answer_and_exits_0_when_allowed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(ALLOWED)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["response"] == {"uid": "7f0b2c1e-0000-4000-8000-000000000001", "allowed": True}


def test_review_exits_1_when_any_review_is_denied(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "--compact", str(ALLOWED), str(DENIED)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["response"]["allowed"] for line in lines] == [True, False]


@pytest.mark.parametrize("name", ["claim-spec-changed.json", "template-spec-changed.json"])
def test_immutable_spec_reviews_are_denied(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(DATA / name)]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["response"]["status"]["details"]["causes"][0]["field"] == "spec"


def test_review_exits_2_on_unreadable_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert main(["review", str(ALLOWED), str(broken), str(DENIED)]) == 2
    assert "broken.json: request body is not valid JSON" in capsys.readouterr().err


def test_review_exits_2_on_a_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "/nonexistent/review.json"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_review_reads_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(DENIED.read_bytes())))
    assert main(["review", "-"]) == 1
    assert json.loads(capsys.readouterr().out)["response"]["status"]["reason"] == "Invalid"


def test_python_dash_m_webhook_runs_the_same_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "webhook", "review", "--compact", "-"],
        input=DENIED.read_bytes(),
        capture_output=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 1, result.stderr
    answer = json.loads(result.stdout)
    assert answer["response"]["status"]["message"] == (
        'ResourceClaim.resource.k8s.io "gpu-claim" is invalid: status.reservedFor: Too long: may not be longer than 32'
    )


def test_version_names_the_installed_version_and_the_build_of_the_rules(
    capsys: pytest.CaptureFixture[str],
) -> None:
    try:  # the package metadata of the install (pyproject's version when it was installed)
        number = importlib.metadata.version("dra-webhook")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout that was never installed
        number = "(not installed)"
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    shown = " ".join(capsys.readouterr().out.split())  # argparse wraps a long version text
    assert shown == f"dra-webhook {number}; rules: {webhook.BUILD.describe()}"
