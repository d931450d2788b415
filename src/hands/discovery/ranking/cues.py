"""Shapes in a request that say what it is about, read before its words.

A URL, a path, an issue key, a clock time, a street address, quoted data, a title, an id:
each says something about the tool a request needs that its words alone do not. The
functions here mark them with the words tools use (:func:`rewrite_cues`) or answer one
question about the request (:func:`gives_identifier`, :func:`names_by_title`...).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from hands.discovery.ranking.lexicon import split_words

_URL_TAIL = r"(?:\S*[^\s,;.!?:)\]'\"`])?"
"""The rest of an address, without the punctuation of the sentence around it."""
_URL = re.compile(
    rf"https?://{_URL_TAIL}|\bwww\.{_URL_TAIL}|\blocalhost(?::\d+)?(?:/{_URL_TAIL})?"
    r"|(?<![@.\w-])[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|dev|ai|app|co|edu|gov|info|us|uk|de)\b"
    rf"(?:/{_URL_TAIL})?"
)
_CHANNEL = re.compile(r"(?<![\w&])#([A-Za-z][\w-]*)")
_FILE_TYPES = "py|ts|tsx|js|jsx|md|txt|json|ya?ml|toml|cfg|ini|html|css|csv|docx?|rs|go|java|rb|sh"
_PATH = re.compile(
    rf"(?<![\w/.~-])(?:~/|\.{{1,2}}/|/)?(?:[\w.-]+/)+[\w.-]*|\b[\w-]+\.(?:{_FILE_TYPES})\b"
)
_PROPER = re.compile(r"(?<=[a-z0-9,;:)] )([A-Z][a-z]+)\b")
_IS_OPEN = re.compile(r"^\s*(?:is|are)\b(.*)\bopen(\s+(?:now|today|tonight))?\s*\?*\s*$", re.I)
_YEAR = re.compile(r"(?<![\w./-])(?:19|20)\d\d(?![\w/-])")
_STREET_ADDRESS = re.compile(
    r"\b\d{1,5}\s+(?:[A-Z][a-z]+\s+){1,3}"
    r"(?:St|Street|Ave|Avenue|Rd|Road|Blvd|Boulevard|Parkway|Pkwy|Way|Dr|Drive|Lane|Ln|Ct|Court)\b"
)
_CLOCK_TIME = re.compile(
    r"\b\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)(?!\w)|\b\d{1,2}:\d\d\b", re.I
)
"""A time of day ("3pm", "4 PM", "15:30"): a time to convert, not the time now."""
_LAT_LNG = re.compile(r"-?\b\d{1,3}\.\d+\s*,\s*-?\d{1,3}\.\d+\b")
"""A latitude and longitude ("37.7749, -122.4194"): a place to name."""
_OUR_PAST = (
    r"learn(?:ed|t)?|saved?|cho(?:o)?se|chosen|decided?|solved?|fixed|fix|discuss(?:ed)?"
    r"|accomplish(?:ed)?|agreed?|told|tell|mention(?:ed)?|noted|work(?:ed|ing)? on|use|using"
)
_RECALL = re.compile(
    rf"\b(?:did|have|had)\s+(?:i|we)\s+(?:\w+\s+)?(?:{_OUR_PAST})\b"  # did we decide
    rf"|\b(?:i|we)\s+(?:have\s+|'ve\s+|had\s+)?(?:{_OUR_PAST})\b(?=[^.!]*\?)"  # I saved...?
    r"|\b(?:last|previous|earlier|our last)\s+(?:session|conversation|chat|time)\b"
    r"|\bremember when\b|\b(?:do|did)\s+(?:i|we)\s+know\b|\b(?:we|i)\s+said\b"
    r"|\bbefore\s*\?",  # "have we solved this before?"
    re.I,
)
"""What the user and the agent did or decided earlier: asked of the agent's memory."""
_CHANGES_SINCE = re.compile(
    r"\b(?:changed|changes|commits?|went in|merged|landed)\b[^.?!]*?"
    r"\b(?:yesterday|today|last\s+(?:\d+\s+)?(?:days?|weeks?|months?|sprint)|this\s+week|since)\b",
    re.I,
)
"""Changes over a span of time ("what changed in the last 3 days"): the commit log."""
_FROM_COMMITS = re.compile(
    r"\b(?:from|based on|using|of)\s+(?:the\s+|my\s+|our\s+)?"
    r"(?:recent|latest|last(?:\s+\d+)?|new)\s+(?:commits|changes)\b",
    re.I,
)
"""Something made from recent commits ("a changelog from recent commits"): read the log."""
_THIS_CODEBASE = re.compile(
    r"\b(?:this|the current|our)\s+(?:codebase|code base|repo|repository)\b", re.I
)
"""The code the agent is working in: its files are here, on this machine."""
_FORGE_URL = re.compile(
    r"https?://(?:www\.)?(github|gitlab)\.com/([\w.-]+)/([\w.-]+)/(?:-/)?"
    r"(pull|pulls|issues|commit|commits|merge_requests|blob|tree|actions|releases)\b"
    r"(?:/([\w.-]+))?\S*",
    re.I,
)
"""A link to one object on GitHub or GitLab: that object, on that platform."""
_FORGE_KINDS = {
    "pull": "pull request",
    "pulls": "pull requests",
    "issues": "issue",
    "commit": "commit",
    "commits": "commits",
    "merge_requests": "merge request",
    "blob": "file contents",
    "tree": "tree",
    "actions": "actions workflow run",
    "releases": "release",
}


