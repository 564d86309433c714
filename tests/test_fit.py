"""envdoctor fit: the estimator against published figures, the precision verdicts, the command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envdoctor import fit
from envdoctor.cli import main
from envdoctor.fit_plan import (
    plan,
    reference_shape,
    smallest_gpu_that_fits,
    target_from_name,
    target_from_vram,
    targets_from_snapshot,
)
from envdoctor.fit_precision import support_for, supports, verdict
from envdoctor.matrixset import load_bundled
from envdoctor.snapshot import Snapshot, collected

GB = 1e9


@pytest.fixture(scope="module")
def ms():
    return load_bundled()


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["fit", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def workload(
    params: float, dtype: str, task: str, shape: fit.ModelShape | None = None, **kw
) -> fit.Workload:
    return fit.Workload(params, shape or fit.derive_shape(params), dtype, task, **kw)


# -- published reference figures ---------------------------------------------------------------


def test_7b_fp16_weights_are_14_gb():
    """The seed's rule and ZeRO §3.1 (fp16 parameters: 2 bytes each): 7B -> 14 GB of weights."""
    est = fit.estimate(workload(7e9, "fp16", "inference"))
    assert est.term("weights").bytes == pytest.approx(14.0 * GB)
    assert est.term("weights").formula_id == "weights.dense"
    # the careful estimate lands above the rule: KV cache and the CUDA context come on top
    assert 14.0 * GB < est.total_bytes < 18.0 * GB
    assert fit.rule_of_thumb(7e9) == {
        "inference_gb": 14.0,
        "training_gb": [28.0, 42.0],
        "rule": "fp16 weights take 2 bytes per parameter; training needs roughly 2-3x that",
    }


def test_zero_gpt2_1_5b_model_states_are_24_gb():
    """ZeRO (arXiv 1910.02054 §3.1): mixed-precision Adam holds 2Ψ + 2Ψ + 12Ψ = 16Ψ bytes;
    "GPT-2 with 1.5 Billion parameters ... at least 24 GB", against "3 GB" for the fp16 weights."""
    est = fit.estimate(workload(1.5e9, "fp16", "full"))
    states = sum(est.term(k).bytes for k in ("weights", "gradients", "optimizer"))
    assert states == pytest.approx(24.0 * GB)
    assert est.term("weights").bytes == pytest.approx(3.0 * GB)
    assert est.term("optimizer").formula_id == "optimizer.adamw.mixed"


def test_full_finetune_7b_is_16_bytes_per_param_plus_activations():
    est = fit.estimate(workload(7e9, "bf16", "full"))
    states = sum(est.term(k).bytes for k in ("weights", "gradients", "optimizer"))
    assert states == pytest.approx(16 * 7e9)
    assert est.term("activations").bytes > 0 and est.term("logits").bytes > 0
    assert est.total_bytes > 16 * 7e9
    # far above the seed's 28-42 GB rule of thumb for training
    assert est.total_bytes / GB > 42 * 2.5


def test_fp32_adam_is_also_16_bytes_per_param():
    est = fit.estimate(workload(1e9, "fp32", "full"))
    assert sum(est.term(k).bytes for k in ("weights", "gradients", "optimizer")) == pytest.approx(
        16e9
    )


def test_optimizer_table():
    """HF model_memory_anatomy: 8-bit AdamW 2 bytes/param, SGD with momentum 4 bytes/param (fp32)."""
    assert fit.estimate(workload(1e9, "fp32", "full", optimizer="adamw-8bit")).term(
        "optimizer"
    ).bytes == pytest.approx(2e9)
    assert fit.estimate(workload(1e9, "fp32", "full", optimizer="sgd")).term(
        "optimizer"
    ).bytes == pytest.approx(4e9)
    assert (
        fit.estimate(workload(1e9, "bf16", "full", offload_optimizer=True)).term("optimizer").bytes
        == 0
    )


