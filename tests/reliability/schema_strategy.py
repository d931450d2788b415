"""Hypothesis strategies from the JSON Schemas pydantic writes for tool inputs.

Covers what those schemas use: object (properties, required, additionalProperties),
array (items, minItems, maxItems), string (minLength, maxLength), integer and number
(minimum, maximum, exclusiveMinimum), boolean, null, enum and anyOf.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20))
ANY_JSON = st.recursive(
    JSON_SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
TEXT = st.text(st.characters(codec="utf-8"), max_size=60) | st.sampled_from(
    ["a.txt", "./a.txt", "sub", ".", "*", "**/*", "line", "\\", "-rf", "--help"]
)


def from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values valid against ``schema`` (as far as the keywords above go)."""
    if "enum" in schema:
        return st.sampled_from(list(schema["enum"]))
    if "anyOf" in schema:
        return st.one_of([from_schema(s) for s in schema["anyOf"]])
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        props: dict[str, Any] = schema.get("properties", {})
        required = set(schema.get("required", []))
        return st.fixed_dictionaries(
            {k: from_schema(v) for k, v in props.items() if k in required},
            optional={k: from_schema(v) for k, v in props.items() if k not in required},
        )
    if kind == "array":
        items = from_schema(schema.get("items", {}))
        low = schema.get("minItems", 0)
        return st.lists(items, min_size=low, max_size=schema.get("maxItems", low + 4))
    if kind == "string":
        low, high = schema.get("minLength", 0), schema.get("maxLength")
        text = st.text(st.characters(codec="utf-8"), min_size=low, max_size=high or low + 60)
        return text | TEXT.filter(lambda s: len(s) >= low and (high is None or len(s) <= high))
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum"))
        if low is not None and "exclusiveMinimum" in schema and kind == "integer":
            low += 1
        high = schema.get("maximum")
        if kind == "integer":
            return st.integers(min_value=low, max_value=high)
        return st.floats(
            min_value=low, max_value=high, allow_nan=False, exclude_min="exclusiveMinimum" in schema
        )
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    return ANY_JSON


def loosely(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Inputs a model might send by mistake: fields of the wrong type, unknown or missing."""
    names = sorted(schema.get("properties", {})) or ["x"]
    return st.dictionaries(st.sampled_from([*names, "extra"]), ANY_JSON, max_size=len(names) + 1)
