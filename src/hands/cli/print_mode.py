"""``hands -p``: run a prompt to the end and print text, json or stream-json."""

from __future__ import annotations

import signal
import sys

import anyio

from hands.agent.events import ResultEvent
from hands.agent.loop import query
from hands.cli.output import dumps, init_message, result_message, stream_json_lines
from hands.cli.session_setup import AgentSetup
from hands.core.context import PermissionMode
from hands.core.messages import user_text


def run_print(
    *,
    prompt: str,
    setup: AgentSetup,
    permission_mode: PermissionMode,
    output_format: str,
    max_turns: int | None,
) -> int:
    """Run the prompt; return the process exit code."""
    message = user_text(prompt)
    q = query(message, setup.options(permission_mode=permission_mode, max_turns=max_turns))
    session, model = setup.session, setup.model
    final: list[ResultEvent] = []
    signalled: list[int] = []

    def emit(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    async def watch_signals() -> None:
        with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
            async for signum in signals:
                signalled.append(signum)
                q.interrupt()
                return

    async def go() -> None:
        setup.start_background()
        if output_format == "stream-json":
            emit(
                dumps(
                    init_message(
                        session_id=session.id,
                        cwd=setup.cwd,
                        tools=setup.source.current_pool().names,
                        model=model.name,
                        permission_mode=permission_mode,
                    )
                )
            )
        setup.record_prompt(message)
        async with anyio.create_task_group() as tg:
            tg.start_soon(watch_signals)
            try:
                async for event in q:
                    setup.record(event)
                    if output_format == "stream-json":
                        for obj in stream_json_lines(
                            event, session_id=session.id, model=model.name
                        ):
                            emit(dumps(obj))
                    if isinstance(event, ResultEvent):
                        final.append(event)
            finally:
                await session.aclose()
                tg.cancel_scope.cancel()

    anyio.run(go)
    if not final:
        return 1
    result = final[0]
    if output_format == "json":
        emit(dumps(result_message(result)))
    elif output_format == "text":
        if result.is_error:
            print(f"hands: {result.error}", file=sys.stderr)
        if result.result:
            emit(result.result)
    if signalled and signalled[0] == signal.SIGTERM:
        return 143
    return 1 if result.is_error else 0
