"""The hand-made vocabulary behind ToolSearch ranking: stop words, stems, synonyms.

Plain requests ("open a pull request", "what time is it in Tokyo") rarely use the words
of the tool that serves them (``create_pull_request``, ``get_current_time``). This module
bridges the gap with three small tables written by hand, no model weights:

- ``PHRASES``: multi-word expressions rewritten to the words tools use;
- ``SYNONYMS``: a word → related words, each with a weight below 1;
- ``ACTIONS``: verbs grouped by what they do (create, read, list, search, update,
  delete, send, run...), used to match the intent of a request with a tool's verb.
"""

from __future__ import annotations

import re

STOP_WORDS = frozenset(
    """
    a an the of to in on at by for from with into onto about as and or but not no nor
    i me my mine we us our you your it its this that these those there here them they
    is are was were be been being am do does did done have has had can could would should
    will shall may might must please pls kindly just also then than so very really some
    any all every each one ones let lets let's want wanna need like i'd i'm it's what's
    who whom whose which what when where why how via using use via per up out over
    currently now-ish okay ok hey hi thanks thank where's there's that's who's how's here's
    """.split()
)
"""Words that carry no meaning for ranking (``all``, ``what`` and ``which`` included)."""

SINGULAR_PLURALS = frozenset("contents details settings news status series".split())
"""Words that end like plurals but name one thing ("the contents of a file")."""

NOT_BEFORE_VERBS = frozenset(
    """
    a an the my our your their his her its this that these those all any every some each
    no is are was were be been being am has had currently still already now
    """.split()
)
"""Words a request's verb never follows: what comes after them is a noun, an adjective or
a participle ("my open issues", "the list", "changes were made")."""

# Multi-word expressions, rewritten before tokenizing (longest first).
PHRASES: tuple[tuple[str, str], ...] = (
    ("open url", "navigate url"),
    ("what do i remember", "search memory"),
    ("what did i tell you", "search memory"),
    ("did i ask you to remember", "search memory"),
    ("i asked you to remember", "search memory"),
    ("you to remember", "remember"),
    ("you remember", "search memory"),
    ("who won", "web search news"),
    ("time difference", "convert timezone time"),
    ("days to today", "current time date"),
    ("days from today", "current time date"),
    ("days from now", "current time date"),
    ("current branch", "git branch current"),
    ("coordinates of", "geocode coordinates"),
    ("coordinates for", "geocode coordinates"),
    ("get request", "fetch url http"),
    ("http request", "fetch url http"),
    ("post request", "fetch url http"),
    ("what do you know about", "search memory"),
    ("we discussed", "memory search"),
    # what we did together is in the conversation's memory, not in a tool's records
    ("what did we", "what did we search memory"),
    ("for later", "memory later"),
    ("near me", "nearby local place"),
    ("api keys", "secret keys"),
    ("store this", "store memory entity"),
    ("store a summary", "store memory entity summary"),
    ("project structure", "directory structure"),
    ("commit message for", "log show commit"),
    ("branch am i on", "current branch status"),
    ("recent changes", "recent commits log"),
    ("where can i get", "find"),
    ("where can i buy", "find"),
    ("where can i find", "find"),
    ("ci/cd", "workflow run actions"),
    ("ci cd", "workflow run actions"),
    ("file a bug", "create issue bug"),
    ("file an issue", "create issue"),
    ("file a ticket", "create ticket"),
    ("pull requests", "pull request"),
    ("merge requests", "merge request"),
    ("what time is it", "current time now"),
    ("what's the time", "current time now"),
    ("time zone", "timezone"),
    ("time zones", "timezone"),
    ("stack trace", "stacktrace"),
    ("sea level", "elevation altitude"),
    ("how high", "elevation"),
    ("how far", "distance"),
    ("how many", "count"),
    ("how long does it take", "distance duration"),
    ("how long", "duration"),
    ("how do i get", "directions route"),
    ("how do i drive", "directions driving"),
    ("how do i walk", "directions walking"),
    ("opening hours", "details hours"),
    ("web page", "webpage url"),
    ("working tree", "status worktree"),
    ("last modified", "modified metadata info"),
    ("file input", "file upload"),
    ("drop down", "dropdown"),
    ("drop-down", "dropdown"),
    ("log in", "login"),
    ("sign in", "signin login"),
    ("thumbs up", "emoji reaction"),
    ("go back", "back previous"),
    ("go forward", "forward next"),
    ("look up", "lookup get"),
    ("kick off", "trigger run"),
    ("set up", "setup create"),
    ("sub issue", "sub_issue"),
    ("sub-issue", "sub_issue"),
    ("who am i", "me profile authenticated"),
    ("logged in as", "me profile authenticated"),
    ("to do", "todo"),
    ("ci build", "workflow run build"),
    ("ci run", "workflow run"),
    ("github actions", "actions workflow"),
    ("code review", "review"),
    ("review comment", "review comment"),
    ("knowledge graph", "graph memory"),
    ("git history", "log commits"),
    ("commit history", "commits log"),
    ("not staged", "unstaged"),
    ("haven't staged", "unstaged"),
    ("have not staged", "unstaged"),
    ("are staged", "staged"),
    ("accessibility tree", "snapshot accessibility"),
    ("new tab", "tab new"),
    ("as a pdf", "pdf save"),
    ("as pdf", "pdf save"),
    ("best practices", "web search"),
    ("tell me about", "tell me about web search"),
    ("how to", "how to web documentation"),
    ("local repository", "git repository"),
    ("local repo", "git repository"),
    ("in last commit", "show commit"),
    ("in the last commit", "show commit"),
    ("files have changed", "status diff"),
    ("files changed", "status diff"),
    ("what changed", "diff status"),
    ("uncommitted changes", "status diff unstaged"),
    # what I changed and have not committed: the working tree
    ("have i modified", "status diff modified"),
    ("i have modified", "status diff modified"),
    ("i've modified", "status diff modified"),
    ("did i modify", "status diff modified"),
    ("have i changed", "status diff changed"),
    ("i have changed", "status diff changed"),
    ("i've changed", "status diff changed"),
    ("about to commit", "staged diff"),
    ("last change", "latest commit log show"),
    ("latest change", "latest commit log show"),
    ("my id", "me profile"),
    ("my user id", "me profile"),
    ("my username", "me profile"),
    ("my user name", "me profile"),
    ("my handle", "me profile"),
    # the page open in the browser, not a wiki's page (those are named)
    ("this page", "browser page"),
    ("current page", "browser page"),
    ("this webpage", "browser page"),
    ("on the page", "on browser page"),
    ("browser errors", "browser console errors"),
    ("alt text", "alt image snapshot"),
    ("web interface", "browser webpage"),
    ("web ui", "browser webpage"),
)

