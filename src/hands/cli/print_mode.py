"""``hands -p``: run a prompt to the end and print text, json or stream-json.

With ``--input-format stream-json`` the prompts are JSON lines on stdin
(``{"type": "user", "message": {"role": "user", "content": ...}}``), each run as the next
turn of one conversation.
"""

from __future__ import annotations

import json
import signal
import sys
from collections.abc import Iterator
from typing import IO, Any, cast

import anyio

from hands.agent.events import ResultEvent
from hands.agent.loop import Query, query
from hands.cli.output import dumps, init_message, result_message, stream_json_lines
from hands.cli.session_setup import AgentSetup
from hands.core.context import PermissionMode
from hands.core.messages import Message, message_from_wire, user_text
from hands.models.facts import facts_of


class InputError(ValueError):
    """A line of ``--input-format stream-json`` input that is not a user message."""


def user_messages(lines: IO[str]) -> Iterator[Message]:
    """The user messages of stream-json input, one per non-empty line."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"input line {number} is not valid JSON: {exc.msg}") from None
        entry = cast(dict[str, Any], data) if isinstance(data, dict) else {}
        if entry.get("type") != "user":
            raise InputError(f'input line {number} is not a {{"type": "user", ...}} message')
        try:
            message = message_from_wire(entry["message"])
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"input line {number} has no usable message: {exc}") from None
        if message.role != "user":
            raise InputError(f"input line {number}: the message's role must be user")
        yield message


def _note_needs_auth(setup: AgentSetup) -> None:
    """Say on stderr which servers' tools were missing for want of an authorization."""
    for status in setup.mcp.status():
        if status.state == "needs-auth":
            from hands.mcp.oauth import login_hint

            print(
                f"hands: the MCP server {status.name!r} needs authorization, so its tools "
                f"were not available; {login_hint(status.name)}",
                file=sys.stderr,
            )


async def _typed_prompt(prompt: str, setup: AgentSetup, mode: PermissionMode) -> Message:
    """The message for ``prompt``; a ``/command args`` is expanded first.

    The command may pick the model; its shell lines that no rule allows do not run, as
    nobody can be asked.
    """
    if not prompt.startswith("/"):
        return user_text(prompt)
    from hands.cli.custom_commands import expand_typed, session_commands
    from hands.cli.mentions import attachments
    from hands.core.messages import TextBlock

    commands = session_commands(setup)
    for warning in commands.warnings:
        print(f"hands: warning: {warning}", file=sys.stderr)
    ctx = setup.settings.context(session=setup.session).with_changes(permission_mode=mode)
    expansion = await expand_typed(prompt, setup=setup, commands=commands, ctx=ctx, ask=None)
    if expansion is None:
        return user_text(prompt)
    if expansion.model is not None:
        from hands.models.resolve import resolve_model

        setup.model = resolve_model(expansion.model, provider=facts_of(setup.model).provider)
    attached, _ = attachments(expansion.text, setup.cwd)
    return Message(role="user", content=(TextBlock(text=expansion.text), *attached))


def run_print(
    *,
    prompt: str,
    setup: AgentSetup,
    permission_mode: PermissionMode,
    output_format: str,
    max_turns: int | None,
    streamed_input: IO[str] | None = None,
) -> int:
    """Run the prompt (or each streamed user message); return the process exit code."""
    session, model = setup.session, setup.model
    final: list[ResultEvent] = []
    signalled: list[int] = []
    current: list[Query] = []
    failed: list[str] = []

    def emit(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    async def watch_signals() -> None:
        with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
            async for signum in signals:
                signalled.append(signum)
                if current:
                    current[-1].interrupt()
                return

    mode: list[PermissionMode] = [
        permission_mode
    ]  # plan mode's tools change it from one prompt to the next

    async def one(message: Message) -> None:
        q = query(message, setup.options(permission_mode=mode[0], max_turns=max_turns))
        current.append(q)
        setup.record_prompt(message)
        async for event in q:
            setup.record(event)
            if output_format == "stream-json":
                for obj in stream_json_lines(event, session_id=session.id, model=model.name):
                    emit(dumps(obj))
            if isinstance(event, ResultEvent):
                final.append(event)
        setup.history = list(q.messages)
        mode[0] = q.permission_mode

    async def go() -> None:
        setup.start_background()
        if output_format == "stream-json":
            # as Claude Code does, the init line shows each started server connected (or
            # failed) and lists its tools: wait for them, up to the MCP startup timeout
            # (a server left idle, its tools cached and deferred, starts when needed)
            await setup.source.ready()
            await setup.mcp.wait_ready()
            emit(
                dumps(
                    init_message(
                        session_id=session.id,
                        cwd=setup.cwd,
                        tools=setup.tool_names(),
                        model=model.name,
                        permission_mode=permission_mode,
                        mcp_servers=[(s.name, s.wire_status, s.source) for s in setup.mcp.status()],
                        api_key_source=facts_of(model).key_source(),
                    )
                )
            )
        async with anyio.create_task_group() as tg:
            tg.start_soon(watch_signals)
            try:
                if streamed_input is None:
                    await one(await _typed_prompt(prompt, setup, mode[0]))
                else:
                    try:
                        for message in user_messages(streamed_input):
                            await one(message)
                            if signalled:
                                break
                    except InputError as exc:
                        failed.append(str(exc))
            finally:
                _note_needs_auth(setup)
                await session.aclose()
                tg.cancel_scope.cancel()

    anyio.run(go)
    if failed:
        print(f"hands: {failed[0]}", file=sys.stderr)
        return 2
    if not final:
        return 1
    result = final[-1]
    if output_format == "json":
        emit(dumps(result_message(result)))
    elif output_format == "text":
        from hands.core.terminal_text import neutralise

        if result.is_error:
            print(f"hands: {neutralise(result.error or '')}", file=sys.stderr)
        if result.result:
            emit(neutralise(result.result))
    if signalled and signalled[0] == signal.SIGTERM:
        return 143
    return 1 if result.is_error else 0
