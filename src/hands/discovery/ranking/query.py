"""A request read for ranking: its weighted terms, its intent and what it points at.

The request is rewritten (the shapes of :mod:`hands.discovery.ranking.cues`, the phrases
of :mod:`hands.discovery.ranking.lexicon`, other languages' core words), split, stemmed
and expanded with weighted synonyms. Only the leading verb says what the user wants
done; quoted text and what follows an ask's colon are data for the tool and count for
little; the words of a second step count for half.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from hands.discovery.ranking.cues import (
    gives_identifier,
    names_by_title,
    names_local_path,
    names_one_thing,
    names_repository,
    names_web_address,
    payload_words,
    quotes_text,
    rewrite_cues,
    tells_about_user,
)
from hands.discovery.ranking.languages import english_cues
from hands.discovery.ranking.lexicon import (
    ACTIONS,
    CONTENT_SEARCH,
    FILE_CUES,
    KEEP_FACT,
    NOT_BEFORE_VERBS,
    PLACE_CUES,
    PLATFORMS,
    REPOSITORY_CUES,
    SINGULAR_PLURALS,
    STOP_WORDS,
    SYNONYMS,
    rewrite_phrases,
    split_words,
    stem,
)

ACTIONS_WORDS = frozenset(w for verbs in ACTIONS.values() for w in verbs)
LATER_STEP = 0.5
"""Weight of the words of a request's second step: the first call serves the first."""
LEAD_VERB_WEIGHT = 0.7
PAYLOAD_WEIGHT = 0.4
"""Weight of the words that are data for the tool (quoted, after a colon)."""
_ASKED = re.compile(r"^(?:what|which|how many)\s+([a-z]+)\b")
_QUESTION = re.compile(
    r"^(what|which|who|where|are there|is there|how many|do i have|any|has|have|did|does"
    r"|is|are|was|were)\b"
)


@lru_cache(maxsize=8192)
def stem_word(word: str) -> str:
    """``stem`` with a cache: requests repeat their words."""
    return stem(word)


def text_terms(text: str) -> list[str]:
    """The stems of the words of ``text`` that carry meaning."""
    return [stem_word(w) for w in split_words(text) if w not in STOP_WORDS]


def _synonym_terms(key: str) -> tuple[tuple[str, float], ...]:
    """(term, weight) of the synonyms the lexicon lists for ``key``."""
    return tuple(
        (term, weight)
        for related, weight in SYNONYMS.get(key, ())
        for term in text_terms(related) or [stem_word(related)]
    )


def _raise_terms(terms: dict[str, float], more: Iterable[tuple[str, float]]) -> None:
    """Add ``more`` to ``terms``, keeping the higher weight of a term given twice."""
    for term, weight in more:
        if terms.get(term, 0.0) < weight:
            terms[term] = weight


@lru_cache(maxsize=1024)
def _expansions(word: str) -> tuple[tuple[str, float], ...]:
    """(term, weight) for one word of a request: itself, its stem, its synonyms."""
    base = stem_word(word)
    out: dict[str, float] = {base: 1.0}
    for key in {word, base}:
        _raise_terms(out, _synonym_terms(key))
    return tuple(out.items())


def _noun_expansions(word: str) -> tuple[tuple[str, float], ...]:
    """Synonyms of a verb's plural used as a noun ("changes": a diff), not of the verb."""
    if word == stem_word(word) or word in ACTIONS_WORDS:
        return ()
    return _synonym_terms(word)


_GROUPS_OF: dict[str, frozenset[str]] = {
    verb: frozenset(g for g, verbs in ACTIONS.items() if verb in verbs)
    for verbs in ACTIONS.values()
    for verb in verbs
}
"""Each verb's groups, looked up once per word instead of scanning every group."""


def action_groups(words: Iterable[str]) -> set[str]:
    """The verb groups (create, read, list...) the words belong to."""
    groups: set[str] = set()
    for word in words:
        found = _GROUPS_OF.get(word)
        if found:
            groups.update(found)
    return groups


