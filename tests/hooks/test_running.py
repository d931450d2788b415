"""How handlers run: broken hooks, timeouts, parallelism, de-duplication, HTTP, callbacks."""

# ruff: noqa: E501  (hook scripts are kept as they would be written)

from __future__ import annotations

import json
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import anyio
import pytest

from hands.core.context import ToolContext
from hands.core.session import Session
from hands.hooks.callbacks import HookCallbacks
from hands.hooks.config import parse_hooks
from hands.hooks.engine import HookEngine
from hands.orchestration.events import ToolResultEvent
from hands.tools.bash.bash import BashTool
from hooks.kit import (
    cmd,
    engine_for,
    group,
    pid_alive,
    rules_policy,
    script,
    session,
    text,
    tool_use,
)
from http_kit import QuietHandler, serving

pytestmark = pytest.mark.anyio


def results(run: Any) -> list[Any]:
    return [e.outcome for e in run.events if isinstance(e, ToolResultEvent)]


async def test_exit_1_and_a_missing_script_are_non_blocking_notices(project: Path) -> None:
    broken = script(
        project / ".claude/hooks",
        "broken.sh",
        "#!/usr/bin/env bash\necho 'jq: command not found' >&2\necho more >&2\nexit 1\n",
    )
    hooks = engine_for(
        {
            "PreToolUse": [
                group("Bash", cmd(broken), cmd('"$CLAUDE_PROJECT_DIR"/.claude/hooks/missing.sh'))
            ]
        }
    )
    run = await session([[tool_use("Bash", {"command": "echo ran"})], [text("ok")]], hooks, project)
    assert results(run)[0].status == "ok" and "ran" in results(run)[0].block.text
    notices = "\n".join(hooks.notices)
    assert "exit 1): jq: command not found" in notices and "more" not in notices
    assert "exit 127)" in notices and "missing.sh" in notices
    assert "jq" not in run.wire_user_text()  # notices are for the user, not the model


async def test_a_timed_out_hook_is_killed_with_its_process_group(project: Path) -> None:
    pids = project / "pids"
    slow = script(
        project / ".claude/hooks",
        "slow.sh",
        "#!/usr/bin/env bash\n"
        "sleep 300 &\n"
        f"echo $! >> {pids}\n"
        f"echo $$ >> {pids}\n"
        'echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse",'
        '"permissionDecision":"deny"}}\'\n'
        "wait\n",
    )
    hooks = engine_for({"PreToolUse": [group("Bash", cmd(slow, timeout=1))]})
    run = await session(
        [[tool_use("Bash", {"command": "echo still ran"})], [text("ok")]], hooks, project
    )
    # no decision from a timed-out hook: its deny (already printed) does not count
    assert results(run)[0].status == "ok"
    assert any("timed out after 1 s and was killed" in n for n in hooks.notices)
    recorded = [int(p) for p in pids.read_text().split()]
    assert len(recorded) == 2
    with anyio.fail_after(5):
        while any(pid_alive(p) for p in recorded):
            await anyio.sleep(0.05)


async def test_cancelling_the_call_kills_the_hook(project: Path) -> None:
    pid_file = project / "pid"
    hang = script(
        project / ".claude/hooks",
        "hang.sh",
        f"#!/usr/bin/env bash\necho $$ > {pid_file}\nsleep 300\n",
    )
    hooks = engine_for({"PreToolUse": [group("Bash", cmd(hang))]})
    ctx = ToolContext(cwd=project, session=Session(), project_dir=project, tool_use_id="t1")
    with anyio.move_on_after(1.5):
        await hooks.pre_tool_use(tool=BashTool(), tool_input={"command": "ls"}, ctx=ctx)
    pid = int(pid_file.read_text())
    with anyio.fail_after(5):
        while pid_alive(pid):
            await anyio.sleep(0.05)


