#!/usr/bin/env python3
"""An Agent SDK program that resumes a session part-way, run in the oracle's sandbox.

Started in place of the oracle's agent, with ``--target PATH`` naming the CLI (Claude
Code or hands). Two prompts in one client (the oracle's, then a second), with replayed
prompts so the second one's uuid is known; then a one-shot ``query()`` that forks the
session with ``resume_session_at`` = the first reply's uuid and ``resume_drops_turn`` =
the second prompt's, and a third prompt. It prints one ``resume_at`` line (the uuids
seen, each result's subtype), then the last run's result line. The fake API keeps the
last request's body: the conversation the resumed session sent.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

import anyio
from claude_agent_sdk import (
    AssistantMessage,
    ClaudeAgentOptions,
    ClaudeSDKClient,
    ResultMessage,
    UserMessage,
    query,
)

SECOND = "now forget apples"
THIRD = "what did I say?"


def _options(target: str, **more: Any) -> ClaudeAgentOptions:
    return ClaudeAgentOptions(
        cli_path=target,
        cwd=os.getcwd(),
        model="claude-sonnet-4-5",
        extra_args={"replay-user-messages": None},
        env={"HOME": os.environ.get("HOME", "/tmp")},
        **more,
    )


async def run(target: str, text: str) -> None:
    replies: list[str] = []
    prompts: list[str] = []
    results: list[str] = []
    session = ""
    async with ClaudeSDKClient(_options(target)) as client:
        for prompt in (f"{text} remember apples", SECOND):
            await client.query(prompt)
            async for message in client.receive_response():
                if isinstance(message, AssistantMessage) and message.uuid:
                    replies.append(message.uuid)
                if isinstance(message, UserMessage) and isinstance(message.content, str):
                    prompts.append(str(message.uuid))
                if isinstance(message, ResultMessage):
                    results.append(message.subtype)
                    session = message.session_id
    final: dict[str, Any] = {}
    resumed = _options(
        target,
        resume=session,
        fork_session=True,
        resume_session_at=replies[0],
        resume_drops_turn=prompts[-1],
    )
    try:
        async for message in query(prompt=THIRD, options=resumed):
            if isinstance(message, ResultMessage):
                results.append(message.subtype)
                final = {"type": "result", "subtype": message.subtype,
                         "is_error": message.is_error, "num_turns": message.num_turns,
                         "result": message.result}  # fmt: skip
    except Exception as exc:  # a refused resume: the SDK raises after the error result
        results.append(f"raised: {type(exc).__name__}")
    line = {"type": "resume_at", "replies": len(replies), "prompts": len(prompts),
            "results": results}  # fmt: skip
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
