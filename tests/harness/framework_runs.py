"""The scratch project's calls through each framework adapter's real framework, and through
``hands batch``; each gives back what it saw as a :class:`~scratch.Seen`.

The framework's own test model calls one tool per message. A call hands would ask about
pauses the run the framework's way; the user's answer is no, and the run goes on. A tool
the toolbox does not offer (a project MCP server's, which the adapters do not start) is
not called: a model only calls what it is offered.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from adapter_scenario import Step
from framework_models import CONFIG, Script, ScriptedChat, ScriptedModel, script, seen_by_model
from scratch import Seen, calls_in

from hands.adapters.toolbox import Toolbox


def _steps(project: Path, offered: Iterable[str]) -> list[list[Step]]:
    names = set(offered)
    return [
        [Step(id=f"call{i}", name=name, input=data)]
        for i, (name, data) in enumerate(calls_in(project))
        if name in names
    ]


def _texts(project: Path, seen: Mapping[str, tuple[str, bool]]) -> list[str]:
    """Each call's result text in order; empty for a call the model did not make."""
    return [seen.get(f"call{i}", ("", True))[0] for i in range(len(calls_in(project)))]


def _offered(box: Toolbox) -> list[str]:
    return [d.name for d in box.every_tool_def()]


def run_pydantic_ai(project: Path) -> Seen:
    import anyio
    from pydantic_ai import Agent, DeferredToolRequests, DeferredToolResults
    from pydantic_ai.models.function import FunctionModel

    from hands.adapters.pydantic_ai import HandsToolset

    async def go() -> Seen:
        async with HandsToolset(cwd=project) as toolset:
            offered = _offered(toolset.toolbox)
            model = Script(_steps(project, offered))
            agent = Agent(
                FunctionModel(model), toolsets=[toolset], output_type=[str, DeferredToolRequests]
            )
            asked: list[str] = []
            run = await agent.run("go")
            while isinstance(run.output, DeferredToolRequests):
                asked += [call.tool_name for call in run.output.approvals]
                answers: dict[str, Any] = {c.tool_call_id: False for c in run.output.approvals}
                run = await agent.run(
                    message_history=run.all_messages(),
                    deferred_tool_results=DeferredToolResults(approvals=answers),
                )
            assert run.output == "done"
            return Seen(texts=_texts(project, model.seen), asked=asked, tools=offered)

    return anyio.run(go)


def run_openai_agents(project: Path) -> Seen:
    import anyio
    from agents import Agent, Runner

    from hands.adapters.openai_agents import hands_tools

    async def go() -> Seen:
        box = Toolbox(cwd=project)
        try:
            offered = _offered(box)
            model = ScriptedModel(_steps(project, offered))
            agent = Agent(name="coder", model=model, tools=list(hands_tools(box)))
            asked: list[str] = []
            run = await Runner.run(agent, "go")
            while run.interruptions:
                state = run.to_state()
                for item in run.interruptions:
                    asked.append(str(item.raw_item.name))  # type: ignore[union-attr]
                    state.reject(item)
                run = await Runner.run(agent, state)
            assert run.final_output == "done"
            return Seen(texts=_texts(project, model.seen), asked=asked, tools=offered)
        finally:
            await box.aclose()

    return anyio.run(go)


def run_langgraph(project: Path) -> Seen:
    import anyio
    from langchain.agents import create_agent
    from langchain_core.messages import HumanMessage
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command

    from hands.adapters.langchain import hands_tools

    async def go() -> Seen:
        box = Toolbox(cwd=project)
        try:
            offered = _offered(box)
            chat = ScriptedChat(messages=script(_steps(project, offered)))
            agent: Any = create_agent(chat, tools=hands_tools(box), checkpointer=InMemorySaver())
            asked: list[str] = []
            state = await agent.ainvoke({"messages": [HumanMessage("go")]}, CONFIG)
            while state.get("__interrupt__"):
                asked += [pause.value["tool"] for pause in state["__interrupt__"]]
                state = await agent.ainvoke(Command(resume=False), CONFIG)
            assert state["messages"][-1].content == "done"
            seen = seen_by_model(state["messages"])
            return Seen(texts=_texts(project, seen), asked=asked, tools=offered)
        finally:
            await box.aclose()

    return anyio.run(go)


def tool_results(lines: Sequence[Mapping[str, Any]]) -> list[str]:
    """The text of each tool result in stream-json or transcript lines, in order."""
    texts: list[str] = []
    for line in lines:
        if line.get("type") != "user":
            continue
        content = line["message"]["content"]
        for part in content if isinstance(content, list) else ():
            if part.get("type") != "tool_result":
                continue
            inner = part["content"]
            texts.append(
                inner if isinstance(inner, str) else "\n".join(c.get("text", "") for c in inner)
            )
    return texts


def run_batch(project: Path, tmp_path: Path, *, trusted: bool) -> Seen:
    """One task whose workspace is a copy of ``project``, through the local pool."""
    run_dir = tmp_path / "batch-run"
    work = run_dir / "parity" / "work"
    turns: list[dict[str, Any]] = [
        {"blocks": [{"type": "tool_use", "name": n, "input": d}]} for n, d in calls_in(work)
    ]
    turns.append({"blocks": [{"type": "text", "text": "done"}]})
    model = tmp_path / "batch-script.json"
    model.write_text(json.dumps({"turns": turns}))
    tasks = tmp_path / "tasks.jsonl"
    task = {"id": "parity", "prompt": "go", "path": str(project), "model": f"scripted:{model}"}
    tasks.write_text(json.dumps(task) + "\n")
    out = tmp_path / "results.jsonl"
    argv = [sys.executable, "-m", "hands", "batch", str(tasks), "--out", str(out)]
    argv += ["--run-dir", str(run_dir), "--concurrency", "1", "--quiet"]
    done = subprocess.run(
        [*argv, *(["--trust"] if trusted else [])],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    (result,) = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    assert result["status"] == "completed", result
    transcript = Path(result["transcript"]).read_text().splitlines()
    texts = tool_results([json.loads(line) for line in transcript if line.strip()])
    return Seen(texts=texts, asked=[], tools=None, where=work)
