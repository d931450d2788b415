"""``--json-schema``: the model ends its work by calling ``StructuredOutput``.

The tool's input schema is the caller's JSON Schema; an input that does not match is an
error result naming what is wrong, so the model can call again. The last valid input is
the result's ``structured_output``.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, cast

from pydantic import BaseModel, ConfigDict

from hands.cli.args import UsageError
from hands.core.context import ToolContext
from hands.core.decision import PermissionDecision, allow
from hands.core.tool import Progress, Tool, ToolResult

INSTRUCTION = (
    "When the task is done, call the StructuredOutput tool once with the final answer as "
    "its input; its input schema is the required format of the answer."
)


class AnyObject(BaseModel):
    """Any JSON object; the schema check happens in ``validate_input``."""

    model_config = ConfigDict(extra="allow")


class StructuredOutputTool(Tool[AnyObject, dict[str, Any]]):
    """Takes the final answer in the caller's schema and keeps it for the result."""

    name = "StructuredOutput"
    input_model = AnyObject
    description = "Return the final answer in the required format (the input schema)."
    max_result_chars = 2_000
    allowed_in_plan_mode = True
    subagent_use = "never"

    def __init__(self, schema: dict[str, Any]) -> None:
        from jsonschema import Draft202012Validator

        self._validator = Draft202012Validator(schema)
        self._schema = schema
        self.value: dict[str, Any] | None = None

    @cached_property
    def input_schema(self) -> dict[str, Any]:  # noqa: D102
        return self._schema

    def is_read_only(self, input: AnyObject) -> bool:  # noqa: D102
        return True

    def is_concurrency_safe(self, input: AnyObject) -> bool:  # noqa: D102
        return True

    async def validate_input(self, input: AnyObject, ctx: ToolContext) -> str | None:  # noqa: D102
        errors = sorted(self._validator.iter_errors(_data(input)), key=lambda e: list(e.path))
        if not errors:
            return None
        shown = "; ".join(
            f"{'/'.join(str(p) for p in e.path) or '(top level)'}: {e.message}" for e in errors[:5]
        )
        return f"The output does not match the required schema: {shown}. Call again, fixed."

    async def check_permissions(self, input: AnyObject, ctx: ToolContext) -> PermissionDecision:  # noqa: D102
        return allow("returns the session's structured output")

    async def call(  # noqa: D102
        self, input: AnyObject, ctx: ToolContext, progress: Progress
    ) -> ToolResult[dict[str, Any]]:
        self.value = _data(input)
        return ToolResult(output=self.value)

    def to_content(self, output: dict[str, Any]) -> str:  # noqa: D102
        return "The structured output was recorded."


def _data(input: AnyObject) -> dict[str, Any]:
    return input.model_dump(mode="json")


def structured_output_tool(text: str) -> StructuredOutputTool:
    """The tool for a ``--json-schema`` value, or a :class:`UsageError`."""
    import json

    from jsonschema import Draft202012Validator, SchemaError

    try:
        schema: object = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"--json-schema is not valid JSON: {exc.msg}") from None
    if not isinstance(schema, dict):
        raise UsageError("--json-schema must be a JSON Schema object")
    object_schema = cast(dict[str, Any], schema)
    try:
        Draft202012Validator.check_schema(object_schema)
    except SchemaError as exc:
        raise UsageError(f"--json-schema is not a valid JSON Schema: {exc.message}") from None
    if object_schema.get("type") != "object":
        raise UsageError('--json-schema must describe an object ("type": "object")')
    return StructuredOutputTool(object_schema)
