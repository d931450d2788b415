"""Run one sub-agent: the same ``query`` loop, on a fresh conversation of one prompt.

:func:`prepare` checks the spawn (depth and concurrency limits, tools, model) and builds
the sub-agent's options from the caller's running query: its tools filtered for the
type, the caller's permission engine and ask handler (a read-only type behind a policy
that refuses changes), the caller's hooks seen from inside a sub-agent, the caller's
limits and session. :func:`run` fires SubagentStart, runs the loop, passes each message
and tool use up as progress, saves the sidechain transcript, and returns what came of
it. Only the final text goes back into the caller's conversation.
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
import time
from collections.abc import Mapping, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from hands.agent.events import BlockEvent, MessageEvent, ResultEvent
from hands.agent.loop import Query, QueryOptions, query
from hands.agent.subagents.definition import AgentDefinition
from hands.agent.subagents.hooks import AgentHooksRefused, SubagentHooks, scoped_hooks
from hands.agent.subagents.limits import Running, max_concurrent, max_depth
from hands.agent.subagents.models import model_for
from hands.agent.subagents.progress import SubagentUpdate
from hands.agent.subagents.readonly import ReadOnlyPolicy
from hands.agent.subagents.toolset import select_tools
from hands.agent.transcript import TranscriptWriter
from hands.core.agent_scope import PARENT_TOOL_USE
from hands.core.context import PermissionMode, ToolContext
from hands.core.messages import Message, TextBlock, user_text
from hands.errors import ConfigError
from hands.models.base import Effort, Usage
from hands.orchestration.events import ToolProgressEvent

if TYPE_CHECKING:
    from hands.agent.subagents.servers import AgentServers, OpenServers
    from hands.core.tool import Progress, Tool
    from hands.hooks.engine import HookEngine
    from hands.pipeline.pool import ToolPool

log = logging.getLogger("hands.agent")

Status: TypeAlias = Literal["completed", "failed", "max_turns", "interrupted"]

_LOOSENESS: Mapping[str, int] = {
    "plan": 0,
    "dontAsk": 0,
    "default": 1,
    "acceptEdits": 2,
    "bypassPermissions": 3,
}


class SpawnRefused(Exception):
    """The sub-agent cannot start; the message says why, for the model."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Spawn:
    """What the caller asks for."""

    agent: AgentDefinition
    prompt: str
    description: str
    model: str | None = None
    """Overrides the type's model (an alias or an id)."""
    cwd: Path | None = None
    """Where it works (a worktree); ``None``: the caller's working directory."""
    model_overrides: Mapping[str, str] = field(default_factory=lambda: dict[str, str]())
    servers: AgentServers | None = None
    """Opens the agent file's ``mcpServers`` (``None``: the host has no MCP)."""
    background: bool = False
    """It runs in the background: only the tools meant for background agents."""
    effort: Effort | None = None
    """The effort its requests ask for; ``None``: the caller's."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Prepared:
    """A sub-agent ready to run."""

    agent_id: str
    spawn: Spawn
    options: QueryOptions
    prompt: Message
    depth: int
    parent: ToolContext
    transcript: TranscriptWriter
    engine: HookEngine | None
    history: tuple[Message, ...] = ()
    """The conversation so far, when a finished agent is resumed with a new message."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Finished:
    """What came of a sub-agent."""

    agent_id: str
    agent_type: str
    status: Status
    text: str
    error: str = ""
    tool_uses: int = 0
    duration_ms: float = 0.0
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    transcript_path: Path | None = None
    messages: tuple[Message, ...] = ()
    """The whole conversation, which a resume continues."""


def effective_mode(wanted: PermissionMode | None, caller: PermissionMode) -> PermissionMode:
    """The type's mode, unless it is looser than the caller's (then the caller's).

    A file's ``permissionMode: bypassPermissions`` never loosens a stricter session;
    Plan's ``plan`` holds even under a caller in bypassPermissions.
    """
    if wanted is None:
        return caller
    return wanted if _LOOSENESS[wanted] <= _LOOSENESS[caller] else caller


