"""`envdoctor fit`: will this model and task run on these GPUs, in which precision, what to change.

    envdoctor fit --params 7B --dtype fp32|fp16|bf16|fp8|int8|int4 --task inference|full|lora|qlora
                  [--model NAME] [--context 8k] [--batch N] [--gpu NAME | --vram GiB] [--gpus N]
                  [--optimizer adamw|adamw-8bit|sgd|adafactor] [--checkpointing] [--attention flash|eager]
                  [--lora-rank R] [--offload-optimizer] [--json] [--format text|json|markdown]

Without --gpu / --vram the GPUs found here (NVIDIA / AMD probes only) are used. Exit 0 when it
fits, 1 when it does not (or the GPU cannot run the number format), 2 on bad arguments or when no
GPU memory size is known (the estimate is still printed).
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import TYPE_CHECKING

from envdoctor.commands import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Outcome, UsageError
from envdoctor.commands.output_options import add_format_arguments

if TYPE_CHECKING:
    from envdoctor.fit import estimate as fit

PROBES = ("nvidia_gpu", "nvidia_pci", "amd_gpu")
DEFAULT_CONTEXT = 2048


def add_parser(subparsers) -> None:  # noqa: ANN001
    """Register `fit`."""
    from envdoctor.fit import estimate as fit

    parser = subparsers.add_parser(
        "fit",
        help="will a model workload fit these GPUs, in which precision, and what to change",
        description="Estimate the GPU memory a model needs (weights, gradients, optimizer state, "
        "activations, KV cache, framework overhead), check the number format against "
        "the GPU, and rank what to change when it does not fit. Exit 0 fits, 1 does not, "
        "2 bad arguments or no GPU size known.",
    )
    parser.add_argument("--params", metavar="N", help="parameter count: 7B, 1.5B, 350M, 7000000000")
    parser.add_argument(
        "--model",
        metavar="NAME",
        help="a reference model shape (llama-2-7b, llama-3-8b, mistral-7b, ...) instead "
        "of a shape derived from --params",
    )
    parser.add_argument(
        "--dtype", required=True, choices=fit.DTYPES, help="number format of the weights"
    )
    parser.add_argument("--task", required=True, choices=fit.TASKS, help="what to run")
    parser.add_argument(
        "--context",
        default=str(DEFAULT_CONTEXT),
        metavar="TOKENS",
        help=f"sequence length: 2048, 8k, 128k (default: {DEFAULT_CONTEXT})",
    )
    parser.add_argument("--batch", default="1", metavar="N", help="sequences per step (default: 1)")
    parser.add_argument(
        "--gpu",
        metavar="NAME",
        help="judge against this GPU (as nvidia-smi names it: 'Tesla T4', 'H100 80GB HBM3')",
    )
    parser.add_argument(
        "--vram",
        metavar="GiB",
        help="judge against a GPU with this much memory "
        "(with --gpu: that GPU's memory, when the GPU "
        "matrix does not list it)",
    )
    parser.add_argument(
        "--gpus", default="1", metavar="N", help="GPUs to split the work over (default: 1)"
    )
    parser.add_argument(
        "--optimizer",
        default="adamw",
        choices=fit.OPTIMIZERS,
        help="optimizer for training (default: adamw)",
    )
    parser.add_argument("--checkpointing", action="store_true", help="gradient checkpointing is on")
    parser.add_argument(
        "--attention",
        default="flash",
        choices=("flash", "eager"),
        help="flash / SDPA attention (no s² scores kept, the default) or eager attention",
    )
    parser.add_argument("--lora-rank", default="16", metavar="R", help="LoRA rank (default: 16)")
    parser.add_argument(
        "--offload-optimizer",
        action="store_true",
        help="the optimizer state lives in CPU memory (DeepSpeed ZeRO-Offload)",
    )
    add_format_arguments(parser, ("text", "json", "markdown"))


# The widest a real workload needs: the largest published models have ~2e12 parameters and the
# largest GPUs under 300 GiB; beyond these a value is a typo or an attack on the arithmetic.
PARAMS_MAX = 1e14
VRAM_MAX_GIB = 16_384.0
CONTEXT_MAX_TOKENS = 1 << 24
WHOLE_MAX = {"--batch": 1 << 20, "--lora-rank": 1 << 16, "--gpus": 1 << 16}
# --model and --params together must name about the same size (rounding of "7B" for 6.74e9).
PARAMS_AGREEMENT = 0.25


def _positive_int(flag: str, text: str) -> int:
    from envdoctor.commands.limits import whole_number

    try:
        return whole_number(flag, text, 1, WHOLE_MAX.get(flag, 1 << 20))
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def workload_from_args(args: argparse.Namespace, ms) -> fit.Workload:  # noqa: ANN001
    """The Workload the arguments describe; UsageError naming the bad token."""
    from envdoctor.fit import estimate as fit
    from envdoctor.fit.plan import reference_names, reference_shape

    shape = None
    if args.model:
        shape = reference_shape(ms, args.model)
        if shape is None:
            raise UsageError(
                f"--model {args.model!r}: not a reference shape (known: "
                f"{', '.join(reference_names(ms))}); give --params instead"
            )
    if args.params:
        try:
            params = fit.parse_count(args.params)
        except ValueError as exc:
            raise UsageError(f"--params {exc}") from None
        if params > PARAMS_MAX:
            raise UsageError(
                f"--params {args.params!r}: more than {fit.count_label(PARAMS_MAX)} parameters"
            )
        if shape is not None and abs(params - shape.params) > PARAMS_AGREEMENT * shape.params:
            raise UsageError(
                f"--params {args.params} contradicts --model {args.model} "
                f"({fit.count_label(float(shape.params))} parameters); give one of them"
            )
    elif shape is not None:
        params = float(shape.params)
    else:
        raise UsageError("--params N (or --model NAME) is required")
    try:
        context = fit.parse_context(args.context)
    except ValueError as exc:
        raise UsageError(f"--context {exc}") from None
    if context > CONTEXT_MAX_TOKENS:
        raise UsageError(f"--context {args.context!r}: more than {CONTEXT_MAX_TOKENS} tokens")
    if args.task == "full" and args.dtype in fit.QUANTISED:
        raise UsageError(
            f"--dtype {args.dtype} --task full: {args.dtype} weights are not trained "
            "directly; use --task qlora (4-bit base + adapters) or --task lora"
        )
    return fit.Workload(
        params=params,
        shape=shape or fit.derive_shape(params),
        dtype=args.dtype,
        task=args.task,
        context=context,
        batch=_positive_int("--batch", args.batch),
        optimizer=args.optimizer,
        checkpointing=args.checkpointing,
        flash_attention=args.attention == "flash",
        lora_rank=_positive_int("--lora-rank", args.lora_rank),
        gpus=_positive_int("--gpus", args.gpus),
        offload_optimizer=args.offload_optimizer,
    )


def resolve_target(args: argparse.Namespace, ms, gpus: int, snapshot=None):  # noqa: ANN001, ANN201
    """The GPU to judge against: --gpu, --vram, or the GPUs detected here (None when none)."""
    from envdoctor.fit.plan import (
        combine,
        target_from_name,
        target_from_vram,
        targets_from_snapshot,
    )

    gib = _vram(args.vram) if args.vram else None
    if args.gpu:
        target = target_from_name(ms, args.gpu, gpus)
        if target is None:
            raise UsageError(f"--gpu {args.gpu!r}: not in the GPU matrix; give --vram GiB instead")
        if gib is not None:
            target = replace(target, vram_gib=gib, note=None, source=f"{target.source}, --vram")
        return target
    if gib is not None:
        return target_from_vram(gib, gpus)
    if snapshot is None:
        from envdoctor.diagnosis.enrich import enrich

        snapshot = enrich(detect(), ms)
    found = targets_from_snapshot(snapshot, ms)
    if found and gpus > len(found):
        raise UsageError(
            f"--gpus {gpus}: only {len(found)} GPU(s) found here; give --gpu NAME or "
            "--vram GiB to judge hypothetical GPUs"
        )
    return combine(found, gpus)


def _vram(text: str) -> float:
    try:
        gib = float(str(text).strip().lower().removesuffix("gib").removesuffix("gb"))
    except ValueError:
        raise UsageError(f"--vram {text!r}: not a size in GiB (write 24 or 79.6)") from None
    if not gib > 0 or gib != gib or gib == float("inf"):
        raise UsageError(f"--vram {text!r}: must be a positive size")
    if gib > VRAM_MAX_GIB:
        raise UsageError(f"--vram {text!r}: more than {VRAM_MAX_GIB:g} GiB on one GPU")
    return gib


def detect():  # noqa: ANN201
    """The NVIDIA / AMD facts of this machine (only those probes run)."""
    from envdoctor.probes import collect_all
    from envdoctor.probes.context import ProbeContext, ProbeOptions

    ctx = ProbeContext(options=ProbeOptions(timeout_s=10.0))
    return collect_all(ctx, modules=PROBES).snapshot


def argv_builder(args: argparse.Namespace):  # noqa: ANN201
    """A function giving the `envdoctor fit` command line that re-checks a workload on a target."""
    from envdoctor.fit import estimate as fit
    from envdoctor.fit.render import quote

    def build(w: fit.Workload, target) -> str:  # noqa: ANN001, F821
        parts = ["envdoctor", "fit"]
        if args.model:
            parts += ["--model", args.model]
        if args.params or not args.model:
            parts += ["--params", fit.count_label(w.params)]
        parts += ["--dtype", w.dtype, "--task", w.task]
        if w.context != DEFAULT_CONTEXT:
            parts += ["--context", str(w.context)]
        if w.batch != 1:
            parts += ["--batch", str(w.batch)]
        if w.training and w.optimizer != "adamw":
            parts += ["--optimizer", w.optimizer]
        if w.checkpointing and w.training:
            parts.append("--checkpointing")
        if not w.flash_attention:
            parts += ["--attention", "eager"]
        if w.task in ("lora", "qlora") and w.lora_rank != 16:
            parts += ["--lora-rank", str(w.lora_rank)]
        if w.offload_optimizer and w.task == "full":
            parts.append("--offload-optimizer")
        if target is not None and target.source.startswith("nvidia_gpus matrix"):
            parts += ["--gpu", target.name]
            if target.source.endswith("--vram"):
                parts += ["--vram", f"{target.vram_gib:g}"]
        elif target is not None and target.source == "--vram":
            parts += ["--vram", f"{target.vram_gib:g}"]
        if w.gpus > 1:
            parts += ["--gpus", str(w.gpus)]
        return quote(parts)

    return build


def run(args: argparse.Namespace) -> Outcome:
    """Estimate, judge, render."""
    from envdoctor.diagnosis.pipeline import active_matrices
    from envdoctor.fit.plan import plan
    from envdoctor.fit.render import render_json, render_markdown, render_text

    ms = active_matrices()
    workload = workload_from_args(args, ms)
    target = resolve_target(args, ms, workload.gpus)
    result = plan(workload, target, ms)
    argv_for = argv_builder(args)
    renderer = {"json": render_json, "markdown": render_markdown}.get(args.format, render_text)
    if renderer is render_text and getattr(args, "ui_lang", "en") != "en":
        # translated line by line by the CLI: lines unwrapped and uncoloured so each is whole
        text = render_text(result, argv_for, width=400, color=False)
    else:
        text = renderer(result, argv_for)
    if result.fits is None:
        reason = (
            target.note
            if target is not None and target.note
            else "no GPU detected here: give --gpu NAME or --vram GiB to judge the fit"
        )
        return Outcome(stdout=text, stderr=f"envdoctor fit: {reason}\n", exit_code=EXIT_USAGE)
    return Outcome(stdout=text, exit_code=EXIT_OK if result.fits else EXIT_FINDINGS)