def test_korthikanti_activations_gpt3_175b():
    """Korthikanti et al. (arXiv 2205.05198 §4): s·b·h·(34 + 5as/h) bytes per layer without
    recomputation; GPT-3 175B (s=2048, h=12288, a=96): 5as/h = 80. Full recomputation: 2·s·b·h."""
    shape = fit.ModelShape(
        layers=96,
        hidden=12288,
        heads=96,
        kv_heads=96,
        head_dim=128,
        ffn=4 * 12288,
        vocab=50257,
        gated_mlp=False,
    )
    s, b, h, a, L = 2048, 1, 12288, 96, 96
    eager = fit.estimate(workload(175e9, "fp16", "full", shape, context=s, flash_attention=False))
    assert eager.term("activations").bytes == pytest.approx(L * s * b * h * (34 + 5 * a * s / h))
    assert 5 * a * s / h == 80
    flash = fit.estimate(workload(175e9, "fp16", "full", shape, context=s))
    assert flash.term("activations").bytes == pytest.approx(L * s * b * h * 34)
    ckpt = fit.estimate(workload(175e9, "fp16", "full", shape, context=s, checkpointing=True))
    assert ckpt.term("activations").bytes == pytest.approx(L * 2 * s * b * h + s * b * h * 34)
    assert ckpt.term("activations").formula_id == "act.train.recompute"


def test_vllm_opt13b_kv_cache_800kb_per_token(ms):
    """Kwon et al. (arXiv 2309.06180 §3): OPT-13B's KV cache is 800 KB per token (2 × 5120 × 40 × 2)
    and up to 1.6 GB for a 2048-token request."""
    shape = reference_shape(ms, "opt-13b")
    assert fit.kv_cache_bytes(shape, 1, 1) == 2 * 5120 * 40 * 2 == 800 * 1024
    assert fit.kv_cache_bytes(shape, 2048, 1) / GB == pytest.approx(1.68, abs=0.01)


def test_reference_shapes_give_the_official_parameter_counts(ms):
    assert reference_shape(ms, "meta-llama/Llama-2-7b-hf").params == 6_738_415_616
    assert reference_shape(ms, "Meta-Llama-3-8B-Instruct").params == 8_030_261_248
    assert reference_shape(ms, "Meta-Llama-3-70B").params == 70_553_706_496
    assert reference_shape(ms, "no-such-model") is None


def test_derived_shape_follows_kaplan():
    """Kaplan et al. (arXiv 2001.08361 §2.1): N ≈ 12·n_layer·d_model² for the non-embedding part."""
    shape = fit.derive_shape(7e9)
    assert (shape.layers, shape.hidden, shape.head_dim) == (32, 4096, 128)
    non_embedding = 12 * shape.layers * shape.hidden**2
    assert non_embedding + shape.embedding_params == pytest.approx(7e9, rel=0.05)
    assert shape.derived and shape.kv_heads == shape.heads
    assert fit.estimate(workload(7e9, "fp16", "inference")).term("kv_cache").estimate


def test_qlora_double_quantisation_constants():
    """Dettmers et al. (arXiv 2305.14314 §3): 8/64 + 32/(64·256) = 0.127 bits per parameter."""
    assert pytest.approx(0.127, abs=5e-4) == fit.NF4_DQ_BITS - 4
    est = fit.estimate(workload(7e9, "bf16", "qlora"))
    assert est.term("weights").formula_id == "weights.nf4-dq"
    assert est.term("gradients") is None and est.term("optimizer") is None
    assert est.term("adapters").bytes < 1.0 * GB


def test_qlora_65b_fits_48gb_and_full_finetuning_does_not_fit_780gb():
    """QLoRA's abstract: finetuning a 65B model drops from ">780GB of GPU memory to <48GB"."""
    q = fit.estimate(workload(65e9, "bf16", "qlora", checkpointing=True, context=512))
    assert q.total_bytes < 48 * GB
    full = fit.estimate(workload(65e9, "bf16", "full"))
    assert full.total_bytes > 780 * GB


# -- precision -----------------------------------------------------------------------------------


def test_precision_matrix_rows(ms):
    assert supports(ms, "7.5", "bf16") is False
    assert supports(ms, "8.0", "bf16") is True and supports(ms, "8.6", "fp8") is False
    assert supports(ms, "8.9", "fp8") is True and supports(ms, "9.0", "fp4") is False
    assert supports(ms, "10.0", "fp4") is True and supports(ms, "sm_120", "fp4") is True
    assert supports(ms, "8.7", "bf16") is None  # sources disagree: left out
    assert support_for(ms, "99.9") is None


def test_bf16_on_t4_refused_with_fp16_and_loss_scaling(ms):
    v = verdict(ms, "bf16", "full", "7.5", "Tesla T4")
    assert v.ok is False and v.alternative_dtype == "fp16"
    assert "loss scaling" in v.alternative
    assert verdict(ms, "bf16", "inference", "8.6").ok is True


