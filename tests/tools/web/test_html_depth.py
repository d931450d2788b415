"""A page nested far deeper than any parser recurses converts to its text."""

from __future__ import annotations

import pytest

from hands.tools.web._flatten import MAX_DEPTH, flatten, too_deep
from hands.tools.web._html import html_to_markdown

HEAD = "<html><head><title>Deep</title></head><body><p>start &amp; go</p>"


@pytest.mark.parametrize(
    "body",
    [
        "<div>" * 400_000 + "deep text",
        "<div>" * 400_000 + "deep text" + "</div>" * 400_000,
        "<b><i>" * 200_000 + "deep text",
        "<script>" * 400_000 + "alert(1)",
        "<ul><li>" * 200_000 + "deep text",
        "<table><tr><td>" * 100_000 + "deep text",
    ],
    ids=["divs", "closed-divs", "inline", "scripts", "lists", "tables"],
)
def test_a_400_000_deep_page_converts(body: str) -> None:
    text = html_to_markdown(HEAD + body, "https://example.com/")
    assert text.startswith("# Deep\n\nstart & go")


def test_deep_text_within_the_size_cap_is_kept_in_order() -> None:
    page = (
        HEAD + "<div><span>" * 50_000 + "deep <b>text</b>" + "</span></div>" * 10 + "<p>after</p>"
    )
    text = html_to_markdown(page, "https://example.com/")
    assert "deep text" in text  # the tags that deep are left out, not the words
    assert text.index("start") < text.index("deep") < text.index("after")


def test_flatten_keeps_shallow_structure_and_all_text() -> None:
    deep = "<section>" * (MAX_DEPTH + 50) + "x &lt; y<br>z" + "</section>" * (MAX_DEPTH + 50)
    page = f"<!DOCTYPE html><html><body><h1>Title</h1>{deep}<p>tail</p></body></html>"
    assert too_deep(page)
    flat = flatten(page)
    assert not too_deep(flat)
    assert "<h1>Title</h1>" in flat and "x &lt; y" in flat and "<p>tail</p>" in flat
    assert flat.count("<section>") == MAX_DEPTH - 2  # html and body hold the first levels


def test_an_ordinary_page_is_not_rewritten() -> None:
    page = HEAD + "<ul>" + "<li>item" * 5000 + "</ul><p>after</p>"
    assert not too_deep(page)
    assert "- item\n- item" in html_to_markdown(page, "https://example.com/")
