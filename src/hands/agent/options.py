"""What a query needs: the model, the tools and how to run them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

from hands.agent.compaction.settings import CompactionSettings
from hands.core.context import PermissionMode
from hands.core.decision import AskHandler, PermissionPolicy
from hands.core.hooks import SessionEndReason, SessionStartSource, ToolHooks
from hands.core.limits import Limits
from hands.core.messages import Message
from hands.core.session import Session
from hands.core.tool import Tool
from hands.models.base import Effort, Model
from hands.pipeline.pool import ToolPool
from hands.tools.planning.ask_user_question import QuestionHandler

DEFAULT_SYSTEM_PROMPT = (
    "You are a coding agent working in the user's project through tools. Use the tools to "
    "inspect and change files and run commands; call independent read-only tools together "
    "in one message so they run in parallel."
)


@runtime_checkable
class ToolSource(Protocol):
    """A pool that can change between turns (MCP servers connecting, tools found)."""

    def current_pool(self) -> ToolPool:
        """The pool for the next model request."""
        ...

    def reminder_message(self, messages: Sequence[Message]) -> Message | None:
        """A message to append before the next request (deferred tools); default none."""
        return None


@runtime_checkable
class ReadySource(Protocol):
    """A source with tools the first request must not go without (MCP ``alwaysLoad``)."""

    async def ready(self) -> None:
        """Wait (bounded) until those tools are there; the loop awaits it before turn 1."""
        ...


@dataclass(frozen=True, kw_only=True)
class QueryOptions:
    """How to run a query. Only ``model`` is required."""

    model: Model
    """The model provider every request goes to (``hands.testing.ScriptedModel`` in tests)."""
    tools: ToolPool | Sequence[Tool[Any, Any]] | ToolSource | None = None
    """The tools; a ToolSource is asked again before every model request. ``None``: the
    built-in pool. A list replaces the built-ins; ``assemble_pool(extra=[...])`` adds to them."""
    cwd: Path | None = None
    """The working directory tools start in and the project directory; ``None``: the
    process's current directory."""
    system_prompt: str = DEFAULT_SYSTEM_PROMPT
    """The system prompt sent with every request."""
    max_turns: int | None = None
    """Stop with ``error_max_turns`` after this many model requests; ``None``: no limit."""
    permission_mode: PermissionMode = "default"
    """The mode the permission policy starts in (``plan``, ``acceptEdits``...)."""
    additional_dirs: Sequence[Path] = ()
    """Directories outside ``cwd`` that tools may read and write as if inside it."""
    policy: PermissionPolicy | None = None
    """Who decides each call; ``None``: the fail-closed ``SimplePolicy`` (read-only calls
    allowed, the rest asked)."""
    ask: AskHandler | None = None
    """Answers the calls the policy asks about; ``None``: they are denied (unless a
    PermissionRequest hook answers)."""
    answer_questions: QuestionHandler | None = None
    """Answers AskUserQuestion (question text → chosen label, or free text; ``None``: the
    user declined); without it such calls go to ``ask`` like any other question."""
    hooks: ToolHooks | None = None
    """Hooks around every call, and around the loop when they also implement ``LoopHooks``."""
    limits: Limits | None = None
    """Caps on parallelism, time and result size; ``None``: ``Limits.from_env()``."""
    session: Session | None = None
    """The session (id, state, spill directory) shared by every call; ``None``: a new one."""
    history: Sequence[Message] = field(default_factory=lambda: list[Message]())
    """Messages of an earlier conversation the prompt continues."""
    streaming: bool = True
    """False: wait for the whole assistant message, then run its tools batch by batch."""
    stream_retries: int = 2
    """How often a request whose stream broke mid-way (and may succeed again) is re-sent."""
    stream_retry_delay_s: float = 1.0
    """Seconds to wait before re-sending a request whose stream broke."""
    session_start: SessionStartSource | Literal["auto"] | None = "auto"
    """SessionStart hooks before the prompt, with this source (``startup``, ``resume``
    for ``--resume``/``--continue``, ``clear``, ``compact``); ``"auto"``: ``resume`` when
    ``history`` is given, else ``startup``; ``None``: not fired (a caller that keeps one
    session over several queries fires it once, see
    :func:`hands.agent.hook_turns.start_session`)."""
    agent_id: str | None = None
    """The sub-agent this query runs (its calls and hooks carry the id); ``None``: the main
    agent."""
    agent_type: str | None = None
    """That sub-agent's type (``Explore``, a custom agent's name)."""
    wait_for_background: bool = True
    """When the model is done while work it started in the background (a background
    sub-agent) still runs, wait for its notice and go on, instead of ending the run."""
    compaction: CompactionSettings | None = None
    """The context window and when to compact; ``None``: from the environment
    (:meth:`CompactionSettings.from_env`)."""
    effort: Effort | None = None
    """The effort every request of this query asks for; ``None``: the provider's
    default. A sub-agent takes the Agent call's ``effort``, else its caller's."""
    betas: tuple[str, ...] = ()
    """Beta features every request of this query asks for (Anthropic's ``anthropic-beta``
    header; a sub-agent inherits them). Only the model client sends them: nothing the
    tools run sees them."""
    session_end: SessionEndReason | None = "other"
    """SessionEnd hooks when the query ends, with this reason; ``None``: not fired (the
    caller fires it when the session really ends, see
    :func:`hands.agent.hook_turns.end_session`)."""
    output_style: str | None = None
    """The name of the output style in force when it is not the default one: each request
    that follows tool results carries a reminder to keep to it (the style's instructions
    are in ``system_prompt``); ``None``: no reminder."""


__all__ = ["DEFAULT_SYSTEM_PROMPT", "QueryOptions", "ToolSource"]
