#!/usr/bin/env python3
"""envdoctor's start-up cost beside `python -m torch.utils.collect_env`, measured side by side.

Everything runs in one venv that has torch and envdoctor installed from this checkout as a wheel
would install them (`pip install .`, not editable: an editable install adds a ~12 ms import hook
to every Python start), which is how a container image or a workstation has it: `.venv-bench`,
made on first use (torch==2.13.0 from the package index, envdoctor's dependencies), envdoctor
reinstalled from the checkout on each run. In that venv, round-robin (so a change in load hits
every command alike), each as a whole process: `python -c pass`, `envdoctor preflight --require
gpu --require torch>=2.4` (unmet here: no GPU, so it also looks for the cause), `envdoctor
preflight --require torch>=2.4` (all met, the path a container start takes before it execs),
`envdoctor check --json`, and `python -m torch.utils.collect_env`; plus `check --json` with the
compiled-matrix cache off (what a first run costs). Each gets one warm-up run (bytecode and the
matrix cache written, as after the first use), then `--runs` measured runs; the table shows the
median and the best wall time, the median CPU time (user + sys of the process and the children it
waited for, from wait4) and the exit codes. The ratios against collect_env are printed for the
wall-time medians and for CPU time (less sensitive to other work on a shared machine), with the
1-minute load average before and after. Then triage of generated logs and fleet aggregation of
generated node reports at 1x, 10x and 100x (`bench/bench_triage.py`, `bench/bench_fleet.py`).

    python bench/run.py [--runs 11] [--venv .venv-bench] [--no-triage] [--no-fleet] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_triage  # noqa: E402
import scaling  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
TARGETS = {"check": 0.10, "preflight": 0.04}  # of collect_env's wall time (issue 12)


@dataclass
class Command:
    """One command line to time, and the exit codes it is expected to end with."""

    name: str
    argv: list[str]
    env: dict[str, str]
    expect: tuple[int, ...] = (0,)
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    rss_kib: list[int] = field(default_factory=list)
    codes: set[int] = field(default_factory=set)

    def row(self) -> dict:
        """Medians and extremes of the measured runs (seconds, MiB)."""
        return {
            "name": self.name,
            "argv": self.argv,
            "runs": len(self.walls),
            "wall_median_s": statistics.median(self.walls),
            "wall_min_s": min(self.walls),
            "wall_max_s": max(self.walls),
            "cpu_median_s": statistics.median(self.cpus),
            "peak_rss_mib": max(self.rss_kib) / 1024,
            "exit_codes": sorted(self.codes),
        }


def envdoctor_env(cache: str, venv: Path | None = None) -> dict[str, str]:
    """The environment the commands run in: envdoctor's cache in `cache` (a fresh folder per bench
    run, filled by the warm-up runs), bytecode written as an installed package has it, no colour,
    and the bench venv activated (as a user or an image's PATH has it: envdoctor inspects the
    active environment, and collect_env runs in it too)."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "CONDA_PREFIX")
    }
    env["ENVDOCTOR_CACHE_DIR"] = cache
    env["NO_COLOR"] = "1"
    if venv is not None:
        env["VIRTUAL_ENV"] = str(venv)
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


def bench_venv(venv: Path) -> Path:
    """The bench venv's python, made if missing, with envdoctor reinstalled from this checkout."""
    python = venv / "bin" / "python"
    quiet = ["-q", "--disable-pip-version-check"]
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    has_torch = (
        subprocess.run(
            [str(python), "-c", "import importlib.metadata as m; m.version('torch')"],
            capture_output=True,
        ).returncode
        == 0
    )
    if not has_torch:
        subprocess.run([str(python), "-m", "pip", "install", *quiet, "torch==2.13.0"], check=True)
    subprocess.run(
        [str(python), "-m", "pip", "install", *quiet, str(REPO)], check=True
    )  # its dependencies
    subprocess.run(
        [str(python), "-m", "pip", "install", *quiet, "--no-deps", "--force-reinstall", str(REPO)],
        check=True,
    )  # this checkout's code, not a cached build of the same version
    return python


def startup_commands(python: Path, cache: str) -> list[Command]:
    """The command lines of the start-up table, all in the bench venv."""
    env = envdoctor_env(cache, python.parent.parent)
    envdoctor = [str(python.parent / "envdoctor")]
    cold = dict(env, ENVDOCTOR_MATRIX_CACHE="off")
    return [
        Command("python -c pass", [str(python), "-c", "pass"], env),
        Command(
            "envdoctor preflight",
            envdoctor + ["preflight", "--require", "gpu", "--require", "torch>=2.4"],
            env,
            expect=(0, 1),
        ),
        Command(
            "envdoctor preflight (all met)",
            envdoctor + ["preflight", "--require", "torch>=2.4"],
            env,
        ),
        Command("envdoctor check --json", envdoctor + ["check", "--json"], env, expect=(0, 1)),
        Command(
            "check --json, matrix cache off", envdoctor + ["check", "--json"], cold, expect=(0, 1)
        ),
        Command("collect_env", [str(python), "-m", "torch.utils.collect_env"], dict(os.environ)),
    ]


def run_round_robin(commands: list[Command], runs: int, cwd: str) -> None:
    """One warm-up run each, then `runs` rounds of one run of every command."""
    for cmd in commands:
        scaling.run_once(cmd.argv, cmd.env, cwd)
    for _ in range(runs):
        for cmd in commands:
            wall, cpu, rss, code = scaling.run_once(cmd.argv, cmd.env, cwd)
            cmd.walls.append(wall)
            cmd.cpus.append(cpu)
            cmd.rss_kib.append(rss)
            cmd.codes.add(code)


