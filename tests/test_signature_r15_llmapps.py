"""Round 15 sweep of the frequent messages of the local-LLM stack (bitsandbytes, llama.cpp, Ollama,
exllamav2, AutoAWQ; checks/signatures/{quantization,nvidia_driver}.toml): each message, verbatim from its thread,
reaches the cause the thread confirmed first, and one of that cause's fixes names the knob the
confirmed fix turned. The look-alike rows are real messages of other causes that the new patterns
could catch: they must not rank the tempting cause first."""

from __future__ import annotations

from triage_lines import SOURCE_KNOB_COLUMNS, SOURCE_LOOKALIKE_COLUMNS, knob_test, lookalike_test

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        # maintainer: a prebuilt exllamav2 wheel built against another torch; build from source
        # (or JIT) works with any torch, or install the wheel made for the installed torch
        "https://github.com/turboderp-org/exllamav2/issues/427",
        "ImportError: /usr/local/lib/python3.10/dist-packages/exllamav2_ext.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi",
        "torch.extension-abi-mismatch",
        "exllamav2",
    ),
    (
        # maintainer: pick the exllamav2 wheel for the installed torch/CUDA; reporter: the wrong
        # .whl had been installed
        "https://github.com/Zuellni/ComfyUI-ExLlama-Nodes/issues/7",
        "ImportError: DLL load failed while importing exllamav2_ext: 找不到指定的程序。",
        "torch.extension-abi-mismatch",
        "exllamav2",
    ),
    (
        # the 0.0.20 wheels were compiled for PyTorch 2.3.0 while torch 2.2.1 was installed
        "https://github.com/turboderp-org/exllamav2/issues/434",
        "DLL load failed while importing exllamav2_ext: The specified procedure could not be found.",
        "torch.extension-abi-mismatch",
        "exllamav2",
    ),
    (
        # reporter: building AutoAWQ_kernels from source (git clone; pip install -e .) solved it
        "https://github.com/QwenLM/Qwen3/issues/221",
        'File "/usr/local/lib/python3.10/dist-packages/awq/modules/linear/gemm.py", line 66, in backward\n'
        "    if awq_ext is None:\n"
        "NameError: name 'awq_ext' is not defined",
        "autoawq.kernels-not-installed",
        "AutoAWQ_kernels",
    ),
    (
        # maintainer: uninstall and reinstall the kernels from source
        "https://github.com/hiyouga/LlamaFactory/issues/4241",
        "ValueError: auto-awq kernels is needed to be installed to use .backward(). Make sure to install the auto-awq kernels by following the installation guides in https://github.com/casper-hansen/AutoAWQ_kernels",
        "autoawq.kernels-not-installed",
        "AutoAWQ_kernels",
    ),
    (
        # maintainer: the kernels' install failed because the environment missed their requirements;
        # reporter resolved it reinstalling them
        "https://github.com/casper-hansen/AutoAWQ/issues/374",
        "AssertionError: AWQ kernels could not be loaded. Please install them from https://github.com/casper-hansen/AutoAWQ_kernels",
        "autoawq.kernels-not-installed",
        "autoawq-kernels",
    ),
    (
        # collaborator: 801 is cudaErrorNotSupported; on an NVIDIA vGPU enable unified memory
        "https://github.com/ollama/ollama/issues/8980",
        'time=2025-02-10T11:28:30.991+08:00 level=INFO source=gpu.go:283 msg="error looking up nvidia GPU memory" error="cuda driver library failed to get device context 801"',
        "nvidia.vgpu-unified-memory-disabled",
        "enable_uvm",
    ),
    (
        # the poster's fix worked: rebuild/reinstall bitsandbytes for the installed CUDA
        "https://github.com/oobabooga/textgen/issues/1205",
        'warn("The installed version of bitsandbytes was compiled without GPU support. "',
        "bitsandbytes.cuda-setup-failed",
        "bitsandbytes",
    ),
]

# (thread, message of another cause, the cause a new pattern could wrongly rank first)
LOOKALIKE = [
    (
        # intermittent 800 (not permitted) in a container, not the vGPU's unsupported 801
        "https://github.com/ollama/ollama/issues/9531",
        '{"log":"cuda driver library failed to get device context 800time=2025-03-06T02:51:22.187Z level=WARN source=gpu.go:449 msg=\\"error looking up nvidia GPU memory\\"\\n"',
        "nvidia.vgpu-unified-memory-disabled",
    ),
    (
        # 999 on a desktop GTX 1660, no vGPU
        "https://github.com/ollama/ollama/issues/8647",
        'ollama[2075]: cuda driver library failed to get device context 999time=2025-01-29T03:21:43.859+01:00 level=WARN source=gpu.go:449 msg="error looking up nvidia GPU memory"',
        "nvidia.vgpu-unified-memory-disabled",
    ),
    (
        # AutoGPTQ's kernels, not AutoAWQ's
        "https://github.com/AutoGPTQ/AutoGPTQ/issues/402",
        "ERROR:auto_gptq.nn_modules.qlinear.qlinear_exllama:exllama_kernels not installed.",
        "autoawq.kernels-not-installed",
    ),
]


test_llmapps_message_reaches_its_cause_and_knob = knob_test(KNOB, SOURCE_KNOB_COLUMNS)


test_llmapps_lookalike_is_not_caught = lookalike_test(
    LOOKALIKE, SOURCE_LOOKALIKE_COLUMNS, may_be_empty=True
)
