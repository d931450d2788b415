"""WebFetch: read one URL as Markdown, text, JSON, PDF text or an image, safely."""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

import anyio
from pydantic import Field

from hands.core.context import ToolContext
from hands.core.messages import ImageBlock, TextBlock
from hands.core.schema import ToolInput
from hands.core.subject import Subject, fetches_url
from hands.core.tool import Progress, ReadOnlyTool, ToolResult
from hands.errors import ToolError
from hands.tools.web._sizes import size_text
from hands.tools.web_rules import WEB_FETCH

if TYPE_CHECKING:
    from rich.console import RenderableType

    from hands.net.urls import WebUrl
    from hands.tools.web._exchange import FetchLimits, Redirect, Response
    from hands.tools.web._page import Page

MAX_CONTENT_CHARS = 100_000
_PROGRESS_STEP = 64 * 1024

DESCRIPTION = f"""Fetch a URL and read it: web pages as Markdown, plain text as is, JSON
pretty-printed, PDFs as text, images as images.

- url must be a full http(s) URL; http is upgraded to https. Credentials in URLs, other
  schemes and URLs over 2,000 characters are refused.
- prompt says what you want from the page. When a small model is configured it reads
  the page and answers the prompt; otherwise you get the page itself with the prompt
  above it. The result says which.
- Pages are cut at {MAX_CONTENT_CHARS:,} characters; bodies over 10 MB are cut too.
- Any other body (an archive, a binary) is saved to a file in the session's folder; the
  result gives its path, type and size.
- A redirect to another host is not followed: the result gives the new URL; fetch it
  with a second call.
- Private and local network addresses are refused unless the user allowed that host.
- Results are cached for 15 minutes, so fetching the same URL again is cheap.
- Read-only; the user may be asked once per domain. For GitHub, prefer the gh CLI via
  Bash; for local files, use Read."""


