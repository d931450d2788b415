# Every target sets up what it needs: `make demo` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install lint typecheck test conformance-auth demo bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

lint: install
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/lint-imports

typecheck: install
	$(VENV)/bin/pyright
	$(VENV)/bin/pyright -p tests

test: install
	$(VENV)/bin/pytest

# Every auth/* scenario of the MCP conformance suite against hands' OAuth (`test` runs a few).
conformance-auth: install
	HANDS_MCP_AUTH_CONFORMANCE=all $(VENV)/bin/pytest tests/mcp/conformance/test_auth_scenarios.py -v -rs

demo: install
	$(VENV)/bin/hands demo

bench: install
	$(PY) -m pip install -q -e '.[dev,bench]'
	@for script in benchmarks/*.py; do echo "== $$script"; $(PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
