"""A stdio MCP server speaking raw JSON-RPC that misbehaves as told.

Run: python fault_mcp.py MODE, MODE one of
``ok`` (answers well), ``crash`` (exits in the middle of a tools/call), ``noinit`` (never
answers initialize), ``malformed`` (answers tools/call with broken JSON-RPC), ``huge``
(answers tools/call with 100 MB of text).
"""

import json
import os
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"
TOOLS = [
    {
        "name": "echo",
        "description": "Echo the text back.",
        "inputSchema": {
            "type": "object",
            "properties": {"text": {"type": "string"}},
            "required": ["text"],
        },
    }
]


def send(obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def answer(request: dict[str, object]) -> None:
    method, rid = request.get("method"), request.get("id")
    if method == "initialize":
        if MODE == "noinit":
            time.sleep(3600)
        params = request.get("params")
        version = params.get("protocolVersion") if isinstance(params, dict) else None
        send(
            {
                "jsonrpc": "2.0",
                "id": rid,
                "result": {
                    "protocolVersion": version or "2025-06-18",
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "fault", "version": "1"},
                },
            }
        )
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": rid, "result": {"tools": TOOLS}})
    elif method == "tools/call":
        if MODE == "crash":
            sys.stdout.write('{"jsonrpc": "2.0", "id": ')
            sys.stdout.flush()
            os._exit(3)
        if MODE == "malformed":
            sys.stdout.write(f'{{"jsonrpc": "2.0", "id": {rid}, "result": {{"content": [\n')
            sys.stdout.write("not json at all\n")
            send({"jsonrpc": "1.0", "id": "nobody", "result": 5})
            send({"jsonrpc": "2.0", "id": rid, "result": "not an object"})
            return
        params = request.get("params")
        args = params.get("arguments") if isinstance(params, dict) else None
        text = str(args.get("text", "")) if isinstance(args, dict) else ""
        if MODE == "huge":
            text = "x" * 100_000_000
        send(
            {
                "jsonrpc": "2.0",
                "id": rid,
                "result": {"content": [{"type": "text", "text": text}], "isError": False},
            }
        )
    elif rid is not None and method == "ping":
        send({"jsonrpc": "2.0", "id": rid, "result": {}})
    elif rid is not None:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "no method"}})


for line in sys.stdin:
    line = line.strip()
    if line:
        answer(json.loads(line))
