"""One SDK session: stdin read as it comes, control requests answered, turns run in order.

User messages queue up and run one after another in one conversation; control requests
(an interrupt, a mode change, a status question) are answered while a turn runs; the
answers to hands' own requests (permission questions, hook callbacks, MCP messages) go
back to the waiting call. A line that is not usable becomes an error ``result`` naming
it, and the session goes on. Stdin closing ends the session once its turns are done.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any, Literal, TypeAlias, cast

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from hands.agent.events import BlockEvent, MessageEvent, ResultEvent
from hands.agent.hook_turns import end_session
from hands.agent.loop import Query, query
from hands.cli.output import stream_json_lines
from hands.cli.sdk import control
from hands.cli.sdk.channel import ControlChannel
from hands.cli.sdk.messages import (
    InitFacts,
    Partials,
    ResultFacts,
    error_result,
    init_line,
    stamp,
)
from hands.cli.sdk.messages import result_line as build_result
from hands.cli.sdk.model_choice import Thinking, spawn_thinking
from hands.cli.sdk.resume_at import ShownIds
from hands.cli.sdk.rewind import Prompt, PromptCheckpoints, replay_line
from hands.cli.sdk.structured import StructuredOutputTool
from hands.cli.sdk.tap import ModelTally, TappedModel
from hands.cli.sdk.tasks import TaskLines
from hands.cli.sdk.wake import Wake, ceiling_seconds, drain, watch
from hands.cli.session_setup import AgentSetup
from hands.core.agent_scope import PARENT_TOOL_USE
from hands.core.context import PermissionMode, ToolContext
from hands.core.inbox import Inbox
from hands.core.messages import Message, ToolResultBlock, message_from_wire, user_text
from hands.core.outcome import ToolCallOutcome
from hands.core.task_feed import TaskFeed
from hands.mcp.status import ServerStatus
from hands.models.base import Effort, MessageStart, StreamEvent
from hands.models.facts import facts_of
from hands.orchestration.events import ToolResultEvent


def _new_id() -> str:
    return str(uuid.uuid4())


STRUCTURED_RETRIES = 2
"""How often the model is reminded to call StructuredOutput before the turn fails."""


@dataclass(frozen=True, kw_only=True, slots=True)
class InputProblem:
    """A line of input hands could not use."""

    text: str


_Item: TypeAlias = "Prompt | InputProblem | Wake"
"""What the turn queue holds: a prompt, a line hands could not use, or a wake-up."""


@dataclass(kw_only=True)
class SdkOptions:
    """What the command line decided for the session."""

    permission_mode: PermissionMode
    max_turns: int | None = None
    max_budget_usd: float | None = None
    ask_sdk: bool = False
    """``--permission-prompt-tool stdio``: questions go to the SDK's can_use_tool."""
    allow_bypass: bool = False
    partial_messages: bool = False
    structured: StructuredOutputTool | None = None
    resolve_model: Callable[[str | None], Any] | None = None
    """Builds the model ``set_model`` names (``None``: the session's first model)."""
    hands_version: str = ""
    hook_events: bool = False
    """``--include-hook-events``: a hook_started and a hook_response line per hook run."""
    report_state: bool = False
    """Send ``session_state_changed`` (running, idle) around each turn, as the SDK asks
    with ``CLAUDE_CODE_SDK_READS_SESSION_STATE``."""
    replay_user_messages: bool = False
    """``--replay-user-messages``: each prompt is sent back with its ``uuid``."""
    file_checkpointing: bool = False
    """The program's ``enable_file_checkpointing``: files are recorded for ``rewind_files``."""
    effort: Effort | None = None
    """``--effort``: asked for on every request (sub-agents inherit it)."""
    betas: tuple[str, ...] = ()
    """``--betas``: named in every request's ``anthropic-beta`` header (sub-agents' too)."""
    managed_in_initialize: bool = False
    """The policy settings came in ``initialize`` (``--managed-settings-in-initialize``)."""


