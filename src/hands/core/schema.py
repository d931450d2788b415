"""JSON Schema for tool inputs, derived once from the pydantic model."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, cast

from pydantic import BaseModel, ConfigDict


class ToolInput(BaseModel):
    """Base for tool input models: frozen, unknown keys refused, aliases accepted.

    Pydantic's lax mode already coerces numbers and booleans sent as strings
    (``"120000"`` → 120000, ``"true"`` → True), which models often do.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    ignored_fields: ClassVar[Mapping[str, str]] = {}
    """Fields accepted because models trained on Claude Code send them, which this tool
    has no use for: field name → why. A call that sets one gets a note saying so."""

    def ignored_notes(self) -> tuple[str, ...]:
        """One note per ignored field this call set, for the end of its result."""
        if not self.ignored_fields:  # most tools: nothing to look at, on every call
            return ()
        fields = type(self).model_fields
        return tuple(
            f"[{fields[name].alias or name} has no effect here and was ignored: {why}]"
            for name, why in self.ignored_fields.items()
            if name in self.model_fields_set
        )


def input_json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON Schema as sent to the API: aliases used, titles dropped, refs inlined."""
    raw = model.model_json_schema(by_alias=True)
    defs = cast(dict[str, Any], raw.pop("$defs", {}))
    cleaned = cast(dict[str, Any], _clean(raw, defs, depth=0))
    cleaned.setdefault("properties", {})
    cleaned["type"] = "object"
    return cleaned


def _clean(node: Any, defs: dict[str, Any], depth: int) -> Any:
    if depth > 32:
        return {}
    if isinstance(node, dict):
        mapping = cast(dict[str, Any], node)
        ref = mapping.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            target = defs.get(ref.removeprefix("#/$defs/"), {})
            merged = {**target, **{k: v for k, v in mapping.items() if k != "$ref"}}
            return _clean(merged, defs, depth + 1)
        out: dict[str, Any] = {}
        for key, value in mapping.items():
            if key == "title" and isinstance(value, str):
                continue
            if key == "properties" and isinstance(value, dict):
                props = cast(dict[str, Any], value)
                out[key] = {name: _clean(v, defs, depth + 1) for name, v in props.items()}
                continue
            out[key] = _clean(value, defs, depth + 1)
        return out
    if isinstance(node, list):
        return [_clean(item, defs, depth + 1) for item in cast(list[Any], node)]
    return node
