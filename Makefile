# Two commands on a fresh machine with only Python 3 and make:
#   make run    create .venv, install, generate development certificates into certs/, serve HTTPS on 127.0.0.1:8443
#   make test   create .venv with the test extras and run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8443
CERT_DIR ?= certs

.PHONY: run test lint fuzz lock bench bench-rules bench-soak bench-profile clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Re-install whenever pyproject.toml or the lock changes. The runtime dependencies come from
# requirements.lock: exact versions, and pip refuses any file whose sha256 is not listed there (the
# hashes of every wheel of each version: x86_64 and aarch64 alike). Then the project, without them.
$(VENV)/.installed-run: pyproject.toml requirements.lock | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

# The extras on top of the locked runtime dependencies (pip keeps those: they already satisfy).
$(VENV)/.installed-test: pyproject.toml | $(VENV)/.installed-run
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

run: $(VENV)/.installed-run
	$(BIN)/dra-webhook serve --host $(HOST) --port $(PORT) --cert-dir $(CERT_DIR)

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

lint: $(VENV)/.installed-test
	$(BIN)/ruff check webhook tests
	$(BIN)/ruff format --check webhook tests
	$(BIN)/mypy

# The long fuzzing run (docs/robustness.md): random examples instead of CI's fixed ones, FUZZ_EXAMPLES
# per hypothesis test and 40 times the seeded loops (about 15 minutes here). A failure prints how to
# replay it: a @reproduce_failure blob, or DRA_FUZZ_SEED=<seed>. `make fuzz FUZZ_EXAMPLES=200` is quick.
FUZZ_EXAMPLES ?= 4000
fuzz: $(VENV)/.installed-test
	DRA_FUZZ_PROFILE=fuzz DRA_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest tests/fuzz -x -p no:cacheprovider

# Re-resolve requirements.lock from pyproject.toml's dependencies, with pip-tools in a throwaway venv.
# Run it with the image's Python (3.11): the lock is resolved for the interpreter that runs pip-compile.
lock:
	$(PYTHON) -m venv $(VENV)-lock
	$(VENV)-lock/bin/python -m pip install --quiet pip-tools
	CUSTOM_COMPILE_COMMAND="make lock" $(VENV)-lock/bin/pip-compile --quiet --generate-hashes --strip-extras \
		--no-emit-index-url --no-emit-find-links --output-file requirements.lock pyproject.toml
	rm -rf $(VENV)-lock

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

$(VENV)/.installed-bench: pyproject.toml | $(VENV)/.installed-run
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	touch $@

# One more saturated run with py-spy flame graphs of each worker (bench/results/profile-worker-*.svg).
bench-profile: $(VENV)/.installed-bench
	$(BIN)/python bench/load.py --profile

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
