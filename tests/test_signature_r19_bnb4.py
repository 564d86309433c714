"""bitsandbytes and quantisation stacks, round 19 (opening posts and comments as pasted): a
4-bit model that does not fit on a Kaggle GPU, a GPTQ model with modules on the CPU under the
exllama kernels, auto-gptq's CUDA kernels missing after a new
release on Colab, and the old Windows bitsandbytes build (libbitsandbytes_cuda116.dll) failing
with "no kernel image". Each verbatim message reaches its cause first and one of its fixes names
the knob the thread's confirmed fix turned; look-alike rows are real messages of other causes
that the new phrasings must not read as bitsandbytes / auto-gptq causes."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # the maintainer (danielhanchen): the model overflows GPU memory onto the CPU, too little
    # VRAM: load a smaller model
    (
        'When I am trying to fine tune large models in Kaggle, which are most models over 8B parameters in 4-bit precision, I get the following error:\n```\nValueError: Some modules are dispatched on the CPU or the disk. Make sure you have enough GPU RAM to fit the quantized model. If you want to dispatch the model on the CPU or the disk while keeping these modules in 32-bit, you need to set `llm_int8_enable_fp32_cpu_offload=True` and pass a custom `device_map` to `from_pretrained`. Check https://huggingface.co/docs/transformers/main/en/main_classes/quantization#offload-between-cpu-and-gpu for more details. \n```\n\nI have got this error when I try to fine tune any model on my local hardware, which is less powerful than what is offered on google colab, or kaggle, but my hardware is "free-er" than what they provide.',
        "memory.workload-does-not-fit",
        "smaller",
        "https://github.com/unslothai/unsloth/issues/1629",
    ),
    # a commenter: "Just install from source, had the same issue"; the reporter found a
    # solution and the issue was closed
    (
        "the new version which is released 4 hrs back is not working on my existing colab notebook, its having this issue-\nNameError                                 Traceback (most recent call last)\n---> 83         self.autogptq_cuda = autogptq_cuda_256\n     84         if infeatures % 256 != 0 or outfeatures % 256 != 0:\n     85             self.autogptq_cuda = autogptq_cuda_64\n\nNameError: name 'autogptq_cuda_256' is not defined\ncan you help me to solve this",
        "autogptq.cuda-ext-not-installed",
        "from source",
        "https://github.com/AutoGPTQ/AutoGPTQ/issues/193",
    ),
    # Windows Server 2022 with the old bitsandbytes-windows build (cuda116.dll): the reporter
    # got it working with a Windows build; the maintainer closed it: official Windows support
    # since bitsandbytes>=0.43.0
    (
        "===================================BUG REPORT===================================\nWelcome to bitsandbytes. For bug reports, please submit your error trace to: https://github.com/TimDettmers/bitsandbytes/issues\n================================================================================\nbinary_path: C:\\Users\\jalagurajah\\Anaconda3\\envs\\ASR_PEFt\\lib\\site-packages\\bitsandbytes\\cuda_setup\\libbitsandbytes_cuda116.dll\nCUDA SETUP: Loading binary C:\\Users\\jalagurajah\\Anaconda3\\envs\\ASR_PEFt\\lib\\site-packages\\bitsandbytes\\cuda_setup\\libbitsandbytes_cuda116.dll...\nLoading model...\nError no kernel image is available for execution on the device at line 479 in file D:\\ai\\tool\\bitsandbytes\\csrc\\ops.cu",
        "bitsandbytes.windows-unsupported",
        "0.43",
        "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/259",
    ),
    # the reporter: it works once disable_exllama is set in the model's quantization config
    # (their commented-out config.quantization_config["disable_exllama"] = True)
    (
        "I'm sorry I am unable to find relevant doc on Internet on how to load all modules on GPU.\n\nI got this error message from my code:\n\n```\nFound modules on cpu/disk. Using Exllama backend requires all the modules to be on GPU.You can deactivate exllama backend by setting disable_exllama=True in the quantization config object\n```\n\nA snippet from my code (to make it work, I had to uncomment the `config` part, but it won't be using Exllama)",
        "gptq.exllama-modules-offloaded",
        "disable_exllama",
        "https://github.com/AutoGPTQ/AutoGPTQ/issues/406",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # llama.cpp in an Alpine image on a CPU without AVX2 (the maintainer): SIGILL, not bitsandbytes
    (
        "cannot run : \n\nwarning: not compiled with GPU offload support, --gpu-layers option will be ignored\nwarning: see main README.md for information on enabling GPU BLAS support\nbuild: 0 (unknown) with Alpine clang version 17.0.6 for x86_64-alpine-linux-musl\nmain: llama backend init\nError occurred while running command: Command '['build/bin/llama-cli', '-m', 'Llama3-8B-1.58-100B-tokens-TQ2_0.gguf', '-n', '128', '-t', '2', '-p', 'The meaning to life and the universe is', '-ngl', '0', '-c', '2048', '--temp', '0.8', '-b', '1']' died with <Signals.SIGILL: 4>.",
        "bitsandbytes.cuda-setup-failed",
        "https://github.com/kth8/bitnet/issues/3",
    ),
    # a PEFT save of an 8-bit checkpoint: a peft/bitsandbytes API mismatch, not a CUDA set-up
    (
        "I'm curious as to why I'd be getting the below error on a train when it reaches 100% and tries the final save. For my system I'm Ubuntu 22 running two 3090's.\n\nLoading a quantized checkpoint into non-quantized Linear8bitLt is not supported.",
        "bitsandbytes.cuda-setup-failed",
        "https://github.com/tloen/alpaca-lora/issues/457",
    ),
    # text-generation-webui's exllama loader looking for a cloned repositories/exllama: not
    # auto-gptq's CUDA extension
    (
        "Loading with Exllama or exllamav2 throws an error even though pip indicates they're installed.\n2023-10-15 13:12:33 WARNING:exllama module failed to import. Will attempt to import from repositories/.\n2023-10-15 13:12:33 ERROR:Could not find repositories/exllama. Please ensure that exllama (https://github.com/turboderp/exllama) is cloned inside repositories/ and is up to date.",
        "autogptq.cuda-ext-not-installed",
        "https://github.com/oobabooga/textgen/issues/4293",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
