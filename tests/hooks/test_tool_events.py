"""PreToolUse / PostToolUse / PermissionRequest with real hook scripts in scripted sessions."""

# ruff: noqa: E501  (hook scripts are kept as they would be written)

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hands.core.decision import AskRequest, PermissionDecision, allow
from hands.core.outcome import ToolCallOutcome
from hands.orchestration.events import ToolResultEvent
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

pytestmark = __import__("pytest").mark.anyio


def outcomes(run: Any) -> list[ToolCallOutcome]:
    return [e.outcome for e in run.events if isinstance(e, ToolResultEvent)]


BLOCK_WRITES_TO_ENV = """#!/usr/bin/env bash
set -euo pipefail
input=$(cat)
path=$(printf '%s' "$input" | python3 -c 'import json,sys; print(json.load(sys.stdin)["tool_input"]["file_path"])')
case "$path" in
  *.env) echo "Blocked: $path is protected; edit .env.example instead" >&2; exit 2 ;;
esac
exit 0
"""


async def test_exit_2_blocks_the_call_and_stderr_reaches_the_model(project: Path) -> None:
    hook = script(project / ".claude/hooks", "protect.sh", BLOCK_WRITES_TO_ENV)
    hooks = engine_for(
        {"PreToolUse": [group("Edit|Write", cmd('"$CLAUDE_PROJECT_DIR"/.claude/hooks/protect.sh'))]}
    )
    assert hook.exists()
    run = await session(
        [
            [tool_use("Write", {"file_path": str(project / "x.env"), "content": "K=1"})],
            [tool_use("Write", {"file_path": str(project / "ok.txt"), "content": "fine"})],
            [text("done")],
        ],
        hooks,
        project,
        policy=rules_policy(project, allow=["Write"]),
    )
    blocked, written = outcomes(run)
    assert blocked.status == "rejected"
    assert "is protected; edit .env.example instead" in blocked.block.text
    assert not (project / "x.env").exists()
    assert written.status == "ok" and (project / "ok.txt").read_text() == "fine"
    assert run.result.subtype == "success"


REWRITE = """
import json, sys
data = json.load(sys.stdin)
assert data["hook_event_name"] == "PreToolUse" and data["tool_use_id"]
new = dict(data["tool_input"])
new["content"] = new["content"].upper()
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
      "permissionDecision": "allow", "updatedInput": new}}))
"""


async def test_python_hook_rewrites_the_input_and_allow_skips_the_prompt(project: Path) -> None:
    hook = python_script(project / ".claude/hooks", "upper.py", REWRITE)
    hooks = engine_for({"PreToolUse": [group("Write", cmd(hook))]})
    target = project / "note.txt"
    run = await session(
        [[tool_use("Write", {"file_path": str(target), "content": "quiet"})], [text("ok")]],
        hooks,
        project,  # no ask handler: without the hook's allow the write would be refused
    )
    assert outcomes(run)[0].status == "ok"
    assert target.read_text() == "QUIET"


async def test_hook_allow_never_overrides_a_deny_rule_even_after_rewriting(project: Path) -> None:
    redirect = python_script(
        project / ".claude/hooks",
        "redirect.py",
        "import json,sys\nd=json.load(sys.stdin)\n"
        f"i=dict(d['tool_input']); i['file_path']={str(project / 'secret.txt')!r}\n"
        "print(json.dumps({'hookSpecificOutput':{'hookEventName':'PreToolUse',"
        "'permissionDecision':'allow','updatedInput':i}}))\n",
    )
    hooks = engine_for({"PreToolUse": [group("Write", cmd(redirect))]})
    run = await session(
        [[tool_use("Write", {"file_path": str(project / "a.txt"), "content": "x"})], [text("ok")]],
        hooks,
        project,
        policy=rules_policy(project, allow=["Write"], deny=["Write(secret.txt)"]),
    )
    (out,) = outcomes(run)
    assert out.status == "rejected" and "The deny rule Write(secret.txt) (from " in out.block.text
    assert not (project / "secret.txt").exists() and not (project / "a.txt").exists()


async def test_hook_allow_does_not_skip_an_ask_rule(project: Path) -> None:
    allow_all = python_script(
        project / ".claude/hooks",
        "allow.py",
        "import json\nprint(json.dumps({'hookSpecificOutput':{'hookEventName':'PreToolUse',"
        "'permissionDecision':'allow'}}))\n",
    )
    asked: list[str] = []

    async def ask(request: AskRequest) -> PermissionDecision:
        asked.append(request.message)
        return allow("user said yes")

    run = await session(
        [[tool_use("Bash", {"command": "echo hi"})], [text("ok")]],
        engine_for({"PreToolUse": [group("Bash", cmd(allow_all))]}),
        project,
        policy=rules_policy(project, ask=["Bash(echo *)"]),
        ask=ask,
    )
    assert outcomes(run)[0].status == "ok"
    assert asked and "ask rule Bash(echo *)" in asked[0]


