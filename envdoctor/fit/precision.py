"""Whether a GPU runs a number format, from the `gpu_precision` matrix (NVIDIA's support matrices).

`verdict(ms, dtype, task, cc)` says ok / refused / unknown with the alternative to use: bf16 on a
compute capability below 8.0 is refused with fp16 and loss scaling; fp8 below 8.9 with bf16 (or
fp16); fp16 or int8 without tensor cores is allowed with a warning. The words users read live here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from envdoctor.matrix.loader import MatrixSet

TE_URL = "https://nvidia.github.io/TransformerEngine/support_matrix.html"
AMP_URL = "https://pytorch.org/docs/stable/amp.html#gradient-scaling"


@dataclass(frozen=True)
class PrecisionVerdict:
    """`ok` True (runs), False (refused) or None (not known); `severity` error/warning/info."""

    dtype: str
    ok: bool | None
    severity: str
    detail: str
    alternative: str | None = None
    alternative_dtype: str | None = None
    url: str | None = None

    def to_dict(self) -> dict:
        """JSON form."""
        return {
            "dtype": self.dtype,
            "ok": self.ok,
            "severity": self.severity,
            "detail": self.detail,
            "alternative": self.alternative,
            "alternative_dtype": self.alternative_dtype,
            "url": self.url,
        }


def _rows(ms: MatrixSet) -> list[dict[str, Any]]:
    try:
        return list(ms.table("gpu_precision").rows)
    except (KeyError, AttributeError):
        return []


def normal_cc(cc: Any) -> str | None:
    """ "8.6", "86", "sm_86", 8.6 -> "8.6"; None when unreadable."""
    text = str(cc or "").strip().lower().removeprefix("sm_")
    if not text:
        return None
    if "." in text:
        major, _, minor = text.partition(".")
        return f"{int(major)}.{int(minor)}" if major.isdigit() and minor.isdigit() else None
    if text.isdigit() and len(text) >= 2:
        return f"{int(text[:-1])}.{int(text[-1])}"
    return None


def support_for(ms: MatrixSet, cc: Any) -> dict[str, Any] | None:
    """The gpu_precision row of compute capability `cc`, or None."""
    wanted = normal_cc(cc)
    return (
        next((r for r in _rows(ms) if r.get("compute_capability") == wanted), None)
        if wanted
        else None
    )


def supports(ms: MatrixSet, cc: Any, feature: str) -> bool | None:
    """Whether compute capability `cc` has `feature` (bf16, fp8, fp4, tf32, fp16_tensor_cores,
    int8_tensor_cores); None when the matrix does not say."""
    row = support_for(ms, cc)
    value = row.get(feature) if row else None
    return value if isinstance(value, bool) else None


def _fp16_fix(task: str) -> str:
    if task == "inference":
        return (
            "use fp16 instead: vLLM --dtype half, transformers torch_dtype=torch.float16, "
            "llama.cpp/Ollama run fp16 or quantised weights"
        )
    return (
        "train in fp16 with loss scaling instead: transformers --fp16 (TrainingArguments(fp16=True)), "
        "or torch.autocast(device_type='cuda', dtype=torch.float16) with torch.amp.GradScaler"
    )


def verdict(
    ms: MatrixSet, dtype: str, task: str, cc: Any, gpu_name: str | None = None
) -> PrecisionVerdict:
    """Whether `dtype` runs for `task` on a GPU of compute capability `cc`."""
    where = (
        f"{gpu_name} (compute capability {normal_cc(cc)})"
        if gpu_name
        else f"compute capability {normal_cc(cc)}"
    )
    if cc is None or normal_cc(cc) is None:
        return PrecisionVerdict(
            dtype,
            None,
            "info",
            "the GPU's compute capability is not known: number-format support not checked",
        )
    row = support_for(ms, cc)
    if row is None:
        return PrecisionVerdict(
            dtype,
            None,
            "info",
            f"compute capability {normal_cc(cc)} is not in "
            "the gpu_precision matrix: number-format support not checked",
        )
    compute = "bf16" if task == "qlora" and dtype in ("int4", "int8") else dtype
    if compute == "bf16":
        if row.get("bf16") is False:
            return PrecisionVerdict(
                dtype,
                False,
                "error",
                f"{where} has no bf16 support: NVIDIA's support matrices give "
                "compute capability 8.0 (Ampere) as bf16's minimum",
                _fp16_fix(task),
                "fp16",
                TE_URL,
            )
        if row.get("bf16") is None:
            return PrecisionVerdict(
                dtype,
                None,
                "warning",
                f"NVIDIA's matrices do not say whether {where} runs bf16",
                _fp16_fix(task),
                "fp16",
                TE_URL,
            )
    if compute == "fp8":
        if row.get("fp8") is False:
            alt = "bf16" if row.get("bf16") else "fp16"
            how = (
                f"use {alt} weights, or int8 weights to halve memory (bitsandbytes load_in_8bit)"
                if task == "inference"
                else f"train in {alt} mixed precision"
            )
            return PrecisionVerdict(
                dtype,
                False,
                "error",
                f"{where} has no fp8 support: fp8 needs compute capability 8.9 "
                "(Ada / Hopper) or newer",
                how,
                alt,
                TE_URL,
            )
        if row.get("fp8") is None:
            return PrecisionVerdict(
                dtype,
                None,
                "warning",
                f"NVIDIA's matrices do not say whether {where} runs fp8",
                None,
                None,
                TE_URL,
            )
    if compute == "fp16" and row.get("fp16_tensor_cores") is False:
        return PrecisionVerdict(
            dtype,
            True,
            "warning",
            f"{where} has no fp16 tensor cores: fp16 runs, "
            "without the tensor-core speed-up (Pascal 6.1 runs fp16 at a small "
            "fraction of its fp32 rate)",
            "fp32 may be faster here",
            "fp32",
        )
    if compute == "int8" and row.get("int8_tensor_cores") is False:
        return PrecisionVerdict(
            dtype,
            True,
            "warning",
            f"{where} has no int8 tensor cores: int8 weights "
            "save memory, but matrix multiplies run without int8 tensor cores",
        )
    if compute == "fp32" and row.get("tf32"):
        return PrecisionVerdict(
            dtype,
            True,
            "info",
            f"{where} runs fp32 matrix multiplies on tensor "
            "cores as tf32 when enabled (torch.backends.cuda.matmul.allow_tf32)",
        )
    return PrecisionVerdict(dtype, True, "info", f"{where} supports {compute}")


def supported_formats(ms: MatrixSet, cc: Any) -> dict[str, bool]:
    """Every known feature of compute capability `cc` (for the report)."""
    row = support_for(ms, cc) or {}
    features = ("bf16", "fp8", "fp4", "tf32", "fp16_tensor_cores", "int8_tensor_cores")
    return {f: row[f] for f in features if isinstance(row.get(f), bool)}
