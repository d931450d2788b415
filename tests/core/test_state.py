"""Session state behind one protocol: tools declare it, the session registers it, and
saving, restoring and compaction go through it."""

from __future__ import annotations

import ast
from pathlib import Path

import anyio

from hands.core.messages import ToolUseBlock
from hands.core.session import Session
from hands.core.state import SessionState, kinds_of, snapshots
from hands.harness import Harness
from hands.pipeline.pool import pool_for
from paths import REPO


def test_the_file_and_planning_tools_declare_their_states() -> None:
    from hands.tools.planning.todo_write import TodoWriteTool

    kinds = kinds_of([*pool_for(), TodoWriteTool()])
    keys = {k.key for k in kinds}
    assert {"read_state", "todos"} <= keys
    assert all(isinstance(Session().service(k), SessionState) for k in kinds)


def test_a_read_saved_and_restored_lets_a_later_session_edit(tmp_path: Path) -> None:
    target = tmp_path / "a.txt"
    target.write_text("one\n")

    async def go() -> tuple[bool, str]:
        async with Harness.open(tmp_path, trust=True) as first:
            read = ToolUseBlock(id="t1", name="Read", input={"file_path": str(target)})
            assert not (await first.run_tool_use(read)).is_error
            saved = first.snapshot()
        assert [r["path"] for r in saved["read_state"]] == [str(target)]
        edit = ToolUseBlock(
            id="t2",
            name="Edit",
            input={"file_path": str(target), "old_string": "one", "new_string": "two"},
        )
        async with Harness.open(tmp_path, trust=True, mode="acceptEdits") as fresh:
            refused = await fresh.run_tool_use(edit)
        async with Harness.open(tmp_path, trust=True, mode="acceptEdits") as later:
            _ = later.pool
            assert "read_state" in later.restore(saved)
            outcome = await later.run_tool_use(edit)
        return refused.is_error and not outcome.is_error, target.read_text()

    both, text = anyio.run(go)
    assert both
    assert text == "two\n"


def test_a_state_not_registered_is_not_saved() -> None:
    session = Session()
    assert snapshots(session) == {}


def test_no_other_layer_imports_a_tools_private_module() -> None:
    src = REPO / "src" / "hands"
    found: set[tuple[str, str]] = set()
    for path in src.rglob("*.py"):
        rel = path.relative_to(src).as_posix()
        if rel.startswith("tools/"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                parts = node.module.split(".")
                if parts[:2] == ["hands", "tools"] and any(p.startswith("_") for p in parts[2:]):
                    found.add((rel, node.module))
    assert found == set()
