"""Durable cron jobs: kept in the project's .claude/scheduled_tasks.json, back next session.

The file is project input: its jobs load only in a trusted folder.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from hands.core.session import Session
from hands.tools.schedule.durable import tasks_file
from hands.tools.schedule.jobs import Job, Schedule
from print_session import print_run, tool_results, tool_use


def tasks(project: Path) -> list[dict[str, Any]]:
    return json.loads(tasks_file(project).read_text())["tasks"]


def test_durable_jobs_live_in_the_project_file_and_session_jobs_in_the_session(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    foreign = {"id": "theirs", "cron": "0 9 * * *", "prompt": "another session's", "createdAt": 1}
    tasks_file(project).parent.mkdir()
    tasks_file(project).write_text(json.dumps({"tasks": [foreign, {"odd": True}]}))
    session = Session(session_id="one", home=tmp_path / "home")
    schedule = Schedule.of(session)
    assert schedule.open_project(project, trusted=True) == ""
    assert set(schedule.jobs) == {"theirs"}  # the malformed entry is left out
    now = time.time()
    kept = schedule.add(
        Job(
            id="",
            prompt="nightly",
            at=now + 60,
            cron="0 2 * * *",
            recurring=True,
            made=now,
            durable=True,
        )
    )
    here = schedule.add(Job(id="", prompt="only now", at=now + 60, cron="0 3 * * *", made=now))
    written = tasks(project)
    assert written[:2] == [foreign, {"odd": True}]  # nothing of the others' lost
    assert written[2] == {
        "id": kept.id, "cron": "0 2 * * *", "prompt": "nightly",
        "createdAt": round(now * 1000), "recurring": True,
    }  # fmt: skip
    assert [p.name for p in (project / ".claude").iterdir()] == ["scheduled_tasks.json"]
    saved = json.loads((session.directory / "schedule.json").read_text())
    assert [j["id"] for j in saved] == [here.id]  # the session keeps only its own
    later = Schedule.of(Session(session_id="two", home=tmp_path / "home"))
    later.open_project(project, trusted=True)
    assert set(later.jobs) == {"theirs", kept.id} and later.jobs[kept.id].durable
    untrusted = Schedule.of(Session(session_id="three", home=tmp_path / "home"))
    untrusted.open_project(project, trusted=False)
    assert untrusted.jobs == {}
    assert later.remove(kept.id) is not None
    assert [t.get("id") for t in tasks(project)] == ["theirs", None]


def test_a_durable_one_shot_leaves_the_file_when_it_fires_and_a_recurring_one_notes_it(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    day_ago = (time.time() - 86_400) * 1000
    tasks_file(project).parent.mkdir()
    tasks_file(project).write_text(
        json.dumps(
            {
                "tasks": [
                    {"id": "once", "cron": "* * * * *", "prompt": "missed", "createdAt": day_ago},
                    {"id": "every", "cron": "* * * * *", "prompt": "tick",
                     "createdAt": day_ago, "recurring": True},
                ]
            }
        )
    )  # fmt: skip
    schedule = Schedule.of(Session(home=tmp_path / "home"))
    schedule.open_project(project, trusted=True)
    now = time.time()
    assert schedule.jobs["once"].at <= now  # its time passed while no session ran: due now
    assert schedule.jobs["every"].at > now - 1  # missed runs of a recurring one are not made up
    due = schedule.take_due(now + 61)
    assert sorted(j.id for j in due) == ["every", "once"]
    (left,) = tasks(project)
    assert left["id"] == "every" and left["lastFiredAt"] == round((now + 61) * 1000)


def test_an_unreadable_file_is_not_changed_and_nothing_is_scheduled(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    tasks_file(project).write_text('{"tasks": "not a list"}')
    lines = print_run(
        project,
        [
            tool_use("CronCreate", cron="0 9 * * 1", prompt="weekly", durable=True),
            tool_use("CronList"),
        ],
    )
    refused, listed = tool_results(lines)
    assert refused["is_error"] and "Nothing was scheduled" in refused["text"]
    assert "no list of tasks" in refused["text"]
    assert tasks_file(project).read_text() == '{"tasks": "not a list"}'
    assert listed["text"] == "Nothing is scheduled."


def stream_session(
    project: Path, script: Path, *args: str, results: int
) -> tuple[list[dict[str, Any]], str]:
    """``hands -p --input-format stream-json``, one prompt, until ``results`` results."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "hands", "-p", "--model", f"scripted:{script}",
         "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", *args],
        cwd=project, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    message = {"type": "user", "message": {"role": "user", "content": "hello"}}
    proc.stdin.write(json.dumps(message) + "\n")
    proc.stdin.flush()
    seen: list[dict[str, Any]] = []
    for raw in proc.stdout:
        seen.append(json.loads(raw))
        results -= seen[-1]["type"] == "result"
        if results == 0:
            break
    proc.stdin.close()
    assert proc.wait(timeout=60) == 0
    return seen, proc.stderr.read()


def test_a_durable_job_comes_back_in_the_next_trusted_session_only(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (made,) = tool_results(
        print_run(
            project,
            [
                tool_use(
                    "CronCreate",
                    cron="30 8 * * *",
                    prompt="DURABLE CHECK",
                    recurring=False,
                    durable=True,
                )
            ],
        )
    )
    assert not made["is_error"] and "scheduled_tasks.json" in made["text"]
    (entry,) = tasks(project)
    assert entry["prompt"] == "DURABLE CHECK" and "recurring" not in entry
    entry["createdAt"] -= 2 * 86_400_000  # its time passes while no session runs
    tasks_file(project).write_text(json.dumps({"tasks": [entry]}))
    script = tmp_path / "answers.json"
    turns = [{"blocks": [{"type": "text", "text": "answered"}]}] * 2
    script.write_text(json.dumps({"turns": turns}))
    seen, stderr = stream_session(project, script, results=1)
    assert not [s for s in seen if s.get("subtype") == "scheduled_prompt"]
    assert "scheduled prompt 30 8 * * *: DURABLE CHECK" in stderr  # named as ignored
    assert tasks(project) == [entry]  # left for a trusted session
    seen, _ = stream_session(project, script, "--trust", results=2)
    (announced,) = [s for s in seen if s.get("subtype") == "scheduled_prompt"]
    assert announced["prompt"] == "DURABLE CHECK" and announced["job_id"] == entry["id"]
    assert [s["result"] for s in seen if s["type"] == "result"] == ["answered"] * 2
    assert tasks(project) == []  # a one-time job, done
