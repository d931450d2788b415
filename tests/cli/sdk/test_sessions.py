"""Sessions through the SDK: resume and fork, setting sources, streamed input, providers."""

from __future__ import annotations

import base64
import json
import os
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from claude_agent_sdk import ResultMessage, StreamEvent, SystemMessage, query

from cli.sdk.kit import HANDS, anthropic_env, options, refused_line, run, said, scripted, text
from models.loopback import LoopbackServer, sse_reply
from models.wire import o_done, o_finish, o_role, o_text, o_usage

pytestmark = pytest.mark.anyio

PIXEL = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
    )
).decode()


def _user_texts(body: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for message in body["messages"]:
        content = message["content"]
        if isinstance(content, str):
            out.append(content)
        else:
            out.extend(b.get("text", "") for b in content if b.get("type") == "text")
    return out


async def test_resume_continues_and_fork_branches(tmp_path: Path, server: LoopbackServer) -> None:
    server.queue(said("noted"), said("you said apples"), said("forked reply"))
    env = anthropic_env(server)
    *_, first = await run("remember apples", options(tmp_path, "claude-sonnet-4-5", env=env))
    assert isinstance(first, ResultMessage)
    resumed = await run(
        "what did I say?",
        options(tmp_path, "claude-sonnet-4-5", env=env, resume=first.session_id),
    )
    again = resumed[-1]
    assert isinstance(again, ResultMessage) and again.session_id == first.session_id
    assert any("remember apples" in t for t in _user_texts(server.requests[1].body))
    forked = await run(
        "and now?",
        options(tmp_path, "claude-sonnet-4-5", env=env, resume=first.session_id, fork_session=True),
    )
    branch = forked[-1]
    assert isinstance(branch, ResultMessage) and branch.session_id != first.session_id
    assert any("what did I say?" in t for t in _user_texts(server.requests[2].body))


async def test_setting_sources_choose_the_settings_files(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / ".claude").mkdir(parents=True)
    (root / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"deny": ["WebFetch"]}})
    )
    model = scripted(tmp_path, [text("a")], [text("b")])
    with_project = await run("hi", options(tmp_path, model, setting_sources=["project"]))
    without = await run("hi", options(tmp_path, model, setting_sources=["user"]))
    init_with, init_without = with_project[0], without[0]
    assert isinstance(init_with, SystemMessage) and isinstance(init_without, SystemMessage)
    assert "WebFetch" not in init_with.data["tools"]
    assert "WebFetch" in init_without.data["tools"]


async def test_streamed_prompts_carry_images(tmp_path: Path, server: LoopbackServer) -> None:
    server.queue(said("a red pixel"))

    async def prompts() -> AsyncIterator[dict[str, Any]]:
        image = {"type": "base64", "media_type": "image/png", "data": PIXEL}
        content = [{"type": "text", "text": "what is this?"}, {"type": "image", "source": image}]
        yield {"type": "user", "message": {"role": "user", "content": content}}

    opts = options(tmp_path, "claude-sonnet-4-5", env=anthropic_env(server))
    messages = [m async for m in query(prompt=prompts(), options=opts)]
    result = messages[-1]
    assert isinstance(result, ResultMessage) and result.result == "a red pixel"
    sent = server.requests[0].body["messages"][0]["content"]
    assert [b["type"] for b in sent] == ["text", "image"]
    assert sent[1]["source"]["data"] == PIXEL


async def test_partial_messages_stream_the_model_events(tmp_path: Path) -> None:
    model = scripted(tmp_path, [text("streamed words here")])
    messages = await run("hi", options(tmp_path, model, include_partial_messages=True))
    events = [m.event for m in messages if isinstance(m, StreamEvent)]
    kinds = [e["type"] for e in events]
    assert kinds[0] == "message_start" and kinds[-1] == "message_stop"
    assert "content_block_start" in kinds and "content_block_stop" in kinds
    deltas = [e["delta"]["text"] for e in events if e["type"] == "content_block_delta"]
    assert "".join(deltas) == "streamed words here"


