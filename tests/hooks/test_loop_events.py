"""Loop events with real hook scripts: Stop, UserPromptSubmit, SessionStart/End, batches."""

# ruff: noqa: E501  (hook scripts are kept as they would be written)

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hands.agent.events import MessageEvent
from hands.cli.output import stream_json_lines
from hands.core.messages import ToolResultBlock
from hooks.kit import (
    answering,
    cmd,
    engine_for,
    group,
    python_script,
    rules_policy,
    script,
    session,
    specific,
    text,
    tool_use,
)

pytestmark = pytest.mark.anyio

STOP_UNTIL_TESTS_RAN = """#!/usr/bin/env bash
input=$(cat)
active=$(printf '%s' "$input" | python3 -c 'import json,sys; print(str(json.load(sys.stdin)["stop_hook_active"]).lower())')
echo "$active" >> "$CLAUDE_PROJECT_DIR/stop.log"
if [ "$active" = "true" ]; then exit 0; fi
if [ ! -f "$CLAUDE_PROJECT_DIR/.tests-ran" ]; then
  echo '{"decision": "block", "reason": "Run the tests before stopping: touch .tests-ran"}'
fi
"""


async def test_stop_hook_that_blocks_makes_the_loop_continue(project: Path) -> None:
    script(project / ".claude/hooks", "stop.sh", STOP_UNTIL_TESTS_RAN)
    hooks = engine_for(
        {"Stop": [group("*", cmd('"$CLAUDE_PROJECT_DIR"/.claude/hooks/stop.sh', timeout=10))]}
    )
    run = await session(
        [
            [text("All done.")],
            [tool_use("Bash", {"command": "touch .tests-ran"})],
            [text("Tests ran; done now.")],
        ],
        hooks,
        project,
        policy=rules_policy(project, allow=["Bash"]),
    )
    assert run.result.subtype == "success" and run.result.num_turns == 3
    assert run.result.result == "Tests ran; done now."
    second_request = run.model.requests[1].messages[-1]
    assert second_request.role == "user"
    assert "Stop hook feedback:\nRun the tests before stopping" in second_request.text
    assert (project / "stop.log").read_text().split() == ["false", "true"]


async def test_stop_blocks_are_capped(project: Path) -> None:
    nag = script(
        project / ".claude/hooks",
        "nag.sh",
        "#!/usr/bin/env bash\ncat >/dev/null\necho 'keep going' >&2\nexit 2\n",
    )
    run = await session(
        [[text(f"stop {i}")] for i in range(9)],
        engine_for({"Stop": [group(None, cmd(nag))]}),
        project,
    )
    assert run.result.num_turns == 9 and run.model.turns_left == 0


async def test_user_prompt_submit_blocks_or_adds_context(project: Path) -> None:
    gate = python_script(
        project / ".claude/hooks",
        "prompt.py",
        "import json,sys\nd=json.load(sys.stdin)\n"
        "if 'password' in d['prompt']:\n"
        "    print('prompts must not contain secrets', file=sys.stderr); sys.exit(2)\n"
        "print('CURRENT_BRANCH=main')\n",
    )
    hooks = engine_for({"UserPromptSubmit": [group(None, cmd(gate))]})
    run = await session([[text("never sent")]], hooks, project, prompt="my password is x")
    assert run.result.subtype == "error_during_execution"
    assert "prompts must not contain secrets" in run.result.error
    assert run.model.requests == []

    run = await session([[text("ok")]], hooks, project, prompt="fix the bug")
    first = run.model.requests[0].messages[0]
    assert first.text.startswith("fix the bug") and "CURRENT_BRANCH=main" in first.text


async def test_session_start_context_and_session_end(project: Path) -> None:
    ended = project / "ended.json"
    start = script(project / ".claude/hooks", "start.sh", "#!/usr/bin/env bash\necho 'Use Bun.'\n")
    end = script(project / ".claude/hooks", "end.sh", f"#!/usr/bin/env bash\ncat > {ended}\n")
    hooks = engine_for(
        {
            "SessionStart": [group("startup|resume", cmd(start)), group("compact", cmd(end))],
            "SessionEnd": [group(None, cmd(end))],
        }
    )
    run = await session([[text("ok")]], hooks, project)
    assert "Use Bun." in run.model.requests[0].messages[0].text
    data = json.loads(ended.read_text())
    assert data["hook_event_name"] == "SessionEnd" and data["reason"] == "other"


async def test_session_start_exports_reach_every_bash_command(project: Path) -> None:
    start = script(
        project / ".claude/hooks",
        "env.sh",
        '#!/usr/bin/env bash\necho \'export GREETING="hello there"\' >> "$CLAUDE_ENV_FILE"\n',
    )
    run = await session(
        [
            [tool_use("Bash", {"command": 'echo "[$GREETING]"'})],
            [tool_use("Bash", {"command": 'echo "again [$GREETING]"', "run_in_background": True})],
            [text("done")],
            [text("heard that it ended")],  # used when the job was still running
        ],
        engine_for({"SessionStart": [group("startup", cmd(start))]}),
        project,
        policy=rules_policy(project, allow=["Bash"]),
    )
    results = [
        block.text
        for request in run.model.requests[1:]
        for block in request.messages[-1].content
        if isinstance(block, ToolResultBlock)
    ]
    assert results[0] == "[hello there]"
    output = Path(results[1].split("its output goes to ", 1)[1].split(". A notice", 1)[0])
    # the run waited for the job to end
    assert output.read_text() == "again [hello there]\n[hands: exit code 0]\n"