@dataclass(kw_only=True)
class _TurnState:
    denials: list[dict[str, Any]] = field(default_factory=lambda: list[dict[str, Any]]())
    over_budget: bool = False


class SdkSession:
    """The session an SDK program drives over stdin and stdout."""

    def __init__(self, setup: AgentSetup, options: SdkOptions, channel: ControlChannel) -> None:
        self.setup = setup
        self.options = options
        self.channel = channel
        self.mode: PermissionMode = options.permission_mode
        self.tally = ModelTally()
        self._first_model = setup.model
        self._spawn_thinking: Thinking = spawn_thinking(setup.model)
        self.setup.model = TappedModel(setup.model, self.tally, self._on_model_event)
        self._current: Query | None = None
        self._first_turn = True
        self._interrupted = False
        self._switched_off: set[str] = set()
        self._message_id = ""
        self._partials: Partials | None = None
        if options.partial_messages:
            self._partials = Partials(session_id=setup.session.id, model=setup.model.name)
        self._inbox: MemoryObjectSendStream[_Item] | None = None
        self.checkpoints = PromptCheckpoints(
            session=setup.session, enabled=options.file_checkpointing
        )
        self.failures = 0
        self.last_error = False
        self.context_tokens: int | None = None
        self.notes: list[str] = []
        self._input_ended = False
        self._reported_state = ""
        self._thinking_asked: tuple[Thinking | Literal["unset"], str | None] = ("unset", "keep")
        """What ``set_max_thinking_tokens`` asked for (``"unset"``, ``"keep"``: nothing);
        a model chosen later with ``set_model`` takes it too."""
        self.tasks = TaskLines(session_id=setup.session.id, send=lambda obj: self.send(stamp(obj)))
        setup.session.service(TaskFeed).listen(self.tasks.change)

    # -- output ------------------------------------------------------------------------

    def send(self, obj: dict[str, Any]) -> None:
        """Write one message line."""
        self.channel.send(obj)

    def _on_model_event(self, event: StreamEvent) -> None:
        if PARENT_TOOL_USE.get() is not None:
            return  # a sub-agent's stream: Claude Code sends no partials of it either
        if isinstance(event, MessageStart):
            self._message_id = event.id or f"msg_{uuid.uuid4().hex[:24]}"
        if self._partials is not None:
            for line in self._partials.lines(event):
                self.send(line)

    # -- the session -------------------------------------------------------------------

    async def run(self, stdin: IO[bytes], *, first_line: bytes = b"") -> int:
        """Serve until stdin closes and the queued turns are done; the exit code.

        ``first_line``: a line already read from ``stdin`` (the SDK's ``initialize``).
        """
        send, receive = anyio.create_memory_object_stream[_Item](1000)
        self._inbox = send
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._read, stdin, send, tg, first_line)
            tg.start_soon(self._scheduled, send)
            tg.start_soon(watch, self.setup.session.service(Inbox), send)
            try:
                await self._turns(receive)
                await drain(self._inbox_of_notices, self._notices_turn, limit=ceiling_seconds())
                self._state("idle")
            finally:
                ctx = ToolContext(cwd=self.setup.cwd, session=self.setup.session)
                with anyio.CancelScope(shield=True):
                    await end_session(self.setup.hooks, ctx, "other")
                    await self.setup.session.aclose()
                tg.cancel_scope.cancel()
        return 1 if self.last_error else 0

    async def _read(
        self,
        stdin: IO[bytes],
        inbox: MemoryObjectSendStream[_Item],
        tg: anyio.abc.TaskGroup,
        first_line: bytes,
    ) -> None:
        number = 0
        try:
            while True:
                raw = first_line if number == 0 and first_line else None
                if raw is None:
                    raw = await anyio.to_thread.run_sync(stdin.readline, abandon_on_cancel=True)
                if not raw:
                    return
                number += 1
                item = self._route(raw.decode("utf-8", errors="replace"), number, tg)
                if item is not None:
                    try:
                        await inbox.send(item)
                    except anyio.ClosedResourceError:
                        pass  # end_session: input after it is read and dropped
        finally:
            self._input_ended = True
            self.channel.close()
            inbox.close()

    async def _scheduled(self, inbox: MemoryObjectSendStream[_Item]) -> None:
        """Queue each scheduled prompt (CronCreate, ScheduleWakeup) when its time comes.

        It runs as the next user turn, announced by a ``scheduled_prompt`` system line;
        once the input has ended nothing more is queued (the jobs stay saved).
        """
        from hands.core.messages import user_text
        from hands.tools.schedule.jobs import Schedule

        schedule = Schedule.of(self.setup.session)
        trusted = self.setup.harness.settings.trusted
        problem = schedule.open_project(self.setup.cwd, trusted=trusted)
        if problem:
            print(f"hands: {problem}", file=sys.stderr)
        while True:
            for job in await schedule.wait_due():
                if inbox._closed:  # pyright: ignore[reportPrivateUsage]
                    return
                self.send(
                    {
                        "type": "system",
                        "subtype": "scheduled_prompt",
                        "job_id": job.id,
                        "kind": job.kind,
                        "prompt": job.prompt,
                        "session_id": self.setup.session.id,
                    }
                )
                try:
                    await inbox.send(Prompt(message=user_text(job.prompt), uuid=_new_id()))
                except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                    return

    def _route(self, line: str, number: int, tg: anyio.abc.TaskGroup) -> _Item | None:
        """A user message or a problem for the turn queue; control lines are handled here."""
        if not line.strip():
            return None
        try:
            data: object = json.loads(line)
        except json.JSONDecodeError as exc:
            return InputProblem(text=f"input line {number} is not valid JSON: {exc.msg}")
        if not isinstance(data, dict):
            return InputProblem(text=f"input line {number} is not a JSON object")
        entry = cast(dict[str, Any], data)
        kind = entry.get("type")
        if kind == "control_response":
            self.channel.resolve(entry)
            return None
        if kind == "control_request":
            tg.start_soon(control.answer, self, entry)
            return None
        if kind in ("control_cancel_request", "keep_alive"):
            return None
        if kind == "update_environment_variables":
            variables = entry.get("variables")
            if isinstance(variables, dict):
                import os

                items = cast(dict[object, object], variables).items()
                os.environ.update({str(k): str(v) for k, v in items})
            return None
        if kind != "user":
            return InputProblem(
                text=f"input line {number} has type {kind!r}; expected user, control_request "
                "or control_response"
            )
        try:
            message = message_from_wire(entry["message"])
        except (KeyError, TypeError, ValueError) as exc:
            return InputProblem(text=f"input line {number} has no usable user message: {exc}")
        if message.role != "user":
            return InputProblem(text=f"input line {number}: the message's role must be user")
        given = entry.get("uuid")  # a prompt keeps the uuid the program gave it
        return Prompt(
            message=message,
            uuid=given if isinstance(given, str) and given else _new_id(),
            wire=cast(dict[str, Any], entry["message"]),
        )

    async def _turns(self, receive: MemoryObjectReceiveStream[_Item]) -> None:
        async with receive:
            async for item in receive:
                if isinstance(item, InputProblem):
                    print(f"hands: {item.text}", file=sys.stderr)
                    self.send(error_result(item.text, session_id=self.setup.session.id))
                    self.last_error = True
                    continue
                if isinstance(item, Wake):
                    try:
                        await self._notices_turn()
                    finally:
                        item.done.set()
                    continue
                await self._turn(item)

    async def _turn(self, prompt: Prompt) -> None:
        setup = self.setup
        if self._first_turn:
            setup.start_background()
            await self._wait_for_sdk_servers()
        self._interrupted = False
        self._state("running")
        self.send(init_line(self.facts()))
        if self.options.replay_user_messages:
            self.send(replay_line(prompt, session_id=setup.session.id))
        self.checkpoints.remember(prompt, message_index=len(setup.history))
        await self._answer(prompt.message, prompt_id=prompt.uuid)
        self._after_turn()

    @property
    def _inbox_of_notices(self) -> Inbox:
        return self.setup.session.service(Inbox)

    async def _notices_turn(self) -> None:
        """A turn for the notices of background work that ended since the last one, if any.

        Its notices are sent as task lines first; then the turn runs with them as its
        prompt, as Claude Code's wake-up turn does.
        """
        notices = self._inbox_of_notices.take(None)
        if not notices:
            return
        text = "\n\n".join(notices)
        note = MessageEvent(message=user_text(text))
        for obj in stream_json_lines(note, session_id=self.setup.session.id, model=""):
            self.send(self.tasks.notified(stamp(obj)))
        self._interrupted = False
        self._state("running")
        self.send(init_line(self.facts()))
        await self._answer(note.message)
        self._after_turn()

    def _after_turn(self) -> None:
        """``idle``, unless a turn is still owed.

        One is owed while a background agent runs, a notice waits, or input has ended and
        background work still runs (the session waits for it), as Claude Code reports it.
        """
        inbox = self._inbox_of_notices
        owed = (
            bool(inbox.peek(None))
            or self.tasks.agents_running()
            or (self._input_ended and inbox.outstanding(None))
        )
        if not owed:
            self._state("idle")

    async def _answer(self, message: Message, *, prompt_id: str = "") -> None:
        """One prompt to its result line (with the structured-output reminders)."""
        structured = self.options.structured
        if structured is not None:
            structured.value = None
        state = _TurnState()
        result = await self._query(message, state, prompt_id=prompt_id)
        reminders = 0
        while (
            structured is not None
            and structured.value is None
            and not result.is_error
            and not state.over_budget
            and reminders < STRUCTURED_RETRIES
        ):
            reminders += 1
            from hands.cli.sdk.structured import INSTRUCTION

            result = await self._query(user_text(INSTRUCTION), state)
        subtype, error = None, ""
        if state.over_budget:
            subtype = "error_max_budget_usd"
            error = f"the session reached its budget of ${self.options.max_budget_usd:g}"
        elif structured is not None and structured.value is None and not result.is_error:
            subtype = "error_max_structured_output_retries"
            error = "the model did not give the structured output the schema asks for"
        line = build_result(
            result,
            ResultFacts(
                api_ms=self.tally.api_ms,
                usage_by_model=self.tally.ledger.by_model,
                windows=self._windows(),
                denials=state.denials,
                structured_output=structured.value if structured is not None else None,
                subtype=subtype,
                error=error,
            ),
        )
        self.last_error = bool(line["is_error"])
        self.send(line)

    def _state(self, state: str) -> None:
        """``session_state_changed`` for an SDK that reads it, when the state changes.

        The SDK reads it to know when a run is over.
        """
        if state == self._reported_state:
            return
        self._reported_state = state
        if self.options.report_state:
            self.send(
                stamp(
                    {
                        "type": "system",
                        "subtype": "session_state_changed",
                        "state": state,
                        "sdk_host_only": True,
                        "session_id": self.setup.session.id,
                    }
                )
            )

    async def _query(
        self, message: Message, state: _TurnState, *, prompt_id: str = ""
    ) -> ResultEvent:
        setup = self.setup
        ask = None
        if self.options.ask_sdk:
            from hands.cli.sdk.permission import sdk_ask

            ask = sdk_ask(
                self.channel,
                on_interrupt=self.interrupt,
                on_rules=self._add_rules,
                engine=self.setup.engine,
            )
        opts = setup.options(
            permission_mode=self.mode,
            max_turns=self.options.max_turns,
            ask=ask,
            session_start="auto" if self._first_turn else None,
            session_end=None,
            wait_for_background=False,  # work that ends later wakes the session (wake.py)
        )
        if self.options.effort is not None or self.options.betas:
            opts = dataclasses.replace(
                opts, effort=self.options.effort or opts.effort, betas=self.options.betas
            )
        self._first_turn = False
        q = query(message, opts)
        self._current = q
        setup.record_prompt(message, uuids=(prompt_id or _new_id(),))
        final: ResultEvent | None = None
        shown = ShownIds()
        outcomes: dict[str, ToolCallOutcome] = {}
        try:
            async for event in q:
                if isinstance(event, ResultEvent):
                    final = event
                    continue
                if isinstance(event, ToolResultEvent):
                    outcomes[event.tool_use.id] = event.outcome
                self._watch(q, event, state)
                sent = [
                    self._decorate(one, event)
                    for obj in stream_json_lines(
                        event, session_id=setup.session.id, model=setup.model.name
                    )
                    for one in self._per_result(obj, event, outcomes)
                ]
                for obj in sent:
                    self.send(obj)
                ids = shown.of(event, sent)
                if ids is not None:
                    setup.record(event, uuids=ids)
        finally:
            self._current = None
            setup.history = list(q.messages)
            self.mode = q.permission_mode
            self.context_tokens = q.context_tokens
        assert final is not None  # the loop always ends with a result
        return final

    def _watch(self, q: Query, event: object, state: _TurnState) -> None:
        """Permission denials, and the budget checked when a turn's tools are done."""
        if isinstance(event, ToolResultEvent):
            self.tasks.result(event)
        if isinstance(event, ToolResultEvent) and event.outcome.status == "rejected":
            state.denials.append(
                {
                    "tool_name": event.tool_use.name,
                    "tool_use_id": event.tool_use.id,
                    "tool_input": dict(event.tool_use.input),
                }
            )
        budget = self.options.max_budget_usd
        if (
            budget is not None
            and isinstance(event, MessageEvent)
            and event.message.role == "user"
            and any(isinstance(b, ToolResultBlock) for b in event.message.content)
            and self.tally.ledger.total_cost_usd >= budget
        ):
            state.over_budget = True
            q.interrupt()

    @staticmethod
    def _per_result(
        obj: dict[str, Any], event: object, outcomes: dict[str, ToolCallOutcome]
    ) -> list[dict[str, Any]]:
        """A user line of the turn's tool results: one line per result, with its output."""
        if isinstance(event, MessageEvent) and obj.get("type") == "user":
            from hands.cli.sdk.tool_results import split

            return split(obj, outcomes)
        return [obj]

    def _decorate(self, obj: dict[str, Any], event: object) -> dict[str, Any]:
        if isinstance(event, BlockEvent) and obj.get("type") == "assistant":
            message = dict(cast(dict[str, Any], obj["message"]))
            message.setdefault("id", self._message_id)
            message.setdefault("stop_reason", None)
            obj = {**obj, "message": message}
        return self.tasks.notified(stamp(obj))

    async def _wait_for_sdk_servers(self) -> None:
        names = [
            name
            for name, conn in self.setup.mcp.connections.items()
            if conn.config.transport == "sdk"
        ]
        if names:
            await self.setup.mcp.wait_ready(names)

    # -- what control requests do ----------------------------------------------------------

    def facts(self) -> InitFacts:
        """The ``system``/``init`` facts as they are now."""
        setup = self.setup
        model = facts_of(setup.model)
        return InitFacts(
            session_id=setup.session.id,
            cwd=str(setup.cwd),
            tools=setup.tool_names(),
            model=model.shown_name,
            permission_mode=self.mode,
            mcp_servers=[(s.name, status, s.source) for s, status in self._mcp_statuses()],
            agents=self._agent_names(),
            skills=self._skill_names(),
            plugins=[p.facts() for p in self.setup.settings.plugins],
            hands_version=self.options.hands_version,
            api_key_source=model.key_source(),
        )

    def _agent_names(self) -> list[str]:
        from hands.agent.subagents.tool import AgentTool

        tool = self.setup.pool.find("Agent")
        return list(tool.catalog.names) if isinstance(tool, AgentTool) else []

    def _skill_names(self) -> list[str]:
        from hands.tools.skill import SkillSet

        skills = getattr(self.setup.pool.find("Skill"), "skills", None)
        return [s.name for s in skills.skills] if isinstance(skills, SkillSet) else []

    def _windows(self) -> dict[str, int]:
        compaction = self.setup.compaction
        return {
            name: compaction.window_of(share.facts)
            for name, share in self.tally.ledger.by_model.items()
        }

    def initialize_response(self) -> dict[str, Any]:
        """The answer to ``initialize``: what this session offers."""
        import os

        return {
            "commands": [],
            "agents": [{"name": name} for name in self._agent_names()],
            "output_style": "default",
            "available_output_styles": ["default"],
            "models": [{"value": self.setup.model.name, "displayName": self.setup.model.name}],
            "account": {},
            "pid": os.getpid(),
            "hook_on_failure_supported": False,
            **({"managed_settings_applied": True} if self.options.managed_in_initialize else {}),
        }

    def add_hooks(self, config: dict[str, Any]) -> None:
        """The SDK program's hooks join the session's (``initialize``)."""
        from hands.cli.sdk.hooks import sdk_hooks
        from hands.hooks.config import HookConfig
        from hands.hooks.engine import HookEngine

        callbacks, notes = sdk_hooks(config, self.channel)
        for note in notes:
            print(f"hands: warning: {note}", file=sys.stderr)
        engine = self.setup.hooks or HookEngine(
            HookConfig(),
            on_notice=lambda text: print(f"hands: {text}", file=sys.stderr),
            allow_defer=True,
        )
        self.setup.hooks = engine.with_hooks(callbacks.config())
        self.setup.hooks.transcript_path = str(self.setup.writer.path)
        self.report_hooks()

    def report_hooks(self) -> None:
        """With ``--include-hook-events``, every hook run is told to the SDK."""
        if self.options.hook_events and self.setup.hooks is not None:
            from hands.cli.sdk.hook_events import hook_reporter

            self.setup.hooks.on_run = hook_reporter(self.send, session_id=self.setup.session.id)

    def add_agents(self, agents: dict[str, Any]) -> None:
        """The SDK program's agent types join the Agent tool's catalog (``initialize``)."""
        from hands.cli.sdk.agents import add_sdk_agents

        for note in add_sdk_agents(self.setup.pool, agents):
            print(f"hands: warning: {note}", file=sys.stderr)

    def interrupt(self) -> None:
        """Stop the running turn (model stream and tools); no-op between turns."""
        if self._current is not None:
            self._interrupted = True
            self._current.interrupt()

    def set_mode(self, mode: str) -> None:
        """The permission mode of the next turn."""
        from hands.cli.sdk.control import ControlRefused

        if mode == "bypassPermissions" and not (
            self.options.allow_bypass or self.options.permission_mode == "bypassPermissions"
        ):
            raise ControlRefused(
                "bypassPermissions needs the session to start with "
                "--allow-dangerously-skip-permissions (allowDangerouslySkipPermissions)"
            )
        self.mode = cast(PermissionMode, mode)
        if self._current is not None:
            self._current.set_permission_mode(self.mode)

    def set_thinking(self, request: dict[str, Any]) -> None:
        """``set_max_thinking_tokens``: a budget (0: off; null: the start's) and display."""
        from hands.cli.sdk.control import ControlRefused
        from hands.cli.sdk.model_choice import set_thinking

        thinking: Thinking | Literal["unset"] = "unset"
        if "max_thinking_tokens" in request:
            value = request["max_thinking_tokens"]
            if value is None:
                thinking = self._spawn_thinking
            elif isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                thinking = value or None
            else:
                raise ControlRefused(
                    f"set_max_thinking_tokens: {value!r} is not a number of tokens (or null)"
                )
        display = request["thinking_display"] if "thinking_display" in request else "keep"
        try:
            took = set_thinking(self.setup.model, thinking, display)
        except ValueError as exc:
            raise ControlRefused(f"set_max_thinking_tokens: {exc}") from None
        if not took and thinking != "unset":
            raise ControlRefused(
                f"set_max_thinking_tokens: the model {self.setup.model.name} takes no thinking "
                "budget (Anthropic models do)"
            )
        kept_thinking, kept_display = self._thinking_asked
        self._thinking_asked = (
            kept_thinking if thinking == "unset" else thinking,
            kept_display if display == "keep" else display,
        )

    def set_model(self, name: str | None) -> None:
        """The model of the next turn (``None``: the first one)."""
        from hands.cli.sdk.control import ControlRefused
        from hands.errors import HandsError

        if name is None or self.options.resolve_model is None:
            inner = self._first_model
        else:
            try:
                inner = self.options.resolve_model(name)
            except HandsError as exc:
                raise ControlRefused(str(exc)) from None
        self.setup.model = TappedModel(inner, self.tally, self._on_model_event)
        thinking, display = self._thinking_asked
        if thinking != "unset" or display != "keep":  # what the session asked for stays
            from hands.cli.sdk.model_choice import set_thinking

            set_thinking(self.setup.model, thinking, display)

    def _mcp_statuses(self) -> list[tuple[ServerStatus, str]]:
        """Each server's status and its status word (a server switched off is disabled)."""
        return [
            (s, "disabled" if s.name in self._switched_off else s.wire_status)
            for s in self.setup.mcp.status()
        ]

    def mcp_status(self) -> list[dict[str, Any]]:
        """Each server's name, status, and what it offers."""
        out: list[dict[str, Any]] = []
        for status, word in self._mcp_statuses():
            off = status.name in self._switched_off
            entry: dict[str, Any] = {
                "name": status.name,
                "status": word,
                "scope": status.scope,
                "source": status.source,
                "tools": [{"name": t} for t in status.tools],
            }
            if status.server_info:
                name, _, version = status.server_info.rpartition(" ")
                entry["serverInfo"] = {"name": name or version, "version": version if name else ""}
            if status.error and not off:
                entry["error"] = status.error
            out.append(entry)
        return out

    async def mcp_switch(self, name: str, *, on: bool, reconnect: bool) -> None:
        """Reconnect, switch off or switch on one server."""
        from hands.cli.sdk.control import ControlRefused

        conn = self.setup.mcp.connections.get(name)
        if conn is None:
            known = ", ".join(self.setup.mcp.connections) or "none"
            raise ControlRefused(f"no MCP server named {name!r} (servers: {known})")
        if reconnect or not on:
            await conn.stop()
        if on:
            self._switched_off.discard(name)
            conn.restart()
            await self.setup.mcp.wait_ready([name])
        else:
            self._switched_off.add(name)
        self.setup.mcp.changed()

    def context_usage(self) -> dict[str, Any]:
        """How full the context window is, as the provider last counted it."""
        model = self.setup.model.name
        compaction = self.setup.compaction
        window = compaction.window_for(self.setup.model) if compaction else 0
        tokens = self.context_tokens or 0
        return {
            "model": model,
            "totalTokens": tokens,
            "maxTokens": window,
            "rawMaxTokens": window,
            "percentage": round(100 * tokens / window, 1) if window else 0,
            "categories": [{"name": "Messages", "tokens": tokens}],
        }

    async def stop_task(self, task_id: str) -> None:
        """Stop a background shell or agent by its id."""
        from hands.cli.sdk.control import ControlRefused
        from hands.errors import ToolError
        from hands.tools.bash.task_stop import TaskStopInput, TaskStopTool

        ctx = ToolContext(cwd=self.setup.cwd, session=self.setup.session)
        try:
            await TaskStopTool().call(TaskStopInput(task_id=task_id), ctx, lambda _: None)
        except ToolError as exc:
            raise ControlRefused(str(exc)) from None

    def end_input(self) -> None:
        """Take no more user messages; the session ends after the queued ones."""
        self._input_ended = True
        if self._inbox is not None:
            self._inbox.close()

    def _add_rules(self, updates: list[dict[str, Any]]) -> None:
        from hands.cli.sdk.rules import apply_updates

        mode = apply_updates(updates, engine=self.setup.engine, root=self.setup.cwd)
        if mode is not None:
            self.mode = mode