ASK = """#!/usr/bin/env bash
cat >/dev/null
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"checking out main needs a human"}}'
"""


async def test_ask_forces_a_prompt_for_an_otherwise_allowed_call(project: Path) -> None:
    hook = script(project / ".claude/hooks", "ask.sh", ASK)
    asked: list[str] = []

    async def ask(request: AskRequest) -> PermissionDecision:
        asked.append(request.message)
        return PermissionDecision(behavior="deny", message="the user said no")

    run = await session(
        [[tool_use("Bash", {"command": "echo hi"})], [text("ok")]],
        engine_for({"PreToolUse": [group("Bash", cmd(hook))]}),
        project,
        ask=ask,  # `echo hi` is read-only: allowed without a prompt unless a hook asks
    )
    assert asked == ["A hook asks to confirm Bash: checking out main needs a human"]
    assert outcomes(run)[0].block.text == "the user said no"


def decision_hook(directory: Path, name: str, choice: str) -> Path:
    return answering(
        directory,
        name,
        specific(
            "PreToolUse",
            permissionDecision=choice,
            permissionDecisionReason=f"{name} says {choice}",
        ),
    )


async def test_deny_beats_ask_beats_allow_across_parallel_hooks(project: Path) -> None:
    d = project / ".claude/hooks"
    allow_h, ask_h, deny_h = (decision_hook(d, f"{c}.sh", c) for c in ("allow", "ask", "deny"))
    target = project / "f.txt"
    run = await session(
        [[tool_use("Write", {"file_path": str(target), "content": "x"})], [text("ok")]],
        engine_for(
            {"PreToolUse": [group("Write", cmd(allow_h), cmd(ask_h)), group("*", cmd(deny_h))]}
        ),
        project,
        policy=rules_policy(project, allow=["Write"]),
    )
    (out,) = outcomes(run)
    assert out.status == "rejected" and "deny.sh says deny" in out.block.text
    assert "allow.sh" not in out.block.text and not target.exists()

    asked: list[str] = []

    async def ask(request: AskRequest) -> PermissionDecision:
        asked.append(request.message)
        return allow()

    await session(
        [[tool_use("Write", {"file_path": str(target), "content": "x"})], [text("ok")]],
        engine_for({"PreToolUse": [group("Write", cmd(allow_h), cmd(ask_h))]}),
        project,
        policy=rules_policy(project, allow=["Write"]),
        ask=ask,
    )
    assert asked == ["A hook asks to confirm Write: ask.sh says ask"]


CONTEXT = """#!/usr/bin/env bash
input=$(cat)
echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: 2 warnings in note.txt"}}'
"""


async def test_post_tool_use_context_reaches_the_model_next_to_the_result(project: Path) -> None:
    hook = script(project / ".claude/hooks", "lint.sh", CONTEXT)
    run = await session(
        [
            [tool_use("Write", {"file_path": str(project / "note.txt"), "content": "x"})],
            [text("ok")],
        ],
        engine_for({"PostToolUse": [group("Write|Edit", cmd(hook))]}),
        project,
        policy=rules_policy(project, allow=["Write"]),
    )
    user = run.user_messages[-1]
    kinds = [b.to_wire()["type"] for b in user.content]
    assert kinds == ["tool_result", "text"]
    assert "lint: 2 warnings in note.txt" in user.text
    # and the model's next request carries it
    sent = run.model.requests[1].messages[-1]
    assert "lint: 2 warnings" in json.dumps(sent.to_wire())


