"""``updatedPermissions``: rules and a mode an SDK program's approval adds to the session."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from hands.core.context import PERMISSION_MODES, PermissionMode
from hands.permissions.engine import PermissionEngine
from hands.permissions.rules import PermissionRule, RuleOrigin, parse_rule


def apply_updates(
    updates: list[dict[str, Any]], *, engine: PermissionEngine, root: Path
) -> PermissionMode | None:
    """Add each ``addRules`` entry's rules for this session; the ``setMode`` mode, if any.

    Rules take effect for the session whatever ``destination`` says: hands writes no
    settings file for an SDK program.
    """
    origin = RuleOrigin(scope="session", label="the SDK program", root=root)
    mode: PermissionMode | None = None
    parsed: list[PermissionRule] = []
    for update in updates:
        kind = update.get("type")
        if kind == "setMode" and update.get("mode") in PERMISSION_MODES:
            mode = cast(PermissionMode, update["mode"])
        if kind not in ("addRules", "replaceRules"):
            continue
        behavior = update.get("behavior")
        if behavior not in ("allow", "ask", "deny"):
            continue
        raw_rules = update.get("rules")
        for raw in cast(list[object], raw_rules) if isinstance(raw_rules, list) else []:
            if not isinstance(raw, dict):
                continue
            entry = cast(dict[str, Any], raw)
            tool = entry.get("toolName")
            content = entry.get("ruleContent")
            if not isinstance(tool, str):
                continue
            text = f"{tool}({content})" if isinstance(content, str) and content else tool
            rule = parse_rule(text, behavior, origin)
            if isinstance(rule, PermissionRule):
                parsed.append(rule)
    engine.add_rules(parsed)
    return mode
