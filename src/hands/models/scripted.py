"""``ScriptedModel``: replays assistant turns from a script, streamed like a real model.

Script format (JSON)::

    {"turns": [{"blocks": [
        {"type": "text", "text": "Looking…", "delay_ms": 100},
        {"type": "tool_use", "name": "Read", "input": {"file_path": "a.py"}, "delay_ms": 400}
    ], "end_delay_ms": 0}]}

Turn N+1 is streamed when the loop asks again (after turn N's results came back).
``delay_ms`` is slept before each block; text arrives in word-sized deltas and tool input
as several JSON fragments, exactly like a real stream.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

import anyio
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from hands.core.messages import TextBlock, ThinkingBlock, ToolUseBlock
from hands.errors import ConfigError, ScriptExhaustedError
from hands.models.base import (
    BlockComplete,
    InputJsonDelta,
    MessageStart,
    MessageStop,
    Model,
    ModelRequest,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolUseStart,
    Usage,
)
from hands.models.facts import ModelFacts, facts_for, facts_of


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ScriptText(_Strict):
    """A text block of a scripted turn."""

    type: Literal["text"]
    text: str
    delay_ms: float = 0


class ScriptThinking(_Strict):
    """A thinking block of a scripted turn."""

    type: Literal["thinking"]
    thinking: str
    delay_ms: float = 0


class ScriptToolUse(_Strict):
    """A tool_use block of a scripted turn."""

    type: Literal["tool_use"]
    name: str
    input: dict[str, Any] = Field(default_factory=lambda: dict[str, Any]())
    id: str | None = None
    delay_ms: float = 0


ScriptBlock = Annotated[ScriptText | ScriptThinking | ScriptToolUse, Field(discriminator="type")]


class ScriptTurn(_Strict):
    """One assistant turn."""

    blocks: list[ScriptBlock]
    end_delay_ms: float = 0
    stop_reason: str | None = None


class Script(_Strict):
    """A whole scripted conversation."""

    turns: list[ScriptTurn]


class ScriptedModel:
    """A deterministic model for tests and demos; see the module docstring."""

    def __init__(
        self,
        script: Script | Mapping[str, Any],
        *,
        name: str = "scripted",
        context_window: int | None = None,
    ) -> None:
        """A model that plays ``script``.

        ``name`` may place it (``anthropic:…`` has Anthropic's facts); ``context_window``
        sets its window (else the catalog's for the name).
        """
        try:
            self.script = script if isinstance(script, Script) else Script.model_validate(script)
        except ValidationError as exc:
            raise ConfigError(f"invalid model script: {exc}") from exc
        self._name = name
        self.facts = facts_for(name, window=context_window)
        """What it says of itself: the catalog's facts for ``name``."""
        self._turn = 0
        self.requests: list[ModelRequest] = []

    @classmethod
    def from_file(cls, path: str | Path) -> ScriptedModel:
        """Load a script file; ConfigError when it is missing or malformed."""
        p = Path(path)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"cannot read model script {p}: {exc.strerror}") from exc
        except json.JSONDecodeError as exc:
            raise ConfigError(f"model script {p} is not valid JSON: {exc}") from exc
        return cls(data, name=f"scripted:{p.name}")

    @classmethod
    def from_turns(cls, *turns: Sequence[Mapping[str, Any]]) -> ScriptedModel:
        """Build from lists of block dicts, one list per turn."""
        return cls({"turns": [{"blocks": list(blocks)} for blocks in turns]})

    @property
    def name(self) -> str:
        """The model's identifier."""
        return self._name

    @property
    def turns_left(self) -> int:
        """How many scripted turns have not been streamed yet."""
        return len(self.script.turns) - self._turn

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Stream the next scripted turn."""
        if self._turn >= len(self.script.turns):
            raise ScriptExhaustedError(
                f"the model script has {len(self.script.turns)} turn(s) and all were used"
            )
        self.requests.append(request)
        turn_no = self._turn
        turn = self.script.turns[turn_no]
        self._turn += 1
        yield MessageStart(id=f"msg_scripted_{turn_no}", model=self._name)
        output_chars = 0
        has_tool_use = False
        for index, block in enumerate(turn.blocks):
            if block.delay_ms > 0:
                await anyio.sleep(block.delay_ms / 1000)
            if isinstance(block, ScriptText):
                for piece in _chunks(block.text):
                    yield TextDelta(index=index, text=piece)
                output_chars += len(block.text)
                yield BlockComplete(index=index, block=TextBlock(text=block.text))
            elif isinstance(block, ScriptThinking):
                for piece in _chunks(block.thinking):
                    yield ThinkingDelta(index=index, thinking=piece)
                yield BlockComplete(index=index, block=ThinkingBlock(thinking=block.thinking))
            else:
                has_tool_use = True
                tool_id = block.id or f"toolu_s{turn_no:02d}_{index:02d}"
                yield ToolUseStart(index=index, id=tool_id, name=block.name)
                raw = json.dumps(block.input)
                output_chars += len(raw)
                for piece in _fragments(raw):
                    yield InputJsonDelta(index=index, partial_json=piece)
                yield BlockComplete(
                    index=index,
                    block=ToolUseBlock(id=tool_id, name=block.name, input=json.loads(raw)),
                )
        if turn.end_delay_ms > 0:
            await anyio.sleep(turn.end_delay_ms / 1000)
        stop = turn.stop_reason or ("tool_use" if has_tool_use else "end_turn")
        # like a provider's count, the usage covers the whole request: system and tools too
        prompt_chars = sum(len(json.dumps(m.to_wire())) for m in request.messages)
        prompt_chars += len(request.system)
        prompt_chars += sum(len(json.dumps(t.to_wire())) for t in request.tools)
        yield MessageStop(
            stop_reason=stop,
            usage=Usage(input_tokens=prompt_chars // 4 + 1, output_tokens=output_chars // 4 + 1),
        )


def _chunks(text: str) -> list[str]:
    words = text.split(" ")
    return [w + (" " if i < len(words) - 1 else "") for i, w in enumerate(words)] or [""]


def _fragments(raw: str) -> list[str]:
    size = max(1, len(raw) // 3)
    return [raw[i : i + size] for i in range(0, len(raw), size)] or [raw]


class ScriptedAgents:
    """Several scripted models behind one: each request goes to the script of its agent.

    A request belongs to the route whose key appears in the conversation's first user
    message (the longest key wins), so a sub-agent, whose conversation starts with its
    prompt, is served by the route keyed by a phrase of that prompt; every other request
    goes to ``main``. Each route keeps its own place in its script.
    """

    def __init__(self, main: Model, routes: Mapping[str, Model], *, name: str = "scripted") -> None:
        self.main = main
        self.routes = dict(routes)
        self._keys = sorted(self.routes, key=len, reverse=True)
        self._name = name

    @property
    def name(self) -> str:
        """The model's identifier."""
        return self._name

    @property
    def facts(self) -> ModelFacts:
        """The main script's facts."""
        return facts_of(self.main)

    def route(self, request: ModelRequest) -> Model:
        """The script that answers ``request``."""
        first = next((m for m in request.messages if m.role == "user"), None)
        text = first.text if first is not None else ""
        for key in self._keys:
            if key in text:
                return self.routes[key]
        return self.main

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Stream the next turn of the request's route."""
        async for event in self.route(request).stream(request):
            yield event
