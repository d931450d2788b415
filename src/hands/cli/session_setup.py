"""Everything a CLI session needs, built once from the command line and settings."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from hands.agent.compaction.settings import CompactionSettings
from hands.agent.events import CompactionEvent, MessageEvent, QueryEvent
from hands.agent.loop import QueryOptions
from hands.agent.system_prompt import DEFAULT_SYSTEM_PROMPT, build_system_prompt
from hands.agent.transcript import TranscriptWriter, find, load, project_dir
from hands.cli import startup
from hands.config.settings import Settings
from hands.core.context import PermissionMode, ToolContext
from hands.core.limits import Limits
from hands.core.messages import Message
from hands.core.session import Session
from hands.core.tool import Tool
from hands.core.words import plural
from hands.models.base import Model
from hands.models.resolve import resolve_model
from hands.pipeline.pool import BuiltinGrammar, ToolPool, pool_for

if TYPE_CHECKING:
    from hands.agent.compaction import CompactOutcome
    from hands.core.decision import AskHandler
    from hands.core.hooks import SessionEndReason, SessionStartSource
    from hands.discovery.deferral import DeferringSource
    from hands.hooks.engine import HookEngine
    from hands.mcp.config import McpConfigSet, McpServerConfig
    from hands.mcp.manager import McpManager
    from hands.permissions.engine import PermissionEngine

READ_STATE = "read_state"
TODOS = "todos"


@dataclass(kw_only=True)
class AgentSetup:
    """Model, tools, policy, session, system prompt, history and transcript of a session."""

    model: Model
    settings: Settings
    engine: PermissionEngine
    pool: ToolPool
    session: Session
    cwd: Path
    system_prompt: str
    limits: Limits
    writer: TranscriptWriter
    mcp: McpManager
    source: DeferringSource
    """Built-ins and MCP tools, with large tool sets deferred behind ToolSearch."""
    mcp_warnings: tuple[str, ...] = ()
    resumed: bool = False
    """The conversation continues an earlier session (--continue / --resume)."""
    mcp_pending: tuple[McpServerConfig, ...] = ()
    """Project servers nobody approved yet (the interactive session asks about them)."""
    hooks: HookEngine | None = None
    history: list[Message] = field(default_factory=lambda: list[Message]())
    mcp_extra: dict[str, object] = field(default_factory=lambda: dict[str, object]())
    """Servers from ``--mcp-config``."""
    todos_saved: int = 0
    """The version of the todo list last written to the transcript."""
    compaction: CompactionSettings | None = None
    """The context window and when to compact (settings and environment)."""

    def approve_mcp(self, answers: dict[str, bool]) -> None:
        """Rebuild the MCP manager with the user's answers about project servers."""
        from hands.mcp.config import approval_from_settings

        decided = approval_from_settings(self.settings.value, trusted=self.settings.trusted)

        def approve(server: McpServerConfig) -> bool | None:
            return answers.get(server.name, decided(server))

        self.mcp, self.source, config = _mcp(
            cwd=self.cwd,
            pool=self.pool,
            engine=self.engine,
            model=self.model,
            approve=approve,
            settings=self.settings,
            extra=self.mcp_extra,
        )
        self.mcp_pending = tuple(config.needs_approval)

    def start_background(self) -> None:
        """Connect MCP servers in the background; they close with the session.

        Call it inside the running event loop, before the first query.
        """
        self.mcp.roots = (self.cwd, *self.settings.additional_directories)
        if self.mcp.connections:  # without a server, nobody elicits or samples
            self._answer_servers()
        self.mcp.start(lazy=self.source.active).attach(self.session)

    def _answer_servers(self) -> None:
        """Elicitation through the hooks, and sampling only for auto-approved servers."""
        from hands.mcp.elicitation import HookElicitation, decline_unless_hooked
        from hands.mcp.sampling import decline_all, model_sampler

        if self.hooks is not None and self.mcp.elicit is None:
            ctx = ToolContext(cwd=self.cwd, session=self.session, project_dir=self.cwd)
            self.mcp.elicit = decline_unless_hooked(HookElicitation(self.hooks, ctx))
        if self.mcp.sample is None:  # nobody to ask: only auto-approved servers are served
            self.mcp.sample = model_sampler(lambda: self.model, decline_all)
            self.mcp.sample_can_ask = False

    def tool_names(self) -> list[str]:
        """Every tool of the session, deferred ones included (stream-json's init line)."""
        names = list(self.source.current_pool().names)
        names.extend(t.name for t in self.source.deferred_tools() if t.name not in names)
        return names

    def options(
        self,
        *,
        permission_mode: PermissionMode,
        max_turns: int | None = None,
        ask: AskHandler | None = None,
        session_start: SessionStartSource | Literal["auto"] | None = "auto",
        session_end: SessionEndReason | None = "other",
        wait_for_background: bool = True,
    ) -> QueryOptions:
        """Options for the next query, continuing the conversation so far."""
        return QueryOptions(
            model=self.model,
            tools=self.source,
            cwd=self.cwd,
            system_prompt=self.system_prompt,
            permission_mode=permission_mode,
            additional_dirs=self.settings.additional_directories,
            policy=self.engine,
            ask=ask,
            hooks=self.hooks,
            max_turns=max_turns,
            limits=self.limits,
            session=self.session,
            history=list(self.history),
            session_start=session_start,
            session_end=session_end,
            compaction=self.compaction,
            wait_for_background=wait_for_background,
        )

    def record(self, event: QueryEvent) -> None:
        """Write messages to the transcript as they are appended, with state after results.

        A compaction is a boundary: the transcript then goes on from its messages.
        """
        if isinstance(event, CompactionEvent):
            self.record_compaction(event.outcome)
            return
        if not isinstance(event, MessageEvent):
            return
        self.writer.message(event.message)
        if event.message.role == "user":
            self._save_read_state()

    def record_compaction(self, outcome: CompactOutcome) -> None:
        """A compaction that rewrote the conversation is a boundary in the transcript."""
        if outcome.changed:
            self.writer.boundary(
                outcome.messages,
                trigger=outcome.trigger,
                tokens_before=outcome.tokens_before,
                method=outcome.method,
                left_out=outcome.left_out,
            )
            self._save_read_state()

    def record_prompt(self, message: Message) -> None:
        """The user's prompt opens each turn in the transcript."""
        self.writer.message(message)

    def _save_read_state(self) -> None:
        from hands.tools.file._state import ReadStateCache
        from hands.tools.planning._todos import TodoList

        self.writer.state(READ_STATE, self.session.service(ReadStateCache).snapshot())
        todos = self.session.service(TodoList)
        if todos.version != self.todos_saved:  # the list is written when it changed
            self.writer.state(TODOS, todos.snapshot())
            self.todos_saved = todos.version


