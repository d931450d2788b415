"""Round trip of a trivial MCP tool over stdio: through hands vs the SDK directly.

* sdk    ``ClientSession.call_tool("echo", {"text": ...})`` on a session of its own.
* hands  ``run_tool_use(ToolUseBlock("mcp__bench__echo", ...))`` with the pool from
         ``McpToolSource.current_pool()``: lookup, input check, permission decision
         (an allow policy), the MCP call through ``McpManager``, result conversion,
         ``to_content`` and the size check.

Both talk to their own copy of the same server (started with this interpreter), in
interleaved rounds; the figures are medians of the per-call time per round. Goal:
hands ≤ 1.2 x the SDK.

``--first-result`` measures instead the time to the first tool result from a cold
process, for an npx-launched server (``@modelcontextprotocol/server-everything``'s
``echo``; the npx cache warmed first):

* sdk    a bare Python script: import the SDK, spawn the server, ``initialize``,
         ``tools/list``, ``call_tool("echo")``, print the text.
* hands  ``hands -p`` with a scripted model that calls ``mcp__everything__echo`` (the
         server from ``--mcp-config``), then answers.

Both are whole process runs, interleaved, medians; the SDK's own import time
(``import mcp`` with the client modules) is reported beside them. Goal: hands ≤ 1.2 x
the bare script.

    .venv/bin/python benchmarks/mcp_calls.py [--quick] [--first-result]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# This file is named mcp.py: keep its folder off the path so `import mcp` finds the SDK.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent.resolve()]

import anyio  # noqa: E402

from hands.core.context import ToolContext  # noqa: E402
from hands.core.decision import PermissionDecision, allow  # noqa: E402
from hands.core.messages import ToolUseBlock  # noqa: E402
from hands.core.session import Session  # noqa: E402
from hands.mcp.config import McpSettings, parse_server  # noqa: E402
from hands.mcp.manager import McpManager  # noqa: E402
from hands.mcp.source import McpToolSource  # noqa: E402
from hands.pipeline.execution import run_tool_use  # noqa: E402
from hands.pipeline.runtime import ToolRuntime  # noqa: E402

SERVER = '''
from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations
mcp = MCPServer("bench")

@mcp.tool(annotations=ToolAnnotations(read_only_hint=True))
def echo(text: str) -> str:
    """Return the text."""
    return text

mcp.run()
'''


class AllowAll:
    async def decide(self, tool: Any, input: Any, ctx: Any) -> PermissionDecision:
        return allow("benchmark")

    def denies_tool(self, tool: object) -> bool:
        return False


async def main(rounds: int, calls: int) -> None:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "bench_server.py"
        script.write_text(SERVER)
        params = StdioServerParameters(command=sys.executable, args=[str(script)])
        config = parse_server("bench", {"command": sys.executable, "args": [str(script)]}, env={})
        sdk_times: list[float] = []
        hands_times: list[float] = []
        async with stdio_client(params) as (read, write), ClientSession(read, write) as sdk:
            await sdk.initialize()
            await sdk.list_tools()
            async with McpManager([config], settings=McpSettings()) as manager:
                await manager.wait_ready()
                source = McpToolSource(manager, base=[])
                session = Session(home=Path(tmp))
                runtime = ToolRuntime(tools=source.current_pool(), policy=AllowAll())
                ctx = ToolContext(cwd=Path(tmp), session=session)

                def noop(_data: Any) -> None:
                    pass

                async def via_sdk() -> None:
                    result = await sdk.call_tool("echo", {"text": "ping"})
                    assert result.content[0].text == "ping"  # type: ignore[union-attr]

                async def via_hands(i: int) -> None:
                    block = ToolUseBlock(
                        id=f"toolu_{i}", name="mcp__bench__echo", input={"text": "ping"}
                    )
                    outcome = await run_tool_use(block, ctx, runtime, noop)
                    assert outcome.block.content == "ping", outcome.block

                for _ in range(20):  # warm up both
                    await via_sdk()
                    await via_hands(0)
                for r in range(rounds):
                    order = ("sdk", "hands") if r % 2 == 0 else ("hands", "sdk")
                    for which in order:
                        start = time.perf_counter()
                        if which == "sdk":
                            for _ in range(calls):
                                await via_sdk()
                            sdk_times.append((time.perf_counter() - start) / calls)
                        else:
                            for i in range(calls):
                                await via_hands(i)
                            hands_times.append((time.perf_counter() - start) / calls)
        sdk_median = statistics.median(sdk_times) * 1e6
        hands_median = statistics.median(hands_times) * 1e6
        ratio = hands_median / sdk_median
        print(f"MCP stdio round trip, {rounds} rounds x {calls} calls (median per call)")
        print(f"  {'path':<8}{'µs/call':>10}{'ratio':>8}")
        print(f"  {'sdk':<8}{sdk_median:>10.1f}{1.0:>8.2f}")
        print(f"  {'hands':<8}{hands_median:>10.1f}{ratio:>8.2f}")
        print(f"goal hands <= 1.2 x sdk: {'met' if ratio <= 1.2 else 'MISSED'}")


EVERYTHING = "@modelcontextprotocol/server-everything@2026.8.31"

BARE_SCRIPT = """
import sys, anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

