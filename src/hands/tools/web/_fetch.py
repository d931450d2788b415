"""One fetch: every hop checked and pinned, redirects on the same site, a capped body."""

from __future__ import annotations

from collections.abc import Callable, Collection
from urllib.parse import urljoin

import anyio
import httpx

from hands.errors import ToolError
from hands.net.address import address_problem
from hands.net.resolve import ResolveError, resolve
from hands.net.urls import WebUrl, parse_url, same_site
from hands.tools.web._decode import CappedBody, DecodeError, accepted_encodings
from hands.tools.web._exchange import FetchLimits, Redirect, Response
from hands.tools.web._transport import PinnedBackend, PinnedTransport

USER_AGENT = "hands-webfetch/0.1 (an agent's web tool; +https://pypi.org/project/hands/)"
ACCEPT = "text/markdown, text/html;q=0.9, application/xhtml+xml;q=0.9, */*;q=0.8"
_REDIRECTS = frozenset({301, 302, 303, 307, 308})


ReportBytes = Callable[[int], None]


async def fetch(
    url: WebUrl,
    *,
    opened: Collection[str],
    limits: FetchLimits,
    report: ReportBytes,
) -> Response | Redirect:
    """GET ``url``; raises ToolError with a message the model can act on."""
    try:
        with anyio.fail_after(limits.total_seconds):
            return await _fetch(url, opened=opened, limits=limits, report=report)
    except TimeoutError:
        raise ToolError(
            f"Fetching {url.url} took longer than {limits.total_seconds:g} s and was stopped. "
            "The server may be slow or stalled; try again later or fetch another source."
        ) from None


async def _fetch(
    url: WebUrl, *, opened: Collection[str], limits: FetchLimits, report: ReportBytes
) -> Response | Redirect:
    backend = PinnedBackend()
    timeout = httpx.Timeout(limits.read_seconds, connect=limits.connect_seconds)
    headers = {
        "User-Agent": USER_AGENT,
        "Accept": ACCEPT,
        "Accept-Encoding": accepted_encodings(),
    }
    async with httpx.AsyncClient(
        transport=PinnedTransport(backend), timeout=timeout, headers=headers, trust_env=False
    ) as client:
        current = url
        seen = [url.url]
        for _ in range(limits.max_redirects + 1):
            await _pin(current, backend, opened)
            outcome = await _get(client, current, limits, report)
            if isinstance(outcome, Response):
                return outcome
            status, location = outcome
            target = urljoin(current.url, location)
            parsed = parse_url(target)
            if isinstance(parsed, str):
                raise ToolError(
                    f"{current.url} redirected (HTTP {status}) to a URL that cannot be "
                    f"fetched: {parsed}"
                )
            if not same_site(parsed.host, current.host):
                return Redirect(url=url.url, target=parsed.url, status=status)
            if parsed.url in seen:
                raise ToolError(
                    f"{url.url} redirects in a loop ({' → '.join([*seen, parsed.url])}). "
                    "The page cannot be fetched; try another URL for it."
                )
            seen.append(parsed.url)
            current = parsed
    raise ToolError(
        f"{url.url} redirected more than {limits.max_redirects} times (last: {seen[-1]}). "
        "The page cannot be fetched; try another URL for it."
    )


async def _pin(url: WebUrl, backend: PinnedBackend, opened: Collection[str]) -> None:
    host = url.host
    if host in backend.pins:
        return
    port = httpx.URL(url.url).port or (443 if url.url.startswith("https:") else 80)
    try:
        addresses = await resolve(host, port)
    except ResolveError as exc:
        raise ToolError(f"Cannot fetch {url.url}: {exc}. Check the host name.") from None
    if host not in opened:
        for address in addresses:
            problem = address_problem(address)
            if problem is not None:
                raise ToolError(
                    f"Refused to fetch {url.url}: {host} resolves to {address}, {problem}. "
                    "Such addresses are reached only when the user allows this exact host "
                    f"(a WebFetch(domain:{host}) allow rule, or sandbox.network.allowedDomains)."
                )
    backend.pins[host] = str(addresses[0])


async def _get(
    client: httpx.AsyncClient, url: WebUrl, limits: FetchLimits, report: ReportBytes
) -> Response | tuple[int, str]:
    try:
        async with client.stream("GET", url.url) as response:
            location = response.headers.get("location")
            if response.status_code in _REDIRECTS and location:
                return response.status_code, location
            body, truncated = await _read_capped(response, limits.max_body_bytes, report)
            media, charset = _content_type(response.headers.get("content-type", ""))
            return Response(
                url=url.url,
                status=response.status_code,
                reason=response.reason_phrase,
                content_type=media,
                charset=charset,
                body=body,
                truncated=truncated,
                received=len(body),
            )
    except httpx.TimeoutException as exc:
        raise ToolError(
            f"Fetching {url.url} timed out ({_kind(exc)}). The server may be down or stalled; "
            "try again later or fetch another source."
        ) from None
    except (httpx.DecodingError, DecodeError) as exc:
        raise ToolError(
            f"{url.url} sent a body that could not be decompressed ({exc}). Try another "
            "source for the page."
        ) from None
    except httpx.HTTPError as exc:
        raise ToolError(
            f"Could not fetch {url.url}: {type(exc).__name__}: {exc or 'connection failed'}. "
            "Check the URL, or try again later."
        ) from None


async def _read_capped(
    response: httpx.Response, cap: int, report: ReportBytes
) -> tuple[bytes, bool]:
    """The body decoded while it arrives, kept up to ``cap`` decoded bytes."""
    body = CappedBody(response.headers.get("content-encoding", ""), cap)
    async for chunk in response.aiter_raw():
        body.add(chunk)
        report(len(body.body))
        if body.full:
            break
    return bytes(body.body), body.truncated


def _content_type(header: str) -> tuple[str, str | None]:
    media, _, params = header.partition(";")
    charset = None
    for param in params.split(";"):
        key, _, value = param.partition("=")
        if key.strip().lower() == "charset" and value.strip():
            charset = value.strip().strip("\"'").lower()
    return media.strip().lower(), charset


def _kind(exc: httpx.TimeoutException) -> str:
    if isinstance(exc, httpx.ConnectTimeout):
        return "no connection"
    if isinstance(exc, httpx.ReadTimeout):
        return "no data arrived for too long"
    return type(exc).__name__
