"""Where the test suite's CPU goes, by kind of process.

Usage: ``python benchmarks/suite_cpu/run.py [LOG_DIR] -- PYTEST_ARGS...`` runs pytest with
this folder's ``sitecustomize`` on ``PYTHONPATH`` (every Python process the run starts
logs its CPU when it ends, and the CPU of each child it waits for, to LOG_DIR) and as a
child subreaper, so that daemons the tests start (a terminal server, a Ray cluster)
come back to it when their parent ends and are counted too. Then prints the CPU seconds
by kind of process (``--table LOG_DIR`` prints it again from a finished run's logs).

Not in ``make bench`` (it runs the whole suite): run it by hand, on a quiet machine.
"""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
PR_SET_CHILD_SUBREAPER = 36


def _stat(pid: int | str) -> tuple[str, int, int]:
    """A process's name, parent and start (clock ticks after boot); ("", -1, -1) if gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return "", -1, -1
    head, tail = stat.rsplit(")", 1)
    fields = tail.split()
    return head.split("(", 1)[1], int(fields[1]), int(fields[19])


def _orphan_names(names: dict[tuple[int, int], str], stop: threading.Event) -> None:
    """Note the command line of each process that came back to this one, while it lives."""
    me = os.getpid()
    while not stop.wait(0.5):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            _, parent, start = _stat(entry.name)
            if parent != me or (int(entry.name), start) in names:
                continue
            try:
                cmd = Path(f"/proc/{entry.name}/cmdline").read_bytes()
            except OSError:
                continue
            text = cmd.replace(b"\0", b" ").decode(errors="replace")
            names[(int(entry.name), start)] = text[:300]


def run(log: Path, pytest_args: list[str]) -> int:
    log.mkdir(parents=True, exist_ok=True)
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(HERE), env.get("PYTHONPATH")) if p)
    env["SUITE_CPU_LOG"] = str(log)
    started = time.monotonic()
    main = subprocess.Popen([str(Path(sys.executable).parent / "pytest"), *pytest_args], env=env)
    me = [os.getpid(), _stat("self")[2]]
    main_id = (main.pid, _stat(main.pid)[2])
    names: dict[tuple[int, int], str] = {main_id: "pytest (controller)"}
    stop = threading.Event()
    watcher = threading.Thread(target=_orphan_names, args=(names, stop), daemon=True)
    watcher.start()
    status = 0
    reaped: list[dict[str, object]] = []
    main_done = None
    while True:
        try:  # the child's name and start while it is a zombie, then its usage
            found = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOWAIT)
        except ChildProcessError:
            break
        assert found is not None
        comm, _, start = _stat(found.si_pid)
        pid, code, usage = os.wait4(found.si_pid, 0)
        reaped.append(
            {
                "k": "reap",
                "parent": me,
                "pid": [pid, start],
                "cmdline": names.get((pid, start), ""),
                "comm": comm,
                "cpu": usage.ru_utime + usage.ru_stime,
                "orphan": pid != main.pid,
            }
        )
        if pid == main.pid:
            status = os.waitstatus_to_exitcode(code)
            main_done = time.monotonic() - started
            # daemons still alive are waited for a little, then counted as they stand
            timer = threading.Timer(20, _kill_rest, args=(names,))
            timer.daemon = True
            timer.start()
    stop.set()
    (log / "runner.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in reaped)
        + json.dumps({"k": "wall", "seconds": main_done}) + "\n"
    )
    return status


def _kill_rest(names: dict[tuple[int, int], str]) -> None:
    for pid, start in list(names):
        _, parent, now = _stat(pid)
        if parent == os.getpid() and now == start:
            try:
                os.kill(pid, 9)
            except OSError:
                pass


def kind(cmdline: str, comm: str = "") -> str:
    """The kind of a process, from its command line."""
    words = cmdline.split()
    first = Path(words[0]).name if words else comm
    text = cmdline or comm
    if "xdist" in text or (first == "-c" and "execnet" in text):
        return "pytest worker"
    if first in ("pytest", "py.test") or "-m pytest" in text:
        return "pytest"
    if first == "hands" or "hands/__main__.py" in text or "-m hands" in text:
        sub = words[1] if len(words) > 1 and not words[1].startswith("-") else ""
        return f"hands {sub}".strip() if sub in ("mcp", "tool", "batch") else "hands"
    if "ray" in text and ("raylet" in text or "gcs_server" in text or "ray/" in text):
        return "ray"
    if "chrom" in first or "chrom" in comm or "headless_shell" in text:
        return "chromium"
    if first in ("node", "npm", "npx", "sh") and "inspector" in text.lower():
        return "node (MCP Inspector)"
    if "-m hands" in text or comm == "hands":
        return "hands"
    if first in ("node", "npm", "npx") or comm in ("node", "npm", "npx"):
        return "node"
    if first == "-c":
        return "python -c"
    if first.endswith(".py"):
        return f"python {first}"
    if first.startswith("python"):
        rest = [w for w in words[1:] if not w.startswith("-")]
        target = Path(rest[0]).name if rest else "-c"
        return f"python {target}"
    return first or comm or "?"


Ident = tuple[int, int]


def _ident(value: object) -> Ident:
    if isinstance(value, int):  # logs written before processes carried their start
        return value, -1
    pid, start = value  # type: ignore[misc]
    return int(pid), int(start)


def table(log: Path) -> str:
    py: dict[Ident, dict[str, object]] = {}
    reaps: list[dict[str, object]] = []
    wall = None
    for f in sorted(log.glob("*.jsonl")):
        for line in f.read_text().splitlines():
            entry = json.loads(line)
            if entry["k"] == "py":
                py[_ident(entry["pid"])] = entry
            elif entry["k"] == "reap":
                reaps.append(entry)
            elif entry["k"] == "wall":
                wall = entry["seconds"]
    reap_of = {_ident(r["pid"]): r for r in reaps}
    # a process's CPU with that of the descendants it waited for: the kernel's figure
    # when its parent waited for it (it includes the interpreter's finalization, after
    # the atexit line), else the figure the process wrote at exit
    inclusive: dict[Ident, float] = {i: float(r["cpu"]) for i, r in reap_of.items()}  # type: ignore[arg-type]
    parent: dict[Ident, Ident] = {i: _ident(r["parent"]) for i, r in reap_of.items()}
    for i, entry in py.items():
        if i not in inclusive:
            inclusive[i] = float(entry["self"]) + float(entry["children"])  # type: ignore[arg-type]
            parent[i] = _ident(entry["ppid"])
    children: dict[Ident, set[Ident]] = defaultdict(set)
    for i, up in parent.items():
        children[up].add(i)
    controller = {i for i, r in reap_of.items() if r.get("orphan") is False}
    by_kind: dict[str, list[float]] = defaultdict(list)
    starts: dict[str, list[float]] = defaultdict(list)
    for i in inclusive:
        own = inclusive[i] - sum(inclusive[c] for c in children.get(i, ()))
        r = reap_of.get(i)
        if i in py:
            entry = py[i]
            argv = " ".join(str(a) for a in entry["argv"])  # type: ignore[union-attr]
            # the workers' variable is in the environment of every process a test starts
            worker = entry.get("worker") and _ident(entry["ppid"]) in controller
            name = "pytest worker" if worker else kind(argv)
            if i in controller:
                name = "pytest (controller)"
            starts[name].append(float(entry["start"]))  # type: ignore[arg-type]
        else:
            assert r is not None
            if i in controller:
                continue
            name = kind(str(r["cmdline"]), str(r["comm"]))
            if r.get("orphan"):
                name = f"{name} (came back to the runner)"
        by_kind[name].append(max(own, 0.0))
    total = sum(sum(v) for v in by_kind.values())
    rows = sorted(by_kind.items(), key=lambda kv: -sum(kv[1]))
    out = [
        f"wall {wall:.0f} s, CPU {total:.0f} s" if wall else f"CPU {total:.0f} s",
        "",
        "| kind | processes | CPU s | share | CPU per process, s | start before `site`, s |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, values in rows:
        s = starts.get(name)
        start = f"{sum(s) / len(s):.3f}" if s else ""
        out.append(
            f"| {name} | {len(values)} | {sum(values):.1f} | {sum(values) / total:.1%} "
            f"| {sum(values) / len(values):.3f} | {start} |"
        )
    return "\n".join(out)


def main() -> int:
    args = sys.argv[1:]
    if args[:1] == ["--table"]:
        print(table(Path(args[1])))
        return 0
    split = args.index("--") if "--" in args else 0
    log = Path(args[0]) if split else Path(tempfile.mkdtemp(prefix="suite-cpu-"))
    status = run(log, args[split + 1 :] if split else args)
    print(table(log))
    print(f"logs: {log}")
    return status


if __name__ == "__main__":
    sys.exit(main())