class WebFetchInput(ToolInput):
    """Input of WebFetch."""

    url: str = Field(description="The URL to fetch (http or https)")
    prompt: str = Field(description="What to find out from the page")
    offset: int = Field(
        default=0,
        ge=0,
        description="Characters of the page's text to skip: read on after a cut page",
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class FetchedPage:
    """A page, with what was done with the prompt."""

    requested: str
    page: Page
    prompt: str
    answer: str | None = None
    """The small model's answer to the prompt; None: the page itself is returned."""
    answered_by: str = ""
    why_no_answer: str = ""
    cached: bool = False
    offset: int = 0
    """Characters of the page's text skipped before what is shown."""
    shown_chars: int = 0
    """Characters of the page returned (after the cut)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class OtherHost:
    """A redirect to another host, left for the model to fetch."""

    redirect: Redirect


WebFetchOutput = FetchedPage | OtherHost


class WebFetchTool(ReadOnlyTool[WebFetchInput, WebFetchOutput]):
    """Fetch one URL; every hop checked against the network rules."""

    name = WEB_FETCH
    in_background_agents = True
    subject = fetches_url("url")
    asks_when_read_only = True
    description = DESCRIPTION
    input_model = WebFetchInput
    max_result_chars = None  # bounded by MAX_CONTENT_CHARS
    search_hint = "fetch a web page or URL and read its content"

    def __init__(self, *, limits: FetchLimits | None = None) -> None:
        self._limits = limits

    @property
    def limits(self) -> FetchLimits:
        """How long and how much one fetch may take."""
        if self._limits is None:
            from hands.tools.web._exchange import FetchLimits  # lazy: start-up

            self._limits = FetchLimits()
        return self._limits

    def permission_subject(self, input: WebFetchInput, ctx: ToolContext) -> Subject | None:
        from hands.net.urls import parse_url  # lazy: start-up

        parsed = parse_url(input.url)
        if isinstance(parsed, str) or self.subject is None:
            return super().permission_subject(input, ctx)
        return Subject(kind="domain", value=parsed.url, declared=self.subject)

    async def validate_input(self, input: WebFetchInput, ctx: ToolContext) -> str | None:
        from hands.net.urls import parse_url  # lazy: start-up

        parsed = parse_url(input.url)
        return parsed if isinstance(parsed, str) else None

    async def call(
        self, input: WebFetchInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[WebFetchOutput]:
        from hands.net.urls import parse_url  # lazy: start-up
        from hands.tools.web._cache import PageCache  # lazy: start-up
        from hands.tools.web._exchange import Redirect  # lazy: start-up

        url = parse_url(input.url)
        if isinstance(url, str):
            raise ToolError(url)
        cache = ctx.session.service(PageCache)
        page = cache.get(url.url)
        cached = page is not None
        if page is None:
            got = await self._fetch(url, ctx, progress)
            if isinstance(got, Redirect):
                return ToolResult(output=OtherHost(redirect=got))
            page = got
            if 200 <= page.status < 300:
                cache.put(url.url, page)
        if not 200 <= page.status < 300:
            raise ToolError(_status_text(page))
        if input.offset:
            page = replace(page, text=page.text[input.offset :])
        out = FetchedPage(
            requested=url.url, page=page, prompt=input.prompt, cached=cached, offset=input.offset
        )
        return ToolResult(output=await _with_answer(out))

    async def _fetch(self, url: WebUrl, ctx: ToolContext, progress: Progress) -> Page | Redirect:
        marks = [0]

        def report(received: int) -> None:
            if received - marks[0] >= _PROGRESS_STEP:
                marks[0] = received
                progress(f"Received {size_text(received)}")

        from hands.tools.web._exchange import Redirect  # lazy: start-up
        from hands.tools.web._fetch import fetch  # httpx: imported when a fetch runs
        from hands.tools.web_rules import opened_hosts  # lazy: start-up

        got = await fetch(url, opened=opened_hosts(self, ctx), limits=self.limits, report=report)
        if isinstance(got, Redirect):
            return got
        downloads = ctx.session.directory / DOWNLOADS
        return await anyio.to_thread.run_sync(lambda: _page(got, downloads))

    def to_content(self, output: WebFetchOutput) -> str | Sequence[TextBlock | ImageBlock]:
        if isinstance(output, OtherHost):
            r = output.redirect
            return (
                f"{r.url} redirected (HTTP {r.status}) to another host: {r.target}\n"
                "The redirect was not followed. To read the page, call WebFetch again with "
                f"url={r.target} (the same prompt)."
            )
        page = output.page
        head = _head(output)
        if page.image is not None:
            img = page.image
            return (ImageBlock(media_type=img.media_type, data=img.base64), TextBlock(text=head))
        if page.kind == "file":
            return (
                f"{head}\nIt is not shown here ({page.content_type} is not text, a PDF or an "
                f"image); the body was saved to {page.saved} ({size_text(page.received)}). "
                "Look into it with Bash (file, unzip -l, tar -tf, xxd) or Read."
            )
        if output.answer is not None:
            return f"{head}\n\n{output.answer}"
        return f"{head}\n\n{_cut(page.text, output.offset)}"

    def describe_input(self, input: WebFetchInput) -> str:
        from hands.net.urls import parse_url  # lazy: start-up

        parsed = parse_url(input.url)
        return input.url if isinstance(parsed, str) else parsed.shown

    def render_result(self, output: WebFetchOutput) -> RenderableType:
        from hands.core.render import dim_text

        return dim_text(summary(output))

    def render_progress(self, data: object) -> RenderableType:
        from hands.core.render import dim_text

        return dim_text(str(data))


def summary(output: WebFetchOutput) -> str:
    """One line for people: what was received and what it became."""
    from hands.tools.web._content import KIND_LABELS  # lazy: start-up

    if isinstance(output, OtherHost):
        return f"Redirected to another host: {output.redirect.target} (not followed)"
    page = output.page
    got = f"Received {size_text(page.received)} ({page.status} {page.reason}, {page.content_type})"
    if output.cached:
        got = (
            f"Cached {size_text(page.received)} ({page.status} {page.reason}, {page.content_type})"
        )
    if page.kind == "image" and page.image is not None:
        dims = page.image.dimensions
        return got + (f" → image {dims[0]}x{dims[1]}" if dims else " → image")
    if page.kind == "file":
        return f"{got} → saved to {page.saved}"
    made = f"{output.shown_chars:,} chars of {KIND_LABELS[page.kind]}"
    if output.answer is not None:
        made += f", answered by {output.answered_by}"
    return f"{got} → {made}"


DOWNLOADS = "downloads"
"""The folder, in the session's, where bodies that are not shown are saved."""


def _page(response: Response, downloads: Path) -> Page:
    from hands.tools.web._content import convert  # lazy: start-up
    from hands.tools.web._page import Page  # lazy: start-up

    converted = convert(response) if response.body or 200 <= response.status < 300 else None
    saved = ""
    if converted is not None and converted.kind == "file":
        saved = str(save_body(response.body, response.url, downloads))
    return Page(
        url=response.url,
        status=response.status,
        reason=response.reason,
        content_type=response.content_type or "unknown type",
        received=response.received,
        body_truncated=response.truncated,
        kind=converted.kind if converted is not None else "text",
        text=converted.text if converted is not None else "",
        image=converted.image if converted is not None else None,
        saved=saved,
    )


def save_body(body: bytes, url: str, folder: Path) -> Path:
    """Write ``body`` to a new file in ``folder``, named after the URL's last part."""
    last = urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1]
    name = re.sub(r"[^A-Za-z0-9._-]", "_", unquote(last)).lstrip(".")[:80] or "download"
    folder.mkdir(parents=True, exist_ok=True)
    while True:
        path = folder / f"{secrets.token_hex(4)}-{name}"
        try:
            with path.open("xb") as f:  # never over another file
                f.write(body)
        except FileExistsError:
            continue
        return path


