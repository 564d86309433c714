"""The `--deep` GPU test, run inside the target interpreter (never inside envdoctor).

`python deep_script.py` imports torch, asks each backend it was built for (CUDA, ROCm, Intel XPU,
Apple MPS) whether a device is usable, multiplies two small matrices on every device and compares
the result with the CPU's, then tries to import the compiled extensions that are installed
(xformers, flash_attn, bitsandbytes...). It prints one JSON object per line, flushed at once, and
announces each step before it starts ({"event": "begin", "step": ...}), so that the parent, which
kills this process at its deadline, knows which step hung or crashed. Exceptions and warnings are
kept as their exact text.

Compatible with Python 3.7+; only the standard library besides torch itself.
"""

import contextlib
import json
import os
import sys
import time
import traceback
import warnings
from typing import Any  # noqa: F401 - named in type comments (Python 3.7 has no annotations here)

MATMUL_SIZE = 64
EXTENSIONS = (
    "xformers",
    "flash_attn",
    "bitsandbytes",
    "torchvision",
    "torchaudio",
    "vllm",
    "apex",
    "deepspeed",
    "mamba_ssm",
    "causal_conv1d",
    "sageattention",
    "torch_scatter",
    "intel_extension_for_pytorch",
)


def emit(obj):
    """Print one JSON line and flush it, so a parent that kills us still has it."""
    sys.stdout.write(json.dumps(obj, default=str) + "\n")
    sys.stdout.flush()


def begin(step):
    emit({"event": "begin", "step": step, "t": round(time.time() - START, 3)})


def exc_text(exc):
    """The exception as Python prints its last line: 'Type: message'."""
    return "".join(traceback.format_exception_only(type(exc), exc)).strip()


