"""Helpers for hook tests: hook scripts in temp dirs, scripted sessions, rules."""

from __future__ import annotations

import json
import os
import shlex
import stat
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hands.agent.events import MessageEvent, QueryEvent, ResultEvent
from hands.agent.loop import Query, QueryOptions, query
from hands.core.decision import AskHandler, PermissionPolicy
from hands.core.messages import Message
from hands.hooks.callbacks import HookCallbacks
from hands.hooks.config import parse_hooks
from hands.hooks.engine import HookEngine
from hands.testing import ScriptedModel
from hands.tools.bash.bash import BashTool
from hands.tools.file.read import ReadTool
from hands.tools.file.write import WriteTool

PYTHON = sys.executable


def script(directory: Path, name: str, body: str) -> Path:
    """Write an executable hook script and return its path."""
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def python_script(directory: Path, name: str, body: str) -> Path:
    """A Python hook script run with the test interpreter."""
    return script(directory, name, f"#!{PYTHON}\n{body}")


def answering(directory: Path, name: str, answer: Mapping[str, Any]) -> Path:
    """A command hook that reads its input and prints ``answer`` as JSON."""
    return script(
        directory,
        name,
        f"#!/usr/bin/env bash\ncat >/dev/null\necho {shlex.quote(json.dumps(answer))}\n",
    )


def specific(event: str, **fields: Any) -> dict[str, Any]:
    """A ``hookSpecificOutput`` answer for ``event``."""
    return {"hookSpecificOutput": {"hookEventName": event, **fields}}


def engine_for(
    hooks: Mapping[str, Any],
    *,
    callbacks: HookCallbacks | None = None,
    allow_defer: bool = False,
) -> HookEngine:
    notices: list[str] = []
    engine = HookEngine(
        parse_hooks([("test settings", hooks)]),
        callbacks=callbacks,
        on_notice=notices.append,
        allow_defer=allow_defer,
    )
    assert not engine.warnings, engine.warnings
    return engine


def cmd(command: str | Path, **extra: Any) -> dict[str, Any]:
    return {"type": "command", "command": str(command), **extra}


def group(matcher: str | None, *handlers: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"hooks": list(handlers)}
    if matcher is not None:
        out["matcher"] = matcher
    return out


def tool_use(name: str, data: Mapping[str, Any], tool_id: str | None = None) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_use", "name": name, "input": dict(data)}
    if tool_id:
        block["id"] = tool_id
    return block


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


@dataclass
class Run:
    events: list[QueryEvent]
    query: Query
    model: ScriptedModel
    asks: list[str] = field(default_factory=lambda: list[str]())

    @property
    def result(self) -> ResultEvent:
        last = self.events[-1]
        assert isinstance(last, ResultEvent)
        return last

    @property
    def user_messages(self) -> list[Message]:
        return [
            e.message
            for e in self.events
            if isinstance(e, MessageEvent) and e.message.role == "user"
        ]

    def wire_user_text(self) -> str:
        return json.dumps([m.to_wire() for m in self.user_messages])


async def session(
    turns: Sequence[Sequence[dict[str, Any]]],
    hooks: Any,
    cwd: Path,
    *,
    prompt: str = "go",
    policy: PermissionPolicy | None = None,
    ask: AskHandler | None = None,
    tools: Sequence[Any] | None = None,
) -> Run:
    model = ScriptedModel.from_turns(*turns)
    q = query(
        prompt,
        QueryOptions(
            model=model,
            tools=list(tools) if tools is not None else [WriteTool(), ReadTool(), BashTool()],
            cwd=cwd,
            hooks=hooks,
            policy=policy,
            ask=ask,
        ),
    )
    events = [e async for e in q]
    return Run(events=events, query=q, model=model)


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # a zombie is gone for our purposes
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def rules_policy(
    cwd: Path, *, allow: Sequence[str] = (), ask: Sequence[str] = (), deny: Sequence[str] = ()
) -> PermissionPolicy:
    """A permission engine with these rules (as if from the project's settings)."""
    from hands.permissions.engine import PermissionEngine
    from hands.permissions.rules import PermissionRule, RuleOrigin, parse_rule

    origin = RuleOrigin(scope="projectSettings", label="test settings", root=cwd)
    rules: list[PermissionRule] = []
    for behavior, texts in (("allow", allow), ("ask", ask), ("deny", deny)):
        for t in texts:
            rule = parse_rule(t, behavior, origin)  # type: ignore[arg-type]
            assert isinstance(rule, PermissionRule), rule
            rules.append(rule)
    return PermissionEngine(rules)
