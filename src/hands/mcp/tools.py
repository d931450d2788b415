"""An MCP server's tool as a hands :class:`Tool`, named ``mcp__<server>__<tool>``.

The server's JSON schema is passed to the model as it is (a root-level ``anyOf`` /
``oneOf`` / ``allOf`` flattened, since the API wants an object at the root); the input is
checked only for its required keys, the server validates the rest. Annotations give the
flags: ``readOnlyHint`` → read-only and concurrency-safe, ``destructiveHint`` kept.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol, cast

from pydantic import BaseModel, ConfigDict, ValidationError

from hands.core.decision import PermissionDecision, ask
from hands.core.messages import ImageBlock, TextBlock
from hands.core.tool import Content, Progress, Tool, ToolResult
from hands.errors import ToolError
from hands.mcp.naming import server_prefix, tool_name

if TYPE_CHECKING:
    from hands.core.context import ToolContext

MAX_DESCRIPTION_CHARS = 2048
MAX_RESULT_SIZE_CHARS_CEILING = 500_000
CHARS_PER_TOKEN = 4


class McpInput(BaseModel):
    """Any JSON object: the MCP server validates its own arguments."""

    model_config = ConfigDict(extra="allow")


@dataclass(frozen=True, kw_only=True, slots=True)
class McpToolDef:
    """What ``tools/list`` said about one tool, without SDK types."""

    name: str
    description: str = ""
    title: str = ""
    input_schema: Mapping[str, Any] = field(default_factory=lambda: {"type": "object"})
    annotations: Mapping[str, Any] = field(default_factory=lambda: dict[str, Any]())
    meta: Mapping[str, Any] = field(default_factory=lambda: dict[str, Any]())


@dataclass(frozen=True, kw_only=True, slots=True)
class McpCallResult:
    """A ``tools/call`` result in hands' blocks; ``structured`` is ``structuredContent``."""

    content: tuple[TextBlock | ImageBlock, ...] = ()
    structured: Any = None
    is_error: bool = False
    annotations: tuple[Mapping[str, Any] | None, ...] = ()
    """Each content block's annotations (``audience``, ``priority``, ``lastModified``), in
    the order of ``content``; empty when the server sent none."""

    def text(self) -> str:
        """The text blocks joined."""
        return "\n".join(b.text for b in self.content if isinstance(b, TextBlock))


@dataclass(frozen=True, kw_only=True, slots=True)
class McpProgress:
    """One ``notifications/progress`` from the server."""

    server: str
    tool: str
    progress: float
    total: float | None = None
    message: str | None = None

    def __str__(self) -> str:
        amount = f"{self.progress:g}" + (f"/{self.total:g}" if self.total else "")
        return f"{self.message} ({amount})" if self.message else amount


class McpBackend(Protocol):
    """What MCP tools need from the connection manager."""

    @property
    def max_output_tokens(self) -> int:
        """``MAX_MCP_OUTPUT_TOKENS``."""
        ...

    async def call_tool(
        self, server: str, tool: str, arguments: dict[str, Any], progress: Progress
    ) -> McpCallResult:
        """Run one tool call; raises ToolError with a model-facing message on failure."""
        ...

    async def resolve_tool(self, name: str) -> Tool[Any, Any]:
        """Wait for the server behind ``name`` to connect and return its tool."""
        ...


