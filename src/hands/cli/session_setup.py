"""Everything a CLI session needs, built once from the command line and settings."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from hands.agent.system_prompt import DEFAULT_SYSTEM_PROMPT, build_system_prompt
from hands.agent.transcript import TranscriptWriter, find, load, project_dir
from hands.cli import startup
from hands.config.settings import CliPermissionArgs, Settings
from hands.core.context import PermissionMode
from hands.core.limits import Limits
from hands.core.messages import Message
from hands.core.session import Session
from hands.core.tool import Tool
from hands.core.words import plural
from hands.harness import PRINT, REPL, Harness
from hands.harness.servers import started_without_asking
from hands.models.base import Model
from hands.pipeline.pool import ToolPool

if TYPE_CHECKING:  # the loop's modules load after a kept first request has gone out
    from hands.agent.compaction import CompactOutcome
    from hands.agent.compaction.settings import CompactionSettings
    from hands.agent.events import QueryEvent
    from hands.agent.options import QueryOptions
    from hands.config.output_styles import OutputStyle
    from hands.config.project_trust import Ask
    from hands.core.decision import AskHandler
    from hands.core.hooks import SessionEndReason, SessionStartSource
    from hands.discovery.deferral import DeferringSource
    from hands.hooks.engine import HookEngine
    from hands.mcp.config import McpServerConfig
    from hands.mcp.manager import McpManager
    from hands.permissions.engine import PermissionEngine


@dataclass(kw_only=True)
class AgentSetup:
    """A CLI session: its harness, with the system prompt, history and transcript."""

    harness: Harness
    engine: PermissionEngine
    system_prompt: str
    writer: TranscriptWriter
    mcp_warnings: tuple[str, ...] = ()
    resumed: bool = False
    """The conversation continues an earlier session (--continue / --resume)."""
    mcp_pending: tuple[McpServerConfig, ...] = ()
    """Project servers nobody approved yet (the interactive session asks about them)."""
    hooks: HookEngine | None = None
    history: list[Message] = field(default_factory=lambda: list[Message]())
    saved: dict[str, Any] = field(default_factory=lambda: dict[str, Any]())
    """Each state as last written to the transcript."""
    output_style: str | None = None
    """The output style's name when it is not the default one (the loop reminds of it)."""

    @property
    def model(self) -> Model:
        """The model every request goes to (``/model`` changes it)."""
        return self.harness.model

    @model.setter
    def model(self, model: Model) -> None:
        self.harness.model = model

    @property
    def settings(self) -> Settings:
        """Every settings source, merged."""
        return self.harness.settings

    @property
    def pool(self) -> ToolPool:
        """The built-in tools (and Agent)."""
        return self.harness.pool

    @property
    def session(self) -> Session:
        """The session every call shares."""
        return self.harness.session

    @property
    def cwd(self) -> Path:
        """The project directory."""
        return self.harness.cwd

    @property
    def limits(self) -> Limits:
        """Caps on parallelism, time and result size."""
        return self.harness.limits

    @property
    def compaction(self) -> CompactionSettings:
        """The context window and when to compact (settings and environment)."""
        return self.harness.compaction

    @property
    def mcp(self) -> McpManager:
        """The session's MCP servers."""
        manager = self.harness.mcp
        assert manager is not None  # the CLI's front ends read the project's servers
        return manager

    @property
    def source(self) -> DeferringSource:
        """Built-ins and MCP tools, with large tool sets deferred behind ToolSearch."""
        source = self.harness.source
        assert not isinstance(source, ToolPool)
        return source

    def approve_mcp(self, answers: dict[str, bool]) -> None:
        """Rebuild the MCP servers with the user's answers about project servers."""
        self.harness.approve_servers(answers)
        config = self.harness.mcp_config
        self.mcp_pending = tuple(config.needs_approval) if config is not None else ()

    def start_background(self) -> None:
        """Connect MCP servers in the background; they close with the session.

        Call it inside the running event loop, before the first query.
        """
        self.harness.start()

    def tool_names(self) -> list[str]:
        """Every tool of the session, deferred ones included (stream-json's init line)."""
        return self.harness.tool_names()

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
        from hands.agent.options import QueryOptions

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
            output_style=self.output_style,
        )

    def start_over(self) -> str:
        """A new conversation under a new session id (``/clear``); the earlier id.

        The earlier transcript stays as it is, for ``--resume``. The new one is written
        from the next message on, so a session cleared and left at once leaves none and
        ``--continue`` finds the earlier conversation, as Claude Code's does.
        """
        from hands.pipeline.checkpoints import CheckpointStore

        earlier = self.session.renew()
        self.session.forget(CheckpointStore)  # the new id's checkpoints, from its turns
        self.history.clear()
        self.saved.clear()  # the states are written again to the new transcript
        self.writer = TranscriptWriter(
            self.writer.path.with_name(f"{self.session.id}.jsonl"),
            session_id=self.session.id,
            cwd=self.writer.cwd,
        )
        if self.hooks is not None:
            self.hooks.transcript_path = str(self.writer.path)
        return earlier

    def record(self, event: QueryEvent, *, uuids: Sequence[str] = ()) -> None:
        """Write messages to the transcript as they are appended, with state after results.

        A compaction is a boundary: the transcript then goes on from its messages.
        ``uuids``: the ids a program was shown for the message.
        """
        from hands.agent.events import CompactionEvent, MessageEvent

        if isinstance(event, CompactionEvent):
            self.record_compaction(event.outcome)
            return
        if not isinstance(event, MessageEvent):
            return
        self.writer.message(event.message, uuids=uuids)
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

    def record_prompt(self, message: Message, *, uuids: Sequence[str] = ()) -> None:
        """The user's prompt opens each turn in the transcript."""
        self.writer.message(message, uuids=uuids)

    def _save_read_state(self) -> None:
        """Write each state of the session that changed since it was last written."""
        for key, data in self.harness.snapshot().items():
            if self.saved.get(key) != data:
                self.writer.state(key, data)
                self.saved[key] = data


