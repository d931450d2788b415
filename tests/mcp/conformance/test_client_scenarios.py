"""The official MCP conformance suite's client scenarios, against hands' MCP client.

The suite starts a server per scenario and runs ``client_driver.py URL``; its checks
decide. The ``auth/*`` scenarios are run by the OAuth tests.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conformance.harness import list_scenarios, run_client_scenario

DRIVER = Path(__file__).with_name("client_driver.py")

SCENARIOS = ("initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry")

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]  # the first run installs the npm package


def test_every_non_auth_client_scenario_is_covered() -> None:
    _, client = list_scenarios()
    assert sorted(s for s in client if not s.startswith("auth/")) == sorted(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_client_scenario(scenario: str, tmp_path: Path) -> None:
    result = run_client_scenario(scenario, [sys.executable, str(DRIVER)], tmp_path)
    assert result.passed, f"{result.describe()}\n--- suite output ---\n{result.output[-3000:]}"
