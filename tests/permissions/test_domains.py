"""Domain rules hold for every spelling of a host, and deniedDomains beats allow rules."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from hands.core.decision import PermissionDecision
from hands.core.tool import Tool
from hands.permissions.domains import NetworkDomains
from hands.permissions.engine import PermissionEngine
from hands.tools.browser.browser_navigate import BrowserNavigateInput, BrowserNavigateTool
from hands.tools.web.web_fetch import WebFetchInput, WebFetchTool

from .conftest import World

SPELLINGS = [
    "https://example.com/",
    "https://EXAMPLE.com./",
    "https://ｅｘａｍｐｌｅ.com/",
    "https://ＥＸＡＭＰＬＥ。ｃｏｍ/",
    "https://example．com/a",
    "https://sub.ｅｘａｍｐｌｅ.com/",
]


def _decide(
    world: World,
    engine: PermissionEngine,
    tool: Tool[Any, Any],
    url: str,
    domains: NetworkDomains | None = None,
) -> PermissionDecision:
    ctx = world.ctx()
    if domains is not None:
        ctx.session.service(NetworkDomains, lambda: domains)
    model = BrowserNavigateInput if isinstance(tool, BrowserNavigateTool) else WebFetchInput
    data: dict[str, Any] = {"url": url}
    if model is WebFetchInput:
        data["prompt"] = "x"

    async def go() -> PermissionDecision:
        return await engine.decide(tool, model.model_validate(data), ctx)

    return anyio.run(go)


@pytest.mark.parametrize("url", SPELLINGS)
@pytest.mark.parametrize("tool", [BrowserNavigateTool(), WebFetchTool()], ids=lambda t: t.name)
def test_a_domain_deny_rule_covers_every_spelling(
    world: World, url: str, tool: Tool[Any, Any]
) -> None:
    engine = world.engine(
        allow=["WebFetch"], deny=["WebFetch(domain:*.example.com)", "WebFetch(domain:example.com)"]
    )
    assert _decide(world, engine, tool, url).behavior == "deny"


@pytest.mark.parametrize("tool", [BrowserNavigateTool(), WebFetchTool()], ids=lambda t: t.name)
def test_a_rule_written_in_unicode_covers_the_punycode_host(
    world: World, tool: Tool[Any, Any]
) -> None:
    engine = world.engine(deny=["WebFetch(domain:exämple.com)"])
    assert _decide(world, engine, tool, "https://xn--exmple-cua.com/").behavior == "deny"
    assert _decide(world, engine, tool, "https://EXÄMPLE.com/").behavior == "deny"
    assert _decide(world, engine, tool, "https://example.com/").behavior == "ask"


@pytest.mark.parametrize("entry", ["example.com", "*.example.com", "ＥＸＡＭＰＬＥ.com"])
@pytest.mark.parametrize("tool", [BrowserNavigateTool(), WebFetchTool()], ids=lambda t: t.name)
def test_denied_domains_beat_an_allow_rule(world: World, entry: str, tool: Tool[Any, Any]) -> None:
    engine = world.engine(allow=["WebFetch(domain:example.com)", "WebFetch(domain:a.example.com)"])
    domains = NetworkDomains(allowed=("example.com", "a.example.com"), denied=(entry,))
    url = "https://example.com/" if "*" not in entry else "https://a.example.com/"
    decision = _decide(world, engine, tool, url, domains)
    assert decision.behavior == "deny", decision
    assert "deniedDomains" in decision.message
    assert not decision.hook_can_approve
    assert _decide(world, engine, tool, url).behavior == "allow"


def test_a_denied_domain_is_not_opened_to_private_addresses() -> None:
    domains = NetworkDomains(allowed=("intranet.test", "ok.test"), denied=("INTRANET.test.",))
    assert domains.opened_hosts == frozenset({"ok.test"})
    assert domains.denying("intranet.test") == "INTRANET.test."
    assert domains.denying("ｉｎｔｒａｎｅｔ.test") == "INTRANET.test."
    assert domains.denying("ok.test") is None
