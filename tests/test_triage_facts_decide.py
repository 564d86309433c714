"""Round 9: the facts of a paste decide between neighbouring causes, and prose forms reach causes
that users describe in their own words. Each text is a real report's (its thread beside it: training
threads of the corpus, none of the frozen test split), but for one marked constructed control."""

from __future__ import annotations

from triage_lines import assert_not_first, assert_reaches, fixes_text

from envdoctor.triage_engine import triage_text

PADDLE_WIN = (
    "- 版本、环境信息：\n"
    "    1）PaddlePaddle版本：paddlepaddle-gpu-2.2.1.post112\n"
    "    3）GPU：3060\n"
    "    4）系统环境：win10、python3.8\n"
    "    5）cuda11.2.、cudnn8.2.1\n"
    "- 问题描述：The third-party dynamic library (cublas64_112.dll;cublas64_11.dll) that Paddle "
    "depends on is not configured correctly. (error code is 126) "
)
PADDLE_SOURCE = "https://github.com/PaddlePaddle/Paddle/issues/38663"


def test_paddle_dll_not_found_with_its_cuda_installed_is_the_search_path() -> None:
    """post112 is CUDA 11.2's build and CUDA 11.2 is installed: the DLL is not on the search path,
    not a wheel for another CUDA."""
    findings = triage_text(PADDLE_WIN).findings
    assert findings[0].id == "windows.cuda-runtime-dll-missing", [f.id for f in findings[:3]]
    fixes = fixes_text(findings[0])
    assert "PATH" in fixes and "System32" in fixes and "cublas64_11.dll" in fixes, fixes
    assert "11.2" in findings[0].title, findings[0].title


def test_paddle_dll_of_another_cuda_stays_a_wheel_mismatch() -> None:
    """The same line with CUDA 12.0 installed: the wheel's CUDA (11.2) is not there."""
    text = PADDLE_WIN.replace("cuda11.2.", "cuda12.0.")
    ids = [f.id for f in triage_text(text).findings[:2]]
    assert "paddle.wheel-cuda-mismatch" in ids, ids
    assert all("although CUDA" not in f.title for f in triage_text(text).findings), PADDLE_SOURCE


def test_powers_off_while_chatting_reaches_the_power_supply() -> None:
    text = (
        "i Have 3090 which i bought used a month ago when i start to chat after 3. or 4. text "
        "that i sent power goes off on my pc."
    )
    source = "https://github.com/oobabooga/one-click-installers/issues/40"
    assert_reaches(text, ("hardware.power-insufficient",), source, "power")


def test_gguf_model_loaded_on_the_cpu_reaches_llama_cpp_python_cpu_build() -> None:
    text = (
        "你好，我在使用xinference启动OrionStar-Yi-34B-Chat-Llama-GGUF大模型时，发现模型没有被加载到GPU，"
        "而是加载到了CPU，请问是什么原因呢？"
    )
    source = "https://github.com/xorbitsai/inference/issues/1301"
    assert_reaches(text, ("app.llamacpp.cpu-build-on-gpu-host",), source, "GGML_CUDA")


def test_an_ollama_gguf_on_the_cpu_is_not_llama_cpp_python() -> None:
    """Ollama also runs GGUF files: its CPU fallback is another cause (negative cue). A
    constructed control, not a report: the GGUF words above with Ollama's command."""
    text = "ollama run qwen2.5:7b, the gguf model is not loaded to the GPU, only uses the CPU"
    assert_not_first(
        text,
        "app.llamacpp.cpu-build-on-gpu-host",
        "https://github.com/ollama/ollama/blob/main/docs/gpu.md",
    )


def test_a_pjrt_plugin_older_than_jax_gets_jax_pinned_to_the_plugins_release() -> None:
    """Intel's xpu plugin (PJRT API 0.38) under a newer jax (0.40): pin / downgrade jax."""
    text = (
        "RuntimeError: Unable to initialize backend 'xpu': INVALID_ARGUMENT: Mismatched PJRT plugin "
        "PJRT API version (0.38) and framework PJRT API version 0.40). (you may need to uninstall "
        "the failing plugin package, or set JAX_PLATFORMS=cpu to skip this backend.)"
    )
    source = "https://github.com/intel/intel-extension-for-openxla/issues/27"
    assert_reaches(text, ("jax.cuda-plugin-mismatch",), source, "downgrade")
    first = triage_text(text).findings[0]
    assert first.id == "jax.cuda-plugin-mismatch" and "xpu" in first.title, first.title