async def test_what_a_finished_hook_left_running_is_killed(project: Path) -> None:
    # a background job in the hook's group and a daemon that left it with setsid
    pids = project / "pids"
    spawner = script(
        project / ".claude/hooks",
        "spawner.sh",
        "#!/usr/bin/env bash\ncat >/dev/null\n"
        f"sleep 300 </dev/null >/dev/null 2>&1 & echo $! >> {pids}\n"
        f"setsid bash -c 'echo $$ >> {pids}; exec sleep 301' </dev/null >/dev/null 2>&1 &\n"
        f"while [ $(wc -l < {pids}) -lt 2 ]; do sleep 0.01; done\n"
        "echo '{}'\n",
    )
    hooks = engine_for({"PostToolUse": [group("Bash", cmd(spawner))]})
    run = await session([[tool_use("Bash", {"command": "echo ran"})], [text("ok")]], hooks, project)
    assert results(run)[0].status == "ok"
    recorded = [int(p) for p in pids.read_text().split()]
    assert len(recorded) == 2
    with anyio.fail_after(5):
        while any(pid_alive(p) for p in recorded):
            await anyio.sleep(0.05)


def barrier_hook(directory: Path, name: str, marks: Path, count: int) -> Path:
    # Each hook marks its start, then waits until every hook has started: this only
    # finishes when they all run at the same time.
    return script(
        directory,
        name,
        "#!/usr/bin/env bash\ncat >/dev/null\n"
        f"touch {marks}/{name}\n"
        f"for i in $(seq 100); do [ $(ls {marks} | wc -l) -ge {count} ] && break; sleep 0.05; done\n"
        f"[ $(ls {marks} | wc -l) -ge {count} ] || {{ echo 'ran alone' >&2; exit 1; }}\n"
        f'echo \'{{"hookSpecificOutput":{{"hookEventName":"PostToolUse",'
        f'"additionalContext":"{name} saw all"}}}}\'\n',
    )


async def test_matching_hooks_run_in_parallel_and_duplicates_run_once(project: Path) -> None:
    marks = project / "marks"
    marks.mkdir()
    d = project / ".claude/hooks"
    a, b, c = (barrier_hook(d, f"h{i}.sh", marks, 3) for i in range(3))
    # the same handler in two files runs once
    config = parse_hooks(
        [
            ("local", {"PostToolUse": [group("Bash", cmd(a), cmd(b))]}),
            ("project", {"PostToolUse": [group("*", cmd(c), cmd(a))]}),
        ]
    )
    hooks = HookEngine(config, on_notice=lambda _t: None)
    run = await session([[tool_use("Bash", {"command": "echo x"})], [text("ok")]], hooks, project)
    user_text = run.user_messages[-1].text
    assert all(f"h{i}.sh saw all" in user_text for i in range(3)), (user_text, hooks.notices)
    assert user_text.count("h0.sh saw all") == 1
    assert sorted(p.name for p in marks.iterdir()) == ["h0.sh", "h1.sh", "h2.sh"]


class _Hook(QuietHandler):
    answers: ClassVar[list[tuple[int, str]]] = []
    bodies: ClassVar[list[dict[str, Any]]] = []
    headers_seen: ClassVar[list[dict[str, str]]] = []

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length", "0"))
        type(self).bodies.append(json.loads(self.rfile.read(length)))
        type(self).headers_seen.append(dict(self.headers))
        status, body = type(self).answers.pop(0)
        self.reply(status, body.encode(), "application/json")


