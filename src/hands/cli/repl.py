"""``hands``: the interactive session. A prompt, the model's work rendered live, repeat.

Esc or Ctrl-C during a turn interrupts it (tools cancelled, every call settled); Esc or
Ctrl-C at a permission prompt denies the call and interrupts the turn; a second Ctrl-C in
the same turn, or two on an empty prompt, leave. The keys of the input line are in
``repl_input`` (newlines, pastes, what is typed during a turn); the mode bar under it is
``repl_mode_bar``.
"""

from __future__ import annotations

import signal
from typing import TYPE_CHECKING

import anyio
from rich.console import Console
from rich.table import Column, Table
from rich.text import Text

from hands.agent import hook_turns
from hands.agent.events import BlockEvent
from hands.agent.loop import Query, query
from hands.cli.repl_commands import ALIASES, COMMANDS, help_text
from hands.cli.repl_hangup import hangups, watch_hangup
from hands.cli.repl_mode_bar import cycle_mode, mode_now, under_turn
from hands.cli.repl_mode_bar import install as install_mode_bar
from hands.cli.repl_slash import find as find_slash
from hands.cli.repl_status_line import install as install_status_line
from hands.cli.session_setup import AgentSetup
from hands.cli.session_view import SessionView
from hands.core.context import PermissionMode, ToolContext
from hands.core.hooks import SessionEndReason
from hands.core.inbox import Inbox, notice_fields
from hands.core.messages import Message, TextBlock, ToolUseBlock
from hands.mcp.elicitation import ElicitationAnswer, ElicitationRequest
from hands.models.base import Usage
from hands.models.ledger import UsageLedger
from hands.tools.planning.ask_user_question import AskUserQuestionInput

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from hands.cli.repl_input import TerminalInput
    from hands.core.decision import AskRequest, PermissionDecision
    from hands.mcp.sampling import SamplingRequest

_SHOWN_WAIT_S = 2.0
"""A permission prompt waits at most this long for its call to be on screen first."""


class Exit(Exception):
    """The user asked to leave."""