def startup_table(rows: list[dict]) -> str:
    """The Markdown table of the start-up measurements."""
    lines = [
        "| command | wall median | wall best | CPU median (user+sys) | peak RSS | exit |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| `{r['name']}` | {r['wall_median_s']:.3f} s | {r['wall_min_s']:.3f} s | "
            f"{r['cpu_median_s']:.3f} s | {r['peak_rss_mib']:.0f} MiB | "
            f"{'/'.join(str(c) for c in r['exit_codes'])} |"
        )
    return "\n".join(lines)


def ratios(rows: list[dict]) -> dict[str, dict[str, float]]:
    """check and preflight against collect_env (wall medians, CPU medians) and against python -c pass."""
    by = {r["name"]: r for r in rows}
    base, bare = by["collect_env"], by["python -c pass"]
    out = {}
    for key, name in (
        ("check", "envdoctor check --json"),
        ("preflight", "envdoctor preflight"),
        ("preflight (all met)", "envdoctor preflight (all met)"),
    ):
        r = by[name]
        out[key] = {
            "wall": r["wall_median_s"] / base["wall_median_s"],
            "best_wall": r["wall_min_s"] / base["wall_min_s"],
            "cpu": r["cpu_median_s"] / base["cpu_median_s"],
            "x_python_pass_wall": r["wall_median_s"] / bare["wall_median_s"],
            "target": TARGETS[key.split(" ")[0]],
        }
    return out


def ratio_lines(result: dict[str, dict[str, float]]) -> list[str]:
    """One line per ratio, with the target and whether it is met."""
    lines = []
    for key, r in result.items():
        verdict = "meets" if r["wall"] <= r["target"] else "MISSES"
        lines.append(
            f"{key}/collect_env: wall {r['wall']:.3f} (best runs {r['best_wall']:.3f}), "
            f"CPU {r['cpu']:.3f}; target <= {r['target']:.2f}: {verdict}; "
            f"{r['x_python_pass_wall']:.1f}x python -c pass"
        )
    return lines


def triage_sizes(python: Path, env: dict[str, str], work: str, base_kib: int = 100) -> list[dict]:
    """`envdoctor triage` on bench_triage's generated logs of 100 KiB, 1 MiB and 10 MiB."""

    def make(factor: int) -> tuple[str, str]:
        path = Path(work) / f"log-{factor}x.txt"
        bench_triage.generate(path, base_kib * 1024 * factor)
        return str(path), f"{path.stat().st_size / 1048576:.1f} MiB log"

    envdoctor = str(python.parent / "envdoctor")
    rows = scaling.time_sizes(make, lambda path: [envdoctor, "triage", path, "--json"], env, work)
    scaling.print_sizes(rows)
    return rows


def load() -> float:
    """The 1-minute load average."""
    return os.getloadavg()[0]


def main(argv: list[str] | None = None) -> int:
    """Measure, print the tables and ratios, optionally write them as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--runs", type=int, default=11, help="measured runs per command (default 11)"
    )
    parser.add_argument(
        "--venv",
        default=str(REPO / ".venv-bench"),
        help="the venv with torch and envdoctor installed (default: .venv-bench, made if missing)",
    )
    parser.add_argument("--no-triage", action="store_true", help="skip the triage sizes")
    parser.add_argument("--no-fleet", action="store_true", help="skip the fleet sizes")
    parser.add_argument("--json", metavar="FILE", help="also write every figure to FILE as JSON")
    args = parser.parse_args(argv)
    try:
        python = bench_venv(Path(args.venv))
    except (OSError, subprocess.CalledProcessError) as exc:
        print(
            f"bench: could not prepare {args.venv} (torch==2.13.0 and this checkout): {exc}",
            file=sys.stderr,
        )
        return 2
    torch = subprocess.run(
        [str(python), "-c", "import importlib.metadata as m; print(m.version('torch'))"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    doc: dict = {
        "python": sys.version.split()[0],
        "torch": torch,
        "cpus": os.cpu_count(),
        "venv": args.venv,
    }
    print(
        f"envdoctor start-up beside collect_env, in {args.venv} (torch {torch}, envdoctor installed from "
        f"this checkout): Python {doc['python']}, {doc['cpus']} CPUs, {args.runs} runs each after one warm-up"
    )
    with tempfile.TemporaryDirectory(prefix="envdoctor-bench-") as work:
        cache = os.path.join(work, "cache")
        commands = startup_commands(python, cache)
        doc["load_before"] = load()
        run_round_robin(commands, args.runs, work)
        doc["load_after"] = load()
        rows = [c.row() for c in commands]
        doc["startup"] = rows
        doc["ratios"] = ratios(rows)
        print(
            f"load average (1 min): {doc['load_before']:.2f} before, {doc['load_after']:.2f} after\n"
        )
        print(startup_table(rows))
        print()
        for line in ratio_lines(doc["ratios"]):
            print(line)
        for cmd in commands:
            unexpected = sorted(cmd.codes - set(cmd.expect))
            if unexpected:
                print(f"warning: {cmd.name} exited {unexpected} (expected {cmd.expect})")
        if not args.no_triage:
            print("\ntriage of a generated log (`envdoctor triage FILE --json`, whole process):")
            doc["triage"] = triage_sizes(python, envdoctor_env(cache), work)
        if not args.no_fleet:
            import bench_fleet

            print(
                "\nfleet aggregation of generated node reports (`envdoctor fleet DIR --json`, whole process):"
            )
            doc["fleet"] = bench_fleet.scaled(
                envdoctor_env(cache), work, [str(python.parent / "envdoctor")]
            )
    if args.json:
        Path(args.json).write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    from project import use_project_python

    use_project_python()
    sys.exit(main())
