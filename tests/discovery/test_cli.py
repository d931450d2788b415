"""``hands tools search`` over a catalogue file."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from hands.cli.search import search_command

app = typer.Typer()
app.command()(search_command)

TOOLS = [
    {"name": "create_pull_request", "description": "Open new pull request", "inputSchema": {}},
    {"name": "get_current_time", "description": "Get current time in a timezone"},
    {
        "name": "deploy",
        "description": "Ship",
        "_meta": {"anthropic/searchHint": "release to production"},
    },
]


def test_search_a_list_catalogue_as_json(tmp_path: Path) -> None:
    catalog = tmp_path / "tools.json"
    catalog.write_text(json.dumps(TOOLS))
    result = CliRunner().invoke(
        app, ["open a pull request", "--catalog", str(catalog), "--json", "--max-results", "2"]
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert rows[0]["name"] == "create_pull_request" and rows[0]["score"] > 0
    assert len(rows) <= 2


def test_search_a_tools_list_result_as_text(tmp_path: Path) -> None:
    catalog = tmp_path / "list.json"
    catalog.write_text(json.dumps({"tools": TOOLS}))
    result = CliRunner().invoke(app, ["release to production", "--catalog", str(catalog)])
    assert result.exit_code == 0, result.output
    assert result.output.split()[1] == "deploy"
    none = CliRunner().invoke(app, ["zzzz", "--catalog", str(catalog)])
    assert none.exit_code == 1 and "No matching" in none.output


def test_bad_catalogue(tmp_path: Path) -> None:
    catalog = tmp_path / "bad.json"
    catalog.write_text("{}")
    result = CliRunner().invoke(app, ["x", "--catalog", str(catalog)])
    assert result.exit_code != 0
