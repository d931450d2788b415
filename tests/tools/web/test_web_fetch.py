"""WebFetch through the whole pipeline against a real loopback web server."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from hands.config.settings import load_settings
from hands.core.env import EnvError
from hands.core.messages import ImageBlock
from hands.net.urls import parse_url
from hands.permissions.asking import PromptAskHandler
from hands.permissions.domains import NetworkDomains
from hands.pipeline.settings import install_settings
from hands.tools.web._cache import PageCache, ttl_from_env
from hands.tools.web._exchange import FetchLimits
from hands.tools.web._page import Page
from hands.tools.web.web_fetch import FetchedPage, WebFetchInput, WebFetchTool, summary
from tools.web.conftest import Web
from tools.web.web_server import WebServer

ANY_HOST = ("WebFetch(domain:*)",)


# -- URL handling -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("https://example.com/" + "a" * 2_000, "2,000"),
        ("ftp://example.com/file", "ftp: scheme"),
        ("file:///etc/passwd", "file: scheme"),
        ("data:text/html,<b>hi</b>", "data: scheme"),
        ("javascript:alert(1)", "javascript: scheme"),
        ("https://user:secret@example.com/", "credentials"),
        ("https://[::1/", "malformed"),
        ("https://", "no host"),
        ("example.com/page", "no scheme"),
        ("https://exa mple.com/", "whitespace"),
        ("https://bad_host!.com/", "invalid host"),
        ("", "empty"),
    ],
)
def test_bad_urls_are_refused_before_any_request(web: Web, url: str, says: str) -> None:
    out = web.run("WebFetch", url=url, prompt="p")
    text = out.block.text
    assert out.is_error and says in text
    assert "Traceback" not in text and web.server.hits == []


def test_http_is_upgraded_except_on_loopback() -> None:
    up = parse_url("http://Example.COM./a?b=1#frag")
    assert not isinstance(up, str)
    assert up.url == "https://example.com/a?b=1" and up.upgraded
    local = parse_url("http://127.0.0.1:8080/x")
    assert not isinstance(local, str) and local.url == "http://127.0.0.1:8080/x"
    assert not local.upgraded


def test_an_idn_host_is_shown_in_punycode_too() -> None:
    url = parse_url("https://bücher.example/list")
    assert not isinstance(url, str)
    assert url.host == "xn--bcher-kva.example"
    assert url.url == "https://xn--bcher-kva.example/list"
    assert "bücher.example" in url.shown and "xn--bcher-kva.example" in url.shown
    tool = WebFetchTool()
    assert "xn--bcher-kva" in tool.describe_input(
        WebFetchInput(url="https://bücher.example/", prompt="p")
    )


def test_the_idn_prompt_and_the_saved_rule_use_punycode(web: Web) -> None:
    shown: list[str] = []

    async def prompt(text: str) -> str:
        shown.append(text)
        return "3" if len(shown) == 1 else ""

    engine = web.engine(allow=())
    handler = PromptAskHandler(prompt=prompt, project_dir=web.project, engine=engine)
    out = web.run("WebFetch", engine=engine, ask=handler, url="https://bücher.example/", prompt="p")
    assert out.status == "rejected"
    assert "xn--bcher-kva.example" in shown[0]
    assert "WebFetch(domain:xn--bcher-kva.example)" in shown[0]


# -- network safety -------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "0x7f.1", "2130706433", "[::1]"])
def test_loopback_is_refused_without_an_exact_allow_rule(web: Web, host: str) -> None:
    port = web.server.port
    text = web.err(f"http://{host}:{port}/page.html", engine=web.engine(allow=ANY_HOST))
    assert "Refused" in text and "loopback" in text
    assert f"WebFetch(domain:{parse_url(f'http://{host}/').host})" in text  # type: ignore[union-attr]
    assert web.server.hits == []


LOOPBACK_SPELLINGS = (
    "127.0.0.1", "127.1", "127.0.1", "0177.0.0.1", "0x7f.0.0.1", "0x7f000001", "2130706433",
    "017700000001", "127.0.0.1.", "localhost", "LOCALHOST.", "[::1]", "[0:0:0:0:0:0:0:1]",
    "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[::127.0.0.1]", "[64:ff9b::7f00:1]",
    "[2002:7f00:1::]", "[::ffff:0:7f00:1]", "127.0.0.2", "0.0.0.0",
)  # fmt: skip


@pytest.mark.parametrize("mode", ["default", "acceptEdits", "dontAsk", "bypassPermissions"])
def test_no_spelling_of_loopback_reaches_the_server_in_any_mode(web: Web, mode: str) -> None:
    # the canary is a real server on 127.0.0.1: any request that got through is a hit
    port = web.server.port
    for host in LOOPBACK_SPELLINGS:
        out = web.fetch(
            f"http://{host}:{port}/page.html", mode=mode, engine=web.engine(allow=ANY_HOST)
        )
        # refused by hands before any connection, not failed by the network
        assert out.is_error and out.block.text.startswith("Refused"), (host, out.block.text)
    assert web.server.hits == []


@pytest.mark.parametrize(
    ("host", "kind"),
    [
        ("169.254.169.254", "metadata"),
        ("2852039166", "metadata"),  # 169.254.169.254 written as one number
        ("[::ffff:169.254.169.254]", "metadata"),
        ("[fd00:ec2::254]", "metadata"),
        ("10.1.2.3", "private"),
        ("192.168.0.1", "private"),
        ("100.64.0.1", "CGNAT"),
        ("169.254.1.1", "link-local"),
        ("[fe80::1]", "link-local"),
        ("[fd12::1]", "private"),
        ("0.0.0.0", "unspecified"),
    ],
)
def test_private_and_metadata_addresses_are_refused(web: Web, host: str, kind: str) -> None:
    text = web.err(
        f"https://{host}/latest/meta-data/", mode="bypassPermissions", engine=web.engine(allow=())
    )
    assert "Refused" in text and kind in text


def test_an_exact_allow_rule_opens_a_loopback_host(web: Web) -> None:
    assert "Installing widgets" in web.ok("/page.html")


def test_sandbox_allowed_domains_open_a_loopback_host(web: Web) -> None:
    web.session.service(NetworkDomains, lambda: NetworkDomains(allowed=("127.0.0.1",)))
    assert "Installing widgets" in web.ok("/page.html", engine=web.engine(allow=ANY_HOST))


def test_another_tools_domain_rule_does_not_open_a_loopback_host(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(web.home))
    rule = "mcp__web__fetch(domain:127.0.0.1)"
    (web.project / ".claude").mkdir(exist_ok=True)
    (web.project / ".claude" / "settings.local.json").write_text(
        json.dumps({"permissions": {"allow": [rule]}})
    )
    install_settings(web.session, load_settings(web.project, trusted=True))
    text = web.err("/page.html", engine=web.engine(allow=(*ANY_HOST, rule)))
    assert "Refused" in text and "loopback" in text


def test_a_redirect_to_a_metadata_address_is_not_followed(web: Web) -> None:
    text = web.ok("/to-metadata")
    assert "https://169.254.169.254/latest/meta-data/" in text and "not followed" in text
    # fetching the target goes through the same check and is refused
    again = web.err("http://169.254.169.254/latest/meta-data/", engine=web.engine(allow=ANY_HOST))
    assert "metadata" in again
    assert web.server.hits == ["/to-metadata"]


def test_every_redirect_hop_is_checked(web: Web) -> None:
    # the first hop is opened by name; the same site reached as 127.0.0.1 again is too,
    # but "localhost" is another host: reported, not followed, not connected to
    text = web.ok("/other")
    assert f"http://localhost:{web.server.port}/page.html" in text
    assert web.server.hits == ["/other"]
    refused = web.err(
        f"http://localhost:{web.server.port}/page.html", engine=web.engine(allow=ANY_HOST)
    )
    assert "loopback" in refused


# -- transfer -------------------------------------------------------------------------------


def test_same_host_redirects_are_followed(web: Web) -> None:
    text = web.ok("/same")
    assert "Installing widgets" in text and "redirected from" in text
    assert web.ok("/same-absolute").count("Installing widgets") == 1
    assert "end of chain" in web.ok("/chain/10")


def test_more_than_ten_redirects_is_an_error(web: Web) -> None:
    assert "more than 10" in web.err("/chain/11")


def test_a_redirect_loop_is_an_error(web: Web) -> None:
    text = web.err("/loop-a")
    assert "loop" in text and "/loop-b" in text


def test_gzip_and_brotli_bodies_are_decoded(web: Web) -> None:
    assert "Installing widgets" in web.ok("/gzip")
    assert "Installing widgets" in web.ok("/br")


def test_a_stacked_one_gib_bomb_is_cut_at_the_cap_while_it_is_decoded(web: Web) -> None:
    import tracemalloc

    web.tools = [WebFetchTool(limits=FetchLimits(max_body_bytes=2 * 1024 * 1024))]
    tracemalloc.start()
    try:
        text = web.ok("/bomb")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "only the first 2.0 MB were read" in text
    assert peak < 64 * 1024 * 1024, f"peak {peak:,} bytes"


def test_the_user_agent_names_hands(web: Web) -> None:
    web.ok("/page.html")
    assert web.server.user_agents[0].startswith("hands")


def test_a_two_gigabyte_body_is_cut_at_ten_megabytes(web: Web) -> None:
    web.tools = [WebFetchTool(limits=FetchLimits(read_seconds=10, total_seconds=60))]
    text = web.ok("/huge")
    assert "only the first 10.0 MB were read" in text
    assert "10,385,760 more characters were left out" in text
    assert any("Received" in str(p) and "MB" in str(p) for p in web.progress)


def test_a_server_that_stalls_after_the_headers_times_out(web: Web) -> None:
    text = web.err("/stall")
    assert "timed out" in text or "longer than" in text


def test_an_unreachable_host_is_an_error(web: Web) -> None:
    closed = WebServer()
    port = closed.port
    closed.server_close()  # nothing listens there any more
    text = web.err(f"http://127.0.0.1:{port}/")
    assert "Could not fetch" in text


def test_an_unresolvable_host_is_an_error(web: Web) -> None:
    text = web.err("https://no-such-host.invalid/", engine=web.engine(allow=ANY_HOST))
    assert "could not be resolved" in text


@pytest.mark.parametrize(
    ("code", "says"), [(404, "does not exist"), (500, "failed"), (429, "limiting")]
)
def test_error_statuses_are_errors_that_name_the_status(web: Web, code: int, says: str) -> None:
    text = web.err(f"/status/{code}")
    assert f"HTTP {code}" in text and says in text and f"error page {code}" in text


# -- content --------------------------------------------------------------------------------


def test_html_becomes_markdown_of_the_main_content(web: Web) -> None:
    text = web.ok("/page.html")
    assert "# Installing widgets" in text and "## Steps" in text
    assert "```\npip install widgets\nwidgets --init\n```" in text
    assert f"[setup notes](http://127.0.0.1:{web.server.port}/docs/setup.html)" in text
    assert "tracking" not in text and "color: red" not in text
    assert "Copyright" not in text and "About" not in text


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/latin1", "Café crème, déjà vu"),
        ("/mislabelled", "Café crème, déjà vu, naïve façade"),
        ("/utf8-as-latin1", "Grüße aus Köln"),
        ("/meta-charset", "Привет, мир"),
    ],
)
def test_charsets_from_the_header_the_document_or_detection(
    web: Web, path: str, words: str
) -> None:
    assert words in web.ok(path)


def test_malformed_html_still_converts(web: Web) -> None:
    text = web.ok("/malformed.html")
    assert "unclosed" in text and "after" in text


def test_json_is_pretty_printed_and_text_kept(web: Web) -> None:
    assert '"versions": [\n    1,' in web.ok("/data.json")
    assert "plain *text* stays as it is" in web.ok("/notes.txt")


def test_a_pdf_is_read_as_text(web: Web) -> None:
    assert "Hello from a PDF" in web.ok("/doc.pdf")


def test_images_come_back_as_image_blocks_downscaled_like_read(web: Web) -> None:
    small = web.fetch("/image.png")
    assert not small.is_error
    parts = small.block.content
    assert isinstance(parts, tuple | list) and isinstance(parts[0], ImageBlock)
    big = web.fetch("/huge.png")
    blocks: Any = big.block.content
    assert isinstance(blocks[0], ImageBlock) and "image/png" in big.block.text


def test_a_binary_body_is_saved_in_the_session_folder_with_its_path_type_and_size(
    web: Web,
) -> None:
    text = web.ok("/binary")
    saved = re.search(r"saved to (\S+) \(300 bytes\)", text)
    assert saved is not None, text
    path = Path(saved.group(1))
    assert path.parent == web.session.directory / "downloads"
    assert path.name.endswith("-binary")
    assert path.read_bytes() == b"\x00\x01\x02" * 100
    assert "application/octet-stream" in text
    again = web.ok("/binary")  # from the cache: the same file, not a second copy
    assert saved.group(1) in again and len(list(path.parent.iterdir())) == 1


def test_long_pages_are_cut_with_a_notice(web: Web) -> None:
    text = web.ok("/long")
    assert "Cut here: 200,000 more characters were left out" in text
    assert "offset=100000" in text


def test_offset_reads_on_after_the_cut(web: Web) -> None:
    rest = web.ok("/long", offset=100_000)
    assert "Cut here: 100,000 more characters were left out" in rest
    assert "offset=200000" in rest
    tail = web.ok("/long", offset=250_000)
    assert "Cut here" not in tail
    assert tail.count("x" * 99) == 500  # the last 50,000 characters: 500 lines of 100


# -- prompt ---------------------------------------------------------------------------------


def test_without_a_small_model_the_page_comes_back_with_the_prompt(web: Web) -> None:
    text = web.ok("/page.html", prompt="how do I install it?")
    assert "Prompt: how do I install it?" in text
    assert "HANDS_SMALL_MODEL is not set" in text and "not a summary" in text


# -- cache ----------------------------------------------------------------------------------


def test_a_second_fetch_comes_from_the_cache_by_final_url(web: Web) -> None:
    web.ok("/same")
    assert web.server.hits == ["/same", "/page.html"]
    again = web.ok("/page.html")
    assert "from the cache" in again and web.server.hits == ["/same", "/page.html"]
    assert "from the cache" in web.ok("/same") and len(web.server.hits) == 2


def test_a_zero_ttl_turns_the_cache_off(web: Web, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS", "0")
    web.ok("/page.html")
    assert "from the cache" not in web.ok("/page.html")
    assert web.server.hits == ["/page.html", "/page.html"]


def test_the_ttl_variables() -> None:
    assert ttl_from_env({}) == 900
    assert ttl_from_env({"CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS": "1000"}) == 1
    both = {"HANDS_WEBFETCH_CACHE_TTL_MS": "2000", "CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS": "1000"}
    assert ttl_from_env(both) == 2
    with pytest.raises(EnvError, match="HANDS_WEBFETCH_CACHE_TTL_MS='soon'"):
        ttl_from_env({"HANDS_WEBFETCH_CACHE_TTL_MS": "soon"})  # named, not ignored


def _page(url: str, chars: int) -> Page:
    return Page(
        url=url,
        status=200,
        reason="OK",
        content_type="text/plain",
        received=chars,
        body_truncated=False,
        kind="text",
        text="x" * chars,
    )


def test_the_cache_drops_the_least_recently_used_pages_over_its_size() -> None:
    cache = PageCache(ttl_seconds=60, max_bytes=2_500)
    cache.put("a", _page("a", 1_000))
    cache.put("b", _page("b", 1_000))
    assert cache.get("a") is not None  # a is now the most recent
    cache.put("c", _page("c", 1_000))
    assert cache.get("b") is None and cache.get("a") is not None and cache.get("c") is not None
    assert cache.size <= 2_500
    cache.put("d", _page("d", 10_000))  # bigger than the whole cache: not kept
    assert cache.get("d") is None


# -- permissions ----------------------------------------------------------------------------


def test_asks_per_domain_and_always_saves_the_domain_rule(web: Web) -> None:
    answers = ["2"]
    shown: list[str] = []

    async def prompt(text: str) -> str:
        shown.append(text)
        return answers.pop(0)

    engine = web.engine(allow=())
    handler = PromptAskHandler(prompt=prompt, project_dir=web.project, engine=engine)
    out = web.fetch("/page.html", engine=engine, ask=handler)
    assert out.status == "ok", out.block.text
    assert "WebFetch(domain:127.0.0.1)" in shown[0]
    saved = json.loads((web.project / ".claude" / "settings.local.json").read_text())
    assert saved["permissions"]["allow"] == ["WebFetch(domain:127.0.0.1)"]
    # no second prompt for the same domain; the saved rule also opens the loopback host
    assert web.fetch("/notes.txt", engine=engine, ask=handler).status == "ok"
    assert len(shown) == 1


def test_a_deny_rule_wins_over_an_allow_rule(web: Web) -> None:
    engine = web.engine(allow=(web_rule := "WebFetch(domain:127.0.0.1)",), deny=(web_rule,))
    out = web.fetch("/page.html", engine=engine, mode="bypassPermissions")
    assert out.status == "rejected" and web.server.hits == []


def test_dont_ask_denies_unmatched_domains(web: Web) -> None:
    denied = web.fetch("/page.html", engine=web.engine(allow=()), mode="dontAsk")
    assert denied.status == "rejected" and "dontAsk" in denied.block.text
    assert web.fetch("/page.html", mode="dontAsk").status == "ok"


def test_accept_edits_still_asks(web: Web) -> None:
    out = web.fetch("/page.html", engine=web.engine(allow=()), mode="acceptEdits")
    assert out.status == "rejected" and web.server.hits == []


def test_read_only_and_concurrency_safe() -> None:
    tool = WebFetchTool()
    data = WebFetchInput(url="https://example.com/", prompt="p")
    assert tool.is_read_only(data) and tool.is_concurrency_safe(data)


# -- rendering ------------------------------------------------------------------------------


def test_rendering_shows_the_url_then_what_was_received(web: Web, render: Any) -> None:
    tool = WebFetchTool()
    url = web.server.url("/page.html")
    assert url in render(tool.render_use(WebFetchInput(url=url, prompt="p")))
    page = Page(
        url=url,
        status=200,
        reason="OK",
        content_type="text/html",
        received=12_595,
        body_truncated=False,
        kind="markdown",
        text="x" * 4_120,
    )
    line = summary(FetchedPage(requested=url, page=page, prompt="p", shown_chars=4_120))
    assert line == "Received 12.3 KB (200 OK, text/html) → 4,120 chars of Markdown"


def test_a_huge_page_converts_its_main_content_up_to_the_html_bound(web: Web) -> None:
    filler = "<div class='ad'>" + "<span>sidebar</span>" * 40_000 + "</div>"
    script = "<script>" + "x" * 2_000_000 + "</script>"
    body = (
        f"<html><head>{script}</head><body>{filler}<main><h1>Real content</h1>"
        + "<p>paragraph text</p>" * 100_000
        + "</main></body></html>"
    ).encode()
    web.server.extra["/giant.html"] = lambda h: h.send(200, body, "text/html")
    text = web.ok("/giant.html")
    assert "# Real content" in text and "sidebar" not in text
    assert "Cut here:" in text
