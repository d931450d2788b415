"""File checkpoints through the real Python SDK: ``enable_file_checkpointing`` and
``rewind_files`` with the prompt uuids ``--replay-user-messages`` sends back."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from claude_agent_sdk import ClaudeSDKClient, ResultMessage, UserMessage

from cli.sdk.kit import options, scripted, text, tool_use

pytestmark = pytest.mark.anyio

REPLAY: dict[str, str | None] = {"replay-user-messages": None}


def _writes(tmp_path: Path) -> str:
    root = tmp_path / "project"
    root.mkdir(exist_ok=True)
    (root / "notes.txt").write_text("before\n")
    return scripted(
        tmp_path,
        [tool_use("Read", file_path=str(root / "notes.txt"))],
        [tool_use("Write", file_path=str(root / "notes.txt"), content="after\n")],
        [tool_use("Write", file_path=str(root / "created.txt"), content="new\n")],
        [text("first done")],
        [tool_use("Write", file_path=str(root / "notes.txt"), content="later\n")],
        [text("second done")],
    )


async def _prompt_ids(client: ClaudeSDKClient, prompt: str) -> list[str]:
    """Send ``prompt``; the uuids of the replayed prompt lines of its turn."""
    await client.query(prompt)
    ids: list[str] = []
    async for message in client.receive_response():
        if isinstance(message, UserMessage) and isinstance(message.content, str):
            assert message.uuid is not None
            ids.append(message.uuid)
        if isinstance(message, ResultMessage):
            assert not message.is_error, message.result
    return ids


async def test_rewind_files_puts_back_what_the_prompts_wrote(tmp_path: Path) -> None:
    model = _writes(tmp_path)
    opts = options(
        tmp_path,
        model,
        permission_mode="acceptEdits",
        enable_file_checkpointing=True,
        extra_args=REPLAY,
    )
    root = tmp_path / "project"
    async with ClaudeSDKClient(opts) as client:
        [first] = await _prompt_ids(client, "change the notes")
        [second] = await _prompt_ids(client, "change them again")
        assert first != second
        assert (root / "notes.txt").read_text() == "later\n"
        answer: dict[str, Any] = await client._query._send_control_request(  # type: ignore[union-attr]
            {"subtype": "rewind_files", "user_message_id": second}
        )
        assert (root / "notes.txt").read_text() == "after\n"
        assert answer["canRewind"] is True
        assert answer["filesChanged"] == [str(root / "notes.txt")]
        await client.rewind_files(first)
        assert (root / "notes.txt").read_text() == "before\n"
        assert not (root / "created.txt").exists()
        with pytest.raises(Exception, match="no checkpoint for user message"):
            await client.rewind_files("00000000-0000-4000-8000-000000000000")


async def test_rewind_files_is_refused_without_checkpointing(tmp_path: Path) -> None:
    model = _writes(tmp_path)
    opts = options(tmp_path, model, permission_mode="acceptEdits", extra_args=REPLAY)
    root = tmp_path / "project"
    async with ClaudeSDKClient(opts) as client:
        [first] = await _prompt_ids(client, "change the notes")
        with pytest.raises(Exception, match="file checkpointing is off"):
            await client.rewind_files(first)
    assert (root / "notes.txt").read_text() == "after\n"
    assert (root / "created.txt").read_text() == "new\n"
    sessions = tmp_path / "home" / ".hands" / "sessions"
    assert not list(sessions.glob("*/checkpoints/turns.json"))


async def test_a_prompt_keeps_the_uuid_the_program_gave_it(tmp_path: Path) -> None:
    model = _writes(tmp_path)
    opts = options(
        tmp_path,
        model,
        permission_mode="acceptEdits",
        enable_file_checkpointing=True,
        extra_args=REPLAY,
    )
    root = tmp_path / "project"
    mine = "6f0b8a52-3c1d-4e7f-9a2b-1c2d3e4f5a6b"

    async def prompt() -> AsyncIterator[dict[str, Any]]:
        yield {
            "type": "user",
            "message": {"role": "user", "content": "change the notes"},
            "parent_tool_use_id": None,
            "uuid": mine,
        }

    async with ClaudeSDKClient(opts) as client:
        await client.query(prompt())
        replayed = [
            m.uuid
            async for m in client.receive_response()
            if isinstance(m, UserMessage) and isinstance(m.content, str)
        ]
        assert replayed == [mine]
        await client.rewind_files(mine)
    assert (root / "notes.txt").read_text() == "before\n"
    assert not (root / "created.txt").exists()


async def _first_session(tmp_path: Path) -> tuple[str, str]:
    """A session whose one prompt rewrites notes.txt and creates created.txt: its uuid and
    the session's id."""
    root = tmp_path / "project"
    opts = options(
        tmp_path, _writes(tmp_path), permission_mode="acceptEdits",
        enable_file_checkpointing=True, extra_args=REPLAY,
    )  # fmt: skip
    first, session = "", ""
    async with ClaudeSDKClient(opts) as client:
        await client.query("change the notes")
        async for message in client.receive_response():
            if isinstance(message, UserMessage) and isinstance(message.content, str):
                first = message.uuid or ""
            if isinstance(message, ResultMessage):
                session = message.session_id
    assert first and session
    assert (root / "notes.txt").read_text() == "after\n" and (root / "created.txt").exists()
    return first, session


async def test_rewind_files_reaches_a_prompt_of_the_process_before_a_resume(
    tmp_path: Path,
) -> None:
    root = tmp_path / "project"
    first, session = await _first_session(tmp_path)
    later = scripted(
        tmp_path,
        [tool_use("Write", file_path=str(root / "notes.txt"), content="later\n")],
        [text("second done")],
    )
    resumed = options(
        tmp_path, later, permission_mode="acceptEdits", enable_file_checkpointing=True,
        extra_args=REPLAY, resume=session,
    )  # fmt: skip
    async with ClaudeSDKClient(resumed) as client:
        [second] = await _prompt_ids(client, "change them again")
        assert (root / "notes.txt").read_text() == "later\n"
        await client.rewind_files(second)
        assert (root / "notes.txt").read_text() == "after\n"
        await client.rewind_files(first)  # a prompt of the earlier process
    assert (root / "notes.txt").read_text() == "before\n"
    assert not (root / "created.txt").exists()


async def test_rewind_files_in_a_fork_reaches_the_parents_prompts(tmp_path: Path) -> None:
    root = tmp_path / "project"
    first, session = await _first_session(tmp_path)
    forked = options(
        tmp_path, scripted(tmp_path, [text("unused")]), permission_mode="acceptEdits",
        enable_file_checkpointing=True, extra_args=REPLAY, resume=session, fork_session=True,
    )  # fmt: skip
    async with ClaudeSDKClient(forked) as client:
        await client.rewind_files(first)  # a prompt of the session it forked from
    assert (root / "notes.txt").read_text() == "before\n"
    assert not (root / "created.txt").exists()
