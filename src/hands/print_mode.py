"""``hands -p``: run a prompt to the end and print text, json or stream-json."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import anyio

from hands.config import Limits
from hands.context import PermissionMode
from hands.events import ResultEvent
from hands.loop import QueryOptions, query
from hands.models.resolve import resolve_model
from hands.output import dumps, init_message, result_message, stream_json_lines
from hands.pool import all_base_tools, assemble_pool
from hands.session import Session
from hands.settings import Settings, load_settings


def run_print(
    *,
    prompt: str,
    model_spec: str | None,
    cwd: Path,
    permission_mode: PermissionMode,
    output_format: str,
    max_turns: int | None,
    simple: bool,
    settings: Settings | None = None,
) -> int:
    """Run the prompt; return the process exit code."""
    model = resolve_model(model_spec)
    limits = Limits.from_env()
    if settings is None:
        settings = load_settings(cwd)
    engine = settings.permission_engine()
    base = all_base_tools()
    denied = [t.name for t in base if engine.denies_tool(t.name)]
    pool = assemble_pool(base=base, simple=simple or limits.simple, denied=denied)
    session = Session()
    q = query(
        prompt,
        QueryOptions(
            model=model,
            tools=pool,
            cwd=cwd,
            permission_mode=permission_mode,
            policy=engine,
            additional_dirs=settings.additional_directories,
            max_turns=max_turns,
            limits=limits,
            session=session,
        ),
    )
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
        if output_format == "stream-json":
            emit(
                dumps(
                    init_message(
                        session_id=session.id,
                        cwd=cwd,
                        tools=pool.names,
                        model=model.name,
                        permission_mode=permission_mode,
                    )
                )
            )
        async with anyio.create_task_group() as tg:
            tg.start_soon(watch_signals)
            try:
                async for event in q:
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