async def main():
    params = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:])
    async with stdio_client(params) as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        await s.list_tools()
        result = await s.call_tool("echo", {"message": "ping"})
        print(result.content[0].text)

anyio.run(main)
"""


def _wall(command: list[str], **kwargs: Any) -> float:
    import subprocess

    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, **kwargs)
    took = time.perf_counter() - start
    if done.returncode != 0 or "ping" not in done.stdout:
        raise SystemExit(f"{command[:3]} failed: {done.stdout[-500:]} {done.stderr[-1500:]}")
    return took


def first_result(runs: int) -> None:
    import json
    import shutil
    import subprocess

    npx = shutil.which("npx")
    if npx is None:
        raise SystemExit("npx is not installed")
    server = [npx, "-y", EVERYTHING]
    subprocess.run([npx, "-y", "--package", EVERYTHING, "node", "-e", "0"], check=True)
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        bare = where / "bare.py"
        bare.write_text(BARE_SCRIPT)
        script = where / "model.json"
        call = {"type": "tool_use", "name": "mcp__everything__echo", "input": {"message": "ping"}}
        answer = {"type": "text", "text": "done"}
        script.write_text(json.dumps({"turns": [{"blocks": [call]}, {"blocks": [answer]}]}))
        config = json.dumps(
            {"mcpServers": {"everything": {"command": server[0], "args": server[1:]}}}
        )
        env = {**__import__("os").environ, "HOME": tmp, "HANDS_HOME": str(where / "home")}
        hands_cmd = [
            sys.executable, "-m", "hands", "-p", "go", "--model", f"scripted:{script}",
            "--mcp-config", config, "--allowedTools", "mcp__everything",
            "--output-format", "stream-json",
        ]  # fmt: skip
        imports = [
            sys.executable, "-c",
            "import time; t = time.perf_counter(); import mcp, mcp.client.stdio, "
            "mcp.client.session; print('ping', time.perf_counter() - t)",
        ]  # fmt: skip
        bare_times: list[float] = []
        hands_times: list[float] = []
        import_times: list[float] = []
        _wall(hands_cmd, cwd=tmp, env=env)  # warm both once
        _wall([sys.executable, str(bare), *server], cwd=tmp, env=env)
        for r in range(runs):
            order = ("bare", "hands") if r % 2 == 0 else ("hands", "bare")
            for which in order:
                if which == "bare":
                    bare_times.append(_wall([sys.executable, str(bare), *server], cwd=tmp, env=env))
                else:
                    hands_times.append(_wall(hands_cmd, cwd=tmp, env=env))
            out = subprocess.run(imports, capture_output=True, text=True, check=True).stdout
            import_times.append(float(out.split()[1]))
    bare_median = statistics.median(bare_times)
    hands_median = statistics.median(hands_times)
    ratio = hands_median / bare_median
    print(f"Time to the first tool result, npx {EVERYTHING} echo, {runs} runs (median)")
    print(f"  {'path':<28}{'s':>8}{'ratio':>8}")
    print(f"  {'bare SDK script':<28}{bare_median:>8.2f}{1.0:>8.2f}")
    print(f"  {'hands -p':<28}{hands_median:>8.2f}{ratio:>8.2f}")
    print(f"  {'(import of the MCP SDK)':<28}{statistics.median(import_times):>8.2f}")
    print(f"goal hands <= 1.2 x the bare script: {'met' if ratio <= 1.2 else 'MISSED'}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--first-result", action="store_true")
    ns = parser.parse_args()
    if ns.first_result:
        first_result(3 if ns.quick else 7)
    else:
        anyio.run(main, 5 if ns.quick else 15, 100 if ns.quick else 200)