def _plural_object(words: Sequence[str], lead: str | None, proper: frozenset[str]) -> bool:
    """Whether a noun after the verb is a plural ("commits", "pull requests", "tickets")."""
    after = words[words.index(lead) + 1 :] if lead in words else list(words)
    for word in after:
        if word in proper or word in SINGULAR_PLURALS or action_groups([word, stem_word(word)]):
            continue
        if len(word) > 3 and word.endswith("s") and stem_word(word) != word:
            return True
    return False


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    """A request turned into weighted terms, verb groups and named platforms."""

    terms: dict[str, float]
    actions: set[str]
    platforms: set[str]
    words: list[str] = field(default_factory=lambda: list[str]())
    local_files: bool = False
    """About files, with no repository in sight: files on this machine."""
    names: frozenset[str] = frozenset()
    """Stems of the names in the request ("New York", "Times Square")."""
    local_path: bool = False
    """Names a path on this machine ("~/notes/todo.md"): certainly local files."""
    repository_files: bool = False
    """About files in a repository ("the README in owner/repo")."""
    objects: frozenset[str] = frozenset()
    """Stems of the request's own words other than its verbs: what it is about."""
    servers: frozenset[str] = frozenset()
    """Servers of the index the request names ("using the memory MCP")."""
    web_address: bool = False
    """Gives a web address: a page to open before anything is done on it."""
    identifier: bool = False
    """Gives an id, number, key or hash of one thing ("#42", "PROJ-7", "abc123f")."""
    titled: bool = False
    """Names a thing by its title ('the page titled "Roadmap"', "the 'Design' task")."""


_FOLDERS = frozenset("folder folders directory directories dir".split())
_NEWEST = re.compile(r"\b(?:latest|newest|most recent|last)\b")
"""The newest of many ("the latest PR"): found by a listing, not read by its id."""
_LIST_COMMA = re.compile(r"\s*[,;]\s+")
_STEP_JOINS = frozenset({"and", "then"})
_STEP_VERBS = frozenset("take click fill type press verify monitor wait tell".split())


def _later_step(tokens: Sequence[str], lead: str | None) -> frozenset[str]:
    """Words of a second step ("... and then take a screenshot") after the lead verb's."""
    if lead is None or lead not in tokens:
        return frozenset()
    start = tokens.index(lead)
    for i in range(start + 2, len(tokens)):
        word = tokens[i]
        if tokens[i - 1] in _STEP_JOINS and (
            word in _STEP_VERBS or action_groups([word, stem_word(word)])
        ):
            return frozenset(tokens[i:]) - frozenset(tokens[:i])
    return frozenset()


