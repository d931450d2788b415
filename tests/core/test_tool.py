from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import Field

from hands import Tool, ToolContext, ToolResult, build_tool, tool
from hands.core.decision import PermissionDecision, deny
from hands.core.schema import ToolInput
from hands.core.tool import ToolOptions
from hands.errors import ToolDefinitionError


class GreetInput(ToolInput):
    name: str = Field(description="who to greet")
    loud: bool = False


class Greet(Tool[GreetInput, str]):
    name = "Greet"
    description = "Greet someone."
    input_model = GreetInput

    async def call(self, input: GreetInput, ctx: ToolContext, progress: Any) -> ToolResult[str]:
        return ToolResult(output=f"hello {input.name}")


async def _greet(input: GreetInput, ctx: ToolContext, progress: Any) -> str:
    return f"hello {input.name}"


@tool
def greet(name: str, loud: bool = False) -> str:
    """Greet someone.

    Args:
        name: who to greet
        loud: shout it
    """
    return f"hello {name}"


def test_all_three_forms_give_the_same_type_with_fail_closed_defaults() -> None:
    built = build_tool(name="Greet", input_model=GreetInput, call=_greet)
    parsed = GreetInput(name="x")
    for t in (Greet(), built, greet):
        assert isinstance(t, Tool)
        assert t.is_read_only(parsed) is False
        assert t.is_concurrency_safe(parsed) is False
        assert t.is_destructive(parsed) is False
        assert t.is_enabled() is True
        assert t.handles_own_timeout is False


def test_decorator_schema_comes_from_signature_and_docstring() -> None:
    assert greet.name == "greet"
    assert greet.description == "Greet someone."
    assert greet.input_schema == {
        "additionalProperties": False,
        "properties": {
            "name": {"description": "who to greet", "type": "string"},
            "loud": {"default": False, "description": "shout it", "type": "boolean"},
        },
        "required": ["name"],
        "type": "object",
    }


def test_schema_uses_aliases_and_inlines_nested_models() -> None:
    class Edit(ToolInput):
        old: str

    class Many(ToolInput):
        ignore_case: bool = Field(default=False, alias="-i")
        edits: list[Edit]

    t = build_tool(name="Many", input_model=Many, call=_greet)
    schema = t.input_schema
    assert "-i" in schema["properties"]
    assert schema["properties"]["edits"]["items"]["properties"] == {"old": {"type": "string"}}
    assert "$defs" not in schema and "title" not in schema
    assert t.parse_input({"-i": "true", "edits": [{"old": "a"}]}).ignore_case is True


def test_flags_may_depend_on_the_input() -> None:
    t = build_tool(
        name="Maybe",
        input_model=GreetInput,
        call=_greet,
        read_only=lambda i: not i.loud,
        concurrency_safe=lambda i: not i.loud,
    )
    assert t.is_read_only(GreetInput(name="a")) is True
    assert t.is_concurrency_safe(GreetInput(name="a", loud=True)) is False


def test_decorator_options_and_context_injection() -> None:
    @tool(name="Where", read_only=True)
    def where(ctx: ToolContext, depth: int = 1) -> str:
        """Say where."""
        return str(ctx.cwd)

    assert where.name == "Where"
    assert list(where.input_schema["properties"]) == ["depth"]
    parsed = where.parse_input({})
    assert where.is_read_only(parsed) and where.is_concurrency_safe(parsed)


