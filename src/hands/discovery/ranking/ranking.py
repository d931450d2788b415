"""Ranking tools for a plain-language request: field-weighted BM25 plus hand-made intent.

Each tool is a small document with fields, each with its own weight and length
normalisation (BM25F):

==============  ======  =======================================================
field           weight  what
==============  ======  =======================================================
name            3.0     the tool's own name split into words (snake, camel,
                        kebab; the ``mcp__server__`` prefix removed)
hint            2.0     ``_meta["anthropic/searchHint"]`` / ``Tool.search_hint``
server          1.5     the MCP server's name
description     1.0     the description
parameters      0.6     parameter names (and 0.3 for parameter descriptions)
==============  ======  =======================================================

The request is read by :mod:`hands.discovery.ranking.query` (weighted terms, intent, what it
points at). On top of BM25F come these signals:

- how much of the tool's name the request covers (``create_pull_request`` for "open a
  pull request" beats ``list_pull_requests``); names in the request ("Times Square")
  do not count;
- the intent: the request's verb group (create, read, list, update, delete...) against
  the verbs in the tool's name;
- a platform the request names ("in GitLab", "on Slack"), or a server of the index it
  names as such ("using the memory MCP"), lifts that server's tools and lowers others';
- where the files are: a local path or files with no repository in sight lower tools
  that need owner/repo; files in a named repository lift them;
- a search about something no tool's name holds ("Next.js 15 new features") lifts the
  web search tools;
- the same tool on several servers (``create_issue`` on GitHub and GitLab) leans to the
  server offering more tools, a tie-break only;
- the server whose tools, read together, match the request best lifts all its tools
  (:mod:`hands.discovery.ranking.server_topic`);
- a tool that needs an id or number (``issue_number``, ``page_id``) the request does not
  give ranks lower: a search or listing must find that id first;
- given a web address, a server's tool that opens addresses ranks just above that
  server's tools that act on the page already open ("screenshot of https://...").

Everything is computed from the tool definitions at hand: no network, no model weights.
An index is built once per set of tools and reused.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from hands.discovery.ranking.lexicon import (
    PLATFORMS,
    REPOSITORY_PARAMS,
    STOP_WORDS,
    split_words,
)
from hands.discovery.ranking.query import (
    ParsedQuery,
    action_groups,
    parse_query,
    stem_word,
    text_terms,
)
from hands.discovery.ranking.server_topic import ServerTopics

K1 = 1.2
FIELDS: dict[str, tuple[float, float]] = {
    # name: (weight, b)
    "name": (3.0, 0.3),
    "hint": (2.0, 0.5),
    "server": (1.5, 0.0),
    "description": (1.0, 0.75),
    "param_names": (0.6, 0.5),
    "param_text": (0.3, 0.75),
}
COVERAGE_WEIGHT = 3.0
INTENT_MATCH = 2.0
INTENT_MISMATCH = -1.0
INTENT_NEAR = -0.5
_RETRIEVAL = frozenset({"read", "list", "search"})
"""Verb groups that all fetch something: one of them for another is a near miss."""
_LISTING = frozenset({"list", "search"})
"""A search with no terms lists; a listing with filters searches: one intent.

"List my repositories" on a server that only searches them is that search."""
WEB_TOPIC = 1.0
"""Lift for web search when nothing the request is about names any tool's object."""
PLATFORM_MATCH = 4.0
PLATFORM_MISMATCH = -2.0
LOCAL_FILES_MISMATCH = -1.5
LOCAL_PATH_MISMATCH = -3.0
REPOSITORY_FILES_MATCH = 1.5
SERVER_PRIOR = 0.3
"""Most a tool offered by several servers gains for its server's size (ties only)."""
SERVER_TOPIC = 1.0
"""Most a tool gains when its server, read as one document, matches the request best."""
MISSING_IDENTIFIER = -1.0
"""For a tool that needs an id or number the request does not give: find it first."""
FIRST_CALL_DEPTH = 5
"""How many of the best results may have a search lifted above them."""
MAX_PARAM_TEXT = 400
"""Characters of each parameter description indexed (long ones are mostly examples)."""

_IDENTIFIER_PARAM = re.compile(r"(?:^|_)(?:id|ID|number|sha)$|[a-z](?:Id|ID|Number)$")
"""An id's parameter: ``id``, ``page_id``, ``issue_number``, ``pullNumber``, ``ghsaId``.

Case matters: ``paid``, ``grid`` or ``android`` end in "id" but name no id."""
_WEB_SEARCH = re.compile(r"\b(?:web|internet)\b", re.I)
_MCP_PREFIX = re.compile(r"^mcp__(.+?)__(.+)$")


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