async def test_post_tool_batch_sees_the_batch_and_can_end_the_run(project: Path) -> None:
    seen = project / "batch.json"
    batch = python_script(
        project / ".claude/hooks",
        "batch.py",
        "import json,sys\nd=json.load(sys.stdin)\n"
        f"open({str(seen)!r},'w').write(json.dumps(d))\n"
        "print(json.dumps({'decision':'block','reason':'budget exhausted'}))\n",
    )
    run = await session(
        [
            [tool_use("Bash", {"command": "echo a"}), tool_use("Bash", {"command": "echo b"})],
            [text("never")],
        ],
        engine_for({"PostToolBatch": [group(None, cmd(batch))]}),
        project,
    )
    data = json.loads(seen.read_text())
    assert [c["tool_input"]["command"] for c in data["tool_calls"]] == ["echo a", "echo b"]
    assert data["tool_calls"][0]["tool_response"].strip() == "a"
    assert run.result.is_error and "budget exhausted" in run.result.error
    assert len(run.model.requests) == 1


async def test_continue_false_stops_the_run(project: Path) -> None:
    halt = answering(
        project / ".claude/hooks",
        "halt.sh",
        {"continue": False, "stopReason": "maintenance window"},
    )
    run = await session(
        [[tool_use("Bash", {"command": "echo a"})], [text("never")]],
        engine_for({"PostToolUse": [group(None, cmd(halt))]}),
        project,
    )
    assert run.result.is_error and "maintenance window" in run.result.error
    assert len(run.model.requests) == 1


async def test_defer_ends_the_run_with_the_deferred_call(project: Path) -> None:
    defer = answering(
        project / ".claude/hooks", "defer.sh", specific("PreToolUse", permissionDecision="defer")
    )
    hooks = engine_for({"PreToolUse": [group("Bash", cmd(defer))]}, allow_defer=True)
    run = await session(
        [[tool_use("Bash", {"command": "touch made"}, "toolu_d")], [text("never")]],
        hooks,
        project,
        policy=rules_policy(project, allow=["Bash"]),
    )
    assert run.query.deferred_tool_use is not None
    assert run.query.deferred_tool_use.id == "toolu_d"
    assert not (project / "made").exists() and len(run.model.requests) == 1
    assert run.result.subtype == "success"


async def test_stream_json_user_event_shows_additional_context(project: Path) -> None:
    hook = answering(
        project / ".claude/hooks",
        "ctx.sh",
        specific("PostToolUse", additionalContext="remember the style guide"),
    )
    run = await session(
        [[tool_use("Bash", {"command": "echo a"})], [text("ok")]],
        engine_for({"PostToolUse": [group("Bash", cmd(hook))]}),
        project,
    )
    lines = [
        line
        for e in run.events
        if isinstance(e, MessageEvent)
        for line in stream_json_lines(e, session_id="s", model="m")
    ]
    users = [line for line in lines if line["type"] == "user"]
    assert "remember the style guide" in json.dumps(users)


def test_print_mode_stream_json_shows_additional_context(project: Path, tmp_path: Path) -> None:
    marker = project / "hook-ran"
    script(
        project / ".claude/hooks",
        "ctx.sh",
        f"#!/usr/bin/env bash\ncat >/dev/null\ntouch {marker}\n"
        'echo \'{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"remember the style guide"}}\'\n',
    )
    settings = {
        "permissions": {"allow": ["Bash(echo *)"]},
        "hooks": {
            "PostToolUse": [
                group("Bash", cmd('"$CLAUDE_PROJECT_DIR"/.claude/hooks/ctx.sh', timeout=10))
            ]
        },
    }
    (project / ".claude/settings.json").write_text(json.dumps(settings))
    model = tmp_path / "script.json"
    model.write_text(
        json.dumps(
            {
                "turns": [
                    {"blocks": [tool_use("Bash", {"command": "echo hi"})]},
                    {"blocks": [text("done")]},
                ]
            }
        )
    )
    env = {**os.environ, "HOME": str(tmp_path / "home"), "HANDS_MANAGED_SETTINGS": ""}
    proc = subprocess.run(
        [sys.executable, "-m", "hands", "-p", "run it", "--trust", "--model", f"scripted:{model}",
         "--output-format", "stream-json"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert marker.exists(), proc.stderr
    users = [json.loads(line) for line in proc.stdout.splitlines() if '"type":"user"' in line]
    assert users and "remember the style guide" in json.dumps(users)


async def test_subagent_and_compaction_hooks_for_their_callers(project: Path) -> None:
    from hands.core.context import ToolContext
    from hands.core.session import Session

    log = project / "events.log"
    record = python_script(
        project / ".claude/hooks",
        "record.py",
        "import json,sys\nd=json.load(sys.stdin)\n"
        f"open({str(log)!r},'a').write(d['hook_event_name']+' '+d.get('agent_type',d.get('trigger',''))+'\\n')\n"
        "if d['hook_event_name'] != 'SubagentStart':\n"
        "    print(json.dumps({'decision':'block','reason':'not yet'}))\n",
    )
    hooks = engine_for(
        {
            "SubagentStart": [group("Explore", cmd(record))],
            "SubagentStop": [group("Explore|Plan", cmd(record))],
            "PreCompact": [group("auto", cmd(record))],
        }
    )
    ctx = ToolContext(cwd=project, session=Session(), project_dir=project)
    start = await hooks.subagent_start(ctx, agent_id="a1", agent_type="Explore")
    assert not start.block
    stop = await hooks.subagent_stop(
        ctx, agent_type="Plan", stop_hook_active=False, last_assistant_message="done"
    )
    assert stop.block and stop.reason == "not yet"
    assert not (await hooks.pre_compact(ctx, trigger="manual")).block
    assert (await hooks.pre_compact(ctx, trigger="auto")).block
    assert log.read_text().split("\n")[:-1] == [
        "SubagentStart Explore",
        "SubagentStop Plan",
        "PreCompact auto",
    ]