async def test_model_and_env_select_an_openai_compatible_server(
    tmp_path: Path, server: LoopbackServer
) -> None:
    server.queue(sse_reply(o_role(), o_text("from the compatible server"), o_finish("stop"),
                           o_usage(12, 5), o_done()))  # fmt: skip
    env = {
        "OPENAI_BASE_URL": server.url + "/v1",
        "OPENAI_API_KEY": "local",
        "ANTHROPIC_API_KEY": "",
        "NO_PROXY": "127.0.0.1",
        "HTTP_PROXY": "",
        "HTTPS_PROXY": "",
    }
    messages = await run("hi", options(tmp_path, "qwen3-coder", env=env))
    init, result = messages[0], messages[-1]
    assert isinstance(init, SystemMessage) and init.data["model"] == "openai:qwen3-coder"
    assert isinstance(result, ResultMessage) and result.result == "from the compatible server"
    assert server.requests[0].path.endswith("/chat/completions")
    assert server.requests[0].body["model"] == "qwen3-coder"


def test_bad_lines_are_error_results_and_the_session_goes_on(tmp_path: Path) -> None:
    model = scripted(tmp_path, [text("still here")])
    lines = [
        "this is not json",
        json.dumps({"type": "mystery"}),
        json.dumps(
            {"type": "control_request", "request_id": "r1", "request": {"subtype": "initialize"}}
        ),
        json.dumps({"type": "user", "message": {"role": "user", "content": "hello"}}),
    ]
    root = tmp_path / "project"
    root.mkdir()
    proc = subprocess.run(
        [HANDS, "--output-format", "stream-json", "--verbose", "--input-format", "stream-json",
         "--model", model],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, "HOME": str(tmp_path)},
        timeout=60,
    )  # fmt: skip
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    errors = [o for o in out if o["type"] == "result" and o["is_error"]]
    assert [e["result"] for e in errors] == [
        "input line 1 is not valid JSON: Expecting value",
        "input line 2 has type 'mystery'; expected user, control_request or control_response",
    ]
    answer = next(o for o in out if o["type"] == "control_response")
    assert answer["response"]["request_id"] == "r1"
    assert answer["response"]["subtype"] == "success"
    assert out[-1]["type"] == "result" and out[-1]["result"] == "still here"
    assert proc.returncode == 0  # stdin closed after a good turn: a clean end


def test_unknown_flags_are_named_and_refused(tmp_path: Path) -> None:
    proc = subprocess.run(
        [HANDS, "--output-format", "stream-json", "--input-format", "stream-json",
         "--no-such-flag", "x", "--verbose"],
        input="",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "hands: unknown option(s) for the Agent SDK protocol: --no-such-flag, x"
    )
    assert proc.stdout == ""


async def test_no_session_persistence_writes_no_transcript(
    tmp_path: Path, hands_home: Path
) -> None:
    model = scripted(tmp_path, [text("kept")], [text("forgotten")])
    *_, saved = await run("one", options(tmp_path, model))
    *_, unsaved = await run(
        "two", options(tmp_path, model, extra_args={"no-session-persistence": None})
    )
    assert isinstance(saved, ResultMessage) and isinstance(unsaved, ResultMessage)
    names = {p.stem for p in (hands_home / "projects").rglob("*.jsonl")}
    assert saved.session_id in names and unsaved.session_id not in names


@pytest.mark.parametrize(
    ("flags", "said_"),
    [
        (["--mcp-config", '{"servers": {}}'], '--mcp-config {"servers": {}} has no "mcpServers"'),
        (["--max-turns", "many"], "--max-turns 'many' is not a whole number"),
        (["--sdk-url", "wss://example.invalid/s"], "--sdk-url is not supported by hands: a remote"),
        (["--managed-settings", "{not json"], "--managed-settings: not valid JSON (line 1"),
        (["--permission-prompt-tool", "mcp__x__ask"], "hands asks the SDK over stdio only"),
        (["--json-schema", '{"type": "string"}'], "--json-schema must describe an object"),
    ],
)
def test_bad_flag_values_are_one_line_and_exit_2(
    tmp_path: Path, flags: list[str], said_: str
) -> None:
    assert said_ in refused_line(tmp_path, flags)


async def test_strict_mcp_config_keeps_only_the_programs_servers(tmp_path: Path) -> None:
    model = scripted(tmp_path, [text("a")], [text("b")])
    opts = options(tmp_path, model)
    user_config = {"mcpServers": {"from-user": {"command": "true"}}}
    (Path(opts.env["HOME"]) / ".claude.json").write_text(json.dumps(user_config))
    loose = await run("hi", opts)
    strict = await run("hi", options(tmp_path, model, strict_mcp_config=True))
    names = [
        [s["name"] for s in m.data["mcp_servers"]]
        for m in (loose[0], strict[0])
        if isinstance(m, SystemMessage)
    ]
    assert names == [["from-user"], []]
