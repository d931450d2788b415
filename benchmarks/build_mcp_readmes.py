"""Build a held-out ToolSearch set from public MCP servers' READMEs: their tools and requests.

Each server below is a public repository whose README lists its tools (name and what it
does) at the commit given. Their tools, pooled, are the catalogue
(``data/mcp_readmes_tools.json``). The requests (``data/mcp_readmes_requests.json``) are
the example requests the READMEs give, copied verbatim (the builder checks each is in
its README), each with the tools that serve it. Where a README ties an example to a tool
(an example under the tool's heading, or "→ use `tool`"), that tool is the need
(``label: readme``); where it lists examples alone, the need was read off the tool list
by hand (``label: hand``), before any ranker was scored on them. Servers with no
examples are in the catalogue only, as the other tools a search must pass over.

Run: ``python benchmarks/build_mcp_readmes.py MIRRORS`` where ``MIRRORS`` holds a git
clone of each repository, as ``MIRRORS/owner+name`` (or ``MIRRORS/owner+name/repo``).
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hands.mcp.naming import tool_name
from heldout_split import split_of, write_source

SOURCE = "mcp-readmes"


@dataclass(frozen=True, kw_only=True, slots=True)
class Server:
    """A repository, where its README lists tools, how to read them, and its examples."""

    name: str
    repo: str
    commit: str
    section: str
    """The heading that opens the tool list (it ends at the next heading of its level)."""
    pattern: str
    """A regex with groups ``name`` and (optionally) ``desc``, over the tool list."""
    examples: tuple[tuple[str, tuple[tuple[str, ...], ...], str], ...] = field(default=())
    """(request, needs: the tools any one of which serves each need, label)."""


def _one(*names: str) -> tuple[tuple[str, ...], ...]:
    return (names,)


_HEADING = r"^### (?P<name>\w+)\n(?P<desc>(?:.+\n)+)"
_BULLET = r"^- `?(?P<name>[\w-]+)`?(?::| -) (?P<desc>.+)"
_TABLE = r"^\| `(?P<name>[\w-]+)`\s*\|(?P<desc>.+)\|\s*$"

SERVERS = (
    Server(
        name="todoist",
        repo="abhiz123/todoist-mcp-server",
        commit="70802047442604b197c59e3ea0706f173f4e6e48",
        section="## Tools",
        pattern=_HEADING,
        examples=(
            ("Create task 'Team Meeting' with description 'Weekly sync' due tomorrow",
             _one("todoist_create_task"), "readme"),
            ("Show high priority tasks due this week", _one("todoist_get_tasks"), "readme"),
            ("Update meeting task to be due next Monday", _one("todoist_update_task"), "readme"),
            ("Mark the documentation task as complete", _one("todoist_complete_task"), "readme"),
            ("Delete the PR review task", _one("todoist_delete_task"), "readme"),
            ("Create task 'Team Meeting'", _one("todoist_create_task"), "readme"),
            ("Add task 'Review PR' due tomorrow at 2pm", _one("todoist_create_task"), "readme"),
            ("Create high priority task 'Fix bug' with description 'Critical performance issue'",
             _one("todoist_create_task"), "readme"),
            ("Show all my tasks", _one("todoist_get_tasks"), "readme"),
            ("List tasks due today", _one("todoist_get_tasks"), "readme"),
            ("Get high priority tasks", _one("todoist_get_tasks"), "readme"),
            ("Show tasks due this week", _one("todoist_get_tasks"), "readme"),
            ("Update documentation task to be due next week", _one("todoist_update_task"),
             "readme"),
            ("Change priority of bug fix task to urgent", _one("todoist_update_task"), "readme"),
            ("Add description to team meeting task", _one("todoist_update_task"), "readme"),
            ("Mark the PR review task as complete", _one("todoist_complete_task"), "readme"),
            ("Complete the documentation task", _one("todoist_complete_task"), "readme"),
            ("Remove meeting prep task", _one("todoist_delete_task"), "readme"),
        ),
    ),
    Server(
        name="obsidian",
        repo="MarkusPfundstein/mcp-obsidian",
        commit="eb33932a66eebda9eb44745e5d31f5c0fe21fee2",
        section="### Tools",
        pattern=_BULLET,
        examples=(
            ("Get the contents of the last architecture call note and summarize them",
             _one("get_file_contents"), "hand"),
            ("Search for all files where Azure CosmosDb is mentioned and quickly explain to me "
             "the context in which it is mentioned", _one("search"), "hand"),
            ("Summarize the last meeting notes and put them into a new note 'summary "
             "meeting.md'. Add an introduction so that I can send it via email.",
             (("get_file_contents",), ("append_content",)), "hand"),
        ),
    ),
    Server(
        name="firecrawl",
        repo="mendableai/firecrawl-mcp-server",
        commit="1b9c89b502a04d7c6383b20484dabdf67a326363",
        section="## Available Tools",
        pattern=r"^### \d+\. [\w .]+ \(`(?P<name>\w+)`\)\n\n(?P<desc>.+)",
        examples=(
            ("Get the content of the page at https://example.com.",
             _one("firecrawl_scrape"), "readme"),
            ("Get the content of these three blog posts: [url1, url2, url3].",
             _one("firecrawl_batch_scrape"), "readme"),
            ("List all URLs on example.com.", _one("firecrawl_map"), "readme"),
            ("Find the latest research papers on AI published in 2023.",
             _one("firecrawl_search"), "readme"),
            ("Get all blog posts from the first two levels of example.com/blog.",
             _one("firecrawl_crawl"), "readme"),
            ("Extract the product name, price, and description from these product pages.",
             _one("firecrawl_extract"), "readme"),
            ("Research the environmental impact of electric vehicles versus gasoline vehicles.",
             _one("firecrawl_deep_research"), "readme"),
            ("Generate an LLMs.txt file for example.com.",
             _one("firecrawl_generate_llmstxt"), "readme"),
        ),
    ),
    Server(
        name="linear",
        repo="jerhadf/linear-mcp-server",
        commit="d8979707e71051e3c7583bc66ef78fb425107fdc",
        section="### Tools",
        pattern=r"^\d+\. \*\*`(?P<name>\w+)`\*\*: (?P<desc>.+)",
        examples=(
            ("Show me all my high-**priority** issues",
             _one("linear_search_issues", "linear_get_user_issues"), "readme"),
            ("Based on what I've told you about this bug already, make a bug report for the "
             "authentication system", _one("linear_create_issue"), "readme"),
            ("Find all in progress frontend tasks", _one("linear_search_issues"), "readme"),
            ("Give me a summary of recent updates on the issues for mobile app development",
             _one("linear_search_issues"), "readme"),
            ("What's the current workload for the mobile team?",
             _one("linear_search_issues"), "readme"),
        ),
    ),
    Server(
        name="google-calendar",
        repo="nspady/google-calendar-mcp",
        commit="0f2c9c5d7d96b63e424f035cca3269f857f3b0e1",
        section="## Available Tools",
        pattern=_TABLE,
        examples=(
            ("Please provide availability looking at both my personal and work calendar for "
             "this upcoming week.", _one("get-freebusy", "list-events"), "hand"),
            ("Add this event to my calendar based on the attached screenshot.",
             _one("create-event"), "hand"),
            ("What events do I have coming up this week that aren't part of my usual routine?",
             _one("list-events"), "hand"),
            ("Which events tomorrow have attendees who have not accepted the invitation?",
             _one("list-events"), "hand"),
            ("Accept the team meeting invitation on my calendar for tomorrow at 2pm",
             _one("respond-to-event"), "hand"),
            ("Decline the Friday meeting with a note that I have a scheduling conflict",
             _one("respond-to-event"), "hand"),
            ("Accept just this week's standup, but keep future instances as tentative",
             _one("respond-to-event"), "hand"),
            ("Decline all future Monday planning meetings", _one("respond-to-event"), "hand"),
            ("Take a look at the times provided and let me know which ones are open on my "
             "calendar.", _one("get-freebusy", "list-events"), "hand"),
        ),
    ),
    Server(
        name="docker",
        repo="ckreiling/mcp-server-docker",
        commit="6288015cee6b76b2e2bf2c64232f0748baf48c1c",
        section="## 🔨 Tools",
        pattern=r"^- `(?P<name>\w+)`$",
        examples=(
            ("deploy an nginx container exposing it on port\n  9000",
             _one("run_container", "create_container"), "hand"),
            ("deploy a WordPress container and a supporting\n  MySQL container, exposing "
             "Wordpress on port 9000", _one("run_container", "create_container"), "hand"),
        ),
    ),
    Server(
        name="grafana",
        repo="grafana/mcp-grafana",
        commit="c6e492b39f493f7e5856eb4ab419bc918b083716",
        section="### Tools",
        pattern=r"^\| `(?P<name>\w+)`\s*\|[^|]*\|(?P<desc>[^|]+)\|",
    ),
    Server(
        name="mongodb",
        repo="mongodb-js/mongodb-mcp-server",
        commit="36a405e33817577f0c5a34d6d9479c0285fac5e4",
        section="### Tool List",
        pattern=_BULLET,
    ),
    Server(
        name="exa",
        repo="exa-labs/exa-mcp-server",
        commit="15ffb50519e719dc791cdc750ce5ed1934c0a1ed",
        section="## Available Tools",
        pattern=_TABLE,
    ),
    Server(
        name="airtable",
        repo="domdomegg/airtable-mcp-server",
        commit="8a759ba9c0cb71d79af1d7595fc9775055380569",
        section="### Tools",
        pattern=r"^- \*\*(?P<name>\w+)\*\*\n\s+- (?P<desc>.+)",
    ),
)

_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")


def readme(mirrors: Path, server: Server) -> str:
    """The README of ``server`` at its commit, from its clone under ``mirrors``."""
    folder = mirrors / server.repo.replace("/", "+")
    for where in (folder / "repo", folder, mirrors / server.repo):
        if where.exists():
            return subprocess.run(
                ["git", "-C", str(where), "show", f"{server.commit}:README.md"],
                capture_output=True, text=True, check=True,
            ).stdout
    raise SystemExit(f"no clone of {server.repo} under {mirrors}")


def tool_list(text: str, server: Server) -> list[tuple[str, str]]:
    """(name, description) of each tool in the README's tool list."""
    start = text.index(f"\n{server.section}\n")
    level = server.section.split(" ")[0]
    end = re.search(rf"^#{{1,{len(level)}}} ", text[start + len(server.section) + 2 :], re.M)
    part = text[start : start + len(server.section) + 2 + (end.start() if end else len(text))]
    out: dict[str, str] = {}
    for match in re.finditer(server.pattern, part, re.M):
        lines = (match.groupdict().get("desc") or "").splitlines()
        # a line of examples would hand the requests to the ranker
        kept = [line.strip(" |*") for line in lines if "Example" not in line]
        out.setdefault(match.group("name"), _LINK.sub(r"\1", " ".join(kept)).strip())
    if not out:
        raise SystemExit(f"no tools found in {server.repo}'s {server.section}")
    return list(out.items())