def _cut(text: str, offset: int = 0) -> str:
    if len(text) <= MAX_CONTENT_CHARS:
        return text
    left = len(text) - MAX_CONTENT_CHARS
    return (
        text[:MAX_CONTENT_CHARS]
        + f"\n\n[Cut here: {left:,} more characters were left out. Fetch again with "
        f"offset={offset + MAX_CONTENT_CHARS} to read on, ask a narrower prompt, or fetch a "
        "more specific page.]"
    )


async def _with_answer(out: FetchedPage) -> FetchedPage:
    page = out.page
    shown = min(len(page.text), MAX_CONTENT_CHARS)
    out = replace(out, shown_chars=shown)
    if page.kind in ("image", "file"):
        return out
    from hands.tools.web._small_model import (  # lazy: start-up
        SMALL_MODEL_VARIABLE,
        answer,
        load_small_model,
        small_model_spec,
    )

    spec = small_model_spec()
    if spec is None:
        return replace(
            out, why_no_answer=f"no small model is configured ({SMALL_MODEL_VARIABLE} is not set)"
        )
    model = load_small_model(spec)
    if isinstance(model, str):
        return replace(out, why_no_answer=model)
    try:
        text = await answer(model, prompt=out.prompt, url=page.url, content=_cut(page.text))
    except Exception as exc:  # any provider failure: the page itself still helps
        return replace(out, why_no_answer=f"the small model {spec} failed ({exc})")
    finally:
        close = getattr(model, "aclose", None)
        if close is not None:
            await close()
    if not text:
        return replace(out, why_no_answer=f"the small model {spec} gave an empty answer")
    return replace(out, answer=text, answered_by=spec)


def _head(out: FetchedPage) -> str:
    from hands.tools.web._content import KIND_LABELS  # lazy: start-up

    page = out.page
    where = (
        page.url if page.url == out.requested else f"{page.url} (redirected from {out.requested})"
    )
    facts = f"HTTP {page.status} {page.reason}, {page.content_type}, {size_text(page.received)}"
    if out.cached:
        facts += ", from the cache"
    lines = [f"Fetched {where} ({facts})."]
    if page.body_truncated:
        lines.append(
            f"The body was larger than the limit; only the first {size_text(page.received)} "
            "were read."
        )
    if page.kind in ("image", "file"):
        return " ".join(lines)
    if out.answer is not None:
        lines.append(
            f"The small model {out.answered_by} read the page and answered the prompt "
            f"{out.prompt!r}:"
        )
    else:
        kind = KIND_LABELS[page.kind]
        lines.append(
            f"The page follows as {kind} ({len(page.text):,} characters), not a summary: "
            f"{out.why_no_answer}. Answer this prompt from it yourself:"
        )
        lines.append(f"Prompt: {out.prompt}")
        lines.append("---")
    return "\n".join(lines)


def _status_text(page: Page) -> str:
    from hands.tools.web._content import KIND_LABELS  # lazy: start-up

    hint = {
        404: "The page does not exist; check the URL or search for the right one.",
        401: "The page needs a login, which WebFetch cannot give.",
        403: "The server refused access.",
        429: "The server is limiting requests; wait before trying again, or use another source.",
    }.get(page.status, "The server failed; try again later." if page.status >= 500 else "")
    text = f"{page.url} answered HTTP {page.status} {page.reason}. {hint}".rstrip()
    body = page.text.strip()
    if body:
        text += f"\n\nWhat the server sent ({KIND_LABELS[page.kind]}):\n{body[:1_000]}"
        if len(body) > 1_000:
            text += f"\n[… {len(body) - 1_000:,} more characters]"
    return text


__all__ = ["WebFetchInput", "WebFetchTool"]
