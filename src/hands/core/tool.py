"""The tool protocol: the five elements of a tool, with fail-closed defaults.

A tool has a name (and aliases), an input schema (a pydantic model), permission checks
(``validate_input`` and ``check_permissions``), execution (``call``) and rendering
(``to_content`` for the model, ``render_*`` for people). Built-ins subclass :class:`Tool`;
:func:`build_tool` and the ``@tool`` decorator produce the same type.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import (
    TYPE_CHECKING,
    Any,
    Generic,
    Literal,
    TypeAlias,
    TypedDict,
    TypeGuard,
    TypeVar,
    Unpack,
    cast,
)

from hands.core.context import ToolContext
from hands.core.decision import PermissionDecision, passthrough
from hands.core.frozen import builder
from hands.core.messages import ImageBlock, ResultPart, TextBlock, ToolReferenceBlock
from hands.core.subject import RuleSubject, Subject
from hands.errors import ToolDefinitionError

if TYPE_CHECKING:
    from pydantic import BaseModel
    from rich.console import RenderableType

    from hands.core.state import SessionState

InputT = TypeVar("InputT", bound="BaseModel")
OutputT = TypeVar("OutputT")

Progress: TypeAlias = Callable[[Any], None]
"""Called by a tool any number of times with progress data its ``render_progress`` shows."""

ContextModifier: TypeAlias = Callable[[ToolContext], ToolContext]
Content: TypeAlias = "str | Sequence[ResultPart]"
SubagentUse: TypeAlias = Literal["always", "never", "in_plan_mode"]

MAX_NAME_LENGTH = 64
_ENCODER = json.JSONEncoder(default=str, ensure_ascii=False)


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolResult(Generic[OutputT]):
    """What ``call`` returns: the output, and optionally a change to the context.

    ``is_error`` marks a result the model should read as a failure without the tool
    raising (Bash's non-zero exit, for instance).
    """

    output: OutputT
    context_modifier: ContextModifier | None = None
    is_error: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolSpec:
    """The definition sent to the model API."""

    name: str
    description: str
    input_schema: Mapping[str, Any]
    defer_loading: bool = False
    """Sent but not shown to the model until a ``tool_reference`` names it (Anthropic)."""

    def to_wire(self) -> dict[str, Any]:
        """Anthropic's tool definition shape."""
        wire: dict[str, Any] = {
            "name": self.name,
            "description": self.description,
            "input_schema": dict(self.input_schema),
        }
        if self.defer_loading:
            wire["defer_loading"] = True
        return wire


class Tool(Generic[InputT, OutputT]):
    """Base of every tool. Defaults fail closed: not read-only, not concurrency-safe.

    Subclasses set ``name``, ``description`` and ``input_model`` and implement ``call``.
    A class that sets a name is checked when it is defined, as :func:`build_tool` checks
    its arguments: a name the model APIs accept, and a pydantic model for the input.
    """

    name: str = ""
    aliases: tuple[str, ...] = ()
    """Other names the tool answers to: its legacy names; rules and hook matchers use them too."""
    description: str = ""
    input_model: type[InputT]
    max_result_chars: int | None = 100_000
    """Output above min(this, the session limit) is spilled to a file; None: never."""
    handles_own_timeout: bool = False
    """True when the tool enforces its own time limit (Bash); the pipeline's is skipped."""
    cascades_errors: bool = False
    """True when a failure should cancel the running sibling calls (Bash)."""
    edits_files: bool = False
    """True for tools that change files (Edit, Write...): ``acceptEdits`` allows them."""
    should_defer: bool = False
    """True when the tool may be deferred: once the schemas would cost too many tokens,
    the model sees only its name and fetches the schema through ToolSearch."""
    always_load: bool = False
    """True to send the full schema in every request even when ``should_defer`` is set
    (an MCP server configured ``alwaysLoad``)."""
    search_hint: str = ""
    """A short phrase ToolSearch matches a deferred tool by, and lists beside its name;
    empty: the description."""
    subject: RuleSubject | None = None
    """What the permission rules of this tool match (:mod:`hands.core.subject`); None: the
    tool's name only."""
    asks_when_read_only: bool = False
    """Needs permission in ``default`` mode even though it changes no files."""
    always_asks: bool = False
    """Reaches the ask handler in every mode: only the user can answer it."""
    hook_allow_needs_input: bool = False
    """A PreToolUse hook's ``allow`` counts only with ``updatedInput`` (it answered for the
    user)."""
    allowed_in_plan_mode: bool = False
    """Runs in plan mode although it is not read-only (the tool that leaves plan mode)."""
    simple_mode: bool = False
    """Kept in simple mode (``HANDS_SIMPLE``), which offers only the core file and shell tools."""
    subagent_use: SubagentUse = "always"
    """Whether a sub-agent is given the tool: ``always``; ``never`` (only the main agent
    may use it: a question for the user); ``in_plan_mode`` (only a sub-agent that runs in
    plan mode: the tools that enter and leave it)."""
    session_states: tuple[type[SessionState], ...] = ()
    """The kinds of state the tool keeps across a session's calls (read-state, todos);
    registered with the session so transcripts, resume and compaction carry them."""
    in_background_agents: bool = False
    """Given to a sub-agent that runs in the background (which has no one watching):
    the file, search, shell, web, todo and skill tools, MCP tools and the host's own
    tools; not the ones that coordinate or drive a browser."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared = vars(cls)
        if "name" in declared:
            check_tool_name(cls.name)
            if not hasattr(cls, "input_model"):
                raise ToolDefinitionError(f"tool {cls.name!r} has no input_model")
        if "input_model" in declared:
            check_input_model(cls.input_model, cls.name or cls.__qualname__)

    # -- schema ---------------------------------------------------------------------

    @cached_property
    def input_schema(self) -> dict[str, Any]:
        """JSON Schema of the input, as sent to the API."""
        from hands.core.schema import input_json_schema

        return input_json_schema(self.input_model)

    def spec(self) -> ToolSpec:
        """The API definition of this tool."""
        return ToolSpec(
            name=self.name, description=self.description, input_schema=self.input_schema
        )

    def parse_input(self, data: Mapping[str, Any]) -> InputT:
        """Validate the model's JSON; raises ``pydantic.ValidationError``."""
        # model_validate with no options, without its wrapper: the model's own validator
        return cast(InputT, self.input_model.__pydantic_validator__.validate_python(data))

    # -- flags (fail closed) ----------------------------------------------------------

    def is_enabled(self) -> bool:
        """Whether the tool is offered at all."""
        return True

    def is_read_only(self, input: InputT) -> bool:
        """Whether this call changes nothing. Default: no."""
        return False

    def is_concurrency_safe(self, input: InputT) -> bool:
        """Whether this call may run alongside others. Default: no."""
        return False

    def is_destructive(self, input: InputT) -> bool:
        """Whether this call deletes or overwrites irreversibly. Default: no."""
        return False

    def permission_subject(self, input: InputT, ctx: ToolContext) -> Subject | None:
        """What this call's permission rules match; default: read from :attr:`subject`."""
        declared = self.subject
        return None if declared is None else declared.of(input, ctx)

    def user_facing_name(self, input: InputT | None = None) -> str:
        """The label people see; permission rules and hooks use ``name``."""
        return self.name

    def observable_input(self, input: InputT, ctx: ToolContext) -> Mapping[str, Any] | None:
        """Fields added to the input hooks see (ExitPlanMode adds its plan); None: none."""
        return None

    # -- permissions ------------------------------------------------------------------

    async def validate_input(self, input: InputT, ctx: ToolContext) -> str | None:
        """Return an error message if the call is meaningless (file missing...), else None."""
        return None

    async def check_permissions(self, input: InputT, ctx: ToolContext) -> PermissionDecision:
        """Tool-specific permission opinion; default: none (the policy decides)."""
        return passthrough()

    @cached_property
    def checks_input(self) -> bool:
        """Whether :meth:`validate_input` may find something (the pipeline skips it if not)."""
        return type(self).validate_input is not Tool.validate_input

    @cached_property
    def adds_observable_input(self) -> bool:
        """Whether :meth:`observable_input` may add fields (the pipeline skips it if not)."""
        return type(self).observable_input is not Tool.observable_input

    @cached_property
    def permission_ignores_input(self) -> bool:
        """Whether what the permission rules see of a call is the same for every input.

        True only for a tool with no subject, the default :meth:`check_permissions` and
        :meth:`permission_subject`, and a read-only answer that cannot depend on the
        input: a policy may then reuse its decision for the tool's next call. Anything
        overridden counts as depending on the input.
        """
        cls = type(self)
        return (
            self.subject is None
            and cls.permission_subject is Tool.permission_subject
            and cls.check_permissions is Tool.check_permissions
            and cls.is_read_only in _FIXED_READ_ONLY
        )

    # -- execution --------------------------------------------------------------------

    async def call(
        self, input: InputT, ctx: ToolContext, progress: Progress
    ) -> ToolResult[OutputT]:
        """Run the tool."""
        raise NotImplementedError(f"{type(self).__name__}.call is not implemented")

    # -- rendering --------------------------------------------------------------------

    def to_content(self, output: OutputT) -> Content:
        """The blocks the model sees for ``output``."""
        return default_content(output)

    async def preview(self, input: InputT, ctx: ToolContext) -> str | None:
        """What the call will do, in full, for the person asked to approve it.

        Plain text, never shortened by the tool (a shell command, a file's diff); None
        when ``Name(summary)`` says it all. Called after ``validate_input``.
        """
        return None

    def describe_input(self, input: InputT) -> str:
        """A one-line summary of the input, shown as ``Name(summary)``."""
        data = input.model_dump(by_alias=True, exclude_defaults=True)
        if len(data) == 1:
            (value,) = data.values()
            text = value if isinstance(value, str) else json.dumps(value, default=str)
        else:
            text = ", ".join(f"{k}: {json.dumps(v, default=str)}" for k, v in data.items())
        return text if len(text) <= 80 else text[:79] + "…"

    def render_use(self, input: InputT) -> RenderableType:
        """How a request to run this tool is shown."""
        from hands.core.render import use_line

        return use_line(self.user_facing_name(input), self.describe_input(input))

    def render_progress(self, data: Any) -> RenderableType:
        """How one progress update is shown."""
        from hands.core.render import dim_text

        return dim_text(str(data))

    def render_result(self, output: OutputT) -> RenderableType:
        """How a successful result is shown."""
        from hands.core.render import result_text

        return result_text(self.to_content(output))

    def render_rejected(self, input: InputT, reason: str) -> RenderableType:
        """How a call refused by permissions or a hook is shown."""
        from hands.core.render import rejected_text

        return rejected_text(self.user_facing_name(input), reason)

    def render_error(self, message: str) -> RenderableType:
        """How a failed call is shown."""
        from hands.core.render import error_text

        return error_text(message)

    def render_group(self, inputs: Sequence[InputT]) -> RenderableType:
        """How several calls of this tool running in parallel are shown together."""
        from hands.core.render import group

        return group(self.user_facing_name(), [self.describe_input(i) for i in inputs])

    def __repr__(self) -> str:
        return f"<Tool {self.name}>"


def default_content(output: object) -> Content:
    """Text for an output: strings as they are, models and containers as JSON."""
    if isinstance(output, str):
        return output
    kind = type(output)
    if kind is int or kind is float:
        return repr(output)
    if _is_model(output):
        return output.model_dump_json(by_alias=True)
    if isinstance(output, list | tuple):
        items = cast(Sequence[object], output)
        if all(isinstance(item, TextBlock | ImageBlock | ToolReferenceBlock) for item in items):
            return tuple(cast(Sequence[ResultPart], items))
    if output is None:
        return ""
    try:
        return _ENCODER.encode(output)
    except (TypeError, ValueError):
        return repr(cast(Any, output))


def _is_model(output: object) -> TypeGuard[BaseModel]:
    # pydantic is imported by whoever built a model; never import it here for the check
    pydantic = sys.modules.get("pydantic")
    return pydantic is not None and isinstance(output, pydantic.BaseModel)


def check_tool_name(name: str) -> str:
    """Return ``name`` if the model APIs accept it, else raise ToolDefinitionError."""
    if (
        not name
        or len(name) > MAX_NAME_LENGTH
        or not all(c.isascii() and (c.isalnum() or c in "_-") for c in name)
    ):
        raise ToolDefinitionError(
            f"tool name {name!r} must be 1-{MAX_NAME_LENGTH} characters of [A-Za-z0-9_-]"
        )
    return name


def check_input_model(model: object, owner: str) -> None:
    """Raise ToolDefinitionError unless ``model`` is a pydantic model class."""
    # whoever made a model imported pydantic; a tool module without it has no model
    pydantic = sys.modules.get("pydantic")
    if not (
        pydantic is not None and isinstance(model, type) and issubclass(model, pydantic.BaseModel)
    ):
        raise ToolDefinitionError(f"input_model of {owner!r} must be a pydantic BaseModel class")


Flag: TypeAlias = "bool | Callable[[Any], bool]"
CallFn: TypeAlias = Callable[[Any, ToolContext, Progress], Awaitable[Any]]


class ToolOptions(TypedDict, total=False):
    """The keywords :func:`build_tool` and ``@tool`` share; an absent one takes its default.

    Flags are booleans or functions of the parsed input, and fail closed.
    """

    aliases: Sequence[str]
    """Other names the tool answers to (legacy names). Default: none."""
    read_only: Flag
    """Whether a call changes nothing. Default: False."""
    concurrency_safe: Flag
    """Whether a call may run beside others. Default: the value of ``read_only``."""
    destructive: Flag
    """Whether a call deletes or overwrites irreversibly. Default: False."""
    enabled: Callable[[], bool]
    """Whether the tool is offered at all. Default: always."""
    validate_input: Callable[[Any, ToolContext], Awaitable[str | None]]
    """An error message when a call is meaningless (file missing...), else None."""
    check_permissions: Callable[[Any, ToolContext], Awaitable[PermissionDecision]]
    """The tool's own permission opinion. Default: none (the policy decides)."""
    to_content: Callable[[Any], Content]
    """The blocks the model sees for an output. Default: :func:`default_content`."""
    max_result_chars: int | None
    """Output above min(this, the session limit) is spilled to a file; None: never."""
    edits_files: bool
    """True for a tool that changes files: ``acceptEdits`` allows it. Default: False."""
    should_defer: bool
    """The tool may be deferred, its schema fetched through ToolSearch. Default: False."""
    search_hint: str
    """A short phrase ToolSearch matches a deferred tool by. Default: the description."""
    subject: RuleSubject | None
    """What the tool's permission rules match (``reads_path("path")``...;
    :mod:`hands.core.subject`). Default: None, the tool's name only."""
    in_background_agents: bool
    """Given to sub-agents that run in the background. Default: True (a host's tools
    stay, as MCP tools do)."""


class _BuiltTool(Tool[Any, Any]):
    """A tool assembled by :func:`build_tool` from plain values and callables."""

    def __init__(
        self,
        *,
        name: str,
        description: str,
        input_model: type[BaseModel],
        call: CallFn,
        options: ToolOptions,
    ) -> None:
        self.name = check_tool_name(name)
        self.description = description
        self.input_model = input_model
        self.aliases = tuple(options.get("aliases", ()))
        self._call = call
        self._read_only = options.get("read_only", False)
        self._concurrency_safe = options.get("concurrency_safe", self._read_only)
        self._destructive = options.get("destructive", False)
        self._enabled = options.get("enabled")
        self._validate = options.get("validate_input")
        self._check = options.get("check_permissions")
        self._to_content = options.get("to_content")
        self.max_result_chars = options.get("max_result_chars", Tool.max_result_chars)
        self.edits_files = options.get("edits_files", False)
        self.should_defer = options.get("should_defer", False)
        self.search_hint = options.get("search_hint", "")
        self.subject = options.get("subject")
        self.in_background_agents = options.get("in_background_agents", True)

    def is_enabled(self) -> bool:
        return True if self._enabled is None else self._enabled()

    def is_read_only(self, input: Any) -> bool:
        return _flag(self._read_only, input)

    def is_concurrency_safe(self, input: Any) -> bool:
        return _flag(self._concurrency_safe, input)

    def is_destructive(self, input: Any) -> bool:
        return _flag(self._destructive, input)

    async def validate_input(self, input: Any, ctx: ToolContext) -> str | None:
        return None if self._validate is None else await self._validate(input, ctx)

    async def check_permissions(self, input: Any, ctx: ToolContext) -> PermissionDecision:
        return passthrough() if self._check is None else await self._check(input, ctx)

    async def call(self, input: Any, ctx: ToolContext, progress: Progress) -> ToolResult[Any]:
        result = await self._call(input, ctx, progress)
        if isinstance(result, ToolResult):
            return cast(ToolResult[Any], result)
        return _build_result(result, None, False)

    def to_content(self, output: Any) -> Content:
        return default_content(output) if self._to_content is None else self._to_content(output)

    @cached_property
    def checks_input(self) -> bool:
        return self._validate is not None

    @cached_property
    def permission_ignores_input(self) -> bool:
        return self.subject is None and self._check is None and not callable(self._read_only)


_build_result: Callable[..., ToolResult[Any]] = builder(
    ToolResult, "output", "context_modifier", "is_error"
)


def _flag(flag: Flag, input: Any) -> bool:
    return flag(input) if callable(flag) else bool(flag)


def build_tool(
    *,
    name: str,
    input_model: type[BaseModel],
    call: CallFn,
    description: str = "",
    **options: Unpack[ToolOptions],
) -> Tool[Any, Any]:
    """Build a :class:`Tool` from parts; anything not given takes the fail-closed default.

    ``call(input, ctx, progress)`` may return a :class:`ToolResult` or a bare output.
    The other keywords are :class:`ToolOptions`, the same set ``@tool`` takes.
    """
    check_input_model(input_model, name)
    return _BuiltTool(
        name=name, description=description, input_model=input_model, call=call, options=options
    )


class ReadOnlyTool(Tool[InputT, OutputT]):
    """A tool whose every call is read-only and concurrency-safe: calls run side by side."""

    def is_read_only(self, input: InputT) -> bool:  # noqa: D102
        return True

    def is_concurrency_safe(self, input: InputT) -> bool:  # noqa: D102
        return True


_FIXED_READ_ONLY: frozenset[object] = frozenset((Tool.is_read_only, ReadOnlyTool.is_read_only))  # pyright: ignore[reportUnknownMemberType, reportUnknownArgumentType]
"""``is_read_only`` implementations whose answer never depends on the input."""