def _forge_cue(match: re.Match[str]) -> str:
    host, owner, repo, kind, key = match.groups()
    return f" {host.lower()} {owner}/{repo} {_FORGE_KINDS[kind.lower()]} {key or ''} "


_WHERE_IS = re.compile(r"^\s*[Ww]here(?:'s|\s+is|\s+are)\s+(?:the\s+)?(?=[A-Z])")
"""A question where a named thing is ("Where is AUB?"): a place to find."""
_ROUTE = re.compile(
    r"\b(?:way|route|get|go|drive|walk|travel|commute)\s+from\s+(?:the\s+)?[A-Z][\w.'-]*"
    r"(?:\s+[\w.'-]+){0,3}?\s+to\s+\w"
)
"""From one named place to another ("the quickest way from AUB to downtown Beirut")."""
_COMMON_ACRONYMS = (
    "API|MCP|UI|UX|AI|CLI|SDK|AWS|GCP|CSS|HTML|JSON|SQL|URL|PR|CI|CD|QA|ML|README|TODO|"
    "GPU|CPU|OS|IT|HR|PDF|CSV|XML|YAML|HTTP|REST|JS|TS"
)
_PROJECT_KEY = re.compile(
    rf"\bproject\s+(?!(?:{_COMMON_ACRONYMS})\b)[A-Z][A-Z0-9]{{1,9}}\b"
    rf"|\b(?!(?:{_COMMON_ACRONYMS})\b)[A-Z][A-Z0-9]{{1,9}}\s+project\b"
)
"""A project named by an upper-case key ("bugs in the WEBAPP project"): Jira's shape."""
_SPACE_KEY = re.compile(
    rf"\bspace\s+(?!(?:{_COMMON_ACRONYMS})\b)[A-Z][A-Z0-9]{{1,9}}\b"
    rf"|\b(?!(?:{_COMMON_ACRONYMS})\b)[A-Z][A-Z0-9]{{1,9}}\s+space\b"
)
"""A space named by an upper-case key ("in space DOCS"): Confluence's shape."""
_NOT_KEYS = "CVE|GPT|COVID|ISO|SHA|UTF|RFC|TLS|SSL|AES|RSA|HTTP|IPV|MP|PEP|ES|WCAG|SOC"
_ISSUE_KEY = re.compile(rf"\b(?!(?:{_NOT_KEYS})-)[A-Z][A-Z0-9]+-\d+\b(?!-)")
"""An issue key (PROJ-123), not a name with a number (GPT-4, UTF-8, CVE-2024-1234)."""
_ONE_THING = re.compile(
    rf"{_ISSUE_KEY.pattern}"  # an issue key: PROJ-123
    r"|(?<![\w&])#(?:\d+|[A-Za-z][\w-]*)"  # an issue number or a channel: #42, #general
    r"|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{6,40}\b"  # a commit hash: abc123
)


_QUOTED = re.compile(r"\"[^\"]{2,}\"|(?<!\w)'[^']{2,}'(?!\w)|\u201c[^\u201d]{2,}\u201d")
_ABOUT_ME = re.compile(
    r"^\s*(?:actually|also|btw|fyi|by the way)?[,\s]*(?:i|my|i'm|i've|i am|i have)\b(?![^?]*\?)",
    re.I,
)


def tells_about_user(text: str) -> bool:
    """Whether a request is a statement about the user ("Actually, I now work at X").

    Said to an agent with a memory and asking nothing, it is a fact to keep.
    """
    return _ABOUT_ME.search(text) is not None


_BACKTICKED = re.compile(r"`[^`]+`")
_COLON = re.compile(r"^([^:\n]{3,80}?\s[^:\n]*?):\s+(.+)$", re.S)


_FACT = re.compile(
    r"\b(?:remember|note|keep in mind|don't forget|do not forget|memorize)\s+that\s+(.+)$",
    re.I | re.S,
)
"""A fact to keep ("Remember that AC-2 failed its audit"): what follows is the data."""


