from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from support import tool_results

HEAVY = (
    "anthropic",
    "openai",
    "mcp",
    "tree_sitter",
    "tree_sitter_bash",
    "pypdf",
    "PIL",
    "playwright",
    "nbformat",
    "wordllama",  # ToolSearch's embedding model: loaded on the first search
    "tokenizers",
    "safetensors",
)


def hands(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hands", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )


def write_script(path: Path, turns: list) -> Path:
    path.write_text(json.dumps({"turns": turns}))
    return path


def test_tools_json_is_sorted_and_complete() -> None:
    proc = hands("tools", "--json")
    assert proc.returncode == 0, proc.stderr
    tools = json.loads(proc.stdout)
    names = [t["name"] for t in tools]
    assert names == sorted(names)
    for t in tools:
        assert set(t) >= {"name", "aliases", "description", "flags", "input_schema"}
        assert t["input_schema"]["type"] == "object"


def test_tools_off_a_terminal_prints_whole_names_one_tool_a_line() -> None:
    listed = hands("tools")
    assert listed.returncode == 0, listed.stderr
    rows = [line.split("\t") for line in listed.stdout.splitlines()]
    assert rows[0] == ["name", "read-only", "concurrency-safe", "aliases", "parameters"]
    names = [t["name"] for t in json.loads(hands("tools", "--json").stdout)]
    assert [row[0] for row in rows[1:]] == names
    assert "AskUserQuestion" in names and "…" not in listed.stdout
    assert all(len(row) == 5 for row in rows)


def test_tool_unknown_name_is_an_error_result(tmp_path: Path) -> None:
    proc = hands("tool", "NoSuchTool", "{}", "--cwd", str(tmp_path), "--json")
    assert proc.returncode == 1
    block = json.loads(proc.stdout)
    assert block["type"] == "tool_result" and block["is_error"] is True
    assert "There is no tool named NoSuchTool in this session" in block["content"]
    assert set(block) == {"type", "tool_use_id", "content", "is_error"}


def test_tool_rejects_invalid_json() -> None:
    proc = hands("tool", "Read", "{not json")
    assert proc.returncode == 2
    assert "not valid JSON" in proc.stderr


def test_print_mode_stream_json(tmp_path: Path) -> None:
    script = write_script(
        tmp_path / "s.json",
        [
            {
                "blocks": [
                    {"type": "text", "text": "Trying."},
                    {"type": "tool_use", "name": "Ghost", "input": {}},
                ]
            },
            {"blocks": [{"type": "text", "text": "No ghost here."}]},
        ],
    )
    proc = hands(
        "-p",
        "find the ghost",
        "--model",
        f"scripted:{script}",
        "--cwd",
        str(tmp_path),
        "--output-format",
        "stream-json",
    )
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    kinds = [(o["type"], o.get("subtype")) for o in lines]
    assert kinds == [
        ("system", "init"),
        ("assistant", None),
        ("assistant", None),
        ("user", None),
        ("assistant", None),
        ("result", "success"),
    ]
    assert lines[0]["cwd"] == str(tmp_path)
    assert lines[2]["message"]["content"][0]["type"] == "tool_use"
    user = lines[3]["message"]
    assert user["role"] == "user"
    assert user["content"][0]["tool_use_id"] == lines[2]["message"]["content"][0]["id"]
    assert user["content"][0]["is_error"] is True
    assert lines[-1]["result"] == "No ghost here." and lines[-1]["num_turns"] == 2


def test_print_mode_text_and_json(tmp_path: Path) -> None:
    script = write_script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "Hello."}]}])
    text = hands("-p", "hi", "--model", f"scripted:{script}")
    assert text.returncode == 0 and text.stdout == "Hello.\n"
    as_json = hands("-p", "hi", "--model", f"scripted:{script}", "--output-format", "json")
    result = json.loads(as_json.stdout)
    assert (
        result["type"] == "result" and result["result"] == "Hello." and result["is_error"] is False
    )


def test_missing_or_bad_model_is_a_clear_error(tmp_path: Path) -> None:
    proc = hands("-p", "hi")
    assert proc.returncode == 2 and "No model is configured" in proc.stderr
    proc = hands("-p", "hi", "--model", f"scripted:{tmp_path / 'missing.json'}")
    assert proc.returncode == 2 and "cannot read model script" in proc.stderr
    proc = hands("-p", "hi", "--model", "llama:7b")
    assert proc.returncode == 2 and "unknown model" in proc.stderr


