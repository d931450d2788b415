"""The tree-sitter-bash analysis: splitting, wrappers, redirects, read-only verdicts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hands.shell.analysis import analyze, is_read_only, split_command
from hands.shell.readonly import (
    analysis_is_read_only,
    sed_script_is_read_only,
    why_not_read_only,
)

RO, RW = True, False

# (command, read-only?)
VERDICTS: list[tuple[str, bool]] = [
    # plain read-only commands
    ("ls", RO), ("ls -la", RO), ("ls -la src/", RO), ("cat README.md", RO),
    ("head -n 20 file.py", RO), ("tail -f log.txt", RO), ("wc -l *.py", RO), ("pwd", RO),
    ("echo hello world", RO), ("echo 'single quoted'", RO), ('echo "double $HOME"', RO),
    ("which python3", RO), ("stat file", RO), ("du -sh .", RO), ("df -h", RO),
    ("diff a b", RO), ("grep -rn TODO src", RO), ("grep -E 'a|b' file", RO),
    ("egrep x y", RO), ("sleep 1", RO), ("date", RO), ("date +%Y-%m-%d", RO),
    ("date -d yesterday +%s", RO), ("whoami", RO), ("id -u", RO), ("uname -a", RO),
    ("hostname", RO), ("hostname -f", RO), ("printenv PATH", RW), ("file x.bin", RO),
    ("tree -L 2", RO), ("nl file", RO), ("sort file", RO), ("sort -u -k2 file", RO),
    ("sort -t, -k 2n file", RO), ("uniq -c file", RW), ("cut -d: -f1 /etc/passwd", RO),
    ("tr a-z A-Z", RO), ("base64 -d file", RO), ("md5sum file", RO),
    ("sha256sum a b", RO), ("cmp a b", RO), ("realpath .", RO), ("basename /a/b", RO),
    ("dirname /a/b", RO), ("jq .name package.json", RO), ("jq -r '.[] | .x' f.json", RO),
    ("seq 1 10", RO), ("true", RO), ("false", RO), ("xxd file", RW), ("od -c file", RO),
    ("env", RW), ("command -v git", RW), ("type ls", RO), ("cd src", RO),
    ("printf '%s\\n' a b", RO), ("test -f x", RO), ("[ -f x ]", RO),
    # pipelines and lists of read-only commands
    ("ls | wc -l", RO), ("cat f | grep x | sort | uniq -c", RO), ("ls && pwd", RO),
    ("ls || echo none", RO), ("ls; pwd", RO), ("ls\npwd", RO), ("ls |& cat", RO),
    ("{ ls; pwd; }", RW), ("! grep -q x f", RO), ("ls # a comment", RO),
    ("ls 2>/dev/null", RO), ("ls 2>&1 | head", RO), ("ls >/dev/null 2>&1", RO),
    ("cat < input.txt", RO), ("cat <<'EOF'\nliteral $(text)\nEOF", RO),
    ("cat <<< 'here string'", RO), ("grep x f 1>&2", RO), ("ls 3>&-", RO),
    # find
    ("find . -name '*.py'", RO), ("find . -type f -mtime -1 -print", RO),
    ("find src -maxdepth 2 -iname x -o -name y", RO), ("find . -newermt 2024-01-01", RO),
    ("find . -exec rm {} \\;", RW), ("find . -execdir ls \\;", RW), ("find . -delete", RW),
    ("find . -fprint out", RW), ("find . -ok rm {} \\;", RW), ("find . -fls out", RW),
    ("find . -name x -exec grep y {} +", RW), ("find *", RW),
    # sed
    ("sed -n '1,5p' f", RO), ("sed -n '/start/,/end/p' f", RO), ("sed 's/a/b/g' f", RW),
    ("sed -e 's/a/b/' -e 's/c/d/g' f", RW), ("sed -n '$p' f", RO), ("sed -E 's|x|y|2' f", RW),
    ("sed -n 'w /etc/x' f", RW), ("sed 's/a/b/w out' f", RW), ("sed 's/a/b/e' f", RW),
    ("sed -i 's/a/b/' f", RW), ("sed --in-place 's/a/b/' f", RW), ("sed -f script.sed f", RW),
    ("sed 'e date' f", RW), ("sed '1r /etc/passwd' f", RW), ("sed 'W out' f", RW),
    ("sed -n '1{p;w x\n}' f", RW), ("sed -ni 's/a/b/' f", RW),
    # git
    ("git status", RO), ("git status --short", RO), ("git log --oneline -n 5", RO),
    ("git log --format='%h %s'", RO), ("git diff HEAD~1", RO), ("git diff --stat", RO),
    ("git show HEAD:README.md", RO), ("git blame file.py", RO), ("git rev-parse HEAD", RO),
    ("git ls-files", RO), ("git branch", RO), ("git branch -a", RO),
    ("git branch --show-current", RO), ("git remote -v", RO), ("git tag -l 'v*'", RO),
    ("git tag", RO), ("git --no-pager log", RW), ("git stash list", RO),
    ("git config --get user.name", RO), ("git config --list", RW), ("git worktree list", RO),
    ("git grep foo", RO), ("git describe --tags", RO), ("git reflog", RO),
    ("git commit -m x", RW), ("git push", RW), ("git checkout main", RW), ("git add .", RW),
    ("git branch -D feature", RW), ("git branch newbranch", RW), ("git tag v1", RW),
    ("git tag -d v1", RW), ("git -c core.pager=evil log", RW), ("git -C /tmp status", RW),
    ("git --exec-path=/tmp status", RW), ("git log --output=/tmp/x", RW),
    ("git diff --output x", RW), ("git grep -Ovim foo", RW), ("git config user.name x", RW),
    ("git stash", RW), ("git remote add o url", RW), ("git reflog expire --all", RW),
    ("git --git-dir=/tmp/x log", RW), ("cd /tmp && git status", RW), ("git stash pop", RW),
    # rg
    ("rg TODO", RO), ("rg -n -i 'x y' src", RO), ("rg --pre cat x", RW),
    ("rg --pre=sh x", RW), ("rg --hostname-bin evil x", RW),
    # writes and unknown programs
    ("rm -rf build", RW), ("touch x", RW), ("mkdir d", RW), ("make", RW), ("npm test", RW),
    ("python3 script.py", RW), ("ls > out.txt", RW), ("ls >> out.txt", RW),
    ("ls &> out", RW), ("echo x >| f", RW), ("cat f > $OUT", RW), ("echo x > ~/f", RW),
    ("tee out", RW), ("cp a b", RW), ("mv a b", RW), ("chmod +x f", RW),
    ("sort -o out f", RW), ("sort -uo out f", RW), ("sort --output=out f", RW),
    ("sort --compress-program=sh f", RW), ("uniq in out", RW), ("xxd in out", RW),
    ("tree -o out", RW), ("file -C -m magic", RW), ("date -s 2020-01-01", RW),
    ("date 010101012020", RW), ("hostname evil", RW), ("printf -v x '%s' y", RW),
    ("test -v 'a[$(id)]'", RW), ("env rm x", RW), ("awk '{print}' f", RW),
    ("less f", RW), ("ls /usr/bin/ls", RO), ("/bin/ls", RW), ("./ls", RW),
    # the known bypass shapes
    ("echo $(rm x)", RW), ("echo `rm x`", RW), ('echo "$(rm x)"', RW),
    ("git status; rm -rf ~", RW), ("git status && rm -rf ~", RW), ("git status\nrm -rf ~", RW),
    ("ls | sh", RW), ("cat <(rm x)", RW), ("diff <(ls a) <(ls b)", RW), ("ls &", RW),
    ("(ls)", RW), ("cat$IFS/etc/passwd", RW), ("$CMD", RW), ("${CMD} arg", RW),
    ("l\\s", RO), ("f\\ind . -\\exec rm {} \\;", RW), ("find . -\\delete", RW),
    ("'rm' -rf x", RW), ("\"ls\"", RO), ("echo ${x@P}", RW), ("eval ls", RW),
    ("bash -c 'ls'", RW), ("sh -c ls", RW), ("source ./env.sh", RW), (". ./env.sh", RW),
    ("exec ls", RW), ("xargs rm", RW), ("xargs -I{} rm {}", RW), ("echo x | xargs ls", RO),
    ("echo x | xargs find", RW), ("timeout 5 rm x", RW), ("nohup rm x", RW),
    ("time rm x", RW), ("nice rm x", RW), ("command rm x", RW), ("builtin cd /", RO),
    ("sudo ls", RW), ("watch ls", RW), ("noglob ls", RW), ("=ls", RW),
    ("ls $(echo -la)", RW), ("echo $((1+2))", RW), ("x=1; ls", RW), ("x=$(rm y)", RW),
    ("export PATH=/tmp", RW), ("LD_PRELOAD=/tmp/x.so ls", RW), ("PATH=/tmp ls", RW),
    ("FOO=bar ls", RW), ("LANG=C ls", RO), ("LC_ALL=C sort f", RO), ("TZ=UTC date", RO),
    ("NO_COLOR=1 git status", RO), ("for f in *; do rm $f; done", RW),
    ("if true; then ls; fi", RO), ("while true; do ls; done", RW), ("f() { ls; }", RW),
    ("[[ $x =~ y ]]", RO), ("ls;;", RW), ("ls ((", RW), ("echo 'unterminated", RW),
    ("cat <<EOF\n$(rm x)\nEOF", RW), ("cat <<EOF | sh\nrm x\nEOF", RW), ("", RW),
    ("   ", RW), ("echo a\x00b", RW), ("ls {a,b}", RW), ("find {a,b} -name x", RW),
    ("echo $'\\x41'", RW), ("grep $'\\t' f", RW), ("sort $'-o' out", RW),
    ("LANG=C timeout 10 nice -n 5 grep -r x .", RW), ("timeout -s KILL 5 ls", RO),
    ("stdbuf -oL tail -f log", RO), ("command -v ls", RW), ("trap 'rm x' EXIT", RW),
    # tests and if-branches around read-only commands; operands that get evaluated
    ("[[ -f x ]] && cat x", RO), ("[ -d src ] || ls", RO), ("if [ -f a ]; then rm a; fi", RW),
    ("[ -v x ]", RW), ("[[ -R ref ]]", RW), ("[[ $a -eq 1 ]] && ls", RW),
    ("[ $a -eq 1 ] && ls", RO), ("[[ $(rm -rf x) ]]", RW), ("[[ -f x ]] > out.txt", RW),
    ("for a in -delete; do find . $a; done", RW), ("if true; then x=1; fi", RW),
]  # fmt: skip


@pytest.mark.parametrize(("command", "expected"), VERDICTS)
def test_read_only_verdicts(command: str, expected: bool) -> None:
    analysis = analyze(command)
    assert analysis_is_read_only(analysis) is expected, why_not_read_only(analysis)


def test_the_table_is_large_and_has_no_duplicates() -> None:
    commands = [c for c, _ in VERDICTS]
    assert len(commands) >= 150
    assert len(set(commands)) == len(commands)


@pytest.mark.parametrize(
    ("command", "parts"),
    [
        ("ls && pwd", ("ls", "pwd")),
        ("a || b; c | d |& e & f", ("a", "b", "c", "d", "e", "f")),
        ("a\nb\n\nc", ("a", "b", "c")),
        ("(a; b) && { c; }", ("a", "b", "c")),
        ("echo $(a | b) `c`", ("a", "b", "c", "echo $(a | b) `c`")),
        ("diff <(a) <(b)", ("a", "b", "diff <(a) <(b)")),
        ("cat <<EOF\n$(a)\nEOF", ("a", "cat")),
        ("x > out && y 2>&1", ("x", "y")),
        ("if a; then b; else c; fi", ("a", "b", "c")),
        ("for i in 1 2; do a $i; done", ("a $i",)),
        ("echo 'a && b'", ("echo 'a && b'",)),
        ('echo "a; b"', ('echo "a; b"',)),
        ("echo a\\;b", ("echo a\\;b",)),
    ],
)
def test_split(command: str, parts: tuple[str, ...]) -> None:
    assert split_command(command) == parts


@pytest.mark.parametrize(
    "command",
    ["eval x", "bash -c 'rm x'", "$X y", "ls ((", "echo ${a@P}", "source f", "sudo x",
     "find . -exec rm {} +", "ls;;", "", "a\x00b", "xargs -0 rm", "env X=1 rm y"],
)  # fmt: skip
def test_split_fails_closed(command: str) -> None:
    assert split_command(command) is None


def test_wrappers_and_assignments_are_stripped_and_recorded() -> None:
    (cmd,) = analyze("LANG=C FOO=1 timeout -k 2 5 nice -n 3 nohup stdbuf -o L git status").commands
    assert cmd.argv == ("git", "status")
    assert cmd.wrappers == ("timeout", "nice", "nohup", "stdbuf")
    assert cmd.assignments == ("LANG", "FOO")
    assert cmd.unsafe_assignments == ("FOO",)
    (x,) = analyze("xargs grep -l foo").commands
    assert x.via_xargs and x.argv == ("grep", "-l", "foo")


def test_redirects_are_reported_with_targets() -> None:
    analysis = analyze("cmd < in.txt > out.txt 2>> err.log 2>&1 &> /dev/null")
    got = [(r.op, r.kind, r.fd, r.target) for r in analysis.redirects]
    assert got == [
        ("<", "read", None, "in.txt"),
        (">", "write", None, "out.txt"),
        (">>", "write", "2", "err.log"),
        (">&", "dup", "2", "1"),
        ("&>", "write", None, "/dev/null"),
    ]
    assert [r.writes_file for r in analysis.redirects] == [False, True, True, False, False]
    dynamic = analyze("ls > $X").redirects[0]
    assert dynamic.target is None and not is_read_only("ls > $X")


def test_quoting_is_removed_from_values() -> None:
    (cmd,) = analyze("""grep -e 'a b' "c\\"d" e\\ f 'g'"h"i""").commands
    assert cmd.argv == ("grep", "-e", "a b", 'c"d', "e f", "ghi")