def payload_words(text: str) -> frozenset[str]:
    """Words that are the request's data, not a description of the tool it needs.

    Quoted or backticked text ('titled "Fix login bug"', 'SQL: `SELECT 1`') and what
    follows a colon after the ask ("Store a memory: I met the team today") or a fact to
    keep ("remember that ...") are what goes into the tool's arguments. Words the
    request also uses outside are kept.
    """
    inside = " ".join(m.group(0) for m in _QUOTED.finditer(text))
    inside += " " + " ".join(m.group(0) for m in _BACKTICKED.finditer(text))
    outside = _BACKTICKED.sub(" ", _QUOTED.sub(" ", text))
    colon = _COLON.match(outside)
    if colon and not _URL.search(colon.group(0)):
        inside += " " + colon.group(2)
        outside = colon.group(1)
    fact = _FACT.search(outside)
    if fact:
        inside += " " + fact.group(1)
        outside = outside[: fact.start(1)]
    # lower-cased as the request's words are: "GitHub" is one word, not "git hub"
    return frozenset(split_words(inside.lower())) - frozenset(split_words(outside.lower()))


def quotes_text(text: str) -> bool:
    """Whether a request quotes a phrase ("files that mention 'EPIC framework'")."""
    return _QUOTED.search(text) is not None


def names_one_thing(text: str) -> bool:
    """Whether a request points at one particular thing by its key, number or hash.

    "the details for PROJ-123", "show commit abc123", "what did I miss in #general":
    the user wants that thing read, not a listing or a search.
    """
    return _ONE_THING.search(text) is not None


@lru_cache(maxsize=64)
def _without_urls(text: str) -> str:
    """``text`` with its web addresses blanked (several checks read the rest)."""
    return _URL.sub(" ", text)


_LOCAL_PATH = re.compile(
    r"(?<![\w/.~:-])(?:~/|\.{1,2}/|[A-Za-z]:\\)[\w.-]"  # ~/notes, ./src, C:\\Users
    r"|(?<![\w/.~:-])/[\w.-]+/[\w.-]*"  # /etc/hosts, /home/me/
)
_OWNER_REPO = re.compile(r"(?<![\w/.~-])[\w-]+/[\w-]+(?![\w/.])")


def names_local_path(text: str) -> bool:
    """Whether a request names a path on this machine (``~/notes``, ``/etc/hosts``).

    A path from the root needs two parts, so a web path ("navigate to /checkout") is not
    one; URLs are not paths.
    """
    return _LOCAL_PATH.search(_without_urls(text)) is not None


_WEB_ROUTE = re.compile(
    r"\b(open|go to|navigate to|visit|load|reload|on|at)\s+(/[a-z][\w-]*(?:/[\w-]+)*/?)(?![\w./])",
    re.I,
)
"""A path on the site under test ("Open /playground", "images on /inventory")."""
_SITE = re.compile(r"\b(?:home\s?page|web\s?site|web\s?page|landing page)\b", re.I)


def names_web_address(text: str) -> bool:
    """Whether a request points at a web page to open.

    An address ("https://example.com", "localhost:3000") or a site's page by name ("the
    GitHub homepage", "our website").
    """
    return any(p.search(text) is not None for p in (_URL, _SITE, _WEB_ROUTE))


_THING = (
    r"page|pages|task|tasks|database|document|doc|ticket|issue|note|notes|card|project"
    r"|board|guide|spec|plan|template|channel|thread"
)
_BY_TITLE = re.compile(
    r"\b(?:titled|called|named|entitled)\b"
    rf"|\b(?:{_THING})\s+[\"'\u201c]"  # the page "Roadmap"
    rf"|[\"'\u201d]\s+(?:{_THING})\b",  # the "Roadmap" page
    re.I,
)


def names_by_title(text: str) -> bool:
    """Whether a request names a thing by its title rather than by its id.

    'the page titled "Roadmap"', 'the "Onboarding Guide" page', "the task 'Review MCP
    setup'": to act on it, its id must be found first. A quoted value elsewhere ("move
    it to 'Done'") is not a title.
    """
    return _BY_TITLE.search(text) is not None


_IDENTIFIER = re.compile(
    r"(?<![\w.])(?!(?:19|20)\d\d\b)\d+\b"  # a number, not a year: "PR 17", "#42"
    r"|\b[A-Z][A-Z0-9]+-\d+\b"  # a key: PROJ-123
    r"|\b(?=[\w-]*\d)(?=[\w-]*[a-zA-Z])[\w-]{6,}\b"  # an id or hash: abc123f, 1a6b35e6...
    r"|(?<![\w&])#[A-Za-z][\w-]*"  # a channel: #general
    r"|[<\[{][\w -]*(?:id|ID|Id|number|NUMBER|Number|key|KEY|sha|SHA)[\w -]*[>\]}]"
    # a placeholder for one: <PR_NUMBER>, [page-id]
)


