"""Round 7 field survey of the application families (bitsandbytes, llama.cpp / Ollama and
llama-cpp-python, vLLM, Intel XPU): canonical lines real users paste, each quoted from the thread
named beside it. Each line alone must put its cause among the first two findings, and where the
cause has a fix, the fix must name the thing the field's fix turns on (a package, flag, version,
variable or command)."""

from __future__ import annotations

import pytest
from triage_lines import fixes_text

from envdoctor.triage_engine import triage_text

BNB = "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/"

# (line, expected id, knob the fix names or "" when none is asserted, source URL)
LINES: list[tuple[str, str, str, str]] = [
    # ---------------------------------------------------------------- bitsandbytes
    (
        "AttributeError: /opt/conda/lib/python3.10/site-packages/bitsandbytes/"
        "libbitsandbytes_cpu.so: undefined symbol: cget_col_row_stats",
        "bitsandbytes.cuda-setup-failed",
        "bitsandbytes>=0.43.0",
        BNB + "459",
    ),
    (
        "AttributeError: /home/jason/miniconda3/envs/h2ogpt/lib/python3.10/site-packages/"
        "bitsandbytes/libbitsandbytes_cpu.so: undefined symbol:\ncget_col_row_stats",
        "bitsandbytes.cuda-setup-failed",
        "bitsandbytes",
        "https://github.com/h2oai/h2ogpt/issues/432",
    ),
    (
        "/home2/xhuang/.conda/envs/llama/lib/python3.9/site-packages/bitsandbytes/"
        "libbitsandbytes_cpu.so: undefined symbol: cadam32bit_grad_fp32",
        "bitsandbytes.cuda-setup-failed",
        "bitsandbytes>=0.43.0",
        "https://github.com/meta-llama/llama-cookbook/issues/159",
    ),
    (
        "    optim_func = str2optimizer32bit[optimizer_name][0]\n"
        "NameError: name 'str2optimizer32bit' is not defined",
        "bitsandbytes.cuda-setup-failed",
        "python -m bitsandbytes",
        BNB + "1281",
    ),
    (
        "/home/zsd/.local/lib/python3.10/site-packages/bitsandbytes/cuda_setup/main.py:136: "
        "UserWarning: WARNING: No GPU detected! Check your CUDA paths. Proceeding to load "
        "CPU-only library...",
        "bitsandbytes.cuda-setup-failed",
        "bitsandbytes",
        BNB + "241",
    ),
    (
        "CUDA SETUP: WARNING! libcuda.so not found! Do you have a CUDA driver installed? If you "
        "are on a cluster, make sure you are on a CUDA machine!",
        "bitsandbytes.cuda-setup-failed",
        "ldconfig",
        BNB + "405",
    ),
    (
        "CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in "
        "backup paths...\n"
        "CUDA SETUP: WARNING! libcuda.so not found! Do you have a CUDA driver installed? If you "
        "are on a cluster, make sure you are on a CUDA machine!\n"
        "CUDA SETUP: Loading binary AppData\\Local\\Programs\\Python\\Python310\\lib\\"
        "site-packages\\bitsandbytes\\libbitsandbytes_cpu.so...\n"
        "argument of type 'WindowsPath' is not iterable\n"
        "CUDA SETUP: Problem: The main issue seems to be that the main CUDA library was not "
        "detected.",
        "bitsandbytes.windows-unsupported",
        "bitsandbytes>=0.43.0",
        BNB + "1322",
    ),
    (
        "RuntimeError: CUDA Setup failed despite GPU being available. Please run the following "
        "command to get more information:",
        "bitsandbytes.cuda-setup-failed",
        "python -m bitsandbytes",
        BNB + "1322",
    ),
    (
        "ModuleNotFoundError: No module named 'triton.ops'",
        "bitsandbytes.triton-ops-removed",
        "bitsandbytes>=0.45.2",
        "https://github.com/triton-lang/triton/issues/5471",
    ),
    (
        "    from triton.ops.matmul_perf_model import early_config_prune, estimate_matmul_time\n"
        "ModuleNotFoundError: No module named 'triton.ops'",
        "bitsandbytes.triton-ops-removed",
        "pip install -U",
        "https://github.com/lamikr/rocm_sdk_builder/issues/202",
    ),
]


@pytest.mark.parametrize(("line", "finding_id", "knob", "source"), LINES)
def test_field_line_reaches_its_cause(line: str, finding_id: str, knob: str, source: str) -> None:
    """The line alone ranks its cause in the first two, and the cause's fix names the knob."""
    assert source.startswith("https://")
    findings = triage_text(line).findings
    ids = [f.id for f in findings[:2]]
    assert finding_id in ids, [f.id for f in findings[:3]]
    if knob:
        hit = next(f for f in findings[:2] if f.id == finding_id)
        assert knob.lower() in fixes_text(hit).lower(), fixes_text(hit)