def test_fp8_on_ampere_refused_with_bf16(ms):
    v = verdict(ms, "fp8", "inference", "8.0", "NVIDIA A100")
    assert v.ok is False and v.alternative_dtype == "bf16"
    assert verdict(ms, "fp8", "inference", "7.5").alternative_dtype == "fp16"
    assert verdict(ms, "fp8", "inference", "9.0").ok is True


def test_fp16_without_tensor_cores_is_a_warning(ms):
    v = verdict(ms, "fp16", "inference", "6.1", "Tesla P4")
    assert v.ok is True and v.severity == "warning"
    assert verdict(ms, "fp16", "inference", None).ok is None


# -- GPUs ----------------------------------------------------------------------------------------


def test_targets_from_real_nvidia_smi_captures(real_captures: Path, ms):
    from envdoctor.ingest import nvidia_smi_xml

    def targets(name: str):
        snap = Snapshot(origin="pasted")
        snap.extend(nvidia_smi_xml.read((real_captures / "nvidia-smi-q-x" / name).read_text()))
        return targets_from_snapshot(snap, ms)

    t4 = targets("telegraf-tesla-t4-driver-515.105.01.xml")
    assert [(t.name, t.vram_gib, t.compute_capability) for t in t4] == [("Tesla T4", 15.0, "7.5")]
    assert len(targets("openpai-geforce-rtx2080ti-x2-driver-410.73.xml")) == 2
    mig = targets("telegraf-a100-sxm4-80gb-mig-driver-535.54.03.xml")[0]
    assert mig.vram_gib == pytest.approx(19968 / 1024) and "MIG" in mig.note
    # bf16 on the detected T4 is refused
    p = plan(workload(7e9, "bf16", "inference"), t4[0], ms)
    assert p.fits is False and p.precision.ok is False


def test_nvswitch_reported_as_interconnect(ms):
    snap = Snapshot()
    snap.add(
        collected(
            "nvidia.gpus",
            "test",
            {
                "gpus": [
                    {
                        "name": "NVIDIA H100 80GB HBM3",
                        "memory_total_mib": 81559,
                        "compute_capability": "9.0",
                    }
                ]
            },
        )
    )
    snap.add(collected("nvidia.pci", "test", {"nvswitch_count": 4}))
    target = targets_from_snapshot(snap, ms)[0]
    assert target.interconnect.startswith("NVLink through 4 NVSwitch")
    empty = Snapshot()
    assert targets_from_snapshot(empty, ms) == []


def test_gpu_by_short_name(ms):
    assert target_from_name(ms, "T4").name == "Tesla T4"
    assert target_from_name(ms, "H100 80GB HBM3").vram_gib == 80
    assert target_from_name(ms, "Tesla T4").vram_gib == 15.0  # measured: 15360 MiB
    assert target_from_name(ms, "RTX 3060").vram_gib is None  # 8 and 12 GB boards: no size
    assert target_from_name(ms, "Voodoo 2") is None


def test_alternatives_ranked_and_reestimated(ms):
    p = plan(workload(7e9, "bf16", "full"), target_from_vram(24), ms)
    assert p.fits is False
    kinds = [a.kind for a in p.alternatives]
    assert kinds[:2] == ["lora", "qlora"]
    assert {"checkpointing", "offload", "gpus", "gpu"} <= set(kinds)
    qlora = next(a for a in p.alternatives if a.kind == "qlora")
    assert qlora.fits is True and qlora.total_gib < 24
    gpus = next(a for a in p.alternatives if a.kind == "gpus")
    assert "interconnect: unknown" in gpus.summary and gpus.workload.gpus >= 5
    infer = plan(workload(70e9, "fp16", "inference"), target_from_vram(48), ms)
    first = infer.alternatives[0]
    assert first.kind == "dtype" and first.workload.dtype == "int4" and first.fits is True


def test_smallest_listed_gpu(ms):
    alt = smallest_gpu_that_fits(workload(13e9, "fp16", "inference"), ms)
    assert alt is not None and alt.target.vram_gib >= alt.total_gib
    assert smallest_gpu_that_fits(workload(2e12, "fp16", "inference"), ms) is None


