"""WorktreeCreate / WorktreeRemove hooks through ``hands -p``: the hook makes the worktree.

The hooks are real shell scripts that log their input and make the worktree themselves:
``git worktree add`` to a place of their own, or a plain copy for a project that is not
in git (another version control system).
"""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

from print_session import print_run, tool_results, tool_use

from .git_repo import git


def shell_script(path: Path, body: str) -> Path:
    path.write_text("#!/bin/bash\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def hooks_for(**events: Path) -> str:
    """A ``--settings`` object running each script at its event."""
    return json.dumps(
        {
            "hooks": {
                event: [{"hooks": [{"type": "command", "command": str(script)}]}]
                for event, script in events.items()
            }
        }
    )


def logged(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def field(name: str) -> str:
    """Shell that reads the hook's input (in $input) and sets ``$value`` to one field."""
    read = f"import json,sys; print(json.load(sys.stdin)[{name!r}])"
    return f"""input=$(cat)\nvalue=$(printf '%s' "$input" | python3 -c "{read}")\n"""


def git_creator(tmp_path: Path, places: Path) -> Path:
    """Logs its input; ``fail*`` names exit 1, ``quiet*`` print nothing; else git makes it."""
    log = tmp_path / "create.jsonl"
    return shell_script(
        tmp_path / "create.sh",
        field("name")
        + f"""name=$value
printf '%s\\n' "$input" >> {log}
case "$name" in fail*) echo "the store refused $name" >&2; exit 1;; quiet*) exit 0;; esac
git worktree add -q -b "wt-$name" "{places}/$name" HEAD >&2 || exit 3
echo "made $name"
echo "{places}/$name"
""",
    )


def remover(tmp_path: Path) -> Path:
    log = tmp_path / "remove.jsonl"
    return shell_script(
        tmp_path / "remove.sh",
        field("worktree_path")
        + f"""printf '%s\\n' "$input" >> {log}
git worktree remove --force "$value" >&2
""",
    )


def test_the_hook_makes_the_worktree_the_session_enters_and_its_remove_hook_removes_it(
    repo: Path, tmp_path: Path, hands_home: Path
) -> None:
    places = tmp_path / "places"
    settings = hooks_for(
        WorktreeCreate=git_creator(tmp_path, places), WorktreeRemove=remover(tmp_path)
    )
    lines = print_run(
        repo,
        [
            tool_use("EnterWorktree", name="alpha"),
            tool_use("Bash", command="pwd; git branch --show-current"),
            tool_use("ExitWorktree", action="remove"),
            tool_use("ExitWorktree", action="remove", discard_changes=True),
            tool_use("Bash", command="pwd; git worktree list | wc -l"),
        ],
        "--settings",
        settings,
        "--allowedTools",
        "Bash,ExitWorktree",
    )
    entered, where, refused, removed, back = tool_results(lines)
    tree = places / "alpha"
    assert not entered["is_error"], entered["text"]
    assert f"Made the worktree {tree} (branch wt-alpha)" in entered["text"]
    assert where["text"].splitlines()[:2] == [str(tree), "wt-alpha"]
    assert not (hands_home / "worktrees").exists()  # git worktree add was not run by hands
    (create,) = logged(tmp_path / "create.jsonl")
    assert create["hook_event_name"] == "WorktreeCreate" and create["name"] == "alpha"
    assert create["cwd"] == str(repo) and create["session_id"]
    assert "permission_mode" not in create
    # hands cannot tell what a hook's worktree holds: removing it takes discard_changes
    assert refused["is_error"] and "discard_changes" in refused["text"]
    assert not removed["is_error"], removed["text"]
    assert f"Removed the worktree {tree}" in removed["text"]
    (remove,) = logged(tmp_path / "remove.jsonl")  # once: the refused call fired nothing
    assert remove["hook_event_name"] == "WorktreeRemove"
    assert remove["worktree_path"] == str(tree) and remove["cwd"] == str(tree)
    assert not tree.exists()
    assert back["text"].splitlines()[:2] == [str(repo), "1"]
    assert "wt-alpha" in git(repo, "branch")  # the hook's branch is the hook's business


def test_a_failing_hook_or_one_without_a_path_makes_no_worktree(
    repo: Path, tmp_path: Path, hands_home: Path
) -> None:
    places = tmp_path / "places"
    settings = hooks_for(WorktreeCreate=git_creator(tmp_path, places))
    lines = print_run(
        repo,
        [
            tool_use("EnterWorktree", name="failing"),
            tool_use("EnterWorktree", name="quiet"),
            tool_use("Bash", command="pwd; git worktree list | wc -l"),
            tool_use("ExitWorktree", action="keep"),
        ],
        "--settings",
        settings,
        "--allowedTools",
        "Bash",
    )
    failed, quiet, where, nothing = tool_results(lines)
    assert failed["is_error"] and "the store refused failing" in failed["text"]
    assert "exit 1" in failed["text"]
    assert quiet["is_error"] and "gave no worktree path" in quiet["text"]
    assert where["text"].splitlines()[:2] == [str(repo), "1"]
    assert not places.exists() and not (hands_home / "worktrees").exists()
    assert [c["name"] for c in logged(tmp_path / "create.jsonl")] == ["failing", "quiet"]
    assert nothing["is_error"]  # the session never entered a worktree


def test_a_project_outside_git_gets_a_copy_at_a_path_relative_to_the_cwd(
    tmp_path: Path,
) -> None:
    project = tmp_path / "plain"
    project.mkdir()
    (project / "notes.txt").write_text("one\n")
    copier = shell_script(
        tmp_path / "copy.sh",
        field("name")
        + """mkdir -p ../copies && cp -r . "../copies/$value"
echo "../copies/$value"
""",
    )
    lines = print_run(
        project,
        [
            tool_use("EnterWorktree", name="try-1"),
            tool_use("Bash", command="pwd; cat notes.txt; echo two >> notes.txt"),
            tool_use("ExitWorktree", action="remove", discard_changes=True),
            tool_use("ExitWorktree", action="keep"),
            tool_use("Bash", command="pwd; cat notes.txt"),
        ],
        "--settings",
        hooks_for(WorktreeCreate=copier),
        "--allowedTools",
        "Bash,ExitWorktree",
        "--permission-mode",
        "acceptEdits",
    )
    entered, inside, not_removed, kept, back = tool_results(lines)
    copy = tmp_path / "copies" / "try-1"
    assert not entered["is_error"], entered["text"]
    assert f"Made the worktree {copy};" in entered["text"]  # no branch to name
    assert inside["text"].splitlines()[:2] == [str(copy), "one"]
    # no WorktreeRemove hook, and git cannot remove what is not a git worktree
    assert not_removed["is_error"] and "no WorktreeRemove hook" in not_removed["text"]
    assert not kept["is_error"] and f"Left the worktree {copy} on disk." in kept["text"]
    assert back["text"].splitlines() == [str(project), "one"]
    assert (copy / "notes.txt").read_text() == "one\ntwo\n"


def test_an_untrusted_projects_worktree_create_hook_does_not_run(
    repo: Path, tmp_path: Path, hands_home: Path
) -> None:
    canary = tmp_path / "canary"
    hook = shell_script(tmp_path / "evil.sh", f"touch {canary}\necho {tmp_path}\n")
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_text(hooks_for(WorktreeCreate=hook))
    lines = print_run(repo, [tool_use("EnterWorktree", name="beta")])
    (entered,) = tool_results(lines)
    assert not canary.exists()
    assert not entered["is_error"], entered["text"]  # git made it, as without the hook
    assert f"{hands_home / 'worktrees'}" in entered["text"]
    lines = print_run(repo, [tool_use("EnterWorktree", name="gamma")], "--trust")
    (entered,) = tool_results(lines)
    assert canary.exists()  # trusted, the same hook runs (so the check above can fail)
    assert f"Made the worktree {tmp_path.resolve()};" in entered["text"], entered["text"]


def test_stream_json_reports_the_worktree_hooks_with_include_hook_events(
    repo: Path, tmp_path: Path
) -> None:
    places = tmp_path / "places"
    settings = hooks_for(
        WorktreeCreate=git_creator(tmp_path, places), WorktreeRemove=remover(tmp_path)
    )
    calls = [
        tool_use("EnterWorktree", name="seen"),
        tool_use("ExitWorktree", action="remove", discard_changes=True),
    ]
    turns = [{"blocks": [call]} for call in calls] + [{"blocks": [{"type": "text", "text": "ok"}]}]
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"turns": turns}))
    first = {"type": "user", "message": {"role": "user", "content": "go"}}
    proc = subprocess.run(
        [sys.executable, "-m", "hands", "-p", "--model", f"scripted:{script}",
         "--input-format", "stream-json", "--output-format", "stream-json", "--verbose",
         "--include-hook-events", "--settings", settings, "--allowedTools", "ExitWorktree"],
        cwd=repo, input=json.dumps(first) + "\n", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    reported = [
        (line["subtype"], line["hook_event"], line.get("exit_code"))
        for line in lines
        if line.get("subtype") in ("hook_started", "hook_response")
    ]
    assert reported == [
        ("hook_started", "WorktreeCreate", None),
        ("hook_response", "WorktreeCreate", 0),
        ("hook_started", "WorktreeRemove", None),
        ("hook_response", "WorktreeRemove", 0),
    ]
    response = next(x for x in lines if x.get("subtype") == "hook_response")
    assert response["stdout"].splitlines() == ["made seen", str(places / "seen")]
    assert not (places / "seen").exists()