def name_parts(name: str) -> tuple[str, list[str]]:
    """(server, words of the tool's own name) for ``mcp__server__tool`` or a plain name."""
    match = _MCP_PREFIX.match(name)
    if match:
        return match.group(1), split_words(match.group(2))
    return "", split_words(name)


def params_of(schema: Mapping[str, Any] | None) -> tuple[tuple[str, str], ...]:
    """(name, description) of each top-level property of a JSON schema."""
    if not schema:
        return ()
    props = schema.get("properties")
    if not isinstance(props, Mapping):
        return ()
    out: list[tuple[str, str]] = []
    for key, value in cast(Mapping[str, Any], props).items():
        desc = ""
        if isinstance(value, Mapping):
            raw = cast(Mapping[str, Any], value).get("description")
            desc = raw if isinstance(raw, str) else ""
        out.append((str(key), desc[:MAX_PARAM_TEXT]))
    return tuple(out)


def required_of(schema: Mapping[str, Any] | None) -> tuple[str, ...]:
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
    if not server:
        server = name_parts(name)[0]
    return SearchDoc(
        name=name,
        description=description,
        server=server,
        hint=hint,
        params=params_of(schema),
        required=required_of(schema),
    )


@dataclass(slots=True)
class _Entry:
    doc: SearchDoc
    name_terms: list[str]
    coverage_terms: list[str]
    actions: set[str]
    platform_words: set[str]
    needs_repository: bool
    prior: float = 0.0
    searches_web: bool = False
    opens_pages: bool = False
    """Navigates to a ``url``: what comes before any other tool of its server acts on it."""
    takes_url: bool = False
    needs_identifier: bool = False
    """Requires an id, number or hash of one particular thing (``issue_number``)."""
    own_key: frozenset[str] = frozenset()
    """The object of its name, without its server's words or its verbs (see _own_key)."""


_ARTICLES = ("a", "an", "the")


def _prose_words(docs: Sequence[SearchDoc]) -> frozenset[str]:
    """Every word of the tools' descriptions and parameters."""
    words: set[str] = set()
    for doc in docs:
        words.update(split_words(doc.description))
        for name, text in doc.params:
            words.update(split_words(name))
            words.update(split_words(text))
    return frozenset(words)


def _unglue(word: str, prose: frozenset[str]) -> str:
    """A name word glued to its article ("retrieve_apage"), as the word the prose uses."""
    if word in prose:
        return word
    for article in _ARTICLES:
        rest = word[len(article) :]
        if word.startswith(article) and len(rest) >= 3 and rest in prose:
            return rest
    return word


_SHOUTED = re.compile(r"\b[A-Z]{3,}\b")
_STATEMENT_VERBS = {"insert": "add", "update": "update", "delete": "delete", "select": "get"}


def _statement_verbs(description: str) -> list[str]:
    """The kinds of statement a tool runs, named in capitals.

    "Execute INSERT, UPDATE, or DELETE queries": what such a tool does to records.
    """
    return [
        _STATEMENT_VERBS[w.lower()]
        for w in _SHOUTED.findall(description)
        if w.lower() in _STATEMENT_VERBS
    ]


_EXAMPLES = re.compile(
    r"\((?:e\.g\.|eg|for example|example|such as)[^)]*\)|\b(?:e\.g\.|for example)[^.;)]*",
    re.I,
)


def _without_examples(text: str) -> str:
    """A parameter's description without its example values.

    "IANA timezone name (e.g., 'Asia/Tokyo')": Tokyo is an example value, not what
    the tool is about; a request about Tokyo's restaurants must not find it.
    """
    return _EXAMPLES.sub(" ", text)


def _first_sentence(text: str) -> str:
    """What a tool mainly does: its description's first sentence."""
    return re.split(r"(?<=[.!?])\s|\n", text.strip(), maxsplit=1)[0]


def _coverage_terms(own: list[str], server: list[str]) -> list[str]:
    """The words of a tool's name a request should cover.

    The server's name in front is left out ("brave_web_search" on brave-search is "web
    search"), unless only verbs would be left ("git_show" is not "show").
    """
    rest = list(own)
    while rest and rest[0] in server:
        rest.pop(0)  # "brave_web_search" on brave-search: "web search"
    return rest if any(not action_groups([t]) for t in rest) else own


