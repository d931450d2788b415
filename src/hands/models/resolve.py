"""Pick a model from ``--model PROVIDER:NAME`` or the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping

from hands.errors import ConfigError
from hands.models.base import Model

NO_MODEL = (
    "No model is configured. Pass --model scripted:FILE to replay a scripted session, or "
    "run `hands demo` for an offline demonstration."
)


def resolve_model(spec: str | None, env: Mapping[str, str] | None = None) -> Model:
    """``scripted:FILE`` (and, with a provider installed, ``anthropic:NAME`` / ``openai:NAME``)."""
    env = os.environ if env is None else env
    if not spec:
        raise ConfigError(NO_MODEL)
    provider, _, name = spec.partition(":")
    if provider == "scripted":
        if not name:
            raise ConfigError("--model scripted:FILE needs the path of a script file")
        from hands.models.scripted import ScriptedModel

        return ScriptedModel.from_file(name)
    if provider in ("anthropic", "openai"):
        raise ConfigError(
            f"the {provider} provider is not available in this build; use --model scripted:FILE"
        )
    raise ConfigError(
        f"unknown model {spec!r}: expected anthropic:NAME, openai:NAME or scripted:FILE"
    )
