"""Decisions end-to-end through run_tool_use with real tools, and the ask handler paths."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands import build_tool
from hands.config.settings import load_settings
from hands.core.decision import AskHandler, AskRequest, PermissionDecision
from hands.core.hooks import PostToolUseOutcome, PreToolUseOutcome
from hands.core.messages import ToolUseBlock
from hands.core.outcome import ToolCallOutcome
from hands.core.schema import ToolInput
from hands.core.subject import fetches_url
from hands.core.tool import Tool
from hands.permissions.asking import PromptAskHandler, suggest_rules, visible
from hands.permissions.engine import PermissionEngine
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import ToolPool, assemble_pool, pool_for
from hands.pipeline.runtime import ToolRuntime
from permissions.conftest import World


def run(
    world: World,
    engine: PermissionEngine,
    name: str,
    data: Mapping[str, Any],
    *,
    ask: AskHandler | None = None,
    hooks: Any = None,
    mode: Any = "default",
    pool: ToolPool | None = None,
) -> ToolCallOutcome:
    runtime = ToolRuntime(
        tools=pool
        or assemble_pool(denied=[t for t in ("Bash", "Read", "Write") if engine.denies_tool(t)]),
        policy=engine,
        ask=ask,
        hooks=hooks,
    )
    ctx = world.ctx(mode)

    async def go() -> ToolCallOutcome:
        block = ToolUseBlock(id="toolu_1", name=name, input=dict(data))
        return await run_tool_use(block, ctx, runtime, lambda _: None)

    return anyio.run(go)


def test_read_allowed_and_denied_end_to_end(world: World) -> None:
    (world.project / "notes.txt").write_text("hello\n")
    (world.project / ".env").write_text("TOKEN=secret\n")
    engine = world.engine(deny=["Read(.env)"])
    ok = run(world, engine, "Read", {"file_path": str(world.project / "notes.txt")})
    assert ok.status == "ok" and "hello" in str(ok.block.content)
    no = run(world, engine, "Read", {"file_path": str(world.project / ".env")})
    assert no.status == "rejected"
    text = str(no.block.content)
    assert "Read(.env)" in text and "settings.json" in text and "secret" not in text


def test_bash_end_to_end(world: World) -> None:
    engine = world.engine(allow=["Bash(touch *)"], deny=["Bash(rm:*)"])
    made = run(world, engine, "Bash", {"command": "touch made.txt"})
    assert made.status == "ok" and (world.project / "made.txt").exists()
    gone = run(world, engine, "Bash", {"command": "echo hi && rm made.txt"})
    assert gone.status == "rejected" and (world.project / "made.txt").exists()
    assert "Bash(rm:*)" in str(gone.block.content)
    # nobody to ask: a denial that says why and what to do
    asked = run(world, engine, "Bash", {"command": "mkdir newdir"})
    assert asked.status == "rejected" and not (world.project / "newdir").exists()
    assert "nobody is available to approve" in str(asked.block.content)


def test_write_with_callback_handler(world: World) -> None:
    engine = world.engine()
    seen: list[AskRequest] = []

    async def yes(request: AskRequest) -> PermissionDecision:
        seen.append(request)
        return PermissionDecision(behavior="allow", reason="test")

    target = world.project / "src" / "new.py"
    out = run(world, engine, "Write", {"file_path": str(target), "content": "x = 1\n"}, ask=yes)
    assert out.status == "ok" and target.read_text() == "x = 1\n"
    assert len(seen) == 1 and "changes a file" in seen[0].message

    async def no(request: AskRequest) -> PermissionDecision:
        return PermissionDecision(behavior="deny", message="Use src/other.py instead.")

    other = world.project / "src" / "no.py"
    out = run(world, engine, "Write", {"file_path": str(other), "content": "x"}, ask=no)
    assert out.status == "rejected" and not other.exists()
    assert "Use src/other.py instead." in str(out.block.content)


class _Hooks:
    def __init__(self, decision: str) -> None:
        self.decision = decision

    async def pre_tool_use(self, **_: Any) -> PreToolUseOutcome:
        return PreToolUseOutcome(decision=self.decision)  # type: ignore[arg-type]

    async def post_tool_use(self, **_: Any) -> PostToolUseOutcome:
        return PostToolUseOutcome()

    async def post_tool_use_failure(self, **_: Any) -> PostToolUseOutcome:
        return PostToolUseOutcome()


def test_hook_allow_skips_plain_asks_but_not_ask_or_deny_rules(world: World) -> None:
    engine = world.engine(ask=["Bash(mkdir:*)"], deny=["Bash(rm:*)"])
    hooks = _Hooks("allow")
    plain = run(world, engine, "Bash", {"command": "touch via-hook"}, hooks=hooks)
    assert plain.status == "ok"
    ruled = run(world, engine, "Bash", {"command": "mkdir d"}, hooks=hooks)
    assert ruled.status == "rejected" and not (world.project / "d").exists()
    denied = run(world, engine, "Bash", {"command": "rm via-hook"}, hooks=hooks)
    assert denied.status == "rejected" and (world.project / "via-hook").exists()


def scripted_handler(
    world: World, engine: PermissionEngine
) -> tuple[PromptAskHandler, list[str], list[str]]:
    """A prompt handler answering from a list; (handler, answers, questions shown)."""
    answers: list[str] = []
    shown: list[str] = []

    async def prompt(text: str) -> str:
        shown.append(text)
        return answers.pop(0)

    handler = PromptAskHandler(prompt=prompt, project_dir=world.project, engine=engine)
    return handler, answers, shown


def test_prompt_handler_allow_once_always_and_deny(world: World) -> None:
    engine = world.engine()
    handler, answers, shown = scripted_handler(world, engine)
    answers[:] = ["1"]
    out = run(world, engine, "Bash", {"command": "mkdir once"}, ask=handler)
    assert out.status == "ok" and "Yes, and don't ask again" in shown[-1]

    answers[:] = ["2"]
    out = run(world, engine, "Bash", {"command": "npm --version && mkdir always"}, ask=handler)
    assert out.status == "ok"
    saved = json.loads((world.project / ".claude" / "settings.local.json").read_text())
    assert saved["permissions"]["allow"] == ["Bash(npm --version)", "Bash(mkdir always)"]
    # the saved rules apply at once, and to a fresh load of the settings
    answers[:] = []
    assert run(world, engine, "Bash", {"command": "mkdir always"}, ask=handler).status != "rejected"
    fresh = load_settings(  # in a trusted folder: settings.local.json is project input
        world.project, env={"HOME": str(world.home), "HANDS_MANAGED_SETTINGS": ""}, trusted=True
    )
    assert "Bash(mkdir always)" in [r.text for r in fresh.rule_texts]

    answers[:] = ["3", "use a temp dir instead"]
    out = run(world, engine, "Bash", {"command": "mkdir never"}, ask=handler)
    assert out.status == "rejected" and "use a temp dir instead" in str(out.block.content)
    assert not (world.project / "never").exists()


def test_the_approval_menu_numbers_without_gaps_and_shows_the_description(world: World) -> None:
    engine = world.engine()
    handler, answers, shown = scripted_handler(world, engine)
    # a command the analysis cannot read gets no rule to save: two choices, 1 and 2
    answers[:] = ["2", ""]
    call = {"command": 'eval "$MAKE_DIR"', "description": "Make the build\n directory"}
    out = run(world, engine, "Bash", call, ask=handler)
    assert out.status == "rejected"
    menu = shown[0].splitlines()
    numbered = [line.strip() for line in menu if line.strip()[:2] in ("1.", "2.", "3.")]
    assert numbered == ["1. Yes", "2. No, and tell the model what to do instead"]
    assert "    (Make the build directory)" in menu
    # with a rule to offer, three
    shown.clear()
    answers[:] = ["3", ""]
    out = run(world, engine, "Bash", {"command": "mkdir never"}, ask=handler)
    assert out.status == "rejected" and "3. No, and tell" in shown[0]
    assert not (world.project / "never").exists()


def test_file_approvals_are_session_only(world: World) -> None:
    engine = world.engine()
    target = world.project / "src" / "a[1].py"
    tool = assemble_pool().find("Write")
    assert tool is not None
    rules, persistent = suggest_rules(
        engine, tool, tool.parse_input({"file_path": str(target), "content": ""}), world.ctx()
    )
    escaped = str(target).replace("[", "\\[").replace("]", "\\]")
    assert not persistent and rules == (f"Edit(/{escaped})",)
    answers = ["2"]

    async def prompt(_: str) -> str:
        return answers.pop(0)

    handler = PromptAskHandler(prompt=prompt, project_dir=world.project, engine=engine)
    out = run(world, engine, "Write", {"file_path": str(target), "content": "x"}, ask=handler)
    assert out.status == "ok"
    assert not (world.project / ".claude" / "settings.local.json").exists()
    again = world.decide(engine, "Write", {"file_path": str(target), "content": "y"})
    assert again.behavior == "allow" and again.source == "session"


class _FetchInput(ToolInput):
    url: str
    prompt: str = ""


class _SearchInput(ToolInput):
    query: str


async def _nothing(input: Any, ctx: Any, progress: Any) -> str:
    return "ok"


def _asks_though_read_only(tool: Tool[Any, Any]) -> Tool[Any, Any]:
    tool.asks_when_read_only = True
    return tool


def _pool() -> ToolPool:
    return ToolPool(
        [
            _asks_though_read_only(
                build_tool(
                    name="WebFetch",
                    input_model=_FetchInput,
                    call=_nothing,
                    read_only=True,
                    subject=fetches_url(),
                )
            ),
            _asks_though_read_only(
                build_tool(
                    name="WebSearch", input_model=_SearchInput, call=_nothing, read_only=True
                )
            ),
            build_tool(name="mcp__github__create_issue", input_model=_SearchInput, call=_nothing),
            build_tool(
                name="mcp__github__get_issue",
                input_model=_SearchInput,
                call=_nothing,
                read_only=True,
            ),
            build_tool(name="lookup", input_model=_SearchInput, call=_nothing, read_only=True),
        ]
    )


@pytest.mark.parametrize(
    ("allow", "deny", "name", "data", "status"),
    [
        (["WebFetch(domain:example.com)"], [], "WebFetch", {"url": "https://EXAMPLE.com./a"}, "ok"),
        (
            ["WebFetch(domain:example.com)"],
            [],
            "WebFetch",
            {"url": "https://docs.example.com/"},
            "rejected",
        ),
        (
            ["WebFetch(domain:*.example.com)"],
            [],
            "WebFetch",
            {"url": "https://a.b.example.com/"},
            "ok",
        ),
        (
            ["WebFetch(domain:*.example.com)"],
            [],
            "WebFetch",
            {"url": "https://example.com/"},
            "rejected",
        ),
        (["WebFetch(domain:example.*)"], [], "WebFetch", {"url": "https://example.org/"}, "ok"),
        (
            ["WebFetch(domain:example.*)"],
            [],
            "WebFetch",
            {"url": "https://example.evil.com/"},
            "rejected",
        ),
        (
            ["WebFetch"],
            ["WebFetch(domain:evil.com)"],
            "WebFetch",
            {"url": "http://evil.com/x"},
            "rejected",
        ),
        ([], [], "WebSearch", {"query": "x"}, "rejected"),
        (
            ["WebSearch"],
            ["WebSearch(query:*password*)"],
            "WebSearch",
            {"query": "a password"},
            "rejected",
        ),
        (["WebSearch"], ["WebSearch(query:*password*)"], "WebSearch", {"query": "weather"}, "ok"),
        (["mcp__github"], [], "mcp__github__create_issue", {"query": "x"}, "ok"),
        (["mcp__github__get_issue"], [], "mcp__github__create_issue", {"query": "x"}, "rejected"),
        ([], [], "mcp__github__get_issue", {"query": "x"}, "rejected"),
        (
            ["mcp__github__*"],
            ["mcp__github__create_issue"],
            "mcp__github__create_issue",
            {"query": "x"},
            "rejected",
        ),
        ([], [], "lookup", {"query": "x"}, "ok"),
        (["lookup"], ["*"], "lookup", {"query": "x"}, "rejected"),
    ],
)
def test_other_tools(
    world: World, allow: list[str], deny: list[str], name: str, data: dict[str, Any], status: str
) -> None:
    engine = world.engine(allow=allow, deny=deny)
    out = run(world, engine, name, data, pool=_pool())
    assert out.status == status, out.block.content


def test_pool_deny_filter(world: World) -> None:
    engine = world.engine(deny=["WebFetch", "mcp__github", "Bash(rm:*)"])
    denied = [t.name for t in _pool() if engine.denies_tool(t)]
    assert denied == ["WebFetch", "mcp__github__create_issue", "mcp__github__get_issue"]
    pool = pool_for(engine, extra=_pool())
    assert "Bash" in pool and "lookup" in pool and "WebFetch" not in pool


def test_plan_mode_blocks_changes(world: World) -> None:
    engine = world.engine(allow=["Bash(touch:*)"])
    out = run(world, engine, "Bash", {"command": "touch p"}, mode="plan")
    assert out.status == "rejected" and "plan mode" in str(out.block.content)
    assert run(world, engine, "Bash", {"command": "ls"}, mode="plan").status == "ok"


def test_decision_on_relative_path_of_search_tool(world: World, tmp_path: Path) -> None:
    engine = world.engine()
    d = world.decide(engine, "Glob", {"pattern": "*.py", "path": "src"})
    assert d.behavior == "allow" and d.reason == "read inside the working directories"


def test_the_question_shows_the_whole_call_before_it_runs(world: World) -> None:
    engine = world.engine()
    shown: list[str] = []

    async def prompt(text: str) -> str:
        shown.append(text)
        return "1"

    handler = PromptAskHandler(prompt=prompt, project_dir=world.project, engine=engine)
    runtime = ToolRuntime(tools=assemble_pool(), policy=engine, ask=handler)
    sub = world.project / "sub"
    sub.mkdir()
    ctx = world.ctx(cwd=sub)

    def call(name: str, data: dict[str, Any]) -> ToolCallOutcome:
        async def go() -> ToolCallOutcome:
            block = ToolUseBlock(id=f"toolu_{len(shown)}", name=name, input=data)
            return await run_tool_use(block, ctx, runtime, lambda _: None)

        return anyio.run(go)

    long = "echo " + "word " * 80 + "> /tmp/long.txt"
    assert call("Bash", {"command": long}).status == "ok"
    assert f"    {long}" in shown[-1].splitlines()  # whole, on one line, never cut
    assert f"  in {sub}" in shown[-1]  # not the project directory: said
    asked = len(shown)
    hidden = call("Bash", {"command": "printf '\x1b[2Khidden\r' > out.txt"})
    assert hidden.is_error and len(shown) == asked  # refused before anyone is asked
    call("Bash", {"command": "mkdir one\nmkdir two"})
    assert "2 lines:" in shown[-1] and "    mkdir two" in shown[-1]
    # a terminal would act on these; the question shows them as escapes instead
    assert visible("a\x1b[2Kb\rc\u202ed") == "a\\x1b[2Kb\\rc\\u202ed"

    notes = world.project / "notes.txt"
    notes.write_text("alpha\nbeta\n")
    assert call("Read", {"file_path": str(notes)}).status == "ok"
    before = len(shown)
    edit = {"file_path": str(notes), "old_string": "beta", "new_string": "gamma"}
    assert call("Edit", edit).status == "ok"
    question = shown[before]  # asked before the file changed
    assert f"changes to {notes}:" in question
    assert "    -beta" in question and "    +gamma" in question
    fresh = world.project / "fresh.py"
    written = call("Write", {"file_path": str(fresh), "content": "print(1)\nprint(2)\n"})
    assert written.status == "ok"
    assert f"new file {fresh}, 2 lines:" in shown[-1] and "    + print(2)" in shown[-1]
