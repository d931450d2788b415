"""Small tools for the discovery tests."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from hands.core.tool import Tool, build_tool


class Args(BaseModel):
    text: str = ""


async def _echo(input: Args, ctx: Any, progress: Any) -> str:
    return f"ran {input.text}"


def make(
    name: str, description: str = "", *, defer: bool = True, hint: str = "", padding: int = 0
) -> Tool[Any, Any]:
    """A tool (deferrable unless ``defer=False``) whose description can be padded."""
    return build_tool(
        name=name,
        description=description + (" x" * padding),
        input_model=Args,
        call=_echo,
        read_only=True,
        concurrency_safe=True,
        should_defer=defer,
        search_hint=hint,
    )
