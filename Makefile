# Every target sets up what it needs: `make demo` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install lint typecheck test conformance conformance-auth reliability demo bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

# The compiled methods of the classes hands makes, kept beside the package as its byte code
# is (hands.cli.dataclass_code): a command started in a new hands home, where it can write
# nothing else (a sandbox, a CI runner, a batch worker), finds them there. Made again when
# a module changes.
KEPT_CODE := src/hands/cli/__pycache__/dataclass-code.$(shell $(PYTHON) -c 'import sys; print(sys.implementation.cache_tag)').marshal
$(KEPT_CODE): $(STAMP) $(shell find src/hands -name '*.py' -not -path '*/demo/sample/*')
	$(PY) -m hands.cli.keep_code

install: $(STAMP) $(KEPT_CODE)

lint: install
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/lint-imports

typecheck: install
	$(VENV)/bin/pyright
	$(VENV)/bin/pyright -p tests

# TEST_WORKERS=N runs the tests in N processes (pytest-xdist); most tests wait on
# subprocesses, terminals and servers, so N may exceed the cores (4 on 2 cores). Tests
# that share a module-wide fixture stay in one worker, the browser tests run one at a
# time (tests/conftest.py). 4 is the default; 0 runs them one by one in this process,
# as CI does (.ci/run): there one flaky wait would keep a change from landing.
# With workers, the temporary folders live under a short fresh folder: the workers' own
# subfolders would otherwise lengthen every path a terminal test shows.
# The byte code is compiled once up front, and written: with PYTHONDONTWRITEBYTECODE
# set, each of the hundreds of `hands` processes the tests start compiled its modules.
TEST_WORKERS ?= 4
test: install
	$(PY) -m compileall -q -j 0 src tests >/dev/null
	PYTHONDONTWRITEBYTECODE= $(VENV)/bin/pytest -n $(TEST_WORKERS) --dist loadgroup \
		$(if $(filter-out 0,$(TEST_WORKERS)),--basetemp=$$(mktemp -d))

# The MCP conformance suite and the Inspector alone, scenario by scenario (also in `test`).
conformance: install
	$(VENV)/bin/pytest tests/mcp/conformance -v -rs

# faults, fuzzing, crashes and load (tests/reliability, left out of `make test`); the
# table goes to reliability-report.md. RELIABILITY_SCALE=full for the big run,
# RELIABILITY_WORKERS=N worker processes, RELIABILITY_SEED=S replays a run.
reliability: install
	RELIABILITY_SCALE=$${RELIABILITY_SCALE:-ci} $(VENV)/bin/pytest tests/reliability

# Every auth/* scenario of the MCP conformance suite against hands' OAuth (`test` runs a few).
conformance-auth: install
	HANDS_MCP_AUTH_CONFORMANCE=all $(VENV)/bin/pytest tests/mcp/conformance/test_auth_scenarios.py -v -rs

demo: install
	$(VENV)/bin/hands demo

bench: install
	$(PY) -m pip install -q -e '.[dev,bench]'
	@command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; }
	@for script in benchmarks/*.py; do echo "== $$script"; $(PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
