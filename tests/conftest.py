"""Fixtures every test module may ask for by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from webhook.tls import ensure_development_certificates


@pytest.fixture(scope="session")
def cert_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A development certificate directory, made once per run (keys are slow): ca.crt, ca.key, tls.crt
    and tls.key for localhost, 127.0.0.1 and ::1. Read-only: a test that changes the pair copies it."""
    directory = tmp_path_factory.mktemp("certs")
    ensure_development_certificates(directory)
    return directory
