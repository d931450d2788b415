"""Every input field Claude Code's tools take is taken by hands' tool of the same name.

``tests/data/claude_code_tool_fields.json`` lists, per Claude Code tool, each input field
with its type (derived from the input types its npm package ships, for the version named
in the file). A model trained on Claude Code sends those fields; hands must accept each,
with a value of that type, and either act on it or say in the result that it was ignored.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import anyio
import pytest
from pydantic import BaseModel, ValidationError

from hands.agent.subagents.tool import AgentTool
from hands.core.context import ToolContext
from hands.core.messages import ToolUseBlock
from hands.core.schema import ToolInput
from hands.core.session import Session
from hands.core.tool import Progress, Tool, ToolResult
from hands.mcp.resources import ListMcpResourcesTool, ReadMcpResourceTool
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import BUILTIN_TOOLS, ToolPool
from hands.pipeline.runtime import ToolRuntime

DATA = json.loads((Path(__file__).parents[1] / "data" / "claude_code_tool_fields.json").read_text())
CLAUDE_TOOLS: dict[str, dict[str, Any]] = DATA["tools"]

NOT_IN_HANDS: set[str] = set()
"""Claude Code tools hands does not have."""


def _hands_inputs() -> dict[str, type[BaseModel]]:
    classes: list[Any] = [entry.tool_class() for entry in BUILTIN_TOOLS]
    classes += [AgentTool, ListMcpResourcesTool, ReadMcpResourceTool]
    found: dict[str, type[BaseModel]] = {}
    for cls in classes:
        for name in (cls.name, *cls.aliases):
            found.setdefault(name, cls.input_model)
    return found


HANDS = _hands_inputs()
PAIRS = sorted(name for name in CLAUDE_TOOLS if name in HANDS)
FIELDS = [(tool, field) for tool in PAIRS for field in CLAUDE_TOOLS[tool] if field != "*"]


def sample(spec: dict[str, Any], n: int = 0) -> Any:
    """A value of the field's Claude Code type (the ``n``-th of a list: values differ)."""
    if "anyOf" in spec:
        return sample(spec["anyOf"][0], n)
    if spec.get("enum"):
        return spec["enum"][0]
    kind = spec.get("type")
    if kind == "string":
        return f"value {n}"
    if kind == "number":
        return 1
    if kind == "boolean":
        return True
    if kind == "array":
        return [sample(spec["items"], i) for i in range(spec.get("minItems", 1))]
    if kind == "object":
        return {k: sample(v, n) for k, v in spec.get("fields", {}).items() if k != "*"}
    return None


def required(tool: str) -> dict[str, Any]:
    return {k: sample(v) for k, v in CLAUDE_TOOLS[tool].items() if v.get("required")}


JSON_TYPES = {
    "string": {"string"},
    "number": {"integer", "number"},
    "boolean": {"boolean"},
    "array": {"array"},
    "object": {"object"},
}


def _schema_types(prop: dict[str, Any]) -> set[str]:
    if "type" in prop:
        return {prop["type"]} if isinstance(prop["type"], str) else set(prop["type"])
    if "enum" in prop:
        return {"string"}
    out: set[str] = set()
    for alt in prop.get("anyOf", []):
        out |= _schema_types(alt)
    return out


def test_the_data_names_its_version_and_every_claude_tool_is_paired_or_known_absent() -> None:
    assert DATA["claude_code_version"].count(".") == 2
    assert set(CLAUDE_TOOLS) - set(HANDS) == NOT_IN_HANDS


@pytest.mark.parametrize(("tool", "field"), FIELDS)
def test_field_is_accepted_with_a_value_of_its_type(tool: str, field: str) -> None:
    model = HANDS[tool]
    data = {**required(tool), field: sample(CLAUDE_TOOLS[tool][field])}
    try:
        parsed = model.model_validate(data)
    except ValidationError as exc:  # pragma: no cover - the failure message is the point
        pytest.fail(f"{tool}.{field}: {exc}")
    names = {field}
    for name, info in model.model_fields.items():
        if field in (name, info.alias) or (
            info.validation_alias is not None and field in str(info.validation_alias)
        ):
            names.add(name)
    assert names & parsed.model_fields_set, f"{tool}.{field} was dropped, not taken"


@pytest.mark.parametrize(("tool", "field"), FIELDS)
def test_field_in_the_schema_has_a_compatible_type(tool: str, field: str) -> None:
    schema = HANDS[tool].model_json_schema(by_alias=True)
    prop = schema.get("properties", {}).get(field)
    if prop is None:
        return  # accepted but not offered (an alias, or a field hands ignores)
    want = CLAUDE_TOOLS[tool][field].get("type")
    if want in JSON_TYPES:
        assert _schema_types(prop) & JSON_TYPES[want], (tool, field, prop)


@pytest.mark.parametrize("tool", PAIRS)
def test_each_ignored_field_is_one_claude_code_sends_and_says_why(tool: str) -> None:
    model = HANDS[tool]
    ignored = model.ignored_fields if issubclass(model, ToolInput) else {}
    for name, why in ignored.items():
        wire = model.model_fields[name].alias or name
        assert wire in CLAUDE_TOOLS[tool], (tool, wire)
        assert len(why.split()) >= 4


def test_a_set_ignored_field_gets_a_note_and_an_unset_one_none() -> None:
    model = HANDS["Agent"]
    base = required("Agent")
    assert issubclass(model, ToolInput)
    quiet = model.model_validate(base)
    assert quiet.ignored_notes() == ()
    noisy = model.model_validate({**base, "effort": "high", "team_name": "t"})
    notes = noisy.ignored_notes()
    assert len(notes) == 1 and notes[0].startswith("[team_name has no effect here")
    plan = HANDS["ExitPlanMode"].model_validate(
        {"allowedPrompts": [{"tool": "Bash", "prompt": "run tests"}]}
    )
    assert isinstance(plan, ToolInput)
    assert plan.ignored_notes()[0].startswith("[allowedPrompts has no effect here")


class _EchoInput(ToolInput):
    ignored_fields: ClassVar[Mapping[str, str]] = {"style": "the echo has only one style"}

    text: str
    style: str | None = None


class _EchoTool(Tool[_EchoInput, str]):
    name = "Echo"
    input_model = _EchoInput

    async def call(
        self, input: _EchoInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[str]:
        return ToolResult(output=input.text)


def test_the_note_on_an_ignored_field_ends_the_tool_result(tmp_path: Path) -> None:
    ctx = ToolContext(
        cwd=tmp_path, session=Session(home=tmp_path), permission_mode="bypassPermissions"
    )
    runtime = ToolRuntime(tools=ToolPool([_EchoTool()]))

    async def run(**input: Any) -> str:
        block = ToolUseBlock(id="toolu_1", name="Echo", input=input)
        return (await run_tool_use(block, ctx, runtime, lambda _: None)).block.text

    assert anyio.run(lambda: run(text="hi")) == "hi"
    noted = anyio.run(lambda: run(text="hi", style="bold"))
    assert noted == "hi\n\n[style has no effect here and was ignored: the echo has only one style]"
