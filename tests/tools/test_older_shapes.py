"""Older input shapes and names that models trained on earlier Claude Code still send.

Each is served as today's shape would be, through the whole pipeline of a scripted
session (or the Bash harness for background tasks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from hands.core.session import Session
from hands.pipeline.pool import pool_for
from hands.tools.planning._todos import TodoList
from hands.tools.planning.ask_user_question import Question
from tools.planning.kit import COLOR, run, use

pytestmark = pytest.mark.anyio


async def test_a_long_header_and_an_option_markdown_are_taken(project: Path) -> None:
    seen: list[Question] = []

    async def answer(questions: Sequence[Question]) -> Mapping[str, str]:
        seen.extend(questions)
        return {questions[0].question: "Red"}

    question = {
        **COLOR,
        "header": "A header far longer than twelve characters",
        "options": [
            {"label": "Red", "description": "warm", "markdown": "# red\nswatch"},
            {"label": "Blue", "description": "cool", "preview": "blue", "markdown": "unused"},
        ],
    }
    (out,) = await run(
        project, [use("AskUserQuestion", questions=[question])], answer_questions=answer
    )
    assert out.status == "ok", out.block.text
    (asked,) = seen
    assert asked.header == "A header far longer than twelve characters"
    assert [o.preview for o in asked.options] == ["# red\nswatch", "blue"]


async def test_exit_plan_mode_under_its_older_name_reaches_exit_plan_mode(project: Path) -> None:
    (older,) = await run(project, [use("exit_plan_mode", plan="1. do it")], mode="plan")
    (today,) = await run(project, [use("ExitPlanMode", plan="1. do it")], mode="plan")
    assert "There is no tool named" not in older.block.text
    for out in (older, today):  # the same tool: it asks for the plan's approval
        assert out.block.text.startswith("ExitPlanMode needs an approval"), out.block.text


async def test_todo_write_is_served_in_a_session_of_task_tools(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HANDS_ENABLE_TASKS", "1")
    assert "TodoWrite" not in pool_for().names and "TaskCreate" in pool_for().names
    session = Session()
    todos = [{"content": "Fix it", "status": "in_progress", "activeForm": "Fixing it"}]
    (out,) = await run(project, [use("TodoWrite", todos=todos)], session=session)
    assert not out.is_error, out.block.text
    assert [i.content for i in session.service(TodoList).items] == ["Fix it"]


async def test_task_tools_are_served_in_a_session_of_todo_write(
    project: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HANDS_ENABLE_TASKS", "0")
    monkeypatch.setenv("HANDS_TASK_LIST_ID", f"older-shapes-{tmp_path.name}")
    assert "TaskCreate" not in pool_for().names and "TodoWrite" in pool_for().names
    session = Session(home=tmp_path / "hands-home")
    created, listed = await run(
        project,
        [use("TaskCreate", subject="Fix it", description="the bug"), use("TaskList")],
        session=session,
    )
    assert not created.is_error and not listed.is_error, created.block.text
    assert "Fix it" in listed.block.text


async def test_a_tool_served_unlisted_needs_its_partner_in_the_pool(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hands.pipeline.pool import ToolPool, resolve
    from hands.tools.file.read import ReadTool
    from hands.tools.search.glob import GlobTool

    monkeypatch.setenv("HANDS_ENABLE_TASKS", "1")
    assert resolve("TodoWrite", ToolPool([ReadTool()])) is None  # no Task tools here
    assert resolve("LS", ToolPool([ReadTool()])) is None  # nor Glob
    found = resolve("LS", ToolPool([GlobTool()]))
    assert found is not None and found.name == "LS"
    assert resolve("LSTool", ToolPool([GlobTool()])) is not None  # its own older name
    assert resolve("LS", ToolPool([GlobTool()], serves_unlisted=False)) is None  # a sub-agent's


async def test_ls_lists_a_real_directory_as_a_tree(project: Path) -> None:
    (project / "src" / "pkg").mkdir(parents=True)
    (project / "src" / "pkg" / "mod.py").write_text("")
    (project / "README.md").write_text("")
    (project / ".git").mkdir()
    (project / ".git" / "config").write_text("")
    (project / "build").mkdir()
    (project / "build" / "out.o").write_text("")
    listed, ignored, missing, a_file = await run(
        project,
        [
            use("LS", path=str(project)),
            use("LS", path="src", ignore=["*.py"]),
            use("LS", path=str(project / "nowhere")),
            use("LS", path="README.md"),
        ],
    )
    assert not listed.is_error, listed.block.text
    assert listed.block.text == "\n".join(
        [
            f"- {project}/",
            "  - README.md",
            "  - build/",
            "    - out.o",
            "  - src/",
            "    - pkg/",
            "      - mod.py",
        ]
    )
    assert "mod.py" not in ignored.block.text and "pkg/" in ignored.block.text
    assert missing.is_error and "No directory" in missing.block.text
    assert a_file.is_error and "is a file" in a_file.block.text


async def test_ls_keeps_to_the_read_deny_rules(project: Path) -> None:
    from hands.agent.loop import QueryOptions, query
    from hands.config.settings import load_settings
    from hands.orchestration.events import ToolResultEvent
    from hands.permissions.policy import engine_for
    from hands.pipeline.pool import BuiltinGrammar
    from hands.testing import ScriptedModel

    (project / "secret").mkdir()
    (project / "secret" / "key.pem").write_text("")
    (project / "open.txt").write_text("")
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(
        '{"permissions": {"deny": ["Read(./secret/**)"]}}'
    )
    settings = load_settings(project, env={"HOME": str(project / "nohome")}, trusted=True)
    engine = engine_for(settings, grammar=BuiltinGrammar())
    model = ScriptedModel.from_turns(
        [use("LS", path=str(project))],
        [use("LS", path=str(project / "secret"))],
        [{"type": "text", "text": "ok"}],
    )
    options = QueryOptions(model=model, tools=pool_for(engine), cwd=project, policy=engine)
    events = [e async for e in query("go", options)]
    listed, inside = [e.outcome.block for e in events if isinstance(e, ToolResultEvent)]
    assert "open.txt" in listed.text and "key.pem" not in listed.text
    assert "key.pem" not in inside.text
