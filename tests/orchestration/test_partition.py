from __future__ import annotations

from hands.core.messages import ToolUseBlock
from hands.orchestration.partition import partition
from support import Timeline, make_pool, use


def labels(batches: list) -> list[tuple[list[str], bool]]:
    return [
        ([str(b.input.get("label", b.name)) for b in batch.calls], batch.concurrent)
        for batch in batches
    ]


def test_seed_example_read_read_x_read() -> None:
    pool = make_pool(Timeline())
    calls = [use("Safe", "a"), use("Safe", "b"), use("Unsafe", "x"), use("Safe", "c")]
    assert labels(partition(calls, pool)) == [(["a", "b"], True), (["x"], False), (["c"], True)]


def test_consecutive_unsafe_calls_each_stand_alone() -> None:
    pool = make_pool(Timeline())
    calls = [use("Unsafe", "x"), use("Unsafe", "y"), use("Safe", "a"), use("Safe", "b")]
    assert labels(partition(calls, pool)) == [
        (["x"], False),
        (["y"], False),
        (["a", "b"], True),
    ]


def test_unknown_tool_and_bad_input_count_as_unsafe() -> None:
    pool = make_pool(Timeline())
    unknown = ToolUseBlock(id="u", name="Nope", input={"label": "u"})
    bad = ToolUseBlock(id="b", name="Safe", input={"label": "bad", "seconds": "soon"})
    calls = [use("Safe", "a"), unknown, use("Safe", "b"), bad, use("Safe", "c")]
    assert labels(partition(calls, pool)) == [
        (["a"], True),
        (["u"], False),
        (["b"], True),
        (["bad"], False),
        (["c"], True),
    ]


def test_empty_message_gives_no_batches() -> None:
    assert partition([], make_pool(Timeline())) == []