def flatten_schema(schema: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """An object schema for the API, and a note for the description when one was flattened.

    A root ``allOf`` is merged; a root ``anyOf`` / ``oneOf`` becomes one object with
    every variant's properties, keeping as required only what every variant requires.
    """
    out: dict[str, Any] = copy.deepcopy(dict(schema))
    note = ""
    groups: list[tuple[str, list[dict[str, Any]]]] = []
    for key in ("allOf", "anyOf", "oneOf"):
        value = out.pop(key, None)
        if isinstance(value, list):
            variants = [
                cast(dict[str, Any], v) for v in cast(list[object], value) if isinstance(v, dict)
            ]
            groups.append((key, variants))
    properties: dict[str, Any] = dict(cast(dict[str, Any], out.get("properties") or {}))
    required: list[str] = list(cast(list[str], out.get("required") or []))
    notes: list[str] = []
    for key, variants in groups:
        if not variants:
            continue
        for variant in variants:
            for name, prop in cast(dict[str, Any], variant.get("properties") or {}).items():
                properties.setdefault(name, prop)
        sets = [set(cast(list[str], v.get("required") or [])) for v in variants]
        if key == "allOf":
            for s in sets:
                required.extend(sorted(s))
        else:
            common: set[str] = set(sets[0]).intersection(*sets[1:]) if sets else set()
            required.extend(sorted(common))
            options = [", ".join(sorted(s)) or "(no required fields)" for s in sets]
            pick = "exactly one" if key == "oneOf" else "at least one"
            notes.append(
                f"Input must match {pick} of these argument groups (required fields): "
                + "; ".join(f"({i + 1}) {o}" for i, o in enumerate(options))
                + "."
            )
    if groups or "type" not in out:
        out["type"] = "object"
    if groups or "properties" in out:
        out["properties"] = properties
    if required:
        out["required"] = list(dict.fromkeys(required))
    if notes:
        note = " ".join(notes)
    return out, note


def _missing_error(title: str, data: Mapping[str, Any], missing: Sequence[str]) -> ValidationError:
    return ValidationError.from_exception_data(
        title,
        [{"type": "missing", "loc": (name,), "input": dict(data)} for name in missing],
    )


class McpTool(Tool[McpInput, McpCallResult]):
    """One tool of one MCP server, going through the same pipeline as built-ins."""

    input_model = McpInput
    handles_own_timeout = True  # MCP_TOOL_TIMEOUT and the server's own timeout apply
    in_background_agents = True
    asks_when_read_only = True  # readOnlyHint is the server's claim, not a fact hands checked

    def __init__(
        self, *, backend: McpBackend, server: str, definition: McpToolDef, always_load: bool = False
    ) -> None:
        self.backend = backend
        self.server = server
        self.definition = definition
        self.mcp_name = definition.name
        self.name = tool_name(server, definition.name)
        schema, note = flatten_schema(definition.input_schema)
        self._schema = schema
        text = definition.description or definition.title or f"{definition.name} (MCP tool)"
        if note:
            text = f"{text}\n\n{note}"
        if len(text) > MAX_DESCRIPTION_CHARS:
            text = text[: MAX_DESCRIPTION_CHARS - 1] + "…"
        self.description = text
        annotations = definition.annotations
        meta = definition.meta
        self.read_only = annotations.get("readOnlyHint") is True
        self.destructive = annotations.get("destructiveHint") is True
        self.open_world = annotations.get("openWorldHint") is True
        self.always_load = always_load or meta.get("anthropic/alwaysLoad") is True
        self.should_defer = not self.always_load
        hint = meta.get("anthropic/searchHint")
        self.search_hint = hint if isinstance(hint, str) else ""
        raised = meta.get("anthropic/maxResultSizeChars")
        if isinstance(raised, int) and not isinstance(raised, bool) and raised > 0:
            self.max_result_chars = min(raised, MAX_RESULT_SIZE_CHARS_CEILING)
        self._required = tuple(
            r for r in cast(list[object], schema.get("required") or []) if isinstance(r, str)
        )

    @cached_property
    def input_schema(self) -> dict[str, Any]:
        return self._schema

    def parse_input(self, data: Mapping[str, Any]) -> McpInput:
        missing = [k for k in self._required if k not in data]
        if missing:
            raise _missing_error(self.name, data, missing)
        return McpInput.model_validate(data)

    def is_read_only(self, input: McpInput) -> bool:
        return self.read_only

    def is_concurrency_safe(self, input: McpInput) -> bool:
        return self.read_only

    def is_destructive(self, input: McpInput) -> bool:
        return self.destructive

    def user_facing_name(self, input: McpInput | None = None) -> str:
        return f"{self.server} - {self.definition.title or self.mcp_name} (MCP)"

    async def check_permissions(self, input: McpInput, ctx: ToolContext) -> PermissionDecision:
        # MCP tools are never approved by default: an allow rule or the user decides.
        return ask(f"{self.name} is a tool of the MCP server {self.server}.", "MCP tool")

    async def call(
        self, input: McpInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[McpCallResult]:
        result = await self.backend.call_tool(
            self.server, self.mcp_name, input.model_dump(), progress
        )
        result = cap_output(result, self.backend.max_output_tokens, ctx)
        return ToolResult(output=result, is_error=result.is_error)

    def to_content(self, output: McpCallResult) -> Content:
        return result_content(output)


def result_content(output: McpCallResult) -> Content:
    """Blocks for the model: one string when the result is a single text.

    ``structuredContent`` is sent (as JSON text) only when the server sent no content
    blocks: otherwise the blocks already carry the result (an image result whose
    structured copy repeats the base64 data is sent as the image alone).
    """
    blocks = output.content
    if output.structured is not None and not blocks:
        blocks = (*blocks, TextBlock(text=json.dumps(output.structured, ensure_ascii=False)))
    if len(blocks) == 1 and isinstance(blocks[0], TextBlock):
        return blocks[0].text
    return blocks


def cap_output(result: McpCallResult, max_tokens: int, ctx: ToolContext) -> McpCallResult:
    """Apply ``MAX_MCP_OUTPUT_TOKENS``: spill text to a file, or cut it when images come too."""
    limit = max_tokens * CHARS_PER_TOKEN
    content = result_content(result)
    size = (
        len(content)
        if isinstance(content, str)
        else sum(len(b.text) for b in content if isinstance(b, TextBlock))
    )
    if size <= limit or result.is_error:
        return result
    images = tuple(b for b in result.content if isinstance(b, ImageBlock))
    if not images:
        from hands.core.spill import spill

        stub = spill(content, session=ctx.session, tool_use_id=ctx.tool_use_id or "mcp")
        note = (
            f"{stub}\nThe MCP tool's output exceeded MAX_MCP_OUTPUT_TOKENS ({max_tokens:,} tokens)."
        )
        return McpCallResult(content=(TextBlock(text=note),), structured=None)
    text = result.text()[:limit]
    note = (
        f"\n\n[Output truncated: it exceeded MAX_MCP_OUTPUT_TOKENS ({max_tokens:,} tokens). "
        "Ask the tool for less (a narrower query or a page of results).]"
    )
    return McpCallResult(content=(TextBlock(text=text + note), *images), structured=None)


class PendingMcpTool(Tool[McpInput, Any]):
    """Stands for a tool of a server that is still connecting (or reconnecting).

    A call waits for the server, up to its startup timeout, then runs the real tool;
    it is never read-only or concurrency-safe, since nothing is known of it yet.
    """

    input_model = McpInput
    handles_own_timeout = True
    in_background_agents = True
    asks_when_read_only = True

    def __init__(self, *, backend: McpBackend, name: str, server: str) -> None:
        self.backend = backend
        self.name = name
        self.server = server
        self.description = f"A tool of the MCP server {server}, which is still connecting."

    def parse_input(self, data: Mapping[str, Any]) -> McpInput:
        return McpInput.model_validate(data)

    async def check_permissions(self, input: McpInput, ctx: ToolContext) -> PermissionDecision:
        return ask(f"{self.name} is a tool of the MCP server {self.server}.", "MCP tool")

    async def call(self, input: McpInput, ctx: ToolContext, progress: Progress) -> ToolResult[Any]:
        real = await self.backend.resolve_tool(self.name)
        if isinstance(real, PendingMcpTool):
            raise ToolError(f"{self.name} is not available yet.")
        data = input.model_dump()
        try:
            parsed = real.parse_input(data)
        except ValidationError as exc:
            fields = ", ".join(".".join(str(p) for p in e["loc"]) for e in exc.errors())
            raise ToolError(f"{self.name}: missing required parameters: {fields}") from None
        return await real.call(parsed, ctx, progress)

    def to_content(self, output: Any) -> Content:
        if isinstance(output, McpCallResult):
            return result_content(output)
        return super().to_content(output)


def belongs_to(name: str, server: str) -> bool:
    """Whether the hands tool ``name`` is one of ``server``'s."""
    return name.startswith(server_prefix(server))