def parse_query(query: str) -> ParsedQuery:
    """Rewrite, split, drop stop words, stem and expand ``query``."""
    payload = payload_words(query)
    cued, proper = rewrite_cues(query, payload)
    # "北京现在什么时间": the core words of other languages, in the tools' English
    cued = f"{cued} {english_cues(query)}"
    # steps may be listed with commas ("go to X, fill the form, and click submit"): the
    # commas become "and", which phrases and stop words then pass over
    text = rewrite_phrases(_LIST_COMMA.sub(" and ", cued))
    words = [w.strip("'") for w in split_words(text)]
    words = [w for w in words if w and w not in STOP_WORDS]
    # the user's own words, before phrases are rewritten ("pull requests" stays plural)
    raw = [w.strip("'") for w in split_words(cued)]
    raw = [w for w in raw if w and w not in STOP_WORDS]
    place = any(w in PLACE_CUES for w in raw)
    web_address = names_web_address(query)
    identifier = gives_identifier(query)
    # "navigate to my Documents folder": a folder on this machine, not a web page
    folder = any(w in _FOLDERS for w in raw) and not web_address
    terms: dict[str, float] = {}
    platforms: set[str] = set()
    # Only the leading verb says what the user wants done ("show the open PRs"): later
    # verbs mostly describe the object, so they count as themselves, not as actions.
    # "what comments are on the PR?": the word a question asks about is a noun
    asked = _ASKED.match(text)
    not_verbs: set[str] = set(proper) | payload | ({asked.group(1)} if asked else set[str]())
    # after "the", "my", "all" a word is a noun or an adjective ("my open issues", "the
    # list of tables"); after "was", "were", "is" it is a participle ("changes were made")
    tokens = split_words(text)
    after_determiner = {w for before, w in itertools.pairwise(tokens) if before in NOT_BEFORE_VERBS}
    not_verbs.update(after_determiner)
    lead = next((w for w in words if w not in not_verbs and action_groups([w, stem_word(w)])), None)
    later = _later_step(tokens, lead)
    for word in words:
        if word in PLATFORMS and word not in payload:
            # "Store in memory: ... GitHub CLI": a platform in the data is not the one to use
            platforms.add(word)
        if word in payload:
            # data for the tool's arguments: 'titled "Fix login bug"'
            expansions: tuple[tuple[str, float], ...] = ((stem_word(word), PAYLOAD_WEIGHT),)
        elif word in proper and word not in PLATFORMS and word != lead:
            # a name ("New York", "Times Square"), not a verb or a synonym's cue
            expansions = ((stem_word(word), 1.0),)
        elif (
            word != lead
            and action_groups([word, stem_word(word)])
            and (lead is not None or word in after_determiner)
        ):
            # a verb that is not the request's ("the open bugs", "show and then close"):
            # the word itself, not what it would do; a plural is a noun ("my changes")
            expansions = ((stem_word(word), 1.0), *_noun_expansions(word))
        elif word == lead and folder and action_groups([word]) & {"navigate"}:
            expansions = (("list", LEAD_VERB_WEIGHT), ("directory", LEAD_VERB_WEIGHT))
        elif word == lead and place and action_groups([word]) & {"navigate"}:
            # "navigate to the nearest pharmacy": a route to a place, not a web page
            expansions = (("direction", LEAD_VERB_WEIGHT), ("route", 0.5 * LEAD_VERB_WEIGHT))
        elif word == lead:
            # the verb says what to do, the nouns say to what: a verb counts for less
            expansions = tuple((t, w * LEAD_VERB_WEIGHT) for t, w in _expansions(word))
        else:
            expansions = _expansions(word)
        if word in later and word not in PLATFORMS:
            # "navigate to X and take a screenshot": the first call is the navigation
            expansions = tuple((t, w * LATER_STEP) for t, w in expansions)
        _raise_terms(terms, expansions)
    actions = action_groups([lead, stem_word(lead)]) if lead is not None else set[str]()
    if place and "navigate" in actions:
        actions = {"search", "read"}
    elif folder and "navigate" in actions:
        actions = {"list", "read"}
    if not actions and _QUESTION.match(text):
        actions = {"read", "list", "search"}  # "what tables are there", "which files..."
    objects = frozenset(
        stem_word(w)
        for w in raw
        if w != lead and w not in payload and not action_groups([w, stem_word(w)])
    )
    if lead is None and tells_about_user(query):
        # "Actually, I don't work at Acme anymore": nothing asked, a fact to keep
        _raise_terms(terms, KEEP_FACT)
    if actions == {"search"} and quotes_text(query) and objects:
        # "find files that mention 'EPIC framework'": the words are inside, not in a name
        _raise_terms(terms, CONTENT_SEARCH)
    if "read" in actions and actions & {"list", "search"} and names_one_thing(query):
        # "the details for PROJ-123", "show commit abc123": that one thing, read
        actions = {"read"}
    elif "read" in actions and "list" in actions and _plural_object(raw, lead, proper):
        # "show the open pull requests", "show recent commits": many things, a listing
        actions = {"list", "search"}
    elif "read" in actions and _NEWEST.search(text) and not identifier:
        # "review the latest PR": which one is latest, a listing says
        actions = actions | {"list", "search"}
    elif actions == {"read"} and "all" in tokens and _plural_object(raw, lead, proper):
        # "summarize all open pull requests": each of many things, found by a listing
        actions = {"read", "list", "search"}
    about_files = any(w in FILE_CUES for w in words)
    repository = any(w in REPOSITORY_CUES for w in words) or names_repository(query)
    local_path = names_local_path(query)
    return ParsedQuery(
        terms=terms,
        actions=actions,
        platforms=platforms,
        words=words,
        objects=objects,
        names=frozenset(stem_word(w) for w in proper if w not in PLATFORMS)
        - {stem_word(w) for w in raw if w not in proper},
        local_files=local_path or (about_files and not repository and not platforms),
        local_path=local_path,
        repository_files=about_files and repository and not local_path,
        web_address=web_address,
        identifier=identifier,
        titled=names_by_title(query),
    )
