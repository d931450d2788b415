from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands import ToolContext, ToolResult, build_tool, tool
from hands.core.decision import AskRequest, PermissionDecision, allow, deny
from hands.core.hooks import PostToolUseOutcome, PreToolUseOutcome
from hands.core.limits import Limits
from hands.core.messages import ImageBlock, TextBlock, ToolUseBlock
from hands.core.schema import ToolInput
from hands.core.session import Session
from hands.errors import ToolError
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import ToolPool
from hands.pipeline.runtime import ToolRuntime

pytestmark = pytest.mark.anyio


@tool(read_only=True)
def echo(text: str, times: int = 1) -> str:
    """Repeat a text.

    Args:
        text: what to repeat
        times: how often
    """
    return text * times


@tool
def write_note(text: str) -> str:
    """Pretend to write a note."""
    return f"wrote {text}"


@tool(read_only=True)
def nothing() -> str:
    """Return nothing."""
    return "   "


@tool(read_only=True)
def boom(kind: str) -> str:
    """Fail in various ways."""
    if kind == "tool":
        raise ToolError("the file is locked; try again later")
    if kind == "huge":
        raise RuntimeError("x" * 30_000)
    raise ValueError("unexpected")


@tool(read_only=True)
async def slow(seconds: float) -> str:
    """Sleep."""
    await anyio.sleep(seconds)
    return "woke"


@tool(read_only=True, max_result_chars=1_000)
def big(size: int) -> str:
    """A large output."""
    return "".join(f"line {i}\n" for i in range(size))


@tool(read_only=True)
def picture() -> list[Any]:
    """An image with a caption."""
    return [TextBlock(text="a dot"), ImageBlock(media_type="image/png", data="iVBORw0KGgo=")]


def runtime(**kw: Any) -> ToolRuntime:
    return ToolRuntime(tools=ToolPool([echo, write_note, nothing, boom, slow, big, picture]), **kw)


async def run(
    name: str,
    data: Mapping[str, Any],
    rt: ToolRuntime | None = None,
    *,
    ctx: ToolContext | None = None,
):
    ctx = ctx or ToolContext(cwd=Path.cwd())
    block = ToolUseBlock(id="toolu_1", name=name, input=data)
    return await run_tool_use(block, ctx, rt or runtime(), lambda d: None)


async def test_success_and_string_coercion() -> None:
    out = await run("echo", {"text": "ab", "times": "3"})
    assert not out.is_error
    assert out.block.content == "ababab"
    assert out.block.tool_use_id == "toolu_1"


async def test_unknown_tool_names_the_available_ones() -> None:
    out = await run("Ech", {})
    assert out.is_error
    assert out.block.text == (
        "<tool_use_error>There is no tool named Ech in this session. The tools you can "
        "call: big, boom, echo, nothing, picture, slow, write_note</tool_use_error>"
    )


async def test_schema_failure_lists_each_field() -> None:
    out = await run("echo", {"times": "many", "colour": "red"})
    assert out.is_error
    text = out.block.text
    assert text.startswith("<tool_use_error>InputValidationError: the input of echo does not")
    assert "- text: Field required" in text
    assert "- times: Input should be a valid integer" in text and "(got 'many')" in text
    assert "- colour: echo takes no such parameter; leave it out" in text
    assert text.endswith("</tool_use_error>")


async def test_validate_input_error_is_wrapped() -> None:
    class In(ToolInput):
        path: str

    async def validate(inp: In, ctx: ToolContext) -> str | None:
        return None if inp.path.startswith("/") else "path must be absolute, e.g. /tmp/x"

    async def call(inp: In, ctx: ToolContext, progress: Any) -> str:
        return "ok"

    t = build_tool(name="Abs", input_model=In, call=call, validate_input=validate, read_only=True)
    out = await run("Abs", {"path": "rel"}, ToolRuntime(tools=ToolPool([t])))
    assert out.block.text == "<tool_use_error>path must be absolute, e.g. /tmp/x</tool_use_error>"


async def test_empty_output_is_replaced() -> None:
    out = await run("nothing", {})
    assert out.block.content == "(nothing succeeded; its output is empty)"
    assert not out.is_error


