"""A sub-agent's hooks: the caller's tool hooks as they are, its Stop as SubagentStop.

Settings hooks run inside sub-agents with ``agent_id`` and ``agent_type`` in their input
(the sub-agent's context carries them). The session's events (SessionStart and End,
UserPromptSubmit) are the main agent's; a sub-agent's end fires SubagentStop instead of
Stop. Context left by ``async`` hooks stays for the main agent.

An agent file's own ``hooks`` run only inside that sub-agent, added to the caller's
(its ``Stop`` hooks become SubagentStop hooks, as in Claude Code), and only when the
file is trusted (:attr:`~hands.agent.subagents.definition.AgentDefinition.trusted`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hands.core.hooks import NO_LOOP, ForwardingHooks, LoopHookOutcome, ToolHooks
from hands.hooks.config import HookConfig, parse_hooks
from hands.hooks.engine import HookEngine

if TYPE_CHECKING:
    from hands.agent.subagents.definition import AgentDefinition
    from hands.core.context import ToolContext


class AgentHooksRefused(Exception):
    """An agent file's hooks cannot run here; the message says why."""


def own_hooks(agent: AgentDefinition) -> HookConfig | None:
    """The agent file's ``hooks`` (``Stop`` as ``SubagentStop``); ``None``: none to run.

    An untrusted file's hooks are not run (``None``).
    """
    if not agent.hooks or not agent.trusted:
        return None
    block = {("SubagentStop" if k == "Stop" else k): v for k, v in agent.hooks.items()}
    label = f"agent {agent.name} ({agent.source})" if agent.source else f"agent {agent.name}"
    return parse_hooks([(label, block)])


def scoped_hooks(caller: ToolHooks | None, agent: AgentDefinition) -> ToolHooks | None:
    """The hooks the sub-agent runs under: the caller's, plus its file's own."""
    own = own_hooks(agent)
    if own is None:
        return caller
    if caller is None:
        engine = HookEngine(own)
    elif isinstance(caller, HookEngine):
        engine = caller.with_hooks(own)
    else:
        raise AgentHooksRefused(
            f"The {agent.name} agent's hooks cannot run alongside this host's hooks; "
            "use another agent type or do the work here."
        )
    for warning in own.warnings:
        engine.notice(warning)
    return engine


class SubagentHooks(ForwardingHooks):
    """The caller's hooks, seen from inside a sub-agent.

    Tool and permission events pass through as they are; the loop's events differ.
    """

    def __init__(self, inner: ToolHooks, *, transcript_path: str | None = None) -> None:
        super().__init__(inner)
        self.engine = inner if isinstance(inner, HookEngine) else None
        self.transcript_path = transcript_path

    # -- the loop's events ----------------------------------------------------------------

    @property
    def stop_reason(self) -> str | None:
        """A hook's ``continue: false`` ends the sub-agent too."""
        return self.engine.stop_reason if self.engine is not None else None

    @property
    def deferred(self) -> tuple[str, ...]:
        """Deferring is for the main agent's single call: none here."""
        return ()

    def take_deferred(self) -> tuple[str, ...]:
        """None (see :attr:`deferred`)."""
        return ()

    async def session_start(self, ctx: ToolContext, *, source: str) -> LoopHookOutcome:
        """Not a session: SubagentStart is fired by whoever starts the sub-agent."""
        return NO_LOOP

    async def user_prompt_submit(self, ctx: ToolContext, prompt: str) -> LoopHookOutcome:
        """The caller's prompt is not the user's: not fired."""
        return NO_LOOP

    async def post_tool_batch(
        self, ctx: ToolContext, calls: list[dict[str, Any]]
    ) -> LoopHookOutcome:
        """PostToolBatch, as for the caller."""
        if self.engine is None:
            return NO_LOOP
        return await self.engine.post_tool_batch(ctx, calls)

    async def stop(
        self, ctx: ToolContext, *, stop_hook_active: bool, last_assistant_message: str
    ) -> LoopHookOutcome:
        """SubagentStop (matcher: the agent type); a block makes the sub-agent go on."""
        if self.engine is None:
            return NO_LOOP
        return await self.engine.subagent_stop(
            ctx,
            agent_type=ctx.agent_type or "",
            stop_hook_active=stop_hook_active,
            last_assistant_message=last_assistant_message,
            agent_transcript_path=self.transcript_path,
        )

    async def session_end(self, ctx: ToolContext, *, reason: str) -> None:
        """The session does not end with a sub-agent."""
        return None
