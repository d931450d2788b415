"""The session's scheduled prompts: when each fires, kept with the session on disk.

A job is a prompt and a time: a cron expression in local time (CronCreate; recurring
until deleted or 30 days old, or once), or a delay (ScheduleWakeup). The front ends that
read prompts as they come (the REPL, ``-p --input-format stream-json``) ask
:meth:`Schedule.wait_due` for the next due prompt and run it as a user turn. Jobs are
saved in the session's folder at each change, so a resumed session has them again.
A durable CronCreate job is kept in the project's ``.claude/scheduled_tasks.json``
instead (:mod:`hands.tools.schedule.durable`) and comes back in every later session
started in that project, once the folder is trusted (:meth:`Schedule.open_project`).
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, cast

import anyio

from hands.core.session import Session
from hands.tools.schedule import durable

MAX_AGE_S = 30 * 24 * 3600
"""A recurring job ends this long after it was made."""
FILE = "schedule.json"
MIN_DELAY_VARIABLE = "HANDS_WAKEUP_MIN_SECONDS"
"""The shortest wakeup delay (default 60 s, as Claude Code clamps it)."""
MAX_DELAY_S = 3600


class CronError(ValueError):
    """A cron expression that cannot be used (the message says why)."""


def next_fire(cron: str, after: float) -> float:
    """The first time after ``after`` (epoch seconds) that ``cron`` matches, in local time."""
    from cronsim import CronSim, CronSimError

    fields = cron.split()
    if len(fields) != 5:
        raise CronError(
            f"{cron!r} has {len(fields)} fields; a cron expression has 5: minute hour "
            "day-of-month month day-of-week (e.g. '*/5 * * * *')."
        )
    start = datetime.fromtimestamp(after).astimezone()
    try:
        return next(CronSim(" ".join(fields), start)).timestamp()
    except (CronSimError, StopIteration) as exc:
        raise CronError(f"{cron!r} is not a cron expression that ever fires ({exc}).") from None


def min_delay_s() -> float:
    """The shortest wakeup delay the environment allows."""
    from hands.core.env import amount

    value = amount(MIN_DELAY_VARIABLE)
    return 60.0 if value is None else value


@dataclass(frozen=True, kw_only=True, slots=True)
class Job:
    """One scheduled prompt."""

    id: str
    prompt: str
    at: float
    """When it fires next (epoch seconds)."""
    kind: Literal["cron", "wakeup"] = "cron"
    cron: str = ""
    recurring: bool = False
    made: float = 0.0
    reason: str = ""
    durable: bool = False
    """Kept in the project's scheduled tasks file, not with the session."""


def task_entry(job: Job) -> dict[str, object]:
    """A durable job as the project's scheduled tasks file keeps it."""
    entry: dict[str, object] = {
        "id": job.id,
        "cron": job.cron,
        "prompt": job.prompt,
        "createdAt": round(job.made * 1000),
    }
    if job.recurring:
        entry["recurring"] = True
    return entry


def job_from_task(task: object, now: float) -> Job | None:
    """The job of one entry of the file, or None (malformed, or a recurring one too old).

    A recurring job goes on from ``now`` (runs missed while no session was open are not
    made up); a one-time job whose time passed while no session was open fires at once.
    """
    if not isinstance(task, dict):
        return None
    entry = cast(dict[str, Any], task)
    ident, cron, prompt, created = (entry.get(k) for k in ("id", "cron", "prompt", "createdAt"))
    if not (isinstance(ident, str) and isinstance(cron, str) and isinstance(prompt, str)):
        return None
    if not isinstance(created, int | float) or isinstance(created, bool) or not ident:
        return None
    last = entry.get("lastFiredAt")
    made = created / 1000
    after = last / 1000 if isinstance(last, int | float) and not isinstance(last, bool) else made
    recurring = entry.get("recurring") is True
    try:
        at = next_fire(cron, after)
        if recurring and at < now:
            at = next_fire(cron, now)
    except CronError:
        return None
    if recurring and now - made > MAX_AGE_S:
        return None
    return Job(
        id=ident,
        prompt=prompt,
        at=at if recurring else max(at, now),
        cron=" ".join(cron.split()),
        recurring=recurring,
        made=made,
        durable=True,
    )