# Irregular or domain forms mapped straight to their stem.
STEMS: dict[str, str] = {
    "ran": "run",
    "running": "run",
    "wrote": "write",
    "written": "write",
    "made": "make",
    "took": "take",
    "taken": "take",
    "gone": "go",
    "went": "go",
    "sent": "send",
    "found": "find",
    "children": "child",
    "entries": "entry",
    "directories": "directory",
    "repositories": "repository",
    "repos": "repository",
    "repo": "repository",
    "prs": "pr",
    "mrs": "mr",
    "dir": "directory",
    "dirs": "directory",
    "folders": "directory",
    "folder": "directory",
    "msg": "message",
    "msgs": "message",
    "db": "database",
    "info": "information",
    "config": "configuration",
    "pics": "picture",
    "pic": "picture",
    "png": "image",
    "jpg": "image",
    "jpeg": "image",
    "gif": "image",
    "svg": "image",
    "args": "argument",
    "js": "javascript",
    "url": "url",
    "urls": "url",
    "status": "status",
    "analysis": "analysis",
    "alias": "alias",
    "canvas": "canvas",
    "access": "access",
    "process": "process",
    "address": "address",
    "addresses": "address",
    "business": "business",
    "businesses": "business",
    "class": "class",
    "less": "less",
    "progress": "progress",
    "success": "success",
    "navigation": "navigate",
    "orgs": "organization",
    "org": "organization",
    "news": "news",
    "series": "series",
}