async def test_tool_error_and_exceptions_become_error_results() -> None:
    out = await run("boom", {"kind": "tool"})
    assert out.is_error and out.block.text == "the file is locked; try again later"
    out = await run("boom", {"kind": "other"})
    assert out.is_error and out.block.text == "Error: ValueError: unexpected"
    out = await run("boom", {"kind": "huge"})
    assert out.is_error and "characters left out here" in out.block.text
    assert len(out.block.text) < 10_200


async def test_timeout_has_a_defined_result() -> None:
    rt = runtime(limits=Limits(tool_timeout_s=0.05))
    out = await run("slow", {"seconds": 5}, rt)
    assert out.is_error
    assert out.block.text.startswith("slow timed out after 0.05 s")


async def test_large_output_is_spilled_to_the_session_directory(tmp_path: Path) -> None:
    session = Session(home=tmp_path)
    ctx = ToolContext(cwd=tmp_path, session=session)
    out = await run("big", {"size": 500}, ctx=ctx)
    text = out.block.text
    assert text.startswith("<persisted-output>")
    saved = session.directory / "tool-results" / "toolu_1.txt"
    assert f"all of it is in {saved}." in text
    assert saved.read_text() == "".join(f"line {i}\n" for i in range(500))
    preview = text.split(" lines:\n", 1)[1].split("\n[", 1)[0]
    assert preview.startswith("line 0\nline 1\n") and len(preview.encode()) <= 2000
    assert preview.splitlines()[-1] == f"line {len(preview.splitlines()) - 1}"  # a whole line
    rest = len(saved.read_text()) - len(preview) - 1
    assert f"[{rest:,} characters more in the file]\n</persisted-output>" in text


async def test_small_output_is_not_spilled(tmp_path: Path) -> None:
    out = await run(
        "big", {"size": 10}, ctx=ToolContext(cwd=tmp_path, session=Session(home=tmp_path))
    )
    assert out.block.text.startswith("line 0")
    assert not (tmp_path / "sessions").exists()


async def test_images_pass_through_as_blocks() -> None:
    out = await run("picture", {})
    assert isinstance(out.block.content, tuple)
    image = out.block.content[1]
    assert isinstance(image, ImageBlock) and image.media_type == "image/png"


async def test_default_policy_asks_and_denies_without_a_handler() -> None:
    out = await run("write_note", {"text": "hi"})
    assert out.is_error and out.status == "rejected"
    assert "nobody is available to approve it" in out.block.text


async def test_ask_handler_approves_or_refuses() -> None:
    asked: list[str] = []

    async def yes(req: AskRequest) -> PermissionDecision:
        asked.append(req.tool.name)
        return allow()

    async def no(req: AskRequest) -> PermissionDecision:
        return deny("")

    out = await run("write_note", {"text": "hi"}, runtime(ask=yes))
    assert out.block.text == "wrote hi" and asked == ["write_note"]
    out = await run("write_note", {"text": "hi"}, runtime(ask=no))
    assert out.is_error and "doesn't want to proceed" in out.block.text


async def test_modes() -> None:
    plan = ToolContext(cwd=Path.cwd(), permission_mode="plan")
    out = await run("write_note", {"text": "x"}, ctx=plan)
    assert out.is_error and "plan mode" in out.block.text
    read_in_plan = await run("echo", {"text": "x"}, ctx=plan)
    assert not read_in_plan.is_error
    bypass = ToolContext(cwd=Path.cwd(), permission_mode="bypassPermissions")
    assert not (await run("write_note", {"text": "x"}, ctx=bypass)).is_error
    dont_ask = ToolContext(cwd=Path.cwd(), permission_mode="dontAsk")
    out = await run("write_note", {"text": "x"}, ctx=dont_ask)
    assert out.is_error and "mode dontAsk" in out.block.text


class RecordingHooks:
    def __init__(self, pre: PreToolUseOutcome) -> None:
        self.pre = pre
        self.calls: list[tuple[str, Any]] = []

    async def pre_tool_use(
        self, *, tool: Any, tool_input: Mapping[str, Any], ctx: ToolContext
    ) -> PreToolUseOutcome:
        self.calls.append(("pre", dict(tool_input)))
        return self.pre

    async def post_tool_use(
        self,
        *,
        tool: Any,
        tool_input: Mapping[str, Any],
        response: Any,
        ctx: ToolContext,
        duration_ms: float,
    ) -> PostToolUseOutcome:
        self.calls.append(("post", response))
        return PostToolUseOutcome(additional_context="lint: clean")

    async def post_tool_use_failure(
        self,
        *,
        tool: Any,
        tool_input: Mapping[str, Any],
        error: str,
        ctx: ToolContext,
        duration_ms: float,
    ) -> PostToolUseOutcome:
        self.calls.append(("failure", error))
        return PostToolUseOutcome()


