"""``hands -p``'s first model request, sent from the kept tool list while the tools load.

With an entry of :mod:`hands.cli.first_request_cache` for the session's inputs, the first
request (the prompt, the system prompt and the kept tool definitions) goes out on a
thread of its own, while the session goes on importing and building its tools. When the
agent loop makes its real first request, the two bodies are compared byte for byte.
Equal: the answer already on its way is the loop's. Different: the early request is
cancelled before any of its answer is read, so none of its tool calls can run; the entry
is dropped and the real request sent. Either way the real request's tools are kept for
the next session.

With nothing kept in the hands home at all (a new home: a CI runner's, a batch worker's, a
new user's), nothing can go out early, and the key is computed only once the first request
is out, while its answer is on its way (before any of the answer is passed on, so no tool
of it has run): the first request does not wait for it.

Only a plain first request goes out early: a typed prompt (not a ``/command``), no earlier
conversation, no hooks (they may add to the prompt), not in plan mode, and a Claude model.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Mapping
from typing import TYPE_CHECKING

from hands.cli.early_request import EarlyRequest, body_of
from hands.cli.first_request_cache import KeptRequest, RequestCache, any_kept, session_key
from hands.core.limits import hands_home
from hands.core.messages import Message, TextBlock, user_text
from hands.models.base import ModelRequest, StreamEvent, WrappedModel

if TYPE_CHECKING:
    from hands.harness import Harness
    from hands.models.anthropic import AnthropicModel

log = logging.getLogger(__name__)


class FirstRequestModel(WrappedModel):
    """The session's model, its first request perhaps already on its way (see above)."""

    def __init__(
        self,
        inner: AnthropicModel,
        *,
        prompt: Message,
        cache: RequestCache | Callable[[], RequestCache],
        early: EarlyRequest | None,
    ) -> None:
        super().__init__(inner)
        self._real = inner
        self._prompt = prompt
        self._cache = cache
        self._early = early
        self._first = True

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """The first request is checked against the early one; later ones go to the model."""
        if not self._first:
            return self._real.stream(request)
        self._first = False
        return self._first_stream(request)

    async def _first_stream(self, request: ModelRequest) -> AsyncGenerator[StreamEvent]:
        early, self._early = self._early, None
        if early is not None and early.body == body_of(self._real, request):
            log.info("the first request went out early, from the kept tool list")
            async for event in early.events():
                yield event
            return
        cache = self._cache
        if early is not None:
            await early.aclose()  # before any of its answer is read: none of its calls run
            if isinstance(cache, RequestCache):
                cache.drop()
            log.info("the kept tool list was not the session's: the first request was sent again")
        async for event in self._real.stream(request):
            if not isinstance(cache, RequestCache):
                # the request is out and none of its answer has run: the key of the inputs
                # it was made from, computed while the answer is on its way
                cache = self._cache = cache()
            yield event
        kept = _kept(request, self._prompt)  # kept once answered: it cost no time before
        if kept is not None and isinstance(cache, RequestCache):
            cache.save(kept)

    async def aclose(self) -> None:
        """Close the model's connections (and an early request never taken)."""
        early, self._early = self._early, None
        if early is not None:
            await early.aclose()
        await self._real.aclose()


def _kept(request: ModelRequest, prompt: Message) -> KeptRequest | None:
    """What a plain first request sent beside the prompt and the system prompt.

    None for any other request: one that :func:`_early_request` would not build again
    from what is kept (another first message, a reply, effort, betas, extra fields).
    """
    messages = list(request.messages)
    if (
        not messages
        or messages[0] != prompt
        or _shape(request) != _shape(ModelRequest(messages=()))
    ):
        return None
    notes: list[str] = []
    for message in messages[1:]:
        block = message.content[0] if len(message.content) == 1 else None
        if message.role != "user" or not isinstance(block, TextBlock) or block.citations:
            return None
        notes.append(block.text)
    return KeptRequest(tools=tuple(request.tools), notes=tuple(notes))


def _shape(request: ModelRequest) -> tuple[object, ...]:
    """What a request asks for beside its messages, tools and system prompt."""
    return (
        request.max_tokens,
        request.effort,
        request.betas,
        request.extra,
        tuple(request.server_tools),
    )


def _early_request(kept: KeptRequest, prompt: Message, system: str) -> ModelRequest:
    messages = (prompt, *(user_text(note) for note in kept.notes))
    return ModelRequest(messages=messages, tools=kept.tools, system=system)


def first_request_model(
    harness: Harness,
    *,
    prompt: str,
    system: Callable[[], str],
    model_spec: str | None,
    choices: Mapping[str, object],
) -> FirstRequestModel | None:
    """The session's model wrapped as above, the early request sent if one is kept.

    ``system`` builds the system prompt (only when a kept list is sent). None where the
    first request may be more than the prompt and the tools (a ``/command``, hooks, plan
    mode) or the model is not a Claude model.
    """
    if prompt.startswith("/") or harness.hooks is not None or harness.mode == "plan":
        return None
    model = harness.model_if_any()
    if model is None or "hands.models.anthropic" not in sys.modules:
        return None  # not a Claude model (whose client would have been loaded with it)
    from hands.models.anthropic import AnthropicModel

    if type(model) is not AnthropicModel:
        return None
    settings = harness.settings
    home = hands_home()
    directory = home / "first-request"
    named = {
        **choices,
        "cwd": str(harness.cwd),
        "model": model.name,
        "mode": harness.mode,
        "front_end": harness.front_end,
    }
    env = dict(os.environ)

    def keyed() -> RequestCache:
        key = session_key(cwd=harness.cwd, settings=settings, choices=named, env=env)
        return RequestCache(directory, key)

    message = user_text(prompt)
    if not any_kept(directory):  # a new home: the key waits until the first request is out
        return FirstRequestModel(model, prompt=message, cache=keyed, early=None)
    cache = keyed()
    kept = cache.load()
    early = None
    if kept is not None:
        twin = _twin(model, model_spec, settings.value("model"))
        if twin is not None:
            early = EarlyRequest(twin, _early_request(kept, message, system()))
            early.start()
    return FirstRequestModel(model, prompt=message, cache=cache, early=early)


def _twin(model: AnthropicModel, spec: str | None, configured: object) -> AnthropicModel | None:
    """The same model again, with connections of its own (the early request's thread)."""
    from hands.models.anthropic import AnthropicModel
    from hands.models.resolve import resolve_model

    named = configured if isinstance(configured, str) else None
    twin = resolve_model(spec, settings_model=named)
    if type(twin) is not AnthropicModel or twin.name != model.name:
        return None
    return twin


__all__ = ["FirstRequestModel", "first_request_model"]
