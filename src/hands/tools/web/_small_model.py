"""The small fast model that answers WebFetch's prompt about a page, when one is set."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from hands.core.env import text
from hands.errors import HandsError

if TYPE_CHECKING:
    from hands.models.base import Model

SMALL_MODEL_VARIABLE = "HANDS_SMALL_MODEL"
ANTHROPIC_SMALL_VARIABLE = "ANTHROPIC_SMALL_FAST_MODEL"
MAX_ANSWER_TOKENS = 1_024

_SYSTEM = (
    "You answer a question about one web page for another assistant. Use only the page "
    "below. Be concise and concrete; quote exact values, names, code and commands where "
    "they matter, with their links. If the page does not answer the question, say so."
)


def small_model_spec(env: Mapping[str, str] | None = None) -> str | None:
    """The small model to use as a ``provider:name`` spec, or None.

    ``HANDS_SMALL_MODEL``, else ``ANTHROPIC_SMALL_FAST_MODEL`` as an Anthropic model when
    an Anthropic key is set.
    """
    env = os.environ if env is None else env
    spec = text(SMALL_MODEL_VARIABLE, env)
    if spec:
        return spec
    anthropic = env.get(ANTHROPIC_SMALL_VARIABLE, "").strip()
    if anthropic and (env.get("ANTHROPIC_API_KEY") or env.get("ANTHROPIC_AUTH_TOKEN")):
        return f"anthropic:{anthropic}"
    return None


def load_small_model(spec: str) -> Model | str:
    """The model ``spec`` names, or why it cannot be used."""
    from hands.models.resolve import resolve_model

    try:
        return resolve_model(spec)
    except HandsError as exc:
        return f"the small model {spec!r} cannot be used ({exc})"


async def answer(model: Model, *, prompt: str, url: str, content: str) -> str:
    """One capped request: the page and the prompt in, the model's text out."""
    from hands.core.messages import user_text
    from hands.models.base import ModelRequest, TextDelta

    text = f"Page: {url}\n\n<page>\n{content}\n</page>\n\nQuestion: {prompt}"
    request = ModelRequest(
        messages=(user_text(text),), system=_SYSTEM, max_tokens=MAX_ANSWER_TOKENS
    )
    parts: list[str] = []
    async for event in model.stream(request):
        if isinstance(event, TextDelta):
            parts.append(event.text)
    return "".join(parts).strip()
