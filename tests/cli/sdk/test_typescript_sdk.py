"""The TypeScript Agent SDK (npm) driving hands: ``query()`` one-shot and ``canUseTool``."""

from __future__ import annotations

from pathlib import Path

from cli.sdk.kit import (
    HANDS,
    anthropic_env,
    calls,
    project,
    result_text,
    said,
    scripted,
    text,
    tool_results,
    tool_use,
)
from cli.sdk.ts_kit import run_program, ts_sdk
from models.loopback import LoopbackServer

PROGRAM = """
import { query } from "SDK";
const [hands, model, cwd, home, prompt] = process.argv.slice(2);
const asked = [];
const options = {
  pathToClaudeCodeExecutable: hands, model, cwd,
  env: { ...process.env, HOME: home },
  canUseTool: async (name, input) => {
    asked.push({ name, input });
    return { behavior: "allow", updatedInput: { ...input, content: "written by the TS program" } };
  },
};
for await (const message of query({ prompt, options })) {
  console.log(JSON.stringify(message));
}
console.log(JSON.stringify({ type: "asked", asked }));
"""


def test_typescript_query_runs_a_turn(tmp_path: Path) -> None:
    root, home = project(tmp_path)
    model = scripted(tmp_path, [text("hello, TypeScript")])
    out = run_program(tmp_path, PROGRAM, HANDS, model, str(root), str(home), "hi")
    kinds = [(m["type"], m.get("subtype")) for m in out]
    assert kinds == [
        ("system", "init"),
        ("assistant", None),
        ("result", "success"),
        ("asked", None),
    ]
    assert out[2]["result"] == "hello, TypeScript" and out[2]["is_error"] is False


def test_typescript_can_use_tool_rewrites_the_input(tmp_path: Path) -> None:
    root, home = project(tmp_path)
    target = root / "a.txt"
    model = scripted(
        tmp_path, [tool_use("Write", file_path=str(target), content="from the model")], [text("ok")]
    )
    out = run_program(tmp_path, PROGRAM, HANDS, model, str(root), str(home), "write it")
    assert out[-1]["asked"] == [
        {"name": "Write", "input": {"file_path": str(target), "content": "from the model"}}
    ]
    assert target.read_text() == "written by the TS program"
    assert out[-2]["type"] == "result" and out[-2]["is_error"] is False


MCP_PROGRAM = """
import { query, createSdkMcpServer, tool } from "SDK";
import { z } from "ZOD";
const [hands, cwd, home] = process.argv.slice(2);
const seen = [];
const calc = createSdkMcpServer({ name: "calc", version: "1.0.0", tools: [
  tool("add", "Add two numbers", { a: z.number(), b: z.number() }, async ({ a, b }) => {
    seen.push([a, b]);
    return { content: [{ type: "text", text: String(a + b) }] };
  }),
] });
const options = {
  pathToClaudeCodeExecutable: hands, cwd, model: "claude-sonnet-4-5",
  systemPrompt: "You are a TypeScript helper.",
  mcpServers: { calc }, allowedTools: ["mcp__calc__add"],
  env: { ...process.env, HOME: home },
};
for await (const message of query({ prompt: "add 2 and 3", options })) {
  console.log(JSON.stringify(message));
}
console.log(JSON.stringify({ type: "seen", seen }));
"""


def test_typescript_sdk_mcp_server_and_system_prompt(
    tmp_path: Path, server: LoopbackServer
) -> None:
    server.queue(calls("mcp__calc__add", {"a": 2, "b": 3}), said("five"))
    root, home = project(tmp_path)
    zod = (ts_sdk().parents[2] / "zod").resolve()
    source = MCP_PROGRAM.replace("ZOD", (zod / "index.js").as_uri())
    out = run_program(tmp_path, source, HANDS, str(root), str(home), env=anthropic_env(server))
    assert out[-1] == {"type": "seen", "seen": [[2, 3]]}
    init = out[0]
    assert {"name": "calc", "status": "connected", "source": "sdk"} in init["mcp_servers"]
    system = server.requests[0].body["system"]
    text_ = system if isinstance(system, str) else " ".join(b["text"] for b in system)
    assert text_.startswith("You are a TypeScript helper.")
    [answer] = tool_results(server.requests[1].body)
    assert result_text(answer) == "5"
    assert out[-2]["type"] == "result" and out[-2]["result"] == "five"
