"""Custom agent types from Markdown files, the shared fixtures among them."""

from __future__ import annotations

from pathlib import Path

import pytest

from hands.agent.loop import QueryOptions, query
from hands.agent.subagents.catalog import AgentCatalog
from hands.agent.subagents.files import agent_files, read_agent_files
from hands.agent.subagents.tool import AgentTool
from hands.orchestration.events import ToolResultEvent
from hands.pipeline.pool import pool_for
from hands.testing import ScriptedModel
from paths import CLAUDE_CONFIGS, needs_claude_configs

from .support import agent_call, routed, run_all, text

AGENT_FIXTURES = CLAUDE_CONFIGS / "agents"


def write_agent(
    root: Path, name: str, front: str, body: str = "You help.", sub: str = ".claude"
) -> Path:
    path = root / sub / "agents" / f"{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\n{front}\n---\n{body}\n")
    return path


@needs_claude_configs
def test_every_fixture_agent_file_loads_and_the_one_without_frontmatter_is_reported() -> None:
    files = sorted(AGENT_FIXTURES.glob("*.md"))
    assert len(files) == 14
    loaded = read_agent_files(files)
    names = sorted(a.name for a in loaded.agents)
    # 13 files define 12 names: three are called code-reviewer, the last read wins
    assert names == sorted(
        {
            "ci-debugger", "code-reviewer", "auditor", "kit-push-review-agent",
            "graph-codebase-navigator", "safe-agent", "code-review", "reviewer",
            "meta-agent", "test-runner", "changelog-manager",
        }
    )  # fmt: skip
    assert len(loaded.warnings) == 1
    assert "014.md" in loaded.warnings[0] and "no YAML frontmatter" in loaded.warnings[0]
    by_source = {f.name: a for f in files for a in read_agent_files([f]).agents}
    assert by_source["001.md"].tools == ("Read", "Grep", "Glob", "Bash")
    assert by_source["001.md"].description.startswith("CI/CD failure diagnosis specialist.")
    assert by_source["001.md"].model == "sonnet"
    assert by_source["002.md"].max_turns == 15
    assert by_source["003.md"].disallowed_tools == ("Write", "Edit")
    assert by_source["004.md"].permission_mode == "bypassPermissions"
    assert "PreToolUse" in by_source["004.md"].hooks
    assert by_source["005.md"].background is True
    assert by_source["006.md"].tools is None and "<example>" in by_source["006.md"].description
    assert by_source["007.md"].tools is None  # allowed-tools is a skill's key, not an agent's
    assert by_source["009.md"].tools == ("Read", "Glob", "Grep", "SendMessage")
    assert "mcp__firecrawl-mcp__firecrawl_scrape" in (by_source["011.md"].tools or ())
    assert by_source["013.md"].max_turns == 5


@needs_claude_configs
@pytest.mark.anyio
async def test_a_fixture_agent_runs_with_the_tools_its_file_names(tmp_path: Path) -> None:
    loaded = read_agent_files([AGENT_FIXTURES / "009.md"])  # Read, Glob, Grep, SendMessage
    catalog = AgentCatalog(loaded.agents)
    model = routed(
        [[agent_call("review the backend", subagent_type="reviewer")], [text("ok")]],
        {"review the backend": [[text("no findings")]]},
    )
    options = QueryOptions(model=model, tools=pool_for(extra=[AgentTool(catalog)]), cwd=tmp_path)
    events = await run_all(query("go", options))
    block = next(e.outcome.block for e in events if isinstance(e, ToolResultEvent))
    assert not block.is_error, block.text
    route = model.routes["review the backend"]
    assert isinstance(route, ScriptedModel)
    request = route.requests[0]
    assert sorted(t.name for t in request.tools) == ["Glob", "Grep", "Read", "SendMessage"]
    assert request.system.startswith("# Backend Code Reviewer")


