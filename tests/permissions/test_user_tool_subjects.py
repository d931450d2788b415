"""A user's tool that declares its subject obeys the rules a built-in of that kind obeys."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands import ToolContext, build_tool, tool
from hands.config.settings import load_settings
from hands.core.messages import ToolUseBlock
from hands.core.outcome import ToolCallOutcome
from hands.core.schema import ToolInput
from hands.core.session import Session
from hands.core.subject import fetches_url, reads_path, writes_path
from hands.core.tool import Tool
from hands.permissions.engine import PermissionEngine
from hands.permissions.policy import engine_for, grammar_of
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import BuiltinGrammar, ToolPool
from hands.pipeline.runtime import ToolRuntime


@tool(read_only=True, subject=reads_path("path"))
def peek(path: str) -> str:
    """Show the first line of a file.

    Args:
        path: the file to look at
    """
    with Path(path).open(encoding="utf-8") as f:
        return f.readline().strip()


class StampInput(ToolInput):
    target: str
    text: str


async def _stamp(input: StampInput, ctx: ToolContext, progress: Any) -> str:
    ctx.resolve(input.target).write_text(input.text, encoding="utf-8")
    return f"stamped {input.target}"


STAMP = build_tool(
    name="stamp",
    description="Write a text to a file.",
    input_model=StampInput,
    call=_stamp,
    edits_files=True,
    subject=writes_path("target"),
)


class FetchInput(ToolInput):
    address: str


async def _fetch(input: FetchInput, ctx: ToolContext, progress: Any) -> str:
    return f"fetched {input.address}"


FETCH = build_tool(
    name="grab",
    description="Fetch a page.",
    input_model=FetchInput,
    call=_fetch,
    read_only=True,
    subject=fetches_url("address"),
)
USER_TOOLS: tuple[Tool[Any, Any], ...] = (peek, STAMP, FETCH)


class Project:
    """A project with a real settings file, a home, and a directory outside both."""

    def __init__(self, root: Path) -> None:
        self.dir = root / "proj"
        self.home = root / "home"
        self.outside = root / "outside"
        for d in (self.dir / ".git", self.home, self.outside):
            d.mkdir(parents=True)

    def engine(self, *, grammar: bool, **lists: list[str]) -> PermissionEngine:
        path = self.dir / ".claude" / "settings.local.json"
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps({"permissions": lists}), encoding="utf-8")
        env = {"HOME": str(self.home), "HANDS_MANAGED_SETTINGS": ""}
        settings = load_settings(self.dir, env=env, trusted=True)
        if not grammar:  # the library's plain path: rules read each tool's declaration
            return engine_for(settings)
        return engine_for(settings, grammar={**BuiltinGrammar(), **grammar_of(USER_TOOLS)})

    def run(
        self, engine: PermissionEngine, name: str, data: dict[str, Any], mode: Any = "default"
    ) -> ToolCallOutcome:
        runtime = ToolRuntime(tools=ToolPool(USER_TOOLS), policy=engine)
        ctx = ToolContext(
            cwd=self.dir,
            project_dir=self.dir,
            permission_mode=mode,
            session=Session(home=self.home / ".hands"),
        )

        async def go() -> ToolCallOutcome:
            block = ToolUseBlock(id="toolu_1", name=name, input=data)
            return await run_tool_use(block, ctx, runtime, lambda _: None)

        return anyio.run(go)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path.resolve())


@pytest.mark.parametrize("grammar", [True, False])
def test_a_user_tool_that_reads_a_path_obeys_read_rules(project: Project, grammar: bool) -> None:
    (project.dir / "notes.txt").write_text("hello\n")
    (project.dir / ".env").write_text("TOKEN=secret\n")
    (project.outside / "far.txt").write_text("far away\n")
    (project.outside / "ok.txt").write_text("allowed\n")
    engine = project.engine(
        grammar=grammar, deny=["Read(.env)"], allow=[f"Read(/{project.outside}/ok.txt)"]
    )
    inside = project.run(engine, "peek", {"path": str(project.dir / "notes.txt")})
    assert inside.status == "ok" and "hello" in str(inside.block.content)
    denied = project.run(engine, "peek", {"path": ".env"})
    assert denied.status == "rejected" and "Read(.env)" in str(denied.block.content)
    assert "secret" not in str(denied.block.content)
    far = project.run(engine, "peek", {"path": str(project.outside / "far.txt")})
    assert far.status == "rejected" and "outside the working directories" in str(far.block.content)
    allowed = project.run(engine, "peek", {"path": str(project.outside / "ok.txt")})
    assert allowed.status == "ok" and "allowed" in str(allowed.block.content)


@pytest.mark.parametrize("grammar", [True, False])
def test_a_user_tool_that_writes_a_path_obeys_edit_rules(project: Project, grammar: bool) -> None:
    engine = project.engine(
        grammar=grammar, allow=["Edit(./out/**)"], deny=["Edit(./locked/**)", "stamp(./x/**)"]
    )
    (project.dir / "out").mkdir()
    ok = project.run(engine, "stamp", {"target": "out/a.txt", "text": "A"})
    assert ok.status == "ok" and (project.dir / "out" / "a.txt").read_text() == "A"
    locked = project.run(engine, "stamp", {"target": "locked/b.txt", "text": "B"})
    assert locked.status == "rejected" and "Edit(./locked/**)" in str(locked.block.content)
    own_name = project.run(engine, "stamp", {"target": "x/c.txt", "text": "C"})
    assert own_name.status == "rejected" and "stamp(./x/**)" in str(own_name.block.content)
    # no rule covers it: asked, and nobody answers
    unruled = project.run(engine, "stamp", {"target": "elsewhere.txt", "text": "D"})
    assert unruled.status == "rejected" and not (project.dir / "elsewhere.txt").exists()
    # acceptEdits covers the working directories, never a protected path
    accepted = project.run(engine, "stamp", {"target": "fine.txt", "text": "E"}, "acceptEdits")
    assert accepted.status == "ok" and (project.dir / "fine.txt").read_text() == "E"
    protected = project.run(
        engine, "stamp", {"target": ".claude/settings.json", "text": "{}"}, "acceptEdits"
    )
    assert protected.status == "rejected"
    assert not (project.dir / ".claude" / "settings.json").exists()
    outside = project.run(
        engine, "stamp", {"target": str(project.outside / "o.txt"), "text": "G"}, "acceptEdits"
    )
    assert outside.status == "rejected" and not (project.outside / "o.txt").exists()


@pytest.mark.parametrize("grammar", [True, False])
def test_a_user_tool_that_fetches_obeys_domain_rules_under_its_name(
    project: Project, grammar: bool
) -> None:
    engine = project.engine(
        grammar=grammar, allow=["grab(domain:*.example.com)"], deny=["grab(domain:evil.com)"]
    )
    assert engine.warnings == ()
    ok = project.run(engine, "grab", {"address": "https://docs.example.com/a"})
    assert ok.status == "ok" and "fetched" in str(ok.block.content)
    evil = project.run(engine, "grab", {"address": "http://EVIL.com./x"})
    assert evil.status == "rejected" and "grab(domain:evil.com)" in str(evil.block.content)
    other = project.run(engine, "grab", {"address": "https://example.org/"})
    assert other.status == "ok"  # read-only and no rule against it
    # a WebFetch rule is about WebFetch, not about every tool that fetches
    strict = project.engine(grammar=grammar, deny=["WebFetch(domain:example.org)"])
    assert project.run(strict, "grab", {"address": "https://example.org/"}).status == "ok"
