"""A JSON description of a tool for ``hands tools --json``."""

from __future__ import annotations

from typing import Any

from hands.core.tool import Tool


def _static_flag(tool: Tool[Any, Any], which: str) -> bool | str:
    """The flag when it does not depend on the input, else ``"depends on input"``."""
    try:
        probe = tool.input_model.model_construct()
        value = bool(getattr(tool, which)(probe))
    except Exception:
        return "depends on input"
    return value


def describe_tool(tool: Tool[Any, Any]) -> dict[str, Any]:
    """Name, aliases, description, flags and input schema of one tool."""
    return {
        "name": tool.name,
        "aliases": list(tool.aliases),
        "description": tool.description,
        "flags": {
            "read_only": _static_flag(tool, "is_read_only"),
            "concurrency_safe": _static_flag(tool, "is_concurrency_safe"),
            "destructive": _static_flag(tool, "is_destructive"),
            "edits_files": tool.edits_files,
            "handles_own_timeout": tool.handles_own_timeout,
            "cascades_errors": tool.cascades_errors,
            "deferrable": tool.should_defer,
        },
        "max_result_chars": tool.max_result_chars,
        "input_schema": tool.input_schema,
    }