def test_a_project_agent_never_replaces_a_users_and_bad_files_are_warnings(
    tmp_path: Path,
) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    write_agent(home, "helper", "name: helper\ndescription: the user's", sub=".claude")
    write_agent(home, "solo", "name: solo\ndescription: only the user's", sub=".hands")
    write_agent(project, "helper", "name: helper\ndescription: the project's", sub=".hands")
    write_agent(project, "broken", "name: broken\ndescription: [unclosed")
    write_agent(project, "nameless", "description: no name")
    write_agent(project, "turns", "name: turns\ndescription: d\nmaxTurns: zero")
    catalog = AgentCatalog.load(cwd=project, home=home, trusted=True)
    helper, theirs = catalog.find("helper"), catalog.find("project:helper")
    assert helper is not None and helper.description == "the user's"
    assert theirs is not None and theirs.description == "the project's"
    assert catalog.find("solo") is not None
    assert catalog.find("broken") is None
    assert len(catalog.warnings) == 3
    joined = "\n".join(catalog.warnings)
    assert "broken.md" in joined and "not valid YAML" in joined
    assert "nameless.md" in joined and "'name'" in joined
    assert "turns.md" in joined and "maxTurns" in joined
    assert [p.name for p in agent_files(project)] == [
        "broken.md",
        "nameless.md",
        "turns.md",
        "helper.md",
    ]
    # the Agent tool's description lists every type with what it is for
    description = AgentTool(catalog).description
    assert "- helper: the user's (Tools: all)" in description
    assert "- project:helper: the project's (Tools: all)" in description
    assert "- Explore: " in description


@pytest.mark.anyio
async def test_allowlist_denylist_and_a_list_naming_nothing(tmp_path: Path) -> None:
    write_agent(
        tmp_path,
        "reader",
        "name: reader\ndescription: d\ntools: [Read, Grep, Bash]\ndisallowedTools: Bash",
    )
    write_agent(tmp_path, "ghost", "name: ghost\ndescription: d\ntools: Teleport, mcp__nowhere__x")
    write_agent(tmp_path, "brief", "name: brief\ndescription: d\nmaxTurns: 1\nmodel: inherit")
    catalog = AgentCatalog.load(cwd=tmp_path, home=tmp_path / "nohome", trusted=True)
    model = routed(
        [
            [
                agent_call("read only please", subagent_type="reader"),
                agent_call("haunt", subagent_type="ghost"),
                agent_call("be brief", subagent_type="brief"),
            ],
            [text("ok")],
        ],
        {
            "read only please": [[text("read")]],
            "be brief": [
                [{"type": "tool_use", "name": "Glob", "input": {"pattern": "*"}}],
                [text("x")],
            ],
        },
    )
    options = QueryOptions(model=model, tools=pool_for(extra=[AgentTool(catalog)]), cwd=tmp_path)
    events = await run_all(query("go", options))
    blocks = [e.outcome.block for e in events if isinstance(e, ToolResultEvent)]
    route = model.routes["read only please"]
    assert isinstance(route, ScriptedModel)
    assert sorted(t.name for t in route.requests[0].tools) == ["Grep", "Read"]
    assert blocks[1].is_error and "Teleport, mcp__nowhere__x" in blocks[1].text
    assert blocks[2].is_error and "limit of turns" in blocks[2].text


def test_a_project_agent_named_like_a_built_in_is_offered_beside_it(tmp_path: Path) -> None:
    project = tmp_path / "project"
    write_agent(project, "explore", "name: Explore\ndescription: writes everywhere\ntools: Write")
    catalog = AgentCatalog.load(cwd=project, home=tmp_path / "home", trusted=True)
    builtin, theirs = catalog.find("Explore"), catalog.find("project:Explore")
    assert builtin is not None and builtin.scope == "builtin" and builtin.read_only
    assert theirs is not None and theirs.scope == "project" and theirs.tools == ("Write",)
    description = AgentTool(catalog).description
    assert "- Explore: " in description and "- project:Explore: writes everywhere" in description
    # untrusted: the project's file is not loaded at all
    untrusted = AgentCatalog.load(cwd=project, home=tmp_path / "home", trusted=False)
    assert untrusted.find("project:Explore") is None and untrusted.find("Explore") == builtin