def test_app_view(ms):
    p = plan(workload(8e9, "int4", "inference"), target_from_vram(4), ms)
    tags = {o["tag"]: o for o in p.apps["ollama"]}
    assert tags["llama3.1"]["size_gb"] == 4.7 and tags["llama3.1"]["fits"] is False
    assert [g["quant"] for g in p.apps["gguf"]] == ["Q4_0", "Q8_0"]
    applies = [f["flag"] for f in p.apps["image_ui_flags"] if f["applies"]]
    assert "--medvram" in applies
    assert "not VRAM" in p.apps["shared_memory"]


# -- the command ---------------------------------------------------------------------------------


def test_cli_7b_fp16_inference_fits_24_gib_json(capsys):
    code, out, _ = run_cli(
        capsys, "--params", "7B", "--dtype", "fp16", "--task", "inference", "--vram", "24", "--json"
    )
    doc = json.loads(out)
    assert code == 0 and doc["fits"] is True and doc["vram_gib"] == 24
    assert doc["total_gib"] == pytest.approx(sum(t["gib"] for t in doc["breakdown"]), abs=0.01)
    assert {t["formula_id"] for t in doc["breakdown"]} >= {
        "weights.dense",
        "kv.cache",
        "overhead.cuda-context",
    }
    assert doc["rule_of_thumb"]["inference_gb"] == 14.0
    assert doc["assumptions"] and doc["gpu"]["source"] == "--vram"


def test_cli_70b_fp16_does_not_fit_one_80gb_gpu(capsys):
    code, out, _ = run_cli(
        capsys,
        "--params",
        "70B",
        "--dtype",
        "fp16",
        "--task",
        "inference",
        "--gpu",
        "H100 80GB HBM3",
        "--json",
    )
    doc = json.loads(out)
    assert code == 1 and doc["fits"] is False and doc["total_gib"] > 130
    assert doc["alternatives"] and doc["alternatives"][0]["rank"] == 1
    assert all(
        a["command"].startswith("envdoctor fit ") for a in doc["alternatives"] if a["command"]
    )


def test_cli_qlora_7b_on_24gb_card_fits(capsys):
    code, out, _ = run_cli(
        capsys, "--params", "7B", "--dtype", "bf16", "--task", "qlora", "--vram", "24"
    )
    assert code == 0 and "Fits" in out


def test_cli_bf16_on_t4_refused(capsys):
    code, out, _ = run_cli(
        capsys, "--params", "7B", "--dtype", "bf16", "--task", "full", "--gpu", "T4", "--vram", "15"
    )
    assert code == 1
    assert "no bf16 support" in out and "fp16 with loss scaling" in out
    assert "--dtype fp16" in out


def test_cli_bad_params_names_the_token(capsys):
    code, _, err = run_cli(
        capsys, "--params", "7Q", "--dtype", "fp16", "--task", "inference", "--vram", "8"
    )
    assert code == 2 and "'7Q'" in err
    code, _, err = run_cli(
        capsys, "--params", "7", "--dtype", "fp16", "--task", "inference", "--vram", "8"
    )
    assert code == 2 and "7B" in err
    code, _, err = run_cli(
        capsys, "--params", "7B", "--dtype", "int4", "--task", "full", "--vram", "8"
    )
    assert code == 2 and "qlora" in err
    code, _, err = run_cli(
        capsys, "--params", "7B", "--dtype", "fp16", "--task", "inference", "--context", "lots"
    )
    assert code == 2 and "'lots'" in err


def test_cli_no_gpu_here_exits_2_with_the_estimate(capsys, monkeypatch):
    from envdoctor.commands import fit as fit_cmd

    monkeypatch.setattr(fit_cmd, "detect", lambda: Snapshot())
    code, out, err = run_cli(capsys, "--params", "1.5B", "--dtype", "fp16", "--task", "inference")
    assert code == 2 and "weights" in out and "--vram" in err


def test_cli_model_reference_and_markdown(capsys):
    code, out, _ = run_cli(
        capsys,
        "--model",
        "llama-3-8b",
        "--dtype",
        "bf16",
        "--task",
        "inference",
        "--context",
        "8k",
        "--vram",
        "24",
        "--format",
        "markdown",
    )
    assert code == 0 and out.startswith("## envdoctor fit") and "| total |" not in out
    assert "8.03B parameters (llama-3-8b)" in out and "`kv.cache`" in out


def test_cli_text_is_plain_without_a_terminal(capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    code, out, _ = run_cli(
        capsys, "--params", "7B", "--dtype", "fp16", "--task", "inference", "--vram", "8"
    )
    assert code == 1 and "\x1b[" not in out
    assert "[weights.dense]" in out and "What to change" in out