def test_bad_permission_mode_is_refused(tmp_path: Path) -> None:
    proc = hands("tool", "Read", "{}", "--permission-mode", "yolo")
    assert proc.returncode == 2 and "unknown permission mode" in proc.stderr


def test_import_has_no_side_effects_and_loads_nothing_heavy(tmp_path: Path) -> None:
    code = (
        "import sys, hands; from hands import tool, query, ToolContext; "
        f"print([m for m in {HEAVY!r} if m in sys.modules])"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"HANDS_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
    assert proc.stderr == ""
    assert list(tmp_path.iterdir()) == []  # nothing created, not even HANDS_HOME


def test_permission_flags_and_settings_are_honoured(tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("s3cret\n")
    (tmp_path / "open.txt").write_text("hello\n")
    settings = json.dumps({"permissions": {"deny": ["Read(./secret.txt)"]}})
    denied = hands(
        "tool",
        "Read",
        json.dumps({"file_path": str(tmp_path / "secret.txt")}),
        "--cwd",
        str(tmp_path),
        "--settings",
        settings,
        "--json",
    )
    assert denied.returncode == 1
    block = json.loads(denied.stdout)
    assert block["is_error"] and "Read(./secret.txt)" in block["content"]
    assert "s3cret" not in block["content"]
    ok = hands(
        "tool",
        "Read",
        json.dumps({"file_path": str(tmp_path / "open.txt")}),
        "--cwd",
        str(tmp_path),
        "--settings",
        settings,
    )
    assert ok.returncode == 0 and "hello" in ok.stdout
    gone = hands(
        "tool",
        "Write",
        json.dumps({"file_path": str(tmp_path / "x"), "content": "x"}),
        "--cwd",
        str(tmp_path),
        "--disallowedTools",
        "Write",
        "--json",
    )
    assert (
        gone.returncode == 1
        and "There is no tool named Write in this session" in json.loads(gone.stdout)["content"]
    )
    assert not (tmp_path / "x").exists()


def test_project_settings_file_is_read(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"deny": ["Bash(rm:*)"]}})
    )
    proc = hands(
        "permissions",
        "check",
        "Bash",
        json.dumps({"command": "rm -rf build"}),
        "--cwd",
        str(tmp_path),
        "--json",
    )
    assert proc.returncode == 0, proc.stderr
    decision = json.loads(proc.stdout)
    assert decision["behavior"] == "deny"
    assert "Bash(rm:*)" in json.dumps(decision)


def test_tool_command_starts_without_the_cli_framework(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello\n")
    data = json.dumps({"file_path": str(tmp_path / "a.txt")})
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "hands", "tool", "Read", data],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and proc.stdout == "1\thello\n"
    imported = {line.split("|")[-1].strip() for line in proc.stderr.splitlines()}
    assert "hands.cli.one_call" in imported
    assert not {m for m in imported if m.split(".")[0] in ("typer", "rich", *HEAVY)}


def test_tool_help_and_the_full_cli_agree(tmp_path: Path) -> None:
    fast = hands("tool", "--help")
    assert fast.returncode == 0 and "--allowedTools" in fast.stdout
    listed = hands("--help")
    assert "Run one tool call through the whole pipeline" in listed.stdout
    (tmp_path / "a.txt").write_text("x\n")
    data = json.dumps({"file_path": str(tmp_path / "a.txt")})
    argv = ["hands", "tool", "Read", data]
    code = f"import sys; from hands.cli.app import app; sys.argv = {argv!r}; app()"
    via_app = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert via_app.returncode == 0 and via_app.stdout == "1\tx\n"


def test_a_damaged_pdf_reads_without_library_noise_on_stderr(tmp_path: Path) -> None:
    import io

    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(100, 100)
    buffer = io.BytesIO()
    writer.write(buffer)
    data = buffer.getvalue()
    damaged = data[: data.rfind(b"startxref")] + b"startxref\n12\n%%EOF\n"  # a wrong offset
    (tmp_path / "bad.pdf").write_bytes(damaged)
    proc = hands(
        "tool", "Read", json.dumps({"file_path": str(tmp_path / "bad.pdf")}), "--cwd", str(tmp_path)
    )
    assert proc.returncode == 0, proc.stderr
    assert "1 page;" in proc.stdout
    assert proc.stderr == ""


