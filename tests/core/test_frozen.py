"""Values built by ``hands.core.frozen`` are the frozen dataclass's values in every way."""

from __future__ import annotations

import dataclasses
import operator
import pickle
from dataclasses import FrozenInstanceError, dataclass
from typing import Generic, TypeVar, cast

import pytest

from hands.core.frozen import builder, twin
from hands.core.messages import ToolResultBlock, build_result_block
from hands.core.outcome import ToolCallOutcome, build_outcome
from hands.core.tool import ToolResult

T = TypeVar("T")


@dataclass(frozen=True, kw_only=True, slots=True)
class Point(Generic[T]):
    x: T
    y: int = 0


def test_a_built_value_equals_hashes_and_refuses_changes_as_one_made_the_usual_way() -> None:
    made = cast("Point[int]", builder(Point, "x", "y")(3, 4))
    usual = Point(x=3, y=4)
    assert type(made) is Point
    assert made == usual and hash(made) == hash(usual) and repr(made) == repr(usual)
    with pytest.raises(FrozenInstanceError):
        made.x = 5  # type: ignore[misc]
    assert dataclasses.replace(made, y=9) == Point(x=3, y=9)
    assert pickle.loads(pickle.dumps(made)) == usual


@pytest.mark.parametrize(
    ("built", "usual"),
    [
        (
            build_result_block("toolu_1", "ok", False, "tool_result"),
            ToolResultBlock(tool_use_id="toolu_1", content="ok"),
        ),
        (ToolResult(output=1), ToolResult(output=1, context_modifier=None, is_error=False)),
        (
            build_outcome(
                ToolResultBlock(tool_use_id="t", content="x"),
                "ok",
                None,
                None,
                1,
                None,
                (),
                True,
                2.0,
            ),
            ToolCallOutcome(
                block=ToolResultBlock(tool_use_id="t", content="x"),
                status="ok",
                output=1,
                duration_ms=2.0,
            ),
        ),
    ],
)
def test_the_hot_path_builders_make_the_same_values(built: object, usual: object) -> None:
    assert type(built) is type(usual) and built == usual


def test_a_field_list_that_differs_from_the_class_is_refused_at_once() -> None:
    with pytest.raises(TypeError, match="fields are x, y"):
        builder(Point, "y", "x")
    with pytest.raises(TypeError, match="fields are x, y"):
        builder(Point, "x")


def test_only_a_frozen_slotted_dataclass_can_be_built() -> None:
    @dataclass(frozen=True)
    class Loose:
        a: int

    @dataclass(slots=True)
    class Open:
        a: int

    with pytest.raises(TypeError, match="slots=True"):
        twin(Loose)
    with pytest.raises(TypeError, match="not a frozen dataclass"):
        twin(Open)


def test_a_twin_copy_changed_then_given_the_class_is_a_frozen_value() -> None:
    copy = twin(Point)(*operator.attrgetter("x", "y")(Point(x="a", y=1)))
    copy.y = 2
    copy.__class__ = Point
    assert copy == Point(x="a", y=2)
    with pytest.raises(FrozenInstanceError):
        copy.y = 3
