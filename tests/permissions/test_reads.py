"""``command_reads``: the paths one simple command reads, and the words it cannot resolve."""

from __future__ import annotations

from pathlib import Path

import pytest

from hands.permissions.bash import expand_path
from hands.permissions.reads import Reads, command_reads, links_leaving
from hands.shell.analysis import analyze


def reads(command: str, cwd: Path, home: Path) -> Reads:
    out = Reads()
    for cmd in analyze(command).commands:
        command_reads(
            cmd,
            expand=lambda raw: expand_path(raw, cwd=cwd, home=home),
            home=str(home),
            cwd=str(cwd),
            out=out,
        )
    return out


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path, Path]:
    project, home, outside = tmp_path / "p", tmp_path / "h", tmp_path / "o"
    for d in (project / "src", home, outside):
        d.mkdir(parents=True)
    (project / "a.txt").write_text("a")
    (outside / "secret").write_text("s")
    (project / "link").symlink_to(outside)
    return project, home, outside


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cat a.txt", ["{p}/a.txt"]),
        ("head -n 3 a.txt src/x", ["{p}/a.txt", "{p}/src/x"]),
        ("grep -e pat a.txt", ["{p}/a.txt"]),
        ("grep pat a.txt", ["{p}/a.txt"]),  # the pattern is not a path
        ("jq .x a.txt", ["{p}/a.txt"]),
        ("cat ~/x", ["{h}/x"]),
        ("cat /etc/hosts", ["/etc/hosts"]),
        ("ls", ["{p}"]),  # a listing with no operand reads the directory it runs in
        ("grep -r x", ["{p}"]),
        ("wc -l < a.txt", ["{p}/a.txt"]),
        ("grep -f ../pats a.txt", ["{t}/pats", "{p}/a.txt"]),
        ("date -r ~/.x", ["{h}/.x"]),
        ("hexdump -f /etc/fmt a.txt", ["/etc/fmt", "{p}/a.txt"]),
        ("pgrep -F /run/x.pid bash", ["/run/x.pid"]),
        ("git diff --no-index a.txt /etc/hosts", ["{p}/a.txt", "/etc/hosts"]),
        ("git blame --contents /etc/hosts a.txt", ["/etc/hosts"]),
        ("git blame -S /etc/revs a.txt", ["/etc/revs"]),
        ("git ls-files -X /etc/ex", ["/etc/ex"]),
        ("git grep -f /etc/pats", ["/etc/pats"]),
        ("git log -S /etc/pats", []),  # -S is a pickaxe string for log, not a file
    ],
)
def test_paths_read(places: tuple[Path, Path, Path], command: str, expected: list[str]) -> None:
    project, home, _ = places
    got = reads(command, project, home)
    fill = {"p": str(project), "h": str(home), "t": str(project.parent)}
    assert [p for _, p in got.paths] == [e.format(**fill) for e in expected]
    assert not got.unresolved


@pytest.mark.parametrize(
    "command",
    ["cat $X", "cat $(echo a)", "cat ~other/x", "sha256sum -c sums", "md5sum --check s",
     "wc --files0-from=list", "sort --files0-from list", "du --files0-from=l", "file -f names"],
)  # fmt: skip
def test_words_and_lists_that_cannot_be_resolved(
    places: tuple[Path, Path, Path], command: str
) -> None:
    project, home, _ = places
    assert reads(command, project, home).unresolved


def test_home_and_pwd_at_the_start_of_a_word_are_resolved(
    places: tuple[Path, Path, Path],
) -> None:
    project, home, _ = places
    got = reads('cat $HOME/.netrc "$PWD/a.txt"', project, home)
    assert [p for _, p in got.paths] == [f"{home}/.netrc", f"{project}/a.txt"]
    assert not got.unresolved


def test_a_glob_reads_each_match_including_a_symlink_out(
    places: tuple[Path, Path, Path],
) -> None:
    project, home, _ = places
    got = reads("grep x *", project, home)
    paths = {p for _, p in got.paths}
    assert f"{project}/link" in paths and f"{project}/a.txt" in paths


def test_a_dot_dot_after_a_symlink_is_the_targets_parent(
    places: tuple[Path, Path, Path],
) -> None:
    project, home, outside = places
    got = reads("cat link/../x", project, home)
    assert [p for _, p in got.paths] == [f"{outside.parent}/x"]
    plain = reads("cat src/../a.txt", project, home)
    assert [p for _, p in plain.paths] == [f"{project}/a.txt"]


@pytest.mark.parametrize(
    ("command", "follows"),
    [("grep -R x .", True), ("grep -r x .", False), ("rg --follow x", True), ("rg x", False),
     ("find -L . -name x", True), ("find . -name x", False), ("du -L .", True), ("ls -L", True)],
)  # fmt: skip
def test_walks_that_follow_symlinks(
    places: tuple[Path, Path, Path], command: str, follows: bool
) -> None:
    project, home, _ = places
    assert bool(reads(command, project, home).following) is follows


def test_redirections_and_file_flags_are_kept_for_read_deny_rules(
    places: tuple[Path, Path, Path],
) -> None:
    project, home, _ = places
    got = reads("grep -f .env x < .secret", project, home)
    assert set(got.files) == {f"{project}/.env", f"{project}/.secret"}


def test_links_leaving_finds_a_link_out_and_stops_at_its_bound(
    places: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    project, _, _ = places

    def inside(p: str) -> bool:
        return p.startswith(str(project))

    assert links_leaving(str(project), inside) == f"{project}/link"
    (project / "link").unlink()
    assert links_leaving(str(project), inside) is None
    many = tmp_path / "many"
    many.mkdir()
    for i in range(2100):
        (many / str(i)).touch()
    assert (links_leaving(str(many), lambda p: True) or "").startswith("more than")
