"""Part 2: every built-in tool fuzzed from its own JSON Schema, plus hostile strings.

The inputs come from the schema the model is sent (:mod:`.schema_strategy`), from a
loose variant with wrong types and unknown fields, and with hostile strings put in.

Inputs go through ``run_tool_use`` in a temp project, in ``acceptEdits`` with nobody to
ask: edits inside the project run, anything else that needs a question is refused, so
a fuzzed ``Bash`` or ``Write`` cannot touch the machine. Every result must be a result
(the call never raises), an error must say something, and no result may carry a
traceback or an exception the tool did not handle.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from hands.core.context import ToolContext
from hands.core.limits import Limits
from hands.core.messages import ToolUseBlock
from hands.core.session import Session
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import ToolPool, all_base_tools
from hands.pipeline.runtime import ToolRuntime

from .kit import REPORT, base_seed, scale
from .schema_strategy import from_schema, loosely

TOOLS = {t.name: t for t in all_base_tools()}
SLOW = {n for n in TOOLS if n.startswith("Browser_")} | {"WebSearch", "WebFetch", "Agent"}
"""Tools whose every call starts a browser or goes to the network: fewer examples."""

TEN_MB = "y" * 10_000_000
HOSTILE = [
    "",
    "\x00",
    "a\x00b",
    "\ud800",
    "ok\udfffok",
    TEN_MB,
    "\u202eevil.txt",
    "\u2066x\u2069",
    "../" * 40 + "etc/passwd",
    "./../../../../../../tmp",
    "loop/loop/loop/x",
    "loop",
    "/proc/self/mem",
    "/dev/zero",
    "/dev/stdin",
    "~/../../",
    "$(id)`id`${HOME}",
    "*" * 500,
    "[",
    "(?",
    "\n" * 2000,
    "💥" * 1000,
    "C:\\..\\..\\",
    "\t \r",
]
# an unhandled exception shows up as "Error: SomeError: ..." from the pipeline's last net
UNHANDLED = re.compile(
    r"Error: (KeyError|TypeError|ValueError|AttributeError|IndexError|AssertionError|"
    r"Unicode\w*Error|RecursionError|ZeroDivisionError|NotImplementedError|RuntimeError|"
    r"OverflowError|OSError|\w*NotFoundError|IsADirectoryError|NotADirectoryError|"
    r"PermissionError|MemoryError|UnboundLocalError|NameError|StopIteration)\b"
)


def hostile_variant(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """A schema-valid input with some string fields replaced by hostile strings."""
    props: dict[str, Any] = schema.get("properties", {})
    names = sorted(props)

    def spoil(base: dict[str, Any], picks: list[tuple[str, int]]) -> dict[str, Any]:
        out = dict(base)
        for name, k in picks:
            out[name] = HOSTILE[k % len(HOSTILE)]
        return out

    if not names:
        return from_schema(schema)
    return st.builds(
        spoil,
        from_schema(schema),
        st.lists(
            st.tuples(st.sampled_from(names), st.integers(0, len(HOSTILE) - 1)),
            min_size=1,
            max_size=3,
        ),
    )


def project(root: Path) -> Path:
    work = root / "work"
    if not work.exists():
        work.mkdir()
        (work / "a.txt").write_text("alpha\nbeta\n")
        (work / "nb.ipynb").write_text(
            '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
        )
        (work / "loop").symlink_to("loop")
    return work


@pytest.mark.timeout(0)
@pytest.mark.parametrize("name", sorted(TOOLS))
def test_fuzz_tool(name: str, tmp_path: Path, hands_home: Path) -> None:
    tool = TOOLS[name]
    schema = tool.input_schema
    work = project(tmp_path)
    session = Session(home=hands_home)
    runtime = ToolRuntime(tools=ToolPool(list(TOOLS.values())), limits=Limits(tool_timeout_s=10))
    row = REPORT.row("fuzz: built-in tools")
    problems: list[str] = []
    count = [0]
    examples = max(3, scale("fuzz_examples") // (6 if name in SLOW else 1))

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck.__members__.values()),
    )
    @seed(f"{base_seed()}:{name}")  # the same examples again for the same RELIABILITY_SEED
    @given(data=st.one_of(from_schema(schema), hostile_variant(schema), loosely(schema)))
    def check(data: dict[str, Any]) -> None:
        count[0] += 1
        hostile = any(v in HOSTILE for v in data.values() if isinstance(v, str))
        block = ToolUseBlock(id=f"toolu_f{count[0]}", name=name, input=data)
        ctx = ToolContext(
            cwd=work,
            session=session,
            project_dir=work,
            permission_mode="acceptEdits",
            tool_use_id=block.id,
        )

        async def go() -> Any:
            with anyio.fail_after(60):
                return await run_tool_use(block, ctx, runtime, lambda _d: None)

        started = time.perf_counter()
        try:
            outcome = anyio.run(go)
        except BaseException as exc:  # run_tool_use must never raise
            problems.append(f"{name} raised {type(exc).__name__}: {exc!s:.200} on {_short(data)}")
            return
        finally:
            row.timings_ms.append((time.perf_counter() - started) * 1000)
            row.runs += 1
            row.faults += int(hostile)
        text = outcome.block.text
        if outcome.block.tool_use_id != block.id:
            problems.append(f"{name}: result for {outcome.block.tool_use_id}, not {block.id}")
        if "Traceback (most recent call last)" in text:
            problems.append(f"{name}: traceback in the result for {_short(data)}")
        if outcome.is_error and not text.strip():
            problems.append(f"{name}: an empty error for {_short(data)}")
        if outcome.is_error and UNHANDLED.search(text):
            problems.append(f"{name}: unhandled {text[:160]!r} for {_short(data)}")

    check()
    row.violations += problems
    assert not problems, "\n".join(sorted(set(problems))[:15])


def _short(data: dict[str, Any]) -> str:
    return repr(
        {k: (v[:40] + "…" if isinstance(v, str) and len(v) > 40 else v) for k, v in data.items()}
    )[:300]
