"""Ranking tools for a plain-language request: field-weighted BM25, once per need.

Each tool is a small document with fields: its own name split into words (snake, camel,
kebab; the ``mcp__server__`` prefix removed), its server, its search hint, its
description, its parameters' names and their descriptions, and ``text``, all of those as
one flat field. Each field with a weight has its own BM25 index (:mod:`bm25s`); a tool's
score is the weighted sum of its fields' scores. The fit (below) keeps the flat field
alone: on requests from other catalogues, separate fields' scores ranked worse than one
flat field, however weighted. Words are stemmed (Snowball) and stop words dropped
(:mod:`hands.discovery.ranking.words`); web addresses, paths and ids become the words
tools use for them (:mod:`hands.discovery.ranking.cues`).

A request's verbs may also search for the tool-name verbs they stand for ("show" for
``get`` and ``list``), from the small table ``verb_groups.json``, at a fitted weight (the
current fit gives it none).

The weights and BM25's ``k1`` and ``b`` are not set by hand: ``benchmarks/fit_tool_search.py``
fits them on the project's requests and the validation part of the held-out sets and
writes ``ranking_weights.json`` beside this module.

Meaning beyond shared words comes from a static embedding model
(:mod:`hands.discovery.ranking.embedding`), when installed: a tool's score is its BM25
score over the best tool's, plus ``embedding`` (fitted) times the cosine of the request's
vector and the tool's (name, server, description and parameter names) when positive. It
orders the tools that share a word with the request and adds none: a search loads only
tools its words point to (each one found stays in the context), and on the held-out
validation sets tools that shared no word added nothing to recall.

A request that asks for several things ("find the file, then email it") is split into
needs (:mod:`hands.discovery.ranking.needs`) when two or more parts have their own verbs;
each need is ranked and the best tools of each are returned in turn. A request with one
need is one plain ranking.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

from hands.discovery.ranking.cues import rewrite_cues
from hands.discovery.ranking.embedding import StaticModel, catalogue_vectors, loaded_model
from hands.discovery.ranking.needs import interleave, leading_verbs, split_needs
from hands.discovery.ranking.words import name_parts, stem, terms

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "FIELDS",
    "VERB_GROUPS_FILE",
    "WEIGHTS_FILE",
    "Ranked",
    "SearchDoc",
    "ToolIndex",
    "Weights",
    "doc_fields",
    "doc_for",
    "doc_text",
    "fitted_weights",
    "index_for",
    "name_parts",
    "params_of",
    "query_terms",
    "verb_terms",
]

FIELDS = ("text", "name", "server", "hint", "description", "param_names", "param_text")
WEIGHTS_FILE = Path(__file__).with_name("ranking_weights.json")
VERB_GROUPS_FILE = Path(__file__).with_name("verb_groups.json")
MAX_PARAM_TEXT = 400
"""Characters of each parameter description indexed (long ones are mostly examples)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class SearchDoc:
    """What the ranker knows of one tool."""

    name: str
    description: str = ""
    server: str = ""
    hint: str = ""
    params: tuple[tuple[str, str], ...] = ()
    """(parameter name, its description) pairs."""
    required: tuple[str, ...] = ()
    """Names of the parameters the tool requires."""

    @property
    def is_mcp(self) -> bool:
        """Whether this is an MCP tool (``mcp__server__tool``)."""
        return self.name.startswith("mcp__")


@dataclass(frozen=True, kw_only=True, slots=True)
class Ranked:
    """One search result."""

    name: str
    score: float


@dataclass(frozen=True, kw_only=True, slots=True)
class Weights:
    """The fitted parameters of the ranker (see ``ranking_weights.json``)."""

    k1: float
    b: float
    fields: Mapping[str, float]
    """Weight of each field's BM25 score in a tool's score."""
    whole_first: bool = True
    """Whether the ranking of the whole request leads the needs' rankings."""
    verbs: float = 0.0
    """Weight of the tool-name verbs a request's verbs stand for (``verb_groups.json``)."""
    embedding: float = 0.0
    """Weight of the embedding cosine beside the BM25 score scaled to the best tool's 1."""


