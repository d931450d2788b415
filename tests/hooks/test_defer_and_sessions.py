"""PreToolUse ``defer`` (a single call only) and SessionStart sources / SessionEnd reasons."""

# ruff: noqa: E501  (hook scripts are kept as they would be written)

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hands.agent import hook_turns as turns
from hands.agent.events import ResultEvent
from hands.agent.loop import QueryOptions, query
from hands.core.context import ToolContext
from hands.core.session import Session
from hands.hooks.engine import HookEngine
from hands.orchestration.events import ToolResultEvent
from hands.testing import ScriptedModel
from hands.tools.bash.bash import BashTool
from hooks.kit import cmd, engine_for, group, rules_policy, script, session, text, tool_use

pytestmark = pytest.mark.anyio

DEFER_TOUCH = """#!/usr/bin/env bash
cat >/dev/null
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","additionalContext":"deploys wait for a human"}}'
"""


def defer_hooks(project: Path) -> HookEngine:
    hook = script(project / ".claude/hooks", "defer.sh", DEFER_TOUCH)
    return engine_for(
        {"PreToolUse": [group("Bash", cmd(hook, **{"if": "Bash(touch *)"}))]}, allow_defer=True
    )


async def test_defer_of_a_single_call_ends_the_run_with_stop_reason_and_the_call(
    project: Path,
) -> None:
    run = await session(
        [[tool_use("Bash", {"command": "touch deployed"}, "toolu_one")], [text("never")]],
        defer_hooks(project),
        project,
        policy=rules_policy(project, allow=["Bash"]),
    )
    result = run.result
    assert result.stop_reason == "tool_deferred" and result.subtype == "success"
    assert result.deferred_tool_use is not None
    assert (result.deferred_tool_use.id, result.deferred_tool_use.name) == ("toolu_one", "Bash")
    assert result.deferred_tool_use.input == {"command": "touch deployed"}
    assert not (project / "deployed").exists() and len(run.model.requests) == 1


async def test_defer_in_a_turn_of_several_calls_falls_back_to_the_normal_flow(
    project: Path,
) -> None:
    run = await session(
        [
            [
                tool_use("Bash", {"command": "touch deployed"}, "toolu_a"),
                tool_use("Bash", {"command": "echo side"}, "toolu_b"),
            ],
            [text("all done")],
        ],
        defer_hooks(project),
        project,
        policy=rules_policy(project, allow=["Bash"]),
    )
    assert (project / "deployed").exists()  # it ran, through the permission rules
    assert run.result.stop_reason is None and run.result.deferred_tool_use is None
    assert run.result.result == "all done" and len(run.model.requests) == 2
    results = run.user_messages[-1].to_wire()["content"]
    first = next(b for b in results if b.get("tool_use_id") == "toolu_a")
    assert first.get("is_error") is not True and "deferred" not in json.dumps(first)
    assert run.wire_user_text().count("deploys wait for a human") == 1


async def test_deferred_call_in_a_busy_turn_still_needs_permission(project: Path) -> None:
    # The fallback is the normal flow: without a rule allowing it and nobody to ask, the
    # deferred call is refused, not run.
    run = await session(
        [
            [
                tool_use("Bash", {"command": "touch deployed"}, "toolu_a"),
                tool_use("Bash", {"command": "echo side"}, "toolu_b"),
            ],
            [text("ok")],
        ],
        defer_hooks(project),
        project,
    )
    assert not (project / "deployed").exists()
    assert run.result.deferred_tool_use is None
    assert "nobody is available to approve it" in run.wire_user_text()


def recorder(project: Path) -> tuple[HookEngine, Path]:
    log = project / "events.jsonl"
    hook = script(
        project / ".claude/hooks",
        "log.sh",
        "#!/usr/bin/env bash\n"
        f'python3 -c \'import json,sys; d=json.load(sys.stdin); print(json.dumps({{k: d.get(k) for k in ("hook_event_name", "source", "reason")}}))\' >> {log}\n'
        'echo "started from the hook"\n',
    )
    hooks = engine_for(
        {
            "SessionStart": [group("startup|resume|clear|compact", cmd(hook))],
            "SessionEnd": [group("clear|logout|prompt_input_exit|other", cmd(hook))],
        }
    )
    return hooks, log


def logged(log: Path) -> list[tuple[Any, ...]]:
    if not log.exists():
        return []
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    return [(r["hook_event_name"], r["source"] or r["reason"]) for r in rows]


async def test_query_options_name_the_session_start_source_and_end_reason(
    project: Path,
) -> None:
    hooks, log = recorder(project)

    async def ask(**options: Any) -> ResultEvent:
        model = ScriptedModel.from_turns([text("ok")])
        q = query(
            "hi", QueryOptions(model=model, tools=[BashTool()], cwd=project, hooks=hooks, **options)
        )
        events = [e async for e in q]
        assert isinstance(events[-1], ResultEvent)
        return events[-1]

    await ask()
    assert logged(log) == [("SessionStart", "startup"), ("SessionEnd", "other")]
    log.unlink()
    await ask(session_start="resume", session_end="prompt_input_exit")
    assert logged(log) == [("SessionStart", "resume"), ("SessionEnd", "prompt_input_exit")]
    log.unlink()
    await ask(session_start=None, session_end=None)
    assert logged(log) == []


async def test_an_interactive_session_fires_start_and_end_once_and_on_clear(
    project: Path,
) -> None:
    """What the REPL does: SessionStart once, queries without it, /clear, then exit."""
    hooks, log = recorder(project)
    sess = Session(home=project / ".home")
    ctx = ToolContext(cwd=project, project_dir=project, session=sess)
    outcome = await turns.start_session(hooks, ctx, source="startup")
    assert not outcome.stop
    requests: list[str] = []
    for prompt in ("one", "two"):
        model = ScriptedModel.from_turns([text("ok")])
        q = query(
            prompt,
            QueryOptions(
                model=model, tools=[BashTool()], cwd=project, hooks=hooks, session=sess,
                session_start=None, session_end=None,
            ),
        )  # fmt: skip
        _ = [e async for e in q]
        requests.append(json.dumps(model.requests[0].messages[-1].to_wire()))
    # the SessionStart context reaches the model with the first prompt only
    assert "started from the hook" in requests[0] and "started from the hook" not in requests[1]
    await turns.end_session(hooks, ctx, "clear")
    await turns.start_session(hooks, ctx, source="clear")
    await turns.end_session(hooks, ctx, "prompt_input_exit")
    assert logged(log) == [
        ("SessionStart", "startup"),
        ("SessionEnd", "clear"),
        ("SessionStart", "clear"),
        ("SessionEnd", "prompt_input_exit"),
    ]
    # no hooks configured: the same calls are no-ops
    assert not (await turns.start_session(None, ctx, source="startup")).stop
    await turns.end_session(None, ctx, "logout")


async def test_a_placeholder_result_is_replaced_not_duplicated(project: Path) -> None:
    run = await session(
        [
            [
                tool_use("Bash", {"command": "touch deployed"}, "toolu_a"),
                tool_use("Bash", {"command": "echo side"}, "toolu_b"),
            ],
            [text("ok")],
        ],
        defer_hooks(project),
        project,
        policy=rules_policy(project, allow=["Bash"]),
    )
    content = run.user_messages[-1].to_wire()["content"]
    ids = [b["tool_use_id"] for b in content if b.get("type") == "tool_result"]
    assert ids == ["toolu_a", "toolu_b"]
    emitted = [e for e in run.events if isinstance(e, ToolResultEvent)]
    assert [e.tool_use.id for e in emitted] == ["toolu_a", "toolu_b"]