def test_sessions_list_time_first_prompt_turns_and_size(tmp_path: Path, hands_home: Path) -> None:
    script = write_script(
        tmp_path / "s.json",
        [
            {"blocks": [{"type": "text", "text": "one"}]},
            {"blocks": [{"type": "text", "text": "two"}]},
        ],
    )
    first = hands("-p", "a first question", "--model", f"scripted:{script}", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    listed = hands("sessions", cwd=tmp_path).stdout.splitlines()
    assert len(listed) == 1 and "a first question" in listed[0] and "1 turn" in listed[0]
    session_id = listed[0].split()[0]
    # a crashed run's empty transcript is not listed
    directory = next((hands_home / "projects").iterdir())
    (directory / "0000dead.jsonl").write_bytes(b"")
    assert len(hands("sessions", cwd=tmp_path).stdout.splitlines()) == 1
    # -r followed by another option has no id: -p is not taken for one
    bare = hands("-r", "-p", "again", "--model", f"scripted:{script}", cwd=tmp_path)
    assert bare.returncode == 2 and "--resume without an id" in bare.stderr
    again = hands("-r", session_id, "-p", "again", "--model", f"scripted:{script}", cwd=tmp_path)
    assert again.returncode == 0 and again.stdout.strip() == "one", again.stderr
    listed = hands("sessions", cwd=tmp_path).stdout.splitlines()
    assert "2 turns" in listed[0] and "a first question" in listed[0]


def _tool(tmp_path: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hands", "tool", *args, "--cwd", str(tmp_path)],
        capture_output=True, text=True, timeout=60, input=stdin,
    )  # fmt: skip


def test_tool_reads_a_large_input_from_stdin(tmp_path: Path) -> None:
    content = "line\n" * 50_000  # 250 KB: over what one argument may hold
    target = tmp_path / "big.txt"
    data = json.dumps({"file_path": str(target), "content": content})
    proc = _tool(tmp_path, "Write", "-", stdin=data)
    assert proc.returncode == 0, proc.stderr
    assert target.read_text() == content


def test_tool_session_keeps_what_read_saw_between_calls(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("alpha\nbeta\n")
    edit = json.dumps({"file_path": str(notes), "old_string": "beta", "new_string": "gamma"})
    read = json.dumps({"file_path": str(notes)})
    assert _tool(tmp_path, "Read", read).returncode == 0
    fresh = _tool(tmp_path, "Edit", edit)  # no session: a new one that never read the file
    assert fresh.returncode == 1 and "was never read in this session" in fresh.stderr
    assert _tool(tmp_path, "Read", read, "--session", "s1").returncode == 0
    done = _tool(tmp_path, "Edit", "-", "--session", "s1", stdin=edit)
    assert done.returncode == 0, done.stderr
    assert notes.read_text() == "alpha\ngamma\n"
    notes.write_text("changed behind our back\n")
    stale = _tool(tmp_path, "Edit", edit, "--session", "s1")
    assert stale.returncode == 1 and "Traceback" not in stale.stderr
    assert notes.read_text() == "changed behind our back\n"
    bad = _tool(tmp_path, "Read", read, "--session", "../escape")
    assert bad.returncode == 2 and "--session" in bad.stderr


def test_an_explicit_settings_or_mcp_config_that_cannot_be_used_stops_the_run(
    tmp_path: Path,
) -> None:
    made = tmp_path / "made.txt"
    script = write_script(
        tmp_path / "s.json",
        [
            {"blocks": [{"type": "tool_use", "name": "Bash",
                         "input": {"command": f"touch {made}"}}]},
            {"blocks": [{"type": "text", "text": "done"}]},
        ],
    )  # fmt: skip
    broken = tmp_path / "broken.json"
    broken.write_text('{"permissions": {"deny": ["Bash"]')
    missing = tmp_path / "missing.json"
    run = ("-p", "go", "--model", f"scripted:{script}", "--permission-mode", "bypassPermissions")
    for flag, value, says in (
        ("--settings", str(broken), "not valid JSON (line 1"),
        ("--settings", str(missing), "cannot be read"),
        ("--settings", '{"permissions": ', "not valid JSON"),
        ("--mcp-config", str(broken), "not valid JSON"),
        ("--mcp-config", str(missing), "No such file"),
    ):
        proc = hands(*run, flag, value, cwd=tmp_path)
        assert proc.returncode == 2, (flag, value, proc.stderr)
        assert says in " ".join(proc.stderr.replace("│", " ").split()), proc.stderr
        assert "Traceback" not in proc.stderr
    proc = hands("tool", "Read", '{"file_path": "x"}', "--settings", str(broken), cwd=tmp_path)
    assert proc.returncode == 2 and str(broken) in proc.stderr
    check = ("permissions", "check", "Bash", '{"command": "rm -rf x"}', "--settings")
    for value, says in ((broken, "not valid JSON (line 1, column 34"), (missing, "cannot be read")):
        for extra in ((), ("--json",)):
            proc = hands(*check, str(value), *extra, cwd=tmp_path)
            shown = " ".join(proc.stderr.replace("│", " ").split())
            assert proc.returncode == 2 and str(value) in shown and says in shown, proc.stderr
            assert proc.stdout == "" and "Traceback" not in proc.stderr
    proc = hands("permissions", "check", "--batch", "--settings", str(broken), cwd=tmp_path)
    assert proc.returncode == 2 and str(broken) in " ".join(proc.stderr.replace("│", " ").split())
    assert not made.exists()  # the lost deny rule never let the command run
    # a broken settings file found by discovery stops the run too, naming line and column
    (tmp_path / ".claude").mkdir()
    found = tmp_path / ".claude" / "settings.local.json"
    found.write_text('{\n  "permissions": {"deny": ["Bash"]\n')
    for command in (run, ("tool", "Read", '{"file_path": "x"}'), ("mcp", "serve")):
        proc = hands(*command, cwd=tmp_path)
        shown = " ".join(proc.stderr.split())
        assert proc.returncode == 2 and f"{found} (line 3, column 1): not valid JSON" in shown
        assert "Traceback" not in proc.stderr
    assert not made.exists()


def test_a_hands_home_that_cannot_hold_sessions_is_one_line_and_exit_2(tmp_path: Path) -> None:
    import os

    script = write_script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "hi"}]}])
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    commands = (
        ("-p", "go", "--model", f"scripted:{script}"),
        ("--model", f"scripted:{script}"),  # the session, with the prompt on stdin
        ("tool", "Read", json.dumps({"file_path": str(script)})),
        ("sessions",),
    )
    # /proc and /sys pass a permission-bits check as root, yet nothing can be made there
    unwritable = (Path("/proc/1/hands-home"), Path("/proc/hands-home"), Path("/sys/hands-home"))
    for home in (a_file, a_file / "below", *unwritable):
        for args in commands:
            proc = subprocess.run(
                [sys.executable, "-m", "hands", *args],
                input="go",
                capture_output=True,
                text=True,
                cwd=tmp_path,
                timeout=60,
                env={**os.environ, "HANDS_HOME": str(home)},
            )
            assert proc.returncode == 2, (home, args, proc.stderr)
            assert len(proc.stderr.splitlines()) == 1 and "HANDS_HOME" in proc.stderr, proc.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "hands", "--version"],
        capture_output=True,
        text=True,
        env={**os.environ, "HANDS_HOME": str(a_file)},
    )
    assert proc.returncode == 0


