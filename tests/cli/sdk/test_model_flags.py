"""The SDK's model options through the real Python SDK: what each request to the API carries.

``effort``, ``thinking``, ``task_budget``, ``betas`` and ``fallback_model`` become the
flags Claude Code takes; hands sends them as the Anthropic API wants them (Claude Code
2.1.332 sends the same fields, read from its requests to a fake API).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from claude_agent_sdk import ClaudeSDKClient, ResultMessage

from cli.sdk.kit import (
    anthropic_env,
    calls,
    options,
    refused_line,
    result_text,
    run,
    said,
    scripted,
    text,
    tool_results,
)
from models.loopback import LoopbackServer, json_reply

pytestmark = pytest.mark.anyio


def _first_text(body: dict[str, Any]) -> str:
    content = body["messages"][0]["content"]
    return content if isinstance(content, str) else str(content[0].get("text", ""))


async def test_effort_thinking_task_budget_and_betas_reach_the_request(
    tmp_path: Path, server: LoopbackServer
) -> None:
    server.queue(said("thought about it"))
    opts = options(
        tmp_path,
        "claude-opus-4-5",
        env=anthropic_env(server),
        effort="high",
        thinking={"type": "enabled", "budget_tokens": 5000, "display": "summarized"},
        task_budget={"total": 50000},
        betas=["context-1m-2025-08-07"],
    )
    *_, result = await run("think", opts)
    assert isinstance(result, ResultMessage) and not result.is_error, result
    [sent] = server.requests
    assert sent.body["output_config"] == {
        "effort": "high",
        "task_budget": {"type": "tokens", "total": 50000},
    }
    assert sent.body["thinking"] == {
        "type": "enabled",
        "budget_tokens": 5000,
        "display": "summarized",
    }
    assert sent.body["max_tokens"] > 5000
    betas = sent.headers["anthropic-beta"].split(",")
    assert "context-1m-2025-08-07" in betas and "task-budgets-2026-03-13" in betas
    assert "effort-2025-11-24" in betas  # effort is sent with its beta, as Claude Code does


async def test_betas_reach_every_request_but_not_a_commands_environment(
    tmp_path: Path, server: LoopbackServer
) -> None:
    spawn = {"description": "d", "prompt": "SUBTASK: look", "run_in_background": False}
    server.route = lambda body: "sub" if _first_text(body).startswith("SUBTASK") else None
    server.queue_for("sub", said("looked"))
    server.queue(calls("Bash", {"command": "env"}), calls("Agent", spawn, id="toolu_2"), said("ok"))
    opts = options(
        tmp_path,
        "claude-opus-4-5",
        env=anthropic_env(server),
        betas=["fancy-feature-2026-01-01"],
        allowed_tools=["Bash"],
    )
    *_, result = await run("go", opts)
    assert isinstance(result, ResultMessage) and not result.is_error, result
    assert len(server.requests) == 4  # the Bash turn, the Agent turn, the sub-agent, the end
    for sent in server.requests:
        assert "fancy-feature-2026-01-01" in sent.headers["anthropic-beta"].split(",")
        assert "effort-2025-11-24" not in sent.headers["anthropic-beta"]  # no effort asked
    [env_output] = [
        block
        for sent in server.requests
        for block in tool_results(sent.body)
        if "PATH=" in result_text(block)
    ]
    assert "fancy-feature" not in result_text(env_output)


async def test_without_the_options_the_request_has_none_of_them(
    tmp_path: Path, server: LoopbackServer
) -> None:
    server.queue(said("plain"))
    *_, result = await run("hi", options(tmp_path, "claude-opus-4-5", env=anthropic_env(server)))
    assert isinstance(result, ResultMessage) and not result.is_error
    [sent] = server.requests
    assert "output_config" not in sent.body and "thinking" not in sent.body
    assert "task-budgets" not in sent.headers.get("anthropic-beta", "")


async def test_adaptive_and_disabled_thinking(tmp_path: Path, server: LoopbackServer) -> None:
    server.queue(said("a"), said("b"))
    env = anthropic_env(server)
    await run("one", options(tmp_path, "claude-opus-4-5", env=env, thinking={"type": "adaptive"}))
    await run(
        "two",
        options(
            tmp_path,
            "claude-opus-4-5",
            env=env,
            thinking={"type": "disabled"},
            extra_args={"max-thinking-tokens": "4000"},
        ),
    )
    adaptive, disabled = server.requests
    assert adaptive.body["thinking"] == {"type": "adaptive"}
    assert "thinking" not in disabled.body  # --thinking disabled wins over a budget


async def test_agent_effort_goes_to_the_subagents_requests_only(
    tmp_path: Path, server: LoopbackServer
) -> None:
    spawn = {
        "description": "count files",
        "prompt": "SUBTASK: count the files",
        "subagent_type": "general-purpose",
        "effort": "low",
        "run_in_background": False,
    }
    server.queue(calls("Agent", spawn), said("three files"), said("the agent found three"))
    *_, result = await run(
        "MAIN: go", options(tmp_path, "claude-opus-4-5", env=anthropic_env(server))
    )
    assert isinstance(result, ResultMessage) and not result.is_error, result
    by_agent = {_first_text(r.body).startswith("SUBTASK"): r.body for r in server.requests}
    assert len(server.requests) == 3
    assert by_agent[True]["output_config"] == {"effort": "low"}
    main = [r.body for r in server.requests if not _first_text(r.body).startswith("SUBTASK")]
    assert len(main) == 2 and all("output_config" not in body for body in main)


async def test_session_effort_is_inherited_by_a_subagent_that_names_none(
    tmp_path: Path, server: LoopbackServer
) -> None:
    spawn = {"description": "d", "prompt": "SUBTASK: look", "run_in_background": False}
    server.queue(calls("Agent", spawn), said("seen"), said("done"))
    opts = options(tmp_path, "claude-opus-4-5", env=anthropic_env(server), effort="medium")
    *_, result = await run("MAIN: go", opts)
    assert isinstance(result, ResultMessage) and not result.is_error, result
    assert [r.body["output_config"] for r in server.requests] == [{"effort": "medium"}] * 3


def _unavailable(status: int, kind: str) -> Any:
    return json_reply(
        status,
        {"type": "error", "error": {"type": kind, "message": "not now"}},
        {"retry-after": "0"},
    )


@pytest.mark.parametrize(
    ("failures", "kind"),
    [([404], "not_found_error"), ([529] * 5, "overloaded_error"), ([500] * 5, "api_error")],
)
async def test_fallback_model_serves_what_the_main_model_cannot(
    tmp_path: Path, server: LoopbackServer, failures: list[int], kind: str
) -> None:
    server.queue(*[_unavailable(s, kind) for s in failures], said("from the fallback"))
    server.queue(*[_unavailable(s, kind) for s in failures], said("fallback again"))
    errors: list[str] = []
    opts = options(
        tmp_path,
        "claude-opus-4-5",
        env=anthropic_env(server),
        fallback_model="claude-sonnet-4-5",
        stderr=errors.append,
    )
    *_, result = await run("hi", opts)
    assert isinstance(result, ResultMessage) and not result.is_error, result
    assert result.result == "from the fallback"
    assert list(result.model_usage or {}) == ["claude-sonnet-4-5"]  # priced as the fallback
    models = [r.body["model"] for r in server.requests]
    assert models == ["claude-opus-4-5"] * len(failures) + ["claude-sonnet-4-5"]
    assert [e for e in errors if "trying the fallback model" in e]
    # the next request tries the main model again
    *_, again = await run("hi", opts)
    assert isinstance(again, ResultMessage) and again.result == "fallback again"
    assert server.requests[len(failures) + 1].body["model"] == "claude-opus-4-5"


async def test_a_refused_request_does_not_fall_back(tmp_path: Path, server: LoopbackServer) -> None:
    server.queue(
        json_reply(
            400, {"type": "error", "error": {"type": "invalid_request_error", "message": "bad"}}
        )
    )
    opts = options(
        tmp_path, "claude-opus-4-5", env=anthropic_env(server), fallback_model="claude-sonnet-4-5"
    )
    *_, result = await run("hi", opts)
    assert isinstance(result, ResultMessage) and result.is_error
    assert [r.body["model"] for r in server.requests] == ["claude-opus-4-5"]


@pytest.mark.parametrize(
    ("flags", "said_"),
    [
        (["--effort", "extreme"], "--effort 'extreme': use one of low, medium, high, xhigh, max"),
        (["--thinking", "maybe"], "--thinking 'maybe': use one of adaptive, enabled, disabled"),
        (["--thinking-display", "loud"], "--thinking-display 'loud': use one of summarized"),
        (["--task-budget", "0"], "--task-budget must be at least 1"),
        (["--model", "opus", "--fallback-model", "opus"], "--fallback-model must differ"),
    ],
)
def test_bad_model_flags_are_one_line_and_exit_2(
    tmp_path: Path, flags: list[str], said_: str
) -> None:
    assert said_ in refused_line(tmp_path, flags)


async def test_set_max_thinking_tokens_changes_the_next_requests(
    tmp_path: Path, server: LoopbackServer
) -> None:
    server.queue(*[said(f"answer {i}") for i in range(5)])
    opts = options(
        tmp_path,
        "claude-opus-4-5",
        env=anthropic_env(server),
        thinking={"type": "enabled", "budget_tokens": 5000},
    )
    changes: list[dict[str, Any]] = [
        {"max_thinking_tokens": 2000},
        {"max_thinking_tokens": 0},
        {"max_thinking_tokens": None, "thinking_display": "omitted"},
        {"thinking_display": None},
    ]
    async with ClaudeSDKClient(opts) as client:
        for change in [{}, *changes]:
            if change:
                await client._query._send_control_request(  # type: ignore[union-attr]
                    {"subtype": "set_max_thinking_tokens", **change}
                )
            await client.query("next")
            async for message in client.receive_response():
                if isinstance(message, ResultMessage):
                    assert not message.is_error, message.result
        with pytest.raises(Exception, match="is not a number of tokens"):
            await client._query._send_control_request(  # type: ignore[union-attr]
                {"subtype": "set_max_thinking_tokens", "max_thinking_tokens": "lots"}
            )
    sent = [r.body.get("thinking") for r in server.requests]
    assert sent == [
        {"type": "enabled", "budget_tokens": 5000},
        {"type": "enabled", "budget_tokens": 2000},
        None,
        {"type": "enabled", "budget_tokens": 5000, "display": "omitted"},
        {"type": "enabled", "budget_tokens": 5000},
    ]


async def test_a_thinking_budget_set_mid_session_survives_set_model(
    tmp_path: Path, server: LoopbackServer
) -> None:
    server.queue(said("before"), said("after"), said("back"))
    opts = options(tmp_path, "claude-opus-4-5", env=anthropic_env(server))
    async with ClaudeSDKClient(opts) as client:
        await client._query._send_control_request(  # type: ignore[union-attr]
            {"subtype": "set_max_thinking_tokens", "max_thinking_tokens": 3000}
        )
        for model in (None, "claude-sonnet-4-5", None):
            if model is not None:
                await client.set_model(model)
            await client.query("next")
            async for message in client.receive_response():
                if isinstance(message, ResultMessage):
                    assert not message.is_error, message.result
        await client.set_model(None)
    sent = [(r.body["model"], r.body.get("thinking")) for r in server.requests]
    budget = {"type": "enabled", "budget_tokens": 3000}
    assert sent == [
        ("claude-opus-4-5", budget),
        ("claude-sonnet-4-5", budget),
        ("claude-sonnet-4-5", budget),
    ]


async def test_set_max_thinking_tokens_is_refused_for_a_model_without_a_budget(
    tmp_path: Path,
) -> None:
    model = scripted(tmp_path, [text("a")])
    async with ClaudeSDKClient(options(tmp_path, model)) as client:
        with pytest.raises(Exception, match="takes no thinking budget"):
            await client._query._send_control_request(  # type: ignore[union-attr]
                {"subtype": "set_max_thinking_tokens", "max_thinking_tokens": 1000}
            )
