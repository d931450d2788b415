"""Files a Bash command changes in a git work tree are checkpointed, and rewound."""

from __future__ import annotations

import subprocess
from pathlib import Path

import anyio

from hands.agent.loop import query
from hands.agent.options import QueryOptions
from hands.core.session import Session
from hands.pipeline.checkpoints import CheckpointStore
from hands.testing import ScriptedModel


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def _repo(root: Path) -> None:
    root.mkdir()
    _git(root, "init", "-q")
    _git(root, "config", "user.email", "t@example.com")
    _git(root, "config", "user.name", "t")
    for name in ("clean.txt", "dirty.txt", "gone.txt"):
        (root / name).write_text(f"{name} one\n")
    _git(root, "add", ".")
    _git(root, "commit", "-qm", "start")
    (root / "dirty.txt").write_text("dirty.txt changed before\n")
    (root / "untracked.txt").write_text("untracked one\n")


def _run_bash(tmp_path: Path, root: Path, command: str) -> Session:
    model = ScriptedModel.from_turns(
        [{"type": "tool_use", "name": "Bash", "input": {"command": command}}],
        [{"type": "text", "text": "ran"}],
    )
    session = Session(home=tmp_path / "home")

    async def go() -> None:
        options = QueryOptions(
            model=model, cwd=root, session=session, permission_mode="bypassPermissions"
        )
        async for _ in query("run it", options):
            pass

    anyio.run(go)
    return session


def test_rewind_restores_what_a_bash_command_changed(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    _repo(root)
    marker = tmp_path / "fsmonitor-ran"
    monitor = tmp_path / "monitor.sh"
    monitor.write_text(f"#!/bin/sh\ntouch {marker}\n")
    monitor.chmod(0o755)
    _git(root, "config", "core.fsmonitor", str(monitor))  # a folder not trusted: never run
    command = (
        "sed -i 's/one/ONE/' clean.txt untracked.txt && sed -i 's/before/by sed/' dirty.txt"
        " && rm gone.txt && echo made > made.txt"
    )
    session = _run_bash(tmp_path, root, command)
    assert (root / "clean.txt").read_text() == "clean.txt ONE\n"
    assert not (root / "gone.txt").exists()
    store = session.service(CheckpointStore)
    names = {"clean.txt", "dirty.txt", "gone.txt", "made.txt", "untracked.txt"}
    assert store.changed_since(1) == sorted(str(root / n) for n in names)

    done = store.rewind_to_message(0)
    assert (root / "clean.txt").read_text() == "clean.txt one\n"
    assert (root / "dirty.txt").read_text() == "dirty.txt changed before\n"
    assert (root / "untracked.txt").read_text() == "untracked one\n"
    assert (root / "gone.txt").read_text() == "gone.txt one\n"
    assert not (root / "made.txt").exists()
    assert done.removed == (str(root / "made.txt"),) and not done.lost
    assert not marker.exists()


def test_a_read_only_command_or_a_folder_outside_git_records_nothing(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    _repo(root)
    session = _run_bash(tmp_path, root, "cat clean.txt")
    assert session.service(CheckpointStore).changed_since(1) == []

    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "f.txt").write_text("x\n")
    session = _run_bash(tmp_path, plain, "sed -i 's/x/y/' f.txt")
    assert session.service(CheckpointStore).changed_since(1) == []
