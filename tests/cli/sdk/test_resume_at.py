"""``--resume-session-at`` / ``--resume-drops-turn`` through the real Python SDK: the
uuids the program saw name the place a resumed conversation is cut."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from claude_agent_sdk import AssistantMessage, ClaudeSDKClient, ResultMessage, UserMessage

from cli.sdk.kit import anthropic_env, options, run, said
from models.loopback import LoopbackServer

pytestmark = pytest.mark.anyio

REPLAY: dict[str, str | None] = {"replay-user-messages": None}


def _texts(body: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for message in body["messages"]:
        content = message["content"]
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        out.extend(b.get("text", "") for b in blocks if b.get("type") == "text")
    return out


async def _two_turns(tmp_path: Path, env: dict[str, str]) -> tuple[str, str, str]:
    """Two prompts; the session id, the first reply's uuid and the second prompt's."""
    opts = options(tmp_path, "claude-sonnet-4-5", env=env, extra_args=REPLAY)
    replies: list[str] = []
    prompts: list[str] = []
    async with ClaudeSDKClient(opts) as client:
        for prompt in ("remember apples", "now forget apples"):
            await client.query(prompt)
            async for message in client.receive_response():
                if isinstance(message, AssistantMessage) and message.uuid:
                    replies.append(message.uuid)
                if isinstance(message, UserMessage) and message.uuid:
                    prompts.append(message.uuid)
                if isinstance(message, ResultMessage):
                    session = message.session_id
    return session, replies[0], prompts[1]


async def test_resume_session_at_cuts_the_conversation_there(
    tmp_path: Path, server: LoopbackServer
) -> None:
    server.queue(said("noted apples"), said("forgotten"), said("you said apples"))
    env = anthropic_env(server)
    session, first_reply, second_prompt = await _two_turns(tmp_path, env)
    resumed = await run(
        "what did I say?",
        options(
            tmp_path,
            "claude-sonnet-4-5",
            env=env,
            resume=session,
            fork_session=True,
            resume_session_at=first_reply,
            resume_drops_turn=second_prompt,
        ),
    )
    last = resumed[-1]
    assert isinstance(last, ResultMessage) and not last.is_error, last
    sent = _texts(server.requests[-1].body)
    assert sent == ["remember apples", "noted apples", "what did I say?"]


async def test_resume_drops_turn_refuses_a_cut_that_loses_more(
    tmp_path: Path, server: LoopbackServer
) -> None:
    server.queue(said("noted apples"), said("forgotten"))
    env = anthropic_env(server)
    session, first_reply, _ = await _two_turns(tmp_path, env)
    asked = len(server.requests)
    errors: list[str] = []
    opts = options(
        tmp_path,
        "claude-sonnet-4-5",
        env=env,
        resume=session,
        resume_session_at=first_reply,
        resume_drops_turn="00000000-0000-4000-8000-000000000000",
        stderr=errors.append,
    )
    # as Claude Code: an error result, which the SDK raises with its text; exit 1
    with pytest.raises(Exception, match="Resume rejected by --resume-drops-turn:") as refused:
        await run("again", opts)
    assert "exit code: 1" in str(refused.value)
    assert [e for e in errors if e.startswith("hands: Resume rejected by --resume-drops-turn:")]
    assert len(server.requests) == asked
