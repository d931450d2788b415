"""ToolSearch: the model's way to load deferred tools' definitions on demand.

Three query forms:

- ``select:A,B`` returns exactly those tools (``select:`` in any case; for a tool already
  loaded the result says it can be called as it is);
- ``+term rest`` keeps tools whose name contains ``term`` and ranks them by ``rest``;
- anything else is ranked over the deferred tools by
  :mod:`hands.discovery.ranking.ranking`, once per need when it asks for several things.

The result carries the matched tools' full definitions as text (any provider), and their
names as ``tool_reference`` items for APIs that expand those (:func:`tool_reference_blocks`).
Found tools join the request from the next model call on. With no match the result says so and
names the MCP servers still connecting.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import Field

from hands.core.messages import TextBlock, ToolReferenceBlock
from hands.core.schema import ToolInput
from hands.core.tool import Content, Progress, Tool, ToolResult, ToolSpec

if TYPE_CHECKING:
    from collections.abc import Iterable

    from hands.core.context import ToolContext
    from hands.discovery.ranking.ranking import SearchDoc, ToolIndex
    from hands.pipeline.pool import ToolPool

DEFAULT_MAX_RESULTS = 5
MAX_RESULTS = 50
NO_MATCH = "No tool to load fits this query"

DESCRIPTION = (
    "Load the definitions of deferred tools so you can call them. Deferred tools are "
    "listed by name in a system reminder but their schemas are not loaded; calling one "
    "before loading it may fail on its arguments.\n\n"
    "Query forms:\n"
    '- "select:Name1,Name2": load exactly these tools (use the names from the list).\n'
    '- "+slack send message": only tools whose name contains "slack", ranked by the '
    "other words.\n"
    '- plain words ("open a pull request", "screenshot of the page"): ranked search over '
    "the tools' names, descriptions and parameters.\n\n"
    "Search once per need: a task that needs several tools (find the report, convert it "
    'to PDF, email it) is best served by one short search for each ("search files", '
    '"convert to pdf", "send email"). A query that lists several steps ("..., then ...") '
    "gets the best tools of each step in turn.\n\n"
    "The result holds the full definitions of the matching tools; they can be called from "
    "your next message on. Search again with other words if the right tool is missing."
)
EMPTY_QUERY = (
    "The query has no words to search for. Describe what the tool should do in a few "
    'words ("send a slack message"), or load tools by name with select:Name1,Name2.'
)


class ToolSearchInput(ToolInput):
    """Input of ToolSearch."""

    query: str = Field(
        description='What to look for: "select:Name1,Name2" for exact tools, "+term words" '
        "to require a term in the name, or plain words describing the task."
    )
    max_results: int = Field(
        default=DEFAULT_MAX_RESULTS,
        ge=1,
        le=MAX_RESULTS,
        description="Maximum number of tools to return (default 5).",
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolSearchOutput:
    """The tools a search found (full definitions, best first)."""

    query: str
    matches: tuple[ToolSpec, ...] = ()
    scores: tuple[float, ...] = ()
    unknown: tuple[str, ...] = ()
    """Names given to ``select:`` that match no tool."""
    already: tuple[str, ...] = ()
    """Names given to ``select:`` of tools the model can call already (not deferred)."""
    waiting_servers: tuple[str, ...] = ()
    references: bool = False
    """True when the provider expands ``tool_reference`` items (Anthropic)."""

    @property
    def names(self) -> tuple[str, ...]:
        """The matched tools' names."""
        return tuple(m.name for m in self.matches)


def parse_query(query: str) -> tuple[str, list[str], list[str]]:
    """(kind, select names or required terms, remaining words) of a ToolSearch query."""
    text = query.strip()
    if text.lower().startswith("select:"):
        names = [n.strip() for n in text[len("select:") :].split(",") if n.strip()]
        return "select", names, []
    words = text.split()
    required = [w[1:] for w in words if w.startswith("+") and len(w) > 1]
    rest = [w for w in words if not w.startswith("+")]
    if required:
        return "required", required, rest
    return "search", [], rest


def tool_reference_blocks(names: Sequence[str]) -> list[dict[str, str]]:
    """``tool_reference`` items for a ``tool_result`` (APIs that support tool search)."""
    return [ToolReferenceBlock(tool_name=name).to_wire() for name in names]


def definitions_text(specs: Sequence[ToolSpec]) -> str:
    """Definitions as the model reads them: one ``<function>`` JSON object per tool."""
    lines = [
        "<function>"
        + json.dumps(
            {"name": s.name, "description": s.description, "parameters": dict(s.input_schema)},
            ensure_ascii=False,
            default=str,
        )
        + "</function>"
        for s in specs
    ]
    return "<functions>\n" + "\n".join(lines) + "\n</functions>"


class SearchSource(Protocol):
    """What ToolSearch needs of the pool it searches (the deferring tool source)."""

    provider: str
    """The model provider; ``anthropic`` expands ``tool_reference`` items."""

    def deferred_tools(self) -> tuple[Tool[Any, Any], ...]:
        """The tools whose schemas are not sent."""
        ...

    def current_pool(self) -> ToolPool:
        """The pool the model sees now."""
        ...

    def mark_found(self, names: Iterable[str]) -> list[str]:
        """Send these deferred tools' schemas from the next request on."""
        ...

    def waiting_servers(self) -> list[str]:
        """MCP servers still connecting, whose tools may appear later."""
        ...


