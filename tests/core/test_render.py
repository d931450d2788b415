"""Snapshot tests of the default render methods."""

from __future__ import annotations

from hands import tool
from support import render_text as render


@tool
def greet(name: str, times: int = 1) -> str:
    """Greet."""
    return "\n".join(f"hello {name}" for _ in range(times))




def test_render_use() -> None:
    assert render(greet.render_use(greet.parse_input({"name": "ada"}))) == "● greet(ada)\n"
    assert render(greet.render_use(greet.parse_input({"name": "ada", "times": 2}))) == (
        '● greet(name: "ada", times: 2)\n'
    )


def test_render_progress() -> None:
    assert render(greet.render_progress("half way\n")) == "  ⎿ half way\n"


def test_render_result_caps_lines() -> None:
    assert render(greet.render_result("hello ada")) == "  ⎿ hello ada\n"
    long = "\n".join(f"line {i}" for i in range(20))
    text = render(greet.render_result(long))
    assert text.splitlines()[0] == "  ⎿ line 0"
    assert text.splitlines()[11] == "    line 11"
    assert text.splitlines()[12] == "    … +8 lines"


def test_render_rejected_and_error() -> None:
    parsed = greet.parse_input({"name": "ada"})
    assert render(greet.render_rejected(parsed, "denied by rule greet")) == (
        "  ⎿ greet rejected: denied by rule greet\n"
    )
    assert render(greet.render_error("Exit code 2\nboom")) == "  ⎿ Exit code 2\n    boom\n"


def test_render_group() -> None:
    inputs = [greet.parse_input({"name": n}) for n in ("ada", "bob")]
    assert render(greet.render_group(inputs)) == ("● greet ×2 (in parallel)\n  ├ ada\n  ├ bob\n")
