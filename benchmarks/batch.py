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
   Σ sleep / (wall × workers). Goal: ≥ 90 %. On Ray the 8 workers are actors each asking
   for an 8th of the CPUs, two tasks queued on each. Ray's rows also give the start-up
   of its worker processes (first / all ready) and the figure over the time after it.

    .venv/bin/python benchmarks/batch.py [--quick] [--no-ray] [--parts 123] [--simulate N]
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
from hands.batch.ray_pool import PoolShape, RayPool
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
    began = time.time()
    time.sleep(seconds)
    return {"id": task["id"], "status": "completed", "attempt": attempt, "duration_s": seconds,
            "began": began, "ended": time.time()}  # fmt: skip


def on_pool(
    tasks: list[BatchTask], settings: RunSettings, *, workers: int, num_cpus: float, runner: Any
) -> tuple[float, list[dict[str, Any]], RayPool, float]:
    """Wall time, results, the pool (its start-up figures) and the epoch it started at."""
    shape = PoolShape(address=None, workers=workers, num_cpus=num_cpus, memory_mb=64, depth=2,
                      retries=0, runner=runner)  # fmt: skip
    pool = RayPool(shape=shape, settings=settings.to_data())
    results: list[dict[str, Any]] = []
    epoch, start = time.time(), time.perf_counter()
    try:
        pool.drive(tasks, on_start=lambda _t: None, on_result=results.append)
    finally:
        pool.close()
    return time.perf_counter() - start, results, pool, epoch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--parts", default="123", help="which parts to run, e.g. 3")
    parser.add_argument("--simulate", type=int, default=None, help="tasks in part 3")
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
        if "1" in args.parts:
            print("1. real sessions (scripted model, one Glob, an answer):")
            print(f"{'engine':<8}{'conc.':>6}{'tasks':>7}{'tasks/s':>9}{'overhead ms/task':>18}")
            for concurrency in levels:
                count = max(per_level, concurrency * 2)
                tasks, model = read_tasks(root, count)
                engines: list[tuple[str, Engine]] = [
                    ("local", LocalEngine(concurrency=concurrency))
                ]
                if use_ray:
                    engines.append(("ray", RayEngine(concurrency=concurrency, num_cpus=0.01)))
                for name, engine in engines:
                    settings = RunSettings(run_dir=root / f"{name}-{concurrency}", model=model)
                    wall, results = run(engine, tasks, settings)
                    inside = sum(float(r.get("duration_s") or 0) for r in results)
                    overhead = (wall * min(concurrency, count) - inside) / count * 1000
                    bad = [r for r in results if r.get("status") != "completed"]
                    note = (
                        f"  ({len(bad)} not completed: {bad[0].get('error', '')[:60]})"
                        if bad
                        else ""
                    )
                    row = (
                        f"{name:<8}{concurrency:>6}{count:>7}{count / wall:>9.2f}{overhead:>18.1f}"
                    )
                    print(row + note)
        if "2" in args.parts:
            print()
            print("2. scheduling alone (a task that returns at once), median of 5 runs of 200:")
            tasks = [BatchTask(id=f"n{i}", prompt="0") for i in range(200)]
            settings = RunSettings(run_dir=root / "none")
            local = LocalEngine(concurrency=8, runner=instant)
            walls = [run(local, tasks, settings)[0] for _ in range(5)]
            per_local = statistics.median(walls) / len(tasks) * 1000
            print(f"local   {per_local:>8.2f} ms per task (8 workers)")
            if use_ray:
                runs = [on_pool(tasks, settings, workers=8, num_cpus=0.01, runner=instant_data)
                        for _ in range(5)]  # fmt: skip
                per_task = statistics.median(r[0] for r in runs) / len(tasks) * 1000
                first = statistics.median(r[2].cold_start_s or 0 for r in runs)
                print(
                    f"ray     {per_task:>8.2f} ms per task (8 workers, their start-up included; "
                    f"goal < 50 ms: {'yes' if per_task < 50 else 'NO'})"
                )
                warm = statistics.median(r[0] - (r[2].cold_start_s or 0) for r in runs)
                print(
                    f"ray     {warm / len(tasks) * 1000:>8.2f} ms per task after the first worker "
                    f"was up (in {first * 1000:.0f} ms, median of the runs)"
                )
        if "3" in args.parts:
            print()
            count = args.simulate or (2_000 if args.quick else 10_000)
            workers = 8
            rng = random.Random(7)
            durations = [min(rng.lognormvariate(-3.9, 0.5), 0.5) for _ in range(count)]
            median_ms = statistics.median(durations) * 1000
            print(f"3. simulation: {count:,} tasks sleeping a sampled duration "
                  f"(median {median_ms:.0f} ms), {workers} workers:")  # fmt: skip
            sim = [BatchTask(id=f"s{i}", prompt=f"{d:.4f}") for i, d in enumerate(durations)]
            busy = sum(float(t.prompt) for t in sim)
            settings = RunSettings(run_dir=root / "none")
            wall, results = run(LocalEngine(concurrency=workers, runner=sleeping), sim, settings)
            print(utilisation_row("local", wall, busy / (wall * workers), len(results)))
            if use_ray:
                # 8 workers, each asking for an 8th of the CPUs
                cpus = float(ray.cluster_resources().get("CPU", 2.0))
                wall, results, pool, epoch = on_pool(
                    sim, settings, workers=workers, num_cpus=cpus / workers, runner=sleeping_data
                )
                print(utilisation_row("ray", wall, busy / (wall * workers), len(results)))
                up = epoch + (pool.all_ready_s or 0.0)
                after = sum(max(0.0, r["ended"] - max(r["began"], up)) for r in results)
                steady = after / ((wall - (pool.all_ready_s or 0.0)) * workers)
                print(
                    f"ray     after the {pool.all_ready_s or 0:.2f} s until all {workers} workers "
                    f"were up: utilisation {steady * 100:5.1f} %"
                )


def utilisation_row(name: str, wall: float, share: float, results: int) -> str:
    verdict = "yes" if share >= 0.9 else "NO"
    return (f"{name:<8}wall {wall:6.1f} s, utilisation {share * 100:5.1f} % "
            f"(goal ≥ 90 %: {verdict}), {results:,} results")  # fmt: skip


if __name__ == "__main__":
    main()
