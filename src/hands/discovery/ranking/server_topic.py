"""Which server a request is about: each server's tools read as one document.

A request often names no tool's words but plainly belongs to one server: "where is
AUB?" to the maps server, "how many conversations are stored?" to the database. Taken
together, a server's tool names and descriptions say what the server is for better than
any one tool does. Servers are ranked by BM25 over those documents; a tool with no server
is a document of its own.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

K1 = 1.2
B = 0.75


class ServerTopics:
    """BM25 over servers, each the bag of its tools' terms; build once per tool list."""

    def __init__(self, servers: Mapping[str, Iterable[str]]) -> None:
        self._counts: dict[str, dict[str, int]] = {}
        for key, terms in servers.items():
            counts: dict[str, int] = {}
            for term in terms:
                counts[term] = counts.get(term, 0) + 1
            self._counts[key] = counts
        count = max(1, len(self._counts))
        self._lengths = {key: sum(c.values()) for key, c in self._counts.items()}
        self._average = max(1.0, sum(self._lengths.values()) / count)
        frequency: dict[str, int] = {}
        for counts in self._counts.values():
            for term in counts:
                frequency[term] = frequency.get(term, 0) + 1
        self._idf = {
            term: math.log(1.0 + (count - n + 0.5) / (n + 0.5)) for term, n in frequency.items()
        }

    def relative(self, terms: Mapping[str, float]) -> dict[str, float]:
        """Each matching server's score for the weighted ``terms``, the best being 1."""
        scores: dict[str, float] = {}
        for key, counts in self._counts.items():
            norm = K1 * (1.0 - B + B * self._lengths[key] / self._average)
            score = 0.0
            for term, weight in terms.items():
                tf = counts.get(term, 0)
                if tf:
                    score += weight * self._idf[term] * tf / (tf + norm)
            if score > 0.0:
                scores[key] = score
        best = max(scores.values(), default=0.0)
        return {key: score / best for key, score in scores.items()} if best > 0.0 else {}
