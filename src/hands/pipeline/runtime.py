"""Everything the per-call pipeline needs besides the call itself."""

from __future__ import annotations

from dataclasses import dataclass, field

from hands.core.decision import AskHandler, PermissionPolicy
from hands.core.hooks import ToolHooks
from hands.core.limits import Limits
from hands.permissions.simple import SimplePolicy
from hands.pipeline.pool import ToolPool


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolRuntime:
    """The pool, the permission policy and its ask handler, the hooks and the limits."""

    tools: ToolPool
    policy: PermissionPolicy = field(default_factory=SimplePolicy)
    ask: AskHandler | None = None
    hooks: ToolHooks | None = None
    limits: Limits = field(default_factory=Limits)
