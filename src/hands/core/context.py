"""What a tool call sees of the world: cwd, directories, mode and the session."""

from __future__ import annotations

import operator
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeAlias

from hands.core.frozen import twin
from hands.core.session import Session

if TYPE_CHECKING:
    from hands.core.decision import PermissionPolicy

PermissionMode: TypeAlias = Literal[
    "default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"
]
PERMISSION_MODES: tuple[PermissionMode, ...] = (
    "default",
    "acceptEdits",
    "plan",
    "bypassPermissions",
    "dontAsk",
)


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolContext:
    """Immutable per-call context; tools change it only through a context modifier."""

    cwd: Path
    """The working directory; relative paths in a call are taken from it."""
    session: Session = field(default_factory=Session)
    """The session the call belongs to: its id, shared state and spill directory."""
    project_dir: Path | None = None
    """Where the session started; ``None``: the ``cwd``. See :attr:`root`."""
    additional_dirs: tuple[Path, ...] = ()
    """Directories outside the project that count as working directories."""
    permission_mode: PermissionMode = "default"
    """The permission mode in force (``plan``, ``acceptEdits``...)."""
    tool_use_id: str = ""
    """The id of the ``tool_use`` block being run; empty outside a call."""
    agent_id: str | None = None
    """The sub-agent running the call; ``None`` for the main agent."""
    agent_type: str | None = None
    """The type of that sub-agent (``Explore``, a custom agent's name); ``None`` for the main
    agent."""
    host: object | None = None
    """The running query (the agent loop sets it): how a tool that starts a sub-agent finds
    the model, tools and policy it runs with. ``None`` outside a query."""
    policy: PermissionPolicy | None = None
    """The permission policy of the runtime running the call (the pipeline sets it)."""
    approved_mode: PermissionMode | None = None
    """The mode the approval of this call chose (``PermissionDecision.mode_after``);
    ``None``: none chosen. Set for one call only."""
    turn_allow: tuple[str, ...] = ()
    """Allow rules (rule texts) in force until the running query ends: an invoked
    skill's ``allowed-tools``. The next user prompt starts without them."""

    @property
    def root(self) -> Path:
        """The project directory: where the session started."""
        return self.project_dir if self.project_dir is not None else self.cwd

    @property
    def working_dirs(self) -> tuple[Path, ...]:
        """The project directory and every additional directory."""
        return (self.root, *self.additional_dirs)

    def is_inside_working_dirs(self, path: Path) -> bool:
        """Whether ``path`` (resolved) lies inside one of the working directories."""
        resolved = path.resolve()
        return any(resolved.is_relative_to(d.resolve()) for d in self.working_dirs)

    def resolve(self, path: str | Path) -> Path:
        """An absolute path: ``path`` taken relative to the cwd, ``~`` expanded."""
        # os.path's expansion leaves an unknown ``~user`` as it is; Path's raises
        p = Path(os.path.expanduser(path))  # noqa: PTH111
        return p if p.is_absolute() else self.cwd / p

    def for_call(self, tool_use_id: str, *, policy: PermissionPolicy | None = None) -> ToolContext:
        """A copy for one call, without the mode an earlier call's approval chose.

        The hot path (every call makes one): see ``_Copy`` below.
        """
        new = _Copy(*_get_fields(self))
        new.tool_use_id = tool_use_id
        new.approved_mode = None
        if policy is not None:
            new.policy = policy
        new.__class__ = ToolContext
        return new

    def with_changes(self, **changes: object) -> ToolContext:
        """A copy with some fields replaced."""
        return replace(self, **changes)  # type: ignore[arg-type]


# for_call's copy: every field read at once into a plain twin of the class, changed there
# and given the frozen class (hands.core.frozen): cheaper than the frozen ``__init__``,
# ``dataclasses.replace`` or writing each slot through its descriptor
_Copy = twin(ToolContext)
_get_fields = operator.attrgetter(*ToolContext.__slots__)