class ToolSearchTool(Tool[ToolSearchInput, ToolSearchOutput]):
    """Searches the deferred tools of a :class:`SearchSource`."""

    name = "ToolSearch"
    in_background_agents = True
    description = DESCRIPTION
    input_model = ToolSearchInput
    max_result_chars = None

    def __init__(self, source: SearchSource) -> None:
        self.source = source
        self._docs: dict[str, tuple[Tool[Any, Any], SearchDoc]] = {}
        self._index: tuple[tuple[SearchDoc, ...], ToolIndex] | None = None

    @classmethod
    def spec_for_size(cls) -> dict[str, Any]:
        """The wire definition of ToolSearch (for token estimates without a source)."""
        from hands.core.schema import input_json_schema

        return {
            "name": cls.name,
            "description": cls.description,
            "input_schema": input_json_schema(ToolSearchInput),
        }

    def is_read_only(self, input: ToolSearchInput) -> bool:
        return True

    def is_concurrency_safe(self, input: ToolSearchInput) -> bool:
        return True

    def describe_input(self, input: ToolSearchInput) -> str:
        return input.query

    async def call(
        self, input: ToolSearchInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[ToolSearchOutput]:
        if parse_query(input.query)[0] != "select":
            from hands.discovery.ranking.embedding import load_off_the_loop

            await load_off_the_loop()  # the first ranked search: not on the event loop
        return ToolResult(output=self.search(input.query, input.max_results))

    def search(self, query: str, max_results: int = DEFAULT_MAX_RESULTS) -> ToolSearchOutput:
        """Run one query against the source's deferred tools and mark the matches found."""
        deferred = {t.name: t for t in self.source.deferred_tools()}
        kind, names, rest = parse_query(query)
        chosen: list[Tool[Any, Any]] = []
        scores: list[float] = []
        unknown: list[str] = []
        already: list[str] = []
        if kind == "select":
            pool = self.source.current_pool()
            lowered = {n.lower(): t for n, t in deferred.items()}
            for name in names:
                tool = deferred.get(name) or lowered.get(name.lower())
                loaded = pool.find(name) if tool is None else None
                if loaded is not None and loaded.name not in already:
                    already.append(loaded.name)
                elif tool is None and loaded is None:
                    unknown.append(name)
                elif tool is not None and tool not in chosen:
                    chosen.append(tool)
                    scores.append(1.0)
        else:
            index = self._index_of(list(deferred.values()))
            required = names if kind == "required" else []
            for ranked in index.search(" ".join(rest), max_results, required=required):
                chosen.append(deferred[ranked.name])
                scores.append(ranked.score)
        self.source.mark_found([t.name for t in chosen])
        waiting = () if chosen else tuple(self.source.waiting_servers())
        return ToolSearchOutput(
            query=query,
            matches=tuple(t.spec() for t in chosen),
            scores=tuple(scores),
            unknown=tuple(unknown),
            already=tuple(already),
            waiting_servers=waiting,
            references=self.source.provider == "anthropic",
        )

    def _index_of(self, tools: Sequence[Tool[Any, Any]]) -> ToolIndex:
        """The index over ``tools``, kept from the last query while they stay the same.

        A deferred tool's search document is built once and reused while the pool holds
        the same tool object; so is the index while the deferred tools do not change.
        """
        from hands.discovery.ranking.ranking import doc_for, index_for

        docs: list[SearchDoc] = []
        for tool in tools:
            known = self._docs.get(tool.name)
            if known is None or known[0] is not tool:
                doc = doc_for(
                    tool.name,
                    tool.description,
                    tool.input_schema,
                    server=str(getattr(tool, "server", "") or ""),
                    hint=tool.search_hint,
                )
                known = (tool, doc)
                self._docs[tool.name] = known
            docs.append(known[1])
        key = tuple(docs)
        if self._index is None or self._index[0] != key:
            self._index = (key, index_for(key))
        return self._index[1]

    def to_content(self, output: ToolSearchOutput) -> Content:
        loaded = (
            f"Already loaded, call directly: {', '.join(output.already)}." if output.already else ""
        )
        if not output.matches and loaded:
            unknown = f" Unknown names: {', '.join(output.unknown)}." if output.unknown else ""
            return loaded + unknown
        if not output.matches:
            if not any(ch.isalnum() for ch in output.query):
                return EMPTY_QUERY
            text = NO_MATCH
            if output.unknown:
                text += f" (no tool named {', '.join(output.unknown)})"
            if output.waiting_servers:
                text += (
                    ". MCP servers still connecting: "
                    + ", ".join(output.waiting_servers)
                    + "; their tools may appear once they are ready, so search again later."
                )
            else:
                text += ". Try other words, or select:Name with a name from the list."
            return text
        count = len(output.matches)
        head = (
            f"Found {count} tool{'s' if count != 1 else ''}: {', '.join(output.names)}. "
            "They are loaded and can be called from your next message on."
        )
        if output.unknown:
            head += f" Unknown names: {', '.join(output.unknown)}."
        if loaded:
            head += f" {loaded}"
        if output.references:
            # the API expands each reference into the tool's full definition
            return (
                TextBlock(text=head),
                *(ToolReferenceBlock(tool_name=name) for name in output.names),
            )
        return head + "\n" + definitions_text(output.matches)

    def render_result(self, output: ToolSearchOutput) -> Any:
        from hands.core.render import result_text

        found = ", ".join(output.names) if output.matches else NO_MATCH
        return result_text(found)
