"""The workload checks on real pasted logs: memory.workload-does-not-fit and fit.dtype-unsupported."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import check_id_of

from envdoctor.checks import workload_facts as wf
from envdoctor.commands.triage import triage_text
from envdoctor.matrix.loader import load_bundled
from envdoctor.model.snapshot import Snapshot, collected

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "fit"


def triage(name: str):
    return triage_text((FIXTURES / name).read_text(encoding="utf-8"))


def ids(report) -> list[str]:
    return [f.id for f in report.findings]


def finding(report, fid: str):
    return next(f for f in report.findings if f.id == fid)


@pytest.fixture(scope="module")
def ms():
    return load_bundled()


# -- memory.workload-does-not-fit --------------------------------------------------------------


def test_full_finetune_7b_on_80gb_is_the_cause_of_the_oom():
    report = triage("alpaca-189-llama7b-full-finetune-a100-80gb.txt")
    assert ids(report)[:2] == ["memory.workload-does-not-fit", "memory.out-of-memory"]
    f = finding(report, "memory.workload-does-not-fit")
    assert f.severity.value == "error" and "memory.out-of-memory" in f.explains
    assert "fully fine-tune a 7B" in f.detail and "80.00 GiB" in f.detail
    assert any("QLoRA" in x.summary for x in f.fixes)
    assert any("--task full --vram 80" in c for x in f.fixes for c in x.commands)


def test_7b_on_8gb_without_a_stated_dtype_is_a_warning():
    report = triage("codellama-82-7b-on-8gb-rtx3070.txt")
    f = finding(report, "memory.workload-does-not-fit")
    assert f.severity.value == "warning" and not f.explains
    assert "7.78 GiB" in f.detail and "16-bit assumed" in f.detail
    assert "4-bit" in f.detail and any("4-bit" in x.summary for x in f.fixes)
    assert ids(report)[0] == "memory.out-of-memory"  # the signature still leads


def test_7b_on_16gb_fits_so_no_finding():
    report = triage("fastchat-2429-vicuna-7b-16gb-fits.txt")
    assert "memory.out-of-memory" in ids(report)
    assert "memory.workload-does-not-fit" not in ids(report)
    assert check_id_of("memory.workload-does-not-fit") in report.passed


def test_oom_without_a_model_size_says_nothing():
    report = triage_text(
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 26.00 MiB "
        "(GPU 0; 4.00 GiB total capacity; 3.38 GiB already allocated; 0 bytes free)"
    )
    assert "memory.workload-does-not-fit" not in ids(report)
    assert check_id_of("memory.workload-does-not-fit") in report.passed


def test_two_model_sizes_are_not_guessed(ms):
    text = [
        "loading the 7B and the 13B model",
        "CUDA out of memory (GPU 0; 8.00 GiB total capacity)",
    ]
    assert wf.params_from_text(text, ms)[0] is None


def test_text_readers(ms):
    params, shape, named = wf.params_from_text(
        ["model = AutoModelForCausalLM.from_pretrained('meta-llama/Llama-2-13b-hf')"], ms
    )
    assert shape.name == "llama-2-13b" and params == shape.params and named == "llama-2-13b"
    assert (
        wf.params_from_text(["--model_name_or_path ./7bWeights/llama-7b train7b.py"], ms)[0] == 7e9
    )
    assert wf.params_from_text(["facebook-opt-350m loaded"], ms)[0] == 350e6
    assert wf.dtype_from_text(["BitsAndBytesConfig(load_in_4bit=True)"]) == "int4"
    assert wf.dtype_from_text(["torch_dtype=torch.bfloat16"]) == "16-bit"
    assert wf.dtype_from_text(["load_in_4bit", "load_in_8bit"]) is None
    assert wf.task_from_text(["peft LoraConfig"]) == "lora"
    assert wf.task_from_text(["--learning_rate 2e-5"]) == "full"
    assert wf.task_from_text(["generate()"]) == "inference"
    assert (
        wf.vram_from_text(["GPU 0 has a total capacty of 7.78 GiB of which 61.00 MiB is free"])
        == 7.78
    )


def test_vram_from_structured_facts(ms):
    snap = Snapshot(origin="pasted")
    snap.add(
        collected(
            "nvidia.gpus", "test", {"gpus": [{"name": "Tesla T4", "memory_total_mib": 15360}]}
        )
    )
    assert wf.vram_from_facts(snap, ms) == (15.0, "nvidia.gpus: Tesla T4")
    named = Snapshot(origin="pasted")
    named.add(collected("pasted.text", "test", {"gpus": ["NVIDIA H100 80GB HBM3"], "lines": []}))
    assert wf.vram_from_facts(named, ms)[0] == 80


# -- fit.dtype-unsupported -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, gpu, cc",
    [
        ("vllm-946-bf16-on-v100.txt", "Tesla V100-SXM2-32GB", "7.0"),
        ("vllm-1157-bf16-on-t4.txt", "Tesla T4", "7.5"),
        ("orpheus-44-bf16-on-p40.txt", "Tesla P40", "6.1"),
    ],
)
def test_bf16_refused_on_pre_ampere(name, gpu, cc):
    report = triage(name)
    f = finding(report, "fit.dtype-unsupported")
    assert f.severity.value == "error" and gpu in f.title and f"compute capability {cc}" in f.title
    assert f.fixes[0].commands == ("vllm serve MODEL --dtype half",)
    assert ids(report)[0] == "fit.dtype-unsupported"


def test_bf16_message_on_a_gpu_the_matrix_says_runs_bf16_is_not_confirmed():
    report = triage_text(
        "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least "
        "8.0. Your NVIDIA A100 GPU has compute capability 8.0."
    )
    assert "fit.dtype-unsupported" not in ids(report)
    assert check_id_of("fit.dtype-unsupported") in report.passed


def test_fp8_on_ampere():
    report = triage_text(
        "ValueError: The quantization method fp8 is not supported for the current GPU. "
        "Minimum capability: 89. Current capability: 86."
    )
    f = finding(report, "fit.dtype-unsupported")
    assert "compute capability 8.6" in f.title and "8.9" in f.title


def test_trainer_bf16_message_without_cc_is_a_warning():
    report = triage_text(
        "ValueError: Your setup doesn't support bf16/gpu. You need torch>=1.10, using Ampere GPU with cuda>=11.0"
    )
    assert finding(report, "fit.dtype-unsupported").severity.value == "warning"


def test_checks_are_not_applicable_on_a_live_machine():
    from envdoctor.diagnosis.pipeline import diagnose

    report = diagnose(Snapshot(), check_modules=("workload_fit", "workload_precision"))
    assert not report.findings