def terminal_input(setup: AgentSetup) -> TerminalInput:
    """The prompt_toolkit keyboard, with history under the hands home and completion."""
    from hands.cli.custom_commands import session_commands, session_skill_names
    from hands.cli.repl_completion import PromptCompleter
    from hands.cli.repl_input import TerminalInput

    commands = session_commands(setup)
    own = [f"/{c.name}" for c in commands.commands]
    skills = [f"/{n}" for n in session_skill_names(setup, besides=commands)]
    names = list(dict.fromkeys([*COMMANDS, *ALIASES, *own, *skills]))
    return TerminalInput(setup.session.home / "history", PromptCompleter(names, setup.cwd))


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
        self.bypass_in_cycle = permission_mode == "bypassPermissions"
        self.usage = Usage()
        self.ledger = UsageLedger()
        self.prompts = 0
        self.context_tokens: int | None = None
        """The conversation's size after the last turn, as the provider counted it."""
        self.resume_to: str | None = None
        """The session ``/resume`` picked: the command restarts on it when the REPL ends."""
        self._kept: list[TextBlock] = []
        """What ``!command`` runs printed, sent with the next prompt."""
        self._shell_scope: anyio.CancelScope | None = None
        self._shells = 0
        keys.on_shift_tab = lambda: cycle_mode(self)
        self.view = SessionView(console, setup.pool)
        from hands.cli.todo_panel import TodoPanel

        self.view.footer = TodoPanel.for_project(setup.session, setup.cwd)
        self.view.under = lambda: under_turn(mode_now(self), keys.typeahead.render())
        self._queued: str | None = None
        """Prompts typed while the last turn ran, to send now."""
        self._ask_lock = anyio.Lock()
        self._turn: Query | None = None
        self._leave = False
        self._shown: dict[str, anyio.Event] = {}
        from hands.cli.custom_commands import session_commands

        self._prefill = ""
        """Text to put in the next input line (a rewound prompt)."""
        self.custom = session_commands(setup)
        """The custom slash commands (the user's, and the project's when trusted)."""

    async def _watch_interrupts(self) -> None:
        # A SIGINT from outside the terminal acts as Ctrl-C; the keys themselves are read
        # by the prompt (between turns) and by the turn's key watcher.
        with anyio.open_signal_receiver(signal.SIGINT) as signals:
            async for _ in signals:
                self._ctrl_c()

    def _ctrl_c(self) -> None:
        if self._shell_scope is not None:
            self._shell_scope.cancel()
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
        for warning in self.custom.warnings:
            self.console.print(Text(f"hands: warning: {warning}", style="yellow"))
        install_status_line(self)
        install_mode_bar(self)  # over the status line
        if self.setup.resumed:
            from hands.cli.sessions_list import replay

            replay(self.console, self.setup.history)
        if self.setup.mcp_pending:
            from hands.mcp.approval import ask_about

            answers = await ask_about(
                self.setup.mcp_pending, project_dir=self.setup.cwd, ask=self._ask
            )
            self.setup.approve_mcp(answers)
        self._answer_mcp_requests()
        self.setup.start_background()
        await hook_turns.start_session(
            self.setup.hooks,
            self._hook_context(),
            source="resume" if self.setup.resumed else "startup",
        )
        reason: SessionEndReason = "other"
        hung_up: list[int] = []
        with hangups() as signals:  # caught until the session has closed
            async with anyio.create_task_group() as tg:
                tg.start_soon(self._watch_interrupts)
                tg.start_soon(self._watch_notices)
                tg.start_soon(self._watch_schedule)
                tg.start_soon(watch_hangup, signals, tg.cancel_scope, hung_up)
                try:
                    code = await self._loop()
                    reason = "prompt_input_exit"
                finally:
                    # also after the terminal went away: background shells and agents end
                    # with the session instead of outliving it
                    with anyio.CancelScope(shield=True):
                        try:
                            await hook_turns.end_session(
                                self.setup.hooks, self._hook_context(), reason
                            )
                        finally:  # a hook that fails (or a terminal gone) closes nothing less
                            tg.cancel_scope.cancel()
                            await self.setup.session.aclose()
        return 128 + hung_up[0] if hung_up else code

    def _answer_mcp_requests(self) -> None:
        """Servers' elicitation and sampling requests are put to the user here."""
        from hands.mcp.elicitation import HookElicitation, with_hooks
        from hands.mcp.sampling import model_sampler

        hooks = self.setup.hooks
        asking = HookElicitation(hooks, self._hook_context()) if hooks is not None else None
        self.setup.mcp.elicit = with_hooks(asking, self._elicit)
        self.setup.mcp.sample = model_sampler(lambda: self.setup.model, self._approve_sample)

    async def _elicit(self, request: ElicitationRequest) -> ElicitationAnswer:
        from hands.cli.repl_elicitation import answer_elicitation
        from hands.cli.repl_questions import choose

        async with self._ask_lock:
            self.view.hold()
            try:
                return await answer_elicitation(request, self.console, choose, self.keys.answer)
            except (KeyboardInterrupt, EOFError):
                return ElicitationAnswer(action="cancel")
            finally:
                self.view.release()

    async def _approve_sample(self, request: SamplingRequest) -> bool:
        said = await self._ask(
            f"The MCP server {request.server} asks the model for a reply of at most "
            f"{request.max_tokens} tokens, with this prompt:\n{request.prompt_text()}\n"
            "Let the model answer? (y/n) "
        )
        return said.strip().lower() in ("y", "yes")

    def _hook_context(self) -> ToolContext:
        ctx = self.setup.settings.context(session=self.setup.session)
        return ctx.with_changes(permission_mode=self.mode)

    async def _loop(self) -> int:
        empty_interrupts = 0
        while True:
            try:
                line, self._queued = self._queued or "", None
                if line:  # typed while the last turn ran: shown as if typed now
                    self.console.print(Text(f"> {line}"), markup=False, highlight=False)
                else:
                    line = await self.keys.line("> ", default=self._prefill)
                    self._prefill = ""
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
                await self._notices_turn()
                continue
            try:
                if text.startswith("/"):
                    await self.command(text)
                elif text.startswith("!"):
                    await self.shell(text[1:].strip())
                else:
                    await self.turn(text)
            except Exit:
                return 0
            except Exception as exc:  # whatever went wrong is said, and the session goes on
                self.view.end()
                self.console.print(Text(f"hands: {type(exc).__name__}: {exc}", style="red"))

    async def _watch_notices(self) -> None:
        """Wake the idle prompt when background work ends.

        A notice that arrives while the prompt waits, empty, ends the prompt, so that the
        model hears of it at once.
        """
        inbox = self.setup.session.service(Inbox)
        while True:
            await inbox.wait(None)
            if self._turn is None:
                self.keys.wake()
            await anyio.sleep(0.2)  # the notices wait for a turn, or for the typed line

    async def _watch_schedule(self) -> None:
        """Each scheduled prompt (CronCreate, ScheduleWakeup) waits with the notices when due.

        The idle prompt wakes for it as for a notice, and it runs as the next turn.
        """
        from hands.tools.schedule.jobs import Schedule

        schedule = Schedule.of(self.setup.session)
        trusted = self.setup.harness.settings.trusted
        problem = schedule.open_project(self.setup.cwd, trusted=trusted)
        if problem:
            self.console.print(Text(problem, style="yellow"))
        inbox = self.setup.session.service(Inbox)
        while True:
            for job in await schedule.wait_due():
                inbox.deliver(None, job.prompt)

    async def _notices_turn(self) -> None:
        """A turn for the notices waiting, if any (none: nothing happens)."""
        notices = self.setup.session.service(Inbox).take(None)
        if not notices:
            return
        for fields in notice_fields("\n\n".join(notices)):
            said = fields.get("summary") or f"background task {fields.get('task_id')} ended"
            self.console.print(Text(f"  ⎿ {said}", style="dim"))
        await self.turn("\n\n".join(notices), typed=False)

    @property
    def running(self) -> Query | None:
        """The turn under way, if any."""
        return self._turn

    async def command(self, text: str) -> None:
        """Run a slash command."""
        name, _, arg = text.partition(" ")
        arg = arg.strip()
        if name.startswith("/mcp__"):  # an MCP prompt: its text is the next turn
            await self._mcp_prompt(name[1:], arg)
            return
        name = ALIASES.get(name.lower(), name.lower())
        if (slash := find_slash(name)) is not None and await slash(self, arg):
            return
        if name == "/exit":
            raise Exit
        if name == "/model":
            self._model(arg)
            return
        if name == "/compact":
            await self._compact(arg)
            return
        if name == "/mcp" and arg:
            from hands.cli.repl_mcp_auth import mcp_auth_command

            await mcp_auth_command(self.console, self.setup.mcp, arg)
            return
        action = self._commands().get(name)
        if action is None:
            if not await self._custom(text):
                self.console.print(Text(f"Unknown command {name}; /help lists them.", style="red"))
            return
        done = action()
        if done is not None:
            await done

    def _commands(self) -> dict[str, Callable[[], Awaitable[None] | None]]:
        """The slash commands without an argument, by name."""
        return {
            "/help": self._help,
            "/cost": self._cost,
            "/status": self._status,
            "/config": self._config,
            "/clear": self._clear,
            "/tools": self._tools,
            "/resume": self._resume,
            "/rewind": self._rewind,
            "/init": self._init,
            "/memory": self._memory,
            "/permissions": self._show_permissions,
            "/mcp": self._show_mcp,
        }

    def _help(self) -> None:
        from hands.cli.custom_commands import command_lines, session_skill_names

        self.console.print(help_text(), markup=False, highlight=False)
        lines = command_lines(self.custom)
        skills = session_skill_names(self.setup, besides=self.custom)
        lines += [f"/{name}  (skill)" for name in skills]
        if lines:
            self.console.print(Text("\nCustom commands and skills:", style="bold"))
            self.console.print("\n".join(lines), markup=False, highlight=False)

    async def _custom(self, text: str) -> bool:
        """Run ``/name args`` as a custom command or skill; False when none has the name."""
        from hands.cli.custom_commands import expand_typed
        from hands.permissions.asking import PromptAskHandler

        handler = PromptAskHandler(
            prompt=self._ask, project_dir=self.setup.cwd, engine=self.setup.engine
        )
        self.view.begin()
        try:
            expansion = await expand_typed(
                text,
                setup=self.setup,
                commands=self.custom,
                ctx=self._hook_context(),
                ask=handler,
                show=self.view.show,
            )
        finally:
            self.view.end()
        if expansion is None:
            return False
        if expansion.model is None:
            await self.turn(expansion.text)
            return True
        from hands.errors import ConfigError
        from hands.models.facts import facts_of
        from hands.models.resolve import resolve_model

        current = self.setup.model
        try:
            self.setup.model = resolve_model(expansion.model, provider=facts_of(current).provider)
        except (ConfigError, OSError, ValueError) as exc:
            self.console.print(
                Text(f"The command's model {expansion.model!r} cannot be used: {exc}", style="red")
            )
            return True
        try:
            await self.turn(expansion.text)
        finally:
            self.setup.model = current
        return True

    async def _compact(self, instructions: str) -> None:
        """``/compact [instructions]``: summarise the conversation now."""
        from hands.agent.compaction import compact_conversation
        from hands.agent.compaction.compactor import describe

        if not self.setup.history:
            self.console.print(Text("There is no conversation to compact yet.", style="dim"))
            return
        self.console.print(Text("Compacting the conversation…", style="dim"))
        outcome = await compact_conversation(
            self.setup.history,
            model=self.setup.model,
            ctx=self._hook_context(),
            system=self.setup.system_prompt,
            tools=self.setup.source.current_pool().specs(),
            hooks=self.setup.hooks,
            settings=self.setup.compaction,
            trigger="manual",
            instructions=instructions,
        )
        failed = outcome.status in ("failed", "blocked")
        self.console.print(Text(describe(outcome), style="yellow" if failed else "green"))
        if outcome.changed:
            self.setup.history = list(outcome.messages)
            self.setup.record_compaction(outcome)
            self.context_tokens = outcome.tokens_after

    def _cost(self) -> None:
        from hands.cli.repl_status import cost_text

        self.console.print(cost_text(self.usage, self.ledger, self.prompts))
        if self.context_tokens is not None:
            from hands.agent.compaction import CompactionSettings

            settings = self.setup.compaction or CompactionSettings()
            window = settings.window_for(self.setup.model)
            share = 100 * self.context_tokens / window
            self.console.print(
                f"context: ~{self.context_tokens:,} of {window:,} tokens ({share:.0f}%); "
                f"compacts at {settings.percent:g}%",
                markup=False,
                highlight=False,
            )

    def _status(self) -> None:
        from hands.cli.repl_status import status_table

        self.console.print(status_table(self.setup, self.mode))

    def _config(self) -> None:
        from hands.cli.repl_status import config_table

        self.console.print(config_table(self.setup.settings))

    async def _clear(self) -> None:
        await hook_turns.end_session(self.setup.hooks, self._hook_context(), "clear")
        earlier = self.setup.start_over()
        self.context_tokens = None
        await hook_turns.start_session(self.setup.hooks, self._hook_context(), source="clear")
        self.console.print(
            Text(
                f"Conversation cleared: a new session {self.setup.session.id} starts "
                f"(the earlier one stays: hands -r {earlier}).",
                style="dim",
            )
        )

    def _tools(self) -> None:
        table = Table("tool", "description")
        for tool in self.setup.source.current_pool():
            first = tool.description.strip().splitlines()[0] if tool.description else ""
            table.add_row(tool.name, first[:80])
        self.console.print(table)

    async def _resume(self) -> None:
        """Pick an earlier session of this project; the REPL restarts on it."""
        from hands.cli.sessions_list import describe, summaries
        from hands.core.limits import hands_home

        found = [
            s
            for s in summaries(hands_home(), self.setup.cwd)
            if s.session_id != self.setup.session.id
        ][:20]
        if not found:
            self.console.print(Text("No earlier session in this project to resume.", style="dim"))
            return
        for number, summary in enumerate(found, start=1):
            self.console.print(f"{number:>3}. {describe(summary)}", markup=False, highlight=False)
        answer = (
            await self._ask(f"Resume which session (1-{len(found)}, Enter for none)? ")
        ).strip()
        if not answer.isdigit() or not 1 <= int(answer) <= len(found):
            self.console.print(Text("Staying in this session.", style="dim"))
            return
        self.resume_to = found[int(answer) - 1].session_id
        raise Exit

    async def _rewind(self) -> None:
        from hands.cli.repl_rewind import rewind

        prompt = await rewind(self.setup, self.console, self._ask)
        if prompt is not None:
            self._prefill = prompt
            self.context_tokens = None

    async def _init(self) -> None:
        from hands.cli.repl_init import init_target, starter_instructions

        target = init_target(self.setup.cwd)
        if target.exists():
            answer = await self._ask(f"{target} exists. Replace it with a starter file? [y/N] ")
            if answer.strip().lower() not in ("y", "yes"):
                self.console.print(Text(f"{target.name} left as it was.", style="dim"))
                return
        text = starter_instructions(self.setup.cwd)
        try:
            target.write_text(text, encoding="utf-8")
        except OSError as exc:
            self.console.print(Text(f"hands: cannot write {target}: {exc.strerror}", style="red"))
            return
        self.console.print(
            Text(f"Wrote {target} ({text.count(chr(10))} lines); edit it to taste.", style="dim")
        )

    async def _memory(self) -> None:
        """List the instruction files; open the one picked in the user's editor."""
        from hands.cli.repl_memory import memory_choices, open_in_editor

        files = memory_choices(self.setup.cwd)
        if not any(f.size is not None for f in files):
            self.console.print(Text("No instruction files are in use.", style="dim"))
        for number, f in enumerate(files, start=1):
            size = "new" if f.size is None else f"{f.size:,} characters"
            line = f"{number:>3}. {f.where:<8} {f.path} ({size})"
            self.console.print(line, markup=False, highlight=False)
        self.console.print(Text("They are read at the start of each session.", style="dim"))
        answer = (await self._ask(f"Edit which file (1-{len(files)}, Enter for none)? ")).strip()
        if not answer.isdigit() or not 1 <= int(answer) <= len(files):
            return
        await open_in_editor(self.console, files[int(answer) - 1].path)

    def _model(self, arg: str) -> None:
        if not arg:
            self.console.print(f"model: {self.setup.model.name}", markup=False, highlight=False)
            self.console.print(
                Text(
                    "/model NAME switches: an alias (sonnet, opus, haiku, opusplan, "
                    "sonnet[1m]), a model id, or PROVIDER:NAME",
                    style="dim",
                )
            )
            return
        from hands.errors import ConfigError
        from hands.models.facts import facts_of
        from hands.models.resolve import resolve_model

        provider = facts_of(self.setup.model).provider
        try:
            model = resolve_model(arg, provider=provider)
        except (ConfigError, OSError, ValueError) as exc:
            self.console.print(Text(f"The model stays {self.setup.model.name}: {exc}", style="red"))
            return
        self.setup.model = model
        self.console.print(Text(f"Now using {model.name}.", style="green"))

    async def _mcp_prompt(self, command: str, arg: str) -> None:
        from hands.errors import ToolError

        try:
            messages = await self.setup.mcp.get_prompt(command, arg)
        except ToolError as exc:
            self.console.print(Text(str(exc), style="red"))
            return
        await self.turn("\n\n".join(m.text for m in messages))

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
        for prompt in self.setup.mcp.prompts():
            self.console.print(Text(f"{prompt.usage()}  {prompt.description}".rstrip()))

    def _show_permissions(self) -> None:
        table = Table("behavior", "rule", Column("from", overflow="fold"))
        for rule in self.setup.engine.rules:
            table.add_row(str(rule.behavior), str(rule.text), str(rule.origin.label))
        self.console.print(Text(f"mode: {self.mode}"))
        self.console.print(table)

    async def turn(self, text: str, *, typed: bool = True) -> None:
        """Run one prompt to the end, rendering as it goes.

        ``typed``: the user typed it, so its @-mentions are attached.
        """
        from hands.cli.mentions import attachments
        from hands.cli.plan_question import ask_plan_approval, is_plan_approval
        from hands.permissions.asking import PromptAskHandler

        attached, notes = attachments(text, self.setup.cwd) if typed else ([], [])
        for note in notes:
            self.console.print(Text(f"  ⎿ {note}", style="dim"))
        kept, self._kept = self._kept, []
        message = Message(role="user", content=(*kept, TextBlock(text=text), *attached))
        handler = PromptAskHandler(
            prompt=self._ask, project_dir=self.setup.cwd, engine=self.setup.engine
        )

        async def ask(request: AskRequest) -> PermissionDecision:
            # the call (and whatever the model said before it) is on screen before the
            # question about it; a sub-agent's calls are shown only as its progress
            if request.context.agent_id is None:
                await self._until_shown(request.context.tool_use_id)
            if isinstance(request.input, AskUserQuestionInput):
                return await self._questions(request)
            if is_plan_approval(request):
                return await ask_plan_approval(request, self._ask)
            return await handler(request)

        # the session's own start and end hooks fire once, around the whole session
        # background work that ends is heard of between prompts, not waited for
        options = self.setup.options(
            permission_mode=self.mode,
            ask=ask,
            session_start=None,
            session_end=None,
            wait_for_background=False,
        )
        q = query(message, options)
        inbox = self.setup.session.service(Inbox)
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
                    if not q.interrupted:  # what was queued meanwhile goes with the results
                        self.keys.typeahead.pass_on(event, inbox, self.console)
                keys.cancel_scope.cancel()
        finally:
            self._turn = None
            self.view.end()
            after = self.keys.typeahead.end_turn(interrupted=q.interrupted, inbox=inbox)
            self._queued, self._prefill = after.prompt, after.line or self._prefill
        self.setup.history = list(q.messages)
        self.mode = q.permission_mode  # EnterPlanMode / ExitPlanMode switch it
        self.context_tokens = q.context_tokens
        self._count(q)
        if self._leave:
            raise Exit

    async def shell(self, command: str) -> None:
        """Run ``!command`` through the Bash tool; its output goes with the next prompt."""
        if not command:
            self.console.print(Text("Type a shell command after the !", style="dim"))
            return
        from hands.cli.repl_shell import run_shell
        from hands.permissions.asking import PromptAskHandler

        handler = PromptAskHandler(
            prompt=self._ask, project_dir=self.setup.cwd, engine=self.setup.engine
        )
        self._shells += 1
        self.view.begin()
        try:
            with anyio.CancelScope() as scope:
                self._shell_scope = scope
                kept = await run_shell(
                    command,
                    setup=self.setup,
                    view=self.view,
                    ctx=self._hook_context(),
                    ask=handler,
                    number=self._shells,
                )
                self._kept.append(kept)
        finally:
            self._shell_scope = None
            self.view.end()
        if scope.cancelled_caught:
            self.console.print(Text("Interrupted; nothing is kept.", style="yellow"))

    def _count(self, q: Query) -> None:
        self.prompts += 1
        self.usage = self.usage + q.usage
        self.ledger.merge(q.ledger.by_model)

    async def _watch_keys(self) -> None:
        await self.keys.watch_turn(on_escape=self._interrupt, on_ctrl_c=self._ctrl_c)

    async def _until_shown(self, tool_use_id: str) -> None:
        if not tool_use_id:
            return
        with anyio.move_on_after(_SHOWN_WAIT_S):
            await self._shown.setdefault(tool_use_id, anyio.Event()).wait()

    async def _questions(self, request: AskRequest) -> PermissionDecision:
        """AskUserQuestion: each question a list to pick from; Ctrl-C declines them all."""
        from hands.cli.repl_questions import answer_questions, choose
        from hands.tools.planning.ask_user_question import answered

        assert isinstance(request.input, AskUserQuestionInput)
        async with self._ask_lock:
            self.view.hold()
            try:
                answers = await answer_questions(
                    request.input.questions, self.console, choose, self.keys.answer
                )
            except (KeyboardInterrupt, EOFError):
                answers = None
            finally:
                self.view.release()
        return answered(request, answers)

    async def _ask(self, text: str) -> str:
        async with self._ask_lock:
            turn = self._turn
            if turn is not None and turn.interrupted:
                return ""  # the turn is ending: every further question is a silent no
            self.view.hold()
            # the question goes to the screen through rich, which wraps every line at the
            # terminal's width (a prompt line is cut at the edge); only its last line
            # prompts. One taller than the screen is shown in a scrollable view first.
            from hands.cli.repl_pager import VIEW_AGAIN, show_question

            body, _, last = text.rpartition("\n")
            try:
                folded = bool(body) and await show_question(self.console, body)
                while (answer := await self.keys.answer(last)).strip().lower() == VIEW_AGAIN:
                    if not folded:
                        break
                    await show_question(self.console, body)
                return answer
            except (KeyboardInterrupt, EOFError):  # Ctrl-C or Esc: a no, and the turn stops
                if turn is None:
                    return ""
                self._interrupt()
                return "n"
            finally:
                self.view.release()
