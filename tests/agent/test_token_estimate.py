"""A tool result's token estimate counts its JSON exactly, without building the JSON."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hands.agent.compaction.tokens import CHARS_PER_TOKEN, estimate_message
from hands.core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock


def json_estimate(message: Message) -> int:
    """What the estimate is defined as for these blocks: their JSON, in characters / 4."""
    chars = sum(
        len(b.text) if isinstance(b, TextBlock) else len(json.dumps(b.to_wire()))
        for b in message.content
    )
    return chars // CHARS_PER_TOKEN + 4


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    results=st.lists(
        st.tuples(st.text(max_size=20), st.text(max_size=120), st.booleans()),
        min_size=1,
        max_size=6,
    )
)
def test_a_text_result_counts_as_its_json(results: list[tuple[str, str, bool]]) -> None:
    message = Message(
        role="user",
        content=tuple(ToolResultBlock(tool_use_id=i, content=c, is_error=e) for i, c, e in results),
    )
    assert estimate_message(message) == json_estimate(message)


def test_escapes_and_non_ascii_text_count_as_json_writes_them() -> None:
    message = Message(
        role="user",
        content=(
            ToolResultBlock(tool_use_id='toolu_"1"', content='a\n\t"b"\\ é ü 漢字 \x00 \U0001f600'),
            ToolResultBlock(tool_use_id="toolu_2", content="", is_error=True),
            TextBlock(text="and a note"),
        ),
    )
    assert estimate_message(message) == json_estimate(message)


def test_other_blocks_still_count_as_their_json() -> None:
    use = ToolUseBlock(id="toolu_1", name="Read", input={"file_path": "/tmp/ä.txt"})
    message = Message(role="assistant", content=(TextBlock(text="reading"), use))
    assert estimate_message(message) == json_estimate(message)
