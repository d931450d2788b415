"""``async: true`` hooks in the background, and over-long hook output saved to a file."""

# ruff: noqa: E501  (hook scripts are kept as they would be written)

from __future__ import annotations

import json
import time
from pathlib import Path

import anyio
import pytest

from hands.agent.loop import QueryOptions, query
from hands.core.outcome import ToolCallOutcome
from hands.core.session import Session
from hands.orchestration.events import ToolResultEvent
from hands.testing import ScriptedModel
from hands.tools.bash.bash import BashTool
from hooks.kit import (
    cmd,
    engine_for,
    group,
    pid_alive,
    python_script,
    script,
    session,
    text,
    tool_use,
)

pytestmark = pytest.mark.anyio

SLOW_LINT = """#!/usr/bin/env bash
cat >/dev/null
sleep 0.5
echo '{"systemMessage": "background lint done", "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "ignored", "additionalContext": "lint finished: 3 warnings"}}'
"""


async def test_async_hook_runs_in_the_background_and_speaks_on_the_next_turn(
    project: Path,
) -> None:
    lint = script(project / ".claude/hooks", "lint.sh", SLOW_LINT)
    hooks = engine_for(
        {"PreToolUse": [group("Bash", cmd(lint, **{"async": True, "if": "Bash(echo *)"}))]}
    )
    started = time.monotonic()
    run = await session(
        [
            [tool_use("Bash", {"command": "echo a"})],
            [tool_use("Bash", {"command": "sleep 1.5"})],
            [text("done")],
        ],
        hooks,
        project,
    )
    first = next(e for e in run.events if isinstance(e, ToolResultEvent))
    # the deny of a background hook counts for nothing: the call ran
    assert first.outcome.status == "ok" and first.outcome.block.text.strip() == "a"
    requests = run.model.requests
    assert len(requests) == 3
    seen_then = json.dumps([m.to_wire() for m in requests[1].messages])
    assert "lint finished" not in seen_then  # still running when the first result went back
    later = json.dumps([m.to_wire() for m in requests[2].messages])
    assert "lint finished: 3 warnings" in later and "background lint done" in later
    assert "Async PreToolUse hook" in later
    assert "background lint done" in hooks.notices
    assert time.monotonic() - started < 10
    assert hooks.background == 0


async def test_async_hooks_are_killed_when_the_session_closes(project: Path) -> None:
    pidfile = project / "pid"
    slow = script(
        project / ".claude/hooks",
        "slow.sh",
        f"#!/usr/bin/env bash\ncat >/dev/null\necho $$ > {pidfile}\nsleep 30\necho done > {project / 'finished'}\n",
    )
    hooks = engine_for({"PostToolUse": [group(None, cmd(slow, **{"async": True}))]})
    sess = Session(home=project / ".home")
    model = ScriptedModel.from_turns([tool_use("Bash", {"command": "echo a"})], [text("ok")])
    q = query(
        "go",
        QueryOptions(model=model, tools=[BashTool()], cwd=project, hooks=hooks, session=sess),
    )
    started = time.monotonic()
    events = [e async for e in q]
    assert time.monotonic() - started < 10 and events
    with anyio.fail_after(10):
        while not pidfile.exists() or not pidfile.read_text().strip():
            await anyio.sleep(0.05)
    pid = int(pidfile.read_text())
    assert pid_alive(pid) and hooks.background == 1
    await sess.aclose()
    with anyio.fail_after(5):
        while pid_alive(pid):
            await anyio.sleep(0.05)
    assert hooks.background == 0 and not (project / "finished").exists()


BIG = 30_000


async def test_hook_output_over_10000_characters_is_saved_with_a_path_and_preview(
    project: Path,
) -> None:
    big = python_script(
        project / ".claude/hooks",
        "big.py",
        "import json, sys\njson.load(sys.stdin)\n"
        f"ctx = 'HEAD ' + 'x' * {BIG} + ' TAIL-MARKER'\n"
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PostToolUse', 'additionalContext': ctx}}))\n",
    )
    prompt_hook = python_script(
        project / ".claude/hooks",
        "prompt.py",
        f"import sys\nsys.stdin.read()\nprint('P' * {BIG // 2} + ' PROMPT-END')\n",
    )
    hooks = engine_for(
        {
            "PostToolUse": [group("Bash", cmd(big))],
            "UserPromptSubmit": [group(None, cmd(prompt_hook))],
        }
    )
    run = await session([[tool_use("Bash", {"command": "echo a"})], [text("ok")]], hooks, project)
    sent = run.wire_user_text()
    assert "TAIL-MARKER" not in sent and "x" * 10_001 not in sent
    assert "HEAD xxx" in sent  # the preview
    prompt_sent = json.dumps(run.model.requests[0].messages[0].to_wire())
    assert "PROMPT-END" not in prompt_sent and "more than fits in the conversation" in prompt_sent
    saved = sorted((run.query.session.directory / "tool-results").glob("hook-*.txt"))
    assert len(saved) == 2
    texts = {p.read_text() for p in saved}
    assert any(t.endswith("TAIL-MARKER") and len(t) == BIG + 17 for t in texts)
    assert any(t.endswith("PROMPT-END") for t in texts)
    for p in saved:
        assert str(p) in sent + prompt_sent


async def test_a_long_blocking_reason_reaches_the_model_as_a_saved_file(project: Path) -> None:
    block = script(
        project / ".claude/hooks",
        "block.sh",
        "#!/usr/bin/env bash\ncat >/dev/null\n"
        "python3 -c \"import sys; sys.stderr.write('R' * 12000 + ' REASON-END')\"\nexit 2\n",
    )
    run = await session(
        [[tool_use("Bash", {"command": "echo a"})], [text("ok")]],
        engine_for({"PreToolUse": [group("Bash", cmd(block))]}),
        project,
    )
    out: ToolCallOutcome = next(e.outcome for e in run.events if isinstance(e, ToolResultEvent))
    assert out.status == "rejected" and "REASON-END" not in out.block.text
    assert "all of it is in " in out.block.text
    path = Path(out.block.text.split("all of it is in ")[1].split(". Page through")[0])
    assert path.read_text().endswith("REASON-END") and path.is_relative_to(
        run.query.session.directory
    )