def prepare(
    *,
    model_spec: str | None,
    cwd: Path,
    settings: Settings,
    simple: bool = False,
    system_prompt: str | None = None,
    append_system_prompt: str = "",
    mcp_servers: dict[str, object] | None = None,
    resume: str | None = None,
    continue_last: bool = False,
    interactive: bool = False,
    only_tools: Sequence[str] | None = None,
    extra_tools: Sequence[Tool[Any, Any]] = (),
    new_session_id: str | None = None,
) -> AgentSetup:
    """Build the session; ``resume``/``continue_last`` restore an earlier one.

    ``system_prompt`` replaces hands' own prompt (memory files and the environment are
    still added); ``mcp_servers`` adds servers (``name → entry``) that need no approval.

    ``only_tools``: the names the pool keeps (``--tools``); ``extra_tools`` join it;
    ``new_session_id``: the id of the session (a resumed conversation forks into it).

    In an untrusted workspace no project MCP server connects. In a trusted one they
    connect without asking in print mode, except those the user refused
    (``disabledMcpjsonServers``); interactively they need the approval the settings
    give (``enabledMcpjsonServers`` and friends).
    """
    from hands.mcp.config import approval_from_settings, approval_without_asking

    settings.apply_env()  # the settings' env block, before anything reads the environment
    from hands.models.resolve import settings_model_note

    configured = settings.value("model")
    named = configured if isinstance(configured, str) else None
    model = resolve_model(model_spec, settings_model=named)
    note = settings_model_note(configured) if model_spec is None else None
    if note is not None and model.name.startswith("anthropic:"):
        print(f"hands: {note}", file=sys.stderr)
    limits = Limits.from_env()
    from hands.permissions.policy import engine_for

    engine = engine_for(settings, grammar=BuiltinGrammar())
    simple = simple or limits.simple
    compaction = CompactionSettings.from_env(setting=settings.value)
    window = compaction.window_for(model.name)
    pool = pool_for(
        engine,
        simple=simple,
        extra=(*_delegation(cwd, settings, simple, window), *extra_tools),
        only=only_tools,
    )
    history: list[Message] = []
    session_id: str | None = None
    states: dict[str, Any] = {}
    probe = Session()
    if resume is not None or continue_last:
        earlier = load(find(probe.home, cwd, session_id=resume))
        if earlier.skipped:
            print(
                f"hands: warning: {plural(earlier.skipped, 'line')} of {earlier.path} could "
                "not be read and were left out of the resumed conversation",
                file=sys.stderr,
            )
        history, session_id, states = (
            list(earlier.messages),
            earlier.session_id,
            dict(earlier.states),
        )
    session = Session(session_id=new_session_id or session_id, home=probe.home)
    from hands.pipeline.settings import install_settings

    install_settings(session, settings)
    if READ_STATE in states:
        from hands.tools.file._state import ReadStateCache

        session.service(ReadStateCache).restore(states[READ_STATE])
    if TODOS in states:
        from hands.tools.planning._todos import TodoList

        session.service(TodoList).restore(states[TODOS])
    writer = TranscriptWriter(
        project_dir(session.home, cwd) / f"{session.id}.jsonl", session_id=session.id, cwd=cwd
    )
    prompt = build_system_prompt(
        cwd=cwd,
        additional_dirs=settings.additional_directories,
        append=append_system_prompt,
        base=DEFAULT_SYSTEM_PROMPT if system_prompt is None else system_prompt,
    )
    hooks: HookEngine | None = None
    if settings.hooks:  # the hook engine is loaded only when some settings file has hooks
        from hands.hooks.engine import build_hooks

        hooks = build_hooks(
            settings,
            on_notice=lambda text: print(f"hands: {text}", file=sys.stderr),
            allow_defer=not interactive,
        )
    if hooks is not None:
        hooks.transcript_path = str(writer.path)
    manager, source, mcp_config = _mcp(
        cwd=cwd,
        pool=pool,
        engine=engine,
        model=model,
        approve=(
            approval_from_settings(settings.value, trusted=settings.trusted)
            if interactive
            else approval_without_asking(settings.value, trusted=settings.trusted)
        ),
        settings=settings,
        extra=mcp_servers or {},
    )
    startup.done()  # every model is built: tools run in the user's own environment
    warnings = list(mcp_config.warnings)
    if not interactive:
        warnings.extend(_started_without_asking(mcp_config, settings))
    setup = AgentSetup(
        hooks=hooks,
        mcp=manager,
        source=source,
        mcp_warnings=tuple(warnings),
        mcp_pending=tuple(mcp_config.needs_approval),
        model=model,
        settings=settings,
        engine=engine,
        pool=pool,
        session=session,
        cwd=cwd,
        system_prompt=prompt,
        limits=limits,
        writer=writer,
        history=history,
        mcp_extra=mcp_servers or {},
        resumed=resume is not None or continue_last,
        compaction=compaction,
    )
    _agents_get_mcp(setup)
    return setup


