"""An out-of-memory error explained by the workload: the model named in the log cannot fit the GPU."""

from __future__ import annotations

from typing import TYPE_CHECKING

from envdoctor.checks import workload_facts as wf
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Severity
from envdoctor.model.snapshot import Snapshot

if TYPE_CHECKING:  # the estimator is imported once a paste names a model and an OOM (below)
    from envdoctor.fit import estimate as fit

_BNB_URL = "https://huggingface.co/docs/transformers/main/en/quantization/bitsandbytes"
_PEFT_URL = "https://huggingface.co/docs/peft/main/en/developer_guides/quantization"


def _minimum(params: float, shape: fit.ModelShape, dtype: str, task: str) -> fit.Estimate:
    """What the workload needs before any activation: context 1, batch 1."""
    from envdoctor.fit import estimate as fit

    return fit.estimate(fit.Workload(params, shape, dtype, task, context=1, batch=1))


def _label(dtype: str) -> str:
    return {"fp16": "16-bit", "int8": "8-bit", "int4": "4-bit"}.get(dtype, dtype)


@check("memory.workload-does-not-fit", needs=("pasted.text",), matrices=("model_memory",))
def workload_does_not_fit(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The model named in the log cannot fit this GPU's memory, whatever the batch size.

    A paste with an out-of-memory error that also names the model's size ("7B", "Llama-2-13b-hf")
    and shows the GPU's memory (PyTorch's "GiB total capacity" in the error itself, nvidia-smi
    output, or a GPU named in the text) is compared with the least memory that workload can take:
    its weights at the number format the log states (fp16/bf16, 8-bit, 4-bit; 16-bit when it
    states none), plus gradients and Adam state when it is full fine-tuning (16 bytes per parameter,
    ZeRO), plus the CUDA context (about 1.3 GiB). Activations and the KV cache come on top, so
    when even this floor is above the GPU's memory, lowering the batch size or the resolution
    cannot help: the model must be quantised, fine-tuned with LoRA/QLoRA, split over GPUs, or run
    on a larger GPU. When the log names no number format the finding is a warning: the workload
    may already be quantised. `envdoctor fit --params N --dtype D --task T --vram GiB` gives the
    whole estimate and the ranked alternatives.
    """
    text = wf.lines(snap)
    oom = wf.oom_line(text)
    if oom is None:
        return None
    params, shape, named = wf.params_from_text(text, ms)
    if params is None:
        return None
    vram = wf.vram_from_text(text)
    vram_source = "the out-of-memory message"
    if vram is None:
        vram, vram_source = wf.vram_from_facts(snap, ms)
    if vram is None:
        return None
    from envdoctor.fit import estimate as fit

    stated = wf.dtype_from_text(text)
    dtype = {"16-bit": "fp16", None: "fp16"}.get(stated, stated)
    task = wf.task_from_text(text)
    if task == "full" and dtype in fit.QUANTISED:
        task = "lora"
    shape = shape or fit.derive_shape(params)
    need = _minimum(params, shape, dtype, task)
    if need.total_gib <= vram:
        return None
    label = fit.count_label(params)
    doing = {"inference": "load", "full": "fully fine-tune", "lora": "fine-tune adapters on"}[task]
    fitting = [
        d
        for d in ("int8", "int4")
        if fit.WEIGHT_BYTES[d] < fit.WEIGHT_BYTES[dtype]
        and _minimum(params, shape, d, "inference" if task == "inference" else "qlora").total_gib
        <= vram
    ]
    sizes = ", ".join(
        f"{_label(d)} {_minimum(params, shape, d, 'inference').total_gib:.1f} GiB"
        for d in ("int8", "int4")
        if fit.WEIGHT_BYTES[d] < fit.WEIGHT_BYTES[dtype]
    )
    severity = Severity.ERROR if stated is not None else Severity.WARNING
    assumed = "" if stated is not None else " (the log states no number format: 16-bit assumed)"
    detail = (
        f"To {doing} a {label}-parameter model in {_label(dtype)} takes at least "
        f"{need.total_gib:.1f} GiB before any activation or KV cache{assumed}; the GPU has "
        f"{vram:.2f} GiB ({vram_source}). Lowering the batch size cannot make it fit."
    )
    if sizes:
        detail += f" Quantised, the floor is: {sizes}."
    fixes = []
    if task == "inference":
        if "int8" in fitting:
            fixes.append(
                Fix(
                    "Load the weights in 8-bit (bitsandbytes)",
                    ("pip install -U bitsandbytes",),
                    url=_BNB_URL,
                )
            )
        if "int4" in fitting:
            fixes.append(
                Fix(
                    "Load the weights in 4-bit NF4 (bitsandbytes), or use a 4-bit GGUF / AWQ / GPTQ build",
                    ("pip install -U bitsandbytes",),
                    url=_BNB_URL,
                )
            )
    else:
        fixes.append(
            Fix(
                "Fine-tune with QLoRA: a 4-bit base and LoRA adapters",
                ("pip install -U bitsandbytes peft",),
                url=_PEFT_URL,
            )
        )
    fixes.append(
        Fix(
            "See the whole estimate and every alternative (more GPUs, offload, a larger GPU)",
            (f"envdoctor fit --params {label} --dtype {dtype} --task {task} --vram {vram:g}",),
        )
    )
    evidence = (
        Evidence("pasted.text", oom[:200]),
        Evidence(
            "workload", f"{named or label} · {_label(dtype)} · {task}", f"at most {vram:.2f} GiB"
        ),
        Evidence("memory floor", f"{need.total_gib:.1f} GiB", f"<= {vram:.2f} GiB"),
    )
    return Finding(
        id="memory.workload-does-not-fit",
        severity=severity,
        title=f"A {label} model in {_label(dtype)} cannot fit this {vram:.1f} GiB GPU "
        f"(needs at least {need.total_gib:.1f} GiB)",
        detail=detail,
        evidence=evidence,
        fixes=tuple(fixes),
        explains=("memory.out-of-memory",) if stated is not None else (),
    )


CHECKS = [workload_does_not_fit]
