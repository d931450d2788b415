"""Words of tool definitions and requests: split, lower-cased, stop words out, stemmed."""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from collections.abc import Callable

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = re.compile(r"[^\W_]+")
_MCP_PREFIX = re.compile(r"^mcp__(.+?)__(.+)$")


def split_words(text: str) -> list[str]:
    """Words of ``text``, lower-cased: snake, kebab and camel case are split."""
    return _WORD.findall(_CAMEL.sub(" ", text).lower())


def name_parts(name: str) -> tuple[str, list[str]]:
    """(server, words of the tool's own name) for ``mcp__server__tool`` or a plain name."""
    match = _MCP_PREFIX.match(name)
    if match:
        return match.group(1), split_words(match.group(2))
    return "", split_words(name)


@cache
def _stemmer() -> Callable[[str], str]:
    """The English Snowball stemmer (PyStemmer), loaded on first use."""
    import Stemmer  # no type information ships with PyStemmer

    stemmer: Any = Stemmer.Stemmer("english")  # pyright: ignore[reportUnknownVariableType]
    return cast("Callable[[str], str]", stemmer.stemWord)


@cache
def _stop_words() -> frozenset[str]:
    """English stop words (bm25s's longer list): words that say nothing of a tool."""
    from bm25s.stopwords import STOPWORDS_EN_PLUS

    return frozenset(STOPWORDS_EN_PLUS)


@lru_cache(maxsize=16384)
def stem(word: str) -> str:
    """The Snowball stem of one lower-case word ("requests" -> "request")."""
    return _stemmer()(word)


def terms(text: str) -> list[str]:
    """The stems of the words of ``text`` that are not stop words."""
    stop = _stop_words()
    return [stem(w) for w in split_words(text) if w not in stop]
