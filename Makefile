# Two commands on a fresh machine with only Python 3 and make:
#   make run    create .venv, install, generate development certificates into certs/, serve HTTPS on 127.0.0.1:8443
#   make test   create .venv with the test extras and run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8443
CERT_DIR ?= certs

.PHONY: run test lint fuzz bench bench-rules bench-soak bench-profile clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Re-install whenever pyproject.toml changes.
$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed-run

run: $(VENV)/.installed-run
	$(BIN)/dra-webhook serve --host $(HOST) --port $(PORT) --cert-dir $(CERT_DIR)

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

lint: $(VENV)/.installed-test
	$(BIN)/ruff check webhook tests
	$(BIN)/ruff format --check webhook tests
	$(BIN)/mypy

# The load benchmark (bench/load.py, docs/performance.md): the real server against an echo server on
# the same stack, on 127.0.0.1, with wrk (installed from Debian when missing); bench/results/latest.json.
bench: $(VENV)/.installed-run
	$(BIN)/python bench/load.py

# The rules alone, without HTTP: reviews per second per core for every request of the mix.
bench-rules: $(VENV)/.installed-run
	$(BIN)/python bench/rules.py

# RSS of every worker over 1,000,000 requests (about 10 minutes here): memory must stay flat.
bench-soak: $(VENV)/.installed-run
	$(BIN)/python bench/load.py --soak 1000000

$(VENV)/.installed-bench: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	touch $@ $(VENV)/.installed-run

# One more saturated run with py-spy flame graphs of each worker (bench/results/profile-worker-*.svg).
bench-profile: $(VENV)/.installed-bench
	$(BIN)/python bench/load.py --profile

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
