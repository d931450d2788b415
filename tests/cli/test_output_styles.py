"""Output styles: ``outputStyle`` picks a built-in or a file's style for the system prompt."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hands.agent.options import DEFAULT_SYSTEM_PROMPT
from hands.agent.system_prompt import STYLED_SYSTEM_PROMPT, build_system_prompt
from hands.config.output_styles import chosen_style, load_styles
from models.loopback import LoopbackServer, sse_reply
from models.wire import a_end, a_start, a_text, a_tool
from terminal import Terminal, script, start

STYLE = """---
name: Haiku
description: Answers in haiku
---
Answer every message as a haiku.
"""


def _folders(tmp_path: Path) -> tuple[Path, Path, Path]:
    project, user, home = tmp_path / "project", tmp_path / "user", tmp_path / "hands-home"
    for folder in (project / ".claude" / "output-styles", user / ".claude" / "output-styles"):
        folder.mkdir(parents=True)
    home.mkdir()
    return project, user, home


def test_styles_come_from_the_user_and_a_trusted_project_only(tmp_path: Path) -> None:
    project, user, home = _folders(tmp_path)
    (user / ".claude" / "output-styles" / "haiku.md").write_text(STYLE)
    (project / ".claude" / "output-styles" / "pirate.md").write_text(
        "---\nkeep-coding-instructions: true\n---\nTalk like a pirate.\n"
    )
    (project / ".claude" / "output-styles" / "shadow.md").write_text(
        "---\nname: haiku\n---\nA project style may not replace the user's.\n"
    )
    (project / ".claude" / "output-styles" / "broken.md").write_text("---\nname: [\n---\nx\n")
    trusted = load_styles(project=project, home=user, hands_home=home, trusted=True)
    names = [s.name for s in trusted.styles]
    assert names == ["Default", "Proactive", "Explanatory", "Learning", "Haiku", "pirate"]
    haiku, pirate = trusted.find("HAIKU"), trusted.find("pirate")
    assert haiku is not None and haiku.source == "user" and not haiku.keep_coding_instructions
    assert haiku.prompt == "Answer every message as a haiku." and haiku.description
    assert pirate is not None and pirate.keep_coding_instructions and pirate.source == "project"
    assert any("shadow.md" in w and "exists already" in w for w in trusted.warnings)
    assert any("broken.md" in w for w in trusted.warnings)
    untrusted = load_styles(project=project, home=user, hands_home=home, trusted=False)
    assert untrusted.find("pirate") is None and untrusted.find("Haiku") is not None
    # unknown or unusable settings fall back to the default, saying so
    assert chosen_style(untrusted, None) == (untrusted.styles[0], None)
    assert chosen_style(untrusted, "default")[1] is None
    style, note = chosen_style(untrusted, "pirate")
    assert style.name == "Default" and note is not None and "pirate" in note
    assert chosen_style(untrusted, 3)[1] is not None


def test_a_style_ends_the_system_prompt_and_may_replace_the_coding_base(tmp_path: Path) -> None:
    project, user, home = _folders(tmp_path)
    (user / ".claude" / "output-styles" / "haiku.md").write_text(STYLE)
    catalog = load_styles(project=project, home=user, hands_home=home, trusted=False)
    haiku, explanatory = catalog.find("Haiku"), catalog.find("Explanatory")
    assert haiku is not None and explanatory is not None
    plain = build_system_prompt(cwd=project)
    assert plain.startswith(DEFAULT_SYSTEM_PROMPT) and "<output-style" not in plain
    replaced = build_system_prompt(cwd=project, style=haiku)
    assert replaced.startswith(STYLED_SYSTEM_PROMPT)
    assert replaced.rstrip().endswith("Answer in this output style throughout the conversation.")
    assert '<output-style name="Haiku">\nAnswer every message as a haiku.' in replaced
    kept = build_system_prompt(cwd=project, style=explanatory)
    assert kept.startswith(DEFAULT_SYSTEM_PROMPT) and 'name="Explanatory"' in kept
    own = build_system_prompt(cwd=project, style=haiku, base="Be brief.")
    assert own.startswith("Be brief.")  # a prompt the user gave is never replaced


def _print_hi(project: Path, user: Path, server: LoopbackServer) -> None:
    """``hands -p hi`` in ``project`` with ``user`` as HOME, on the loopback Anthropic API."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "OPENAI_"))}
    env |= {"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": server.url, "NO_PROXY": "127.0.0.1",
            "HOME": str(user)}  # fmt: skip
    proc = subprocess.run(
        [sys.executable, "-m", "hands", "-p", "hi", "--model", "sonnet"],
        capture_output=True, text=True, cwd=project, env=env, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr


def test_print_mode_sends_the_style_the_settings_choose(
    tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    project, user, _ = _folders(tmp_path)
    (user / ".claude" / "output-styles" / "haiku.md").write_text(STYLE)
    (user / ".claude" / "settings.json").write_text(json.dumps({"outputStyle": "Haiku"}))
    server.queue(sse_reply(a_start(input_tokens=10), *a_text(0, "Done."), *a_end(output_tokens=2)))
    _print_hi(project, user, server)
    body = server.requests[0].body
    assert body is not None
    system = json.dumps(body["system"])
    assert "Answer every message as a haiku." in system
    assert "You are a coding agent" not in system


def _requests_with_style(tmp_path: Path, server: LoopbackServer, style: str | None) -> list[str]:
    """Two requests (a Bash call, then text) under ``style``; each request's last message."""
    project, user, _ = _folders(tmp_path)
    (user / ".claude" / "output-styles" / "haiku.md").write_text(STYLE)
    if style is not None:
        (user / ".claude" / "settings.json").write_text(json.dumps({"outputStyle": style}))
    call = a_tool(0, "toolu_1", "Bash", '{"command": "echo hi"}')
    server.queue(sse_reply(a_start(input_tokens=10), *call, *a_end("tool_use", 5)))
    server.queue(sse_reply(a_start(input_tokens=10), *a_text(0, "Done."), *a_end(output_tokens=2)))
    _print_hi(project, user, server)
    bodies = [r.body for r in server.requests]
    assert len(bodies) == 2 and all(b is not None for b in bodies)
    return [json.dumps(b["messages"]) for b in bodies if b is not None]


def test_a_style_is_recalled_after_tool_results(tmp_path: Path, server: LoopbackServer) -> None:
    first, second = _requests_with_style(tmp_path, server, "Haiku")
    assert "output style" not in first  # the style is in the system prompt already
    assert second.count('The output style \\"Haiku\\" is in force') == 1
    assert second.index("tool_result") < second.index("is in force")


def test_the_default_style_adds_no_reminder(tmp_path: Path, server: LoopbackServer) -> None:
    for messages in _requests_with_style(tmp_path, server, "default"):
        assert "output style" not in messages


def test_output_style_lists_and_saves_for_the_next_session(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "ok"}]}])
    start(terminal, project, hands_home, s, user_home=tmp_path)
    screen = terminal.submit("/output-style", "/output-style NAME")
    assert "● Default" in " ".join(screen.split()) and "Explanatory" in screen
    terminal.wait_for_prompt()
    terminal.submit("/output-style nosuch", "No output style is called 'nosuch'")
    terminal.wait_for_prompt()
    terminal.submit("/output-style learning", "Output style Learning saved in")
    terminal.wait_for_prompt()
    saved = json.loads((project / ".claude" / "settings.local.json").read_text())
    assert saved == {"outputStyle": "Learning"}