def test_a_pjrt_plugin_newer_than_jaxlib_gets_jax_upgraded() -> None:
    text = (
        "RuntimeError: Unable to initialize backend 'cuda': INVALID_ARGUMENT: Mismatched PJRT plugin "
        "PJRT API version (0.54) and framework PJRT API version 0.51)."
    )
    findings = triage_text(text).findings
    assert findings[0].id == "jax.cuda-plugin-mismatch", [f.id for f in findings[:3]]
    fixes = fixes_text(findings[0])
    assert "upgrade jax and jaxlib" in fixes and "downgrade" not in fixes, fixes


def test_pytorch_xla_s_pjrt_line_is_not_called_jax() -> None:
    text = (
        "F0000 00:00:1713630999.125092  494916 pjrt_computation_client.cc:158] Non-OK-status: "
        "tpu_status status: INVALID_ARGUMENT: Mismatched PJRT plugin PJRT API version (0.47) and "
        "framework PJRT API version 0.40)."
    )
    source = "https://github.com/pytorch/xla/issues/6949"
    assert_not_first(text, "jax.cuda-plugin-mismatch", source, may_be_empty=True)


def test_a_cudnn_7_build_is_not_sent_to_a_pip_wheel() -> None:
    """nvidia-cudnn-cu11/cu12 carry cuDNN 8 and 9 only: a framework built with cuDNN 7.6 gets
    NVIDIA's archive, one built with 8.2 the pip wheels."""
    text = (
        "WARNING: device: 0. The installed Paddle is compiled with CUDNN 7.6, but CUDNN version in "
        "your machine is 7.5, which may cause serious incompatible bug. Please recompile or "
        "reinstall Paddle with compatible CUDNN version."
    )
    findings = triage_text(text).findings
    mismatch = next(f for f in findings if f.id == "cuda.cudnn-mismatch")
    fixes = fixes_text(mismatch)
    assert "nvidia-cudnn" not in fixes and "archive" in fixes, fixes
    newer = triage_text(text.replace("7.6", "8.2").replace("7.5", "8.1")).findings
    fixes = fixes_text(next(f for f in newer if f.id == "cuda.cudnn-mismatch"))
    assert "nvidia-cudnn-cu12>=8.2" in fixes and "nvidia-cudnn-cu11" in fixes, fixes


def test_a_v100s_is_volta_so_a_build_without_sm_70_is_too_old_for_it() -> None:
    """NVML's 'Tesla V100S-PCIE-32GB' had no capability, and 'no kernel image' on it read as a GPU
    too NEW for the build. The title and error line of the real report, with the cu130 torch
    build named (which has sm_75 and up)."""
    text = (
        "Error on Tesla V100S-PCIE-32GB\n"
        "torch 2.9.0+cu130\n"
        "ERROR 08-08 10:37:45 [engine.py:454] CUDA error: no kernel image is available for "
        "execution on the device"
    )
    findings = triage_text(text).findings
    assert findings[0].id == "torch.gpu-too-old-for-build", [f.id for f in findings[:3]]
    assert "sm_70" in findings[0].title, findings[0].title
    assert all(f.id != "torch.gpu-too-new-for-build" for f in findings), [f.id for f in findings]


def test_a_phrasing_fix_put_first_for_this_paste_leads_the_merged_finding() -> None:
    """Two entries of one cause pool their fixes, the stronger entry's first; a phrasing's fix
    whose author put it first for what the paste says leads (its first_when held). Here: int8
    applied and still out of memory: quantise before the weights reach the GPU, not 'lower the
    batch size'."""
    text = (
        "量化部署无效\n显卡配置：4090 24G显存\n代码添加了int8量化，启动的时候还是报错现存不足\n"
        "OutOfMemoryError: CUDA out of memory. Tried to allocate 300.00 MiB (GPU 0; 23.65 GiB "
        "total capacity; 22.36 GiB already allocated; 188.56 MiB free; 22.36 GiB reserved in total "
        "by PyTorch)"
    )  # https://github.com/baichuan-inc/Baichuan-13B/issues/85
    first = triage_text(text).findings[0]
    assert first.id == "memory.out-of-memory", first.id
    assert first.fixes[0].summary.startswith("Quantise before the weights reach the GPU"), [
        f.summary[:40] for f in first.fixes
    ]