def call(fn, *args):
    """fn(*args) -> (value, error text, [warning texts]); never raises (except exit signals)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value, error = fn(*args), None
        except Exception as exc:  # noqa: BLE001 - the text is the fact we want
            value, error = None, exc_text(exc)
    return value, error, [str(w.message) for w in caught]


def matmul_check(torch, device):
    """Multiply two seeded 64x64 float32 matrices on `device` and compare with the CPU."""
    gen = torch.Generator().manual_seed(0)
    a = torch.randn(MATMUL_SIZE, MATMUL_SIZE, generator=gen)
    b = torch.randn(MATMUL_SIZE, MATMUL_SIZE, generator=gen)
    expected = a @ b
    got = (a.to(device) @ b.to(device)).to("cpu")
    err = float((got - expected).abs().max())
    scale = max(1.0, float(expected.abs().max()))
    return {"max_abs_err": err, "ok": bool(err <= 1e-3 * scale)}


def probe_cuda(torch):
    """CUDA or ROCm (HIP builds answer through torch.cuda)."""
    hip = getattr(torch.version, "hip", None)
    backend = "rocm" if hip else "cuda"
    info = {"event": "backend", "backend": backend}  # type: dict[str, Any]
    built = getattr(torch.backends, "cuda", None)
    info["built"] = (
        bool(built.is_built())
        if built is not None and hasattr(built, "is_built")
        else bool(getattr(torch.version, "cuda", None) or hip)
    )
    begin("torch.cuda.is_available()")
    available, error, warns = call(torch.cuda.is_available)
    info["available"] = bool(available)
    info["warnings"] = warns
    if error:
        info["error"] = error
    if not available:  # the exact reason: init() raises what is_available() swallows
        begin("torch.cuda.init()")
        _, init_error, init_warns = call(torch.cuda.init)
        info["warnings"] += init_warns
        if init_error:
            info["error"] = init_error
    count, count_error, _ = call(torch.cuda.device_count) if available else (0, None, [])
    info["device_count"] = count or 0
    if count_error:
        info["error"] = count_error
    arch, _, _ = call(torch.cuda.get_arch_list) if info["built"] else (None, None, [])
    info["arch_list"] = arch
    emit(info)
    for index in range(info["device_count"]):
        device_step(torch, backend, "cuda", index)


def device_step(torch, backend, kind, index):
    """One device: name, capability, memory, and the matmul test."""
    mod = getattr(torch, kind)
    out = {"event": "device", "backend": backend, "index": index, "device": f"{kind}:{index}"}
    begin(f"{kind}:{index} properties")
    name, error, warns = call(mod.get_device_name, index)
    out["name"] = name
    out["warnings"] = warns
    if kind == "cuda":
        cap, cap_error, _ = call(mod.get_device_capability, index)
        out["capability"] = "{}.{}".format(*cap) if cap else None
        props, _, _ = call(mod.get_device_properties, index)
        if props is not None:
            total = getattr(props, "total_memory", None)
            out["total_memory_mib"] = int(total // (1024 * 1024)) if total else None
            gcn = getattr(props, "gcnArchName", None)
            if gcn:
                out["gcn_arch"] = gcn
        error = error or cap_error
    if error:
        out["error"] = error
    begin(f"{kind}:{index} matmul")
    result, mm_error, mm_warns = call(matmul_check, torch, f"{kind}:{index}")
    out["warnings"] += mm_warns
    if result is not None:
        out["matmul_ok"] = result["ok"]
        out["max_abs_err"] = result["max_abs_err"]
    else:
        out["matmul_ok"] = False
        out["matmul_error"] = mm_error
    emit(out)


def probe_xpu(torch):
    xpu = getattr(torch, "xpu", None)
    if xpu is None or not hasattr(xpu, "is_available"):
        return
    begin("torch.xpu.is_available()")
    available, error, warns = call(xpu.is_available)
    info = {"event": "backend", "backend": "xpu", "available": bool(available), "warnings": warns}
    if error:
        info["error"] = error
    info["device_count"], _, _ = call(xpu.device_count) if available else (0, None, [])
    info["device_count"] = info["device_count"] or 0
    if hasattr(xpu, "get_arch_list"):
        info["arch_list"], _, _ = call(xpu.get_arch_list)
    emit(info)
    for index in range(info["device_count"]):
        device_step(torch, "xpu", "xpu", index)


def probe_mps(torch):
    mps = getattr(torch.backends, "mps", None)
    if mps is None or sys.platform != "darwin":
        return
    begin("torch.backends.mps.is_available()")
    available, error, warns = call(mps.is_available)
    built, _, _ = call(mps.is_built)
    info = {
        "event": "backend",
        "backend": "mps",
        "built": bool(built),
        "available": bool(available),
        "warnings": warns,
        "device_count": 1 if available else 0,
    }
    if error:
        info["error"] = error
    emit(info)
    if available:
        out = {"event": "device", "backend": "mps", "index": 0, "device": "mps", "name": "mps"}
        begin("mps matmul")
        result, mm_error, mm_warns = call(matmul_check, torch, "mps")
        out["warnings"] = mm_warns
        out["matmul_ok"] = bool(result and result["ok"])
        if result is not None:
            out["max_abs_err"] = result["max_abs_err"]
        else:
            out["matmul_error"] = mm_error
        emit(out)


def probe_extensions():
    import importlib
    import importlib.util

    for name in EXTENSIONS:
        try:
            present = importlib.util.find_spec(name) is not None
        except Exception:  # noqa: BLE001
            present = False
        if not present:
            continue
        begin(f"import {name}")
        module, error, warns = call(importlib.import_module, name)
        emit(
            {
                "event": "extension",
                "module": name,
                "ok": error is None,
                "version": getattr(module, "__version__", None) if module is not None else None,
                "error": error,
                "warnings": warns[:5],
            }
        )


def main():
    emit(
        {
            "event": "start",
            "python": sys.version.split()[0],
            "executable": sys.executable,
            "pid": os.getpid(),
        }
    )
    begin("import torch")
    started = time.time()
    torch, error, warns = call(__import__, "torch")
    if torch is None:
        emit({"event": "import", "ok": False, "error": error, "warnings": warns})
        emit({"event": "done"})
        return 0
    abi = getattr(getattr(torch, "_C", None), "_GLIBCXX_USE_CXX11_ABI", None)
    emit(
        {
            "event": "import",
            "ok": True,
            "seconds": round(time.time() - started, 3),
            "version": getattr(torch, "__version__", None),
            "cuda": getattr(torch.version, "cuda", None),
            "hip": getattr(torch.version, "hip", None),
            "cxx11_abi": abi,
            "warnings": warns,
        }
    )
    if hasattr(torch.backends, "cuda") and hasattr(torch.backends.cuda, "matmul"):
        with contextlib.suppress(Exception):
            torch.backends.cuda.matmul.allow_tf32 = False  # compare in full float32
    for step in (probe_cuda, probe_xpu, probe_mps):
        try:
            step(torch)
        except Exception as exc:  # noqa: BLE001 - report and go on with the next backend
            emit({"event": "step-error", "step": step.__name__, "error": exc_text(exc)})
    probe_extensions()
    emit({"event": "done"})
    return 0


START = time.time()

if __name__ == "__main__":
    sys.exit(main())
