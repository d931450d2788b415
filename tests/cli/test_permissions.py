"""``hands permissions check``: one decision, and a batch of JSON lines."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from hands.cli.permissions import (
    CheckError,
    CheckRequest,
    check_call,
    format_decision,
    run_batch,
)


def env_for(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "home").mkdir(exist_ok=True)
    return {"HOME": str(tmp_path / "home"), "HANDS_MANAGED_SETTINGS": ""}


def test_check_one_call_as_json(tmp_path: Path) -> None:
    request = CheckRequest(
        tool="Bash",
        input={"command": "git push origin main"},
        cwd=tmp_path,
        ask=["Bash(git push:*)"],
    )
    decision, warnings = anyio.run(lambda: check_call(request, env=env_for(tmp_path)))
    record = json.loads(format_decision(decision, as_json=True))
    assert record == {
        "behavior": "ask",
        "reason": "ask rule Bash(git push:*)",
        "rule": "Bash(git push:*)",
        "source": "--ask",
    }
    assert warnings == ()
    text = format_decision(decision, as_json=False)
    assert text.startswith("ask: ask rule") and "rule: Bash(git push:*) (--ask)" in text


def test_check_uses_the_directory_settings(tmp_path: Path) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"permissions": {"deny": ["WebFetch(domain:evil.com)"]}}))
    request = CheckRequest(
        tool="WebFetch", input={"url": "https://evil.com/x", "prompt": "p"}, cwd=tmp_path
    )
    decision, _ = anyio.run(lambda: check_call(request, env=env_for(tmp_path)))
    assert decision.behavior == "deny" and decision.source == str(settings)


def test_check_rejects_bad_mode(tmp_path: Path) -> None:
    request = CheckRequest(tool="Bash", input={"command": "ls"}, cwd=tmp_path, mode="yolo")
    with pytest.raises(CheckError, match="unknown mode"):
        anyio.run(lambda: check_call(request, env=env_for(tmp_path)))


def test_batch_in_order(tmp_path: Path) -> None:
    lines = [
        json.dumps({"tool": "Bash", "input": {"command": "ls"}}),
        json.dumps({"tool": "Bash", "input": {"command": "rm -rf x"}, "deny": ["Bash(rm:*)"]}),
        "",
        json.dumps(
            {
                "tool": "Write",
                "input": {"file_path": str(tmp_path / "a"), "content": ""},
                "mode": "acceptEdits",
            }
        ),
        json.dumps({"tool": "Bash", "input": {"command": "make"}, "mode": "dontAsk"}),
        "not json",
        json.dumps(
            {
                "tool": "Bash",
                "input": {"command": "make"},
                "allow": "Bash(make)",
                "cwd": str(tmp_path),
            }
        ),
    ]

    async def go() -> list[str]:
        return list(await run_batch(lines, default_cwd=tmp_path, env=env_for(tmp_path)))

    out = [json.loads(line) for line in anyio.run(go)]
    assert [o["behavior"] for o in out] == ["allow", "deny", "allow", "deny", "error", "allow"]
    assert out[1]["rule"] == "Bash(rm:*)" and out[1]["source"] == "--disallowedTools"
    assert out[5]["rule"] == "Bash(make)"


def test_a_batch_is_decided_under_the_settings_flag(tmp_path: Path) -> None:
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"permissions": {"deny": ["Bash(ls:*)"]}}))
    lines = [json.dumps({"tool": "Bash", "input": {"command": "ls"}})]

    async def go(settings: str | None) -> list[str]:
        env = env_for(tmp_path)
        return list(await run_batch(lines, default_cwd=tmp_path, env=env, settings=settings))

    (plain,) = anyio.run(go, None)
    (denied,) = anyio.run(go, str(rules))
    assert json.loads(plain)["behavior"] == "allow"
    assert json.loads(denied)["behavior"] == "deny" and json.loads(denied)["source"] == str(rules)
    (broken,) = anyio.run(go, '{"permissions": ')
    assert json.loads(broken)["behavior"] == "error" and "not valid JSON" in broken


@pytest.mark.parametrize("legacy", ["View", "NotebookRead"])
def test_a_legacy_name_is_its_tool_and_covers_the_tools_family(tmp_path: Path, legacy: str) -> None:
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "key.txt").write_text("x\n")

    def decide(tool: str, data: dict[str, object]) -> str:
        request = CheckRequest(tool=tool, input=data, cwd=tmp_path, deny=[f"{legacy}(./secret/**)"])
        decision, _ = anyio.run(lambda: check_call(request, env=env_for(tmp_path)))
        return decision.behavior

    assert decide("Read", {"file_path": str(tmp_path / "secret" / "key.txt")}) == "deny"
    assert decide("Grep", {"pattern": "x", "path": "secret/key.txt"}) == "deny"
    assert decide("Glob", {"pattern": "*", "path": "secret/key.txt"}) == "deny"
    assert decide("Read", {"file_path": str(tmp_path / "other.txt")}) == "allow"


@pytest.mark.parametrize("command", ["echo a\rb", "echo a\u200bb", "ls\u00a0-la", "echo a\x00b"])
def test_check_explains_a_command_refused_before_any_decision(tmp_path: Path, command: str) -> None:
    request = CheckRequest(tool="Bash", input={"command": command}, cwd=tmp_path)
    decision, _ = anyio.run(lambda: check_call(request, env=env_for(tmp_path)))
    assert decision.behavior == "deny"
    assert decision.reason.startswith("invalid input")
    text = format_decision(decision, as_json=False)
    assert "refused before any permission decision" in text
    assert "character" in text or "NUL" in text


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ("cat /etc/hostname", "read outside the working directories"),
        ("sha256sum -c sums.txt", "read outside the working directories"),
        ("echo $(ls)", "no rule allows it"),
        ("ls &", "opaque construct"),
        ("git -C . push", "no rule allows it"),
        ("man ls", "no rule allows it"),
        ("ls", "read-only command"),
    ],
)
def test_check_names_the_class_of_each_decision(tmp_path: Path, command: str, reason: str) -> None:
    request = CheckRequest(tool="Bash", input={"command": command}, cwd=tmp_path)
    decision, _ = anyio.run(lambda: check_call(request, env=env_for(tmp_path)))
    assert decision.reason == reason, (decision.reason, decision.message)
