"""``hands batch``: what scheduling costs per task, and whether workers stay busy.

1. Real sessions (a scripted model doing one Read, then answering), local engine vs a
   local Ray instance, at concurrency 2, 8 and 32: tasks per second, and the
   scheduling overhead per task — the time a worker slot was not inside a session,
   ``(wall × concurrency − Σ session time) / tasks`` (at concurrency above the cores
   this also counts waiting for a CPU).
2. Pure scheduling: the same engines running a task that returns at once, so only the
   engine's own cost per task is left (goal on Ray: < 50 ms).
3. A simulation of 10,000 tasks whose sessions are replaced by a sleep of a duration
   drawn from a log-normal distribution (median 20 ms), on 8 workers: utilisation =
   Σ sleep / (wall × workers). Goal: ≥ 90 %. On Ray the 8 workers are made by each task
   asking for an 8th of the CPUs, with 16 tasks in flight.

    .venv/bin/python benchmarks/batch.py [--quick] [--no-ray]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hands.batch.engines import Engine, LocalEngine, RayEngine
from hands.batch.session import RunSettings
from hands.batch.tasks import BatchTask


def read_tasks(root: Path, count: int) -> tuple[list[BatchTask], str]:
    script = root / "read.json"
    script.write_text(
        json.dumps(
            {
                "turns": [
                    {
                        "blocks": [
                            {"type": "tool_use", "name": "Glob", "input": {"pattern": "*.py"}}
                        ]
                    },
                    {"blocks": [{"type": "text", "text": "read it"}]},
                ]
            }
        )
    )
    tasks = [
        BatchTask(id=f"t{i}", prompt="look", files={"calc.py": "x = 1\n"}) for i in range(count)
    ]
    return tasks, f"scripted:{script}"


def run(
    engine: Engine, tasks: list[BatchTask], settings: RunSettings
) -> tuple[float, list[dict[str, Any]]]:
    results: list[dict[str, Any]] = []
    start = time.perf_counter()
    engine.run(tasks, settings, on_start=lambda _t: None, on_result=results.append)
    return time.perf_counter() - start, results


def instant(task: BatchTask, settings: RunSettings, attempt: int) -> dict[str, Any]:
    return {"id": task.id, "status": "completed", "attempt": attempt, "duration_s": 0.0}


def instant_data(
    task: Mapping[str, Any], settings: Mapping[str, Any], attempt: int
) -> dict[str, Any]:
    return {"id": task["id"], "status": "completed", "attempt": attempt, "duration_s": 0.0}


def sleeping(task: BatchTask, settings: RunSettings, attempt: int) -> dict[str, Any]:
    seconds = float(task.prompt)
    time.sleep(seconds)
    return {"id": task.id, "status": "completed", "attempt": attempt, "duration_s": seconds}


def sleeping_data(
    task: Mapping[str, Any], settings: Mapping[str, Any], attempt: int
) -> dict[str, Any]:
    seconds = float(task["prompt"])
    time.sleep(seconds)
    return {"id": task["id"], "status": "completed", "attempt": attempt, "duration_s": seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-ray", action="store_true", help="the local engine only")
    args = parser.parse_args()
    use_ray = not args.no_ray
    if use_ray:
        try:
            import ray

            ray.init(log_to_driver=False, include_dashboard=False)
        except ImportError:
            print("(Ray is not installed: pip install 'hands[ray]'; local engine only)")
            use_ray = False
    per_level = 6 if args.quick else 16
    levels = (2, 8) if args.quick else (2, 8, 32)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        print("1. real sessions (scripted model, one Glob, an answer):")
        print(f"{'engine':<8}{'conc.':>6}{'tasks':>7}{'tasks/s':>9}{'overhead ms/task':>18}")
        for concurrency in levels:
            count = max(per_level, concurrency * 2)
            tasks, model = read_tasks(root, count)
            engines: list[tuple[str, Engine]] = [("local", LocalEngine(concurrency=concurrency))]
            if use_ray:
                engines.append(("ray", RayEngine(concurrency=concurrency, num_cpus=0.01)))
            for name, engine in engines:
                settings = RunSettings(run_dir=root / f"{name}-{concurrency}", model=model)
                wall, results = run(engine, tasks, settings)
                inside = sum(float(r.get("duration_s") or 0) for r in results)
                overhead = (wall * min(concurrency, count) - inside) / count * 1000
                bad = [r for r in results if r.get("status") != "completed"]
                note = (
                    f"  ({len(bad)} not completed: {bad[0].get('error', '')[:60]})" if bad else ""
                )
                row = f"{name:<8}{concurrency:>6}{count:>7}{count / wall:>9.2f}{overhead:>18.1f}"
                print(row + note)
        print()
        print("2. scheduling alone (a task that returns at once), median of 5 runs of 200:")
        tasks = [BatchTask(id=f"n{i}", prompt="0") for i in range(200)]
        settings = RunSettings(run_dir=root / "none")
        pure: list[tuple[str, Engine]] = [("local", LocalEngine(concurrency=8, runner=instant))]
        if use_ray:
            pure.append(("ray", RayEngine(concurrency=8, num_cpus=0.01, runner=instant_data)))
        for name, engine in pure:
            walls = [run(engine, tasks, settings)[0] for _ in range(5)]
            per_task = statistics.median(walls) / len(tasks) * 1000
            goal = "" if name == "local" else f"  goal < 50 ms: {'yes' if per_task < 50 else 'NO'}"
            print(f"{name:<8}{per_task:>8.2f} ms per task (8 in flight){goal}")
        print()
        count = 2_000 if args.quick else 10_000
        workers = 8
        rng = random.Random(7)
        durations = [min(rng.lognormvariate(-3.9, 0.5), 0.5) for _ in range(count)]
        median_ms = statistics.median(durations) * 1000
        print(f"3. simulation: {count:,} tasks sleeping a sampled duration "
              f"(median {median_ms:.0f} ms), {workers} workers:")  # fmt: skip
        sim = [BatchTask(id=f"s{i}", prompt=f"{d:.4f}") for i, d in enumerate(durations)]
        busy = sum(float(t.prompt) for t in sim)
        simulated: list[tuple[str, Engine]] = [
            ("local", LocalEngine(concurrency=workers, runner=sleeping))
        ]
        if use_ray:
            # 8 run at once because each asks for an 8th of the CPUs; 16 in flight keep a
            # finished worker's next task already queued in Ray, not waiting on the driver
            cpus = float(ray.cluster_resources().get("CPU", 2.0))
            ray_sim = RayEngine(
                concurrency=workers * 2, num_cpus=cpus / workers, runner=sleeping_data
            )
            simulated.append(("ray", ray_sim))
        for name, engine in simulated:
            wall, results = run(engine, sim, settings)
            utilisation = busy / (wall * workers) * 100
            verdict = "yes" if utilisation >= 90 else "NO"
            print(f"{name:<8}wall {wall:6.1f} s, utilisation {utilisation:5.1f} % "
                  f"(goal ≥ 90 %: {verdict}), {len(results):,} results")  # fmt: skip


if __name__ == "__main__":
    main()
