"""The model flags an SDK passes: effort, thinking, task budget, betas and fallback models.

``--effort`` is asked for on every request (a sub-agent's Agent call may name another);
``--thinking`` / ``--max-thinking-tokens`` / ``--thinking-display`` turn on an Anthropic
model's extended thinking; ``--task-budget`` is the API's ``output_config.task_budget``;
``--betas`` (every request of the session, sub-agents' too) and the task budget's beta go
in the ``anthropic-beta`` header of the model client's requests, never in the environment
the tools' commands see;
``--fallback-model`` (a comma-separated list) serves a request the main model cannot
(see :mod:`hands.cli.sdk.fallback`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, cast, get_args

from hands.cli.args import UsageError
from hands.cli.sdk.flags import SdkArgs
from hands.models.base import Effort, Model, ModelRequest, StreamEvent, WrappedModel

TASK_BUDGET_BETA = "task-budgets-2026-03-13"
"""The ``anthropic-beta`` value the API wants with ``output_config.task_budget``."""
Thinking: TypeAlias = int | Literal["adaptive"] | None
_THINKING_MODES = ("adaptive", "enabled", "disabled")
_DISPLAYS = ("summarized", "omitted")


@dataclass(frozen=True, kw_only=True, slots=True)
class ModelChoices:
    """What the model flags ask for; the defaults leave the model as it is."""

    effort: Effort | None = None
    thinking: Thinking | Literal["unset"] = "unset"
    """``"unset"``: the provider's own thinking setting is kept."""
    display: str | None = None
    task_budget: int | None = None
    betas: tuple[str, ...] = ()
    fallbacks: tuple[str, ...] = ()

    @property
    def extra(self) -> dict[str, Any]:
        """What every request's body gets beside its own fields."""
        extra: dict[str, Any] = {}
        if self.task_budget is not None:
            extra["output_config"] = {"task_budget": {"type": "tokens", "total": self.task_budget}}
        if self.display is not None:
            extra["thinking"] = {"display": self.display}
        return extra

    @property
    def request_betas(self) -> tuple[str, ...]:
        """The betas the body's extra fields need (the task budget's)."""
        return (TASK_BUDGET_BETA,) if self.task_budget is not None else ()


def choices(args: SdkArgs) -> ModelChoices:
    """The model flags of ``args``, checked; a bad value is a :class:`UsageError`."""
    effort = args.text("effort")
    if effort is not None and effort not in get_args(Effort):
        raise UsageError(f"--effort {effort!r}: use one of {', '.join(get_args(Effort))}")
    thinking: Thinking | Literal["unset"] = "unset"
    mode = args.text("thinking")
    if mode is not None:
        if mode not in _THINKING_MODES:
            raise UsageError(f"--thinking {mode!r}: use one of {', '.join(_THINKING_MODES)}")
        thinking = None if mode == "disabled" else "adaptive"
    tokens = args.number("max_thinking_tokens", integer=True, minimum=0)
    if tokens is not None and mode is None:
        thinking = int(tokens) or None
    display = args.text("thinking_display")
    if display is not None and display not in _DISPLAYS:
        raise UsageError(f"--thinking-display {display!r}: use one of {', '.join(_DISPLAYS)}")
    budget = args.number("task_budget", integer=True, minimum=1)
    fallbacks = tuple(args.items("fallback_model"))
    model = args.text("model")
    if model is not None and model in fallbacks:
        raise UsageError("--fallback-model must differ from --model")
    return ModelChoices(
        effort=cast(Effort | None, effort),
        thinking=thinking,
        display=display,
        task_budget=int(budget) if budget is not None else None,
        betas=tuple(args.items("betas")),
        fallbacks=fallbacks,
    )


class ShapedModel(WrappedModel):
    """Forwards each request to ``inner`` with the session's extra body fields."""

    def __init__(self, inner: Model, choices: ModelChoices) -> None:
        super().__init__(inner)
        self.choices = choices

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """The inner model's stream of the request, shaped."""
        betas = tuple(dict.fromkeys((*request.betas, *self.choices.request_betas)))
        extra = {**self.choices.extra, **request.extra}
        return self.inner.stream(dataclasses.replace(request, extra=extra, betas=betas))


def configured(
    model: Model, choices: ModelChoices, resolve: Callable[[str], Model] | None = None
) -> Model:
    """``model`` with the thinking, extra fields and fallbacks ``choices`` ask for.

    The effort is the query's (:attr:`QueryOptions.effort`), so sub-agents inherit it.

    ``resolve`` builds a fallback model from its name (a bad name raises at once).
    """
    _think(model, choices)
    if choices.fallbacks and resolve is not None:
        from hands.cli.sdk.fallback import FallbackModel

        fallbacks = [resolve(name) for name in choices.fallbacks]
        for fallback in fallbacks:
            _think(fallback, choices)
        model = FallbackModel(model, fallbacks)
    return ShapedModel(model, choices) if choices.extra else model


def _think(model: Model, choices: ModelChoices) -> None:
    from hands.models.anthropic import AnthropicModel

    if isinstance(model, AnthropicModel) and choices.thinking != "unset":
        model.thinking = choices.thinking


def _layers(model: object) -> list[object]:
    """``model`` and every model it wraps (a tap, a shaping, fallbacks), outermost first."""
    out: list[object] = [model]
    for attr in ("inner", "primary"):
        inner = getattr(model, attr, None)
        if inner is not None:
            out += _layers(inner)
    for fallback in getattr(model, "fallbacks", ()):
        out += _layers(fallback)
    return out


def set_thinking(
    model: Model, thinking: Thinking | Literal["unset"], display: str | Literal["keep"] | None
) -> int:
    """Change the thinking of the session's model mid-session; how many models took it.

    ``thinking``: a budget, ``"adaptive"``, ``None`` (off) or ``"unset"`` (kept);
    ``display``: ``summarized`` / ``omitted``, ``None`` (the provider's), ``"keep"``.
    """
    from hands.models.anthropic import AnthropicModel

    layers = _layers(model)
    thinkers = [m for m in layers if isinstance(m, AnthropicModel)]
    if thinking != "unset":
        for m in thinkers:
            m.thinking = thinking
    if display != "keep":
        if display is not None and display not in _DISPLAYS:
            raise ValueError(f"thinking_display {display!r}: use one of {', '.join(_DISPLAYS)}")
        shaped = [m for m in layers if isinstance(m, ShapedModel)]
        for m in shaped:
            m.choices = dataclasses.replace(m.choices, display=display)
        inner = getattr(model, "inner", None)
        if not shaped and display is not None and inner is not None:
            model.inner = ShapedModel(inner, ModelChoices(display=display))  # type: ignore[attr-defined]
    return len(thinkers)


def spawn_thinking(model: Model) -> Thinking:
    """The thinking the session's (first Anthropic) model started with."""
    from hands.models.anthropic import AnthropicModel

    found = [m for m in _layers(model) if isinstance(m, AnthropicModel)]
    return found[0].thinking if found else None