# word → ((related word, weight), ...); weights < 1 so the user's own words count most.
SYNONYMS: dict[str, tuple[tuple[str, float], ...]] = {
    # -- actions --------------------------------------------------------------------
    "open": (("create", 0.7), ("new", 0.5), ("navigate", 0.4), ("read", 0.3)),
    "new": (("create", 0.7),),
    "make": (("create", 0.8), ("new", 0.4)),
    "start": (("create", 0.5), ("run", 0.5), ("new", 0.4)),
    "raise": (("create", 0.6),),
    "submit": (("create", 0.5), ("submit", 1.0)),
    "add": (("create", 0.6), ("append", 0.5), ("add", 1.0)),
    "insert": (("write", 0.8), ("add", 0.5), ("create", 0.3)),
    "put": (("write", 0.6), ("add", 0.4)),
    "record": (("create", 0.6), ("add", 0.5), ("observation", 0.4)),
    "remember": (("memory", 0.8), ("observation", 0.6), ("entity", 0.6), ("add", 0.3)),
    "remind": (("memory", 0.8), ("search", 0.5), ("node", 0.5)),
    "note": (("insight", 0.6), ("observation", 0.5), ("add", 0.4), ("append", 0.4)),
    "save": (("write", 0.6), ("save", 1.0), ("create", 0.4)),
    "show": (("get", 0.7), ("read", 0.6), ("list", 0.5), ("view", 0.5)),
    "see": (("get", 0.6), ("read", 0.5), ("list", 0.4)),
    "view": (("get", 0.6), ("read", 0.6)),
    "display": (("get", 0.6), ("read", 0.5), ("list", 0.4)),
    "tell": (("get", 0.5),),
    "give": (("get", 0.5),),
    "check": (("get", 0.5), ("status", 0.5)),
    "inspect": (("get", 0.6), ("details", 0.5)),
    "retrieve": (("get", 0.8), ("read", 0.5)),
    "fetch": (("get", 0.6), ("fetch", 1.0), ("read", 0.4)),
    "read": (("get", 0.5), ("content", 0.4)),
    "lookup": (("get", 0.6), ("search", 0.5)),
    "look": (("get", 0.4), ("search", 0.4)),
    "find": (("search", 0.9), ("get", 0.4), ("list", 0.3)),
    "locate": (("search", 0.7), ("find", 0.6)),
    "query": (("search", 0.5), ("query", 1.0)),
    "search": (("search", 1.0), ("find", 0.4)),
    "list": (("list", 1.0), ("get", 0.3)),
    "enumerate": (("list", 0.9),),
    "browse": (("list", 0.4), ("navigate", 0.5)),
    "modify": (("update", 0.8), ("edit", 0.7)),
    "edit": (("update", 0.7), ("edit", 1.0)),
    "update": (("update", 1.0), ("edit", 0.4)),
    "set": (("update", 0.6),),
    "replace": (("edit", 0.8), ("update", 0.5)),
    "rename": (("move", 0.8), ("rename", 1.0), ("update", 0.4)),
    "move": (("move", 1.0), ("transition", 0.6), ("drag", 0.4)),
    "fix": (("update", 0.4), ("edit", 0.4)),
    "delete": (("delete", 1.0), ("remove", 0.7)),
    "remove": (("delete", 0.8), ("remove", 1.0)),
    "erase": (("delete", 0.8),),
    "drop": (("delete", 0.6),),
    "forget": (("delete", 0.8), ("memory", 0.4), ("entity", 0.4)),
    "destroy": (("delete", 0.8),),
    "clear": (("delete", 0.5),),
    "close": (("close", 1.0),),
    "cancel": (("cancel", 1.0), ("stop", 0.6)),
    "stop": (("cancel", 0.7), ("stop", 1.0)),
    "abort": (("cancel", 0.8),),
    "kill": (("cancel", 0.6), ("stop", 0.7)),
    "run": (("run", 1.0), ("execute", 0.6), ("trigger", 0.5)),
    "trigger": (("run", 0.7), ("trigger", 1.0)),
    "execute": (("run", 0.6), ("execute", 1.0), ("evaluate", 0.5)),
    "deploy": (("workflow", 0.6), ("run", 0.5)),
    "rerun": (("rerun", 1.0), ("run", 0.5)),
    "retry": (("rerun", 0.9), ("run", 0.4)),
    "restart": (("rerun", 0.7),),
    "post": (("post", 1.0), ("message", 0.6), ("send", 0.5), ("create", 0.3)),
    "send": (("post", 0.8), ("message", 0.5), ("send", 1.0)),
    "say": (("post", 0.4), ("message", 0.3), ("comment", 0.5)),
    "saying": (("comment", 0.5), ("message", 0.4)),
    "message": (("message", 1.0), ("post", 0.4)),
    "announce": (("post", 0.7), ("message", 0.6)),
    "notify": (("post", 0.5), ("message", 0.5)),
    "reply": (("reply", 1.0), ("thread", 0.6), ("comment", 0.4)),
    "respond": (("reply", 0.8),),
    "answer": (("reply", 0.6),),
    "react": (("reaction", 1.0), ("emoji", 0.6), ("add", 0.4)),
    "comment": (("comment", 1.0),),
    "approve": (("review", 0.9), ("approve", 1.0)),
    "reject": (("review", 0.7),),
    "review": (("review", 1.0),),
    "merge": (("merge", 1.0),),
    "squash": (("merge", 0.8),),
    "rebase": (("merge", 0.5),),
    "commit": (("commit", 1.0),),
    "stage": (("add", 0.9), ("stage", 1.0)),
    "unstage": (("reset", 1.0), ("staged", 0.4)),
    "revert": (("reset", 0.6),),
    "undo": (("reset", 0.5),),
    "switch": (("checkout", 0.9), ("select", 0.7)),
    "checkout": (("checkout", 1.0),),
    "push": (("push", 1.0),),
    "upload": (("upload", 1.0), ("push", 0.4)),
    "download": (("download", 1.0), ("get", 0.4), ("fetch", 0.3)),
    "fork": (("fork", 1.0),),
    "clone": (("fork", 0.5),),
    "star": (("star", 1.0),),
    "like": (("star", 0.3),),
    "go": (("navigate", 0.9),),
    "visit": (("navigate", 1.0), ("url", 0.4)),
    "navigate": (("navigate", 1.0),),
    "load": (("navigate", 0.6),),
    "click": (("click", 1.0),),
    "tap": (("click", 0.8),),
    "press": (("press", 1.0), ("key", 0.6), ("click", 0.4)),
    "type": (("type", 1.0), ("fill", 0.6), ("text", 0.4)),
    "enter": (("type", 0.6), ("fill", 0.5), ("key", 0.5), ("press", 0.4)),
    "fill": (("fill", 1.0), ("type", 0.6), ("form", 0.4)),
    "input": (("type", 0.5), ("fill", 0.5)),
    "pick": (("select", 0.9), ("option", 0.5)),
    "choose": (("select", 0.9), ("option", 0.5)),
    "hover": (("hover", 1.0),),
    "scroll": (("scroll", 1.0),),
    "drag": (("drag", 1.0), ("drop", 0.6)),
    "resize": (("resize", 1.0),),
    "wait": (("wait", 1.0),),
    "accept": (("dialog", 0.7), ("accept", 1.0), ("handle", 0.4)),
    "dismiss": (("dismiss", 1.0), ("dialog", 0.4)),
    "capture": (("screenshot", 0.8), ("snapshot", 0.5)),
    "snap": (("screenshot", 0.7),),
    "screenshot": (("screenshot", 1.0), ("capture", 0.4), ("image", 0.3)),
    "convert": (("convert", 1.0),),
    "translate": (("convert", 0.6),),
    "geocode": (("geocode", 1.0),),
    "drive": (("directions", 0.8), ("driving", 0.8), ("route", 0.5)),
    "walk": (("directions", 0.6), ("walking", 0.8), ("distance", 0.4)),
    "travel": (("directions", 0.7), ("distance", 0.5)),
    "mark": (("mark", 1.0),),
    "assign": (("assign", 1.0), ("assignees", 0.5)),
    "describe": (("describe", 1.0), ("schema", 0.6)),
    "count": (("select", 0.4), ("query", 0.4)),
    # figures computed over records ("how many users", "the average age") need a query
    "average": (("query", 0.6), ("select", 0.4)),
    "sum": (("query", 0.6), ("select", 0.4)),
    "total": (("query", 0.5), ("select", 0.3)),
    "analyze": (("analyze", 1.0), ("query", 0.3)),
    "summarize": (("get", 0.5), ("read", 0.4), ("fetch", 0.3), ("content", 0.3)),
    "summarise": (("get", 0.5), ("read", 0.4), ("fetch", 0.3), ("content", 0.3)),
    "explain": (("get", 0.5), ("read", 0.4)),
    # -- things -----------------------------------------------------------------------
    "pr": (("pull", 1.0), ("request", 0.9)),
    "mr": (("merge", 1.0), ("request", 0.9)),
    "ticket": (("issue", 0.9), ("jira", 0.3)),
    "tickets": (("issue", 0.9), ("jira", 0.3)),
    "backlog": (("issue", 0.5), ("jira", 0.4), ("task", 0.4)),
    "bug": (("issue", 0.8),),
    "task": (("issue", 0.5), ("task", 1.0), ("database", 0.3), ("page", 0.3)),
    # records kept in a database: the rows of a business's tables
    **{
        noun: (("query", 0.7), ("database", 0.4), ("table", 0.4), ("row", 0.3))
        for noun in "customer customers product products order orders employee employees "
        "sales inventory".split()
    },
    "story": (("issue", 0.6),),
    "epic": (("issue", 0.5), ("epic", 1.0), ("jira", 0.4)),
    "jql": (("jira", 0.8), ("search", 0.5)),
    "cql": (("confluence", 0.8), ("search", 0.5)),
    "wiki": (("confluence", 0.6), ("page", 0.5)),
    "doc": (("page", 0.5), ("document", 0.7)),
    "document": (("page", 0.5), ("file", 0.4), ("notion", 0.2), ("confluence", 0.2)),
    "documentation": (("web", 0.5), ("search", 0.3), ("docs", 0.5)),
    "docs": (("web", 0.4), ("search", 0.3), ("documentation", 0.5)),
    "references": (("web", 0.5), ("search", 0.3)),
    "space": (("confluence", 0.5),),
    "spaces": (("confluence", 0.6),),
    "state": (("status", 0.8),),
    "recall": (("memory", 0.8), ("search", 0.5), ("node", 0.4)),
    "repository": (("repository", 1.0), ("project", 0.4)),
    "project": (("project", 1.0), ("repository", 0.4)),
    "board": (("project", 0.6), ("board", 1.0)),
    "snippet": (("gist", 0.8), ("code", 0.4)),
    "paste": (("gist", 0.6),),
    "directory": (("directory", 1.0), ("folder", 0.6)),
    "tree": (("tree", 1.0), ("structure", 0.5)),
    "structure": (("tree", 0.7), ("schema", 0.4)),
    "content": (("content", 1.0), ("read", 0.4)),
    "contents": (("content", 1.0), ("read", 0.4)),
    "text": (("text", 1.0),),
    "image": (("image", 1.0), ("media", 0.8), ("screenshot", 0.3)),
    "photo": (("image", 0.9), ("media", 0.7)),
    "picture": (("image", 0.9), ("media", 0.7), ("screenshot", 0.4)),
    "audio": (("media", 0.8), ("audio", 1.0)),
    "size": (("size", 1.0), ("sizes", 0.8)),
    "biggest": (("size", 0.9), ("sizes", 0.8), ("sort", 0.4)),
    "largest": (("size", 0.9), ("sizes", 0.8), ("sort", 0.4)),
    "smallest": (("size", 0.8), ("sizes", 0.7)),
    "metadata": (("info", 0.8), ("metadata", 1.0)),
    "modified": (("modified", 1.0), ("info", 0.5), ("metadata", 0.5), ("status", 0.4)),
    "different": (("diff", 0.6), ("compare", 0.4)),
    "contributors": (("commits", 0.5), ("log", 0.4), ("author", 0.4)),
    "permissions": (("permissions", 1.0), ("info", 0.4)),
    "allowed": (("allowed", 1.0),),
    "accessible": (("allowed", 0.8), ("access", 0.8)),
    "webpage": (("url", 0.6), ("fetch", 0.6), ("page", 0.4)),
    "website": (("url", 0.7), ("fetch", 0.5), ("navigate", 0.4)),
    "site": (("url", 0.7), ("webpage", 0.6), ("navigate", 0.5)),
    "link": (("url", 0.6), ("link", 1.0)),
    "markdown": (("markdown", 1.0), ("fetch", 0.4)),
    "internet": (("web", 0.8), ("fetch", 0.4)),
    "online": (("web", 0.7),),
    "google": (("web", 0.5), ("search", 0.5)),
    "web": (("web", 1.0), ("search", 0.3)),
    "browser": (("browser", 1.0), ("page", 0.3)),
    **{
        name: (("browser", 0.8), ("navigate", 0.4))
        for name in "chrome chromium safari firefox webkit".split()
    },
    "login": (("browser", 0.4), ("navigate", 0.4), ("fill", 0.3), ("form", 0.3)),
    "tab": (("tab", 1.0),),
    "window": (("browser", 0.6), ("window", 1.0)),
    "button": (("click", 0.6), ("element", 0.5)),
    "buttons": (("snapshot", 0.5), ("element", 0.5), ("click", 0.4)),
    "visible": (("snapshot", 0.5), ("browser", 0.4), ("wait", 0.3)),
    "form": (("form", 1.0), ("fill", 0.6), ("field", 0.5)),
    "field": (("field", 1.0), ("fill", 0.4)),
    "dropdown": (("dropdown", 1.0), ("select", 0.8), ("option", 0.7)),
    "menu": (("hover", 0.4), ("select", 0.3), ("element", 0.3)),
    "popup": (("dialog", 0.8),),
    "alert": (("alert", 1.0), ("dialog", 0.3)),
    "confirm": (("dialog", 0.8), ("accept", 0.5)),
    "prompt": (("dialog", 0.5), ("prompt", 1.0)),
    "key": (("key", 1.0), ("keyboard", 0.6)),
    "keyboard": (("key", 0.8), ("keyboard", 1.0)),
    "console": (("console", 1.0), ("log", 0.4)),
    "error": (("error", 1.0), ("console", 0.3), ("sentry", 0.3), ("issue", 0.2)),
    "errors": (("error", 1.0), ("console", 0.3), ("sentry", 0.3)),
    "exception": (("error", 0.7), ("sentry", 0.5), ("stacktrace", 0.5)),
    "crash": (("error", 0.6), ("sentry", 0.5), ("stacktrace", 0.4)),
    "stacktrace": (("stacktrace", 1.0), ("sentry", 0.5), ("error", 0.4)),
    "traffic": (("network", 0.9), ("request", 0.5)),
    "network": (("network", 1.0),),
    "request": (("request", 1.0),),
    "requests": (("request", 1.0), ("network", 0.3)),
    "javascript": (("javascript", 1.0), ("evaluate", 0.7), ("script", 0.7)),
    "script": (("script", 1.0), ("javascript", 0.6), ("evaluate", 0.5)),
    "pdf": (("pdf", 1.0),),
    "coordinates": (("coordinate", 1.0), ("latitude", 0.7), ("longitude", 0.7), ("geocode", 0.6)),
    "latitude": (("latitude", 1.0), ("coordinate", 0.6)),
    "longitude": (("longitude", 1.0), ("coordinate", 0.6)),
    "location": (("location", 1.0), ("place", 0.5), ("address", 0.4)),
    "near": (("nearby", 0.8), ("local", 0.7), ("place", 0.6), ("location", 0.5)),
    "nearby": (("local", 0.7), ("place", 0.6)),
    "restaurant": (("place", 0.7), ("local", 0.7), ("business", 0.6)),
    "restaurants": (("place", 0.7), ("local", 0.7), ("business", 0.6)),
    "shop": (("place", 0.7), ("local", 0.7), ("business", 0.6)),
    "shops": (("place", 0.7), ("local", 0.7), ("business", 0.6)),
    "cafe": (("place", 0.7), ("local", 0.7), ("business", 0.6)),
    "coffee": (("place", 0.5), ("local", 0.5), ("business", 0.4)),
    "hotel": (("place", 0.7), ("local", 0.6)),
    "store": (("write", 0.6), ("create", 0.4), ("memory", 0.4), ("place", 0.3)),
    "hours": (("details", 0.6), ("place", 0.5), ("opening", 0.5)),
    **{
        device: (("resize", 0.8), ("browser", 0.4), ("screenshot", 0.3))
        for device in "mobile iphone ipad android tablet".split()
    },
    "phone": (("details", 0.5), ("contact", 0.6)),
    "rating": (("details", 0.5), ("reviews", 0.5)),
    "route": (("directions", 1.0),),
    "directions": (("directions", 1.0), ("route", 0.5)),
    "distance": (("distance", 1.0), ("matrix", 0.4)),
    "duration": (("distance", 0.6), ("duration", 1.0), ("time", 0.2)),
    "altitude": (("elevation", 1.0),),
    "elevation": (("elevation", 1.0),),
    "time": (("time", 1.0), ("timezone", 0.5)),
    "clock": (("time", 0.9), ("current", 0.5)),
    "timezone": (("timezone", 1.0), ("time", 0.6)),
    "now": (("current", 0.9), ("time", 0.3)),
    "current": (("current", 1.0),),
    "today": (("current", 0.5), ("time", 0.3)),
    "date": (("time", 0.5), ("current", 0.4)),
    "weather": (("web", 0.8), ("search", 0.5)),
    "forecast": (("web", 0.7), ("search", 0.4)),
    **{
        day: (("time", 0.5), ("current", 0.4), ("date", 0.4))
        for day in "monday tuesday wednesday thursday friday saturday sunday".split()
    },
    "am": (("time", 0.5), ("convert", 0.6)),
    "pm": (("time", 0.5), ("convert", 0.6)),
    "o'clock": (("time", 0.6), ("convert", 0.6)),
    "meeting": (("time", 0.3), ("convert", 0.3)),
    "changes": (("diff", 0.8), ("change", 1.0), ("commit", 0.4), ("log", 0.3)),
    "change": (("update", 0.8), ("edit", 0.6), ("diff", 0.3)),
    "difference": (("diff", 1.0),),
    "diff": (("diff", 1.0),),
    "history": (("log", 0.8), ("history", 1.0), ("commit", 0.5)),
    "log": (("log", 1.0),),
    "logs": (("log", 1.0),),
    "build": (("workflow", 0.6), ("run", 0.5), ("job", 0.4), ("build", 1.0)),
    "ci": (("workflow", 0.8), ("actions", 0.6), ("run", 0.5), ("job", 0.4)),
    "pipeline": (("workflow", 0.8), ("run", 0.5)),
    "fail": (("failed", 1.0), ("error", 0.3)),
    "failed": (("failed", 1.0),),
    "failure": (("failed", 1.0),),
    "artifact": (("artifact", 1.0),),
    "release": (("release", 1.0), ("tag", 0.3)),
    "version": (("release", 0.6), ("tag", 0.5), ("version", 1.0)),
    "tag": (("tag", 1.0),),
    "label": (("label", 1.0),),
    "security": (("security", 1.0), ("advisory", 0.6), ("alert", 0.5)),
    "vulnerability": (("advisory", 0.8), ("security", 0.8), ("alert", 0.6), ("dependabot", 0.5)),
    "vulnerabilities": (("advisory", 0.8), ("security", 0.8), ("alert", 0.6), ("dependabot", 0.5)),
    "cve": (("advisory", 0.8), ("security", 0.7)),
    "leaked": (("secret", 0.9), ("scanning", 0.6)),
    "secret": (("secret", 1.0), ("scanning", 0.4)),
    "credentials": (("secret", 0.8), ("scanning", 0.4)),
    "accessibility": (("snapshot", 0.6), ("browser", 0.5), ("navigate", 0.3)),
    "stores": (("place", 0.6), ("local", 0.6), ("business", 0.5)),
    "secrets": (("secret", 1.0), ("scanning", 0.4)),
    "password": (("secret", 0.6),),
    "token": (("secret", 0.5), ("token", 1.0)),
    "dependency": (("dependabot", 0.8),),
    "dependencies": (("dependabot", 0.8),),
    "notification": (("notification", 1.0),),
    "inbox": (("notification", 0.8),),
    "unread": (("notification", 0.6), ("read", 0.4)),
    "team": (("team", 1.0), ("member", 0.4)),
    "colleague": (("user", 0.6), ("member", 0.5)),
    "people": (("user", 0.8), ("member", 0.6)),
    "person": (("user", 0.8), ("entity", 0.3)),
    "everyone": (("user", 0.7), ("member", 0.5), ("list", 0.4)),
    "member": (("member", 1.0), ("user", 0.7)),
    "members": (("member", 1.0), ("user", 0.7)),
    "user": (("user", 1.0),),
    "profile": (("profile", 1.0), ("user", 0.5), ("me", 0.3)),
    "account": (("user", 0.5), ("profile", 0.5), ("me", 0.4)),
    "emoji": (("emoji", 1.0), ("reaction", 0.8)),
    "reaction": (("reaction", 1.0), ("emoji", 0.6)),
    "thread": (("thread", 1.0), ("reply", 0.5)),
    "channel": (("channel", 1.0),),
    "channels": (("channel", 1.0),),
    "chat": (("message", 0.6), ("slack", 0.4), ("channel", 0.4)),
    "workspace": (("workspace", 1.0),),
    "table": (("table", 1.0),),
    "tables": (("table", 1.0),),
    "row": (("insert", 0.6), ("write", 0.5), ("query", 0.4)),
    "rows": (("query", 0.5), ("select", 0.4)),
    "columns": (("describe", 0.8), ("schema", 0.8), ("table", 0.4)),
    "column": (("describe", 0.8), ("schema", 0.8), ("table", 0.4)),
    "schema": (("schema", 1.0), ("describe", 0.6)),
    "sql": (("query", 0.8), ("sql", 1.0)),
    "select": (("select", 1.0), ("option", 0.4), ("read", 0.3)),
    "database": (("database", 1.0), ("table", 0.4)),
    "insight": (("insight", 1.0), ("memo", 0.5)),
    "memo": (("memo", 1.0), ("insight", 0.6)),
    "fact": (("observation", 0.8), ("entity", 0.4)),
    "facts": (("observation", 0.8), ("entity", 0.4)),
    "relationship": (("relation", 1.0),),
    "relation": (("relation", 1.0),),
    "connection": (("relation", 0.6),),
    "works": (("relation", 0.4),),
    "favourite": (("observation", 0.4),),
    "favorite": (("observation", 0.4),),
    "discussion": (("discussion", 1.0),),
    "forum": (("discussion", 0.7),),
    "sprint": (("sprint", 1.0), ("jira", 0.6)),
    "standup": (("jira", 0.3), ("issue", 0.3)),
    # what a page in a browser is made of
    "html": (("evaluate", 0.5), ("snapshot", 0.4), ("browser", 0.4)),
    "dom": (("evaluate", 0.5), ("snapshot", 0.4), ("browser", 0.4)),
    "links": (("snapshot", 0.4), ("evaluate", 0.3), ("browser", 0.3)),
    "attractions": (("place", 0.7), ("local", 0.5), ("search", 0.3)),
    "sights": (("place", 0.7), ("local", 0.5), ("search", 0.3)),
    "status": (("status", 1.0), ("state", 0.4)),
    "done": (("transition", 0.6), ("status", 0.5)),
    "progress": (("transition", 0.5), ("status", 0.5)),
    "notes": (("page", 0.4), ("note", 0.8), ("text", 0.3)),
    "guide": (("page", 0.4), ("document", 0.4)),
    "page": (("page", 1.0),),
    # many pages are a wiki's or a workspace's; a browser shows one
    "pages": (("page", 1.0), ("notion", 0.3), ("confluence", 0.3)),
    "roadmap": (("page", 0.3),),
    "copilot": (("copilot", 1.0),),
    # -- intents seen in public example prompts ---------------------------------------
    "readme": (("file", 0.7), ("content", 0.6), ("read", 0.4)),
    "contain": (("search", 0.6), ("code", 0.6)),
    "contains": (("search", 0.6), ("code", 0.6)),
    "mention": (("search", 0.6), ("code", 0.5)),
    "discuss": (("message", 0.5), ("history", 0.5), ("channel", 0.3)),
    "happened": (("history", 0.6), ("message", 0.4), ("log", 0.3)),
    "miss": (("history", 0.6), ("message", 0.4)),
    "desktop": (("directory", 0.7), ("list", 0.4), ("filesystem", 0.6)),
    "files": (("list", 0.5), ("directory", 0.4), ("file", 1.0)),
    "across": (("search", 0.5), ("code", 0.5)),
    "research": (("web", 0.8), ("search", 0.6)),
    "news": (("web", 0.8), ("news", 1.0), ("search", 0.4)),
    "latest": (("latest", 1.0), ("web", 0.4), ("recent", 0.5)),
    "information": (("web", 0.5), ("search", 0.4), ("information", 1.0)),
    "developments": (("web", 0.6), ("news", 0.5)),
    "techniques": (("web", 0.5),),
    "views": (("web", 0.5), ("search", 0.3)),
    "compare": (("diff", 0.5), ("web", 0.3), ("distance", 0.3)),
    "address": (("geocode", 0.7), ("place", 0.6), ("location", 0.5), ("address", 1.0)),
    "nearest": (("nearby", 0.8), ("local", 0.6), ("place", 0.6), ("directions", 0.5)),
    "closest": (("nearby", 0.8), ("local", 0.6), ("place", 0.6), ("distance", 0.6)),
    "closer": (("distance", 0.9), ("directions", 0.5)),
    "farther": (("distance", 0.9), ("directions", 0.5)),
    "pharmacy": (("place", 0.7), ("local", 0.7), ("business", 0.6)),
    "bar": (("place", 0.6), ("local", 0.6), ("business", 0.5)),
    "bakery": (("place", 0.7), ("local", 0.7), ("business", 0.6)),
    "museum": (("place", 0.7), ("local", 0.6)),
    # food is eaten somewhere: a place to find
    **{
        food: (("place", 0.6), ("local", 0.6), ("business", 0.4))
        for food in "food eat dinner lunch breakfast brunch pizza sushi ramen burger burgers "
        "tacos bbq dessert pub brewery".split()
    },
    "ai": (("copilot", 0.6),),
    "timestamp": (("time", 0.9), ("current", 0.7)),
    "utc": (("timezone", 0.8), ("time", 0.7), ("current", 0.4)),
    "pricing": (("web", 0.6), ("search", 0.4)),
    "price": (("web", 0.5), ("search", 0.3)),
    "unresolved": (("sentry", 0.6), ("issue", 0.4)),
    "preferences": (("memory", 0.6), ("observation", 0.5), ("entity", 0.4)),
    "prefer": (("memory", 0.6), ("observation", 0.5), ("search", 0.3)),
    "habits": (("memory", 0.5), ("observation", 0.4)),
    "routine": (("memory", 0.4), ("observation", 0.4)),
    "routines": (("memory", 0.4), ("observation", 0.4)),
    "codebase": (("code", 0.8), ("repository", 0.4), ("search", 0.3)),
    "contributor": (("commits", 0.5), ("log", 0.4), ("author", 0.4)),
    "organization": (("organization", 1.0), ("org", 0.9), ("search", 0.3)),
}