async def test_post_tool_use_payload_and_block_feedback(project: Path) -> None:
    seen = project / "seen.json"
    hook = python_script(
        project / ".claude/hooks",
        "post.py",
        "import json,sys\nd=json.load(sys.stdin)\n"
        f"open({str(seen)!r},'w').write(json.dumps(d))\n"
        "print(json.dumps({'decision':'block','reason':'tests failed: fix test_x first'}))\n",
    )
    run = await session(
        [[tool_use("Write", {"file_path": str(project / "w.txt"), "content": "x"})], [text("ok")]],
        engine_for({"PostToolUse": [group("Write", cmd(hook))]}),
        project,
        policy=rules_policy(project, allow=["Write"]),
    )
    data = json.loads(seen.read_text())
    assert data["hook_event_name"] == "PostToolUse" and data["tool_name"] == "Write"
    assert data["tool_input"] == {"file_path": str(project / "w.txt"), "content": "x"}
    assert data["tool_use_id"] == "toolu_s00_00"
    assert data["cwd"] == str(project) and data["permission_mode"] == "default"
    assert data["session_id"] and data["transcript_path"].endswith(".jsonl")
    assert isinstance(data["tool_response"], dict) and isinstance(data["duration_ms"], int)
    assert "tests failed: fix test_x first" in run.user_messages[-1].text


async def test_updated_tool_output_replaces_a_string_output(project: Path) -> None:
    hook = answering(
        project / ".claude/hooks", "redact.sh", specific("PostToolUse", updatedToolOutput=42)
    )
    # Bash's output is a model; a number does not fit its shape, so the output stays.
    run = await session(
        [[tool_use("Bash", {"command": "echo secret-token"})], [text("ok")]],
        engine_for({"PostToolUse": [group("Bash", cmd(hook))]}),
        project,
    )
    assert "secret-token" in outcomes(run)[0].block.text


async def test_failure_hook_gets_the_error(project: Path) -> None:
    seen = project / "failure.json"
    hook = script(project / ".claude/hooks", "fail.sh", f"#!/usr/bin/env bash\ncat > {seen}\n")
    await session(
        [[tool_use("Bash", {"command": "exit 3"})], [text("ok")]],
        engine_for({"PostToolUseFailure": [group("Bash", cmd(hook))]}),
        project,
        policy=rules_policy(project, allow=["Bash"]),
    )
    data = json.loads(seen.read_text())
    assert data["hook_event_name"] == "PostToolUseFailure"
    assert data["error"].startswith("Exit code 3") and data["is_interrupt"] is False


async def test_permission_request_hook_answers_for_the_user(project: Path) -> None:
    approve = answering(
        project / ".claude/hooks",
        "approve.sh",
        specific("PermissionRequest", decision={"behavior": "allow"}),
    )
    target = project / "w.txt"
    run = await session(
        [[tool_use("Write", {"file_path": str(target), "content": "x"})], [text("ok")]],
        engine_for({"PermissionRequest": [group("Write", cmd(approve))]}),
        project,  # no ask handler: without the hook this write is refused
    )
    assert outcomes(run)[0].status == "ok" and target.exists()


async def test_notification_fires_when_a_prompt_is_shown(project: Path) -> None:
    seen = project / "notified.json"
    notify = script(project / ".claude/hooks", "notify.sh", f"#!/usr/bin/env bash\ncat > {seen}\n")

    async def ask(request: AskRequest) -> PermissionDecision:
        return allow()

    await session(
        [[tool_use("Write", {"file_path": str(project / "n.txt"), "content": "x"})], [text("ok")]],
        engine_for({"Notification": [group("permission_prompt|idle_prompt", cmd(notify))]}),
        project,
        ask=ask,
    )
    data = json.loads(seen.read_text())
    assert data["notification_type"] == "permission_prompt" and "Write" in data["message"]


async def test_if_condition_checks_every_subcommand(project: Path) -> None:
    log = project / "git-hook.log"
    hook = script(
        project / ".claude/hooks",
        "git.sh",
        f'#!/usr/bin/env bash\npython3 -c \'import json,sys; print(json.load(sys.stdin)["tool_input"]["command"])\' >> {log}\n',
    )
    hooks = engine_for({"PreToolUse": [group("Bash", cmd(hook, **{"if": "Bash(git *)"}))]})
    await session(
        [
            [tool_use("Bash", {"command": "echo no git here"})],
            [tool_use("Bash", {"command": "cd . && git --version"})],
            [tool_use("Bash", {"command": "echo $(git --version)"})],
            [text("ok")],
        ],
        hooks,
        project,
        policy=rules_policy(project, allow=["Bash"]),
    )
    assert log.read_text().splitlines() == ["cd . && git --version", "echo $(git --version)"]


def test_the_engine_handles_exactly_the_tool_events_it_has_hooks_for() -> None:
    engine = engine_for({"PostToolUse": [group("Bash", cmd("true"))]})
    assert engine.handles("PostToolUse")
    assert not engine.handles("PreToolUse")
    assert not engine.handles("PostToolUseFailure")
    assert not engine_for({}).handles("PostToolUse")
