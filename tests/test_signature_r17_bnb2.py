"""Quantised-model loading and training, round 17 sweep (checks/signatures/{torch,quantization,libraries}.toml): each
common message, verbatim from a public thread, reaches its cause first with a fix naming the knob
the thread's fix turned; look-alike messages of other causes are not read as the new causes."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message, the finding id first, the knob one of its fixes names, the thread)
KNOB = [
    # the maintainer: the kernels wheel was built with torch 2.2.0 and used with 2.3.0; build from
    # source or install the updated kernels (autoawq-kernels) built for the new torch
    (
        "ImportError: /python3.8/site-packages/awq_ext.cpython-38-x86_64-linux-gnu.so: undefined "
        "symbol: _ZN3c104cuda9SetDeviceEi",
        "torch.extension-abi-mismatch",
        "autoawq-kernels",
        "https://github.com/casper-hansen/AutoAWQ/issues/466",
    ),
    # the reporter: autoawq was compiled against torch 2.0.1; installing torch 2.0.1 fixes it
    (
        "ImportError: /venv/lib/python3.10/site-packages/awq_inference_engine.cpython-310-x86_64-"
        "linux-gnu.so: undefined symbol: _ZN2at4_ops15sum_dim_IntList4callERKNS_6TensorEN3c1016Opti"
        "onalArrayRefIlEEbNS5_8optionalINS5_10ScalarTypeEEE",
        "torch.extension-abi-mismatch",
        "torch==",
        "https://github.com/neuml/txtai/issues/660",
    ),
    # the reporter: INSTALL_KERNELS=1 pip install git+https://github.com/casper-hansen/AutoAWQ.git
    # solved the problem
    (
        "'ImportError: /data1/home/cddu/anaconda3/envs/qwen2-vl-flash-att/lib/python3.10/site-"
        "packages/awq_inference_engine.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN2at4_"
        "ops15sum_dim_IntList4callERKNS_6TensorEN3c1016OptionalArrayRefIlEEbNS5_8optionalINS5_10Scal"
        "arTypeEEE'",
        "torch.extension-abi-mismatch",
        "INSTALL_KERNELS=1",
        "https://github.com/QwenLM/Qwen3-VL/issues/271",
    ),
    # the maintainer: a prebuilt wheel that does not match the installed PyTorch; build from source
    (
        "ImportError: /usr/local/lib/python3.10/dist-packages/exllama_kernels.cpython-310-x86_64-"
        "linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi",
        "torch.extension-abi-mismatch",
        "auto-gptq",
        "https://github.com/turboderp-org/exllamav2/issues/457",
    ),
    # a commenter: resolved by updating AutoGPTQ from 0.4.2 to 0.5.1
    (
        "Found an incompatible version of auto-gptq. Found version 0.4.2+cu121, but only version "
        "above 0.4.99 are supported",
        "gptq.autogptq-too-old-for-optimum",
        "auto-gptq>0.4.99",
        "https://github.com/oobabooga/textgen/issues/4543",
    ),
    # optimum's maintainers fixed the minimum-version check (optimum#1504) and auto-gptq 0.5.0 was
    # released; the message names the minimum
    (
        "ImportError: Found an incompatible version of auto-gptq. Found version 0.4.2, but only "
        "version above 0.5.0 are supported",
        "gptq.autogptq-too-old-for-optimum",
        "auto-gptq>0.5.0",
        "https://github.com/AutoGPTQ/AutoGPTQ/issues/391",
    ),
    # a commenter: auto-gptq==0.4.2 with optimum==1.13.2 is working (optimum pinned)
    (
        "ImportError: Found an incompatible version of auto-gptq. Found version 0.4.2, but only "
        "versions above {AUTOGPTQ_MINIMUM_VERSION} are supported",
        "gptq.autogptq-too-old-for-optimum",
        "optimum<1.14",
        "https://github.com/axolotl-ai-cloud/axolotl/issues/835",
    ),
    # the message names its fix (exllama_set_max_input_length, the API the maintainers added in
    # AutoGPTQ#253 for this error) and the length
    (
        "RuntimeError: The temp_state buffer is too small in the exllama backend for GPTQ with "
        "act-order. Please call the exllama_set_max_input_length function to increase the buffer "
        "size for a sequence length >=2960:\n"
        "from auto_gptq import exllama_set_max_input_length\n"
        "model = exllama_set_max_input_length(model, max_input_length=2960)",
        "gptq.exllama-act-order-buffer-too-small",
        "max_input_length=2960",
        "https://github.com/AutoGPTQ/AutoGPTQ/issues/504",
    ),
    # the maintainer: fixed in accelerate#1523, pip install --upgrade accelerate
    (
        "ValueError: You can't train a model that has been loaded in 8-bit precision on multiple "
        "devices.",
        "accelerate.quantized-model-device-mismatch",
        "pip install -U accelerate",
        "https://github.com/huggingface/peft/issues/414",
    ),
    # the maintainer: reinstall accelerate (from source, with accelerate#1523 merged)
    (
        "ValueError: You can't train a model that has been loaded in 8-bit precision on a "
        "different device than the one you're training on. ",
        "accelerate.quantized-model-device-mismatch",
        "accelerate",
        "https://github.com/artidoro/qlora/issues/137",
    ),
    # the maintainer: get_peft_model (FastLanguageModel.get_peft_model) was not called
    (
        "ValueError: You cannot perform fine-tuning on purely quantized models. Please attach "
        "trainable adapters on top of the quantized model to correctly perform fine-tuning. Please "
        "see: https://huggingface.co/docs/transformers/peft for more details",
        "peft.quantized-model-without-adapters",
        "get_peft_model",
        "https://github.com/unslothai/unsloth/issues/241",
    ),
    # a commenter: deleting model = model.merge_and_unload() made everything fine
    (
        "You cannot perform fine-tuning on purely quantized models. Please attach trainable "
        "adapters on top of the quantized model to correctly perform fine-tuning. Please see: "
        "https://huggingface.co/docs/transformers/peft for more details",
        "peft.quantized-model-without-adapters",
        "merge_and_unload",
        "https://github.com/BAAI-DCAI/Bunny/issues/112",
    ),
    # already reached before this round (kept as a guard): the reporter found auto-gptq 0.4.2
    # works where 0.5.0's exllama_kernels DLL does not load
    (
        "    from exllama_kernels import make_q4, q4_matmul\n"
        "ImportError: DLL load failed while importing exllama_kernels: The specified module could "
        "not be found.",
        "autogptq.cuda-ext-not-installed",
        "auto-gptq",
        "https://github.com/AutoGPTQ/AutoGPTQ/issues/403",
    ),
    # already reached: the reporter installed the CUDA toolkit (nvcc) and the message disappeared
    (
        'Most of the time I get "CUDA Extension not installed." when running the Python script.',
        "autogptq.cuda-ext-not-installed",
        "nvcc",
        "https://github.com/AutoGPTQ/AutoGPTQ/issues/239",
    ),
    # already reached: the reporter (in Chinese) fixed it by loading the CUDA binary instead of the
    # CPU one; the maintainer's answer elsewhere is an upgrade
    (
        "bitsandbytes/libbitsandbytes_cpu.so: undefined symbol: cget_col_row_stats",
        "bitsandbytes.cuda-setup-failed",
        "bitsandbytes",
        "https://github.com/mymusise/ChatGLM-Tuning/issues/117",
    ),
    # already reached: the article's fix is bitsandbytes>=0.43.1 (a binary for CUDA 12.4)
    (
        "CUDA SETUP: Required library version not found: libbitsandbytes_cuda124.so",
        "bitsandbytes.cuda-setup-failed",
        "bitsandbytes>=0.43.1",
        "https://blog.gitcode.com/850c681d14d1ffb0b77ea76cb2a29c12.html",
    ),
    # already reached: the maintainer, upgrading via pip install -U bitsandbytes resolves it
    (
        "Cannot load libbitsandbytes_cuda114_nocublaslt.so despite the file being there",
        "bitsandbytes.cuda-setup-failed",
        "pip install -U",
        "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/582",
    ),
    # already reached: the maintainer's message names the override to clear
    (
        "WARNING: BNB_CUDA_VERSION=124 environment variable detected; loading "
        "libbitsandbytes_cuda124.so.\n"
        "This can be used to load a bitsandbytes version that is different from the PyTorch CUDA "
        "version.\n"
        "If this was unintended set the BNB_CUDA_VERSION variable to an empty string: export "
        "BNB_CUDA_VERSION=\n"
        "If you use the manual override make sure the right libcudart.so is in your "
        "LD_LIBRARY_PATH\n"
        "For example by adding the following to your .bashrc: export "
        "LD_LIBRARY_PATH=$LD_LIBRARY_PATH:<path_to_cuda_dir/lib64\n\n"
        "bitsandbytes library load error: Configured CUDA binary not found at "
        "/home/ubuntu/src/bnb/bitsandbytes/libbitsandbytes_cuda124.so",
        "bitsandbytes.cudart-not-found",
        "export BNB_CUDA_VERSION=",
        "https://github.com/bitsandbytes-foundation/bitsandbytes/pull/1615",
    ),
]


test_a_common_message_gets_its_cause_and_the_knob = knob_test(KNOB, ids=[k[3] for k in KNOB])


# (a message of another cause, the new cause it must not be read as, the thread)
LOOKALIKE = [
    # AutoAWQ's kernels missing (a NameError, no torch symbol): the kernels entry, not an ABI one
    (
        "NameError: name 'awq_ext' is not defined",
        "torch.extension-abi-mismatch",
        "https://github.com/hiyouga/LlamaFactory/issues/3465",
    ),
    # auto-gptq's exllama kernels fail to load on Windows: not optimum's version check
    (
        "ImportError: DLL load failed while importing exllama_kernels: The specified module could "
        "not be found.",
        "gptq.autogptq-too-old-for-optimum",
        "https://github.com/AutoGPTQ/AutoGPTQ/issues/403",
    ),
    # the exllama kernels were not compiled into the wheel: not the act-order buffer
    (
        "Exllama kernel is not installed, reset disable_exllama to True. This may because you "
        "installed auto_gptq using a pre-build wheel on Windows, in which exllama_kernels are not "
        "compiled. To use exllama_kernels to further speedup inference, you can re-install "
        "auto_gptq from source.",
        "gptq.exllama-act-order-buffer-too-small",
        "https://github.com/AutoGPTQ/AutoGPTQ/issues/249",
    ),
    # tensors on two devices in a forward pass: not accelerate's quantised-training check
    (
        '系统报错"Expected all tensors to be on the same device, but found at least two devices, '
        'cuda:0 and cpu"',
        "accelerate.quantized-model-device-mismatch",
        "https://blog.gitcode.com/7e83017fae671cdcadb830fab6b4aa8e.html",
    ),
    # accelerate's device check, not a model without adapters
    (
        "ValueError: You can't train a model that has been loaded in 8-bit precision on multiple "
        "devices.",
        "peft.quantized-model-without-adapters",
        "https://github.com/huggingface/peft/issues/414",
    ),
]


test_a_look_alike_message_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, ids=[k[2] for k in LOOKALIKE], may_be_empty=True
)
