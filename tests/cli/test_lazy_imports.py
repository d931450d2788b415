"""What a command imports: only what it uses, and the lazily built pool is the eager one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

Completed = subprocess.CompletedProcess[str]

RUNNER = """
import atexit, json, sys
atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))
sys.argv = ["hands", *json.loads(sys.argv[1])]
from hands.cli.entry import main
main()
"""
"""Runs the ``hands`` command in-process, then prints every module it imported."""


def python(*args: str, cwd: Path, env: dict[str, str] | None = None) -> Completed:
    """``python ARGS`` in ``cwd``, with a hands home of its own there."""
    variables = {**os.environ, "HANDS_HOME": str(cwd / "home"), **(env or {})}
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=variables,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )


def imported(
    args: list[str], cwd: Path, env: dict[str, str] | None = None
) -> tuple[Completed, set[str]]:
    proc = python("-c", RUNNER, json.dumps(args), cwd=cwd, env=env)
    modules = json.loads(proc.stderr.strip().splitlines()[-1])
    return proc, set(modules)


def under(modules: set[str], *packages: str) -> set[str]:
    return {m for m in modules if any(m == p or m.startswith(f"{p}.") for p in packages)}


def test_a_read_loads_no_other_tool_nor_the_sdks(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello\n")
    proc, modules = imported(["tool", "Read", json.dumps({"file_path": "a.txt"})], tmp_path)
    assert proc.returncode == 0 and proc.stdout == "1\thello\n", proc.stderr
    assert "hands.tools.file.read" in modules
    assert not under(modules, "anthropic", "openai", "mcp", "typer", "rich")
    assert not under(modules, "hands.tools.web", "hands.tools.bash.bash", "hands.tools.search")
    assert not under(modules, "hands.tools.browser", "hands.tools.planning", "hands.mcp")
    assert not under(modules, "hands.hooks", "hands.agent", "hands.models")
    assert "hands.config.commands" not in modules  # the folder has no command to list
    # a text file: the notebook and PDF readers stay unloaded
    assert not {"hands.tools.file._notebook_cells", "hands.tools.file._pdf"} & modules
    assert "hands.core.images" not in modules  # nor the image preparation
    # no domain rule nor sandbox domain to spell: the IDNA tables stay unloaded
    assert not under(modules, "idna", "hands.net")
    assert "difflib" not in modules  # only a missing file's suggestion needs it


def test_a_webfetch_domain_rule_still_reaches_the_fetcher(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello\n")
    settings = json.dumps({"permissions": {"allow": ["WebFetch(domain:example.com)"]}})
    args = ["tool", "Read", json.dumps({"file_path": "a.txt"}), "--settings", settings]
    proc, modules = imported(args, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "hands.tools.web.web_fetch" in modules  # its declared subject reads the rule


def script(tmp_path: Path) -> str:
    path = tmp_path / "script.json"
    path.write_text(json.dumps({"turns": [{"blocks": [{"type": "text", "text": "Done."}]}]}))
    return f"scripted:{path}"


def test_print_mode_without_hooks_or_servers_loads_neither(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    args = ["-p", "hi", "--model", script(tmp_path), "--output-format", "stream-json"]
    proc, modules = imported(args, project, env={"HANDS_BROWSER": "0"})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[-1])["result"] == "Done."
    assert not under(modules, "mcp", "anthropic", "hands.hooks")
    assert not under(modules, "wordllama", "tokenizers", "safetensors", "bm25s")  # ToolSearch's
    browser = under(modules, "hands.tools.browser")
    assert browser == {"hands.tools.browser", "hands.tools.browser._settings"}  # asked only
    assert not under(modules, "hands.mcp.connection", "hands.mcp.oauth", "hands.mcp.tools")
    assert "hands.tools.planning.todo_write" not in modules  # the Task tools are on


def test_print_mode_with_the_browser_on_loads_no_http_client(tmp_path: Path) -> None:
    """The browser's tools are offered, not used: nothing of an HTTP stack is loaded."""
    project = tmp_path / "project"
    project.mkdir()
    args = ["-p", "hi", "--model", script(tmp_path), "--output-format", "stream-json"]
    proc, modules = imported(args, project, env={"HANDS_BROWSER": "1"})
    assert proc.returncode == 0, proc.stderr
    assert "hands.tools.browser.browser_navigate" in modules  # offered, so the check can fail
    assert not under(modules, "http.client", "urllib.request", "httpx", "playwright")


def test_print_mode_with_a_hook_loads_the_hook_engine(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    hook = {"type": "command", "command": "true"}
    settings = {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [hook]}]}}
    args = ["-p", "hi", "--model", script(tmp_path), "--settings", json.dumps(settings)]
    proc, modules = imported(args, project)
    assert proc.returncode == 0 and proc.stdout == "Done.\n", proc.stderr
    assert "hands.hooks.engine" in modules
    assert not under(modules, "hands.cli.sdk")  # an Agent SDK's flags are not read


EAGER = """
import json
from hands.cli.tool_info import describe_tool
from hands.pipeline.pool import all_base_tools, assemble_pool
pool = assemble_pool(base=all_base_tools())
print(json.dumps([describe_tool(t) for t in pool], indent=2))
"""
"""``hands tools --json`` as a pool built from every built-in's module would print it."""


@pytest.mark.parametrize(
    "variables",
    [{}, {"HANDS_BROWSER": "0"}, {"HANDS_BROWSER": "1"}, {"HANDS_ENABLE_TASKS": "0"}],
)
def test_tools_json_is_the_eager_pool(tmp_path: Path, variables: dict[str, str]) -> None:
    proc = python("-m", "hands", "tools", "--json", cwd=tmp_path, env=variables)
    eager = python("-c", EAGER, cwd=tmp_path, env=variables)
    assert proc.returncode == 0 and eager.returncode == 0, proc.stderr + eager.stderr
    assert proc.stdout == eager.stdout
    names = [t["name"] for t in json.loads(proc.stdout)]
    assert ("TodoWrite" in names) == (variables.get("HANDS_ENABLE_TASKS") == "0")
    if variables.get("HANDS_BROWSER") in ("0", "1"):
        assert ("Browser_navigate" in names) == (variables["HANDS_BROWSER"] == "1")


SERVE = """
import json, os, sys
from pathlib import Path
from hands.cli.mcp_serve import build_bridge
bridge = build_bridge(cwd=Path.cwd())
before = sorted(m for m in sys.modules if m.startswith("hands.tools."))
names = [t.name for t in bridge.tool_list()]
after = sorted(m for m in sys.modules if m.startswith("hands.tools."))
plugins_flag = os.environ.get("PYDANTIC_DISABLE_PLUGINS")
print(json.dumps({"before": before, "after": after, "names": names, "flag": plugins_flag}))
"""
"""``hands mcp serve``'s bridge before and after the host's first ``tools/list``."""


def test_mcp_serve_answers_initialize_before_it_imports_a_tool(tmp_path: Path) -> None:
    proc = python("-c", SERVE, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    seen = json.loads(proc.stdout.splitlines()[-1])
    assert not under(set(seen["before"]), "hands.tools.file", "hands.tools.bash.bash")
    assert {"hands.tools.file.read", "hands.tools.bash.bash"} <= set(seen["after"])
    assert {"Read", "Edit", "Bash", "Grep"} <= set(seen["names"])
    assert seen["flag"] is None  # the tools run in the user's own environment
