"""What the framework adapters add per tool call, against hands' own per-call overhead.

The tool is a trivial async ``add(a: int, b: int) -> int``. For each framework, two
paths from the model's arguments to the framework's tool result, timed side by side:

* plain    the framework's own tool made from ``add`` (pydantic-ai ``FunctionToolset``
           through ``ToolManager.handle_call``; openai-agents ``function_tool(add)
           .on_invoke_tool``; LangChain ``StructuredTool.ainvoke`` of a tool call);
* adapter  the same ``add`` as a hands tool, through the hands adapter on the same
           framework path (``HandsToolset``; ``hands_tools(...)``'s ``FunctionTool``;
           ``HandsTool.ainvoke``), so the call also runs hands' whole pipeline.

``added`` = adapter − plain: what hands costs inside the framework. It is compared with
hands' own per-call overhead, measured in the same run: ``run_tool_use`` of the same
tool minus a bare ``json.loads`` + call. Goal: added ≤ 1.5 × hands' own.

Then a whole scripted run per framework: a model that asks for 10 ``add`` calls in one
message, then answers; plain tools vs hands' tools, median wall time per run.

Medians over interleaved repetitions; the machine may be busy with other work.

    .venv/bin/python benchmarks/adapters.py [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from hands.adapters.toolbox import Toolbox
from hands.core.context import ToolContext
from hands.core.decorator import tool
from hands.core.messages import ToolUseBlock
from hands.core.session import Session
from hands.permissions.simple import SimplePolicy
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import ToolPool
from hands.pipeline.runtime import ToolRuntime

ARGS = '{"a": 2, "b": 3}'
CALLS_PER_RUN = 10


async def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


hands_add = tool(read_only=True)(add)

Timed = Callable[[], Awaitable[Any]]


async def median_us(fns: dict[str, Timed], *, rounds: int, per_round: int) -> dict[str, float]:
    """Median µs per call of each function, rounds interleaved."""
    samples: dict[str, list[float]] = {name: [] for name in fns}
    for fn in fns.values():
        for _ in range(20):
            await fn()  # warm up
    for _ in range(rounds):
        for name, fn in fns.items():
            start = time.perf_counter()
            for _ in range(per_round):
                await fn()
            samples[name].append((time.perf_counter() - start) / per_round * 1e6)
    return {name: statistics.median(values) for name, values in samples.items()}


def toolbox(cwd: Path) -> Toolbox:
    return Toolbox(cwd=cwd, tools=[hands_add], policy=SimplePolicy(), trusted=False)


# -- hands alone ---------------------------------------------------------------------


def hands_own(cwd: Path) -> dict[str, Timed]:
    runtime = ToolRuntime(tools=ToolPool([hands_add]), policy=SimplePolicy())
    ctx = ToolContext(cwd=cwd, session=Session(), project_dir=cwd)
    block_input = json.loads(ARGS)

    async def floor() -> Any:
        return await add(**json.loads(ARGS))

    async def pipeline() -> Any:
        block = ToolUseBlock(id="toolu_1", name="add", input=json.loads(ARGS))
        return await run_tool_use(block, ctx, runtime, lambda _d: None)

    assert block_input == {"a": 2, "b": 3}
    return {"floor": floor, "hands run_tool_use": pipeline}


# -- pydantic-ai ---------------------------------------------------------------------


async def pydantic_ai_paths(cwd: Path) -> dict[str, Timed]:
    from pydantic_ai import RunContext
    from pydantic_ai.messages import ToolCallPart
    from pydantic_ai.models.test import TestModel
    from pydantic_ai.tool_manager import ToolManager
    from pydantic_ai.toolsets import FunctionToolset
    from pydantic_ai.usage import RunUsage

    from hands.adapters.pydantic_ai import HandsToolset

    run_ctx = RunContext(deps=None, model=TestModel(), usage=RunUsage())
    plain = await ToolManager(toolset=FunctionToolset([add])).for_run_step(run_ctx)
    wrapped = await ToolManager(toolset=HandsToolset(toolbox(cwd))).for_run_step(run_ctx)

    async def via(manager: Any) -> Any:
        return await manager.handle_call(
            ToolCallPart(tool_name="add", args=ARGS, tool_call_id="call_1")
        )

    assert await via(plain) == 5 and str(await via(wrapped)) == "5"
    return {"plain": lambda: via(plain), "adapter": lambda: via(wrapped)}


async def pydantic_ai_runs(cwd: Path) -> dict[str, Timed]:
    from pydantic_ai import Agent
    from pydantic_ai.messages import (
        ModelMessage,
        ModelRequest,
        ModelResponse,
        TextPart,
        ToolCallPart,
    )
    from pydantic_ai.models.function import AgentInfo, FunctionModel
    from pydantic_ai.toolsets import FunctionToolset

    from hands.adapters.pydantic_ai import HandsToolset

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) > 1 and isinstance(messages[-1], ModelRequest):
            return ModelResponse(parts=[TextPart("done")])
        calls = [ToolCallPart("add", ARGS, tool_call_id=f"c{i}") for i in range(CALLS_PER_RUN)]
        return ModelResponse(parts=list(calls))

    plain = Agent(FunctionModel(model), toolsets=[FunctionToolset([add])])
    wrapped = Agent(FunctionModel(model), toolsets=[HandsToolset(toolbox(cwd))])
    return {"plain": lambda: plain.run("go"), "adapter": lambda: wrapped.run("go")}


# -- openai-agents -------------------------------------------------------------------


def openai_agents_paths(cwd: Path) -> dict[str, Timed]:
    from agents import function_tool
    from agents.tool_context import ToolContext as AgentsToolContext

    from hands.adapters.openai_agents import hands_tools

    plain = function_tool(add)
    (wrapped,) = hands_tools(toolbox(cwd))

    def via(fn_tool: Any) -> Awaitable[Any]:
        ctx = AgentsToolContext(
            context=None, tool_name="add", tool_call_id="call_1", tool_arguments=ARGS
        )
        return fn_tool.on_invoke_tool(ctx, ARGS)

    return {"plain": lambda: via(plain), "adapter": lambda: via(wrapped)}


def openai_agents_runs(cwd: Path) -> dict[str, Timed]:
    from agents import Agent, Runner, function_tool, set_tracing_disabled
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import (
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )

    from hands.adapters.openai_agents import hands_tools

    set_tracing_disabled(True)

    class Scripted(Model):
        async def get_response(
            self, system_instructions: Any, input: Any, *a: Any, **k: Any
        ) -> Any:
            answered = isinstance(input, list) and any(
                isinstance(i, dict) and i.get("type") == "function_call_output" for i in input
            )
            if answered:
                text = ResponseOutputText(type="output_text", text="done", annotations=[])
                out: list[Any] = [
                    ResponseOutputMessage(
                        id="m", type="message", role="assistant", status="completed", content=[text]
                    )
                ]
            else:
                out = [
                    ResponseFunctionToolCall(
                        id=f"f{i}",
                        call_id=f"c{i}",
                        name="add",
                        arguments=ARGS,
                        type="function_call",
                        status="completed",
                    )
                    for i in range(CALLS_PER_RUN)
                ]
            return ModelResponse(output=out, usage=Usage(), response_id=None)

        def stream_response(self, *a: Any, **k: Any) -> Any:
            raise NotImplementedError

    plain = Agent(name="plain", model=Scripted(), tools=[function_tool(add)])
    wrapped = Agent(name="hands", model=Scripted(), tools=list(hands_tools(toolbox(cwd))))
    return {"plain": lambda: Runner.run(plain, "go"), "adapter": lambda: Runner.run(wrapped, "go")}


# -- LangChain -----------------------------------------------------------------------


def langchain_paths(cwd: Path) -> dict[str, Timed]:
    from langchain_core.tools import StructuredTool

    from hands.adapters.langchain import hands_tools

    plain = StructuredTool.from_function(coroutine=add)
    (wrapped,) = hands_tools(toolbox(cwd))

    def via(lc_tool: Any) -> Awaitable[Any]:
        call = {"name": "add", "args": json.loads(ARGS), "id": "call_1", "type": "tool_call"}
        return lc_tool.ainvoke(call)

    return {"plain": lambda: via(plain), "adapter": lambda: via(wrapped)}


def langchain_runs(cwd: Path) -> dict[str, Timed]:
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, HumanMessage
    from langchain_core.tools import StructuredTool

    from hands.adapters.langchain import hands_tools

    class Fake(GenericFakeChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:  # type: ignore[override]
            return self

    def script() -> Any:
        while True:
            calls = [
                {"name": "add", "args": json.loads(ARGS), "id": f"c{i}", "type": "tool_call"}
                for i in range(CALLS_PER_RUN)
            ]
            yield AIMessage(content="", tool_calls=calls)
            yield AIMessage(content="done")

    plain = create_agent(
        Fake(messages=script()), tools=[StructuredTool.from_function(coroutine=add)]
    )
    wrapped = create_agent(Fake(messages=script()), tools=hands_tools(toolbox(cwd)))
    start: Any = {"messages": [HumanMessage("go")]}
    return {"plain": lambda: plain.ainvoke(start), "adapter": lambda: wrapped.ainvoke(start)}


# -- report --------------------------------------------------------------------------


async def main(quick: bool) -> None:
    rounds, per_round = (7, 200) if quick else (15, 1000)
    run_rounds = 7 if quick else 21
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        own = await median_us(hands_own(cwd), rounds=rounds, per_round=per_round)
        hands_cost = own["hands run_tool_use"] - own["floor"]
        print(
            f"hands alone: floor {own['floor']:.1f} µs, run_tool_use "
            f"{own['hands run_tool_use']:.1f} µs → hands' own overhead {hands_cost:.1f} µs/call"
        )
        print()
        print(
            f"{'framework':<15}{'plain µs':>10}{'adapter µs':>12}{'added µs':>10}"
            f"{'added / hands':>15}{'goal ≤1.5':>11}"
        )
        frameworks: list[tuple[str, Any, Any]] = [
            ("pydantic-ai", pydantic_ai_paths, pydantic_ai_runs),
            ("openai-agents", openai_agents_paths, openai_agents_runs),
            ("langchain", langchain_paths, langchain_runs),
        ]
        runs: dict[str, dict[str, float]] = {}
        for name, paths, whole in frameworks:
            made = paths(cwd)
            fns = await made if asyncio.iscoroutine(made) else made
            per_call = await median_us(fns, rounds=rounds, per_round=per_round)
            added = per_call["adapter"] - per_call["plain"]
            ratio = added / hands_cost if hands_cost > 0 else float("inf")
            print(
                f"{name:<15}{per_call['plain']:>10.1f}{per_call['adapter']:>12.1f}"
                f"{added:>10.1f}{ratio:>15.2f}{'yes' if ratio <= 1.5 else 'NO':>11}"
            )
            made_runs = whole(cwd)
            run_fns = await made_runs if asyncio.iscoroutine(made_runs) else made_runs
            runs[name] = {
                k: v / 1000
                for k, v in (await median_us(run_fns, rounds=run_rounds, per_round=1)).items()
            }
        print()
        print(f"whole scripted run ({CALLS_PER_RUN} add calls in one message, then an answer):")
        print(f"{'framework':<15}{'plain ms':>10}{'hands ms':>10}{'ratio':>8}")
        for name, r in runs.items():
            print(
                f"{name:<15}{r['plain']:>10.2f}{r['adapter']:>10.2f}"
                f"{r['adapter'] / r['plain']:>8.2f}"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    asyncio.run(main(parser.parse_args().quick))
