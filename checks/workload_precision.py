"""A number format the GPU cannot run: bf16 before Ampere, fp8 before Ada / Hopper."""

from __future__ import annotations

import re

from envdoctor.checks import workload_facts as wf
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Severity
from envdoctor.model.snapshot import Snapshot

_VLLM_URL = "https://github.com/vllm-project/vllm/issues/946"
_AMP_URL = "https://pytorch.org/docs/stable/amp.html#gradient-scaling"
_TRAINER_URL = "https://huggingface.co/docs/transformers/main/en/main_classes/trainer#transformers.TrainingArguments"

# (number format, pattern); named groups: cc (the GPU's), gpu (its name)
_MESSAGES = (
    (
        "bf16",
        re.compile(
            r"Bfloat16 is only supported on GPUs with compute capability of at least "
            r"\d+\.\d\.\s*Your (?P<gpu>[^.]{1,80}?) GPU has compute capability (?P<cc>\d{1,2}\.\d)"
        ),
    ),
    ("bf16", re.compile(r"Your setup doesn't support bf16/gpu")),
    ("fp8", re.compile(r"Device compute capability (?:8\.9|9\.0) or higher required for FP8")),
    (
        "fp8",
        re.compile(
            r"quantization method fp8 is not supported for the current GPU\. Minimum capability: "
            r"\d{2,3}\. Current capability: (?P<sm>\d{2,3})"
        ),
    ),
)


def _cc_from(snap: Snapshot, ms: MatrixSet, found: re.Match) -> tuple[str | None, str | None]:
    from envdoctor.fit.precision import normal_cc  # imported once a line asks for a format

    groups = found.groupdict()
    if groups.get("cc"):
        return normal_cc(groups["cc"]), groups.get("gpu")
    if groups.get("sm"):
        return normal_cc(groups["sm"]), None
    for gpu in snap.fact("nvidia.gpus", "gpus") or []:
        if normal_cc(gpu.get("compute_capability")):
            return normal_cc(gpu.get("compute_capability")), gpu.get("name")
    ccs = snap.fact("pasted.text", "compute_capabilities") or []
    if len(set(ccs)) == 1:
        return normal_cc(ccs[0]), None
    from envdoctor.fit.plan import target_from_name

    for name in snap.fact("pasted.text", "gpus") or []:
        target = target_from_name(ms, str(name))
        if target is not None and target.compute_capability:
            return target.compute_capability, target.name
    return None, None


@check("fit.dtype-unsupported", needs=("pasted.text",), matrices=("gpu_precision",))
def dtype_unsupported(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The workload asks for a number format this GPU does not have.

    bf16 needs compute capability 8.0 (Ampere) or newer and fp8 needs 8.9 (Ada Lovelace / Hopper)
    or newer, as NVIDIA's Transformer Engine and TensorRT support matrices state (the
    `gpu_precision` matrix). On a Turing T4 or a Volta V100, vLLM stops with "Bfloat16 is only
    supported on GPUs with compute capability of at least 8.0", and the Hugging Face Trainer with
    "Your setup doesn't support bf16/gpu". The fix is fp16: `--dtype half` for vLLM,
    `torch_dtype=torch.float16` when loading, `--fp16` (mixed precision with loss scaling) when
    training. fp8 on Ampere: use bf16, or 8-bit integer weights to save the same memory.
    """
    for line in wf.lines(snap):
        for dtype, pattern in _MESSAGES:
            found = pattern.search(line)
            if found is None:
                continue
            from envdoctor.fit.precision import supports

            cc, gpu = _cc_from(snap, ms, found)
            has = supports(ms, cc, dtype) if cc else None
            if has is True:
                return None  # the matrix says this GPU runs it: the message has another cause
            where = f"{gpu or 'this GPU'}" + (f" (compute capability {cc})" if cc else "")
            return _finding(dtype, line, where, cc, has)
    return None


def _finding(dtype: str, line: str, where: str, cc: str | None, has: bool | None) -> Finding:
    need = "8.0 (Ampere)" if dtype == "bf16" else "8.9 (Ada Lovelace / Hopper)"
    fixes: tuple[Fix, ...]
    if dtype == "bf16":
        fixes = (
            Fix("vLLM: serve in fp16", ("vllm serve MODEL --dtype half",), url=_VLLM_URL),
            Fix(
                "Hugging Face: load with torch_dtype=torch.float16 and train with --fp16 (loss scaling) "
                "instead of --bf16",
                (),
                url=_TRAINER_URL,
            ),
            Fix(
                "Your own PyTorch code: torch.autocast(device_type='cuda', dtype=torch.float16) with "
                "torch.amp.GradScaler",
                (),
                url=_AMP_URL,
            ),
        )
    else:
        fixes = (
            Fix(
                "Run in bf16 (Ampere has it) or fp16, or load 8-bit integer weights to save the same memory",
                ("vllm serve MODEL --dtype bfloat16",),
                url=_VLLM_URL,
            ),
        )
    return Finding(
        id="fit.dtype-unsupported",
        severity=Severity.ERROR if has is False else Severity.WARNING,
        title=f"{where} cannot run {dtype}: it needs compute capability {need} or newer",
        detail=(
            f"The workload asks for {dtype}, which NVIDIA's support matrices give from compute "
            f"capability {need} on."
            + (
                ""
                if cc
                else " The GPU's compute capability is not in the "
                "paste, so this rests on the message alone."
            )
        ),
        evidence=(
            Evidence("pasted.text", line[:240]),
            Evidence("gpu.compute_capability", cc or "unknown", f">= {need.split()[0]}"),
        ),
        fixes=fixes,
    )


CHECKS = [dtype_unsupported]