class Schedule:
    """The jobs of one session (a session service); see the module docstring."""

    def __init__(self) -> None:
        self.jobs: dict[str, Job] = {}
        self.path: Path | None = None
        self.project: Path | None = None
        """Where durable jobs are kept (its ``.claude/scheduled_tasks.json``)."""
        self._changed = anyio.Event()

    @classmethod
    def of(cls, session: Session) -> Schedule:
        """The session's schedule, loaded from its folder the first time."""
        schedule = session.service(cls)
        if schedule.path is None:
            schedule.path = session.directory / FILE
            schedule.load()
        return schedule

    def open_project(self, project: Path, *, trusted: bool) -> str:
        """Keep durable jobs in ``project``; in a trusted folder, take back the ones there.

        In a folder not trusted the file is left unread (its prompts are the repository's
        words), though new durable jobs are still added to it. Returns a line for the
        user when the file could not be used, else "".
        """
        self.project = project
        if not trusted:
            return ""
        now = time.time()
        try:
            tasks = durable.read_tasks(project)
        except durable.DurableFileError as exc:
            return f"durable scheduled jobs not loaded: {exc}"
        loaded = [job_from_task(t, now) for t in tasks]
        fresh = [j for j in loaded if j is not None and j.id not in self.jobs]
        for job in fresh:
            self.jobs[job.id] = job
        if fresh:
            self._changed.set()
            self._changed = anyio.Event()
        return ""

    def add(self, job: Job) -> Job:
        """Keep ``job`` (a new id when none is given).

        A durable one is written to the project's file first; DurableFileError or
        OSError when it cannot be (then it is not kept at all).
        """
        if not job.id:
            job = replace(job, id=secrets.token_hex(4))
        if job.durable:
            if self.project is None:
                raise durable.DurableFileError("no project folder is known to keep it in")
            durable.put(self.project, task_entry(job))
        self.jobs[job.id] = job
        self._changed_now()
        return job

    def remove(self, job_id: str) -> Job | None:
        """Forget the job; it, if there was one (a durable one leaves the file first)."""
        job = self.jobs.get(job_id)
        if job is not None and job.durable and self.project is not None:
            durable.drop(self.project, job_id)
        job = self.jobs.pop(job_id, None)
        if job is not None:
            self._changed_now()
        return job

    def ordered(self) -> list[Job]:
        """The jobs, soonest first."""
        return sorted(self.jobs.values(), key=lambda j: (j.at, j.id))

    def take_due(self, now: float | None = None) -> list[Job]:
        """The jobs due by ``now``: one-shots leave, recurring ones move to their next time."""
        now = time.time() if now is None else now
        due = [j for j in self.ordered() if j.at <= now]
        for job in due:
            later = next_fire(job.cron, now) if job.recurring else None
            if later is None or later - job.made > MAX_AGE_S:
                del self.jobs[job.id]
            else:
                self.jobs[job.id] = replace(job, at=later)
            if job.durable:
                self._record_firing(job, gone=job.id not in self.jobs, now=now)
        if due:
            self._changed_now()
        return due

    async def wait_due(self) -> list[Job]:
        """Until a job is due; the due ones (see :meth:`take_due`)."""
        while True:
            due = self.take_due()
            if due:
                return due
            changed = self._changed
            soonest = min((j.at for j in self.jobs.values()), default=None)
            with anyio.move_on_after(None if soonest is None else soonest - time.time()):
                await changed.wait()

    def _record_firing(self, job: Job, *, gone: bool, now: float) -> None:
        """A durable job fired: a finished one leaves the file, a recurring one notes when."""
        if self.project is None:
            return
        try:
            if gone:
                durable.drop(self.project, job.id)
            else:
                durable.fired(self.project, job.id, round(now * 1000))
        except (durable.DurableFileError, OSError):
            pass  # the prompt still runs; the file stays as it was

    def _changed_now(self) -> None:
        self._changed.set()
        self._changed = anyio.Event()
        self.save()

    def save(self) -> None:
        """Write the jobs to the session's folder (whole, or not at all)."""
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_suffix(".tmp")
        kept = [asdict(j) for j in self.ordered() if not j.durable]
        partial.write_text(json.dumps(kept, indent=1))
        partial.replace(self.path)

    def load(self) -> None:
        """Take back the saved jobs; an unreadable file or entry is left out."""
        if self.path is None:
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        from pydantic import TypeAdapter, ValidationError

        adapter = TypeAdapter(Job)
        entries: list[object] = data if isinstance(data, list) else []  # pyright: ignore[reportUnknownVariableType]
        for entry in entries:
            try:
                job = adapter.validate_python(entry)
            except ValidationError:
                continue
            if not job.durable:
                self.jobs[job.id] = job
