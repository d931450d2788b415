"""A batch prices each session's usage by the facts of the model its transcript names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hands.batch.session import _read_stream  # pyright: ignore[reportPrivateUsage]


def _transcript(model: str, usage: dict[str, int]) -> list[str]:
    assistant = {"type": "assistant", "message": {"model": model, "content": []}}
    result = {"type": "result", "num_turns": 1, "usage": usage, "result": "done"}
    return [json.dumps(assistant), json.dumps(result)]


def test_a_session_is_priced_by_its_models_facts_and_an_unknown_one_is_not(
    tmp_path: Path,
) -> None:
    million = {"input_tokens": 1_000_000, "output_tokens": 0}
    sonnet = _read_stream(_transcript("anthropic:claude-sonnet-4-6", million), tmp_path)
    assert sonnet["cost_usd"] == pytest.approx(3.0)  # $3 per million input tokens
    gpt = _read_stream(_transcript("openai:gpt-4.1", million), tmp_path)
    assert gpt["cost_usd"] == pytest.approx(2.0)  # OpenAI's list price, as the session's own
    for unknown in ("scripted", "openai:qwen3", ""):
        assert _read_stream(_transcript(unknown, million), tmp_path)["cost_usd"] is None