def test_hidden_constructs_are_named() -> None:
    assert "eval" in analyze("eval $x").hidden
    assert "bash runs a script" in analyze("bash -c x").hidden
    assert "expansion in command position" in analyze("$x").hidden
    assert "${x@P} expansion" in analyze("echo ${x@P}").hidden
    assert any("zsh" in h for h in analyze("noglob ls").hidden)
    assert "command substitution" in analyze("echo $(x)").opaque
    assert "backticks" in analyze("echo `x`").opaque
    assert "process substitution" in analyze("cat <(x)").opaque
    assert "background &" in analyze("x &").opaque
    assert "subshell" in analyze("(x)").opaque


@pytest.mark.parametrize(
    ("script", "ok"),
    [
        ("p", True), ("1,5p", True), ("/a/,/b/p", True), ("$!d", True), ("s/a/b/g", True),
        ("s|a|b|", True), ("s/a\\/b/c/2", True), ("y/abc/xyz/", True), ("1~2p", True),
        ("/x/I p", True), ("1{p;q}", True), ("=", True), ("q5", True),
        ("w out", False), ("s/a/b/w out", False), ("s/a/b/e", False), ("e ls", False),
        ("r /etc/passwd", False), ("R f", False), ("W f", False), ("1a text", False),
        ("b label", False), (":label", False), ("s/a/b", False), ("s\\a\\b\\", False),
        ("/unterminated", False), ("v", False), ("F", True), ("s/a/b/;w x", False),
        ("s/x/y/ w x", False), ("1,w x", False),
    ],
)  # fmt: skip
def test_sed_scripts(script: str, ok: bool) -> None:
    # Claude Code asks about substitutions; the parser still reads them for the other checks
    assert sed_script_is_read_only(script, substitutes=True) is ok
    if script[:1] in "sy" or " s" in script:
        assert not sed_script_is_read_only(script)


words = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00"), max_size=40)


@settings(max_examples=300, deadline=None)
@given(words)
def test_analysis_never_raises_and_read_only_implies_understood(command: str) -> None:
    analysis = analyze(command)
    if analysis_is_read_only(analysis):
        assert analysis.understood and not analysis.opaque
        assert split_command(command) is not None


# words that cannot comment out, quote or continue what follows them
plain = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789 -./_=", max_size=30)


@settings(max_examples=200, deadline=None)
@given(plain, st.sampled_from([";", "&&", "||", "|", "\n", "&"]))
def test_appending_a_write_is_never_read_only(prefix: str, sep: str) -> None:
    assert not is_read_only(f"{prefix}{sep}rm -rf ~")
    assert not is_read_only(f"{prefix} $(rm -rf ~)")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["ls", "pwd", "git status", "wc -l f", "echo 'a;b'"]),
        min_size=1,
        max_size=6,
    ),
    st.sampled_from([" && ", "; ", " | ", "\n"]),
)
def test_joined_read_only_commands_stay_read_only_and_split_back(
    parts: list[str], sep: str
) -> None:
    command = sep.join(parts)
    assert is_read_only(command)
    assert split_command(command) == tuple(parts)


@pytest.mark.parametrize("command", ["{\U00031860", "echo {\U000ee812", "ls {a,b} \U0001f600"])
def test_inputs_that_crash_the_parser_are_not_parsed(command: str) -> None:
    analysis = analyze(command)
    assert not analysis.understood and not analysis_is_read_only(analysis)
    assert is_read_only("echo \U0001f600")


@pytest.mark.parametrize("command", ["[]", "[x]", "[ -f x]", "[[ -f x]]", "[w] && ls"])
def test_brackets_bash_does_not_run_as_a_test_are_not_read_only(command: str) -> None:
    # `[x]` is a glob (it runs whatever one-letter file it matches), `[]` a command of
    # that name; tree-sitter parses both as tests (found by the property test below)
    analysis = analyze(command)
    assert analysis.problems
    assert not analysis_is_read_only(analysis)


@pytest.mark.parametrize("command", ["[ ]", "[ -f x ]", "[[ -f x ]]", "[ a = b ] && ls"])
def test_spaced_tests_stay_read_only(command: str) -> None:
    assert analysis_is_read_only(analyze(command))