def prepare(spawn: Spawn, ctx: ToolContext, *, spawner: type[Tool[Any, Any]]) -> Prepared:
    """Check the spawn and build the sub-agent's options; raises SpawnRefused."""
    host = ctx.host
    runtime = host.runtime if isinstance(host, Query) else None
    if not isinstance(host, Query) or runtime is None:
        raise SpawnRefused("Sub-agents can only be started from inside a running agent loop.")
    agent = spawn.agent
    running = ctx.session.service(Running)
    depth, limit = running.depth_of(ctx.agent_id) + 1, max_depth()
    if depth > limit:
        raise SpawnRefused(
            f"Sub-agents may nest only {limit} deep (HANDS_MAX_SUBAGENT_DEPTH); this one "
            "would be deeper. Do the work here instead."
        )
    if running.count >= max_concurrent():
        raise SpawnRefused(
            f"The limit of {max_concurrent()} sub-agents running at once is reached "
            "(HANDS_MAX_CONCURRENT_SUBAGENTS). Do not retry this call now: wait for running "
            "agents to finish, or do the work yourself."
        )
    mode = effective_mode(agent.permission_mode, ctx.permission_mode)
    toolset = select_tools(
        runtime.tools,
        agent,
        mode=mode,
        may_spawn=depth < limit,
        spawner=spawner,
        background=spawn.background,
    )
    if agent.tools is not None and not len(toolset.pool):
        raise SpawnRefused(
            f"The {agent.name} agent cannot start: none of its tools "
            f"({', '.join(toolset.unresolved) or 'none listed'}) is available to sub-agents."
        )
    try:
        model = model_for(
            spawn.model or agent.model, host.options.model, overrides=spawn.model_overrides
        )
    except ConfigError as exc:
        raise SpawnRefused(f"The {agent.name} agent's model cannot be used: {exc}") from None
    agent_id = "a" + secrets.token_hex(8)
    cwd = spawn.cwd or ctx.cwd
    transcript = TranscriptWriter(
        ctx.session.directory / "subagents" / f"agent-{agent_id}.jsonl",
        session_id=ctx.session.id,
        cwd=cwd,
    )
    try:
        hooks = scoped_hooks(runtime.hooks, agent)
    except AgentHooksRefused as exc:
        raise SpawnRefused(str(exc)) from None
    policy = runtime.policy
    if agent.read_only:
        policy = ReadOnlyPolicy(policy, agent_type=agent.name)
    options = QueryOptions(
        model=model,
        tools=toolset.pool,
        cwd=cwd,
        system_prompt=_system_prompt(agent, cwd, ctx.additional_dirs),
        max_turns=agent.max_turns,
        permission_mode=mode,
        additional_dirs=ctx.additional_dirs,
        policy=policy,
        ask=runtime.ask,
        hooks=SubagentHooks(hooks, transcript_path=str(transcript.path)) if hooks else None,
        limits=runtime.limits,
        session=ctx.session,
        streaming=host.options.streaming,
        stream_retries=host.options.stream_retries,
        stream_retry_delay_s=host.options.stream_retry_delay_s,
        session_start=None,
        session_end=None,
        agent_id=agent_id,
        agent_type=agent.name,
        effort=spawn.effort or host.options.effort,
        betas=host.options.betas,
    )
    from hands.hooks.engine import HookEngine

    prompt = f"{agent.initial_prompt}\n\n{spawn.prompt}" if agent.initial_prompt else spawn.prompt
    return Prepared(
        agent_id=agent_id,
        spawn=spawn,
        options=options,
        prompt=user_text(prompt),
        depth=depth,
        parent=ctx,
        transcript=transcript,
        engine=hooks if isinstance(hooks, HookEngine) else None,
    )


def _system_prompt(agent: AgentDefinition, cwd: Path, extra: tuple[Path, ...]) -> str:
    from hands.agent.system_prompt import build_system_prompt

    base = agent.system_prompt or "You are a sub-agent of a coding agent; do the task given."
    if agent.read_only:
        # Read-only searchers skip the project's instruction files and git status: they
        # only look, and their caller has both.
        import platform

        env = [f"Working directory: {cwd}", *(f"Additional working directory: {d}" for d in extra)]
        env.append(f"Platform: {platform.system().lower()}")
        return base + "\n\n<env>\n" + "\n".join(env) + "\n</env>"
    return build_system_prompt(cwd=cwd, additional_dirs=extra, base=base)


