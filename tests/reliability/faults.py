"""Randomized whole sessions with faults injected, and the invariants checked after each.

A run is drawn from a seed: a small project, a few turns of ordinary calls (Read, Grep,
Edit, Write, Bash) and one to three faults from :data:`KINDS`, placed at random. It runs
in this process through :func:`hands.query` (the model's stream goes through the real
Anthropic stream assembler, so cuts and broken tool input are the wire's), or as a
``hands -p`` process with a scripted model.
"""

from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

from hands import QueryOptions, query, tool
from hands.agent.events import BlockEvent, MessageEvent, QueryEvent, ResultEvent
from hands.agent.transcript import TranscriptWriter
from hands.core.limits import Limits
from hands.core.messages import Message
from hands.errors import StreamInterruptedError
from hands.hooks.config import parse_hooks
from hands.hooks.engine import HookEngine
from hands.mcp.config import McpSettings, parse_server
from hands.mcp.manager import McpManager
from hands.mcp.source import McpToolSource
from hands.models.anthropic import StreamAssembler
from hands.models.base import ModelRequest, StreamEvent
from hands.models.facts import facts_for
from hands.pipeline.pool import assemble_pool

from .kit import (
    event_violations,
    leftovers,
    reap_orphans,
    result_order_violations,
    temp_file_violations,
    transcript_violations,
)

FAULT_MCP = Path(__file__).parents[1] / "mcp" / "servers" / "fault_mcp.py"
SESSION_BOUND_S = 120.0
"""No run may take longer than this (a hung session is a violation, not a slow test),
times :func:`~.workers.load_factor` when runs share the cores: a run that ends takes
at most ~20 s alone, one that hangs never ends."""
TOOL_TIMEOUT_S = 1.5


# -- fault tools ------------------------------------------------------------------------------


@tool(read_only=True)
def boom(reason: str) -> str:
    """Fail with an exception."""
    raise RuntimeError(f"boom: {reason}")


@tool(read_only=True)
async def stall(seconds: float) -> str:
    """Sleep (past the time limit)."""
    await anyio.sleep(seconds)
    return "woke"


@tool(read_only=True)
def stall_thread(seconds: float) -> str:
    """Block a worker thread (past the time limit)."""
    time.sleep(seconds)
    return "woke"


