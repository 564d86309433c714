"""The fit verdict: a workload's estimate against a GPU, and what to change when it does not fit.

`plan(workload, target, ms)` returns the estimate, the precision verdict, `fits`, the ranked
alternatives (each re-estimated: a smaller dtype or quantisation, LoRA / QLoRA, gradient
checkpointing, CPU offload, more GPUs and their interconnect, the smallest listed GPU that fits)
and the application view (Ollama tags, llama.cpp file sizes, low-VRAM flags of image UIs).
GPUs come from the snapshot's `nvidia.gpus` / `amd.gpus` (`targets_from_snapshot`), from the
`nvidia_gpus` matrix by name (`target_from_name`) or from a raw size (`target_from_vram`).
Pure functions; the words users read live here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from envdoctor import fit
from envdoctor.fit_precision import PrecisionVerdict, normal_cc, supports, verdict

SHARED_MEMORY_NOTE = (
    'Windows Task Manager\'s "shared GPU memory" is system RAM the driver can page '
    "into; it is not VRAM, runs far slower, and is never counted here."
)
MAX_GPUS = 64


@dataclass(frozen=True)
class Target:
    """The GPU(s) a workload is judged against. `vram_gib` is per GPU."""

    name: str | None
    vram_gib: float | None
    source: str
    count: int = 1
    compute_capability: str | None = None
    arch: str | None = None
    vendor: str | None = None
    interconnect: str = "unknown"
    note: str | None = None

    def to_dict(self) -> dict:
        """JSON form."""
        return {
            "name": self.name,
            "vram_gib": None if self.vram_gib is None else round(self.vram_gib, 2),
            "source": self.source,
            "count": self.count,
            "compute_capability": self.compute_capability,
            "arch": self.arch,
            "vendor": self.vendor,
            "interconnect": self.interconnect,
            "note": self.note,
        }


@dataclass(frozen=True)
class Alternative:
    """One way to make the workload fit, re-estimated."""

    kind: str
    summary: str
    total_gib: float | None
    fits: bool | None
    how: str = ""
    workload: fit.Workload | None = None
    target: Target | None = None

    def to_dict(self, rank: int, argv: str | None) -> dict:
        """JSON form, with its rank and the `envdoctor fit` command that re-checks it."""
        return {
            "rank": rank,
            "kind": self.kind,
            "summary": self.summary,
            "total_gib": None if self.total_gib is None else round(self.total_gib, 2),
            "fits": self.fits,
            "how": self.how,
            "command": argv,
        }


@dataclass(frozen=True)
class Plan:
    """Everything `envdoctor fit` reports."""

    estimate: fit.Estimate
    target: Target | None
    precision: PrecisionVerdict | None
    fits: bool | None
    alternatives: tuple[Alternative, ...] = ()
    apps: dict = field(default_factory=dict)

    @property
    def headroom_gib(self) -> float | None:
        """VRAM left per GPU (negative when short)."""
        if self.target is None or self.target.vram_gib is None:
            return None
        return self.target.vram_gib - self.estimate.total_gib


# -- GPUs --------------------------------------------------------------------------------------


def targets_from_snapshot(snap: Any, ms: Any) -> list[Target]:
    """The GPUs the NVIDIA / AMD probes found, one Target per GPU (dedicated memory only)."""
    out: list[Target] = []
    interconnect = _interconnect(snap)
    for gpu in snap.fact("nvidia.gpus", "gpus") or []:
        mib = gpu.get("memory_total_mib")
        cc = normal_cc(gpu.get("compute_capability"))
        arch = gpu.get("architecture")
        if cc is None or not arch:
            row = _gpu_row(ms, gpu.get("name") or "")
            cc = cc or normal_cc((row or {}).get("compute_capability"))
            arch = arch or (row or {}).get("arch")
        note = None
        slices = [
            d.get("memory_total_mib")
            for d in gpu.get("mig_devices") or []
            if isinstance(d.get("memory_total_mib"), (int, float)) and d.get("memory_total_mib")
        ]
        if gpu.get("mig_mode") == "enabled" and slices:
            mib = max(slices)
            note = (
                f"MIG is on: a process sees one MIG instance ({len(slices)} of them, the largest "
                f"{mib / 1024:.1f} GiB), not the whole GPU"
            )
        out.append(
            Target(
                gpu.get("name"),
                mib / 1024 if isinstance(mib, (int, float)) and mib else None,
                "detected (nvidia.gpus)",
                1,
                cc,
                arch,
                "nvidia",
                interconnect,
                note,
            )
        )
    for gpu in snap.fact("amd.gpus", "gpus") or []:
        mib = gpu.get("vram_mib")
        out.append(
            Target(
                gpu.get("name") or gpu.get("gfx_target"),
                mib / 1024 if isinstance(mib, (int, float)) and mib else None,
                "detected (amd.gpus)",
                1,
                None,
                gpu.get("gfx_target"),
                "amd",
                "unknown",
                "number-format support is known for NVIDIA GPUs only",
            )
        )
    return out


def combine(targets: list[Target], count: int) -> Target | None:
    """`count` detected GPUs as one target: the smallest memory among the first `count` decides."""
    if not targets:
        return None
    chosen = targets[: max(1, count)]
    smallest = min(chosen, key=lambda t: t.vram_gib if t.vram_gib is not None else float("inf"))
    names = sorted({t.name or "GPU" for t in chosen})
    return Target(
        " + ".join(names) if len(names) > 1 else names[0],
        smallest.vram_gib,
        smallest.source,
        len(chosen),
        smallest.compute_capability,
        smallest.arch,
        smallest.vendor,
        smallest.interconnect,
        smallest.note,
    )


def _interconnect(snap: Any) -> str:
    switches = snap.fact("nvidia.pci", "nvswitch_count")
    if isinstance(switches, int) and switches > 0:
        return f"NVLink through {switches} NVSwitch device(s) (nvidia.pci)"
    for gpu in snap.fact("nvidia.gpus", "gpus") or []:
        links = gpu.get("nvlink")
        if links:
            return "NVLink (nvidia.gpus)"
    return "unknown"


def _gpu_row(ms: Any, name: str) -> dict[str, Any] | None:
    from envdoctor.queries.nvidia import gpu_by_name

    for spelling in (
        name,
        f"NVIDIA {name}",
        f"NVIDIA GeForce {name}",
        f"Tesla {name}",
        f"NVIDIA RTX {name}",
    ):
        row = gpu_by_name(ms, spelling)
        if row is not None:
            return row
    return None


def target_from_name(ms: Any, name: str, count: int = 1) -> Target | None:
    """A GPU named as nvidia-smi prints it (or a short form: "T4", "RTX 4090", "H100 80GB HBM3"),
    from the nvidia_gpus matrix; None when the matrix does not list it."""
    row = _gpu_row(ms, name)
    if row is None:
        return None
    from envdoctor.queries.gpu_memory import memory_gib_for_row

    memory = memory_gib_for_row(row)
    note = (
        None
        if memory
        else (
            f"the GPU matrix does not list the memory of {row['name']}: "
            "give --vram GiB to judge the fit"
        )
    )
    return Target(
        row["name"],
        memory[0] if memory else None,
        f"nvidia_gpus matrix ({memory[1]})" if memory else "nvidia_gpus matrix",
        count,
        normal_cc(row.get("compute_capability")),
        row.get("arch"),
        "nvidia",
        "unknown",
        note,
    )


def target_from_vram(gib: float, count: int = 1) -> Target:
    """A GPU known only by its memory size."""
    return Target(None, float(gib), "--vram", count, None, None, None, "unknown")


# -- the verdict -------------------------------------------------------------------------------


def plan(w: fit.Workload, target: Target | None, ms: Any) -> Plan:
    """Estimate `w`, judge it against `target`, and rank what to change."""
    est = fit.estimate(w)
    precision = None
    if target is not None and target.vendor != "amd":
        precision = verdict(ms, w.dtype, w.task, target.compute_capability, target.name)
    fits = _fits(est, target, precision)
    alternatives: tuple[Alternative, ...] = ()
    if fits is False:
        alternatives = tuple(_alternatives(w, est, target, precision, ms))
    return Plan(est, target, precision, fits, alternatives, app_view(w, target, ms))


def _fits(
    est: fit.Estimate, target: Target | None, precision: PrecisionVerdict | None
) -> bool | None:
    if precision is not None and precision.ok is False:
        return False
    if target is None or target.vram_gib is None:
        return None
    return est.total_gib <= target.vram_gib


def _judge(w: fit.Workload, target: Target | None, ms: Any) -> tuple[float, bool | None]:
    est = fit.estimate(w)
    prec = (
        verdict(ms, w.dtype, w.task, target.compute_capability, target.name)
        if target is not None and target.vendor != "amd"
        else None
    )
    return est.total_gib, _fits(est, target, prec)


def _alternatives(
    w: fit.Workload,
    est: fit.Estimate,
    target: Target | None,
    precision: PrecisionVerdict | None,
    ms: Any,
) -> list[Alternative]:
    out: list[Alternative] = []
    base = w
    if precision is not None and precision.ok is False and precision.alternative_dtype:
        base = w.but(dtype=precision.alternative_dtype)
        total, ok = _judge(base, target, ms)
        out.append(
            Alternative(
                "dtype",
                f"use {base.dtype} instead of {w.dtype}",
                total,
                ok,
                precision.alternative or "",
                base,
                target,
            )
        )
        if ok:
            return out
    for alt in _memory_alternatives(base, target, ms):
        out.append(alt)
    return out


def _with_checkpointing(
    w: fit.Workload, target: Target | None, ms: Any
) -> tuple[fit.Workload, float, bool | None]:
    total, ok = _judge(w, target, ms)
    if not ok and w.training and not w.checkpointing:
        ck = w.but(checkpointing=True)
        ck_total, ck_ok = _judge(ck, target, ms)
        if ck_ok:
            return ck, ck_total, ck_ok
    return w, total, ok


def _memory_alternatives(w: fit.Workload, target: Target | None, ms: Any) -> list[Alternative]:
    out: list[Alternative] = []
    cc = target.compute_capability if target is not None else None

    def add(kind: str, summary: str, cand: fit.Workload, how: str, allow_ckpt: bool = True) -> None:
        if allow_ckpt:
            cand, total, ok = _with_checkpointing(cand, target, ms)
        else:
            total, ok = _judge(cand, target, ms)
        if cand.checkpointing and not w.checkpointing and kind != "checkpointing":
            summary += " with gradient checkpointing"
        out.append(Alternative(kind, summary, total, ok, how, cand, target))

    # 1. a smaller dtype or quantisation
    if w.task == "inference":
        for dtype in _smaller_dtypes(w.dtype, ms, cc):
            cand = w.but(dtype=dtype)
            total, ok = _judge(cand, target, ms)
            if ok or dtype == "int4":
                add("dtype", f"load the weights in {dtype}", cand, _DTYPE_HOW.get(dtype, ""), False)
                break
    elif w.task == "full" and w.dtype == "fp32":
        half = "bf16" if supports(ms, cc, "bf16") is not False else "fp16"
        add(
            "dtype",
            f"train in {half} mixed precision instead of fp32",
            w.but(dtype=half),
            _DTYPE_HOW[half],
        )
    # 2. LoRA / QLoRA
    if w.task == "full":
        lora_dtype = (
            w.dtype
            if w.dtype in ("fp16", "bf16")
            else ("bf16" if supports(ms, cc, "bf16") is not False else "fp16")
        )
        add(
            "lora",
            f"fine-tune LoRA adapters (rank {w.lora_rank}) on a frozen {lora_dtype} base",
            w.but(task="lora", dtype=lora_dtype),
            _LORA_HOW,
        )
    if w.task in ("full", "lora"):
        add(
            "qlora",
            "fine-tune with QLoRA (4-bit NF4 base + LoRA adapters)",
            w.but(task="qlora"),
            _QLORA_HOW,
        )
    # 3. gradient checkpointing
    if w.training and not w.checkpointing:
        add(
            "checkpointing",
            "turn on gradient checkpointing",
            w.but(checkpointing=True),
            _CKPT_HOW,
            False,
        )
    # 4. CPU offload
    if w.task == "full" and not w.offload_optimizer:
        add(
            "offload",
            "offload the optimizer state to CPU memory (DeepSpeed ZeRO-Offload)",
            w.but(offload_optimizer=True),
            _OFFLOAD_TRAIN_HOW,
        )
    if w.task == "inference" and target is not None and target.vram_gib is not None:
        out.append(_inference_offload(w, target))
    # 5. more GPUs
    more = _more_gpus(w, target, ms)
    if more is not None:
        out.append(more)
    # 6. the smallest listed GPU that fits
    bigger = smallest_gpu_that_fits(w, ms)
    if bigger is not None:
        out.append(bigger)
    return out


def _smaller_dtypes(dtype: str, ms: Any, cc: Any) -> list[str]:
    order = ["fp32", "bf16", "fp16", "fp8", "int8", "int4"]
    size = fit.WEIGHT_BYTES[dtype]
    out = []
    for d in order:
        if fit.WEIGHT_BYTES[d] >= size or (d in ("bf16", "fp8") and supports(ms, cc, d) is False):
            continue
        if d in ("bf16", "fp16") and any(fit.WEIGHT_BYTES[x] == fit.WEIGHT_BYTES[d] for x in out):
            continue
        out.append(d)
    return out


def _inference_offload(w: fit.Workload, target: Target) -> Alternative:
    est = fit.estimate(w)
    weights = est.term("weights")
    other = est.total_gib - (weights.gib if weights else 0)
    room = max(0.0, (target.vram_gib or 0) - other)
    spill = max(0.0, (weights.gib if weights else 0) - room)
    return Alternative(
        "offload",
        f"keep {room:.1f} GiB of the weights on the GPU and {spill:.1f} GiB in "
        "CPU memory (every token then reads them over PCIe: much slower)",
        None,
        room > 0,
        _OFFLOAD_INFER_HOW,
        None,
        target,
    )


def _more_gpus(w: fit.Workload, target: Target | None, ms: Any) -> Alternative | None:
    if target is None or target.vram_gib is None:
        return None
    start = max(2, w.gpus + 1)
    for n in list(range(start, 17)) + [24, 32, 48, 64]:
        if n < start:
            continue
        cand = w.but(gpus=n)
        total, ok = _judge(cand, replace(target, count=n), ms)
        if ok:
            link = target.interconnect
            detail = (
                f"interconnect: {link}"
                if link != "unknown"
                else "interconnect: unknown (without NVLink, tensor parallelism over PCIe is slow; "
                "pipeline / FSDP splits suffer less)"
            )
            return Alternative(
                "gpus",
                f"split it over {n} GPUs of {target.vram_gib:.0f} GiB ({detail})",
                total,
                True,
                _GPUS_HOW.format(n=n),
                cand,
                replace(target, count=n),
            )
    return None


def smallest_gpu_that_fits(w: fit.Workload, ms: Any) -> Alternative | None:
    """The listed NVIDIA GPU with the least memory that holds the workload and runs its dtype."""
    try:
        rows = list(ms.table("nvidia_gpus").rows)
    except (KeyError, AttributeError):
        return None
    need = fit.estimate(w.but(gpus=1)).total_gib
    best: tuple[float, dict] | None = None
    for row in rows:
        sizes = row.get("memory_gib") or []
        if not sizes or row.get("unverified"):
            continue
        size = float(max(sizes))
        if size < need:
            continue
        if verdict(ms, w.dtype, w.task, row.get("compute_capability")).ok is False:
            continue
        if best is None or size < best[0]:
            best = (size, row)
    if best is None:
        return None
    size, row = best
    target = Target(
        row["name"],
        size,
        "nvidia_gpus matrix",
        1,
        normal_cc(row.get("compute_capability")),
        row.get("arch"),
        "nvidia",
    )
    return Alternative(
        "gpu",
        f"a GPU with more memory: {row['name']} ({size:.0f} GiB) is the smallest "
        "listed one that holds it",
        need,
        True,
        "",
        w.but(gpus=1),
        target,
    )


_DTYPE_HOW = {
    "bf16": "transformers: torch_dtype=torch.bfloat16; TrainingArguments(bf16=True)",
    "fp16": "transformers: torch_dtype=torch.float16; TrainingArguments(fp16=True) (loss scaling); vLLM --dtype half",
    "fp8": "vLLM --quantization fp8; TensorRT-LLM / Transformer Engine fp8 recipes",
    "int8": "transformers: BitsAndBytesConfig(load_in_8bit=True); llama.cpp / Ollama: a Q8_0 file",
    "int4": (
        "transformers: BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type='nf4'); "
        "llama.cpp / Ollama: a Q4 file (Ollama's default tags are 4-bit); vLLM: an AWQ/GPTQ checkpoint"
    ),
}
_LORA_HOW = "peft: LoraConfig(r=16, target_modules='all-linear') on the frozen model"
_QLORA_HOW = (
    "transformers: BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type='nf4', "
    "bnb_4bit_use_double_quant=True) + peft LoraConfig(target_modules='all-linear')"
)
_CKPT_HOW = (
    "model.gradient_checkpointing_enable() or TrainingArguments(gradient_checkpointing=True)"
)
_OFFLOAD_TRAIN_HOW = (
    'DeepSpeed config: "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}}'
)
_OFFLOAD_INFER_HOW = (
    "transformers: device_map='auto' with max_memory={0: '<GiB>GiB', 'cpu': '<GiB>GiB'}; "
    "llama.cpp: -ngl <layers on the GPU>; Ollama offloads layers by itself"
)
_GPUS_HOW = (
    "training: torchrun --nproc_per_node {n} with FSDP / DeepSpeed ZeRO-3; "
    "inference: vLLM --tensor-parallel-size {n}"
)


# -- the application view ------------------------------------------------------------------------


def app_view(w: fit.Workload, target: Target | None, ms: Any) -> dict:
    """Ollama tags of about this size, llama.cpp file sizes, and low-VRAM flags of image UIs."""
    try:
        rows = list(ms.table("model_memory").rows)
    except (KeyError, AttributeError):
        rows = []
    vram = target.vram_gib if target is not None else None
    overhead = fit.FRAMEWORK_OVERHEAD_BYTES / fit.GIB
    ollama = []
    for row in rows:
        if row.get("kind") != "ollama" or not row.get("parameters_b"):
            continue
        if abs(row["parameters_b"] * 1e9 - w.params) > 0.15 * w.params:
            continue
        size_gib = row["size_gb"] * 1e9 / fit.GIB
        ollama.append(
            {
                "tag": row["name"],
                "parameters_b": row["parameters_b"],
                "size_gb": row["size_gb"],
                "fits": None if vram is None else size_gib + overhead <= vram,
                "source": row.get("source"),
            }
        )
    gguf = []
    for row in rows:
        if row.get("kind") == "gguf-quant" and row.get("bits_per_weight"):
            size = w.params * row["bits_per_weight"] / 8 / fit.GIB
            gguf.append(
                {
                    "quant": row["name"],
                    "bits_per_weight": row["bits_per_weight"],
                    "file_gib": round(size, 2),
                    "fits": None if vram is None else size + overhead <= vram,
                    "source": row.get("source"),
                }
            )
    flags = [
        {
            "app": r.get("app"),
            "flag": r.get("flag"),
            "meaning": r.get("meaning"),
            "vram_gib_max": r.get("vram_gib_max"),
            "source": r.get("source"),
            "applies": None
            if vram is None or r.get("vram_gib_max") is None
            else vram <= r["vram_gib_max"],
        }
        for r in rows
        if r.get("kind") == "app-flag"
    ]
    return {
        "ollama": ollama,
        "gguf": gguf,
        "image_ui_flags": flags,
        "shared_memory": SHARED_MEMORY_NOTE,
    }


def reference_shapes(ms: Any) -> dict[str, fit.ModelShape]:
    """Every reference model shape of model_memory, keyed by each of its names and aliases
    (lower case, letters and digits only, the part after the last "/")."""
    try:
        rows = list(ms.table("model_memory").rows)
    except (KeyError, AttributeError):
        return {}
    index: dict[str, fit.ModelShape] = {}
    for row in rows:
        if row.get("kind") != "model":
            continue
        shape = fit.ModelShape(
            layers=row["layers"],
            hidden=row["hidden"],
            heads=row["heads"],
            kv_heads=row["kv_heads"],
            head_dim=row["head_dim"],
            ffn=row["ffn"],
            vocab=row["vocab"],
            tied_embeddings=bool(row.get("tied_embeddings")),
            gated_mlp=bool(row.get("gated_mlp", True)),
            name=row["name"],
            source=row.get("source"),
            derived=False,
        )
        for spelling in [row["name"], *(row.get("aliases") or [])]:
            index.setdefault(shape_key(spelling), shape)
    return index


def reference_shape(ms: Any, name: str) -> fit.ModelShape | None:
    """A reference model shape by name or alias (case and -/_/. spacing do not matter)."""
    return reference_shapes(ms).get(shape_key(name))


def reference_names(ms: Any) -> list[str]:
    """The names of the reference model shapes."""
    try:
        return [r["name"] for r in ms.table("model_memory").rows if r.get("kind") == "model"]
    except (KeyError, AttributeError):
        return []


def shape_key(name: str) -> str:
    """ "meta-llama/Llama-2-7b-hf" -> "llama27bhf"."""
    return "".join(ch for ch in str(name).lower().split("/")[-1] if ch.isalnum())