@pytest.mark.anyio
async def test_decorator_and_build_tool_take_the_same_keywords(tmp_path: Path) -> None:
    async def no_empty(input: Any, ctx: ToolContext) -> str | None:
        return "say something" if not input.text else None

    async def refuse(input: Any, ctx: ToolContext) -> PermissionDecision:
        return deny("not today")

    options: ToolOptions = {
        "aliases": ("Shout",),
        "read_only": True,
        "destructive": lambda i: i.text == "rm",
        "enabled": lambda: False,
        "validate_input": no_empty,
        "check_permissions": refuse,
        "to_content": lambda out: f"<{out}>",
        "max_result_chars": 10,
        "edits_files": True,
        "should_defer": True,
        "search_hint": "loud voice",
    }

    @tool(name="Say", **options)
    def say(text: str) -> str:
        """Say it."""
        return text

    async def call(input: Any, ctx: ToolContext, progress: Any) -> str:
        return input.text

    built = build_tool(name="Say", input_model=say.input_model, call=call, **options)
    ctx = ToolContext(cwd=tmp_path)
    for t in (say, built):
        rm, empty = t.parse_input({"text": "rm"}), t.parse_input({"text": ""})
        assert t.aliases == ("Shout",)
        assert t.is_read_only(rm) and t.is_concurrency_safe(rm)  # safe follows read_only
        assert t.is_destructive(rm) and not t.is_destructive(empty)
        assert t.is_enabled() is False
        assert await t.validate_input(empty, ctx) == "say something"
        assert (await t.check_permissions(rm, ctx)).behavior == "deny"
        assert t.to_content("hi") == "<hi>"
        assert (t.max_result_chars, t.edits_files, t.should_defer, t.search_hint) == (
            10,
            True,
            True,
            "loud voice",
        )


def test_bad_definitions_are_typed_errors() -> None:
    with pytest.raises(ToolDefinitionError, match="needs a type annotation"):

        @tool
        def untyped(x) -> str:  # type: ignore[no-untyped-def]
            """No types."""
            return ""

    with pytest.raises(ToolDefinitionError, match="must be 1-64 characters"):
        build_tool(name="has space", input_model=GreetInput, call=_greet)
    with pytest.raises(ToolDefinitionError, match="pydantic BaseModel"):
        build_tool(name="x", input_model=dict, call=_greet)  # type: ignore[arg-type]


def test_spec_is_the_api_definition() -> None:
    spec = Greet().spec().to_wire()
    assert spec["name"] == "Greet" and spec["description"] == "Greet someone."
    assert spec["input_schema"]["required"] == ["name"]


def test_a_tool_subclass_is_checked_when_defined() -> None:
    with pytest.raises(ToolDefinitionError, match="must be 1-64 characters"):

        class BadName(Tool[GreetInput, str]):  # pyright: ignore[reportUnusedClass]
            name = "has space"
            input_model = GreetInput

    with pytest.raises(ToolDefinitionError, match="has no input_model"):

        class NoModel(Tool[GreetInput, str]):  # pyright: ignore[reportUnusedClass]
            name = "NoModel"

    with pytest.raises(ToolDefinitionError, match="pydantic BaseModel"):

        class NotAModel(Tool[Any, str]):  # pyright: ignore[reportUnusedClass]
            name = "NotAModel"
            input_model = dict

    class FamilyBase(Tool[GreetInput, str]):
        """A shared base names no tool, so it is not checked."""

    class Member(FamilyBase):
        name = "Member"
        input_model = GreetInput

    assert Member().spec().name == "Member"


def test_context_resolves_relative_paths(tmp_path: Path) -> None:
    ctx = ToolContext(cwd=tmp_path, additional_dirs=(tmp_path.parent / "other",))
    assert ctx.resolve("a/b.txt") == tmp_path / "a" / "b.txt"
    assert ctx.is_inside_working_dirs(tmp_path / "x")
    assert not ctx.is_inside_working_dirs(Path("/"))


def test_for_call_copies_every_field(tmp_path: Path) -> None:
    import dataclasses

    ctx = ToolContext(
        cwd=tmp_path,
        project_dir=tmp_path.parent,
        additional_dirs=(tmp_path / "x",),
        permission_mode="plan",
        tool_use_id="old",
        agent_id="agent-1",
    )
    assert ctx.for_call("new") == dataclasses.replace(ctx, tool_use_id="new")


def test_builtin_registry_matches_the_tools() -> None:
    from hands.pipeline.pool import BUILTIN_TOOLS, all_base_tools

    tools = all_base_tools()
    assert [(e.name, e.aliases) for e in BUILTIN_TOOLS] == [(t.name, t.aliases) for t in tools]
