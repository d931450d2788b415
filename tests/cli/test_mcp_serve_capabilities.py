"""``hands mcp serve``'s resources, completion, prompts and logging, with the SDK's client.

The server is the real one (``build_bridge`` + ``build_server``: project settings, the
permission engine, ripgrep), connected in-process to the MCP SDK's ``Client``.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands.cli.mcp_serve import build_bridge, build_server
from hands.cli.mcp_serve_resources import PAGE_SIZE


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "src" / "app.py").write_text("print('hi')\n")
    (project / "notes.md").write_text("# notes\n")
    (project / "logo.bin").write_bytes(bytes(range(256)))
    (project / "secret.txt").write_text("top secret\n")
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"deny": ["Read(./secret.txt)"]}})
    )
    (tmp_path / "outside.txt").write_text("not offered\n")
    return project


async def _with_client(project: Path, body: Any, **client_args: Any) -> None:
    from mcp import Client

    bridge = build_bridge(cwd=project)
    async with Client(build_server(bridge), mode="legacy", **client_args) as client:
        await body(client)
    await bridge.session.aclose()


def test_capabilities_advertise_what_is_served(tmp_path: Path) -> None:
    async def body(client: Any) -> None:
        caps = client.server_capabilities
        assert caps.tools is not None
        assert caps.resources is not None and not caps.resources.subscribe
        assert caps.prompts is not None
        assert caps.logging is not None
        assert caps.completions is not None
        assert (await client.list_prompts()).prompts == []

    anyio.run(_with_client, _project(tmp_path), body)


def test_prompts_get_answers_an_unknown_prompt_not_an_unknown_method(tmp_path: Path) -> None:
    from mcp.shared.exceptions import MCPError
    from mcp_types import INVALID_PARAMS, METHOD_NOT_FOUND

    async def body(client: Any) -> None:
        with pytest.raises(MCPError) as caught:
            await client.get_prompt("test_simple_prompt")
        assert caught.value.code == INVALID_PARAMS != METHOD_NOT_FOUND
        assert "test_simple_prompt" in caught.value.message
        assert "no prompts" in caught.value.message

    anyio.run(_with_client, _project(tmp_path), body)


def test_resources_list_the_files_a_read_may_see(tmp_path: Path) -> None:
    project = _project(tmp_path)

    async def body(client: Any) -> None:
        listed = await client.list_resources()
        names = {r.name: r for r in listed.resources}
        assert {"src/app.py", "notes.md", "logo.bin"} <= set(names)
        assert "secret.txt" not in names  # Read(./secret.txt) is denied
        assert str(names["notes.md"].uri) == (project / "notes.md").resolve().as_uri()
        assert names["notes.md"].size == len("# notes\n")
        assert listed.next_cursor is None

    anyio.run(_with_client, project, body)


def test_resources_read_text_and_binary_and_refuse_denied_and_outside(tmp_path: Path) -> None:
    from mcp.shared.exceptions import MCPError

    project = _project(tmp_path).resolve()

    async def body(client: Any) -> None:
        text = await client.read_resource((project / "src" / "app.py").as_uri())
        (content,) = text.contents
        assert content.text == "print('hi')\n"
        assert content.mime_type == "text/x-python"
        binary = await client.read_resource((project / "logo.bin").as_uri())
        import base64

        assert base64.b64decode(binary.contents[0].blob) == bytes(range(256))
        for uri, said in [
            ((project / "secret.txt").as_uri(), "permission rules"),
            ((project.parent / "outside.txt").as_uri(), "outside the working directories"),
            ((project / "src" / ".." / ".." / "outside.txt").as_uri(), "outside"),
            ((project / "missing.txt").as_uri(), "No file"),
            ("test://static-text", "file:/// URIs only"),
        ]:
            with pytest.raises(MCPError) as caught:
                await client.read_resource(uri)
            assert said in caught.value.message, uri

    anyio.run(_with_client, project, body)


def test_resources_list_pages(tmp_path: Path) -> None:
    project = _project(tmp_path)
    many = project / "many"
    many.mkdir()
    for i in range(PAGE_SIZE + 20):
        (many / f"f{i:03}.txt").write_text(str(i))

    async def body(client: Any) -> None:
        from mcp_types import PaginatedRequestParams

        seen: list[str] = []
        cursor: str | None = None
        pages = 0
        while True:
            params = PaginatedRequestParams(cursor=cursor) if cursor else None
            page = await client.session.list_resources(params=params)
            pages += 1
            seen.extend(r.name for r in page.resources)
            cursor = page.next_cursor
            if not cursor:
                break
        assert pages == 2
        assert len(seen) == len(set(seen))
        assert {f"many/f{i:03}.txt" for i in range(PAGE_SIZE + 20)} <= set(seen)

    anyio.run(_with_client, project, body)


def test_template_and_path_completion(tmp_path: Path) -> None:
    project = _project(tmp_path).resolve()

    async def body(client: Any) -> None:
        from mcp_types import PromptReference, ResourceTemplateReference

        templates = await client.list_resource_templates()
        (template,) = templates.resource_templates
        assert template.uri_template == "file:///{path}"
        prefix = str(project / "s").lstrip("/")
        done = await client.complete(
            ResourceTemplateReference(type="ref/resource", uri="file:///{path}"),
            {"name": "path", "value": prefix},
        )
        values = done.completion.values
        assert str(project / "src" / "app.py").lstrip("/") in values
        assert str(project / "secret.txt").lstrip("/") not in values  # denied
        nothing = await client.complete(
            PromptReference(type="ref/prompt", name="none"), {"name": "x", "value": ""}
        )
        assert nothing.completion.values == []

    anyio.run(_with_client, project, body)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # logging is deprecated in 2026-07-28
def test_tool_calls_are_logged_at_the_level_asked(tmp_path: Path) -> None:
    project = _project(tmp_path)
    logs: list[Any] = []

    async def on_log(params: Any) -> None:
        logs.append(params)

    async def body(client: Any) -> None:
        await client.call_tool("Glob", {"pattern": "*.md"})
        assert [p.level for p in logs] == ["info"]
        assert logs[0].data == {"event": "result", "tool": "Glob", "is_error": False}
        logs.clear()
        await client.set_logging_level("debug")
        await client.call_tool("Read", {"file_path": str(project / "secret.txt")})
        assert [p.level for p in logs] == ["debug", "warning"]
        assert logs[1].data["is_error"] is True
        logs.clear()
        await client.set_logging_level("error")
        await client.call_tool("Glob", {"pattern": "*.md"})
        assert logs == []

    anyio.run(functools.partial(_with_client, project, body, logging_callback=on_log))
