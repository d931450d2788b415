"""A request's needs: the clauses that each ask for one thing, and their results merged.

"Find the latest report, then email it to Sam" has two needs: a search and an e-mail.
Needs are split at list items, ``;``, sentence ends, "then" / "after that", and at "and"
or a comma before a verb. A verb is a word that begins the names of the index's tools more
often than it stands later in them (``get_``, ``create_``, ``send_``...), so what counts as
one comes from the tools at hand, not from a word list (the ranker adds the request verbs of
``verb_groups.json``). A part with no verb of its own among its first words belongs to the
part before it; a request is split only when at least two parts have their own verbs, so a
single-need request is always one plain ranking.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, TypeVar

_ITEM = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+", re.M)
_HARD = re.compile(r"\n+|;|(?<=[.!?])\s+|\b(?:and\s+)?then\b|\bafter that\b|\bafterwards\b", re.I)
_SOFT = re.compile(r"(?:,\s*|\s+)and\s+|,\s+", re.I)
_FIRST_WORD = re.compile(r"[^\W_]+")


class _Named(Protocol):
    @property
    def name(self) -> str: ...


R = TypeVar("R", bound=_Named)


def leading_verbs(names: Iterable[Sequence[str]]) -> frozenset[str]:
    """The words (stems) that begin tools' names more often than they stand later in one.

    ``send`` in ``send_email`` is a verb; ``pull`` begins ``pull_request_read`` but stands
    later in ``create_pull_request`` and ``list_pull_requests``: a noun.
    """
    first: Counter[str] = Counter()
    later: Counter[str] = Counter()
    for words in names:
        if len(words) > 1:
            first[words[0]] += 1
            later.update(words[1:])
    return frozenset(w for w, n in first.items() if n > later[w])


def _starts_with_verb(text: str, verbs: frozenset[str], terms: Callable[[str], list[str]]) -> bool:
    first = _FIRST_WORD.search(text)
    words = terms(first.group(0)) if first else []
    return bool(words) and words[0] in verbs


def _soft_split(clause: str, verbs: frozenset[str], terms: Callable[[str], list[str]]) -> list[str]:
    """``clause`` split at each "and" or comma that a verb follows."""
    parts: list[str] = []
    start = 0
    for match in _SOFT.finditer(clause):
        if _starts_with_verb(clause[match.end() :], verbs, terms):
            parts.append(clause[start : match.start()])
            start = match.end()
    parts.append(clause[start:])
    return parts


VERB_REACH = 3
"""How many of a part's first terms may be its verb ("please also find..." has one)."""


def split_needs(text: str, verbs: frozenset[str], terms: Callable[[str], list[str]]) -> list[str]:
    """The needs of ``text``, in order: ``[text]`` unless two or more have their own verbs."""
    clauses = _HARD.split(_ITEM.sub("\n", text))
    needs: list[str] = []
    for part in (p.strip(" ,.") for c in clauses if c for p in _soft_split(c, verbs, terms)):
        words = terms(part)
        if not words:
            continue
        if needs and not any(w in verbs for w in words[:VERB_REACH]):
            needs[-1] = f"{needs[-1]}, {part}"
        else:
            needs.append(part)
    if len(needs) < 2 or not any(w in verbs for w in terms(needs[0])[:VERB_REACH]):
        return [text.strip()]
    return needs


def interleave(rankings: Sequence[Sequence[R]], limit: int) -> list[R]:
    """Each ranking's best tool not yet taken, in turn (round-robin), at most ``limit``."""
    out: list[R] = []
    seen: set[str] = set()
    next_of = [0] * len(rankings)
    while len(out) < limit:
        added = False
        for which, ranking in enumerate(rankings):
            while next_of[which] < len(ranking) and ranking[next_of[which]].name in seen:
                next_of[which] += 1
            if next_of[which] < len(ranking) and len(out) < limit:
                out.append(ranking[next_of[which]])
                seen.add(out[-1].name)
                added = True
        if not added:
            return out
    return out