async def run(prepared: Prepared, progress: Progress) -> Finished:
    """Run the sub-agent to its end; cancelling this cancels it (stream and tools)."""
    agent_id, spawn, ctx = prepared.agent_id, prepared.spawn, prepared.parent
    running = ctx.session.service(Running)
    running.enter(agent_id, prepared.depth)
    started = time.perf_counter()
    tool_uses = 0
    model = prepared.options.model.name
    update = SubagentUpdate(
        agent_id=agent_id,
        agent_type=spawn.agent.name,
        description=spawn.description,
        parent_tool_use_id=ctx.tool_use_id,
        model=model,
    )
    opened: OpenServers | None = None
    scope = PARENT_TOOL_USE.set(ctx.tool_use_id or None)
    try:
        opened = await _open_servers(prepared)
        options = prepared.options
        if prepared.history:
            options = dataclasses.replace(options, history=list(prepared.history))
        if opened is not None and opened.tools:
            options = dataclasses.replace(options, tools=_with(options.tools, opened.tools))
        prompt = await _start_hooks(prepared)
        prepared.transcript.message(prompt)
        progress(_replace(update, message=prompt))
        q = query(prompt, options)
        result: ResultEvent | None = None
        async with aclosing(q) as events:
            async for event in events:
                if isinstance(event, BlockEvent) and event.block.type == "tool_use":
                    tool_uses += 1
                    tool = options.tools
                    label = _label(event.block.name, event.block.input, tool)
                    update = _replace(update, tool_uses=tool_uses, current=label, message=None)
                    progress(update)
                elif isinstance(event, MessageEvent):
                    prepared.transcript.message(event.message)
                    tokens = q.usage.input_tokens + q.usage.output_tokens
                    update = _replace(update, tokens=tokens)
                    progress(_replace(update, message=event.message))
                elif isinstance(event, ToolProgressEvent) and isinstance(
                    event.data, SubagentUpdate
                ):
                    progress(event.data)  # a nested sub-agent's, under its own caller
                elif isinstance(event, ResultEvent):
                    result = event
    finally:
        PARENT_TOOL_USE.reset(scope)
        running.leave(agent_id)
        if opened is not None:
            await opened.aclose()
    return dataclasses.replace(
        _finished(prepared, result, tool_uses, started, q.usage), messages=tuple(q.messages)
    )


async def _open_servers(prepared: Prepared) -> OpenServers | None:
    """The agent file's ``mcpServers``, connected; warnings go to the log."""
    agent, servers = prepared.spawn.agent, prepared.spawn.servers
    if not agent.mcp_servers:
        return None
    if servers is None:
        log.warning("agent %s names MCP servers, but this host has no MCP", agent.name)
        return None
    opened = await servers.open(agent.mcp_servers, agent=agent.name, own_allowed=agent.trusted)
    for warning in opened.warnings:
        log.warning("%s", warning)
    return opened


def _with(pool: object, extra: Sequence[Tool[Any, Any]]) -> ToolPool:
    """``pool`` plus ``extra``'s tools it does not have (by name)."""
    from hands.pipeline.pool import ToolPool

    tools = list(pool) if isinstance(pool, ToolPool) else []
    have = {t.name for t in tools}
    return ToolPool(
        [*tools, *(t for t in extra if t.name not in have)],
        serves_unlisted=pool.serves_unlisted if isinstance(pool, ToolPool) else False,
    )


async def _start_hooks(prepared: Prepared) -> Message:
    """SubagentStart; its context goes with the prompt."""
    engine = prepared.engine
    if engine is None:
        return prepared.prompt
    outcome = await engine.subagent_start(
        prepared.parent, agent_id=prepared.agent_id, agent_type=prepared.spawn.agent.name
    )
    if not outcome.context:
        return prepared.prompt
    note = TextBlock(
        text=f"<system-reminder>\nSubagentStart hook context: {outcome.context}\n</system-reminder>"
    )
    return Message(role="user", content=(note, *prepared.prompt.content))


def _replace(update: SubagentUpdate, **changes: Any) -> SubagentUpdate:
    return dataclasses.replace(update, **changes)


def _label(name: str, data: Mapping[str, Any], tools: object) -> str:
    from hands.pipeline.pool import ToolPool

    tool = tools.find(name) if isinstance(tools, ToolPool) else None
    if tool is not None:
        try:
            return f"{tool.user_facing_name()}({tool.describe_input(tool.parse_input(data))})"
        except Exception:  # an input the tool will refuse: show the name alone
            return name
    return name


def _finished(
    prepared: Prepared, result: ResultEvent | None, tool_uses: int, started: float, usage: Usage
) -> Finished:
    agent = prepared.spawn.agent
    common: dict[str, Any] = {
        "agent_id": prepared.agent_id,
        "agent_type": agent.name,
        "tool_uses": tool_uses,
        "duration_ms": (time.perf_counter() - started) * 1000,
        "usage": usage,
        "model": prepared.options.model.name,
        "transcript_path": prepared.transcript.path,
    }
    if result is None:
        return Finished(status="interrupted", text="", error="it was stopped", **common)
    if result.subtype == "success":
        return Finished(status="completed", text=result.result, **common)
    status: Status = {
        "error_max_turns": "max_turns",
        "interrupted": "interrupted",
    }.get(result.subtype, "failed")  # type: ignore[assignment]
    return Finished(status=status, text=result.result, error=result.error, **common)