def params_of(schema: Mapping[str, Any] | None) -> tuple[tuple[str, str], ...]:
    """(name, description) of each top-level property of a JSON schema."""
    props = schema.get("properties") if schema else None
    if not isinstance(props, Mapping):
        return ()
    out: list[tuple[str, str]] = []
    for key, value in cast(Mapping[str, Any], props).items():
        raw = (
            cast(Mapping[str, Any], value).get("description") if isinstance(value, Mapping) else ""
        )
        out.append((str(key), (raw if isinstance(raw, str) else "")[:MAX_PARAM_TEXT]))
    return tuple(out)


def _required_of(schema: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The required top-level properties of a JSON schema."""
    required = schema.get("required") if schema else None
    if not isinstance(required, list):
        return ()
    return tuple(str(name) for name in cast(list[Any], required))


def doc_for(
    name: str,
    description: str = "",
    schema: Mapping[str, Any] | None = None,
    *,
    server: str = "",
    hint: str = "",
) -> SearchDoc:
    """A :class:`SearchDoc` from a definition; the server is taken from the name if unset."""
    return SearchDoc(
        name=name,
        description=description,
        server=server or name_parts(name)[0],
        hint=hint,
        params=params_of(schema),
        required=_required_of(schema),
    )


def doc_fields(doc: SearchDoc) -> dict[str, list[str]]:
    """The terms of each field of a tool's document."""
    fields = {
        "name": terms(" ".join(name_parts(doc.name)[1])),
        "server": terms(doc.server),
        "hint": terms(doc.hint),
        "description": terms(doc.description),
        "param_names": [t for name, _ in doc.params for t in terms(name)],
        "param_text": [t for _, text in doc.params for t in terms(text)],
    }
    return {"text": [t for words in fields.values() for t in words], **fields}


def doc_text(doc: SearchDoc) -> str:
    """The text of a tool that is embedded: server, name words, description, parameter names."""
    words = " ".join(name_parts(doc.name)[1])
    params = " ".join(name for name, _ in doc.params)
    return f"{doc.server} {words}. {doc.description} {params}"


@cache
def fitted_weights() -> Weights:
    """The weights fitted by ``benchmarks/fit_tool_search.py`` (read on first use)."""
    data = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    return Weights(
        k1=float(data["k1"]),
        b=float(data["b"]),
        fields={f: float(data["fields"].get(f, 0.0)) for f in FIELDS},
        whole_first=bool(data.get("whole_first", True)),
        verbs=float(data.get("verbs", 0.0)),
        embedding=float(data.get("embedding", 0.0)),
    )


@cache
def _verb_groups() -> dict[str, tuple[str, ...]]:
    """Each request verb's stem and the stems of the tool-name verbs it stands for."""
    data = json.loads(VERB_GROUPS_FILE.read_text(encoding="utf-8"))
    return {stem(g["word"]): tuple(stem(m) for m in g["means"]) for g in data["groups"]}


def verb_terms(words: Sequence[str]) -> list[str]:
    """The tool-name verbs that the verbs among ``words`` stand for, not in ``words``."""
    groups = _verb_groups()
    given = set(words)
    out = [m for w in words for m in groups.get(w, ()) if m not in given]
    return list(dict.fromkeys(out))


def query_terms(text: str) -> list[str]:
    """The terms of a request (or one need of it), its shapes read first."""
    return terms(rewrite_cues(text))


class ToolIndex:
    """A search index over a fixed list of tools; build once, query many times."""

    def __init__(
        self,
        docs: Sequence[SearchDoc],
        weights: Weights | None = None,
        *,
        model: StaticModel | Literal["installed"] | None = "installed",
        vectors_dir: Path | None = None,
    ) -> None:
        """An index of ``docs``.

        ``model`` is the embedding model (the installed one by default, None for BM25
        alone); ``vectors_dir`` the folder of catalogue vectors (the user's cache by default).
        """
        import bm25s

        self.docs = tuple(sorted(docs, key=lambda d: d.name))
        """The tools in name order: equal scores keep this order."""
        self.weights = weights or fitted_weights()
        fields = [doc_fields(d) for d in self.docs]
        self._fields: list[tuple[float, bm25s.BM25]] = []
        self.fields: list[str] = []
        """The fields indexed: those with a weight and some terms, in ``FIELDS`` order."""
        for field in FIELDS:
            weight = self.weights.fields.get(field, 0.0)
            corpus = [f[field] for f in fields]
            if weight <= 0.0 or not any(corpus):
                continue
            index = bm25s.BM25(k1=self.weights.k1, b=self.weights.b)
            index.index(corpus, show_progress=False)
            self._fields.append((weight, index))
            self.fields.append(field)
        named = leading_verbs([t for t in f["name"] if t not in f["server"]] for f in fields)
        self._verbs = named | frozenset(_verb_groups())
        self._model = model
        self._vectors_dir = vectors_dir
        self._vectors: np.ndarray | None = None

    def embedder(self) -> tuple[StaticModel, np.ndarray] | None:
        """The embedding model and the tools' vectors (made on first use), or None."""
        if self.weights.embedding <= 0.0 or not self.docs:
            return None
        if self._model == "installed":
            self._model = loaded_model()
        model = self._model
        if not isinstance(model, StaticModel):
            return None
        if self._vectors is None:
            texts = [doc_text(d) for d in self.docs]
            self._vectors = catalogue_vectors(model, texts, self._vectors_dir)
        return model, self._vectors

    def cosines(self, text: str) -> np.ndarray | None:
        """The cosine of ``text``'s vector and each tool's, or None without a model."""
        found = self.embedder()
        if found is None:
            return None
        model, vectors = found
        return vectors @ model.embed([text])[0]

    def __len__(self) -> int:
        return len(self.docs)

    def field_scores(self, words: Sequence[str]) -> list[np.ndarray]:
        """Each indexed field's BM25 scores of every tool for ``words`` (unweighted)."""
        return [index.get_scores(list(words)) for _, index in self._fields]

    def _total(self, text: str) -> np.ndarray | None:
        """The score of every tool for ``text``, or None when it has no words."""
        import numpy as np

        words = query_terms(text)
        if not words or not self._fields:
            return None
        extra = verb_terms(words) if self.weights.verbs > 0.0 else []
        total = np.zeros(len(self.docs), dtype=np.float32)
        for weight, index in self._fields:
            total += weight * index.get_scores(list(words))
            if extra:
                total += weight * self.weights.verbs * index.get_scores(extra)
        best = float(total.max())
        cosines = self.cosines(text) if best > 0.0 else None
        if cosines is None:
            return total
        fused = total / best + self.weights.embedding * np.maximum(cosines, 0.0)
        return np.where(total > 0.0, fused, 0.0)  # only tools that share a word with the text

    def scores(
        self, query: str, *, required: Sequence[str] = (), limit: int | None = None
    ) -> list[Ranked]:
        """The tools with a positive score for the whole request, best first (``limit`` at most).

        ``required`` terms must each appear in the tool's name (case-insensitive); every tool
        that has them is a result, ranked by the rest of the query.
        """
        import numpy as np

        total = self._total(query)
        needed = [r.lower() for r in required if r]
        if needed:
            keep = np.array([all(r in d.name.lower() for r in needed) for d in self.docs])
            base = np.zeros(len(self.docs)) if total is None else total
            total = np.where(keep, base + 1.0, 0.0)
        if total is None:
            return []
        count = int(np.count_nonzero(total > 0.0))
        count = count if limit is None else min(count, max(0, limit))
        order: list[int] = np.argsort(-total, kind="stable")[:count].tolist()
        return [Ranked(name=self.docs[i].name, score=round(float(total[i]), 4)) for i in order]

    def needs(self, query: str) -> list[str]:
        """The needs of a request: its clauses that each ask for one thing."""
        return split_needs(query, self._verbs, query_terms)

    def search(self, query: str, limit: int = 5, *, required: Sequence[str] = ()) -> list[Ranked]:
        """The best ``limit`` tools for ``query``: for each of its needs in turn."""
        needs = [] if required else self.needs(query)
        if len(needs) < 2:
            return self.scores(query, required=required, limit=limit)
        rankings = [self.scores(need, limit=limit) for need in needs]
        if self.weights.whole_first:
            rankings.insert(0, self.scores(query, limit=limit))
        return interleave(rankings, limit)


_CACHE: dict[tuple[SearchDoc, ...], ToolIndex] = {}


def index_for(docs: Sequence[SearchDoc]) -> ToolIndex:
    """A (cached) index for ``docs``; the same tools give back the same index."""
    key = tuple(docs)
    index = _CACHE.get(key)
    if index is None:
        if len(_CACHE) >= 16:
            _CACHE.clear()
        index = ToolIndex(docs)
        _CACHE[key] = index
    return index
