"""The acceptance load, run inside the target interpreter (never inside envdoctor).

`python accept_load_script.py --gpus 0,1 --seconds 300 --memory-fraction 0.8` imports torch and, on
each GPU in turn: checks that a matrix product equals the CPU's (correctness), measures
host<->device copy bandwidth, tests VRAM with fixed, checkerboard, walking-ones and random
patterns over the chosen fraction of free memory (write, read back, compare), then runs large
matrix products in fp32 and in the card's fast precision (bf16, else fp16) for its share of the
time, re-checking one deterministic product along the way (a card that is unstable under heat
starts to disagree with itself).

It prints one JSON object per line, flushed at once: {"event": "phase", ...} before each phase
(the parent's sampler uses it to know when the card is under load), {"event": "result", ...} as
each phase ends, and {"event": "done"} at the end. Errors are reported as {"event": "error", ...} with
the exact exception text. The parent ends it by killing its process group: the GPU is idle once
this process is gone.

ENVDOCTOR_ACCEPT_DEVICE=cpu runs the same procedure on the CPU with small sizes: for testing the
procedure (envdoctor's test suite runs it with the CPU build of torch), not for judging a card.

Compatible with Python 3.8+; only the standard library besides torch itself.
"""

import argparse
import json
import os
import sys
import time
import traceback
from typing import Any

MIB = 1024 * 1024
PATTERNS = ("zeros", "ones", "checkerboard", "inverse-checkerboard", "walking-ones", "random")
MAX_ADDRESSES = 16  # mismatching addresses reported per pattern


def emit(obj):
    """One JSON line, flushed (the parent may kill this process at any moment)."""
    sys.stdout.write(json.dumps(obj, sort_keys=True) + "\n")
    sys.stdout.flush()


class Sizes:
    """Problem sizes: full-size on a GPU, small on the CPU (test mode)."""

    def __init__(self, on_cpu):
        self.check_n = 256 if on_cpu else 1024
        self.load_n = 256 if on_cpu else 8192
        self.copy_bytes = 8 * MIB if on_cpu else 512 * MIB
        self.chunk_bytes = 4 * MIB if on_cpu else 256 * MIB
        self.cpu_memory_bytes = 32 * MIB  # what "free memory" is on the CPU in test mode


def device_for(torch, index):
    """cuda:N (ROCm builds use the same name), or the CPU in test mode."""
    if os.environ.get("ENVDOCTOR_ACCEPT_DEVICE") == "cpu":
        return torch.device("cpu")
    return torch.device("cuda", index)


