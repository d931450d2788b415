"""EnterWorktree and ExitWorktree through ``hands -p``: the session moves and comes back."""

from __future__ import annotations

from pathlib import Path

from print_session import print_run, tool_results, tool_use

from .git_repo import git


def test_the_session_moves_into_a_new_worktree_and_back_removing_it(
    repo: Path, hands_home: Path
) -> None:
    lines = print_run(
        repo,
        [
            tool_use("EnterWorktree", name="feat-x"),
            tool_use("Bash", command="pwd; git branch --show-current"),
            tool_use("Write", file_path="made.txt", content="new\n"),
            tool_use("ExitWorktree", action="remove"),
            tool_use("ExitWorktree", action="remove", discard_changes=True),
            tool_use("Bash", command="pwd; git worktree list | wc -l"),
            tool_use("ExitWorktree", action="keep"),
        ],
        "--permission-mode",
        "acceptEdits",
    )
    assert "EnterWorktree" in lines[0]["tools"] and "ExitWorktree" in lines[0]["tools"]
    entered, where, wrote, refused, removed, back, nothing = tool_results(lines)
    assert not entered["is_error"], entered["text"]
    made = Path(entered["text"].split("Made the worktree ", 1)[1].split(" (branch", 1)[0])
    assert made.is_relative_to(hands_home / "worktrees") and made.name == "feat-x"
    assert "(branch hands/feat-x)" in entered["text"]
    assert where["text"].splitlines()[:2] == [str(made), "hands/feat-x"]
    assert not wrote["is_error"] and not (repo / "made.txt").exists()
    assert refused["is_error"] and "changed: made.txt" in refused["text"]
    assert not removed["is_error"] and not made.exists()
    assert back["text"].splitlines()[:2] == [str(repo), "1"]
    assert "feat-x" not in git(repo, "branch")
    assert nothing["is_error"] and "nothing was changed" in nothing["text"]


def test_an_existing_worktree_is_entered_by_path_and_kept(repo: Path, tmp_path: Path) -> None:
    other = tmp_path / "other-tree"
    git(repo, "worktree", "add", "-q", "-b", "side", str(other))
    lines = print_run(
        repo,
        [
            tool_use("EnterWorktree", path=str(other)),
            tool_use("EnterWorktree", name="second"),
            tool_use("ExitWorktree", action="remove"),
            tool_use("ExitWorktree", action="keep"),
            tool_use("EnterWorktree", path=str(tmp_path)),
            tool_use("EnterWorktree", name="bad name!"),
        ],
    )
    entered, twice, not_ours, kept, stranger, bad = tool_results(lines)
    assert not entered["is_error"] and "Entered the worktree" in entered["text"]
    assert twice["is_error"] and "ExitWorktree first" in twice["text"]
    assert not_ours["is_error"] and "action keep" in not_ours["text"]
    assert not kept["is_error"] and other.is_dir()
    assert stranger["is_error"] and "not a worktree of this repository" in stranger["text"]
    assert bad["is_error"] and "cannot name a worktree" in bad["text"]


def test_outside_a_repository_entering_says_why(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (result,) = tool_results(print_run(plain, [tool_use("EnterWorktree")]))
    assert result["is_error"] and "git repository" in result["text"]