@tool(read_only=True)
async def fd_hog(hold_s: float) -> str:
    """Use up every file descriptor for a while, then give them back and fail."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    opened: list[int] = []
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (len(os.listdir("/proc/self/fd")) + 8, hard))
        try:
            while True:
                opened.append(os.open("/dev/null", os.O_RDONLY))
        except OSError:
            pass
        await anyio.sleep(hold_s)  # sibling calls run with no descriptor to spare
    finally:
        for fd in opened:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    raise OSError(24, f"Too many open files (held {len(opened)})")


FAULT_TOOLS = [boom, stall, stall_thread, fd_hog]


def bash(command: str, **extra: Any) -> dict[str, Any]:
    return {"type": "tool_use", "name": "Bash", "input": {"command": command, **extra}}


def use(name: str, **data: Any) -> dict[str, Any]:
    return {"type": "tool_use", "name": name, "input": data}


TOOL_FAULTS: dict[str, Any] = {
    "tool_raises": lambda r: use("boom", reason="bad luck"),
    "tool_hangs": lambda r: use("stall", seconds=120),
    "thread_hangs": lambda r: use("stall_thread", seconds=TOOL_TIMEOUT_S + 1.0),
    "fd_exhaustion": lambda r: use("fd_hog", hold_s=0.3),
    "bash_timeout": lambda r: bash("sleep 120", timeout=700),
    # a leading ``sleep`` makes a command past its timeout be killed, not moved to the
    # background (which the session would then wait for)
    "bash_ignores_term": lambda r: bash(
        "sleep 0; trap '' TERM; sleep 120 & sleep 120", timeout=700
    ),
    "bash_1gb": lambda r: bash("head -c 1000000000 /dev/zero | tr '\\0' x"),
    "bash_daemons": lambda r: bash(
        "setsid sleep 300 </dev/null >/dev/null 2>&1 & "
        "(nohup sleep 301 </dev/null >/dev/null 2>&1 &); "
        "python3 -c 'import os,time\nif os.fork()==0:\n os.setsid()\n time.sleep(302)'; echo forked"
    ),
    "bash_closes_stdout": lambda r: bash("exec 1>&- 2>&-; sleep 0.2; exit 0"),
    "bash_fd_exhaustion": lambda r: bash(
        "ulimit -n 64; python3 -c \"import os\nwhile True: os.open('/dev/null', 0)\""
    ),
    "mcp_crash": lambda r: use("mcp__fault__echo", text="hi"),
    "mcp_noinit": lambda r: use("mcp__fault__echo", text="hi"),
    "mcp_malformed": lambda r: use("mcp__fault__echo", text="hi"),
    "mcp_100mb": lambda r: use("mcp__fault__echo", text="hi"),
}
MCP_MODES = {
    "mcp_crash": "crash",
    "mcp_noinit": "noinit",
    "mcp_malformed": "malformed",
    "mcp_100mb": "huge",
}
HOOK_FAULTS = {
    "hook_hangs": {"command": "sleep 120", "timeout": 1},
    "hook_exit_2": {"command": "cat >/dev/null; echo 'refused by a hook' >&2; exit 2"},
    "hook_invalid_json": {"command": "cat >/dev/null; echo '{\"decision\": '"},
    "hook_spawns_children": {
        "command": "cat >/dev/null; sleep 300 & setsid sleep 301 </dev/null >/dev/null 2>&1 & "
        "echo '{}'"
    },
}
MODEL_FAULTS = [
    "cut_mid_text",
    "cut_mid_tool_input",
    "invalid_tool_json",
    "duplicate_ids",
    "discard_after_tool_use",
]
DRIVER_FAULTS = ["interrupt", "cancel_one_call"]
KINDS = [*TOOL_FAULTS, *HOOK_FAULTS, *MODEL_FAULTS, *DRIVER_FAULTS]
CLI_KINDS = [
    k
    for k in KINDS
    if k not in MODEL_FAULTS
    and k not in DRIVER_FAULTS
    and k not in ("tool_raises", "tool_hangs", "thread_hangs", "fd_exhaustion")
]


# -- a run's plan -----------------------------------------------------------------------------


@dataclass
class Plan:
    seed: int
    kinds: list[str]
    turns: list[list[dict[str, Any]]]
    hooks: dict[str, Any] = field(default_factory=lambda: dict[str, Any]())
    mcp_mode: str | None = None
    model_fault: str | None = None
    driver_fault: str | None = None
    driver_delay_s: float = 0.0


def ordinary(rng: random.Random, turn: int) -> list[dict[str, Any]]:
    """Ordinary calls for ``turn`` of a session over the project made by :func:`make_project`."""
    pool: list[dict[str, Any]] = [
        use("Read", file_path="a.txt"),
        use("Grep", pattern="line [0-9]+", path="."),
        use("Glob", pattern="**/*.txt"),
        bash("echo hello; ls"),
        use("Write", file_path=f"w{turn}.txt", content=f"written {turn}\n"),
    ]
    if turn > 0:
        pool.append(
            use("Edit", file_path="a.txt", old_string=f"line {turn}\n", new_string=f"LINE {turn}\n")
        )
    return rng.sample(pool, rng.randint(1, 3))


def draw(seed: int, *, cli: bool = False) -> Plan:
    rng = random.Random(seed)
    kinds = rng.sample(CLI_KINDS if cli else KINDS, rng.randint(1, 3))
    hooks_groups: dict[str, list[dict[str, Any]]] = {}
    n_turns = rng.randint(1, 3)
    turns: list[list[dict[str, Any]]] = [
        # the first turn reads a.txt so later Edits are allowed
        [use("Read", file_path="a.txt"), *ordinary(rng, 0)] if t == 0 else ordinary(rng, t)
        for t in range(n_turns)
    ]
    plan = Plan(seed=seed, kinds=kinds, turns=turns)
    for kind in kinds:
        if kind in TOOL_FAULTS:
            turn = turns[rng.randrange(n_turns)]
            turn.insert(rng.randint(0, len(turn)), TOOL_FAULTS[kind](rng))
            if kind in MCP_MODES:
                if plan.mcp_mode is None:
                    plan.mcp_mode = MCP_MODES[kind]
                else:  # one server per run: the second MCP fault asks the same one
                    plan.kinds[plan.kinds.index(kind)] = f"{kind}(same server)"
        elif kind in HOOK_FAULTS:
            event = rng.choice(["PreToolUse", "PostToolUse"])
            handler = {"type": "command", **HOOK_FAULTS[kind]}
            hooks_groups.setdefault(event, []).append({"matcher": "*", "hooks": [handler]})
        elif kind in MODEL_FAULTS:
            plan.model_fault = plan.model_fault or kind
        else:
            plan.driver_fault = plan.driver_fault or kind
            plan.driver_delay_s = rng.uniform(0.0, 1.5)
    if plan.mcp_mode is not None and not any(
        b.get("name") == "mcp__fault__echo" for t in turns for b in t
    ):
        turns[0].append(use("mcp__fault__echo", text="hi"))
    plan.hooks = hooks_groups
    for t, blocks in enumerate(turns):
        if rng.random() < 0.5:
            blocks.insert(0, {"type": "text", "text": f"Turn {t}: working on it now."})
    turns.append([{"type": "text", "text": "All done."}])
    return plan


def make_project(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    (root / "a.txt").write_text("".join(f"line {i}\n" for i in range(50)))
    (root / "sub").mkdir(exist_ok=True)
    (root / "sub" / "b.txt").write_text("beta\n")


# -- the model: scripted turns through the real stream assembler ------------------------------


class WireModel:
    """Serves scripted turns as raw Anthropic stream events fed to ``StreamAssembler``.

    ``fault`` breaks the first turn that has a tool_use (once: a retried request is
    served whole).
    """

    name = "wire"
    facts = facts_for("wire")

    def __init__(
        self, turns: Sequence[Sequence[Mapping[str, Any]]], fault: str | None, rng: random.Random
    ) -> None:
        self.turns = [list(t) for t in turns]
        self.fault = fault
        self.rng = rng
        self.turn = 0
        self.faulted = False

    def _raw(self, n: int, blocks: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        raw: list[dict[str, Any]] = [
            {
                "type": "message_start",
                "message": {"id": f"msg_{n}", "model": "wire", "usage": {"input_tokens": 10}},
            }
        ]
        dup = self.fault == "duplicate_ids" and not self.faulted
        for i, block in enumerate(blocks):
            if block["type"] == "text":
                raw.append(
                    {
                        "type": "content_block_start",
                        "index": i,
                        "content_block": {"type": "text", "text": ""},
                    }
                )
                for word in str(block["text"]).split(" "):
                    raw.append(
                        {
                            "type": "content_block_delta",
                            "index": i,
                            "delta": {"type": "text_delta", "text": word + " "},
                        }
                    )
            else:
                tool_id = "toolu_dup" if dup else f"toolu_{n}_{i}"
                raw.append(
                    {
                        "type": "content_block_start",
                        "index": i,
                        "content_block": {
                            "type": "tool_use",
                            "id": tool_id,
                            "name": block["name"],
                            "input": {},
                        },
                    }
                )
                text = json.dumps(block["input"])
                step = max(1, len(text) // 3)
                for k in range(0, len(text), step):
                    raw.append(
                        {
                            "type": "content_block_delta",
                            "index": i,
                            "delta": {
                                "type": "input_json_delta",
                                "partial_json": text[k : k + step],
                            },
                        }
                    )
            raw.append({"type": "content_block_stop", "index": i})
        has_tool = any(b["type"] == "tool_use" for b in blocks)
        raw.append(
            {
                "type": "message_delta",
                "delta": {"stop_reason": "tool_use" if has_tool else "end_turn"},
                "usage": {"output_tokens": 5},
            }
        )
        raw.append({"type": "message_stop"})
        return raw

    def _break(self, raw: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], bool]:
        """The events to send and whether the connection drops after them."""
        kind = self.fault

        def deltas(kind_of_delta: str) -> list[int]:
            return [
                i
                for i, e in enumerate(raw)
                if e["type"] == "content_block_delta" and e["delta"]["type"] == kind_of_delta
            ]

        if kind == "cut_mid_text" and deltas("text_delta"):
            return raw[: self.rng.choice(deltas("text_delta")) + 1], True
        if kind == "cut_mid_tool_input" and deltas("input_json_delta"):
            return raw[: self.rng.choice(deltas("input_json_delta")) + 1], True
        if kind == "invalid_tool_json" and deltas("input_json_delta"):
            at = self.rng.choice(deltas("input_json_delta"))
            raw[at] = {
                **raw[at],
                "delta": {"type": "input_json_delta", "partial_json": '{"broken": tru'},
            }
            return raw, False
        if kind == "discard_after_tool_use":
            stops = [i for i, e in enumerate(raw) if e["type"] == "content_block_stop"]
            return raw[: stops[-1] + 1], True
        return raw, False

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        blocks = self.turns[min(self.turn, len(self.turns) - 1)]
        raw = self._raw(self.turn, blocks)
        cut = False
        if self.fault and not self.faulted and any(b["type"] == "tool_use" for b in blocks):
            raw, cut = self._break(raw)
            self.faulted = True
        elif self.fault == "duplicate_ids" and not self.faulted:
            self.faulted = True
        self.turn += 1
        assembler = StreamAssembler()
        for event in raw:
            for out in assembler.feed(event):
                yield out
            await anyio.sleep(0)
        if cut:
            self.turn -= 1  # the same request comes again
            await anyio.sleep(0.05)
            raise StreamInterruptedError("the connection was reset", retryable=True)
        assembler.raise_pending()


# -- one run ----------------------------------------------------------------------------------


@dataclass
class Outcome:
    kinds: list[str]
    seconds: float
    violations: list[str]
    calls: int = 0


async def run_in_process(
    plan: Plan, root: Path, home: Path, bound_s: float = SESSION_BOUND_S
) -> Outcome:
    rng = random.Random(plan.seed * 7 + 1)
    project = root / "project"
    make_project(project)
    before = set(_descendants())
    hooks = None
    if plan.hooks:
        hooks = HookEngine(parse_hooks([("fault settings", plan.hooks)]))
    model = WireModel(plan.turns, plan.model_fault, rng)
    base = assemble_pool(extra=FAULT_TOOLS)
    started = time.perf_counter()
    events: list[QueryEvent] = []
    violations: list[str] = []
    transcript = home / "transcript.jsonl"
    writer = TranscriptWriter(transcript, session_id=f"run{plan.seed}", cwd=project)

    async def drive(q: Any) -> None:
        async for event in q:
            events.append(event)
            if isinstance(event, MessageEvent):
                writer.message(event.message)

    async def run(tools: Any) -> list[Message]:
        limits = Limits(tool_timeout_s=TOOL_TIMEOUT_S)
        q = query(
            "go",
            QueryOptions(
                model=model,
                tools=tools,
                cwd=project,
                permission_mode="bypassPermissions",
                hooks=hooks,
                limits=limits,
                stream_retry_delay_s=0,
                compaction=None,
            ),
        )
        writer.message(_prompt())
        with anyio.fail_after(bound_s):
            async with anyio.create_task_group() as tg:
                tg.start_soon(drive, q)
                if plan.driver_fault is not None:
                    await anyio.sleep(plan.driver_delay_s)
                    if plan.driver_fault == "interrupt":
                        q.interrupt()
                    else:
                        executor = q._executor  # pyright: ignore[reportPrivateUsage]
                        running = [
                            e.block.id
                            for e in events
                            if isinstance(e, BlockEvent) and e.block.type == "tool_use"
                        ]
                        if executor is not None and running:
                            try:
                                executor.cancel(rng.choice(running))
                            except KeyError:
                                pass  # the call belongs to a finished turn
        return q.messages

    try:
        if plan.mcp_mode is not None:
            config = parse_server(
                "fault",
                {"command": sys.executable, "args": [str(FAULT_MCP), plan.mcp_mode]},
                env=os.environ,
            )
            settings = McpSettings(
                startup_timeout_s=2, tool_timeout_s=3, reconnect_attempts=1, connect_wait_s=2
            )
            async with McpManager([config], settings=settings) as manager:
                messages = await run(McpToolSource(manager, base=base))
        else:
            messages = await run(base)
        violations += result_order_violations(messages)
        violations += transcript_violations(transcript, messages)
    except TimeoutError:
        violations.append(f"the session did not end within {bound_s:.0f} s")
    except Exception as exc:  # the loop must not raise: it ends with a result event
        violations.append(f"the session raised {type(exc).__name__}: {exc}")
    seconds = time.perf_counter() - started
    violations += event_violations(events)
    violations += temp_file_violations(project)
    left = leftovers(before)
    if left:
        violations.append(f"processes left: {sorted(left.values())[:4]}")
        _kill(left)
    calls = sum(1 for e in events if isinstance(e, BlockEvent) and e.block.type == "tool_use")
    return Outcome(kinds=plan.kinds, seconds=seconds, violations=violations, calls=calls)


@dataclass(frozen=True, kw_only=True)
class FaultJob:
    """One randomized run: its seed, whether it is a ``hands -p`` run, its time bound."""

    seed: int
    cli: bool
    bound_s: float = SESSION_BOUND_S


@dataclass(frozen=True, kw_only=True)
class RunRecord:
    """What a run found, sent back from a worker."""

    job: FaultJob
    kinds: list[str]
    faults: int
    seconds: float
    violations: list[str]


def is_cli_seed(seed: int, cli_every: int) -> bool:
    """One seed in ``cli_every`` is a ``hands -p`` run (the seed alone says which)."""
    return cli_every > 0 and seed % cli_every == cli_every - 1


def fault_run(job: FaultJob) -> RunRecord:
    """Draw the run of ``job.seed``, run it in a temporary directory, check it."""
    plan = draw(job.seed, cli=job.cli)
    with tempfile.TemporaryDirectory(prefix="hands-rel-") as tmp:
        root, home = Path(tmp), Path(tmp) / "home"
        home.mkdir()
        if job.cli:
            outcome = run_cli(plan, root, home, job.bound_s)
        else:
            outcome = anyio.run(run_in_process, plan, root, home, job.bound_s)
    reap_orphans()
    return RunRecord(
        job=job,
        kinds=outcome.kinds,
        faults=len(plan.kinds),
        seconds=outcome.seconds,
        violations=outcome.violations,
    )


def _prompt() -> Message:
    from hands.core.messages import user_text

    return user_text("go")


def run_cli(plan: Plan, root: Path, home: Path, bound_s: float = SESSION_BOUND_S) -> Outcome:
    """The same plan (tool and hook faults) through a ``hands -p`` process."""
    project = root / "project"
    make_project(project)
    script = root / "script.json"
    script.write_text(json.dumps({"turns": [{"blocks": t} for t in plan.turns]}))
    args = [
        sys.executable,
        "-m",
        "hands",
        "-p",
        "go",
        "--model",
        f"scripted:{script}",
        "--cwd",
        str(project),
        "--output-format",
        "stream-json",
        "--permission-mode",
        "bypassPermissions",
    ]
    if plan.hooks:
        args += ["--settings", json.dumps({"hooks": plan.hooks})]
    if plan.mcp_mode is not None:
        args += [
            "--mcp-config",
            json.dumps(
                {
                    "mcpServers": {
                        "fault": {
                            "command": sys.executable,
                            "args": [str(FAULT_MCP), plan.mcp_mode],
                        }
                    }
                }
            ),
        ]
    env = {
        **os.environ,
        "HANDS_HOME": str(home),
        "MCP_TIMEOUT": "2000",
        "MCP_TOOL_TIMEOUT": "3000",
        "HANDS_TOOL_TIMEOUT_MS": str(int(TOOL_TIMEOUT_S * 1000)),
    }
    before = set(_descendants())
    started = time.perf_counter()
    violations: list[str] = []
    out = ""
    try:
        proc = subprocess.run(
            args,
            env=env,
            capture_output=True,
            text=True,
            timeout=bound_s,
            stdin=subprocess.DEVNULL,
        )
        out = proc.stdout
        if "Traceback" in proc.stderr:
            violations.append(f"a traceback on stderr: {proc.stderr[-300:]}")
    except subprocess.TimeoutExpired:
        violations.append(f"hands -p did not end within {bound_s:.0f} s")
    seconds = time.perf_counter() - started
    messages = _stream_json_messages(out)
    if out and messages is None:
        violations.append("stream-json output does not parse")
    if messages is not None:
        violations += result_order_violations(messages)
    transcripts = list((home / "projects").glob("*/*.jsonl"))
    if len(transcripts) != 1:
        violations.append(f"{len(transcripts)} transcripts written")
    for t in transcripts:
        violations += transcript_violations(t, None)
    violations += temp_file_violations(project)
    left = leftovers(before)
    if left:
        violations.append(f"processes left: {sorted(left.values())[:4]}")
        _kill(left)
    calls = sum(len(m.tool_uses) for m in messages or [])
    return Outcome(
        kinds=[f"cli:{k}" for k in plan.kinds], seconds=seconds, violations=violations, calls=calls
    )


def _stream_json_messages(out: str) -> list[Message] | None:
    from hands.core.messages import message_from_wire

    # stream-json sends an assistant message block by block: consecutive ones are one
    messages: list[Message] = []
    try:
        for line in out.splitlines():
            entry = json.loads(line)
            if entry.get("type") not in ("user", "assistant"):
                continue
            wire = entry["message"]
            message = message_from_wire(wire)
            if message.role == "assistant" and messages and messages[-1].role == "assistant":
                messages[-1] = Message(
                    role="assistant", content=(*messages[-1].content, *message.content)
                )
            else:
                messages.append(message)
    except (ValueError, KeyError, TypeError):
        return None
    return messages


def _descendants() -> dict[int, str]:
    from .kit import descendants

    return descendants()


def _kill(left: Mapping[int, str]) -> None:
    from .kit import kill_all

    kill_all(left)


def final(events: Sequence[QueryEvent]) -> ResultEvent | None:
    last = events[-1] if events else None
    return last if isinstance(last, ResultEvent) else None