@pytest.fixture
def http_hook(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    _Hook.answers, _Hook.bodies, _Hook.headers_seen = [], [], []
    with serving(ThreadingHTTPServer(("127.0.0.1", 0), _Hook)) as server:
        yield f"http://127.0.0.1:{server.server_address[1]}/hook"


async def test_http_hook_denies_and_errors_are_non_blocking(
    project: Path, http_hook: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOOK_TOKEN", "s3cret")
    monkeypatch.setenv("OTHER_SECRET", "nope")
    deny = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "the policy server refuses rm",
        }
    }
    _Hook.answers = [(200, json.dumps(deny)), (500, "boom"), (200, "{}")]
    handler = {
        "type": "http",
        "url": http_hook,
        "headers": {"Authorization": "Bearer $HOOK_TOKEN", "X-Other": "${OTHER_SECRET}"},
        "allowedEnvVars": ["HOOK_TOKEN"],
        "timeout": 5,
    }
    hooks = engine_for({"PreToolUse": [group("Bash", handler)]})
    run = await session(
        [
            [tool_use("Bash", {"command": "rm -rf build"})],
            [tool_use("Bash", {"command": "echo after 500"})],
            [tool_use("Bash", {"command": "echo after ok"})],
            [text("ok")],
        ],
        hooks,
        project,
        policy=rules_policy(project, allow=["Bash"]),
    )
    first, second, third = results(run)
    assert first.status == "rejected" and "the policy server refuses rm" in first.block.text
    assert second.status == "ok" and third.status == "ok"
    assert any("answered HTTP 500" in n for n in hooks.notices)
    body = _Hook.bodies[0]
    assert body["hook_event_name"] == "PreToolUse" and body["tool_input"] == {
        "command": "rm -rf build"
    }
    assert _Hook.headers_seen[0]["Authorization"] == "Bearer s3cret"
    assert _Hook.headers_seen[0]["X-Other"] == ""


async def test_http_hook_refused_connection_is_non_blocking(project: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nobody listens there
    hooks = engine_for(
        {"PreToolUse": [group("Bash", {"type": "http", "url": f"http://127.0.0.1:{port}/"})]}
    )
    run = await session([[tool_use("Bash", {"command": "echo x"})], [text("ok")]], hooks, project)
    assert results(run)[0].status == "ok"
    assert any("could not be reached" in n for n in hooks.notices)


async def test_python_callbacks_take_the_same_decisions(project: Path) -> None:
    callbacks = HookCallbacks()
    seen: list[dict[str, Any]] = []

    @callbacks.on("PreToolUse", matcher="Bash", if_="Bash(rm *)")
    async def no_rm(data: dict[str, Any]) -> dict[str, Any]:
        seen.append(data)
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "rm is not allowed here; use trash",
            }
        }

    def sdk_style(input_data: dict[str, Any], tool_use_id: str | None, context: Any) -> None:
        seen.append({"sdk": tool_use_id})

    callbacks.add("PostToolUse", sdk_style, matcher="Bash")
    callbacks.add("PostToolUse", lambda d: {"hookSpecificOutput": {"additionalContext": "py ctx"}})
    hooks = HookEngine(parse_hooks([]), callbacks=callbacks)
    run = await session(
        [
            [tool_use("Bash", {"command": "rm -rf x"}, "toolu_rm")],
            [tool_use("Bash", {"command": "echo hi"}, "toolu_echo")],
            [text("ok")],
        ],
        hooks,
        project,
        policy=rules_policy(project, allow=["Bash"]),
    )
    denied, ran = results(run)
    assert denied.status == "rejected" and "use trash" in denied.block.text
    assert ran.status == "ok" and "py ctx" in run.user_messages[-1].text
    assert seen[0]["tool_input"] == {"command": "rm -rf x"} and seen[1] == {"sdk": "toolu_echo"}


async def test_a_callback_that_times_out_blocks_pre_tool_use(project: Path) -> None:
    callbacks = HookCallbacks()

    @callbacks.on("PreToolUse", timeout=0.2)
    async def slow(data: dict[str, Any]) -> None:
        await anyio.sleep(10)

    run = await session(
        [[tool_use("Bash", {"command": "echo x"})], [text("ok")]],
        HookEngine(parse_hooks([]), callbacks=callbacks),
        project,
    )
    assert results(run)[0].status == "rejected"
    assert "timed out" in results(run)[0].block.text
