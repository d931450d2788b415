"""Monitor: a command's lines arrive as events, through ``hands -p`` and in a session."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from websockets.sync.server import ServerConnection, serve
from websockets.typing import Subprotocol

from print_session import print_run, tool_results, tool_use


def heard(home: Path) -> str:
    """The session's transcript: what the model was given, notices included."""
    (transcript,) = (home / "projects").rglob("*.jsonl")
    return "\n".join(
        json.dumps(json.loads(line)["message"]["content"]).encode().decode("unicode_escape")
        for line in transcript.read_text().splitlines()
        if '"message"' in line
    )


def notices(lines: list[dict[str, object]]) -> list[tuple[object, object]]:
    """(status, summary) of the stream's task notifications."""
    return [
        (line["status"], line["summary"])
        for line in lines
        if line.get("type") == "system" and line.get("subtype") == "task_notification"
    ]


def test_a_commands_lines_come_as_events_then_its_end(tmp_path: Path, hands_home: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    command = "printf 'ready on 8080\\nlistening\\n'; printf 'no newline at the end'"
    lines = print_run(
        project,
        [tool_use("Monitor", description="server start", command=command, timeout_ms=60000)],
        "--permission-mode",
        "bypassPermissions",
        closing="ok",
        answers=4,
    )
    assert "Monitor" in lines[0]["tools"]
    (started,) = tool_results(lines)
    assert not started["is_error"], started["text"]
    assert 'Watching "server start" as task b' in started["text"]
    events = notices(lines)
    assert [status for status, _ in events][-1] == "completed"
    assert all(status == "running" for status, _ in events[:-1]) and len(events) >= 2
    assert all('Monitor "server start"' in str(summary) for _, summary in events[:-1])
    text = heard(hands_home)
    assert "ready on 8080\nlistening" in text and "no newline at the end" in text
    assert text.index("no newline at the end") < text.index("is over")
    assert "[hands: exit code" not in text.split("is over")[0]
    assert lines[-1]["type"] == "result" and lines[-1]["subtype"] == "success"


def test_timeout_stops_the_command_and_says_so(tmp_path: Path, hands_home: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    lines = print_run(
        project,
        [tool_use("Monitor", description="never ends", command="echo tick; exec sleep 60",
                  timeout_ms=1000)],
        "--permission-mode", "bypassPermissions", answers=4,
    )  # fmt: skip
    assert notices(lines)[-1][0] == "killed"
    assert "tick" in heard(hands_home)


def test_a_websocket_asks_a_bad_one_or_no_command_is_refused_a_command_asks_like_bash(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "README.md").write_text("x")
    lines = print_run(
        project,
        [
            tool_use("Monitor", description="socket", ws={"url": "wss://example.com"}),
            tool_use("Monitor", description="bad", ws={"url": "https://user:pw@example.com"}),
            tool_use("Monitor", description="both", ws={"url": "ws://h"}, command="ls"),
            tool_use("Monitor", description="nothing"),
            tool_use("Monitor", description="writes", command="touch made.txt"),
            tool_use("Monitor", description="reads", command="cat README.md", timeout_ms=5000),
        ],
        answers=4,
    )
    ws, bad, both, nothing, writes, reads = tool_results(lines)
    assert ws["is_error"] and "nobody is available to approve" in ws["text"]
    assert "wss://example.com" in ws["text"]
    assert bad["is_error"] and "not a WebSocket URL" in bad["text"]
    assert both["is_error"] and "not both" in both["text"]
    assert nothing["is_error"] and "Give the command" in nothing["text"]
    assert writes["is_error"] and "nobody is available to approve" in writes["text"]
    assert not (project / "made.txt").exists()
    assert not reads["is_error"], reads["text"]  # a read-only command runs without asking
    assert json.dumps(lines[-1]).count("success") >= 1


def test_the_commands_meet_the_bash_rules(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "README.md").write_text("x\n")
    settings = tmp_path / "settings.json"
    settings.write_text(
        json.dumps({"permissions": {"deny": ["Bash(tail:*)"], "allow": ["Bash(touch:*)"]}})
    )
    lines = print_run(
        project,
        [
            tool_use("Monitor", description="log", command="tail -n 1 README.md"),
            tool_use("Monitor", description="make", command="touch made.txt", timeout_ms=5000),
        ],
        "--settings",
        str(settings),
        answers=4,
    )
    denied, allowed = tool_results(lines)
    assert denied["is_error"] and "Bash(tail:*)" in denied["text"]
    assert not allowed["is_error"], allowed["text"]


def test_a_websockets_frames_come_as_events_and_its_close_ends_the_watch(
    tmp_path: Path, hands_home: Path
) -> None:
    """A real websockets server on loopback: two text frames, a binary one, then a close."""
    offered: list[str | None] = []

    def talk(socket: ServerConnection) -> None:
        offered.append(socket.subprotocol)
        socket.send("build started")
        socket.send("line one\nline two")
        socket.send(b"\x00\x01\x02")
        socket.close(1000, "build finished")

    with serve(talk, "127.0.0.1", 0, subprotocols=[Subprotocol("events.v1")]) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        port = server.socket.getsockname()[1]
        ws = {"url": f"ws://127.0.0.1:{port}/feed", "protocols": ["events.v1"]}
        lines = print_run(
            project_in(tmp_path),
            [tool_use("Monitor", description="build feed", ws=ws, timeout_ms=60000)],
            "--allowedTools",
            "Monitor",
            answers=4,
        )
        server.shutdown()
    (started,) = tool_results(lines)
    assert not started["is_error"], started["text"]
    assert offered == ["events.v1"]
    events = notices(lines)
    assert events[-1][0] == "completed"
    assert all(status == "running" for status, _ in events[:-1]) and len(events) >= 2
    text = heard(hands_home)
    for line in ("build started", "line one\\nline two", "[binary frame: 3 bytes]",
                 "[WebSocket closed: 1000 build finished]"):  # fmt: skip
        assert line in text, (line, text)
    assert text.index("build started") < text.index("[WebSocket closed")


def project_in(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    return project
