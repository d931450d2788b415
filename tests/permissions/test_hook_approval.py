"""A PreToolUse hook's ``allow`` against the permission engine, in scripted sessions.

A hook ``allow`` lets through a call that would only have been asked, also in
``dontAsk`` (where that ask became a denial), and never one that a deny or ask rule, a
critical-path removal, a protected path or AskUserQuestion (without ``updatedInput``)
decided.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from hands.agent.loop import QueryOptions, query
from hands.core.context import PermissionMode, ToolContext
from hands.core.decision import AskRequest, PermissionDecision
from hands.core.decorator import tool
from hands.core.outcome import ToolCallOutcome
from hands.core.session import Session
from hands.hooks.engine import HookEngine
from hands.orchestration.events import ToolResultEvent
from hands.permissions.engine import PermissionEngine
from hands.permissions.rules import PermissionRule, RuleOrigin, parse_rules
from hands.pipeline.pool import assemble_pool
from hands.testing import ScriptedModel
from hands.tools.bash.bash import BashTool
from hands.tools.file.write import WriteTool
from hooks.kit import (
    answering,
    cmd,
    engine_for,
    group,
    python_script,
    specific,
    text,
    tool_use,
)

pytestmark = pytest.mark.anyio

ALLOW_ALL = (
    "import json, sys\njson.load(sys.stdin)\n"
    "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse',"
    " 'permissionDecision': 'allow', 'permissionDecisionReason': 'trusted by the hook'}}))\n"
)


@tool(name="AskUserQuestion", read_only=True)
async def ask_user_question(question: str, answer: str = "") -> str:
    """Ask the user a question and wait for the answer.

    Args:
        question: What to ask.
        answer: The answer, when someone gave it already.
    """
    return f"{question} -> {answer or '(no answer)'}"


ask_user_question.always_asks = True
ask_user_question.hook_allow_needs_input = True


def engine(project: Path, **lists: Sequence[str]) -> PermissionEngine:
    """A real engine with rules from the project's settings file."""
    path = project / ".claude" / "settings.json"
    origin = RuleOrigin(scope="projectSettings", label=str(path), root=project, path=path)
    rules: list[PermissionRule] = []
    for behavior in ("deny", "ask", "allow"):
        parsed, problems = parse_rules(list(lists.get(behavior, ())), behavior, origin)  # type: ignore[arg-type]
        assert not problems, problems
        rules.extend(parsed)
    return PermissionEngine(rules, home=project.parent / "home")


async def run(
    project: Path,
    calls: Sequence[dict[str, Any]],
    *,
    hooks: HookEngine | None,
    policy: PermissionEngine,
    mode: PermissionMode = "default",
    asked: list[str] | None = None,
    tools: Sequence[Any] = (),
) -> list[ToolCallOutcome]:
    async def ask(request: AskRequest) -> PermissionDecision:
        assert asked is not None, f"nobody should have been asked: {request.message}"
        asked.append(request.message)
        return PermissionDecision(behavior="deny", message="the user said no")

    model = ScriptedModel.from_turns(list(calls), [text("done")])
    q = query(
        "go",
        QueryOptions(
            model=model,
            tools=[WriteTool(), BashTool(), *tools],
            cwd=project,
            hooks=hooks,
            policy=policy,
            permission_mode=mode,
            ask=ask,
        ),
    )
    return [e.outcome async for e in q if isinstance(e, ToolResultEvent)]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = (tmp_path / "project").resolve()
    (root / ".claude" / "hooks").mkdir(parents=True)
    (root / ".git").mkdir()
    (root.parent / "home").mkdir()
    return root


@pytest.fixture
def allow_hook(project: Path) -> HookEngine:
    hook = python_script(project / ".claude/hooks", "allow.py", ALLOW_ALL)
    return engine_for({"PreToolUse": [group("*", cmd(hook))]})


async def test_dont_ask_a_hook_allow_runs_what_would_only_have_been_asked(
    project: Path, allow_hook: HookEngine
) -> None:
    target = project / "notes.txt"
    write = tool_use("Write", {"file_path": str(target), "content": "from the hook"})
    # without the hook, dontAsk turns the ask into a denial
    (refused,) = await run(project, [write], hooks=None, policy=engine(project), mode="dontAsk")
    assert refused.status == "rejected" and "mode dontAsk" in refused.block.text
    assert not target.exists()
    # with it, the call runs; nobody is asked
    (out,) = await run(project, [write], hooks=allow_hook, policy=engine(project), mode="dontAsk")
    assert out.status == "ok", out.block.text
    assert target.read_text() == "from the hook"


@pytest.mark.parametrize("rules", [{"ask": ["Write(notes.txt)"]}, {"deny": ["Write(notes.txt)"]}])
async def test_dont_ask_a_hook_allow_never_beats_an_ask_or_deny_rule(
    project: Path, allow_hook: HookEngine, rules: dict[str, list[str]]
) -> None:
    target = project / "notes.txt"
    write = tool_use("Write", {"file_path": str(target), "content": "x"})
    asked: list[str] = []
    (out,) = await run(
        project, [write], hooks=allow_hook, policy=engine(project, **rules), asked=asked
    )
    assert out.status == "rejected" and not target.exists()
    assert len(asked) == ("ask" in rules)  # an ask rule still prompts; a deny never does
    (out,) = await run(
        project, [write], hooks=allow_hook, policy=engine(project, **rules), mode="dontAsk"
    )
    assert out.status == "rejected" and not target.exists()
    assert "Write(notes.txt)" in out.block.text


