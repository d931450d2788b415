"""hands' tools as LangChain tools (``pip install 'hands[langchain]'``).

For LangGraph's ``ToolNode`` and LangChain's ``create_agent``.

::

    from langchain.agents import create_agent
    from langgraph.checkpoint.memory import InMemorySaver
    from hands.adapters.langchain import hands_tools

    agent = create_agent(model, tools=hands_tools(cwd="."), checkpointer=InMemorySaver())

Every call runs through hands' pipeline (see :class:`hands.adapters.toolbox.Toolbox`).
A call the permission engine asks about calls LangGraph's ``interrupt()`` with a
``{"type": "permission", ...}`` payload; the graph pauses (a checkpointer is needed) and
``Command(resume=True)`` (or ``False``, or ``{"approved": bool}``) runs or refuses it.
A running call's progress (Bash output) goes to the graph's custom stream
(``stream_mode="custom"``). The tools run on the caller's event loop when invoked
asynchronously, and on one event loop thread of the toolbox's own when invoked
synchronously.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any, ClassVar, TypeVar, cast

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.tools import BaseTool, ToolException
from langgraph.config import get_stream_writer
from langgraph.prebuilt import ToolRuntime
from langgraph.types import interrupt
from pydantic import ConfigDict

from hands.adapters.toolbox import Approval, CallResult, Toolbox, ToolDef, new_call_id
from hands.core.messages import ImageBlock, TextBlock

T = TypeVar("T")
_CALL_ID = "__hands_call_id"
"""Where the graph's tool call id travels from ``_to_args_and_kwargs`` to ``_run``/``_arun``."""