def _own_key(name_terms: Sequence[str], server_terms: Sequence[str]) -> frozenset[str]:
    """The object of a tool's name, without its server's words or its verbs.

    ``create_issue`` on GitLab and ``issue_write`` on GitHub both act on an issue.
    """
    server = set(server_terms)
    return frozenset(t for t in name_terms if t not in server and not action_groups([t]))


def _same_tool(one: _Entry, other: _Entry) -> bool:
    """Whether two tools on different servers do the same thing to the same object."""
    return (
        one.doc.server != other.doc.server
        and one.own_key == other.own_key
        and (bool(one.actions & other.actions) or one.actions == other.actions)
    )


def _mention_pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    """How a request names a server as such: "the memory MCP", "git server", "#fetch"."""
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    if not alternatives:
        return None
    return re.compile(
        rf"\b({alternatives})(?:[ -]mcp\b|\s+(?:mcp\s+)?(?:server|tools?)\b)"
        rf"|(?:^|\s)#({alternatives})\b"  # "#fetch what's the latest React?"
    )


def _set_server_priors(entries: Sequence[_Entry]) -> None:
    """Lean ties between the same tool on several servers to the larger server.

    With no platform named, ``create_issue`` on GitHub (97 tools) is more likely the
    user's own than on GitLab (10): up to ``SERVER_PRIOR``, by the log of the size.
    """
    sizes: dict[str, int] = {}
    for entry in entries:
        sizes[entry.doc.server] = sizes.get(entry.doc.server, 0) + 1
    largest = math.log(1 + max(sizes.values(), default=1))
    by_object: dict[frozenset[str], list[_Entry]] = {}
    for entry in entries:
        by_object.setdefault(entry.own_key, []).append(entry)
    for entry in entries:
        twins = by_object[entry.own_key]
        if entry.doc.server and largest > 0 and any(_same_tool(entry, t) for t in twins):
            entry.prior = SERVER_PRIOR * math.log(1 + sizes[entry.doc.server]) / largest


def _topic_key(doc: SearchDoc) -> str:
    """The server a tool belongs to, or the tool itself when it has none."""
    return f"server:{doc.server}" if doc.server else f"tool:{doc.name}"


