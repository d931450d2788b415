"""The typed reader of hands' environment variables, and the table generated from it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hands.agent.subagents.limits import max_depth
from hands.core import env
from hands.core.limits import Limits
from hands.tools.browser._settings import BrowserSettings
from paths import REPO

SET_NOT_READ = {"HANDS_SHELL_TASK", "HANDS_PROJECT_DIR"}
"""Variables hands sets for the programs it starts, never reads for itself."""


def test_the_docs_table_is_the_one_generated_from_the_list() -> None:
    doc = (REPO / "docs" / "environment.md").read_text()
    assert doc.endswith(env.table())
    assert all(f"`{v.name}`" in doc for v in env.VARIABLES)


def test_every_hands_variable_named_in_the_source_is_listed() -> None:
    named: set[str] = set()
    for path in (REPO / "src" / "hands").rglob("*.py"):
        named |= set(re.findall(r"\"(HANDS_[A-Z0-9_]*[A-Z0-9])\"", path.read_text()))
    listed = {v.name for v in env.VARIABLES}
    assert named - SET_NOT_READ <= listed, sorted(named - SET_NOT_READ - listed)


def test_unset_gives_the_default_and_a_claude_code_name_stands_in() -> None:
    assert env.count("HANDS_MAX_TOOL_CONCURRENCY", {}) == 10
    assert env.switch("HANDS_BROWSER", {}) is None  # no default: decided another way
    glob = {"CLAUDE_CODE_GLOB_TIMEOUT_SECONDS": "2.5"}
    assert env.number("HANDS_GLOB_TIMEOUT_SECONDS", glob) == 2.5
    both = {**glob, "HANDS_GLOB_TIMEOUT_SECONDS": "4"}
    assert env.number("HANDS_GLOB_TIMEOUT_SECONDS", both) == 4.0  # hands' own name wins
    assert env.whole("HANDS_WEBFETCH_CACHE_TTL_MS", {"HANDS_WEBFETCH_CACHE_TTL_MS": "0"}) == 0


@pytest.mark.parametrize(
    ("read", "variables", "named"),
    [
        (
            Limits.from_env,
            {"HANDS_MAX_TOOL_CONCURRENCY": "ten"},
            "HANDS_MAX_TOOL_CONCURRENCY='ten'",
        ),
        (Limits.from_env, {"HANDS_TOOL_TIMEOUT_MS": "0"}, "HANDS_TOOL_TIMEOUT_MS='0'"),
        (Limits.from_env, {"HANDS_SIMPLE": "maybe"}, "HANDS_SIMPLE='maybe'"),
        (max_depth, {"HANDS_MAX_SUBAGENT_DEPTH": "-2"}, "HANDS_MAX_SUBAGENT_DEPTH='-2'"),
        (BrowserSettings.from_env, {"HANDS_BROWSER_HEADLESS": "2"}, "HANDS_BROWSER_HEADLESS='2'"),
    ],
)
def test_a_bad_value_is_one_error_naming_the_variable(
    read: object, variables: dict[str, str], named: str
) -> None:
    with pytest.raises(env.EnvError) as caught:
        read(variables)  # type: ignore[operator]
    assert str(caught.value).startswith(named) and "\n" not in str(caught.value)


def test_a_bad_claude_code_name_is_named_as_set() -> None:
    found = env.problems({"CLAUDE_CODE_GLOB_TIMEOUT_SECONDS": "soon"})
    assert [str(e).split("=")[0] for e in found] == ["CLAUDE_CODE_GLOB_TIMEOUT_SECONDS"]


def test_the_cli_stops_on_a_bad_value_with_one_line_and_exit_2(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "hands", "tool", "Read", '{"file_path": "x"}'],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "HANDS_MAX_TOOL_CONCURRENCY": "lots"},
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "hands: HANDS_MAX_TOOL_CONCURRENCY='lots' is not a whole number above 0. "
        "Unset it or set a whole number above 0."
    ]


def test_a_text_variable_with_a_shape_is_checked_against_it() -> None:
    from hands.discovery.deferral import DeferralMode

    assert DeferralMode.from_env({"ENABLE_TOOL_SEARCH": "auto:5%"}).percent == 5.0
    with pytest.raises(env.EnvError, match="HANDS_TOOL_SEARCH='sometimes' is not auto"):
        DeferralMode.from_env({"HANDS_TOOL_SEARCH": "sometimes"})