def _agents_get_mcp(setup: AgentSetup) -> None:
    """Let agent files' ``mcpServers`` reach the session's servers (and start their own)."""
    from hands.agent.subagents.tool import AgentTool
    from hands.mcp.agent_servers import AgentMcpServers
    from hands.mcp.server_policy import ServerPolicy

    tool = setup.pool.find("Agent")
    if isinstance(tool, AgentTool):
        tool.servers = AgentMcpServers(
            lambda: setup.mcp,
            cwd=setup.cwd,
            blocked=ServerPolicy.from_settings(setup.settings.value).blocked,
        )


def _delegation(cwd: Path, settings: Settings, simple: bool, window: int) -> tuple[Any, ...]:
    """Agent (and its agent files' warnings, said once), unless in simple mode."""
    if simple:
        return ()
    from hands.agent.subagents.setup import delegation_tools

    found = delegation_tools(
        cwd=cwd, settings=settings.value, trusted=settings.trusted, window_tokens=window
    )
    for warning in found.warnings:
        print(f"hands: warning: {warning}", file=sys.stderr)
    return found.tools


def _started_without_asking(config: McpConfigSet, settings: Settings) -> list[str]:
    """A note for each project server print mode starts that nobody approved."""
    from hands.mcp.config import approval_from_settings

    if not settings.trusted:
        return []
    decided = approval_from_settings(settings.value, trusted=True)
    return [
        f"print mode starts the project MCP server {s.name!r} ({s.source}) without asking, "
        "as Claude Code does; add it to disabledMcpjsonServers in "
        ".claude/settings.local.json to keep it off"
        for s in config.servers
        if s.scope == "project" and decided(s) is None
    ]


def _mcp(
    *,
    cwd: Path,
    pool: ToolPool,
    engine: PermissionEngine,
    model: Model,
    approve: Any,
    settings: Settings,
    extra: dict[str, object],
) -> tuple[McpManager, DeferringSource, McpConfigSet]:
    """The project's MCP servers (not started) behind a deferring tool source."""
    from hands.mcp.lazy import build_deferred_mcp
    from hands.mcp.server_policy import ServerPolicy

    return build_deferred_mcp(
        cwd,
        base=pool,
        policy=engine,
        model=model.name,
        provider=model.name.partition(":")[0],
        approve_project=approve,
        blocked=ServerPolicy.from_settings(settings.value).blocked,
        extra=extra,
    )
