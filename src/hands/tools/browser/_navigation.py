"""What decides a navigation: Browser_navigate's rules, and the URLs the browser may open.

A navigation is decided by Browser_navigate's permission rules (which are WebFetch's
``domain:`` rules too), whether a call or the page made it: the request guard, the
redirect check and the proxy ask about a click, a redirect hop or a subresource as if
Browser_navigate had been called with its URL. So those rules live here, on
:class:`NavigationRules`, which the tool extends with the browser's action; the guard
asks with the rules alone and needs nothing of the tools or the running browser.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar
from urllib.parse import urlsplit

from pydantic import Field

from hands.core.outcome import echo
from hands.core.schema import ToolInput
from hands.core.subject import Subject, fetches_url, reads_path
from hands.core.tool import Tool
from hands.tools.web_rules import WEB_FETCH

if TYPE_CHECKING:
    from hands.core.context import ToolContext

OutputT = TypeVar("OutputT")

_FILE_SUBJECT = reads_path("url")


class BrowserNavigateInput(ToolInput):
    """Input of Browser_navigate."""

    url: str = Field(description="The URL to open")


@dataclass(frozen=True, kw_only=True, slots=True)
class Target:
    """A URL the browser may be sent to."""

    url: str
    host: str = ""
    """The host of an http(s) URL, lower case ASCII."""
    path: Path | None = None
    """The file of a ``file://`` URL."""


class NavigationRules(Tool[BrowserNavigateInput, OutputT], Generic[OutputT]):
    """Browser_navigate as the permission rules see it: its names, input and subject.

    A ``file://`` URL is a read of that file (``Read`` rules); any other URL is a fetch
    of its host, under ``WebFetch(domain:…)`` rules as well as the tool's own.
    """

    name = "Browser_navigate"
    aliases = ("browser_navigate",)
    input_model = BrowserNavigateInput
    subject = fetches_url("url", shares_rules_of=WEB_FETCH)

    def permission_subject(self, input: BrowserNavigateInput, ctx: ToolContext) -> Subject | None:
        target = parse_target(input.url, ctx)
        if isinstance(target, Target) and target.path is not None:
            return Subject(kind="read", value=str(target.path), declared=_FILE_SUBJECT)
        return super().permission_subject(input, ctx)

    async def validate_input(self, input: BrowserNavigateInput, ctx: ToolContext) -> str | None:
        target = parse_target(input.url, ctx)
        return target if isinstance(target, str) else None


def parse_target(raw: str, ctx: ToolContext) -> Target | str:
    """The checked URL, or a message saying why it cannot be opened."""
    from hands.net.urls import parse_url  # lazy: start-up

    text = raw.strip()
    if text == "about:blank":
        return Target(url=text)
    try:
        parts = urlsplit(text)
    except ValueError as exc:
        return f"The url {echo(text)!r} is malformed ({exc})."
    scheme = parts.scheme.lower()
    if scheme == "file":
        return _file_target(parts.path, ctx)
    if scheme not in ("http", "https"):
        what = f"the {scheme}: scheme" if scheme else "no scheme"
        return (
            f"The url {echo(text)!r} has {what}; the browser opens http(s) URLs, file:// URLs "
            "inside the working directories, and about:blank. Give a full URL such as "
            "https://example.com/."
        )
    parsed = parse_url(text)
    if isinstance(parsed, str):
        return parsed
    return Target(url=text, host=parsed.host)


def _file_target(raw_path: str, ctx: ToolContext) -> Target | str:
    from urllib.request import url2pathname  # lazy: urllib.request loads http.client

    path = Path(url2pathname(raw_path))
    if not path.is_absolute():
        return f"The file URL's path {echo(raw_path)!r} is not absolute."
    if not ctx.is_inside_working_dirs(path):
        return (
            f"{path} is outside the working directories; the browser opens file:// URLs only "
            "inside them (add a directory with --add-dir to open files there)."
        )
    return Target(url=path.resolve().as_uri(), path=path)


_RULES: NavigationRules[Any] = NavigationRules()


async def decide_url(url: str, ctx: ToolContext) -> str:
    """What the session's rules say about navigating to ``url``: allow, ask or deny."""
    policy = ctx.policy
    if policy is None:
        return "ask"
    decision = await policy.decide(_RULES, BrowserNavigateInput(url=url), ctx)
    return decision.behavior


def is_opened(host: str, ctx: ToolContext) -> bool:
    """Whether the user opened ``host`` by name, so its non-public addresses may be reached."""
    from hands.tools.web_rules import opened_hosts  # lazy: start-up

    return host in opened_hosts(_RULES, ctx)


__all__ = [
    "BrowserNavigateInput",
    "NavigationRules",
    "Target",
    "decide_url",
    "is_opened",
    "parse_target",
]
