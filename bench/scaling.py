"""How a command's cost grows with its input: one whole process per size, a few runs each.

`time_sizes` runs a command on inputs of 1x, 10x and 100x a base size and reports, per size, the
median wall and CPU time (user + sys, from wait4), the peak resident memory and the growth
against the 1x size; `print_sizes` prints that as a Markdown table.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence

FACTORS = (1, 10, 100)


def run_once(argv: Sequence[str], env: dict[str, str], cwd: str) -> tuple[float, float, int, int]:
    """(wall s, CPU s with waited-for children, peak RSS KiB, exit code) of one run."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        list(argv),
        env=env,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, proc.returncode


def time_sizes(
    make_input: Callable[[int], tuple[str, str]],
    argv_for: Callable[[str], list[str]],
    env: dict[str, str],
    cwd: str,
    runs: int = 3,
    factors: Sequence[int] = FACTORS,
) -> list[dict]:
    """Per factor: make the input (path, size label), one warm-up run, then `runs` timed runs."""
    rows = []
    for factor in factors:
        path, size = make_input(factor)
        argv = argv_for(path)
        run_once(argv, env, cwd)
        walls, cpus, rss, codes = [], [], [], set()
        for _ in range(runs):
            wall, cpu, peak, code = run_once(argv, env, cwd)
            walls.append(wall)
            cpus.append(cpu)
            rss.append(peak)
            codes.add(code)
        rows.append(
            {
                "factor": factor,
                "size": size,
                "wall_median_s": statistics.median(walls),
                "wall_min_s": min(walls),
                "cpu_median_s": statistics.median(cpus),
                "peak_rss_mib": max(rss) / 1024,
                "exit_codes": sorted(codes),
                "runs": runs,
            }
        )
    base = rows[0]
    for row in rows:
        row["wall_growth"] = row["wall_median_s"] / base["wall_median_s"]
        row["cpu_growth"] = row["cpu_median_s"] / base["cpu_median_s"]
    return rows


def print_sizes(rows: list[dict]) -> None:
    """The Markdown table of `time_sizes` rows."""
    print(
        "| size | input | wall median | wall best | CPU median | peak RSS | growth (wall / CPU) vs 1x | exit |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['factor']}x | {r['size']} | {r['wall_median_s']:.2f} s | {r['wall_min_s']:.2f} s | "
            f"{r['cpu_median_s']:.2f} s | {r['peak_rss_mib']:.0f} MiB | "
            f"{r['wall_growth']:.1f}x / {r['cpu_growth']:.1f}x | {'/'.join(map(str, r['exit_codes']))} |"
        )
