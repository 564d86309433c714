"""Chinese prose reaches the causes other families own (checks/signatures/*.toml): each entry's
example phrasing ranks its cause, and the facts that rule it out do."""

from __future__ import annotations

import pytest

from envdoctor.triage_engine import triage_text


def ranked(text: str) -> list[str]:
    return [f.id for f in triage_text(text).findings]


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        (
            "pycharm 里 torch.cuda.is_available() 返回 False，但是在终端里是 True",
            "python.env-mismatch",
        ),
        ("重新建了一个虚拟环境就好了", "python.env-mismatch"),
        ("虚拟机里装的 ubuntu，nvidia-smi 找不到显卡", "vm.no-gpu-passthrough"),
        ("总线错误 (核心已转储)", "nccl.shm-too-small"),
        ("在Docker下训练一段时间报共享内存不足的错", "nccl.shm-too-small"),
        (
            "服务器刚装好系统，还没装显卡驱动，torch.cuda.is_available() 返回 False",
            "nvidia.no-driver-bound",
        ),
        (
            "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling cublasGemmEx\n"
            "显卡是 V100，用的 bf16",
            "fit.dtype-unsupported",
        ),
        (
            "pip install flash-attn 一直卡在 Building wheel for flash-attn (setup.py) ...",
            "flashattn.not-installable",
        ),
    ],
)
def test_chinese_phrasing_ranks_its_cause_first(text: str, cause: str) -> None:
    assert ranked(text)[:1] == [cause]


def test_bf16_is_no_cause_on_an_ampere_card() -> None:
    text = "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED\n显卡是 4090，用的 bf16"
    assert "fit.dtype-unsupported" not in ranked(text)[:1]


def test_no_driver_is_ruled_out_in_wsl() -> None:
    # WSL gets the driver from Windows: "没装驱动" inside WSL is another cause
    text = "在WSL2里还没装显卡驱动，torch.cuda.is_available() 返回 False"
    assert "nvidia.no-driver-bound" not in ranked(text)


@pytest.mark.parametrize(
    "text",
    [
        "运行的时候CPU占用率100%，GPU完全没有进行推理",
        "推理很慢，感觉根本没占用gpu",
        "GPU负载最多3%，推理很慢，是不是没有调起来GPU",
    ],
)
def test_gpu_left_idle_in_chinese_points_at_a_cpu_torch(text: str) -> None:
    # the commonest cause of "GPU idle, CPU busy" in Chinese reports of torch apps
    assert ranked(text)[:1] == ["torch.cpu-build-on-gpu-host"]


def test_compute_capability_too_low_in_chinese() -> None:
    assert ranked("torch 跑 demo 就报错算力不足")[:1] == ["torch.gpu-too-old-for-build"]


@pytest.mark.parametrize(
    "text",
    [
        "训练一段时间后显存占用过高，随着训练显存占用一直在增长",
        "我是6G显存，batch_size设为1还是跑不了",
        "减小了batch_size 还是不行，训练报错",
    ],
)
def test_gpu_memory_in_chinese_words(text: str) -> None:
    assert ranked(text)[:1] == ["memory.out-of-memory"]


def test_growing_memory_gets_the_leak_fix_first() -> None:
    finding = triage_text("训练时显存占用一直在增长，最后报错").findings[0]
    assert finding.id == "memory.out-of-memory"
    assert "no_grad" in finding.fixes[0].summary


def test_python_too_new_for_torch_in_chinese() -> None:
    assert ranked("python 版本太高了，pip 装不了 torch")[:1] == ["torch.python-unsupported"]


def test_paddle_gpu_package_still_on_the_cpu() -> None:
    assert ranked("装了paddlepaddle-gpu，但是训练的时候还是用的cpu")[:1] == [
        "paddle.cpu-package-installed"
    ]


def test_a_blackwell_card_named_in_chinese_prose() -> None:
    assert ranked("我的是5070ti，comfyui 跑不起来")[:1] == ["torch.gpu-too-new-for-build"]
    # a torch build that carries sm_120 rules it out
    assert "torch.gpu-too-new-for-build" not in ranked(
        "我的是5070ti，torch 2.7.0+cu128，comfyui 报错"
    )
    # an Ada card is no "too new" card
    assert "torch.gpu-too-new-for-build" not in ranked("我的是4090，comfyui 跑不起来")


def test_cudnn_version_mismatch_in_chinese() -> None:
    assert ranked("cudnn版本不匹配，torch 报错")[:1] == ["cuda.cudnn-mismatch"]


def test_kernel_update_then_driver_gone_is_the_unbuilt_module() -> None:
    text = "内核升级以后 nvidia-smi 就用不了了，重装驱动才好"
    assert ranked(text)[:1] == ["nvidia.module-not-built-for-kernel"]


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        ("安装路径里有中文，启动就报错，换成英文路径就好了", "windows.install-path-special-chars"),
        ("训练的时候报错，虚拟内存不足，把虚拟内存调大就好了", "windows.pagefile-too-small"),
        (
            "jupyter 里 import torch 报错 No module named torch，但是 pip list 里有",
            "python.env-mismatch",
        ),
    ],
)
def test_windows_and_environment_causes_in_chinese(text: str, cause: str) -> None:
    assert ranked(text)[:1] == [cause]


def test_paddle_multi_gpu_without_the_launcher() -> None:
    text = (
        "paddleocr 多卡训练只用了一张卡，export CUDA_VISIBLE_DEVICES=0,1 && python tools/train.py"
    )
    assert ranked(text)[:1] == ["paddle.distributed-launch-required"]
    # with the launcher the cause is another one
    launched = "多卡训练只用了一张卡，python -m paddle.distributed.launch --gpus 0,1 tools/train.py"
    assert "paddle.distributed-launch-required" not in ranked(launched)[:1]


def test_paddle_cuda10_build_on_an_ampere_card() -> None:
    text = (
        "paddle.utils.run_check() 卡住没有反应，等了十几分钟\n"
        "paddle with cuda: 10.2\n显卡是 RTX 3060"
    )
    assert ranked(text)[:1] == ["paddle.gpu-too-new-for-build"]
    # a Pascal card is no "too new" card
    older = "paddle.utils.run_check() 卡住没有反应\npaddle with cuda: 10.2\n显卡是 GTX 1060"
    assert "paddle.gpu-too-new-for-build" not in ranked(older)


def test_driver_needs_updating_in_chinese_with_the_drivers_cuda() -> None:
    text = "torch 跑不起来，是不是显卡驱动需要更新？nvidia-smi 显示 CUDA Version: 11.4"
    assert ranked(text)[:1] == ["torch.driver-too-old"]


def test_jupyter_against_the_terminal_is_another_environment() -> None:
    # the notebook's own cause (its kernel is another env) or the general one
    top = ranked("用 jupyter notebook 跑的时候用不了 GPU，命令行里可以")[:1]
    assert top in (["python.env-mismatch"], ["python.notebook-kernel-not-active-env"])