def test_a_resumed_print_session_reads_its_own_saved_results_and_only_those(
    tmp_path: Path, hands_home: Path
) -> None:
    bash = {"type": "tool_use", "name": "Bash", "input": {"command": "seq 1 30000"}}
    first = write_script(
        tmp_path / "one.json", [{"blocks": [bash]}, {"blocks": [{"type": "text", "text": "ok"}]}]
    )
    proc = hands(
        "-p", "go", "--model", f"scripted:{first}", "--allowedTools", "Bash",
        "--output-format", "json", cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    session_id = json.loads(proc.stdout)["session_id"]
    (saved,) = (hands_home / "sessions" / session_id / "tool-results").glob("*.txt")
    other = hands_home / "sessions" / "someone-else" / "tool-results" / "x.txt"
    other.parent.mkdir(parents=True)
    other.write_text("not yours\n")
    (hands_home / "notes.txt").write_text("hands home\n")
    reads = [
        {"type": "tool_use", "name": "Read", "input": {"file_path": str(path), "limit": 2}}
        for path in (saved, other, hands_home / "notes.txt")
    ]
    second = write_script(
        tmp_path / "two.json", [{"blocks": reads}, {"blocks": [{"type": "text", "text": "ok"}]}]
    )
    proc = hands(
        "-r", session_id, "-p", "go", "--model", f"scripted:{second}",
        "--output-format", "stream-json", cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    results = tool_results(proc.stdout)
    own, others, home = (json.dumps(r) for r in results[-3:])
    assert "30000" not in own and "\\t1" in own and '"is_error": true' not in own
    assert "not yours" not in others and "nobody is available" in others
    assert "hands home" not in home and "nobody is available" in home


def test_permissions_check_of_an_unknown_tool_is_one_line_and_exit_2(tmp_path: Path) -> None:
    for name, says in (("Nope", "no tool named 'Nope'"), ("Bsh", "did you mean Bash?")):
        for extra in ((), ("--json",)):
            proc = hands("permissions", "check", name, "{}", *extra, cwd=tmp_path)
            assert proc.returncode == 2, proc.stderr
            assert proc.stdout == "" and len(proc.stderr.splitlines()) == 1, proc.stderr
            assert says in proc.stderr
    # an MCP tool, or one of Claude Code's own, is decided by the rules that name it
    for name in ("mcp__files__read", "ToolSearch"):
        proc = hands("permissions", "check", name, "{}", "--deny", name, cwd=tmp_path)
        assert proc.returncode == 0 and proc.stdout.startswith("deny"), proc.stderr


def test_the_hands_home_check_writes_to_know_and_leaves_nothing(tmp_path: Path) -> None:
    from hands.cli.home_check import home_problem

    home = tmp_path / "home"
    home.mkdir()
    assert home_problem({"HANDS_HOME": str(home)}) is None
    assert home_problem({"HANDS_HOME": str(home / "a" / "b")}) is None
    assert list(home.iterdir()) == []
    problem = home_problem({"HANDS_HOME": "/proc/hands-home"})
    assert problem is not None and "cannot be created in /proc" in problem


def test_mcp_list_names_a_broken_file_and_a_bad_url_and_a_server_that_died(
    tmp_path: Path,
) -> None:
    import os

    env = {**os.environ, "HOME": str(tmp_path), "HANDS_HOME": str(tmp_path / "hands-home")}

    def listed(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "hands", "mcp", "list", "--trust", "--probe", *extra],
            capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60,
        )  # fmt: skip

    config = tmp_path / ".mcp.json"
    config.write_text('{"mcpServers": {"a": {"command": "x"}\n')
    proc = listed()
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith(f"{config}: broken: not valid JSON (line 2, column 1")
    assert "No MCP servers" not in proc.stdout and "Traceback" not in proc.stderr
    shown = json.loads(listed("--json").stdout)
    assert shown["broken_files"][0]["file"] == str(config)
    dies = "echo boom >&2; echo 'last words' >&2; exit 3"
    servers = {
        "web": {"type": "http", "url": "localhost:8080/mcp"},
        "dies": {"command": "sh", "args": ["-c", dies]},
    }
    config.write_text(json.dumps({"mcpServers": servers}))
    proc = listed("--json")
    assert proc.returncode == 0, proc.stderr
    by_name = {s["name"]: s for s in json.loads(proc.stdout)["servers"]}
    web = by_name["web"]
    assert web["state"] == "failed" and web["transport"] == "http"
    assert web["error"].startswith(f"configuration error in {config}: ")
    assert "not a valid URL" in web["error"] and "reconnecting" not in web["error"]
    assert by_name["dies"]["state"] == "failed"
    assert "boom" in by_name["dies"]["error"] and "last words" in by_name["dies"]["error"]


def test_a_usage_error_is_one_line_naming_the_command(tmp_path: Path) -> None:
    broken = tmp_path / ("a-long-folder-name-" * 4) / "broken.json"
    broken.parent.mkdir()
    broken.write_text('{"permissions": ')
    for args, command, says in (
        (("--bogus",), "hands", "--bogus"),
        (("-p", "hi", "--settings", str(broken)), "hands", str(broken)),
        (("permissions", "check", "Bash", "{}", "--settings", str(broken)),
         "hands permissions check", str(broken)),
    ):  # fmt: skip
        proc = hands(*args, cwd=tmp_path)
        assert proc.returncode == 2, proc.stderr
        lines = proc.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"{command}: "), proc.stderr
        assert says in lines[0] and f"({command} -h for help)" in lines[0]