def synchronize(torch, device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def correctness(torch, device, sizes):
    """A product on the device against a float64 product on the CPU."""
    generator = torch.Generator().manual_seed(1234)
    a = torch.randn(sizes.check_n, sizes.check_n, generator=generator)
    b = torch.randn(sizes.check_n, sizes.check_n, generator=generator)
    expected = a.double() @ b.double()
    got = (a.to(device) @ b.to(device)).cpu().double()
    error = ((got - expected).abs().max() / expected.abs().max()).item()
    finite = bool(torch.isfinite(got).all().item())
    return {"max_rel_error": error, "finite": finite, "ok": finite and error < 1e-3}


def bandwidth(torch, device, sizes):
    """Host->device and device->host copy rates of a pinned buffer, GB/s (10^9 bytes/s)."""
    pinned = device.type == "cuda"
    host = torch.empty(sizes.copy_bytes, dtype=torch.uint8, pin_memory=pinned)
    on_device = torch.empty(sizes.copy_bytes, dtype=torch.uint8, device=device)
    rates = {}
    for name, dst, src in (("h2d", on_device, host), ("d2h", host, on_device)):
        dst.copy_(src, non_blocking=True)  # warm-up
        synchronize(torch, device)
        start = time.perf_counter()
        repeats = 5
        for _ in range(repeats):
            dst.copy_(src, non_blocking=True)
        synchronize(torch, device)
        seconds = time.perf_counter() - start
        rates[name + "_gb_s"] = round(repeats * sizes.copy_bytes / seconds / 1e9, 2)
    return rates


def free_bytes(torch, device, sizes):
    if device.type == "cuda":
        free, _total = torch.cuda.mem_get_info(device)
        return free
    return sizes.cpu_memory_bytes


def fill(torch, chunk, pattern, step, generator_seed):
    """Write one pattern into an int32 chunk."""
    if pattern == "zeros":
        chunk.fill_(0)
    elif pattern == "ones":
        chunk.fill_(-1)  # 0xFFFFFFFF
    elif pattern == "checkerboard":
        chunk.fill_(0x55555555)
    elif pattern == "inverse-checkerboard":
        chunk.fill_(-0x55555556)  # 0xAAAAAAAA as int32
    elif pattern == "walking-ones":
        bit = step % 32
        chunk.fill_(-(1 << 31) if bit == 31 else 1 << bit)
    else:
        chunk.copy_(expected_random(torch, chunk, generator_seed))


def expected_random(torch, chunk, seed):
    generator = torch.Generator(device=chunk.device).manual_seed(seed)
    return torch.randint(
        -(2**31),
        2**31 - 1,
        chunk.shape,
        dtype=torch.int32,
        device=chunk.device,
        generator=generator,
    )


def expected_value(torch, chunk, pattern, step, seed):
    scratch = torch.empty_like(chunk)
    fill(torch, scratch, pattern, step, seed)
    return scratch


def compare(torch, chunk, expected):
    """Indices (int32 elements) where the chunk differs from what was written."""
    return (chunk != expected).nonzero().flatten()


def vram(torch, device, sizes, fraction):
    """Pattern test over `fraction` of free memory, in chunks; mismatch count and addresses."""
    target = int(free_bytes(torch, device, sizes) * fraction)
    chunks: list[Any] = []
    try:
        while sum(c.numel() * 4 for c in chunks) + sizes.chunk_bytes <= target:
            chunks.append(torch.empty(sizes.chunk_bytes // 4, dtype=torch.int32, device=device))
    except RuntimeError:  # out of memory before the target: test what was allocated
        pass
    tested = sum(c.numel() * 4 for c in chunks)
    results = []
    for pattern in PATTERNS:
        steps = 32 if pattern == "walking-ones" else 1
        mismatches = 0
        addresses = []  # type: list[int]
        for step in range(steps):
            # walking ones: every bit position over the first chunk; other patterns: all memory
            targets = chunks[:1] if pattern == "walking-ones" else chunks
            for number, chunk in enumerate(targets):
                seed = 1000 + number
                fill(torch, chunk, pattern, step, seed)
            synchronize(torch, device)
            for number, chunk in enumerate(targets):
                seed = 1000 + number
                bad = compare(torch, chunk, expected_value(torch, chunk, pattern, step, seed))
                mismatches += int(bad.numel())
                for index in bad[: MAX_ADDRESSES - len(addresses)].tolist():
                    addresses.append(number * sizes.chunk_bytes + int(index) * 4)
        results.append({"pattern": pattern, "mismatches": mismatches, "addresses": addresses})
    del chunks
    if device.type == "cuda":
        torch.cuda.empty_cache()
    return {"tested_bytes": tested, "target_bytes": target, "patterns": results}


def fast_dtype(torch, device):
    if device.type == "cuda" and torch.cuda.is_bf16_supported():
        return torch.bfloat16
    return torch.bfloat16 if device.type == "cpu" else torch.float16


def sustained(torch, device, sizes, seconds):
    """Large products in fp32 and the fast precision for `seconds`; TFLOP/s and self-consistency."""
    out = {}
    n = sizes.load_n
    flops = 2.0 * n * n * n
    generator = torch.Generator().manual_seed(99)
    base_a = torch.randn(n, n, generator=generator).to(device)
    base_b = torch.randn(n, n, generator=generator).to(device)
    for dtype in (torch.float32, fast_dtype(torch, device)):
        name = str(dtype).replace("torch.", "")
        emit({"event": "phase", "phase": "load-" + name, "device": str(device)})
        a, b = base_a.to(dtype), base_b.to(dtype)
        reference = (a @ b).float()
        iterations, inconsistent, non_finite = 0, 0, 0
        started = time.perf_counter()
        deadline = started + seconds / 2
        while time.perf_counter() < deadline:
            for _ in range(10):
                c = a @ b
            synchronize(torch, device)
            iterations += 10
            if not bool(torch.isfinite(c).all().item()):
                non_finite += 1
            if not torch.equal(c.float(), reference):
                inconsistent += 1
        elapsed = time.perf_counter() - started
        out[name] = {
            "iterations": iterations,
            "seconds": round(elapsed, 2),
            "tflops": round(iterations * flops / elapsed / 1e12, 3),
            "inconsistent_checks": inconsistent,
            "non_finite_checks": non_finite,
        }
    return out


def run_gpu(torch, index, seconds, fraction):
    device = device_for(torch, index)
    sizes = Sizes(device.type == "cpu")
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = False  # the correctness test compares fp32
    for phase, run in (
        ("correctness", lambda: correctness(torch, device, sizes)),
        ("bandwidth", lambda: bandwidth(torch, device, sizes)),
        ("vram", lambda: vram(torch, device, sizes, fraction)),
        ("load", lambda: sustained(torch, device, sizes, seconds)),
    ):
        emit({"event": "phase", "phase": phase, "index": index, "device": str(device)})
        try:
            data = run()
        except Exception as exc:  # a CUDA error, an OOM: reported exactly, next GPU
            error = "".join(traceback.format_exception_only(type(exc), exc)).strip()
            emit({"event": "error", "phase": phase, "index": index, "error": error})
            break
        # each phase's result as soon as it is known: an interrupted run keeps what finished
        emit(
            {"event": "result", "phase": phase, "index": index, "device": str(device), "data": data}
        )


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpus", default="0")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--memory-fraction", type=float, default=0.8)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        import torch
    except Exception as exc:
        emit({"event": "error", "phase": "import", "error": str(exc)})
        return 3
    indices = [int(i) for i in args.gpus.split(",") if i != ""]
    emit(
        {
            "event": "start",
            "torch": torch.__version__,
            "gpus": indices,
            "cuda": getattr(torch.version, "cuda", None),
        }
    )
    per_gpu = args.seconds / max(1, len(indices))
    for index in indices:
        run_gpu(torch, index, per_gpu, args.memory_fraction)
    emit({"event": "done", "seconds": round(time.perf_counter() - started, 2)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
