"""``hands``: the interactive session. A prompt, the model's work rendered live, repeat.

Esc or Ctrl-C during a turn interrupts it (tools cancelled, every call settled); Ctrl-C at
a permission prompt denies the call and interrupts the turn; a second Ctrl-C in the same
turn, or two on an empty prompt, leave. Esc then Enter inserts a newline.
"""

from __future__ import annotations

import signal
from typing import TYPE_CHECKING

import anyio
from rich.console import Console
from rich.table import Table
from rich.text import Text

from hands.agent import hook_turns
from hands.agent.events import BlockEvent
from hands.agent.loop import Query, query
from hands.cli.session_setup import AgentSetup
from hands.cli.session_view import SessionView
from hands.core.context import PermissionMode, ToolContext
from hands.core.hooks import SessionEndReason
from hands.core.messages import ToolUseBlock, user_text

if TYPE_CHECKING:
    from hands.cli.repl_input import TerminalInput
    from hands.core.decision import AskRequest, PermissionDecision

_SHOWN_WAIT_S = 2.0
"""A permission prompt waits at most this long for its call to be on screen first."""

HELP = """\
/help          this help
/clear         start a fresh conversation (the transcript so far is kept)
/tools         the tools the model can use
/permissions   the permission rules in force and where they come from
/mcp           MCP servers and their state
/exit          leave (Ctrl-D works too)
Esc or Ctrl-C interrupts a turn; Esc then Enter inserts a newline."""


class Exit(Exception):
    """The user asked to leave."""


def terminal_input(setup: AgentSetup) -> TerminalInput:
    """The prompt_toolkit keyboard, with history under the hands home."""
    from hands.cli.repl_input import TerminalInput

    return TerminalInput(setup.session.home / "history")