class _Portal:
    """One event loop, on a daemon thread, for the synchronous calls of one toolbox."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None

    def run(self, fn: Callable[[], Coroutine[Any, Any, T]]) -> T:
        with self._lock:
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
                threading.Thread(
                    target=self._loop.run_forever, name="hands-tools", daemon=True
                ).start()
            loop = self._loop
        return asyncio.run_coroutine_threadsafe(fn(), loop).result()


_NO_RUNTIME: Any = None


def _wants_runtime(runtime: ToolRuntime[Any, Any]) -> None:
    """Never called: its signature asks LangGraph's ToolNode to inject the runtime.

    The ``ToolRuntime`` carries the graph's state: the model's message with every call.
    """


class HandsTool(BaseTool):
    """One hands tool as a LangChain tool."""

    toolbox: Toolbox
    portal: _Portal

    model_config = ConfigDict(arbitrary_types_allowed=True)

    coroutine: ClassVar[Callable[..., Any]] = staticmethod(_wants_runtime)
    """Read by ToolNode for the arguments it injects (see :func:`_wants_runtime`)."""

    def _to_args_and_kwargs(
        self, tool_input: str | dict[str, Any], tool_call_id: str | None
    ) -> tuple[tuple[str, ...], dict[str, Any]]:
        # the model's id for the call: the same when a resumed graph runs the tool again
        args, kwargs = super()._to_args_and_kwargs(tool_input, tool_call_id)
        return args, {**kwargs, _CALL_ID: tool_call_id}

    # ``runtime`` is named in the signatures so that LangChain keeps it out of callbacks
    def _run(self, *args: Any, runtime: ToolRuntime[Any, Any] = _NO_RUNTIME, **kwargs: Any) -> Any:
        kwargs.pop("run_manager", None)
        call_id = kwargs.pop(_CALL_ID, None) or new_call_id()
        self.portal.run(lambda: self._reserve(call_id, runtime))
        try:
            asks = self.portal.run(
                lambda: self.toolbox.would_ask(self.name, kwargs, call_id=call_id)
            )
            approval = self._approval(call_id, kwargs) if asks else None
            progress = _progress_writer(self.name)  # the graph's writer lives in this thread
            return self.portal.run(lambda: self._call(call_id, kwargs, approval, progress))
        finally:
            self.portal.run(lambda: self._withdraw(call_id))

    async def _arun(
        self, *args: Any, runtime: ToolRuntime[Any, Any] = _NO_RUNTIME, **kwargs: Any
    ) -> Any:
        kwargs.pop("run_manager", None)
        call_id = kwargs.pop(_CALL_ID, None) or new_call_id()
        await self._reserve(call_id, runtime)
        try:
            asks = await self.toolbox.would_ask(self.name, kwargs, call_id=call_id)
            approval = self._approval(call_id, kwargs) if asks else None
            return await self._call(call_id, kwargs, approval, _progress_writer(self.name))
        finally:  # paused for the user (an interrupt), failed, or run: the place is free
            await self._withdraw(call_id)

    async def _reserve(self, call_id: str, runtime: ToolRuntime[Any, Any] | None) -> None:
        """Reserve the places of the message's calls this toolbox runs, in its order.

        The graph runs each call as a task of its own, and hands them over in any order;
        the state shows the model's message, so every call of it takes its place at once,
        the first time any of them comes. Calls already answered in the state, or run by
        this toolbox, are left out; a call resumed after the user's answer comes alone.
        """
        if runtime is None or self.toolbox.settled(call_id):
            return
        ours = {
            t.name for t in runtime.tools if isinstance(t, HandsTool) and t.toolbox is self.toolbox
        }
        for other_id, name, arguments in _message_calls(runtime.state, call_id):
            if name in ours:
                self.toolbox.reserve(other_id, name, arguments, claimed=other_id == call_id)

    async def _withdraw(self, call_id: str) -> None:
        self.toolbox.withdraw(call_id)

    def _approval(self, call_id: str, arguments: dict[str, Any]) -> Approval:
        # the graph pauses here and runs the tool again on resume, with the same call id:
        # the hooks' verdict stays kept for it, so they run once for the call
        return _ask_graph(self.name, arguments)

    async def _call(
        self,
        call_id: str,
        arguments: dict[str, Any],
        approval: Approval,
        progress: Callable[[Any], None] | None,
    ) -> Any:
        result = await self.toolbox.call(
            self.name, arguments, call_id=call_id, approval=approval, progress=progress
        )
        if result.is_error:
            raise ToolException(result.text)
        return _content(result)


def _message_calls(state: object, call_id: str) -> list[tuple[str, str, dict[str, Any]]]:
    """The unanswered calls of the message that made ``call_id``: (id, name, arguments).

    In the message's order; calls ``state`` holds an answer to are left out.
    """
    messages: object
    if isinstance(state, list):
        messages = cast("list[object]", state)
    elif isinstance(state, Mapping):
        messages = cast("Mapping[str, object]", state).get("messages")
    else:
        messages = cast("object", getattr(state, "messages", None))
    if not isinstance(messages, Sequence):
        return []
    history = [m for m in cast("Sequence[object]", messages) if isinstance(m, BaseMessage)]
    answered = {m.tool_call_id for m in history if isinstance(m, ToolMessage)}
    for message in reversed(history):
        if isinstance(message, AIMessage) and any(c["id"] == call_id for c in message.tool_calls):
            return [
                (c["id"], c["name"], dict(c["args"]))
                for c in message.tool_calls
                if c["id"] is not None and c["id"] not in answered
            ]
    return []


def _ask_graph(name: str, arguments: dict[str, Any]) -> Approval:
    """Pause the graph for the user's answer (LangGraph re-runs the tool on resume)."""
    answer: object = interrupt(
        {
            "type": "permission",
            "tool": name,
            "input": arguments,
            "message": f"{name} needs the user's approval to run.",
        }
    )
    if isinstance(answer, Mapping):
        answer = cast("Mapping[str, object]", answer).get("approved", False)
    if isinstance(answer, str):
        return (
            "approved"
            if answer.lower() in {"approved", "approve", "yes", "y", "allow"}
            else "denied"
        )
    return "approved" if answer is True else "denied"


def _progress_writer(name: str) -> Callable[[Any], None] | None:
    try:
        writer = get_stream_writer()
    except Exception:  # not inside a graph run
        return None

    def send(data: Any) -> None:
        writer({"type": "tool_progress", "tool": name, "data": data})

    return send


def _content(result: CallResult) -> Any:
    if not result.images:
        return result.text
    blocks: list[dict[str, Any]] = []
    for part in result.parts:
        if isinstance(part, ImageBlock):
            blocks.append({"type": "image", "base64": part.data, "mime_type": part.media_type})
        elif isinstance(part, TextBlock):
            blocks.append({"type": "text", "text": part.text})
    return blocks


def _tool(toolbox: Toolbox, portal: _Portal, definition: ToolDef) -> HandsTool:
    return HandsTool(
        name=definition.name,
        description=definition.description,
        args_schema=dict(definition.input_schema),
        toolbox=toolbox,
        portal=portal,
        handle_tool_error=True,  # hands' error results reach the model as error messages
    )


def hands_tools(toolbox: Toolbox | None = None, **options: Any) -> list[BaseTool]:
    """LangChain tools for hands' tools; keyword arguments go to :class:`Toolbox`."""
    box = toolbox if toolbox is not None else Toolbox(**options)
    portal = _Portal()
    return [_tool(box, portal, d) for d in box.every_tool_def()]


__all__ = ["HandsTool", "hands_tools"]