async def test_pre_hook_can_block_rewrite_and_add_context() -> None:
    hooks = RecordingHooks(PreToolUseOutcome(decision="deny", reason="no echoes today"))
    out = await run("echo", {"text": "a"}, runtime(hooks=hooks))
    assert out.is_error and out.status == "rejected"
    assert "no echoes today" in out.block.text
    assert [c[0] for c in hooks.calls] == ["pre"]

    hooks = RecordingHooks(PreToolUseOutcome(updated_input={"text": "b", "times": 2}))
    out = await run("echo", {"text": "a"}, runtime(hooks=hooks))
    assert out.block.content == "bb"
    assert hooks.calls[-1] == ("post", "bb")
    assert out.extra_context == ("lint: clean",)


class PartlyHooked(RecordingHooks):
    """Hooks that say which events they have hooks for (as the hook engine does)."""

    def __init__(self, pre: PreToolUseOutcome, events: set[str]) -> None:
        super().__init__(pre)
        self.events = events

    def handles(self, event: str) -> bool:
        return event in self.events


async def test_events_the_hooks_say_they_have_nothing_for_are_not_called() -> None:
    deny_all = PreToolUseOutcome(decision="deny", reason="no")
    hooks = PartlyHooked(deny_all, {"PostToolUse", "PostToolUseFailure"})
    out = await run("echo", {"text": "a"}, runtime(hooks=hooks))
    assert out.block.content == "a" and out.extra_context == ("lint: clean",)
    assert hooks.calls == [("post", "a")]
    failing = await run("boom", {"kind": "tool"}, runtime(hooks=hooks))
    assert failing.is_error and hooks.calls[-1][0] == "failure"

    hooks = PartlyHooked(deny_all, {"PreToolUse"})
    out = await run("echo", {"text": "a"}, runtime(hooks=hooks))
    assert out.status == "rejected" and hooks.calls == [("pre", {"text": "a"})]
    hooks = PartlyHooked(PreToolUseOutcome(), {"PreToolUse"})
    out = await run("echo", {"text": "a"}, runtime(hooks=hooks))
    assert out.block.content == "a" and out.extra_context == ()
    assert [c[0] for c in hooks.calls] == ["pre"]


async def test_hook_allow_skips_the_prompt_but_hook_ask_forces_one() -> None:
    hooks = RecordingHooks(PreToolUseOutcome(decision="allow"))
    out = await run("write_note", {"text": "x"}, runtime(hooks=hooks))
    assert out.block.text == "wrote x"
    hooks = RecordingHooks(PreToolUseOutcome(decision="ask"))
    out = await run("echo", {"text": "x"}, runtime(hooks=hooks))
    assert out.is_error and out.status == "rejected"


async def test_failure_hook_sees_the_error() -> None:
    hooks = RecordingHooks(PreToolUseOutcome())
    out = await run("boom", {"kind": "tool"}, runtime(hooks=hooks))
    assert out.is_error
    assert hooks.calls[-1] == ("failure", "the file is locked; try again later")


async def test_validation_failures_fire_no_hooks() -> None:
    hooks = RecordingHooks(PreToolUseOutcome())
    await run("echo", {}, runtime(hooks=hooks))
    assert hooks.calls == []


async def test_tool_result_is_error_flag_without_raising() -> None:
    class In(ToolInput):
        code: int

    async def call(inp: In, ctx: ToolContext, progress: Any) -> ToolResult[str]:
        return ToolResult(output=f"Exit code {inp.code}\nboom", is_error=inp.code != 0)

    t = build_tool(name="Run", input_model=In, call=call, read_only=True)
    out = await run("Run", {"code": 2}, ToolRuntime(tools=ToolPool([t])))
    assert out.is_error and out.block.text == "Exit code 2\nboom"