# Groups of verbs: a request's intent and a tool's verb match when they share a group.
ACTIONS: dict[str, frozenset[str]] = {
    "create": frozenset(
        "create new make open add raise submit start write post fork push append insert "
        "record store".split()
    ),
    "read": frozenset(
        "get read show view see display fetch retrieve inspect open lookup look tell give "
        "describe download check summarize summarise explain print".split()
    ),
    "list": frozenset("list enumerate browse which show see display view".split()),
    "search": frozenset("search find locate query lookup compare research".split()),
    "update": frozenset(
        "update edit change modify set rename replace fix move transition mark switch "
        "close reopen assign write".split()
    ),
    "delete": frozenset("delete remove erase drop forget destroy clear unstar dismiss".split()),
    "send": frozenset("send post reply react comment say announce notify message".split()),
    "run": frozenset("run trigger execute rerun retry restart deploy evaluate".split()),
    "cancel": frozenset("cancel stop abort kill close".split()),
    "merge": frozenset("merge squash rebase".split()),
    "navigate": frozenset("navigate go visit load browse".split()),
}

# Names of platforms a request may mention, each standing for its servers' words.
PLATFORMS: dict[str, tuple[str, ...]] = {
    "github": ("github",),
    "gitlab": ("gitlab",),
    "slack": ("slack",),
    "jira": ("jira", "atlassian"),
    "confluence": ("confluence", "atlassian"),
    "notion": ("notion",),
    "sentry": ("sentry",),
    "linear": ("linear",),
    "playwright": ("playwright", "browser"),
    "puppeteer": ("puppeteer", "browser"),
    "brave": ("brave",),
    "maps": ("maps", "google"),
    "sqlite": ("sqlite",),
    "git": ("git",),
    "postgres": ("postgres",),
}

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = re.compile(r"[a-z0-9']+")