def main(mirrors: Path) -> None:
    tools: list[dict[str, Any]] = []
    requests: list[dict[str, Any]] = []
    for server in SERVERS:
        text = readme(mirrors, server)
        listed = tool_list(text, server)
        where = f"{server.repo}@{server.commit[:12]} README.md"
        tools += [
            {
                "server": server.name,
                "name": name,
                "description": desc,
                "inputSchema": {"type": "object", "properties": {}},
                "source": {"repository": server.repo, "commit": server.commit},
            }
            for name, desc in listed
        ]
        names = {name for name, _ in listed}
        for request, needs, label in server.examples:
            if request not in text:
                raise SystemExit(f"not in {where}: {request!r}")
            missing = [n for need in needs for n in need if n not in names]
            if missing:
                raise SystemExit(f"{where} lists no tool {missing}")
            requests.append(
                {
                    "request": " ".join(request.split()),
                    "needs": [[tool_name(server.name, n) for n in need] for need in needs],
                    "kind": "single" if len(needs) == 1 else "multi",
                    "origin": "held-out",
                    "label": label,
                    "split": split_of(SOURCE, server.name),
                    "source": where,
                }
            )
    about_tools = (
        "Held-out tool catalogue from public MCP servers' READMEs (benchmarks/"
        "build_mcp_readmes.py names each repository and commit): every tool each README "
        "lists, with the description it gives (none where it gives only names); the READMEs "
        "give no parameters. No ranker was tuned on it."
    )
    about_requests = (
        "Held-out ToolSearch requests: the example requests of those READMEs, copied "
        "verbatim (whitespace joined). 'needs' has one list per need, any tool of which "
        "serves it; 'label' is 'readme' where the README ties the example to its tool and "
        "'hand' where the need was read off the README's tool list. 'split' is 'validation' "
        "or 'test' by a seeded hash of the server (benchmarks/heldout_split.py). Metrics "
        "as for livemcpbench_requests.json."
    )
    write_source("mcp_readmes", (about_tools, tools), (about_requests, requests))


if __name__ == "__main__":
    if len(sys.argv) == 2:
        main(Path(sys.argv[1]))
    else:
        print(__doc__.strip().splitlines()[-1])
