"""The typed reader of hands' environment variables, and the table generated from it."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hands.agent.compaction.settings import CompactionSettings
from hands.agent.subagents.limits import max_depth
from hands.cli.root_check import sandboxed
from hands.config.trust import trust_file
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
        (sandboxed, {"HANDS_SANDBOX": "maybe"}, "HANDS_SANDBOX='maybe'"),
        (sandboxed, {"IS_SANDBOX": "perhaps"}, "IS_SANDBOX='perhaps'"),
        (
            CompactionSettings.from_env,
            {"HANDS_CONTEXT_WINDOW": "big"},
            "HANDS_CONTEXT_WINDOW='big'",
        ),
    ],
)
def test_a_bad_value_is_one_error_naming_the_variable(
    read: object, variables: dict[str, str], named: str
) -> None:
    with pytest.raises(env.EnvError) as caught:
        read(variables)  # type: ignore[operator]
    assert str(caught.value).startswith(named) and "\n" not in str(caught.value)


def test_set_but_empty_is_told_from_unset_and_home_follows_the_mapping_read() -> None:
    assert env.given("HANDS_MANAGED_SETTINGS", {"HANDS_MANAGED_SETTINGS": ""}) == ""
    assert env.given("HANDS_MANAGED_SETTINGS", {}) is None
    assert env.given("HANDS_ENV_FILE", {"CLAUDE_ENV_FILE": " /tmp/x.sh "}) == "/tmp/x.sh"
    assert trust_file({"HOME": "/h"}) == Path("/h/.hands/trusted.json")
    assert trust_file({"HOME": "/h", "HANDS_HOME": "/o"}) == Path("/o/trusted.json")


def test_a_value_out_of_range_names_the_claude_code_variable_that_was_read() -> None:
    claude = {"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "500"}
    assert env.source("HANDS_CONTEXT_WINDOW", claude) == "CLAUDE_CODE_AUTO_COMPACT_WINDOW"
    with pytest.raises(env.EnvError, match=r"^CLAUDE_CODE_AUTO_COMPACT_WINDOW must be at least"):
        CompactionSettings.from_env(claude)


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


def _strings(node: ast.expr, names: dict[str, set[str]]) -> set[str]:
    """The strings an expression can be: a literal, a collection of literals, or a name
    bound to either at module level or as a loop variable over one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.Name):
        return names.get(node.id, set())
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return set().union(*(_strings(e, names) for e in node.elts))
    return set()


def direct_hands_reads(source: str) -> list[str]:
    """``line: name`` for each read of a ``HANDS_`` variable not through ``core.env``:
    ``x.get(NAME)``, ``getenv(NAME)``, ``x[NAME]`` (loaded) and ``NAME in x``."""
    tree = ast.parse(source)
    names: dict[str, set[str]] = {}
    for node in ast.walk(tree):  # module constants and loop variables, in source order
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    names[target.id] = names.get(target.id, set()) | _strings(node.value, names)
        elif isinstance(node, ast.For | ast.comprehension) and isinstance(node.target, ast.Name):
            names[node.target.id] = names.get(node.target.id, set()) | _strings(node.iter, names)
    found: list[str] = []
    for node in ast.walk(tree):
        read: ast.expr | None = None
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            read = node.args[0] if called in ("get", "getenv") else None
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            read = node.slice
        elif isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In | ast.NotIn):
            read = node.left
        if read is not None:
            hands = sorted(n for n in _strings(read, names) if n.startswith("HANDS_"))
            found += [f"{getattr(node, 'lineno', 0)}: {n}" for n in hands]
    return found


def test_the_scan_finds_each_shape_of_direct_read() -> None:
    source = """
import os
HOME_VAR = "HANDS_HOME"
BOTH = ("CLAUDE_ENV_FILE", "HANDS_ENV_FILE")
a = os.environ.get("HANDS_MODEL")
b = os.getenv(HOME_VAR)
c = env["HANDS_SANDBOX"]
d = "HANDS_SIMPLE" in env
for var in BOTH:
    e = os.environ.get(var)
env["HANDS_PROJECT_DIR"] = "set, not read"
f = text("HANDS_MODEL", env)
"""
    assert direct_hands_reads(source) == [
        "5: HANDS_MODEL",
        "6: HANDS_HOME",
        "7: HANDS_SANDBOX",
        "8: HANDS_SIMPLE",
        "10: HANDS_ENV_FILE",
    ]


def test_no_module_but_core_env_reads_a_hands_variable_directly() -> None:
    reader = REPO / "src" / "hands" / "core" / "env.py"
    found = {
        str(path.relative_to(REPO)): reads
        for path in sorted((REPO / "src" / "hands").rglob("*.py"))
        if path != reader and (reads := direct_hands_reads(path.read_text()))
    }
    assert found == {}, "read these through hands.core.env: " + repr(found)
