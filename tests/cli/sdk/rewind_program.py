#!/usr/bin/env python3
"""An Agent SDK program that rewinds files, run in the behavioural oracle's sandbox.

Started in place of the oracle's agent, with ``--target PATH`` naming the CLI (Claude
Code or hands). With ``enable_file_checkpointing`` and replayed prompts, it sends the
oracle's prompt (the oracle's script writes files), then ``rewind_files`` to that
prompt's uuid and to an unknown one. With ``REWIND_ACROSS_FORK`` set, the rewinds are
asked of a second client that forks the session (``resume`` + ``fork_session``). It
prints one ``rewind`` line with what each answer was and the project's files before and
after, then the run's result line.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import anyio
from claude_agent_sdk import (
    ClaudeAgentOptions,
    ClaudeSDKClient,
    PermissionResultAllow,
    ResultMessage,
    UserMessage,
)

FILES = ("new.txt", "README.md")


def _files() -> dict[str, str | None]:
    return {name: Path(name).read_text() if Path(name).exists() else None for name in FILES}


async def _answer(client: ClaudeSDKClient, message_id: str) -> str:
    try:
        await client.rewind_files(message_id)
    except Exception:
        return "refused"
    return "done"


async def run(target: str, text: str) -> None:
    async def allow(name: str, input: dict[str, Any], context: Any) -> PermissionResultAllow:
        return PermissionResultAllow(updated_input=input)

    options = ClaudeAgentOptions(
        cli_path=target,
        cwd=os.getcwd(),
        model="claude-sonnet-4-5",
        can_use_tool=allow,
        enable_file_checkpointing=True,
        extra_args={"replay-user-messages": None},
        env={"HOME": os.environ.get("HOME", "/tmp")},
    )
    final: dict[str, Any] = {}
    prompts: list[str] = []
    fork = bool(os.environ.get("REWIND_ACROSS_FORK"))
    known = unknown = "not asked"
    before: dict[str, str | None] = {}
    async with ClaudeSDKClient(options) as client:
        await client.query(text)
        async for message in client.receive_response():
            if isinstance(message, UserMessage) and isinstance(message.content, str):
                prompts.append(str(message.uuid))
            if isinstance(message, ResultMessage):
                final = {"type": "result", "subtype": message.subtype,
                         "is_error": message.is_error, "num_turns": message.num_turns,
                         "result": message.result, "session_id": message.session_id}  # fmt: skip
        before = _files()
        if not fork:
            known = await _answer(client, prompts[0]) if prompts else "no prompt uuid"
            unknown = await _answer(client, "00000000-0000-4000-8000-000000000000")
    if fork:
        forked = dataclasses.replace(options, resume=final.get("session_id"), fork_session=True)
        async with ClaudeSDKClient(forked) as client:
            known = await _answer(client, prompts[0]) if prompts else "no prompt uuid"
            unknown = await _answer(client, "00000000-0000-4000-8000-000000000000")
    after = _files()
    line = {"type": "rewind", "prompts": len(prompts), "known": known, "unknown": unknown,
            "before": before, "after": after}  # fmt: skip
    print(json.dumps(line), flush=True)
    print(json.dumps(final or {"type": "result", "is_error": True, "result": "no result"}))


def main() -> None:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--target", required=True)
    parser.add_argument("-p", "--print", dest="prompt", default="go")
    args, _ = parser.parse_known_args()
    anyio.run(run, args.target, args.prompt)


if __name__ == "__main__":
    main()
