#!/usr/bin/env python3
"""Benchmark `envdoctor triage` on generated logs of 1x, 10x and 100x a base size (100 KiB).

The log mixes what real pastes hold: Ollama server lines with varying timestamps, pip progress,
a training loop, dmesg lines, a collect_env dump, and one real error in the middle and one at the
end (a CUDA out-of-memory traceback, then "no kernel image is available"). Each size runs in its
own interpreter (so peak memory is that run's), reading the file the way the command does
(streamed in 1 MiB chunks). Prints wall time, throughput, peak resident memory and the first
finding. Time is given as wall time and as CPU time (`time.process_time` of the triage call: what
other work sharing the machine inflates least); `--repeat N` runs each size N times (each in a
fresh interpreter) and prints the medians. Usage:

    python bench/bench_triage.py [--base-kib 100] [--sizes 1,10,100] [--repeat 3]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

_FILLER = (
    'time=2025-06-01T12:{m:02d}:{s:02d}.{ms:03d}Z level=INFO source=server.go:{n} msg="request" '
    "method=POST path=/api/generate status=200 duration={d}ms",
    "[{sec:>5}.{us:06d}] usb 1-{n}: new high-speed USB device number {d} using xhci_hcd",
    "epoch {n} step {d}/10000 loss={loss:.4f} lr=3.0e-04 throughput={d}.{ms} samples/s",
    "Downloading https://files.pythonhosted.org/packages/{d}/pkg-{n}.whl ({d}.{ms} kB)",
    'INFO:     127.0.0.1:{d} - "GET /health HTTP/1.1" 200 OK',
)
_DUMP = """Collecting environment information...
PyTorch version: 2.5.1+cu124
Is debug build: False
CUDA used to build PyTorch: 12.4
ROCM used to build PyTorch: N/A

OS: Ubuntu 22.04.5 LTS (x86_64)
Python version: 3.11.9 (main, Apr  6 2024, 17:59:24) [GCC 11.4.0] (64-bit runtime)
Python platform: Linux-6.8.0-49-generic-x86_64-with-glibc2.35
Is CUDA available: True
GPU models and configuration: GPU 0: NVIDIA GeForce RTX 5090
Nvidia driver version: 570.124.04
"""
_MIDDLE = """Traceback (most recent call last):
  File "/srv/app/train.py", line 88, in <module>
    loss.backward()
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 31.36 GiB total capacity)
"""
_END = "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"


def generate(path: Path, size_bytes: int) -> None:
    """Write a log of about `size_bytes`."""
    with path.open("w", encoding="utf-8") as out:
        out.write(_DUMP)
        written = len(_DUMP)
        n = 0
        middle_done = False
        while written < size_bytes:
            template = _FILLER[n % len(_FILLER)]
            line = (
                template.format(
                    m=(n // 60) % 60,
                    s=n % 60,
                    ms=n % 1000,
                    n=n,
                    d=(n * 7919) % 100000,
                    sec=n // 100,
                    us=(n * 37) % 1000000,
                    loss=1.0 / (1 + n % 97),
                )
                + "\n"
            )
            out.write(line)
            written += len(line)
            n += 1
            if not middle_done and written > size_bytes // 2:
                out.write(_MIDDLE)
                written += len(_MIDDLE)
                middle_done = True
        out.write(_END)


def run_one(path: Path) -> dict:
    """Triage one file in this process (through the compiled-pattern store, as the command does);
    timings and peak memory."""
    sys.path.insert(0, str(REPO))
    from envdoctor.commands import triage

    try:  # as `envdoctor triage` runs: through the compiled-pattern store
        from envdoctor.regex_cache import kept_regexes
    except ImportError:  # a checkout older than the store
        kept_regexes = contextlib.nullcontext  # type: ignore[assignment]

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start, cpu_start = time.perf_counter(), time.process_time()
    with kept_regexes():
        report = triage.triage_blocks(triage._input_blocks(str(path)))
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "bytes": path.stat().st_size,
        "seconds": seconds,
        "cpu_seconds": cpu,
        "peak_rss_mib": peak_kib / 1024,
        "rss_before_mib": before / 1024,
        "first": report.findings[0].id if report.findings else None,
        "ids": [f.id for f in report.findings[:4]],
        "notable_lines": len(report.snapshot.fact("pasted.text", "lines") or []),
        "reader_ms": report.snapshot.fact("pasted.parts", "reader_ms") or {},
    }


def main(argv: list[str] | None = None) -> int:
    """Generate each size, triage it in a fresh interpreter, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-kib", type=int, default=100)
    parser.add_argument("--sizes", default="1,10,100", help="multiples of the base size")
    parser.add_argument("--repeat", type=int, default=1, help="runs per size (medians shown)")
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(run_one(args.one)))
        return 0
    print(
        f"{'size':>8} {'MiB':>7} {'seconds':>8} {'CPU s':>7} {'MiB/s':>7} {'peak RSS MiB':>13}"
        "  first finding"
    )
    with tempfile.TemporaryDirectory() as folder:
        for factor in (int(x) for x in args.sizes.split(",")):
            path = Path(folder) / f"log-{factor}x.txt"
            generate(path, args.base_kib * 1024 * factor)
            runs = [_run_child(path) for _ in range(max(args.repeat, 1))]
            result = runs[-1]
            mib = result["bytes"] / 1048576
            seconds = statistics.median(r["seconds"] for r in runs)
            cpu = statistics.median(r["cpu_seconds"] for r in runs)
            peak = statistics.median(r["peak_rss_mib"] for r in runs)
            print(
                f"{factor:>7}x {mib:7.2f} {seconds:8.3f} {cpu:7.3f} {mib / seconds:7.1f} "
                f"{peak:13.1f}  {result['first']} ({', '.join(result['ids'][1:])})"
            )
            readers = ", ".join(f"{name} {ms:.0f}" for name, ms in result["reader_ms"].items())
            print(f"{'':>9}reader ms: {readers}")
            if len(runs) > 1:
                each = " ".join(f"{r['seconds']:.3f}/{r['cpu_seconds']:.3f}" for r in runs)
                print(f"{'':>9}each run, wall/CPU s: {each}")
    return 0


def _run_child(path: Path) -> dict:
    """run_one in a fresh interpreter (so peak memory is that run's)."""
    done = subprocess.run(
        [sys.executable, __file__, "--one", str(path)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    from project import use_project_python

    use_project_python()
    sys.exit(main())
