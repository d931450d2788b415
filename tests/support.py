"""Test tools with controllable duration, failure, progress and context changes."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
from pydantic import Field
from rich.console import Console, RenderableType

from hands.core.context import ToolContext
from hands.core.messages import ToolUseBlock
from hands.core.schema import ToolInput
from hands.core.tool import ContextModifier, Progress, Tool, ToolResult
from hands.errors import ToolError
from hands.orchestration.events import ExecutorEvent
from hands.orchestration.streaming import StreamingToolExecutor
from hands.permissions.engine import PermissionEngine
from hands.permissions.rules import PermissionRule, RuleOrigin, parse_rules
from hands.pipeline.pool import ToolPool
from hands.pipeline.runtime import ToolRuntime


class StepInput(ToolInput):
    label: str
    seconds: float = 0.0
    fail: bool = False
    hang: bool = False
    progress: int = 0
    set_cwd: str | None = None
    output: str | None = None
    wait_for: str | None = Field(default=None, description="label of an event to wait for")


class Timeline:
    """Records start/end of each labelled call, in order."""

    def __init__(self) -> None:
        self.entries: list[str] = []
        self.events: dict[str, anyio.Event] = {}
        self.cancelled: list[str] = []

    def event(self, label: str) -> anyio.Event:
        return self.events.setdefault(label, anyio.Event())


class StepTool(Tool[StepInput, str]):
    """Sleeps, optionally fails, hangs, reports progress or changes the cwd."""

    input_model = StepInput

    def __init__(
        self, name: str, *, safe: bool, timeline: Timeline, cascades: bool = False
    ) -> None:
        self.name = name
        self._safe = safe
        self.timeline = timeline
        self.cascades_errors = cascades
        self.description = f"test tool {name}"

    def is_concurrency_safe(self, input: StepInput) -> bool:
        return self._safe

    def is_read_only(self, input: StepInput) -> bool:
        return self._safe

    async def call(self, input: StepInput, ctx: ToolContext, progress: Progress) -> ToolResult[str]:
        tl = self.timeline
        tl.entries.append(f"start {input.label}")
        tl.event(f"start {input.label}").set()
        try:
            for i in range(input.progress):
                progress(f"{input.label} step {i}")
                await anyio.sleep(0)
            if input.wait_for:
                await tl.event(input.wait_for).wait()
            if input.hang:
                await anyio.sleep_forever()
            if input.seconds:
                await anyio.sleep(input.seconds)
            if input.fail:
                raise ToolError(f"{input.label} failed")
        except anyio.get_cancelled_exc_class():
            tl.cancelled.append(input.label)
            raise
        finally:
            tl.entries.append(f"end {input.label}")
            tl.event(f"end {input.label}").set()
        modifier: ContextModifier | None = None
        if input.set_cwd is not None:
            target = Path(input.set_cwd)

            def change_cwd(c: ToolContext) -> ToolContext:
                tl.entries.append(f"modify {input.label}")
                return c.with_changes(cwd=target)

            modifier = change_cwd

        text = input.output if input.output is not None else f"{input.label} done in {ctx.cwd}"
        return ToolResult(output=text, context_modifier=modifier)


def render_text(renderable: RenderableType) -> str:
    """A renderable as plain text, 100 columns wide, no colour: what snapshot tests compare."""
    buffer = io.StringIO()
    Console(width=100, file=buffer, color_system=None, force_terminal=False).print(renderable)
    return buffer.getvalue()


def make_pool(timeline: Timeline) -> ToolPool:
    return ToolPool(
        [
            StepTool("Safe", safe=True, timeline=timeline),
            StepTool("Unsafe", safe=False, timeline=timeline),
            StepTool("Shell", safe=False, timeline=timeline, cascades=True),
            StepTool("SafeShell", safe=True, timeline=timeline, cascades=True),
        ]
    )


def use(tool: str, label: str, id: str | None = None, **fields: Any) -> ToolUseBlock:
    return ToolUseBlock(id=id or f"toolu_{label}", name=tool, input={"label": label, **fields})


async def run_all(
    blocks: Sequence[ToolUseBlock],
    runtime: ToolRuntime,
    ctx: ToolContext,
    *,
    cascade: bool | None = None,
) -> tuple[list[ExecutorEvent], StreamingToolExecutor]:
    events: list[ExecutorEvent] = []
    async with anyio.create_task_group() as tg:
        ex = StreamingToolExecutor(
            runtime=runtime, context=ctx, task_group=tg, cascade_errors=cascade
        )
        for block in blocks:
            ex.add(block)
        ex.close()
        async for event in ex.events():
            events.append(event)
    return events, ex


def rules_of(settings: Any) -> tuple[Any, ...]:
    """The settings' permission rules, parsed by the built-ins' declarations."""
    from hands.permissions.policy import settings_rules
    from hands.pipeline.pool import BuiltinGrammar

    return settings_rules(settings, grammar=BuiltinGrammar())[0]


def warnings_of(settings: Any) -> tuple[str, ...]:
    """Every warning the user is told about the settings (files and rules)."""
    from hands.permissions.policy import settings_warnings
    from hands.pipeline.pool import BuiltinGrammar

    return settings_warnings(settings, grammar=BuiltinGrammar())


def engine_of(settings: Any) -> Any:
    """The permission engine of the settings, as a session builds it."""
    from hands.permissions.policy import engine_for
    from hands.pipeline.pool import BuiltinGrammar

    return engine_for(settings, grammar=BuiltinGrammar())


def tool_results(stream_json: str) -> list[dict[str, Any]]:
    """The ``tool_result`` blocks of ``--output-format stream-json`` output, in order."""
    import json

    return [
        block
        for line in stream_json.splitlines()
        if (event := json.loads(line)).get("type") == "user"
        for block in event["message"]["content"]
        if block.get("type") == "tool_result"
    ]


def project_rules_engine(
    project: Path,
    home: Path,
    *,
    allow: Sequence[str] = (),
    deny: Sequence[str] = (),
    ask: Sequence[str] = (),
) -> PermissionEngine:
    """A real permission engine with these rules, as if in the project's settings file."""

    path = project / ".claude" / "settings.json"
    origin = RuleOrigin(scope="projectSettings", label=str(path), root=project, path=path)
    rules: list[PermissionRule] = []
    for behavior, texts in (("deny", deny), ("ask", ask), ("allow", allow)):
        parsed, problems = parse_rules(list(texts), behavior, origin)  # type: ignore[arg-type]
        assert not problems, problems
        rules.extend(parsed)
    return PermissionEngine(rules, home=home)