class Repl:
    """One interactive session over an :class:`AgentSetup`."""

    def __init__(
        self,
        setup: AgentSetup,
        *,
        console: Console,
        keys: TerminalInput,
        permission_mode: PermissionMode,
    ) -> None:
        self.setup = setup
        self.console = console
        self.keys = keys
        self.mode: PermissionMode = permission_mode
        self.view = SessionView(console, setup.pool)
        self._ask_lock = anyio.Lock()
        self._turn: Query | None = None
        self._leave = False
        self._shown: dict[str, anyio.Event] = {}

    async def _watch_interrupts(self) -> None:
        # A SIGINT from outside the terminal acts as Ctrl-C; the keys themselves are read
        # by the prompt (between turns) and by the turn's key watcher.
        with anyio.open_signal_receiver(signal.SIGINT) as signals:
            async for _ in signals:
                self._ctrl_c()

    def _ctrl_c(self) -> None:
        turn = self._turn
        if turn is None:
            return
        if turn.interrupted:
            self._leave = True
        else:
            self._interrupt()

    def _interrupt(self) -> None:
        turn = self._turn
        if turn is not None and not turn.interrupted:
            self.console.print(Text("Interrupting…", style="yellow"))
            turn.interrupt()

    async def run(self) -> int:
        """Read prompts until the user leaves."""
        self.console.print(
            Text.assemble(
                ("hands", "bold"),
                f" · {self.setup.model.name} · {self.setup.cwd} · mode {self.mode}",
                ("  (/help for commands)", "dim"),
            )
        )
        code = 1
        if self.setup.resumed:
            from hands.cli.sessions_list import replay

            replay(self.console, self.setup.history)
        if self.setup.mcp_pending:
            from hands.mcp.approval import ask_about

            answers = await ask_about(
                self.setup.mcp_pending, project_dir=self.setup.cwd, ask=self._ask
            )
            self.setup.approve_mcp(answers)
        self.setup.start_background()
        await hook_turns.start_session(
            self.setup.hooks,
            self._hook_context(),
            source="resume" if self.setup.resumed else "startup",
        )
        reason: SessionEndReason = "other"
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._watch_interrupts)
            try:
                code = await self._loop()
                reason = "prompt_input_exit"
            finally:
                with anyio.CancelScope(shield=True):
                    await hook_turns.end_session(self.setup.hooks, self._hook_context(), reason)
                tg.cancel_scope.cancel()
                await self.setup.session.aclose()
        return code

    def _hook_context(self) -> ToolContext:
        ctx = self.setup.settings.context(session=self.setup.session)
        return ctx.with_changes(permission_mode=self.mode)

    async def _loop(self) -> int:
        empty_interrupts = 0
        while True:
            try:
                line = await self.keys.line("> ")
            except KeyboardInterrupt:
                empty_interrupts += 1
                if empty_interrupts >= 2:
                    return 0
                self.console.print(Text("(Ctrl-C again to leave)", style="dim"))
                continue
            except EOFError:
                return 0
            empty_interrupts = 0
            text = line.strip()
            if not text:
                continue
            try:
                if text.startswith("/"):
                    await self.command(text)
                else:
                    await self.turn(text)
            except Exit:
                return 0

    async def command(self, text: str) -> None:
        """Run a slash command."""
        name = text.split()[0].lower()
        if name in ("/exit", "/quit"):
            raise Exit
        if name == "/help":
            self.console.print(HELP)
        elif name == "/clear":
            await hook_turns.end_session(self.setup.hooks, self._hook_context(), "clear")
            self.setup.history.clear()
            await hook_turns.start_session(self.setup.hooks, self._hook_context(), source="clear")
            self.console.print(Text("Conversation cleared.", style="dim"))
        elif name == "/tools":
            table = Table("tool", "description")
            for tool in self.setup.source.current_pool():
                first = tool.description.strip().splitlines()[0] if tool.description else ""
                table.add_row(tool.name, first[:80])
            self.console.print(table)
        elif name == "/permissions":
            self._show_permissions()
        elif name == "/mcp":
            self._show_mcp()
        else:
            self.console.print(Text(f"Unknown command {name}; /help lists them.", style="red"))

    def _show_mcp(self) -> None:
        statuses = self.setup.mcp.status()
        if not statuses:
            self.console.print(Text("No MCP servers are configured for this project.", style="dim"))
            return
        table = Table("server", "state", "tools", "detail")
        for status in statuses:
            data = status.to_json()
            table.add_row(
                str(data.get("name", "")),
                str(data.get("state", "")),
                str(data.get("tool_count", data.get("tools", ""))),
                str(data.get("error") or data.get("target") or ""),
            )
        self.console.print(table)

    def _show_permissions(self) -> None:
        table = Table("behavior", "rule", "from")
        for rule in self.setup.engine.rules:
            table.add_row(str(rule.behavior), str(rule.text), str(rule.origin.label))
        self.console.print(Text(f"mode: {self.mode}"))
        self.console.print(table)

    async def turn(self, text: str) -> None:
        """Run one prompt to the end, rendering as it goes."""
        from hands.permissions.asking import PromptAskHandler

        message = user_text(text)
        handler = PromptAskHandler(
            prompt=self._ask, project_dir=self.setup.cwd, engine=self.setup.engine
        )

        async def ask(request: AskRequest) -> PermissionDecision:
            # the call (and whatever the model said before it) is on screen before the
            # question about it
            await self._until_shown(request.context.tool_use_id)
            return await handler(request)

        # the session's own start and end hooks fire once, around the whole session
        options = self.setup.options(
            permission_mode=self.mode, ask=ask, session_start=None, session_end=None
        )
        q = query(message, options)
        self.setup.record_prompt(message)
        self._turn = q
        self._shown.clear()
        self.view.begin()
        try:
            async with anyio.create_task_group() as keys:
                keys.start_soon(self._watch_keys)
                async for event in q:
                    self.setup.record(event)
                    self.view.show(event)
                    if isinstance(event, BlockEvent) and isinstance(event.block, ToolUseBlock):
                        self._shown.setdefault(event.block.id, anyio.Event()).set()
                keys.cancel_scope.cancel()
        finally:
            self._turn = None
            self.view.end()
        self.setup.history = list(q.messages)
        if self._leave:
            raise Exit

    async def _watch_keys(self) -> None:
        await self.keys.watch_turn(on_escape=self._interrupt, on_ctrl_c=self._ctrl_c)

    async def _until_shown(self, tool_use_id: str) -> None:
        if not tool_use_id:
            return
        with anyio.move_on_after(_SHOWN_WAIT_S):
            await self._shown.setdefault(tool_use_id, anyio.Event()).wait()

    async def _ask(self, text: str) -> str:
        async with self._ask_lock:
            turn = self._turn
            if turn is not None and turn.interrupted:
                return ""  # the turn is ending: every further question is a silent no
            self.view.hold()
            try:
                return await self.keys.answer(text)
            except (KeyboardInterrupt, EOFError):
                if turn is not None:
                    self._interrupt()
                return "3"
            finally:
                self.view.release()
