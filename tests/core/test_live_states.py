"""States that hold something live (background shells, the browser) or that compaction
would lose (the skills loaded) on the session-state protocol: saved, shown on resume,
closed with the session."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import anyio

from hands.core.context import ToolContext
from hands.core.decision import AskRequest, PermissionDecision
from hands.core.messages import ToolUseBlock
from hands.core.session import Session
from hands.core.state import Carried, SessionState
from hands.harness import Harness
from hands.tools.bash._shells import BackgroundShells
from hands.tools.browser._session import BrowserSession
from hands.tools.skill._loaded import LoadedSkills


async def yes(request: AskRequest) -> PermissionDecision:
    return PermissionDecision(behavior="allow", reason="the test says yes")


class Counted:
    """A state that counts how often it was closed."""

    key: ClassVar[str] = ""

    def __init__(self) -> None:
        self.closed = 0

    def snapshot(self) -> Any:
        return None

    def restore(self, data: Any) -> None:
        return None

    def carry(self, ctx: ToolContext, *, reattach: int) -> Carried:
        return Carried()

    async def aclose(self) -> None:
        self.closed += 1


def test_the_sessions_end_closes_every_state_made_registered_or_not() -> None:
    session = Session()
    state = session.service(Counted)  # used, never registered
    assert isinstance(state, SessionState)
    anyio.run(session.aclose)
    assert state.closed == 1
    assert Session().service(Counted).closed == 0  # another session's is its own


def test_a_background_shell_is_killed_on_close_saved_as_not_restorable_and_named_on_resume(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    home = tmp_path / "home"

    async def go() -> tuple[Any, int | None, str, str]:
        async with Harness.open(project, trust=True, ask=yes, session=Session(home=home)) as first:
            started = await first.run_tool_use(
                ToolUseBlock(
                    id="b1",
                    name="Bash",
                    input={"command": "echo started; sleep 60", "run_in_background": True},
                )
            )
            assert not started.is_error, started.block.text
            (task,) = BackgroundShells.for_session(first.session).tasks()
            assert task.status == "running"
            saved = first.snapshot()
        code = task.proc.popen.poll()  # the session's end killed it
        async with Harness.open(project, trust=True, ask=yes, session=Session(home=home)) as later:
            _ = later.pool
            assert "background_shells" in later.restore(saved)
            read = await later.run_tool_use(
                ToolUseBlock(id="o1", name="TaskOutput", input={"task_id": task.id})
            )
            assert read.is_error
        return saved, code, read.block.text, str(task.output_path)

    saved, code, text, output = anyio.run(go)
    assert code is not None
    shells = json.loads(json.dumps(saved["background_shells"]))  # JSON as saved
    assert shells["restorable"] is False
    assert [s["status"] for s in shells["shells"]] == ["running"]
    assert "belonged to the session this one resumes" in text and output in text


def test_the_skills_loaded_are_saved_restored_and_restated_after_compaction(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    skill = project / ".claude" / "skills" / "release"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: release\ndescription: cut a release\n---\nTag.\n")

    async def go() -> tuple[dict[str, Any], Carried]:
        async with Harness.open(project, trust=True, ask=yes) as first:
            used = await first.run_tool_use(
                ToolUseBlock(id="s1", name="Skill", input={"skill": "release"})
            )
            assert not used.is_error, used.block.text
            saved = first.snapshot()
        async with Harness.open(project, trust=True, ask=yes) as later:
            _ = later.pool
            assert "skills" in later.restore(saved)
            carried = later.session.service(LoadedSkills).carry(later.context, reattach=0)
        return saved, carried

    saved, carried = anyio.run(go)
    assert saved["skills"] == [{"name": "release", "directory": str(skill)}]
    assert any("release" in line and str(skill) in line for line in carried.lines)


def test_a_browser_is_saved_as_its_tabs_and_a_resumed_session_names_them_closed() -> None:
    browser = BrowserSession()
    assert browser.snapshot() == {"restorable": False, "tabs": []}  # none started
    assert browser.carry(ToolContext(cwd=Path.cwd()), reattach=0) == Carried()
    later = BrowserSession()
    later.restore({"restorable": False, "tabs": ["http://127.0.0.1:1/a", 7]})
    assert later.earlier_tabs == ("http://127.0.0.1:1/a",)  # what is not an address is left out
    lines = later.carry(ToolContext(cwd=Path.cwd()), reattach=0).lines
    assert "closed" in lines[0] and lines[1:] == ("- http://127.0.0.1:1/a",)
    assert later.snapshot()["tabs"] == ["http://127.0.0.1:1/a"]  # kept for the next resume
