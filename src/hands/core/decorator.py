"""``@tool``: a tool from a typed function; schema from the signature and docstring."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, Unpack, cast, get_type_hints, overload

from hands.core.context import ToolContext
from hands.core.tool import CallFn, Progress, Tool, ToolOptions, ToolResult, build_tool
from hands.errors import ToolDefinitionError

_RESERVED = frozenset({"ctx", "progress"})


@overload
def tool(fn: Callable[..., Any], /) -> Tool[Any, Any]: ...


@overload
def tool(
    *,
    name: str | None = None,
    description: str | None = None,
    run_in_thread: bool = True,
    **options: Unpack[ToolOptions],
) -> Callable[[Callable[..., Any]], Tool[Any, Any]]: ...


def tool(
    fn: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    run_in_thread: bool = True,
    **options: Unpack[ToolOptions],
) -> Tool[Any, Any] | Callable[[Callable[..., Any]], Tool[Any, Any]]:
    """Turn a typed function (sync or async) into a :class:`Tool`.

    Parameters become the input schema; the docstring's summary becomes the description
    and its ``Args:`` section the field descriptions. A parameter annotated
    ``ToolContext`` receives the call context; one named ``progress`` receives the
    progress callback. ``name`` defaults to the function's name. The other keywords
    (``read_only``, ``concurrency_safe``, ``validate_input``, ``should_defer``...) are
    :class:`~hands.core.tool.ToolOptions`, passed on to :func:`build_tool`.

    A sync function runs in a worker thread, so a blocking one stalls neither the model
    stream nor the calls beside it; its ``progress`` calls are passed back to the event
    loop. On a timeout or an interrupt the call's result is abandoned while the thread
    finishes on its own. ``run_in_thread=False`` runs it on the event loop instead, for a
    function that must (one that touches loop-bound objects); it must then not block.
    """

    def wrap(func: Callable[..., Any]) -> Tool[Any, Any]:
        return _from_function(
            func, name=name, description=description, run_in_thread=run_in_thread, options=options
        )

    return wrap if fn is None else wrap(fn)


def _from_function(
    func: Callable[..., Any],
    *,
    name: str | None,
    description: str | None,
    run_in_thread: bool,
    options: ToolOptions,
) -> Tool[Any, Any]:
    import docstring_parser
    from pydantic import Field, create_model

    from hands.core.schema import ToolInput

    tool_name = name or func.__name__
    doc = docstring_parser.parse(inspect.getdoc(func) or "")
    param_docs = {p.arg_name: (p.description or "") for p in doc.params}
    summary = "\n\n".join(part for part in (doc.short_description, doc.long_description) if part)
    try:
        hints = get_type_hints(func)
    except Exception as exc:
        raise ToolDefinitionError(f"cannot read the type hints of {tool_name!r}: {exc}") from exc

    fields: dict[str, Any] = {}
    ctx_param: str | None = None
    progress_param: str | None = None
    for param in inspect.signature(func).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise ToolDefinitionError(f"{tool_name}: *args/**kwargs cannot become a schema")
        annotation = hints.get(param.name, Any)
        if annotation is ToolContext:
            ctx_param = param.name
            continue
        if param.name == "progress":
            progress_param = param.name
            continue
        if param.name in _RESERVED:
            raise ToolDefinitionError(f"{tool_name}: parameter name {param.name!r} is reserved")
        if param.name not in hints:
            raise ToolDefinitionError(
                f"{tool_name}: parameter {param.name!r} needs a type annotation"
            )
        default = ... if param.default is param.empty else param.default
        fields[param.name] = (
            annotation,
            Field(default, description=param_docs.get(param.name) or None),
        )

    model = create_model(f"{tool_name}_input", __base__=ToolInput, **fields)
    call = _caller(func, tuple(fields), ctx_param, progress_param, run_in_thread)
    built = build_tool(
        name=tool_name,
        description=description if description is not None else summary,
        input_model=model,
        call=call,
        **options,
    )
    built.__doc__ = func.__doc__
    return built


def _caller(
    func: Callable[..., Any],
    field_names: tuple[str, ...],
    ctx_param: str | None,
    progress_param: str | None,
    run_in_thread: bool,
) -> CallFn:
    """The tool's ``call``: the function's arguments from the input, run where it should."""

    def arguments(input: Any, ctx: ToolContext, progress: Progress) -> dict[str, Any]:
        kwargs = {key: getattr(input, key) for key in field_names}
        if ctx_param is not None:
            kwargs[ctx_param] = ctx
        if progress_param is not None:
            kwargs[progress_param] = progress
        return kwargs

    if inspect.iscoroutinefunction(func) and ctx_param is None and progress_param is None:
        # the common case: the input's fields are the arguments (the model refuses extra
        # keys, so its ``__dict__`` holds exactly them); the built tool awaits the
        # function's own coroutine (no extra layer) and wraps a bare output
        def direct(input: Any, ctx: ToolContext, progress: Progress) -> Awaitable[Any]:
            return func(**input.__dict__)

        return direct

    if inspect.iscoroutinefunction(func):

        async def call(input: Any, ctx: ToolContext, progress: Progress) -> Any:
            return _as_result(await func(**arguments(input, ctx, progress)))

    elif run_in_thread:
        import anyio.from_thread  # lazy: start-up
        import anyio.to_thread  # lazy: start-up

        def from_thread(data: Any, progress: Progress) -> None:
            anyio.from_thread.run_sync(progress, data)

        async def call(input: Any, ctx: ToolContext, progress: Progress) -> Any:
            kwargs = arguments(input, ctx, partial(from_thread, progress=progress))
            return _as_result(
                await anyio.to_thread.run_sync(partial(func, **kwargs), abandon_on_cancel=True)
            )

    else:

        async def call(input: Any, ctx: ToolContext, progress: Progress) -> Any:
            return _as_result(func(**arguments(input, ctx, progress)))

    return call


def _as_result(result: Any) -> ToolResult[Any]:
    if isinstance(result, ToolResult):
        return cast(ToolResult[Any], result)
    return ToolResult(output=result)
