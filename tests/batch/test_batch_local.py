"""``hands batch`` on the local engine: real sessions in real processes, sandboxed."""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from batch_helpers import (
    BUG,
    CHECK,
    bash,
    fixing_model,
    git_repo,
    read_results,
    script,
    text,
    write_tasks,
)

from hands.batch.engines import LocalEngine
from hands.batch.results import ResultsFile, finished_ids
from hands.batch.runner import run_batch
from hands.batch.session import RunSettings, run_task
from hands.batch.tasks import BatchTask, TaskFileError, load_tasks
from processes import marked

HANDS = [sys.executable, "-m", "hands"]


def batch(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*HANDS, "batch", *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def test_tasks_from_repos_files_and_paths_are_run_checked_and_scored(tmp_path: Path) -> None:
    model = fixing_model(tmp_path)
    repo, commit = git_repo(tmp_path / "repo", {"calc.py": BUG})
    (tmp_path / "copyme").mkdir()
    (tmp_path / "copyme" / "calc.py").write_text(BUG)
    unfixed = script(tmp_path / "idle.json", text("nothing to do"))
    tasks = write_tasks(
        tmp_path / "tasks.jsonl",
        [
            {"id": "repo", "prompt": "fix", "repo": repo, "commit": commit, "check": CHECK},
            {"id": "path", "prompt": "fix", "path": str(tmp_path / "copyme"), "check": CHECK},
            {"id": "files", "prompt": "fix", "files": {"calc.py": BUG}, "check": CHECK},
            {
                "id": "idle",
                "prompt": "fix",
                "files": {"calc.py": BUG},
                "check": CHECK,
                "model": unfixed,
            },
            {
                "id": "nocheck",
                "prompt": "fix",
                "files": {"calc.py": BUG},
                "setup": ["echo set > made_by_setup.txt"],
            },
        ],
    )
    out = tmp_path / "results.jsonl"
    run = batch(str(tasks), "--out", str(out), "--model", model, "--concurrency", "3", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    results = {r["id"]: r for r in read_results(out)}
    assert {k: v["status"] for k, v in results.items()} == {
        "repo": "passed", "path": "passed", "files": "passed", "idle": "failed",
        "nocheck": "completed",
    }  # fmt: skip
    fixed = results["repo"]
    assert fixed["check_exit"] == 0 and fixed["tool_calls"] == 1 and fixed["turns"] == 2
    assert fixed["final_text"] == "fixed" and fixed["duration_s"] > 0
    assert Path(fixed["transcript"]).is_file()  # in the task's own hands home
    assert results["idle"]["check_exit"] != 0 and results["idle"]["tool_calls"] == 0
    assert Path(results["nocheck"]["workdir"], "made_by_setup.txt").read_text() == "set\n"
    assert "hands batch" in run.stderr and "passed" in run.stderr  # the summary table
    # the sources are untouched: every task worked on its own copy
    assert (tmp_path / "copyme" / "calc.py").read_text() == BUG
    assert Path(repo, "calc.py").read_text() == BUG


def test_a_task_that_runs_too_long_is_stopped_and_reported(tmp_path: Path) -> None:
    slow = script(tmp_path / "slow.json", bash("sleep 60"), text("slept"))
    task = BatchTask(id="slow", prompt="wait", model=slow, timeout_s=4)
    result = run_task(task, RunSettings(run_dir=tmp_path / "runs"))
    assert result["status"] == "timeout" and result["duration_s"] < 30


def test_resume_skips_finished_tasks_and_a_torn_line_does_not_count(tmp_path: Path) -> None:
    model = fixing_model(tmp_path)
    tasks = write_tasks(
        tmp_path / "tasks.jsonl",
        [
            {"id": f"t{i}", "prompt": "fix", "files": {"calc.py": BUG}, "check": CHECK}
            for i in range(4)
        ],
    )
    out = tmp_path / "results.jsonl"
    # an interrupted earlier run: two results, the second cut mid-line by a crash
    out.write_text(json.dumps({"id": "t0", "status": "passed"}) + "\n" + '{"id": "t1", "sta')
    refused = batch(str(tasks), "--out", str(out), "--model", model, cwd=tmp_path)
    assert refused.returncode == 2 and "--resume" in refused.stderr
    run = batch(str(tasks), "--out", str(out), "--model", model, "--resume", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    ids = [str(r["id"]) for r in read_results_tolerant(out)]
    assert sorted(ids) == ["t0", "t1", "t2", "t3"] and len(ids) == 4
    assert finished_ids(out) == {"t0", "t1", "t2", "t3"}


def read_results_tolerant(path: Path) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def test_a_session_never_writes_outside_its_workdir_nor_sees_another(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    spy = script(
        tmp_path / "spy.json",
        bash(f"echo owned > {outside}"),
        bash("ls ../..; cat ../../*/work/secret.txt"),
        [
            {
                "type": "tool_use",
                "name": "Glob",
                "input": {"pattern": "**/secret.txt", "path": str(tmp_path / "runs")},
            }
        ],
        text("done"),
    )
    tasks = [
        BatchTask(id="a", prompt="x", model=spy, files={"secret.txt": "a's secret"}),
        BatchTask(id="b", prompt="x", model=spy, files={"secret.txt": "b's secret"}),
    ]
    results = ResultsFile(tmp_path / "results.jsonl")
    settings = RunSettings(run_dir=tmp_path / "runs")
    run_batch(tasks, engine=LocalEngine(concurrency=2), settings=settings, results=results)
    assert not outside.exists()
    for entry in read_results(tmp_path / "results.jsonl"):
        transcript = Path(entry["transcript"]).read_text()
        own, other = ("a", "b") if entry["id"] == "a" else ("b", "a")
        assert f"{own}'s secret" in transcript  # its own file is there and readable
        assert f"{other}'s secret" not in transcript  # the other task's is not
        assert f"runs/{other}/" not in transcript  # not even its name
        assert entry["tool_calls"] == 3


def test_a_session_killed_from_outside_is_retried_and_reported_once(tmp_path: Path) -> None:
    # the model's own command kills the session's process (as a lost worker would):
    # the first attempt dies, the retry finds the marker and finishes
    marker = tmp_path / "attempted"
    token = secrets.token_hex(4)
    # matches the session's command line (hands -p crash-TOKEN) but not this one's
    kill = f"pkill -9 -f -- '-p crash-[{token[0]}]{token[1:]}'"
    crash = script(
        tmp_path / "crash.json",
        bash(f"if [ ! -e {marker} ]; then touch {marker}; {kill}; sleep 5; fi; echo ok"),
        text("survived"),
    )
    task = BatchTask(
        id="crashy", prompt=f"crash-{token}", model=crash, permission_mode="bypassPermissions"
    )
    results = ResultsFile(tmp_path / "results.jsonl")
    run_batch(
        [task],
        engine=LocalEngine(concurrency=1, retries=2),
        settings=RunSettings(run_dir=tmp_path / "runs", sandbox="none"),
        results=results,
    )
    (entry,) = read_results(tmp_path / "results.jsonl")
    assert entry["status"] == "completed" and entry["attempt"] == 2
    assert entry["final_text"] == "survived"


def _session_python(marker: str) -> int | None:
    """The hands process of a session (not the bubblewrap around it), by its prompt."""
    for pid in marked(marker):
        try:
            argv0 = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]
        except OSError:
            continue
        if Path(argv0.decode()).name != "bwrap":
            return pid
    return None


def test_a_session_killed_from_outside_under_bubblewrap_is_retried(tmp_path: Path) -> None:
    # bubblewrap reports its child's SIGKILL as exit 137: still a crash, still retried.
    # The Bash sandbox sees neither this test's folder nor an earlier attempt's files, so
    # the retry is told apart by its script: rewritten before the kill, read at its start.
    token = secrets.token_hex(4)
    path = tmp_path / "slow.json"
    slow = script(path, bash("touch started; sleep 60"), text("the first script"))
    task = BatchTask(id="crashy", prompt=f"crash-{token}", model=slow)
    results = ResultsFile(tmp_path / "results.jsonl")
    settings = RunSettings(run_dir=tmp_path / "runs", sandbox="bwrap")
    runner = threading.Thread(
        target=run_batch,
        args=([task],),
        kwargs={"engine": LocalEngine(concurrency=1, retries=2), "settings": settings,
                "results": results},
    )  # fmt: skip
    runner.start()
    started = tmp_path / "runs" / "crashy" / "work" / "started"
    deadline = time.monotonic() + 120
    while not started.exists() and runner.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert started.exists(), "the first attempt never reached its Bash call"
    pid = _session_python(f"crash-{token}")
    assert pid is not None
    script(tmp_path / "quick.json", bash("echo ok"), text("survived"))
    (tmp_path / "quick.json").replace(path)
    os.kill(pid, signal.SIGKILL)
    runner.join(timeout=180)
    assert not runner.is_alive()
    (entry,) = read_results(tmp_path / "results.jsonl")
    assert entry["status"] == "completed" and entry["attempt"] == 2, entry
    assert entry["final_text"] == "survived"  # the retry read the script afresh


def test_a_task_whose_own_session_fails_is_not_retried(tmp_path: Path) -> None:
    task = BatchTask(id="bad", prompt="x", model="scripted:/nonexistent/script.json")
    result = run_task(task, RunSettings(run_dir=tmp_path / "runs"))
    assert result["status"] == "error" and result["attempt"] == 1 and result["error"]


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ('{"prompt": "x"}', "id"),
        ('{"id": "a", "prompt": "x", "repo": "r", "path": "p"}', "one workdir source"),
        ('{"id": "a", "prompt": "x", "files": {"../up": "x"}}', "inside the workdir"),
        ('{"id": "a", "prompt": "x", "timeout_s": -1}', "timeout_s"),
        ("not json", "not JSON"),
        ('{"id": "a", "prompt": "x", "colour": "red"}', "colour"),
    ],
)
def test_a_bad_task_file_names_the_line_and_the_problem(
    tmp_path: Path, line: str, problem: str
) -> None:
    path = tmp_path / "tasks.jsonl"
    path.write_text('{"id": "ok", "prompt": "x"}\n' + line + "\n")
    with pytest.raises(TaskFileError) as caught:
        load_tasks(path)
    assert f"{path}:2:" in str(caught.value) and problem in str(caught.value)
    run = batch(str(path), cwd=tmp_path)
    assert run.returncode == 2 and problem in run.stderr and "Traceback" not in run.stderr


def test_duplicate_ids_are_refused(tmp_path: Path) -> None:
    path = write_tasks(tmp_path / "t.jsonl", [{"id": "a", "prompt": "x"}] * 2)
    with pytest.raises(TaskFileError, match="already used on line 1"):
        load_tasks(path)
