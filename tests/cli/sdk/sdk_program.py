#!/usr/bin/env python3
"""One Agent SDK program, run inside the behavioural oracle's sandbox against its fake API.

The oracle starts it in place of its agent (``claude_bin``) with print-mode arguments it
ignores; ``--target PATH`` names the CLI the SDK drives (Claude Code or hands) and
``--record FILE`` puts a tee between the SDK and that CLI that writes each protocol line
with its direction. It prints every SDK message as a JSON line, then one ``sdk_timing``
line, then the run's result line last (the oracle waits for a result):

* ``to_first_assistant_ms``: from ``query()`` to the first assistant message;
* ``turn_ms``: between consecutive assistant messages after the first (one per turn);
* ``protocol``: the recorded lines, when ``--record`` was given.

The program: a ``can_use_tool`` callback that allows everything, a PreToolUse hook, and
the oracle's prompt (``-p``, which carries the oracle's marker); the oracle's script
decides the turns.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import stat
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
from claude_agent_sdk import (
    AssistantMessage,
    ClaudeAgentOptions,
    HookMatcher,
    PermissionResultAllow,
    ResultMessage,
    query,
)

TEE = """#!{python}
import json, subprocess, sys, threading
log = open({log!r}, "a", buffering=1)
child = subprocess.Popen([{target!r}, *sys.argv[1:]], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE)
def down():
    for line in sys.stdin.buffer:
        log.write(json.dumps({{"to": "cli", "line": line.decode()}}) + "\\n")
        child.stdin.write(line); child.stdin.flush()
    child.stdin.close()
threading.Thread(target=down, daemon=True).start()
for line in child.stdout:
    log.write(json.dumps({{"to": "sdk", "line": line.decode()}}) + "\\n")
    sys.stdout.buffer.write(line); sys.stdout.buffer.flush()
sys.exit(child.wait())
"""


def _tee(target: str, record: Path) -> str:
    script = Path("/tmp/sdk-tee.py")
    script.write_text(TEE.format(python=sys.executable, log=str(record), target=target))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


async def run(target: str, record: Path | None, model: str, text: str) -> None:
    async def allow(name: str, input: dict[str, Any], context: Any) -> PermissionResultAllow:
        return PermissionResultAllow(updated_input=input)

    async def pre_tool(data: Any, tool_use_id: str | None, context: Any) -> Any:
        return {}

    options = ClaudeAgentOptions(
        cli_path=_tee(target, record) if record is not None else target,
        cwd=os.getcwd(),
        model=model,
        can_use_tool=allow,
        hooks={"PreToolUse": [HookMatcher(matcher="Read", hooks=[pre_tool])]},
        env={"HOME": os.environ.get("HOME", "/tmp")},
    )

    async def prompt() -> AsyncIterator[dict[str, Any]]:
        yield {"type": "user", "message": {"role": "user", "content": text}}

    started = time.perf_counter()
    stamps: list[float] = []
    final: dict[str, Any] = {}
    async for message in query(prompt=prompt(), options=options):
        if isinstance(message, AssistantMessage) and message.parent_tool_use_id is None:
            stamps.append(time.perf_counter())
        kind = type(message).__name__
        if isinstance(message, ResultMessage):
            final = {"type": "result", "subtype": message.subtype, "is_error": message.is_error,
                     "num_turns": message.num_turns, "result": message.result}  # fmt: skip
            continue
        print(json.dumps({"type": "sdk_message", "kind": kind,
                          "subtype": getattr(message, "subtype", None)}), flush=True)  # fmt: skip
    timing = {
        "type": "sdk_timing",
        "to_first_assistant_ms": (stamps[0] - started) * 1000 if stamps else None,
        "turn_ms": [(b - a) * 1000 for a, b in itertools.pairwise(stamps)],
    }
    if record is not None and record.exists():
        timing["protocol"] = [json.loads(line) for line in record.read_text().splitlines()]
    print(json.dumps(timing), flush=True)
    print(json.dumps(final or {"type": "result", "is_error": True, "result": "no result"}))


def main() -> None:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--target", required=True)
    parser.add_argument("--record")
    parser.add_argument("--sdk-model", default="claude-sonnet-4-5")
    parser.add_argument("-p", "--print", dest="prompt", default="go")
    args, _ = parser.parse_known_args()
    record = Path(args.record) if args.record else None
    anyio.run(run, args.target, record, args.sdk_model, args.prompt)


if __name__ == "__main__":
    main()
