"""Plan mode through whole sessions: what runs while planning, the plan file, approval."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hands import QueryOptions, query
from hands.agent.events import ResultEvent
from hands.core.context import PermissionMode
from hands.core.decision import AskRequest, PermissionDecision
from hands.core.messages import ToolResultBlock
from hands.core.session import Session
from hands.orchestration.events import ToolResultEvent
from hands.permissions.engine import PermissionEngine
from hands.permissions.plan_mode import plan_file
from hands.testing import ScriptedModel
from hands.tools.plan.enter_plan_mode import EnterPlanModeTool
from hands.tools.plan.exit_plan_mode import ExitPlanModeTool

pytestmark = pytest.mark.anyio

ENTER = EnterPlanModeTool.name
EXIT = ExitPlanModeTool.name


def call(name: str, **tool_input: Any) -> dict[str, Any]:
    return {"type": "tool_use", "name": name, "input": tool_input}


class Asked:
    """An ask handler that records each question and answers with ``answer``."""

    def __init__(self, answer: PermissionDecision | None = None) -> None:
        self.requests: list[AskRequest] = []
        self.previews: list[str] = []
        self.answer = answer or PermissionDecision(behavior="allow", reason="test")

    async def __call__(self, request: AskRequest) -> PermissionDecision:
        self.requests.append(request)
        self.previews.append(await request.tool.preview(request.input, request.context) or "")
        return self.answer


async def run(
    tmp_path: Path,
    turns: list[list[dict[str, Any]]],
    *,
    mode: PermissionMode,
    ask: Asked | None = None,
    session: Session | None = None,
) -> tuple[list[ToolResultBlock], Any, ScriptedModel]:
    model = ScriptedModel.from_turns(*turns, [{"type": "text", "text": "done"}])
    q = query(
        "work",
        QueryOptions(
            model=model,
            cwd=tmp_path,
            permission_mode=mode,
            policy=PermissionEngine(home=tmp_path / "home"),
            ask=ask,
            session=session,
        ),
    )
    results: list[ToolResultBlock] = []
    async for event in q:
        if isinstance(event, ToolResultEvent):
            results.append(event.outcome.block)
        if isinstance(event, ResultEvent):
            assert event.subtype == "success", event.error
    return results, q, model


async def test_plan_mode_refuses_edit_and_rm_but_runs_read_and_grep(tmp_path: Path) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("alpha\n")
    results, q, model = await run(
        tmp_path,
        [
            [
                call("Read", file_path=str(target)),
                call("Grep", pattern="alpha", path=str(tmp_path)),
            ],
            [call("Edit", file_path=str(target), old_string="alpha", new_string="beta")],
            [call("Bash", command=f"rm {target}")],
        ],
        mode="plan",
    )
    read, grep, edit, rm = results
    assert not read.is_error and "alpha" in read.text
    assert not grep.is_error and "notes.txt" in grep.text
    for refused in (edit, rm):
        assert refused.is_error
        assert "you are planning (plan mode)" in refused.text
        assert str(plan_file(q.session)) in refused.text
    assert target.read_text() == "alpha\n"
    # the first request told the model it plans, and where the plan goes
    first = model.requests[0].messages
    assert any("Plan mode is on" in m.text and str(plan_file(q.session)) in m.text for m in first)
    assert q.permission_mode == "plan"


async def test_enter_write_the_plan_then_approval_restores_the_mode_before(
    tmp_path: Path,
) -> None:
    target = tmp_path / "app.py"
    target.write_text("x = 1\n")
    session = Session(session_id="plan-one", home=tmp_path / "hands")
    plan = plan_file(session)
    asked = Asked()
    results, q, _ = await run(
        tmp_path,
        [
            [call(ENTER)],
            [call("Write", file_path=str(tmp_path / "new.py"), content="y = 2\n")],
            [call("Write", file_path=str(plan), content="1. set x to 2\n")],
            [call(EXIT)],
            [call("Read", file_path=str(target))],
            [call("Edit", file_path=str(target), old_string="x = 1", new_string="x = 2")],
        ],
        mode="acceptEdits",
        ask=asked,
        session=session,
    )
    enter, refused, wrote_plan, exited, _read, edited = results
    assert "Plan mode is on" in enter.text and str(plan) in enter.text
    assert refused.is_error and not (tmp_path / "new.py").exists()
    assert not wrote_plan.is_error and plan.read_text() == "1. set x to 2\n"
    assert not exited.is_error and "approved" in exited.text and "acceptEdits" in exited.text
    # only the plan was asked about: its file was written without a question, and the
    # edit after it ran because acceptEdits came back
    assert [r.tool.name for r in asked.requests] == [EXIT]
    assert "1. set x to 2" in asked.previews[0]
    assert not edited.is_error and target.read_text() == "x = 2\n"
    assert q.permission_mode == "acceptEdits"


async def test_a_plan_not_approved_keeps_planning_with_the_feedback(tmp_path: Path) -> None:
    session = Session(session_id="plan-two", home=tmp_path / "hands")
    plan_file(session).parent.mkdir(parents=True)
    plan_file(session).write_text("rewrite everything\n")
    asked = Asked(
        PermissionDecision(
            behavior="deny", message="Not approved. The user says: smaller steps please"
        )
    )
    results, q, _ = await run(tmp_path, [[call(EXIT)]], mode="plan", ask=asked, session=session)
    assert results[0].is_error and "smaller steps please" in results[0].text
    assert q.permission_mode == "plan"


async def test_exit_plan_mode_needs_plan_mode_and_a_written_plan(tmp_path: Path) -> None:
    results, _, _ = await run(tmp_path, [[call(EXIT)]], mode="default", ask=Asked())
    assert results[0].is_error and "not in plan mode" in results[0].text
    results, q, _ = await run(tmp_path, [[call(EXIT)]], mode="plan", ask=Asked())
    assert results[0].is_error and str(plan_file(q.session)) in results[0].text
    assert q.permission_mode == "plan"


async def test_planning_from_bypass_goes_back_to_it_without_asking(tmp_path: Path) -> None:
    session = Session(session_id="plan-three", home=tmp_path / "hands")
    asked = Asked()
    results, q, _ = await run(
        tmp_path,
        [
            [call(ENTER)],
            [call("Write", file_path=str(plan_file(session)), content="the plan\n")],
            [call(EXIT)],
        ],
        mode="bypassPermissions",
        ask=asked,
        session=session,
    )
    assert not results[2].is_error and "bypassPermissions" in results[2].text
    assert asked.requests == [] and q.permission_mode == "bypassPermissions"


async def test_the_simple_policy_plans_the_same_way(tmp_path: Path) -> None:
    session = Session(session_id="plan-four", home=tmp_path / "hands")
    plan = plan_file(session)
    model = ScriptedModel.from_turns(
        [call("Write", file_path=str(tmp_path / "a.txt"), content="a")],
        [call("Write", file_path=str(plan), content="the plan\n")],
        [call(EXIT)],
        [{"type": "text", "text": "done"}],
    )
    asked = Asked()
    q = query(
        "work",
        QueryOptions(model=model, cwd=tmp_path, permission_mode="plan", ask=asked, session=session),
    )
    blocks = [e.outcome.block async for e in q if isinstance(e, ToolResultEvent)]
    assert blocks[0].is_error and "you are planning" in blocks[0].text
    assert not blocks[1].is_error and plan.read_text() == "the plan\n"
    assert not blocks[2].is_error and q.permission_mode == "default"
    assert [r.tool.name for r in asked.requests] == [EXIT]


async def test_the_plan_file_can_be_read_and_revised_while_planning(tmp_path: Path) -> None:
    session = Session(session_id="plan-five", home=tmp_path / "hands")
    plan = plan_file(session)
    asked = Asked()
    results, _, _ = await run(
        tmp_path,
        [
            [call("Write", file_path=str(plan), content="1. first idea\n")],
            [call("Read", file_path=str(plan))],
            [call("Edit", file_path=str(plan), old_string="first", new_string="better")],
        ],
        mode="plan",
        ask=asked,
        session=session,
    )
    assert [r.is_error for r in results] == [False, False, False]
    assert plan.read_text() == "1. better idea\n" and asked.requests == []
    # a link to the plan file is not the plan file
    link = tmp_path / "link.md"
    link.symlink_to(plan)
    results, _, _ = await run(
        tmp_path,
        [[call("Write", file_path=str(link), content="x")]],
        mode="plan",
        session=session,
    )
    assert results[0].is_error and plan.read_text() == "1. better idea\n"


async def test_the_approval_chooses_the_mode_after_through_its_decision(tmp_path: Path) -> None:
    from hands.permissions.plan_mode import PlanState

    session = Session(session_id="plan-mode-after", home=tmp_path / "hands")
    plan = plan_file(session)
    target = tmp_path / "app.py"
    target.write_text("x = 1\n")
    asked = Asked(PermissionDecision(behavior="allow", reason="approved", mode_after="acceptEdits"))
    results, q, _ = await run(
        tmp_path,
        [
            [call(ENTER)],
            [call("Write", file_path=str(plan), content="1. set x to 2\n")],
            [call(EXIT)],
            [call("Read", file_path=str(target))],
            [call("Edit", file_path=str(target), old_string="x = 1", new_string="x = 2")],
        ],
        mode="default",  # planned from default; the approval chose acceptEdits
        ask=asked,
        session=session,
    )
    exited, edited = results[2], results[4]
    assert not exited.is_error and "acceptEdits" in exited.text
    assert not edited.is_error and target.read_text() == "x = 2\n"  # no question: acceptEdits
    assert [r.tool.name for r in asked.requests] == [EXIT]
    assert q.permission_mode == "acceptEdits"
    assert not hasattr(session.service(PlanState), "approved_mode")  # no side channel