def split_words(text: str) -> list[str]:
    """Words of ``text``: snake, kebab and camel case split, lower-cased."""
    spaced = _CAMEL.sub(" ", text)
    return _WORD.findall(spaced.replace("_", " ").replace("-", " ").lower())


def stem(word: str) -> str:
    """A light English stemmer: plurals, -ing, -ed (and the irregular table)."""
    word = word.strip("'")
    if word.endswith("'s"):
        word = word[:-2]
    known = STEMS.get(word)
    if known is not None:
        return known
    if len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    if word.endswith("ing") and len(word) > 5:
        base = word[:-3]
        if len(base) > 2 and base[-1] == base[-2] and base[-1] not in "lsz":
            base = base[:-1]
        return base
    if word.endswith("ed") and len(word) > 4:
        base = word[:-2]
        if word.endswith("ied"):
            return word[:-3] + "y"
        if len(base) > 2 and base[-1] == base[-2] and base[-1] not in "lsz":
            return base[:-1]
        if base.endswith(("at", "iz", "ov", "os", "ag", "ar", "it", "ur")):
            return base + "e"
        return base
    return word


# Words that say a request is about a physical place: "navigate to the nearest pharmacy"
# asks for directions, not a browser.
PLACE_CUES = frozenset(
    """
    nearest near nearby closest pharmacy pharmacies restaurant restaurants cafe cafes coffee
    shop shops hotel hotels museum bakery bar bars street st avenue ave road rd blvd park
    airport station hospital supermarket
    """.split()
)

