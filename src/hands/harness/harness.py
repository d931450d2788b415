"""One session of hands, assembled once for whichever front end opens it.

:meth:`Harness.open` reads the settings hierarchy once, makes the one trust decision,
applies the settings' ``env`` and ``defaultMode`` as the front end's options say, and
builds the permission engine, the hook engine and the session. The tool pool, the MCP
servers behind deferral and the model are built on first use, so a front end pays only
for what it uses.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hands.config.settings import CliPermissionArgs, Settings, load_settings
from hands.core.context import PermissionMode, ToolContext
from hands.core.decision import AskHandler, AskRequest, PermissionDecision, allow
from hands.core.limits import Limits
from hands.core.session import Session
from hands.core.state import kinds_of, restore, snapshots
from hands.harness.front_ends import LIBRARY, FrontEnd
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import BuiltinGrammar, ToolPool, find_builtin, pool_for
from hands.pipeline.runtime import ToolRuntime
from hands.pipeline.settings import install_settings

if TYPE_CHECKING:
    from hands.agent.compaction.settings import CompactionSettings
    from hands.agent.loop import Query, QueryOptions
    from hands.config.project_trust import Ask, TrustVerdict
    from hands.core.decision import PermissionPolicy
    from hands.core.hooks import ToolHooks
    from hands.core.messages import Message, ToolUseBlock
    from hands.core.outcome import ToolCallOutcome
    from hands.core.tool import Progress, Tool
    from hands.discovery.deferral import DeferringSource
    from hands.hooks.callbacks import HookCallbacks
    from hands.mcp.config import McpConfigSet, McpServerConfig
    from hands.mcp.manager import McpManager
    from hands.models.base import Model

ServerApproval = Callable[["McpServerConfig"], "bool | None"]


def _hook_engine(
    hooks: ToolHooks | HookCallbacks | None,
    settings: Settings,
    notice: Callable[[str], None],
    *,
    allow_defer: bool,
) -> ToolHooks | None:
    """The session's hooks: the settings' with any Python callbacks, or ``hooks`` itself."""
    callbacks: HookCallbacks | None = None
    if hooks is not None:  # the hooks package is loaded only when there are hooks
        from hands.hooks.callbacks import HookCallbacks

        if not isinstance(hooks, HookCallbacks):
            return hooks
        callbacks = hooks
    if callbacks is None and not settings.hooks:  # the engine loads only when there are hooks
        return None
    from hands.hooks.engine import build_hooks

    return build_hooks(settings, callbacks=callbacks, on_notice=notice, allow_defer=allow_defer)


async def _explicit(request: AskRequest) -> PermissionDecision:
    # The user typed this exact call on the command line: that is the approval.
    # Deny rules and plan mode still refuse it before it gets here.
    return allow("invoked explicitly from the command line")


def _plugin_servers(settings: Settings) -> dict[str, object]:
    """The MCP servers of the plugins that load."""
    return {name: entry for p in settings.plugins for name, entry in p.mcp_servers().items()}


class Harness:
    """Settings, trust, rules, hooks, tools, MCP, model and session of one session.

    Open it with :meth:`open`; close it with :meth:`aclose` (or ``async with``).
    """

    def __init__(
        self,
        *,
        cwd: Path,
        front_end: FrontEnd,
        settings: Settings,
        policy: PermissionPolicy,
        hooks: ToolHooks | None,
        limits: Limits,
        session: Session,
        mode: PermissionMode,
        ask: AskHandler | None,
        model: str | Model | None,
        extra_tools: Sequence[Tool[Any, Any]],
        base_tools: Sequence[Tool[Any, Any]] | None,
        only_tools: Sequence[str] | None,
        mcp: Mapping[str, object],
        simple: bool,
        on_notice: Callable[[str], None],
    ) -> None:
        self.cwd = cwd
        self.front_end = front_end
        self.settings = settings
        self.policy = policy
        self.hooks = hooks
        self.limits = limits
        self.session = session
        self.mode: PermissionMode = mode
        self.ask = ask
        self.simple = simple
        self.extra_tools = tuple(extra_tools)
        self.base_tools = None if base_tools is None else tuple(base_tools)
        self.only_tools = None if only_tools is None else tuple(only_tools)
        self.mcp_servers = dict(mcp)
        """Servers named by the caller (``--mcp-config``): they need no approval."""
        self.on_notice = on_notice
        self._model_spec = model
        self._context: ToolContext | None = None
        self._mcp: tuple[McpManager, DeferringSource, McpConfigSet] | None = None
        self._started = False

    @classmethod
    def open(
        cls,
        cwd: Path | str | None = None,
        *,
        settings_sources: Settings | CliPermissionArgs | None = None,
        trust: bool = False,
        ask_trust: Ask | None = None,
        mode: PermissionMode | None = None,
        model: str | Model | None = None,
        mcp: Mapping[str, object] | None = None,
        hooks: ToolHooks | HookCallbacks | None = None,
        ask: AskHandler | None = None,
        extra_tools: Sequence[Tool[Any, Any]] = (),
        base_tools: Sequence[Tool[Any, Any]] | None = None,
        only_tools: Sequence[str] | None = None,
        front_end: FrontEnd = LIBRARY,
        policy: PermissionPolicy | None = None,
        limits: Limits | None = None,
        session: Session | None = None,
        simple: bool = False,
        on_notice: Callable[[str], None] | None = None,
    ) -> Harness:
        """Open a session in ``cwd`` (default: the current directory).

        ``settings_sources``: settings already loaded, or the command line's own sources
        to merge with the settings files; ``None``: the settings files alone.
        ``trust``: trust the folder for this session (``--trust``); otherwise the session's
        one trust decision (:func:`~hands.config.project_trust.decide_trust`) follows the
        trusted-workspaces file and, where the front end may ask, ``ask_trust``; an
        untrusted folder's ignored items are named through ``on_notice``. Settings
        already loaded carry the trust decision their loader took.
        ``mode``: the permission mode; ``None``: the settings' ``defaultMode`` where
        the front end applies it. ``model``: a model or a spec (``anthropic:NAME``);
        ``None``: the settings' or the environment's. ``mcp``: more MCP servers
        (``name → entry``), which need no approval. ``hooks``: Python hooks
        (:class:`~hands.hooks.callbacks.HookCallbacks`) that run beside the settings'
        hooks, or a hook engine that replaces them; ``policy`` replaces the settings'
        rules. ``ask``: answers the calls the engine asks about.
        ``extra_tools`` join the built-ins; ``base_tools`` replace them; ``only_tools``:
        the names the pool keeps (``--tools``).
        """
        root = Path(cwd if cwd is not None else Path.cwd()).absolute()
        notice = on_notice or _stderr(front_end.name)
        verdict: TrustVerdict | None = None
        if isinstance(settings_sources, Settings):
            settings = settings_sources
        else:
            verdict = _decide_trust(root, trust, ask_trust if front_end.may_ask_trust else None)
            if ask_trust is None or not front_end.may_ask_trust or verdict.reason == "declined":
                for note in verdict.notes():
                    notice(note)
            settings = load_settings(root, cli=settings_sources, trusted=verdict.trusted)
        if front_end.applies_env:
            settings.apply_env()  # before anything reads the environment
        limits = limits if limits is not None else Limits.from_env()
        if policy is None:
            from hands.permissions.policy import engine_for

            policy = engine_for(settings, grammar=BuiltinGrammar())
        engine = _hook_engine(hooks, settings, notice, allow_defer=not front_end.interactive)
        if session is None:
            session = Session()
        install_settings(session, settings)
        if ask is None and front_end.asks == "command_line":
            ask = _explicit
        return cls(
            cwd=root,
            front_end=front_end,
            settings=settings,
            policy=policy,
            hooks=engine,
            limits=limits,
            session=session,
            mode=mode or (settings.default_mode if front_end.applies_default_mode else "default"),
            ask=ask,
            model=model,
            extra_tools=extra_tools,
            base_tools=base_tools,
            only_tools=only_tools,
            mcp={**_plugin_servers(settings), **(mcp or {})},
            simple=simple or limits.simple,
            on_notice=notice,
        )

    # -- the model -------------------------------------------------------------------

    @cached_property
    def model(self) -> Model:
        """The model, resolved on first use (the settings' ``model`` when none is named)."""
        from hands.models.resolve import resolve_model, settings_model_note

        spec = self._model_spec
        if spec is not None and not isinstance(spec, str):
            return spec
        configured = self.settings.value("model")
        named = configured if isinstance(configured, str) else None
        model = resolve_model(spec, settings_model=named)
        note = settings_model_note(configured, model) if spec is None else None
        if note is not None:
            self.on_notice(note)
        return model

    @cached_property
    def compaction(self) -> CompactionSettings:
        """The context window and when to compact (settings and environment)."""
        from hands.agent.compaction.settings import CompactionSettings

        return CompactionSettings.from_env(setting=self.settings.value)

    @property
    def window(self) -> int:
        """The model's context window, as compaction, deferral and sub-agents see it."""
        return self.compaction.window_for(self.model)

    def model_if_any(self) -> Model | None:
        """The model, or None when none is named or configured.

        A session that only runs calls, such as a library's, needs none.
        """
        from hands.errors import ConfigError

        try:
            return self.model
        except ConfigError:
            return None

    def window_if_any(self) -> int | None:
        """:attr:`window`, or the configured window when there is no model (None: unset)."""
        model = self.model_if_any()
        if model is None:
            return self.compaction.window_tokens
        return self.compaction.window_for(model)

    # -- the tools -------------------------------------------------------------------

    @cached_property
    def pool(self) -> ToolPool:
        """The built-in tools (with Agent where the front end runs the loop) and extras."""
        extra: list[Tool[Any, Any]] = list(self.extra_tools)
        if self.front_end.delegates and not self.simple:
            extra.extend(self._delegation())
        pool = pool_for(
            self.policy, base=self.base_tools, simple=self.simple, extra=extra, only=self.only_tools
        )
        self.session.register_states(kinds_of(pool))
        return pool

    def pool_for_tool(self, name: str) -> ToolPool:
        """A pool with only the built-in ``name`` (a fast start for one call), or the pool."""
        entry = find_builtin(name)
        if entry is not None and (not self.simple or entry.tool_class().simple_mode):
            pool = pool_for(self.policy, base=[entry.load()])
            self.session.register_states(kinds_of(pool))
            return pool
        return self.pool

    def _delegation(self) -> tuple[Tool[Any, Any], ...]:
        from hands.agent.subagents.setup import delegation_tools

        found = delegation_tools(
            cwd=self.cwd,
            settings=self.settings.value,
            trusted=self.settings.trusted,
            window_tokens=self.window_if_any(),
            plugins=self.settings.plugins,
        )
        for warning in found.warnings:
            self.on_notice(f"warning: {warning}")
        return tuple(found.tools)

    @property
    def source(self) -> DeferringSource | ToolPool:
        """The tools for the model: with MCP servers (deferred when large) where used."""
        if self.front_end.project_servers == "off" and not self.mcp_servers:
            return self.pool
        return self._mcp_parts()[1]

    @property
    def mcp(self) -> McpManager | None:
        """The MCP servers (not started until :meth:`start`), or None when not used."""
        if self.front_end.project_servers == "off" and not self.mcp_servers:
            return None
        return self._mcp_parts()[0]

    @property
    def mcp_config(self) -> McpConfigSet | None:
        """What the MCP configuration files gave (servers, warnings, awaiting approval)."""
        return None if self.mcp is None else self._mcp_parts()[2]

    def approve_servers(self, answers: Mapping[str, bool]) -> None:
        """Rebuild the MCP servers with the user's answers about project servers."""
        from hands.mcp.config import approval_from_settings

        decided = approval_from_settings(self.settings.value, trusted=self.settings.trusted)

        def approve(server: McpServerConfig) -> bool | None:
            return answers.get(server.name, decided(server))

        self._mcp = self._build_mcp(approve)

    def _mcp_parts(self) -> tuple[McpManager, DeferringSource, McpConfigSet]:
        if self._mcp is None:
            from hands.mcp.config import approval_from_settings, approval_without_asking

            value, trusted = self.settings.value, self.settings.trusted
            approve: ServerApproval = (
                approval_from_settings(value, trusted=trusted)
                if self.front_end.project_servers == "ask"
                else approval_without_asking(value, trusted=trusted)
            )
            self._mcp = self._build_mcp(approve)
        return self._mcp

    def _build_mcp(
        self, approve: ServerApproval
    ) -> tuple[McpManager, DeferringSource, McpConfigSet]:
        from hands.harness.servers import deferred_servers

        return deferred_servers(self, approve)

    def start(self) -> None:
        """Start the MCP servers in the background; they close with the session.

        Call it inside the running event loop, before the first query (:meth:`query`
        calls it). A second call does nothing.
        """
        if self._started:
            return
        self._started = True
        from hands.harness.servers import start_servers

        start_servers(self)

    def tool_names(self) -> list[str]:
        """Every tool of the session, deferred ones included."""
        source = self.source
        if isinstance(source, ToolPool):
            return list(source.names)
        names = list(source.current_pool().names)
        names.extend(t.name for t in source.deferred_tools() if t.name not in names)
        return names

    def current_pool(self) -> ToolPool:
        """The tools offered now (MCP servers may have connected, ToolSearch found more)."""
        source = self.source
        return source if isinstance(source, ToolPool) else source.current_pool()

    # -- session state ---------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The saved kinds of session state (read-state, todos), by key, as JSON data."""
        return snapshots(self.session)

    def restore(self, data: Mapping[str, Any]) -> list[str]:
        """Restore an earlier session's states (by key); the keys restored.

        The kinds are those the tools of the pools built so far keep.
        """
        return restore(self.session, data)

    # -- calls -----------------------------------------------------------------------

    @property
    def context(self) -> ToolContext:
        """The context of the next call (a call may change it: plan mode, cwd)."""
        if self._context is None:
            self._context = ToolContext(
                cwd=self.cwd,
                session=self.session,
                project_dir=self.cwd,
                permission_mode=self.mode,
                additional_dirs=self.settings.additional_directories,
            )
        return self._context

    @context.setter
    def context(self, value: ToolContext) -> None:
        self._context = value

    def runtime(
        self, *, tools: ToolPool | None = None, ask: AskHandler | None = None
    ) -> ToolRuntime:
        """How calls run: the pool, the engine, who answers asks, the hooks, the limits."""
        return ToolRuntime(
            tools=tools if tools is not None else self.current_pool(),
            policy=self.policy,
            ask=ask if ask is not None else self.ask,
            hooks=self.hooks,
            limits=self.limits,
        )

    async def run_tool_use(
        self,
        block: ToolUseBlock,
        *,
        progress: Progress | None = None,
        runtime: ToolRuntime | None = None,
    ) -> ToolCallOutcome:
        """Run one call through the whole pipeline; its context change carries on."""
        outcome = await run_tool_use(
            block,
            self.context,
            runtime if runtime is not None else self.runtime(),
            progress if progress is not None else _ignore,
        )
        if outcome.context_modifier is not None:
            self.context = outcome.context_modifier(self.context)
        return outcome

    # -- the agent loop --------------------------------------------------------------

    def query_options(self, **overrides: Any) -> QueryOptions:
        """Options for :func:`hands.query` over this session; ``overrides`` replace fields."""
        from hands.agent.loop import QueryOptions

        options = QueryOptions(
            model=self.model,
            tools=self.source,
            cwd=self.cwd,
            permission_mode=self.mode,
            additional_dirs=self.settings.additional_directories,
            policy=self.policy,
            ask=self.ask,
            hooks=self.hooks,
            limits=self.limits,
            session=self.session,
            compaction=self.compaction,
        )
        return dataclasses.replace(options, **overrides) if overrides else options

    def query(
        self, prompt: str | Message, *, history: Sequence[Message] = (), **overrides: Any
    ) -> Query:
        """Run the agent loop on ``prompt`` in this session; iterate it for events.

        Call it inside the running event loop: the MCP servers start with the first query.
        """
        from hands.agent.loop import query

        self.start()
        return query(prompt, self.query_options(history=list(history), **overrides))

    # -- the end ---------------------------------------------------------------------

    async def aclose(self) -> None:
        """End the session: stop MCP servers and background work, remove temporary files."""
        await self.session.aclose()

    async def __aenter__(self) -> Harness:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def _decide_trust(cwd: Path, explicit: bool, ask: Ask | None) -> TrustVerdict:
    from hands.config.project_trust import decide_trust

    return decide_trust(cwd, explicit=explicit, ask=ask)


def _stderr(name: str) -> Callable[[str], None]:
    def notice(text: str) -> None:
        print(f"{name}: {text}", file=sys.stderr)  # stdout may carry a protocol

    return notice


def _ignore(data: Any) -> None:
    return None


__all__ = ["Harness", "ServerApproval"]
