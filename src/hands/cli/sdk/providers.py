"""The SDK's ``model`` as a hands model spec: any provider hands supports.

``provider:name`` (``openai:gpt-4.1``, ``scripted:FILE``) is taken as written. A Claude
model id or alias goes to Anthropic. Any other bare name goes to the OpenAI-compatible
server the environment names (``OPENAI_BASE_URL`` / ``OPENAI_API_KEY``, as the SDK's
``env`` option sets them) when no Anthropic key is set, else to Anthropic.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

CLAUDE_ALIASES = {
    "sonnet": "claude-sonnet-4-5",
    "opus": "claude-opus-4-1",
    "haiku": "claude-haiku-4-5",
}
"""Claude Code's model aliases → the model id hands asks Anthropic for."""


def model_spec(name: str | None, env: Mapping[str, str] | None = None) -> str | None:
    """The ``PROVIDER:NAME`` spec for ``--model`` (``None``: hands' own choice)."""
    if name is None or not name.strip():
        return None
    env = os.environ if env is None else env
    name = name.strip()
    provider, sep, _ = name.partition(":")
    if sep and provider.lower() in ("anthropic", "openai", "scripted"):
        return name
    alias = CLAUDE_ALIASES.get(name.lower().removesuffix("[1m]"))
    if alias is not None or name.lower().startswith("claude"):
        return f"anthropic:{alias or name}"
    anthropic = env.get("ANTHROPIC_API_KEY") or env.get("ANTHROPIC_AUTH_TOKEN")
    if not anthropic and (env.get("OPENAI_BASE_URL") or env.get("OPENAI_API_KEY")):
        return f"openai:{name}"
    return f"anthropic:{name}"
