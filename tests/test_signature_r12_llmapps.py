"""The LLM / generative-AI application stack's frequent messages (checks/signatures/*.toml
and the entries it extends): each message, copied from a public thread whose fix was confirmed, reaches
its cause first, and one of that cause's fixes names the knob the confirmed fix turned (a flag, a
package and its version, a setting). Look-alike rows are real messages of other causes that a new
pattern could catch: they must not rank the new cause first."""

from __future__ import annotations

from tests.triage_lines import command_test, lookalike_test

# (message verbatim from the thread, the finding id first, text a command of one of its fixes holds, URL)
KNOB = [
    (
        'save_precision = "bf16"\nmixed_precision = "bf16"\n\n'
        "bf16 mixed precision requires PyTorch >= 1.10 and a supported device.",
        "fit.dtype-unsupported",
        "--mixed_precision fp16",
        "https://github.com/Linaqruf/kohya-trainer/issues/246",  # maintainer: T4 / V100 have no bf16: fp16
    ),
    (
        'File "E:\\AI\\ComfyUI_windows_portable\\python_embeded\\Lib\\site-packages\\transformers\\'
        'modeling_utils.py", line 3535, in from_pretrained\n'
        "    raise ImportError(\n"
        "ImportError: Using `low_cpu_mem_usage=True` or a `device_map` requires Accelerate: "
        "`pip install 'accelerate>=0.26.0'`",
        "transformers.accelerate-missing",
        # run by the portable build's embedded Python that the traceback shows
        ".\\python_embeded\\python.exe -m pip install -U 'accelerate>=0.26.0'",
        "https://github.com/Comfy-Org/ComfyUI/issues/6685",  # maintainer: install accelerate (embedded python)
    ),
    (
        "ImportError: Using `low_cpu_mem_usage=True` or a `device_map` requires Accelerate: "
        "`pip install accelerate`",
        "transformers.accelerate-missing",
        "python -m pip install -U accelerate",
        "https://github.com/OceanGPT/OceanGPT/issues/4",  # reporter: had to install accelerate
    ),
    (
        "The current `device_map` had weights offloaded to the disk. Please provide an `offload_folder` for \n"
        "them. Alternatively, make sure you have `safetensors` installed if the model you are using offers "
        "the weights in \nthis format.",
        "memory.workload-does-not-fit",
        "offload_folder=",
        "https://github.com/databrickslabs/dolly/issues/46",  # adding offload_folder worked
    ),
    (
        "ValueError: The current `device_map` had weights offloaded to the disk. Please provide an "
        "`offload_folder` for them. Alternatively, make sure you have `safetensors` installed if the model "
        "you are using offers the weights in this format.",
        "memory.workload-does-not-fit",
        "load_in_4bit=True",
        "https://github.com/shibing624/MedicalGPT/issues/335",  # maintainer: VRAM too small: int4 / smaller
    ),
    (
        "Ollama version\n\n0.1.42\n\n"
        "Error: llama runner process has terminated: exit status 0xc0000409",
        "app.ollama.runner-crashed",
        "https://ollama.com/download/OllamaSetup.exe",
        "https://github.com/ollama/ollama/issues/7031",  # reporter: fixed by updating Ollama
    ),
    (
        "ollama run codegeex4:9b-all-q4_K_M\n"
        "Error: llama runner process has terminated: exit status 0xc0000409 error:failed to create context "
        "with model 'C:\\Users\\ChatAI\\.ollama\\models\\blobs\\sha256-916173d92319f80a29db51321f7cb3441f32"
        "6bac95c421de809e1d08eaaeb693'",
        "app.ollama.runner-crashed",
        "https://ollama.com/download/OllamaSetup.exe",
        "https://github.com/ollama/ollama/issues/5628",  # maintainer: fixed in the next release
    ),
    (
        "modules.devices.NansException: A tensor with all NaNs was produced in VAE. This could be because "
        "there's not enough precision to represent the picture. Try adding --no-half-vae commandline "
        "argument to fix this. Use --disable-nan-check commandline argument to disable this check.",
        "app.sd-webui.half-precision-nan",
        "--precision full --no-half",
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/7633",  # solved: --precision full --no-half
    ),
    (
        "modules.devices.NansException: A tensor with all NaNs was produced in Unet. This could be either "
        "because there's not enough precision to represent the picture, or because your video card does "
        'not support half type. Try setting the "Upcast cross attention layer to float32" option in '
        "Settings > Stable Diffusion or using the --no-half commandline argument to fix this. Use "
        "--disable-nan-check commandline argument to disable this check.",
        "app.sd-webui.half-precision-nan",
        "upcast_attn",
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/6923",  # upcast worked on a 1660 Ti
    ),
    (
        "The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit "
        "multiplication, and GPU quantization are unavailable.",
        "bitsandbytes.cuda-setup-failed",
        "pip install -U",
        "https://github.com/cocktailpeanut/fluxgym/issues/411",  # pip install bitsandbytes --upgrade fixed it
    ),
    (
        "qwen14b，模型训练报错，RuntimeError: FlashAttention only supports Ampere GPUs or newer.",
        "flashattn.gpu-arch-unsupported",
        'attn_implementation="sdpa"',
        "https://github.com/hiyouga/LlamaFactory/issues/3508",  # labelled solved
    ),
    (
        "FlashAttention2 has been toggled on, but it cannot be used due to the following error: the package "
        "flash_attn seems to be not installed. Please refer to the documentation of "
        "https://huggingface.co/docs/transformers/perf_infer_gpu_one#flashattention-2 to install Flash "
        "Attention 2.",
        "flashattn.not-installable",
        "attn_implementation=",
        "https://github.com/kijai/ComfyUI-Florence2/issues/17",  # maintainer: not installed; sdpa is fine
    ),
    (
        "Some modules are dispatched on the CPU or the disk. Make sure you have enough GPU RAM to fit\n"
        "                        the quantized model. If you want to dispatch the model on the CPU or the "
        "disk while keeping\n                        these modules in 32-bit, you need to set "
        "`load_in_8bit_fp32_cpu_offload=True` and pass a custom\n"
        "                        `device_map` to `from_pretrained`.",
        "memory.workload-does-not-fit",
        "load_in_4bit=True",
        "https://github.com/meta-llama/llama-cookbook/issues/333",  # maintainer: GPU too small: 4-bit
    ),
    (
        '    config_class = CONFIG_MAPPING[config_dict["model_type"]]\n'
        '  File "/home/anaconda3/envs/qwen/lib/python3.11/site-packages/transformers/models/auto/'
        'configuration_auto.py", line 723, in __getitem__\n'
        "    raise KeyError(key)\nKeyError: 'qwen2'",
        "python.transformers-too-old-for-model",
        "pip install -U transformers",
        "https://github.com/QwenLM/Qwen3/issues/30",  # upgrading transformers solves it
    ),
    (
        "    from transformers.models.qwen2 import Qwen2Config, Qwen2ForCausalLM\n"
        "ModuleNotFoundError: No module named 'transformers.models.qwen2'",
        "python.transformers-too-old-for-model",
        "pip install -U transformers",
        "https://github.com/Tlntin/Qwen-TensorRT-LLM/issues/92",  # upgraded transformers: no error
    ),
    (
        'raise ValueError("No available memory for the cache blocks. " ValueError: No available memory for '
        "the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.",
        "app.vllm.kv-cache-insufficient",
        "--gpu-memory-utilization",
        "https://github.com/QwenLM/Qwen3/issues/12",  # maintainer: raise --gpu-memory-utilization
    ),
    (
        "ValueError: The model's max seq len (4096) is larger than the maximum number of tokens that can be "
        "stored in KV cache (3664). Try increasing gpu_memory_utilization or decreasing max_model_len when "
        "initializing the engine.",
        "app.vllm.kv-cache-insufficient",
        "--max-model-len 3664",
        "https://github.com/basalam/product-catalog-generator/issues/10",  # maintainer: lower max_model_len
    ),
]


test_a_common_message_gets_its_cause_and_the_knob_it_turns = command_test(
    KNOB, ids=[k[3] for k in KNOB]
)


# real messages of other causes a new pattern could catch (message, the id it must not lead with, URL)
LOOKALIKE = [
    (
        "ImportError: Using `bitsandbytes` 8-bit quantization requires Accelerate: `pip install accelerate` "
        "and the latest version of bitsandbytes: `pip install -i https://pypi.org/simple/ bitsandbytes`",
        "transformers.accelerate-missing",
        "https://github.com/run-llama/llama_index/issues/13569",
    ),
    (
        '    raise ValueError(err.format(mode="fp16", requirement="a GPU"))\n'
        "ValueError: fp16 mixed precision requires a GPU",
        "fit.dtype-unsupported",
        "https://github.com/bmaltais/kohya_ss/issues/719",
    ),
    (
        "run hhao/openbmb-minicpm-llama3-v-2_5:fp16\n"
        "Error: llama runner process has terminated: exit status 0xc000001d",
        "app.ollama.runner-crashed",
        "https://github.com/ollama/ollama/issues/4793",
    ),
]


test_a_look_alike_message_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, ids=[k[2] for k in LOOKALIKE], may_be_empty=True, newline=True
)