# A request about files that names none of these means files here, on this machine;
# tools that need a repository to act on are then less likely.
FILE_CUES = frozenset("file files folder folders directory directories desktop".split())
REPOSITORY_CUES = frozenset(
    """
    repo repos repository repositories github gitlab remote branch branches pr prs pull
    upstream org organization
    """.split()
)
REPOSITORY_PARAMS = frozenset({"owner", "repo", "repository", "project_id", "repo_name"})

KEEP_FACT: tuple[tuple[str, float], ...] = (("memory", 0.6), ("observation", 0.6), ("entity", 0.5))
"""What a statement about the user asks for: it is kept as a fact."""

CONTENT_SEARCH: tuple[tuple[str, float], ...] = (("code", 0.8), ("content", 0.6), ("text", 0.6))
"""What a search for a quoted phrase looks for: text inside things, not their names."""

_PUNCTUATION = re.compile(r"[^\w'-]+")
"""What separates words for phrase matching: "the last commit?" ends in "last commit"."""


def rewrite_phrases(text: str) -> str:
    """Lower-case ``text`` and replace the multi-word expressions of ``PHRASES``."""
    plain = _PUNCTUATION.sub(" ", text.lower().replace("\u2019", "'"))
    out = " " + " ".join(plain.split()) + " "
    for phrase, replacement in PHRASES:
        needle = f" {phrase} "
        if needle in out:
            out = out.replace(needle, f" {replacement} ")
    return out.strip()
