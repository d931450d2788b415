"""``hands tools search QUERY``: rank the tool pool (or a catalogue file) for a request.

Mounted with ``tools_app.command("search")(search_command)``. Only typer is imported at
module level; the ranker (and, for the live pool, the MCP SDK) loads when it runs.

The catalogue file is a JSON list of tool definitions (``name``, ``description``,
``inputSchema``) or an MCP ``tools/list`` result (``{"tools": [...]}``); names are taken
as given. Without one, the pool is the built-in tools plus the project's MCP servers'
tools (from the tool-list cache where a server has one; other servers are connected
for the listing and closed again).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer

if TYPE_CHECKING:
    from hands.discovery.ranking.ranking import SearchDoc


def load_catalog(path: Path) -> list[SearchDoc]:
    """The tools of a catalogue file, as ranker documents."""
    from hands.discovery.ranking.ranking import doc_for

    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise typer.BadParameter(f"cannot read --catalog {path}: {exc}") from None
    if isinstance(data, Mapping) and "tools" in data:
        data = cast(Mapping[str, Any], data)["tools"]
    if not isinstance(data, list):
        raise typer.BadParameter(
            "--catalog must hold a JSON list of tools or an object with a 'tools' list"
        )
    docs: list[SearchDoc] = []
    for item in cast(list[object], data):
        if not isinstance(item, Mapping):
            continue
        tool = cast(Mapping[str, Any], item)
        name = tool.get("name")
        if not isinstance(name, str) or not name:
            continue
        schema = tool.get("inputSchema", tool.get("input_schema"))
        meta = tool.get("_meta")
        hint = ""
        if isinstance(meta, Mapping):
            raw = cast(Mapping[str, Any], meta).get("anthropic/searchHint")
            hint = raw if isinstance(raw, str) else ""
        description = tool.get("description")
        server = tool.get("server")
        docs.append(
            doc_for(
                name,
                description if isinstance(description, str) else "",
                cast(Mapping[str, Any], schema) if isinstance(schema, Mapping) else None,
                server=server if isinstance(server, str) else "",
                hint=hint,
            )
        )
    return docs


def current_pool_docs(cwd: Path) -> list[SearchDoc]:
    """Built-in tools plus the project's MCP tools, as ranker documents."""
    import anyio

    from hands.discovery.ranking.ranking import doc_for

    async def collect() -> list[SearchDoc]:
        from hands.mcp.setup import build_manager
        from hands.mcp.tool_cache import ToolListCache
        from hands.pipeline.pool import pool_for

        manager, _ = build_manager(cwd, tool_cache=ToolListCache())
        tools = list(pool_for())
        async with anyio.create_task_group():
            manager.start(lazy=True)
            try:
                await manager.wait_ready(limit=min(10.0, manager.settings.startup_timeout_s))
                tools.extend(manager.tools())
            finally:
                await manager.aclose()
        return [
            doc_for(
                t.name,
                t.description,
                t.input_schema,
                server=str(getattr(t, "server", "") or ""),
                hint=t.search_hint,
            )
            for t in tools
        ]

    return anyio.run(collect)


def search_command(
    query: Annotated[str, typer.Argument(help="What the tool should do, in plain words.")],
    catalog: Annotated[
        Path | None,
        typer.Option(
            "--catalog",
            help="A JSON file of tool definitions, or an MCP tools/list result.",
        ),
    ] = None,
    max_results: Annotated[
        int, typer.Option("--max-results", min=1, help="How many tools to show.")
    ] = 5,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print a JSON list (name, score), best first.")
    ] = False,
    cwd: Annotated[
        Path | None,
        typer.Option("--cwd", help="Project directory for the MCP servers (default: here)."),
    ] = None,
) -> None:
    """Rank the tools for QUERY, as ToolSearch would."""
    from hands.discovery.ranking.ranking import ToolIndex
    from hands.discovery.tool_search import parse_query

    docs = (
        load_catalog(catalog)
        if catalog is not None
        else current_pool_docs((cwd or Path.cwd()).resolve())
    )
    index = ToolIndex(docs)
    kind, names, rest = parse_query(query)
    if kind == "select":
        by_name = {d.name: d for d in docs}
        ranked = [(n, 1.0) for n in names if n in by_name]
    else:
        required = names if kind == "required" else []
        ranked = [
            (r.name, r.score) for r in index.search(" ".join(rest), max_results, required=required)
        ]
    by_name = {d.name: d for d in docs}
    rows = [_row(by_name[name], score) for name, score in ranked[:max_results]]
    if as_json:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    if not rows:
        typer.echo("No matching tools found.")
        raise typer.Exit(1)
    width = max(len(r["name"]) for r in rows)
    for row in rows:
        typer.echo(f"{row['score']:>8.2f}  {row['name']:<{width}}  {row['hint']}")


def _row(doc: SearchDoc, score: float) -> dict[str, Any]:
    from hands.discovery.deferral import short_hint

    return {
        "name": doc.name,
        "score": score,
        "server": doc.server,
        "hint": short_hint(doc.hint or doc.description),
    }
