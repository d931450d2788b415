"""Permission decisions and the policy seam the per-call pipeline consults.

``PermissionEngine`` is the settings-driven policy (rules, modes, working directories);
``SimplePolicy`` is the fail-closed default used when no settings are loaded. Names are
imported on first use: the decision types sit on every call's path, the engine does not.
"""

import typing

from hands import _lazy

if typing.TYPE_CHECKING:
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

_EXPORTS = {
    "AskHandler": "hands.core.decision",
    "AskRequest": "hands.core.decision",
    "PermissionDecision": "hands.core.decision",
    "PermissionEngine": ".engine",
    "PermissionPolicy": "hands.core.decision",
    "PermissionRule": ".rules",
    "PromptAskHandler": ".asking",
    "RuleOrigin": ".rules",
    "RuleWarning": ".rules",
    "SimplePolicy": ".simple",
    "allow": "hands.core.decision",
    "ask": "hands.core.decision",
    "decision_record": ".engine",
    "deny": "hands.core.decision",
    "build_policy": ".policy",
    "engine_for": ".policy",
    "is_trusted": "hands.config.trust",
    "parse_rule": ".rules",
    "parse_rules": ".rules",
    "passthrough": "hands.core.decision",
    "split_rule_list": ".rules",
    "suggest_rules": ".asking",
    "trust": "hands.config.trust",
}

__getattr__, __dir__ = _lazy.exports(__name__, _EXPORTS)

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

