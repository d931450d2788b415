"""Relative paths: taken from the working directory, checked and reported as absolute paths."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from hands.hooks.config import parse_hooks
from hands.hooks.engine import HookEngine
from support import project_rules_engine

from .conftest import Harness

NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "id": "c1",
            "metadata": {},
            "source": "1",
            "outputs": [],
            "execution_count": None,
        }
    ],
    "metadata": {},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def test_read_write_edit_take_relative_paths_from_the_cwd(h: Harness) -> None:
    (h.root / "src").mkdir()
    written = h.ok("Write", file_path="src/new.txt", content="alpha\nbeta\n").block.text
    target = h.root / "src" / "new.txt"
    assert target.read_text() == "alpha\nbeta\n"
    assert written == f"Created {target}."
    assert "1\talpha" in h.ok("Read", file_path="./src/new.txt").block.text
    edited = h.ok("Edit", file_path="src/../src/new.txt", old_string="beta", new_string="B")
    assert edited.block.text.startswith(f"Saved {target}.")
    assert target.read_text() == "alpha\nB\n"
    multi = h.ok(
        "MultiEdit", file_path="src/new.txt", edits=[{"old_string": "alpha", "new_string": "A"}]
    )
    assert str(target) in multi.block.text and target.read_text() == "A\nB\n"


def test_notebook_edit_takes_a_relative_path(h: Harness) -> None:
    nb = h.root / "n.ipynb"
    nb.write_text(json.dumps(NOTEBOOK))
    h.ok("Read", file_path="n.ipynb")
    out = h.ok("NotebookEdit", notebook_path="n.ipynb", cell_id="c1", new_source="2")
    assert str(nb) in out.block.text
    assert "".join(json.loads(nb.read_text())["cells"][0]["source"]) == "2"


def test_a_relative_path_that_leaves_the_project_is_checked_where_it_lands(
    h: Harness, tmp_path: Path, hands_home: Path
) -> None:
    # acceptEdits allows writes inside the working directory only; ../ lands outside it.
    h.runtime = dataclasses.replace(h.runtime, policy=project_rules_engine(h.root, hands_home))
    text = h.err("Write", file_path="../escape.txt", content="x")
    assert not (tmp_path / "escape.txt").exists()
    assert str(tmp_path / "escape.txt") in text
    h.ok("Write", file_path="sub/../inside.txt", content="x")
    assert (h.root / "inside.txt").read_text() == "x"


def test_rules_match_the_resolved_path(h: Harness, hands_home: Path) -> None:
    (h.root / "secret").mkdir()
    (h.root / "secret" / "key.txt").write_text("k")
    (h.root / "open.txt").write_text("o")
    policy = project_rules_engine(h.root, hands_home, deny=["Read(./secret/**)"])
    h.runtime = dataclasses.replace(h.runtime, policy=policy)
    assert "denied" in h.err("Read", file_path="open/../secret/key.txt")
    assert "denied" in h.err("Read", file_path="secret/key.txt")
    assert "1\to" in h.ok("Read", file_path="open.txt").block.text


def test_hooks_see_the_resolved_absolute_path(h: Harness) -> None:
    seen = h.root.parent / "seen.jsonl"
    hook = {"type": "command", "command": f"cat >> {seen}; echo >> {seen}"}
    hooks = HookEngine(
        parse_hooks([("test", {"PreToolUse": [{"matcher": "Read|Write", "hooks": [hook]}]})])
    )
    h.runtime = dataclasses.replace(h.runtime, hooks=hooks)
    (h.root / "a.txt").write_text("a\n")
    h.ok("Read", file_path="sub/../a.txt")
    h.ok("Write", file_path="b.txt", content="b")
    inputs = [json.loads(line)["tool_input"] for line in seen.read_text().splitlines() if line]
    assert inputs[0]["file_path"] == str(h.root / "a.txt")
    assert inputs[1] == {"file_path": str(h.root / "b.txt"), "content": "b"}
