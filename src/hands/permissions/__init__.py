"""Permission decisions and the policy seam the per-call pipeline consults.

``PermissionEngine`` is the settings-driven policy (rules, modes, working directories);
``SimplePolicy`` is the fail-closed default used when no settings are loaded. Names are
imported on first use: the decision types sit on every call's path, the engine does not.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hands.config.trust import is_trusted, trust
    from hands.core.decision import (
        AskHandler,
        AskRequest,
        PermissionDecision,
        PermissionPolicy,
        allow,
        ask,
        deny,
        passthrough,
    )
    from hands.permissions.asking import PromptAskHandler, suggest_rules
    from hands.permissions.engine import PermissionEngine, decision_record
    from hands.permissions.policy import build_policy, engine_for
    from hands.permissions.rules import (
        PermissionRule,
        RuleOrigin,
        RuleWarning,
        parse_rule,
        parse_rules,
        split_rule_list,
    )
    from hands.permissions.simple import SimplePolicy

_HOMES = {
    "AskHandler": "decision",
    "AskRequest": "decision",
    "PermissionDecision": "decision",
    "PermissionEngine": "engine",
    "PermissionPolicy": "decision",
    "PermissionRule": "rules",
    "PromptAskHandler": "asking",
    "RuleOrigin": "rules",
    "RuleWarning": "rules",
    "SimplePolicy": "simple",
    "allow": "decision",
    "ask": "decision",
    "decision_record": "engine",
    "deny": "decision",
    "build_policy": "policy",
    "engine_for": "policy",
    "is_trusted": "hands.config.trust",
    "parse_rule": "rules",
    "parse_rules": "rules",
    "passthrough": "decision",
    "split_rule_list": "rules",
    "suggest_rules": "asking",
    "trust": "hands.config.trust",
}

__all__ = [
    "AskHandler",
    "AskRequest",
    "PermissionDecision",
    "PermissionEngine",
    "PermissionPolicy",
    "PermissionRule",
    "PromptAskHandler",
    "RuleOrigin",
    "RuleWarning",
    "SimplePolicy",
    "allow",
    "ask",
    "build_policy",
    "decision_record",
    "deny",
    "engine_for",
    "is_trusted",
    "parse_rule",
    "parse_rules",
    "passthrough",
    "split_rule_list",
    "suggest_rules",
    "trust",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'hands.permissions' has no attribute {name!r}")
    module = home if home.startswith("hands.") else f"hands.permissions.{home}"
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