class ToolIndex:
    """A search index over a fixed list of tools; build once, query many times."""

    def __init__(self, docs: Sequence[SearchDoc]) -> None:
        self.docs = tuple(docs)
        self._entries: list[_Entry] = []
        fields_per_doc: list[dict[str, list[str]]] = []
        prose = _prose_words(self.docs)
        for doc in self.docs:
            server, own = name_parts(doc.name)
            own = [_unglue(w, prose) for w in own]
            server_name = doc.server or server
            own_terms = [stem_word(w) for w in own if w not in STOP_WORDS]
            if not any(not action_groups([t]) for t in own_terms):
                # "get_me" is not "get": keep the words that say what is got
                own_terms = [stem_word(w) for w in own]
            server_terms = text_terms(server_name)
            fields = {
                "name": own_terms,
                "hint": text_terms(doc.hint),
                "server": server_terms,
                "description": text_terms(doc.description),
                "param_names": [t for name, _ in doc.params for t in text_terms(name)],
                "param_text": [
                    t for _, text in doc.params for t in text_terms(_without_examples(text))
                ],
            }
            fields_per_doc.append(fields)
            platform_words = set(server_terms) | set(own_terms[:1])
            self._entries.append(
                _Entry(
                    doc=doc,
                    name_terms=own_terms,
                    # "slack_post_message" on slack: the server's word says nothing more
                    # (unless only a verb is left: "git_show" is not "show")
                    coverage_terms=_coverage_terms(own_terms, server_terms),
                    actions=action_groups(own_terms)
                    | action_groups(own)
                    | action_groups(_statement_verbs(doc.description)),
                    platform_words=platform_words,
                    needs_repository=any(name in REPOSITORY_PARAMS for name, _ in doc.params),
                    own_key=_own_key(own_terms, server_terms),
                )
            )
        self._server_names = {
            e.doc.server.lower().replace("_", "-"): e.doc.server
            for e in self._entries
            if e.doc.server
        }
        self._server_mention = _mention_pattern(self._server_names)
        self._name_vocabulary = {t for f in fields_per_doc for t in f["name"] + f["server"]}
        self._by_name = {e.doc.name: e for e in self._entries}
        self._web_search: list[int] = []
        self._openers: dict[str, list[str]] = {}
        self._finders: dict[str, list[str]] = {}
        topics: dict[str, list[str]] = {}
        for index, (entry, fields) in enumerate(zip(self._entries, fields_per_doc, strict=True)):
            doc = entry.doc
            entry.needs_identifier = any(
                _IDENTIFIER_PARAM.search(name) and name not in REPOSITORY_PARAMS
                for name in doc.required
            )
            entry.takes_url = any(name.lower() == "url" for name, _ in doc.params)
            entry.opens_pages = entry.takes_url and "navigate" in entry.actions
            entry.searches_web = "search" in entry.actions and (
                "web" in entry.name_terms
                or bool(_WEB_SEARCH.search(_first_sentence(doc.description)))
            )
            if entry.searches_web:
                self._web_search.append(index)
            if doc.server and entry.opens_pages:
                self._openers.setdefault(doc.server, []).append(doc.name)
            if doc.server and "search" in entry.actions and not entry.needs_identifier:
                self._finders.setdefault(doc.server, []).append(doc.name)
            topics.setdefault(_topic_key(doc), []).extend(
                fields["name"] + fields["description"] + fields["server"]
            )
        _set_server_priors(self._entries)
        self._topics = ServerTopics(topics)
        count = max(1, len(self.docs))
        averages = {
            name: max(1.0, sum(len(f[name]) for f in fields_per_doc) / count) for name in FIELDS
        }
        postings: dict[str, dict[int, float]] = {}
        for index, fields in enumerate(fields_per_doc):
            weighted: dict[str, float] = {}
            for name, (weight, b) in FIELDS.items():
                terms = fields[name]
                if not terms:
                    continue
                norm = 1.0 - b + b * len(terms) / averages[name]
                for term in terms:
                    weighted[term] = weighted.get(term, 0.0) + weight / norm
            for term, tf in weighted.items():
                postings.setdefault(term, {})[index] = tf
        self._postings = {
            term: {doc: tf / (K1 + tf) for doc, tf in docs.items()}
            for term, docs in postings.items()
        }
        self._idf = {
            term: math.log(1.0 + (count - len(docs) + 0.5) / (len(docs) + 0.5))
            for term, docs in postings.items()
        }

    def __len__(self) -> int:
        return len(self.docs)

    def scores(self, query: str, *, required: Sequence[str] = ()) -> list[Ranked]:
        """Every tool with a positive score, best first (ties: name order).

        ``required`` terms must each appear in the tool's name (case-insensitive).
        """
        parsed = parse_query(query)
        named = self._named_servers(query)
        open_topic = bool(parsed.actions & {"search", "read"}) and not any(
            t in self._name_vocabulary for t in parsed.objects
        )
        if named and not parsed.platforms:
            parsed = dataclasses.replace(parsed, servers=named)
        totals: dict[int, float] = {}
        for term, weight in parsed.terms.items():
            docs = self._postings.get(term)
            if not docs:
                continue
            idf = self._idf[term]
            for doc, saturation in docs.items():
                totals[doc] = totals.get(doc, 0.0) + weight * idf * saturation
        needed = [r.lower() for r in required if r]
        if needed:
            candidates = [
                i
                for i, e in enumerate(self._entries)
                if all(r in e.doc.name.lower() for r in needed)
            ]
            for i in candidates:
                totals.setdefault(i, 0.0)
        else:
            candidates = list(totals)
            if open_topic:
                # "What tech events are happening in Taipei?": no tool holds any of it
                candidates += [i for i in self._web_search if i not in totals]
        topics = self._topics.relative(parsed.terms)
        results: list[Ranked] = []
        for index in candidates:
            base = totals.get(index, 0.0)
            entry = self._entries[index]
            if base <= 0.0 and not needed and not (open_topic and entry.searches_web):
                continue
            score = base + self._bonus(entry, parsed) if base > 0.0 else 0.0
            if open_topic and entry.searches_web:
                score += WEB_TOPIC
            if base > 0.0:
                score += SERVER_TOPIC * topics.get(_topic_key(entry.doc), 0.0)
            if needed:
                score += 1.0  # every tool that passes the filter is a result
            if score > 0.0:
                results.append(Ranked(name=entry.doc.name, score=round(score, 4)))
        results.sort(key=lambda r: (-r.score, r.name))
        if parsed.web_address and not needed:
            results = self._open_first(results)
        if parsed.titled and not parsed.identifier and not needed:
            results = self._find_first(results)
        return results

    def _open_first(self, results: list[Ranked]) -> list[Ranked]:
        """Put the page-opening tool just above its server's best tool that needs a page.

        "Take a screenshot of https://example.com": the screenshot tool acts on the page
        already open, so the first call is the one that opens the address.
        """

        def openers(top: _Entry) -> Sequence[str]:
            return () if top.takes_url else self._openers.get(top.doc.server, ())

        return self._first_calls(results, openers)

    def _find_first(self, results: list[Ranked]) -> list[Ranked]:
        """Put a server's search just above its best tool when that needs an unknown id.

        "Summarize the Q2 planning page": reading a page takes its id, which the request
        does not give, so the first call is the search that finds the page.
        """

        def finders(top: _Entry) -> Sequence[str]:
            return self._finder(top) if top.needs_identifier else ()

        return self._first_calls(results, finders, depth=FIRST_CALL_DEPTH)

    def _finder(self, target: _Entry) -> Sequence[str]:
        """The search of ``target``'s server that finds what it acts on, if any."""
        wanted = target.own_key
        best: tuple[int, int, str] | None = None
        for name in self._finders.get(target.doc.server, ()):
            entry = self._by_name[name]
            key = entry.own_key
            overlap = len(key & wanted)
            if key and not overlap:
                continue  # searches something else ("search_users" for a page)
            rank = (-overlap, len(entry.name_terms), name)
            if best is None or rank < best:
                best = rank
        return () if best is None else (best[2],)

    def _first_calls(
        self,
        results: list[Ranked],
        first: Callable[[_Entry], Sequence[str]],
        depth: int | None = None,
    ) -> list[Ranked]:
        """Lift the tools that must run first just above each server's best result."""
        best: dict[str, Ranked] = {}
        for ranked in results[:depth]:
            best.setdefault(self._by_name[ranked.name].doc.server, ranked)
        lifted: dict[str, float] = {}
        for server, top in best.items():
            if not server:
                continue
            for name in first(self._by_name[top.name]):
                if name != top.name:
                    lifted[name] = max(lifted.get(name, 0.0), top.score + 0.01)
        if not lifted:
            return results
        out = [Ranked(name=r.name, score=max(r.score, lifted.get(r.name, 0.0))) for r in results]
        known = {r.name for r in out}
        out.extend(Ranked(name=n, score=s) for n, s in lifted.items() if n not in known)
        out.sort(key=lambda r: (-r.score, r.name))
        return out

    def search(self, query: str, limit: int = 5, *, required: Sequence[str] = ()) -> list[Ranked]:
        """The best ``limit`` tools for ``query``."""
        return self.scores(query, required=required)[: max(0, limit)]

    def _bonus(self, entry: _Entry, parsed: ParsedQuery) -> float:
        bonus = entry.prior
        parts = entry.coverage_terms
        if parts:
            # a name in the request ("Times Square") says nothing of what a tool does
            covered = sum(parsed.terms.get(part, 0.0) for part in parts if part not in parsed.names)
            bonus += COVERAGE_WEIGHT * covered / len(parts)
        if parsed.actions and entry.actions:
            if parsed.actions & entry.actions or (
                parsed.actions <= _LISTING and entry.actions <= _LISTING
            ):
                bonus += INTENT_MATCH
            elif parsed.actions <= _RETRIEVAL and entry.actions <= _RETRIEVAL:
                bonus += INTENT_NEAR
            else:
                bonus += INTENT_MISMATCH
        if parsed.local_files and entry.needs_repository:
            bonus += LOCAL_PATH_MISMATCH if parsed.local_path else LOCAL_FILES_MISMATCH
        if parsed.repository_files and entry.needs_repository:
            bonus += REPOSITORY_FILES_MATCH
        if parsed.platforms:
            wanted = {w for p in parsed.platforms for w in PLATFORMS[p]}
            if entry.platform_words & wanted:
                bonus += PLATFORM_MATCH
            else:
                bonus += PLATFORM_MISMATCH
        if entry.needs_identifier and not parsed.identifier:
            bonus += MISSING_IDENTIFIER
        if parsed.servers:
            bonus += PLATFORM_MATCH if entry.doc.server in parsed.servers else PLATFORM_MISMATCH
        return bonus

    def _named_servers(self, query: str) -> frozenset[str]:
        """Servers the request names as such: "using the memory MCP", "the git server"."""
        if self._server_mention is None:
            return frozenset()
        lowered = query.lower()
        return frozenset(
            self._server_names[m.group(1) or m.group(2)]
            for m in self._server_mention.finditer(lowered)
        )


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
