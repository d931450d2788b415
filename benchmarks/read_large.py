"""Read deep inside a 1 GB file vs sed/tail, and Edit one line of a 50 MB file.

Each Read runs in a fresh process so its peak RSS is its own; the time is the Read call
alone (interpreter start-up excluded). sed and tail are timed as whole processes: they
are the physical floor. Medians of several runs with a warm page cache.

    python benchmarks/read_large.py [--size-mb 1024] [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LINE = b"%010d the quick brown fox jumps over the lazy dog; pack my box with five dozen jugs.\n"
LIMIT = 100

CHILD = """
import sys, time, anyio
from pathlib import Path
from hands.core.context import ToolContext
from hands.core.session import Session
from hands.tools.file.read import ReadInput, ReadTool

path, offset, limit, pages = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
ctx = ToolContext(cwd=Path(path).parent, session=Session(home=Path(path).parent / "home"))
tool = ReadTool()

async def main() -> None:
    for page in range(pages):
        started = time.perf_counter()
        first = offset + page * limit
        out = await tool.call(ReadInput(file_path=path, offset=first, limit=limit), ctx, print)
        text = tool.to_content(out.output)
        assert isinstance(text, str) and text.startswith(f"{first}\\t"), text[:80]
        print(time.perf_counter() - started)

anyio.run(main)
"""

EDIT_CHILD = """
import sys, time, anyio
from pathlib import Path
from hands.core.context import ToolContext
from hands.core.session import Session
from hands.tools.file.edit import EditInput, EditTool
from hands.tools.file.read import ReadInput, ReadTool

path, line = sys.argv[1], int(sys.argv[2])
ctx = ToolContext(cwd=Path(path).parent, session=Session(home=Path(path).parent / "home"))
old = "%010d the quick" % (line - 1)

async def main() -> None:
    started = time.perf_counter()
    await ReadTool().call(ReadInput(file_path=path, offset=line, limit=1), ctx, print)
    read_done = time.perf_counter()
    tool = EditTool()
    inp = EditInput(file_path=path, old_string=old, new_string="EDITED the quick")
    assert await tool.validate_input(inp, ctx) is None
    await tool.call(inp, ctx, print)
    print(read_done - started, time.perf_counter() - read_done)

anyio.run(main)
"""


def make_file(path: Path, size: int) -> int:
    """Write numbered ~100-byte lines up to ``size`` bytes; return the line count."""
    lines = size // len(LINE % 0)
    with path.open("wb") as out:
        batch = 100_000
        for start in range(0, lines, batch):
            out.write(b"".join(LINE % i for i in range(start, min(start + batch, lines))))
    return lines


def run(cmd: list[str]) -> tuple[float, float, str]:
    """Wall seconds, peak RSS in MB and stdout of one process.

    The peak comes from GNU time when present: a child forked straight from this Python
    process would report this process's RSS as its own starting peak.
    """
    timer = ["/usr/bin/time", "-f", "%M"] if Path("/usr/bin/time").exists() else []
    started = time.perf_counter()
    proc = subprocess.Popen([*timer, *cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate()
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise RuntimeError(f"{cmd[:3]} failed: {err.decode()[-2000:]}")
    rss = float(err.decode().split()[-1]) / 1024 if timer else float("nan")
    return wall, rss, out.decode()


def median(values: list[float]) -> float:
    return statistics.median(values)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--edit-mb", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="hands-bench-") as tmp:
        big = Path(tmp) / "big.txt"
        started = time.perf_counter()
        total = make_file(big, args.size_mb << 20)
        print(
            f"generated {big.stat().st_size / (1 << 20):,.0f} MB, {total:,} lines "
            f"in {time.perf_counter() - started:.1f} s"
        )
        # Warm the page cache (output discarded: a big parent would inflate children's RSS).
        subprocess.run(["cat", str(big)], stdout=subprocess.DEVNULL, check=True)

        print(f"\nRead {LIMIT} lines (median of {args.runs}; hands time = the Read call only)")
        header = (
            f"{'where':<8}{'offset':>12}  {'hands s':>8}{'sed s':>8}{'ratio':>7}"
            f"{'tail s':>8}  {'hands RSS':>10}{'sed RSS':>9}"
        )
        print(header)
        print("-" * len(header))
        for where, offset in (("start", 1), ("middle", total // 2), ("end", total - LIMIT + 1)):
            hands_t: list[float] = []
            hands_rss: list[float] = []
            sed_t: list[float] = []
            sed_rss: list[float] = []
            for _ in range(args.runs):
                cmd = [sys.executable, "-c", CHILD, str(big), str(offset), str(LIMIT), "1"]
                _, rss, out = run(cmd)
                hands_t.append(float(out.split()[0]))
                hands_rss.append(rss)
                last = offset + LIMIT - 1
                wall, rss, _ = run(["sed", "-n", f"{offset},{last}p;{last}q", str(big)])
                sed_t.append(wall)
                sed_rss.append(rss)
            tail_t = median([run(["tail", "-n", str(LIMIT), str(big)])[0] for _ in hands_t])
            h, s = median(hands_t), median(sed_t)
            print(
                f"{where:<8}{offset:>12,}  {h:>8.3f}{s:>8.3f}{h / s:>6.2f}x{tail_t:>8.3f}  "
                f"{median(hands_rss):>8.1f}MB{median(sed_rss):>7.1f}MB"
            )

        _, rss, out = run([sys.executable, "-c", CHILD, str(big), str(total // 2), str(LIMIT), "3"])
        pages = [float(x) for x in out.split()]
        print(
            f"\npaging on in one session from the middle: first page {pages[0]:.3f} s, "
            f"next pages {pages[1]:.3f} s and {pages[2]:.3f} s (line index), "
            f"peak RSS {rss:.1f} MB"
        )
        baseline = run([sys.executable, "-c", "import anyio, pydantic, hands.tools.file.read"])[1]
        print(f"(a Python process that only imports the Read tool peaks at {baseline:.1f} MB)")
        big.unlink()

        small = Path(tmp) / "edit.txt"
        lines = make_file(small, args.edit_mb << 20)
        reads: list[float] = []
        edits: list[float] = []
        for i in range(max(args.runs, 5)):
            line = lines // 2 + i
            _, _, out = run([sys.executable, "-c", EDIT_CHILD, str(small), str(line)])
            r, e = (float(x) for x in out.split())
            reads.append(r)
            edits.append(e)
        sed_edit = median(
            [
                run(["sed", "-i", f"{lines // 3 + i}s/the quick/SED the quick/", str(small)])[0]
                for i in range(5)
            ]
        )
        print(
            f"\nEdit one line of a {args.edit_mb} MB file ({lines:,} lines), "
            f"median of {len(edits)}:"
        )
        print(
            f"  Read of that line {median(reads):.3f} s; Edit (validate + atomic write, "
            f"fsync) {median(edits):.3f} s; sed -i for comparison {sed_edit:.3f} s"
        )


if __name__ == "__main__":
    main()
