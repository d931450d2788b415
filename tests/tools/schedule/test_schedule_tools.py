"""CronCreate, CronList, CronDelete and ScheduleWakeup: jobs made, kept, and delivered."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from hands.core.session import Session
from hands.tools.schedule.jobs import CronError, Job, Schedule, next_fire
from print_session import print_run, tool_results, tool_use


def at(text: str) -> float:
    return datetime.fromisoformat(text).astimezone().timestamp()


def test_next_fire_follows_the_cron_expression_in_local_time() -> None:
    start = at("2026-12-07T06:02:30")
    assert next_fire("*/5 * * * *", start) == at("2026-12-07T06:05:00")
    assert next_fire("30 14 28 2 *", start) == at("2027-02-28T14:30:00")
    for bad in ("every five minutes", "61 * * * *", "* * * *"):
        with pytest.raises(CronError):
            next_fire(bad, start)


def test_due_jobs_leave_or_move_on_and_the_schedule_is_kept_with_the_session(
    tmp_path: Path,
) -> None:
    session = Session(session_id="sched", home=tmp_path)
    schedule = Schedule.of(session)
    now = time.time()
    once = schedule.add(Job(id="", prompt="once", at=now - 1, kind="wakeup", made=now))
    again = schedule.add(
        Job(id="", prompt="again", at=now - 1, cron="* * * * *", recurring=True, made=now)
    )
    later = schedule.add(Job(id="", prompt="later", at=now + 3600, made=now))
    assert sorted(j.prompt for j in schedule.take_due(now)) == ["again", "once"]
    assert once.id not in schedule.jobs and schedule.jobs[again.id].at > now
    reloaded = Schedule.of(Session(session_id="sched", home=tmp_path))
    assert set(reloaded.jobs) == {again.id, later.id}
    (session.directory / "schedule.json").write_text("not json")
    assert Schedule.of(Session(session_id="sched", home=tmp_path)).jobs == {}


def test_the_tools_through_print_mode(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    lines = print_run(
        project,
        [
            tool_use("CronCreate", cron="*/5 * * * *", prompt="check the build"),
            tool_use("CronCreate", cron="every five minutes", prompt="x"),
            tool_use("CronList"),
            tool_use("CronDelete", id="nope"),
            tool_use("ScheduleWakeup", reason="x"),
            tool_use("ScheduleWakeup", delaySeconds=120, reason="CI", prompt="check CI"),
            tool_use("ScheduleWakeup", stop=True),
        ],
    )
    made, bad, listed, unknown, missing, woke, stopped = tool_results(lines)
    assert not made["is_error"] and "*/5 * * * * recurring: check the build" in made["text"]
    assert bad["is_error"] and "has 3 fields; a cron expression has 5" in bad["text"]
    assert "check the build" in listed["text"]
    assert unknown["is_error"] and "No scheduled job has the id 'nope'" in unknown["text"]
    assert missing["is_error"] and "delaySeconds, prompt are needed" in missing["text"]
    assert not woke["is_error"] and "comes back" in woke["text"]
    assert "1 pending wakeup(s) cancelled" in stopped["text"]


def test_plan_mode_refuses_to_schedule(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (out,) = tool_results(
        print_run(
            project,
            [tool_use("CronCreate", cron="*/5 * * * *", prompt="x")],
            "--permission-mode",
            "plan",
        )
    )
    assert out["is_error"] and "plan mode" in out["text"]


def test_stream_json_input_runs_a_due_wakeup_as_the_next_user_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HANDS_WAKEUP_MIN_SECONDS", "0")
    project = tmp_path / "project"
    project.mkdir()
    wake = tool_use("ScheduleWakeup", delaySeconds=0, reason="now", prompt="WAKE UP NOW")
    script = tmp_path / "script.json"
    turns: list[dict[str, Any]] = [
        {"blocks": [wake]},
        {"blocks": [{"type": "text", "text": "scheduled"}]},
        {"blocks": [{"type": "text", "text": "woke and checked"}]},
    ]
    script.write_text(json.dumps({"turns": turns}))
    proc = subprocess.Popen(
        [sys.executable, "-m", "hands", "-p", "--model", f"scripted:{script}",
         "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"],
        cwd=project, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    first = {"type": "user", "message": {"role": "user", "content": "keep an eye on it"}}
    proc.stdin.write(json.dumps(first) + "\n")
    proc.stdin.flush()
    seen: list[dict[str, Any]] = []
    results = 0
    for raw in proc.stdout:  # until the second turn's result: the wakeup's
        seen.append(json.loads(raw))
        results += seen[-1]["type"] == "result"
        if results == 2:
            break
    proc.stdin.close()
    assert proc.wait(timeout=60) == 0, proc.stderr.read() if proc.stderr else ""
    announced = [s for s in seen if s.get("subtype") == "scheduled_prompt"]
    assert len(announced) == 1 and announced[0]["prompt"] == "WAKE UP NOW"
    finals = [s["result"] for s in seen if s["type"] == "result"]
    assert finals == ["scheduled", "woke and checked"]


def test_a_resumed_session_has_its_jobs_again(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    print_run(project, [tool_use("CronCreate", cron="0 9 * * 1", prompt="weekly report")])
    again = print_run(project, [tool_use("CronList")], "-c")
    (listed,) = tool_results(again)
    assert "0 9 * * 1 recurring: weekly report" in listed["text"]