def gives_identifier(text: str) -> bool:
    """Whether a request gives the id of one thing: a number, key, hash, #name or URL.

    "Show PR 17", "PROJ-123", "commit abc123f", "#general", "https://...": without one, a
    tool that needs an id must wait for a search or listing that finds it.
    """
    return _IDENTIFIER.search(text) is not None or _URL.search(text) is not None


def names_repository(text: str) -> bool:
    """Whether a request names a repository as ``owner/repo``."""
    return _OWNER_REPO.search(_without_urls(text)) is not None


PRODUCT_NAMES = frozenset(
    f"{name}.js"
    for name in "next node vue nuxt react express three d3 chart ember angular svelte".split()
)
"""Names that look like file names but name a product ("Next.js 15 features")."""


def _path_cue(match: re.Match[str]) -> str:
    """A file path marked as such, but not a name that only looks like one.

    ``owner/repo`` or ``feature/x`` (one slash, no extension, no leading ``.`` or ``~``)
    names a repository or a branch, not a file.
    """
    path = match.group(0)
    if path.lower() in PRODUCT_NAMES:
        return f" {path.replace('.', ' ')} "
    parts = path.split("/")
    named = (
        len(parts) == 2 and all(parts) and "." not in parts[1] and not path.startswith((".", "~"))
    )
    words = path.replace("/", " ")
    return f" {words} " if named else f" file {words} "


CALENDAR_WORDS = frozenset(
    """
    monday tuesday wednesday thursday friday saturday sunday january february march april
    may june july august september october november december
    """.split()
)
"""Capitalised in English, yet not names of things a tool works on."""


def rewrite_cues(text: str, payload: frozenset[str] = frozenset()) -> tuple[str, frozenset[str]]:
    """Mark URLs, ``#channels`` and file paths with the words tools use.

    Also names the capitalised words inside a sentence (proper nouns: "New York",
    "Main St"), so they are not read as verbs or synonyms. Returns the rewritten
    text and those names, lower-cased. Shapes made only of ``payload`` words (the
    request's data, see :func:`payload_words`) are left unmarked: "remember that AC-2
    failed" keeps a fact, it does not ask for a Jira issue.
    """

    def marked(words: str) -> Callable[[re.Match[str]], str]:
        def mark(match: re.Match[str]) -> str:
            found = match.group(0)
            if payload and set(split_words(found.lower())) <= payload:
                return found
            return f" {found} {words} "

        return mark

    proper = {m.group(1).lower() for m in _PROPER.finditer(text)} - CALENDAR_WORDS
    # the words of a file name are a name: "notes.txt" is not about notes
    for match in _PATH.finditer(_without_urls(text)):
        proper.update(split_words(match.group(0)))
    # "Is Starbucks on Main St open?": a question about opening hours, not "open" a thing
    text = _IS_OPEN.sub(lambda m: f"is {m.group(1)} opening hours", text)
    # "https://github.com/facebook/react/pull/12345": that pull request, on GitHub
    text = _FORGE_URL.sub(_forge_cue, text)
    text = _URL.sub(" url webpage ", text)
    text = _WEB_ROUTE.sub(lambda m: f"{m.group(1)} url webpage {m.group(2)} ", text)
    text = _CHANNEL.sub(lambda m: f" channel {m.group(1)} ", text)
    text = _CLOCK_TIME.sub(marked("convert timezone"), text)
    text = _LAT_LNG.sub(" coordinates reverse geocode address ", text)
    # "1600 Amphitheatre Parkway": a street address
    text = _STREET_ADDRESS.sub(marked("address location"), text)
    text = _PROJECT_KEY.sub(marked("jira"), text)
    text = _SPACE_KEY.sub(marked("confluence"), text)
    # "PROJ-123": an issue key in the shape Jira gives them
    text = _ISSUE_KEY.sub(marked("jira issue"), text)
    if _THIS_CODEBASE.search(text):
        text = f"{text} directory"
    if _CHANGES_SINCE.search(text) or _FROM_COMMITS.search(text):
        text = f"{text} log history commits"
    if _RECALL.search(text):
        # "What database did we choose?", "What did I learn about hooks last week?"
        text = f"{text} recall memory search"
    # "Where is AUB?", "the quickest way from AUB to downtown Beirut": places
    text = _WHERE_IS.sub(lambda m: f"{m.group(0)} location place geocode ", text)
    text = _ROUTE.sub(lambda m: f" directions route {m.group(0)}", text)
    text = _PATH.sub(_path_cue, text)
    # a year ("vulnerabilities in 2024") asks for news from the web
    text = _YEAR.sub(marked("web"), text)
    return text, frozenset(proper)
