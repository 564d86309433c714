"""What a pasted log says about the workload and its GPU: pure readers of `pasted.text` lines.

Shared by the workload checks (`workload_fit`, `workload_precision`). Nothing here guesses: a
value is returned only when the text states it once (two different model sizes, or both 8-bit and
4-bit, give None).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from envdoctor.model.snapshot import Snapshot

if TYPE_CHECKING:  # the estimator is imported where a model is named (every triage reads OOM facts)
    from envdoctor.fit import estimate as fit

OOM = re.compile(
    r"CUDA out of memory|OutOfMemoryError|HIP out of memory|cudaErrorMemoryAllocation|"
    r"CUDA_ERROR_OUT_OF_MEMORY|out of memory on device|显存不足|显存溢出",
    re.IGNORECASE,
)
_TOTAL = (
    re.compile(r"\(GPU \d+; (?P<gib>\d{1,4}(?:\.\d{1,3})?) GiB total capacity"),
    re.compile(r"GPU \d+ has a total capac(?:i)?ty of (?P<gib>\d{1,4}(?:\.\d{1,3})?) GiB"),
)
# "7B model", "llama-7b", "Llama-2-13b-hf", "Qwen2.5-72B", "1.5B"; M only inside a name ("opt-350m")
_PARAMS_B = re.compile(r"(?<![\w.])(?P<n>\d{1,3}(?:\.\d{1,2})?)\s?[bB](?![A-Za-z0-9])")
_PARAMS_M = re.compile(r"(?<=[-_])(?P<n>\d{2,3})[mM](?![A-Za-z0-9])")
_DTYPES = (
    (
        "int4",
        re.compile(
            r"load_in_4bit|\b4[- ]?bit\b|\bnf4\b|\bgptq\b|\bawq\b|\bq4_[0-9k]|\bint4\b",
            re.IGNORECASE,
        ),
    ),
    ("int8", re.compile(r"load_in_8bit|load-8bit|\b8[- ]?bit\b|\bint8\b|\bq8_0\b", re.IGNORECASE)),
    (
        "16-bit",
        re.compile(r"bfloat16|\bbf16\b|float16|\bfp16\b|\.half\(\)|--dtype[= ]half", re.IGNORECASE),
    ),
)
_TOKEN = re.compile(r"[\w./-]{3,120}")
_TRAINING = re.compile(
    r"\btrain(?:ing|er)?\b|train_|fine-?tun|finetun|\bsft\b|\.backward\(|"
    r"learning_rate|\boptimizer\b",
    re.IGNORECASE,
)
_ADAPTERS = re.compile(r"\bq?lora\b|\bpeft\b", re.IGNORECASE)


def lines(snap: Snapshot) -> list[str]:
    """The notable lines of the paste."""
    return [str(x) for x in (snap.fact("pasted.text", "lines") or [])]


def oom_line(text_lines: Iterable[str]) -> str | None:
    """The first out-of-memory line."""
    return next((line for line in text_lines if OOM.search(line)), None)


def vram_from_text(text_lines: Iterable[str]) -> float | None:
    """The GPU's total memory in GiB as PyTorch's out-of-memory message states it."""
    for line in text_lines:
        for pattern in _TOTAL:
            found = pattern.search(line)
            if found:
                return float(found.group("gib"))
    return None


def vram_from_facts(snap: Snapshot, ms: Any) -> tuple[float | None, str | None]:
    """(GiB, where it came from) from structured GPU facts, else a GPU name in the text."""
    for gpu in snap.fact("nvidia.gpus", "gpus") or []:
        mib = gpu.get("memory_total_mib")
        if isinstance(mib, (int, float)) and mib:
            return mib / 1024, f"nvidia.gpus: {gpu.get('name')}"
    for gpu in snap.fact("amd.gpus", "gpus") or []:
        mib = gpu.get("vram_mib")
        if isinstance(mib, (int, float)) and mib:
            return mib / 1024, f"amd.gpus: {gpu.get('name')}"
    from envdoctor.fit.plan import target_from_name

    for name in snap.fact("pasted.text", "gpus") or []:
        target = target_from_name(ms, str(name))
        if target is not None and target.vram_gib:
            return target.vram_gib, f"{target.name} ({target.source})"
    return None, None


def params_from_text(
    text_lines: list[str], ms: Any
) -> tuple[float | None, fit.ModelShape | None, str | None]:
    """(parameter count, reference shape, the text it came from) when the paste names one model
    size; a reference model named in the text gives its exact shape."""
    from envdoctor.fit.plan import reference_shapes, shape_key

    index = reference_shapes(ms)
    shapes: dict[str, fit.ModelShape] = {}
    for line in text_lines:
        for token in _TOKEN.findall(line):
            for part in token.split("/"):
                shape = index.get(shape_key(part))
                if shape is not None:
                    shapes[shape.name or part] = shape
    if len(shapes) == 1:
        name, shape = next(iter(shapes.items()))
        return float(shape.params), shape, name
    sizes: dict[float, str] = {}
    for line in text_lines:
        for found in _PARAMS_B.finditer(line):
            sizes.setdefault(float(found.group("n")) * 1e9, found.group(0).strip())
        for found in _PARAMS_M.finditer(line):
            sizes.setdefault(float(found.group("n")) * 1e6, found.group(0))
    sizes = {n: t for n, t in sizes.items() if n >= 1e8}
    if len(sizes) == 1:
        n, token = next(iter(sizes.items()))
        return n, None, token
    return None, None, None


def dtype_from_text(text_lines: list[str]) -> str | None:
    """int4 / int8 / 16-bit when the paste states one (quantisation wins over the compute dtype)."""
    joined = "\n".join(text_lines)
    for name, pattern in _DTYPES:
        if pattern.search(joined):
            if name == "int4" and _DTYPES[1][1].search(joined):
                return None  # both 4-bit and 8-bit mentioned
            return name
    return None


def task_from_text(text_lines: list[str]) -> str:
    """inference, lora (adapters named) or full (training words without adapters)."""
    joined = "\n".join(text_lines)
    if _ADAPTERS.search(joined):
        return "lora"
    return "full" if _TRAINING.search(joined) else "inference"


# a size as PyTorch prints it: "4.88 MiB", "47.54 GiB", "0 bytes" (two groups: number, unit)
_S = r"(\d+(?:\.\d+)?) ([KMG]iB|bytes)"
_OLD = re.compile(
    rf"\(GPU \d+; {_S} total capacity; {_S} already allocated; {_S} free; {_S} "
    r"(reserved in total by PyTorch|cached)"
)
_NEW_TOTAL = re.compile(rf"total capacity of {_S} of which {_S} is free")
_NEW_THIS = re.compile(rf"this process has {_S} memory in use")
_NEW_PYTORCH = re.compile(
    rf"Of the allocated memory {_S} is allocated by PyTorch, and {_S} is reserved by PyTorch"
)
_UNIT = {"KiB": 1 / 2**20, "MiB": 1 / 2**10, "GiB": 1.0, "bytes": 1 / 2**30}


def _gib(number: str, unit: str) -> float:
    return float(number) * _UNIT[unit]


def oom_memory_facts(text_lines: Iterable[str]) -> dict[str, Any]:
    """Where an out-of-memory's memory went, as PyTorch's message states it: the card's total GiB
    (`memory.total_gib`), and the whole GiB and percent of it held outside this process's PyTorch
    (`memory.elsewhere_gib`, `memory.elsewhere_share`: another process, or JAX / TensorFlow
    preallocating in this one); empty when no message states them. Three formats: before torch
    2.1 "(GPU 0; T total capacity; A already allocated; F free; R reserved in total by PyTorch)"
    (older still "...; F free; C cached)", reserved = allocated + cached); from 2.1 "total
    capacity of T of which F is free" with "this process has P memory in use" or, without it,
    "Of the allocated memory A is allocated by PyTorch, and U is reserved by PyTorch"."""
    for line in text_lines:
        if "total capacity" not in line:
            continue
        old = _OLD.search(line)
        if old:
            g = old.groups()
            total, allocated, free, held = (
                _gib(g[0], g[1]),
                _gib(g[2], g[3]),
                _gib(g[4], g[5]),
                _gib(g[6], g[7]),
            )
            mine = held if g[8].startswith("reserved") else allocated + held
            return _memory_facts(total, total - free - mine)
        new = _NEW_TOTAL.search(line)
        if new is None:
            continue
        total, free = _gib(*new.groups()[0:2]), _gib(*new.groups()[2:4])
        this, pytorch = _NEW_THIS.search(line), _NEW_PYTORCH.search(line)
        if this:
            return _memory_facts(total, total - free - _gib(*this.groups()))
        if pytorch:
            g = pytorch.groups()
            return _memory_facts(total, total - free - _gib(g[0], g[1]) - _gib(g[2], g[3]))
    return {}


def _memory_facts(total: float, elsewhere: float) -> dict[str, Any]:
    if total <= 0:
        return {}
    elsewhere = max(0.0, elsewhere)
    return {
        "memory.total_gib": round(total),
        "memory.elsewhere_gib": int(elsewhere),
        "memory.elsewhere_share": int(100 * elsewhere / total),
    }