def prepare(
    *,
    model_spec: str | None,
    cwd: Path,
    settings: Settings | CliPermissionArgs,
    simple: bool = False,
    system_prompt: str | None = None,
    append_system_prompt: str = "",
    mcp_servers: dict[str, object] | None = None,
    resume: str | None = None,
    continue_last: bool = False,
    interactive: bool = False,
    trust: bool = False,
    ask_trust: Ask | None = None,
    only_tools: Sequence[str] | None = None,
    extra_tools: Sequence[Tool[Any, Any]] = (),
    new_session_id: str | None = None,
    first_prompt: str | None = None,
) -> AgentSetup:
    """Open the session's harness; ``resume``/``continue_last`` restore an earlier one.

    ``settings``: loaded, or the command line's sources (then the harness takes the one
    trust decision: ``trust`` is ``--trust``, ``ask_trust`` the REPL's question).
    ``system_prompt`` replaces hands' own prompt (memory files and the environment are
    still added); ``mcp_servers`` adds servers (``name → entry``) that need no approval.
    ``only_tools``: the names the pool keeps (``--tools``); ``extra_tools`` join it;
    ``new_session_id``: the id of the session (a resumed conversation forks into it).
    ``first_prompt``: the ``-p`` prompt, whose first request may go out from the kept
    tool list while the tools load (:mod:`hands.cli.first_request`).

    In an untrusted workspace no project MCP server connects. In a trusted one they
    connect without asking in print mode, except those the user refused
    (``disabledMcpjsonServers``); interactively they need the approval the settings
    give (``enabledMcpjsonServers`` and friends).
    """
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
    harness = Harness.open(
        cwd,
        settings_sources=settings,
        trust=trust,
        ask_trust=ask_trust,
        model=model_spec,
        mcp=mcp_servers,
        front_end=REPL if interactive else PRINT,
        session=Session(session_id=new_session_id or session_id, home=probe.home),
        simple=simple,
        extra_tools=extra_tools,
        only_tools=only_tools,
    )
    session = harness.session
    from hands.config.output_styles import is_default

    style, style_notes = _output_style(harness.settings, cwd)
    built: list[str] = []

    def system() -> str:  # built once, when first needed (it waits for git's answer)
        if not built:
            built.append(
                build_system_prompt(
                    cwd=cwd,
                    additional_dirs=harness.settings.additional_directories,
                    append=append_system_prompt,
                    base=DEFAULT_SYSTEM_PROMPT if system_prompt is None else system_prompt,
                    style=style,
                )
            )
        return built[0]

    if first_prompt is not None and resume is None and not continue_last:
        from hands.cli.first_request import first_request_model

        first = first_request_model(
            harness,
            prompt=first_prompt,
            system=system,
            model_spec=model_spec,
            choices={
                "simple": simple,
                "only_tools": None if only_tools is None else list(only_tools),
                "extra_tools": [t.name for t in extra_tools],
                "mcp_servers": mcp_servers,
                "interactive": interactive,
            },
        )
        if first is not None:
            harness.model = first
    _ = harness.pool  # its tools register the kinds of state they keep
    harness.restore(states)
    writer = TranscriptWriter(
        project_dir(session.home, cwd) / f"{session.id}.jsonl", session_id=session.id, cwd=cwd
    )
    prompt = system()
    hooks: HookEngine | None = None
    if harness.hooks is not None:  # the hook engine is loaded only when there are hooks
        from hands.hooks.engine import HookEngine

        assert isinstance(harness.hooks, HookEngine)  # built from the settings
        hooks = harness.hooks
        hooks.transcript_path = str(writer.path)
    from hands.permissions.engine import PermissionEngine

    engine = harness.policy
    assert isinstance(engine, PermissionEngine)  # built from the settings
    mcp_config = harness.mcp_config
    assert mcp_config is not None
    startup.done()  # every model is built: tools run in the user's own environment
    warnings = list(mcp_config.warnings)
    warnings.extend(style_notes)
    warnings.extend(started_without_asking(harness))
    return AgentSetup(
        harness=harness,
        hooks=hooks,
        engine=engine,
        mcp_warnings=tuple(warnings),
        mcp_pending=tuple(mcp_config.needs_approval),
        system_prompt=prompt,
        writer=writer,
        history=history,
        resumed=resume is not None or continue_last,
        output_style=None if is_default(style) else style.name,
    )


def _output_style(settings: Settings, cwd: Path) -> tuple[OutputStyle, list[str]]:
    """The output style the settings choose, and notes about unusable style files."""
    from hands.config.output_styles import chosen_style, load_styles
    from hands.core.limits import hands_home

    catalog = load_styles(
        project=cwd, home=settings.home, hands_home=hands_home(), trusted=settings.trusted
    )
    style, problem = chosen_style(catalog, settings.value("outputStyle"))
    return style, [*catalog.warnings, *([problem] if problem else [])]
