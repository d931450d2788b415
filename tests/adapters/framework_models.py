"""Each framework's own test model, scripted: it answers each request with the next
message of tool calls (then with "done") and notes what each call returned."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

from adapter_scenario import Step
from agents.items import ModelResponse as AgentsResponse
from agents.items import TResponseStreamEvent
from agents.models.interface import Model
from agents.usage import Usage
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo

# -- pydantic-ai: a FunctionModel's function --------------------------------------------


class Script:
    """Answers each request with the next message of tool calls, then with text."""

    def __init__(self, messages: list[list[Step]]) -> None:
        self.messages = messages
        self.seen: dict[str, tuple[str, bool]] = {}
        self.tool_names: list[list[str]] = []
        self.search_description = ""

    def __call__(self, history: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.tool_names.append([t.name for t in info.function_tools])
        for tool in info.function_tools:
            if tool.name == "ToolSearch" and not self.search_description:
                self.search_description = tool.description or ""
        for part in history[-1].parts if isinstance(history[-1], ModelRequest) else ():
            if isinstance(part, ToolReturnPart):
                failed = getattr(part, "outcome", "success") != "success"
                self.seen[part.tool_call_id] = (str(part.content), failed)
            elif isinstance(part, RetryPromptPart) and part.tool_call_id:
                self.seen[part.tool_call_id] = (str(part.content), True)
        if not self.messages:
            return ModelResponse(parts=[TextPart("done")])
        step = self.messages.pop(0)
        return ModelResponse(
            parts=[ToolCallPart(s.name, dict(s.input), tool_call_id=s.id) for s in step]
        )


# -- the OpenAI Agents SDK: a Model --------------------------------------------------------


class ScriptedModel(Model):
    """Answers each request with the next message of tool calls, then with text."""

    def __init__(self, messages: list[list[Step]]) -> None:
        self.messages = messages
        self.seen: dict[str, tuple[str, bool]] = {}
        self.tool_names: list[list[str]] = []

    async def get_response(
        self,
        system_instructions: Any,
        input: Any,
        model_settings: Any,
        tools: Any,
        *args: Any,
        **kwargs: Any,
    ) -> AgentsResponse:
        self.tool_names.append([t.name for t in tools])
        for item in input if isinstance(input, list) else ():
            entry: dict[str, Any] = item if isinstance(item, dict) else {}  # type: ignore[assignment]
            if entry.get("type") == "function_call_output":
                output = entry["output"]
                text = (
                    output
                    if isinstance(output, str)
                    else "".join(p.get("text", "") for p in output)
                )
                # hands' error results are plain strings; successes are typed text parts
                self.seen[entry["call_id"]] = (text, isinstance(output, str))
        if not self.messages:
            text = ResponseOutputText(type="output_text", text="done", annotations=[])
            message = ResponseOutputMessage(
                id="m", type="message", role="assistant", status="completed", content=[text]
            )
            return AgentsResponse(output=[message], usage=Usage(), response_id=None)
        calls = [
            ResponseFunctionToolCall(
                id=f"fc_{s.id}",
                call_id=s.id,
                name=s.name,
                arguments=json.dumps(s.input),
                type="function_call",
                status="completed",
            )
            for s in self.messages.pop(0)
        ]
        return AgentsResponse(output=list(calls), usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[TResponseStreamEvent]:
        raise NotImplementedError


# -- LangChain / LangGraph: a fake chat model ----------------------------------------------


class ScriptedChat(GenericFakeChatModel):
    """The fake chat model, with tools bound (it answers from its script regardless)."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChat:  # type: ignore[override]
        return self


def script(messages: list[list[Step]]) -> Iterator[AIMessage]:
    for step in messages:
        calls = [
            {"name": s.name, "args": dict(s.input), "id": s.id, "type": "tool_call"} for s in step
        ]
        yield AIMessage(content="", tool_calls=calls)
    yield AIMessage(content="done")


def seen_by_model(messages: Sequence[BaseMessage]) -> dict[str, tuple[str, bool]]:
    return {
        m.tool_call_id: (m.text if hasattr(m, "text") else str(m.content), m.status == "error")
        for m in messages
        if isinstance(m, ToolMessage)
    }


CONFIG: Any = {"configurable": {"thread_id": "t1"}}
