"""The TypeScript Agent SDK (npm) driving hands: ``query()`` one-shot and ``canUseTool``."""

from __future__ import annotations

from pathlib import Path

from cli.sdk.kit import HANDS, project, scripted, text, tool_use
from cli.sdk.ts_kit import run_program

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
