"""Round 17 sweep of Chinese LLM / speech / OCR projects (checks/signatures/*.toml):
ChatGLM, Baichuan, Qwen, MiniCPM, LLaMA-Factory, Langchain-Chatchat, CosyVoice, SenseVoice,
GPT-SoVITS, MinerU, SadTalker, Wav2Lip, ddddocr. DeepSpeed 0.15's strict ZeRO-3 config
(a float stage3_prefetch_bucket_size), an ONNX file that is not the model (a git-lfs pointer),
transformers' "This modeling file requires the following packages" for a package that is
installed but fails to import (bitsandbytes without scipy, transformers_stream_generator on a
newer transformers), a flash-attn older than transformers asks for, ChatGLM's tokenizer code on a
newer transformers, ChatGLM's int4 quantisation kernels (cpm_kernels, the CPU kernel's gcc),
librosa 0.10's keyword-only mel(), and numba against a newer NumPy. Each message, verbatim from
its thread, reaches the cause the thread confirmed first, and one of that cause's fixes names the
knob the confirmed fix turned."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        # commenters: deepspeed 0.14.0 / 0.14.4 ran the ds_z3 config that 0.15.0 refused
        "https://github.com/hiyouga/LlamaFactory/issues/5252",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for DeepSpeedZeroConfig\n[rank3]: stage3_prefetch_bucket_size\n[rank3]:   Input should be a valid integer, got a number with a fractional part [type=int_from_float, input_value=15099494.4, input_type=float]",
        "deepspeed.zero3-bucket-size-not-integer",
        "deepspeed==0.14.4",
    ),
    (
        # maintainer: check the FAQ, install git-lfs (the .onnx files were LFS pointers)
        "https://github.com/QwenAudio/CosyVoice/issues/395",
        "onnxruntime.capi.onnxruntime_pybind11_state.InvalidProtobuf: [ONNXRuntimeError] : 7 : INVALID_PROTOBUF : Load model from pretrained_models/CosyVoice-300M/campplus.onnx failed:Protobuf parsing failed.",
        "onnxruntime.model-file-incomplete",
        "git lfs",
    ),
    (
        # maintainer: enable git lfs and check the model's size (a git clone from ModelScope)
        "https://github.com/manyeyes/AliParaformerAsr/issues/25",
        "Unhandled exception. Microsoft.ML.OnnxRuntime.OnnxRuntimeException: [ErrorCode:InvalidProtobuf] Load model from /tmp/test/./sensevoice-small-onnx/model.int8.onnx failed:Protobuf parsing failed.",
        "onnxruntime.model-file-incomplete",
        "git lfs",
    ),
    (
        # maintainer: on macOS use onnxruntime instead of onnxruntime-gpu in requirements.txt
        "https://github.com/QwenAudio/CosyVoice/issues/19",
        "ERROR: Could not find a version that satisfies the requirement onnxruntime-gpu==1.16.0 (from versions: none)\nERROR: No matching distribution found for onnxruntime-gpu==1.16.0",
        "python.no-matching-wheel",
        "pip install onnxruntime",
    ),
    (
        # maintainer: torch 2.3.1 from the cu118 index; reporter: the GPU is used now
        "https://github.com/opendatalab/MinerU/issues/240",
        "AssertionError: Torch not compiled with CUDA enabled",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
    ),
    (
        # commenter: install scipy first; reporter: solved (bitsandbytes failed to import)
        "https://github.com/baichuan-inc/Baichuan2/issues/196",
        "ImportError: This modeling file requires the following packages that were not found in your environment: bitsandbytes. Run `pip install bitsandbytes`",
        "transformers.remote-code-import-failed",
        "pip install scipy",
    ),
    (
        # the traceback shows it: importing bitsandbytes needs scipy
        "https://github.com/baichuan-inc/Baichuan2/issues/35",
        "    import bitsandbytes as bnb\nModuleNotFoundError: No module named 'scipy'",
        "bitsandbytes.scipy-missing",
        "pip install scipy",
    ),
    (
        # maintainer: install flash_attn>=2.1.0
        "https://github.com/OpenBMB/MiniCPM/issues/8",
        "ImportError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: you need flash_attn package version to be greater or equal than 2.1.0. Detected version 2.0.4. Please refer to the documentation of https://huggingface.co/docs/transformers/perf_infer_gpu_one#flashattention-2 to install Flash Attention 2.",
        "flashattn.too-old-for-transformers",
        "flash-attn>=2.1.0",
    ),
    (
        # maintainer: the model code no longer needs flash_attn; uninstall it and retry
        "https://github.com/OpenBMB/MiniCPM-V/issues/13",
        "ImportError: /home/ubuntu/.local/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi",
        "torch.extension-abi-mismatch",
        "pip uninstall -y flash-attn",
    ),
    (
        # reporter: basicsr 1.4.2 imports a removed torchvision module; BasicSR's git head works
        "https://github.com/OpenTalker/SadTalker/issues/965",
        "from torchvision.transforms.functional_tensor import rgb_to_grayscale\nModuleNotFoundError: No module named 'torchvision.transforms.functional_tensor'",
        "torchvision.functional-tensor-removed",
        "basicsr",
    ),
    (
        # reporter: pip install flash-attn==2.7.2.post1 --no-build-isolation
        "https://github.com/JIA-Lab-research/Lyra/issues/7",
        "flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104impl3cow11cow_deleterEPv",
        "torch.extension-abi-mismatch",
        "flash-attn",
    ),
    (
        # commenters: transformers 4.45 passes padding_side; 4.44.2 (or 4.40.2) runs it
        "https://github.com/zai-org/ChatGLM3/issues/1324",
        "TypeError: ChatGLMTokenizer._pad() got an unexpected keyword argument 'padding_side'",
        "transformers.remote-tokenizer-incompatible",
        "transformers<4.45",
    ),
    (
        # commenter: transformers 4.33.2 runs it (or the model's newer tokenization_chatglm.py)
        "https://github.com/chatchat-space/Langchain-Chatchat/issues/1835",
        "AttributeError: 'ChatGLMTokenizer' object has no attribute 'tokenizer'",
        "transformers.remote-tokenizer-incompatible",
        "transformers==4.33.2",
    ),
    (
        # maintainer: newer transformers broke the ChatGLM / Baichuan tokenizer files; edit the
        # tokenizer file (or downgrade); reporter: solved
        "https://github.com/shibing624/MedicalGPT/issues/295",
        "AttributeError: 'ChatGLMTokenizer' object has no attribute 'sp_tokenizer'. Did you mean: '_tokenize'?",
        "transformers.remote-tokenizer-incompatible",
        "tokenization_chatglm.py",
    ),
    (
        # maintainer: a 64-bit Python and the Visual C++ runtime
        "https://github.com/sml2h3/ddddocr/issues/173",
        "    from .onnxruntime_pybind11_state import *  # noqa\nImportError: DLL load failed while importing onnxruntime_pybind11_state: 找不到指定的程序。",
        "windows.dll-dependency-missing",
        "VCRedist",
    ),
    (
        # commenter: pip install -r requirements.txt updated the dependencies and it ran
        "https://github.com/hiyouga/LlamaFactory/issues/1384",
        "ImportError: cannot import name 'repeat_kv' from 'transformers.models.llama.modeling_llama' (/xxx/miniconda3/envs/py310/lib/python3.10/site-packages/transformers/models/llama/modeling_llama.py)",
        "transformers.version-mismatch-with-code",
        "pip install -r requirements.txt",
    ),
    (
        # reporter: solved by pip install cpm_kernels
        "https://github.com/chatchat-space/Langchain-Chatchat/issues/856",
        "AttributeError: 'NoneType' object has no attribute 'int4WeightExtractionHalf'",
        "chatglm.quant-kernels-unavailable",
        "pip install cpm_kernels",
    ),
    (
        # commenter's working setup: TDM-GCC with OpenMP, then compile the CPU kernels
        "https://github.com/wenda-LLM/wenda/issues/195",
        "'NoneType' object has no attribute 'int4WeightExtractionFloat'",
        "chatglm.quant-kernels-unavailable",
        "TDM-GCC",
    ),
    (
        # maintainer: install transformers==4.36.2 (label: solved)
        "https://github.com/hiyouga/LlamaFactory/issues/2313",
        "ImportError: This modeling file requires the following packages that were not found in your environment: transformers_stream_generator. Run `pip install transformers_stream_generator`",
        "transformers.remote-code-import-failed",
        "transformers==4.36.2",
    ),
    (
        # reporter (quoted in Wav2Lip#655): pass mel()'s arguments by keyword (sr=, n_fft=)
        "https://github.com/Rudrabha/Wav2Lip/issues/634",
        "TypeError: mel() takes 0 positional arguments but 2 positional arguments (and 3 keyword-only arguments) were given",
        "librosa.mel-keyword-only",
        "sr=",
    ),
    (
        # reporter: numba and NumPy clash; numpy 1.23.1 fixed it
        "https://github.com/RVC-Boss/GPT-SoVITS/issues/908",
        "SystemError: initialization of _internal failed without raising an exception",
        "numba.numpy-too-new",
        "numpy<1.24",
    ),
]


test_message_reaches_its_cause_with_the_knob = knob_test(
    KNOB, columns=("source", "text", "finding_id", "knob")
)


# (thread, a real message of another cause, the cause a new pattern could wrongly put first)
LOOKALIKE = [
    (
        # flash_attn itself is missing: flash-attn's own cause, not a package failing to import
        "https://github.com/OpenBMB/MiniCPM-V/issues/429",
        "ImportError: This modeling file requires the following packages that were not found in your environment: flash_attn. Run `pip install flash_attn`",
        "transformers.remote-code-import-failed",
    ),
    (
        # flash_attn is not installed at all: not one that is too old
        "https://github.com/kijai/ComfyUI-Florence2/issues/17",
        "FlashAttention2 has been toggled on, but it cannot be used due to the following error: the package flash_attn seems to be not installed. Please refer to the documentation of https://huggingface.co/docs/transformers/perf_infer_gpu_one#flashattention-2 to install Flash Attention 2.",
        "flashattn.too-old-for-transformers",
    ),
    (
        # a whole model of a newer IR version: onnxruntime too old, not a truncated file
        "https://github.com/notAI-tech/NudeNet/issues/156",
        "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Load model from ./640m.onnx failed:C:\\a\\_work\\1\\s\\onnxruntime\\core\\graph\\model.cc:150 onnxruntime::Model::Model Unsupported model IR version: 10, max supported IR version: 9",
        "onnxruntime.model-file-incomplete",
    ),
]


test_lookalike_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, columns=("source", "text", "tempting")
)
