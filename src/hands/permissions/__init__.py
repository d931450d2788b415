"""Permission decisions and the policy seam the per-call pipeline consults."""

from hands.permissions.decision import (
    AskHandler,
    AskRequest,
    PermissionDecision,
    PermissionPolicy,
    allow,
    ask,
    deny,
    passthrough,
)
from hands.permissions.simple import SimplePolicy

__all__ = [
    "AskHandler",
    "AskRequest",
    "PermissionDecision",
    "PermissionPolicy",
    "SimplePolicy",
    "allow",
    "ask",
    "deny",
    "passthrough",
]