async def test_a_hook_allow_does_not_skip_a_critical_path_removal(
    project: Path, allow_hook: HookEngine
) -> None:
    # rmdir of the cwd: critical. The directory is not empty, so even a wrong "allow" would
    # only make rmdir fail; the status tells which happened.
    rm = tool_use("Bash", {"command": f"rmdir {project}"})
    asked: list[str] = []
    (out,) = await run(
        project, [rm], hooks=allow_hook, policy=engine(project, allow=["Bash"]), asked=asked
    )
    assert out.status == "rejected" and out.block.text == "the user said no"
    assert asked and "critical paths always needs approval" in asked[0]
    (out,) = await run(
        project, [rm], hooks=allow_hook, policy=engine(project, allow=["Bash"]), mode="dontAsk"
    )
    assert out.status == "rejected" and "mode dontAsk" in out.block.text


async def test_a_hook_allow_does_not_skip_a_protected_path(
    project: Path, allow_hook: HookEngine
) -> None:
    target = project / ".git" / "config"
    asked: list[str] = []
    (out,) = await run(
        project,
        [tool_use("Write", {"file_path": str(target), "content": "[core]\n"})],
        hooks=allow_hook,
        policy=engine(project, allow=["Write"]),
        asked=asked,
    )
    assert out.status == "rejected" and not target.exists()
    assert asked and "always need approval" in asked[0]


async def test_ask_user_question_needs_the_hooks_answer_not_just_its_allow(
    project: Path, allow_hook: HookEngine
) -> None:
    question = tool_use("AskUserQuestion", {"question": "Which database?"})
    asked: list[str] = []
    (out,) = await run(
        project,
        [question],
        hooks=allow_hook,
        policy=engine(project),
        asked=asked,
        tools=[ask_user_question],
    )
    assert out.status == "rejected" and asked == ["AskUserQuestion needs an answer from the user."]
    answering = python_script(
        project / ".claude/hooks",
        "answer.py",
        "import json, sys\nd = json.load(sys.stdin)\n"
        "i = dict(d['tool_input']); i['answer'] = 'Postgres'\n"
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse',"
        " 'permissionDecision': 'allow', 'updatedInput': i}}))\n",
    )
    hooks = engine_for({"PreToolUse": [group("AskUserQuestion", cmd(answering))]})
    for mode in ("default", "dontAsk"):
        (out,) = await run(
            project, [question], hooks=hooks, policy=engine(project), mode=mode,
            tools=[ask_user_question],
        )  # fmt: skip
        assert out.status == "ok" and out.block.text == "Which database? -> Postgres"


async def test_dont_ask_a_hook_ask_is_a_denial_not_a_prompt(project: Path) -> None:
    hook = answering(
        project / ".claude/hooks",
        "ask.sh",
        specific(
            "PreToolUse", permissionDecision="ask", permissionDecisionReason="a human must look"
        ),
    )
    (out,) = await run(
        project,
        [tool_use("Bash", {"command": "echo hi"})],  # read-only: allowed unless the hook asks
        hooks=engine_for({"PreToolUse": [group("Bash", cmd(hook))]}),
        policy=engine(project),
        mode="dontAsk",
    )
    assert out.status == "rejected"
    assert "a human must look" in out.block.text and "mode dontAsk" in out.block.text


def decide(project: Path, policy: PermissionEngine, name: str, data: dict[str, Any], mode: Any):
    import anyio

    found = assemble_pool().find(name)
    assert found is not None
    ctx = ToolContext(
        cwd=project, project_dir=project, permission_mode=mode, session=Session(home=project)
    )

    async def go() -> PermissionDecision:
        return await policy.decide(found, found.parse_input(data), ctx)

    return anyio.run(go)


@pytest.mark.parametrize(
    ("rules", "data", "mode", "behavior", "approvable"),
    [
        ({}, {"command": "npm test"}, "default", "ask", True),
        ({}, {"command": "npm test"}, "dontAsk", "deny", True),
        ({"ask": ["Bash(npm *)"]}, {"command": "npm test"}, "default", "ask", False),
        ({"ask": ["Bash(npm *)"]}, {"command": "npm test"}, "dontAsk", "deny", False),
        ({"deny": ["Bash(npm *)"]}, {"command": "npm test"}, "dontAsk", "deny", False),
        ({"allow": ["Bash"]}, {"command": "rm -rf /"}, "default", "ask", False),
        ({"allow": ["Bash"]}, {"command": "rm -rf /"}, "bypassPermissions", "ask", False),
        # cannot be fully parsed: approvable only while no Bash deny/ask rule could hide in it
        ({}, {"command": "eval $(cat x)"}, "default", "ask", True),
        ({"deny": ["Bash(curl *)"]}, {"command": "eval $(cat x)"}, "default", "ask", False),
    ],
)
def test_the_engine_marks_which_decisions_a_hook_may_approve(
    project: Path,
    rules: dict[str, list[str]],
    data: dict[str, Any],
    mode: str,
    behavior: str,
    approvable: bool,
) -> None:
    d = decide(project, engine(project, **rules), "Bash", data, mode)
    assert (d.behavior, d.hook_can_approve) == (behavior, approvable), d


def test_decision_markers_default_to_not_approvable() -> None:
    from hands.core.decision import ask, deny

    assert ask("?").hook_can_approve is True
    assert ask("?", hook_can_approve=False).hook_can_approve is False
    assert deny("no").hook_can_approve is False
    assert PermissionDecision(behavior="ask").hook_can_approve is False
    assert json.dumps(PermissionDecision(behavior="ask").hook_needs_input) == "false"
