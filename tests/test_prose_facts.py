"""Facts from prose (envdoctor.triage_engine.prose, facts): each phrasing on a real line of a
training report of the triage corpus (tests/triage_corpus/, the file named beside it), English and
Chinese, and the lines it must not misread."""

from __future__ import annotations

import pytest

from envdoctor.ingest import ingest_text
from envdoctor.triage_engine.facts import Facts
from envdoctor.triage_engine.prose import geforce_name, prose_facts

REAL_LINES = [
    # (corpus file, line, fact, value)
    ("train/zh-0063", "python版本：3.7", "python.version", "3.7"),
    (
        "041",
        "I am running windows 11, python 3.11. In an anaconda environment.",
        "python.version",
        "3.11",
    ),
    (
        "train/zh-0042",
        "2024-06-01 22:30:31,792 - modelscope - INFO - PyTorch version 2.3.0 Found.",
        "torch.prose_version",
        "2.3.0",
    ),
    (
        "023",
        "Ive tried version tf 2.10, all works, but 2.10 have some issues",
        "tf.version",
        "2.10",
    ),
    ("084", "tf2.12.0", "tf.version", "2.12.0"),
    ("train/zh-0062-like", "paddle版本：2.3.2", "paddle.version", "2.3.2"),
    (
        "train/zh-0002",
        "`WARNING: device: 0. The installed Paddle is compiled with CUDNN 7.6, but CUDNN version "
        "in your machine is 7.3, which may cause serious incompatible bug.",
        "cudnn.version",
        "7.3",
    ),
    (
        "train/zh-0002",
        "`WARNING: device: 0. The installed Paddle is compiled with CUDNN 7.6, but CUDNN version "
        "in your machine is 7.3, which may cause serious incompatible bug.",
        "cudnn.compiled",
        "7.6",
    ),
    (
        "train/zh-0062",
        "我用anaconda在环境下安装了cudnn7.6.4以及 cuda10.0",
        "cudnn.version",
        "7.6.4",
    ),
    ("041", "I am running windows 11, python 3.11. In an anaconda environment.", "ctx.conda", True),
    ("084", "windows11 tensorflow 2.12", "os.windows", True),
]


@pytest.mark.parametrize(("case", "line", "fact", "value"), REAL_LINES)
def test_prose_reads_real_phrasings(case: str, line: str, fact: str, value: object) -> None:
    assert prose_facts([line]).get(fact) == value, case


@pytest.mark.parametrize(
    "line",
    [
        'File "/usr/lib/python3.10/site-packages/torch/__init__.py", line 12',  # a path
        "go to: https://pytorch.org to install a PyTorch version that has been compiled",
        "torchvision 0.16.0",
        "libcudnn.so.8: cannot open shared object file",
    ],
)
def test_prose_does_not_misread(line: str) -> None:
    facts = prose_facts([line])
    assert "torch.prose_version" not in facts
    assert "python.version" not in facts
    assert "cudnn.version" not in facts


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("显卡为4060，已重装requirements过", "NVIDIA GeForce RTX 4060"),  # train/zh-0053
        ("batch_size=20,epoch=10,learning_rate=0.1,GPU:4060ti 8GB", "NVIDIA GeForce RTX 4060 Ti"),
        ("[Usage]:两张3090使用vllm部署Qwen2.5-32B-Instruct-INT8-W8A16", "NVIDIA GeForce RTX 3090"),
        ("  GPU 4090 *", "NVIDIA GeForce RTX 4090"),  # 065
        ("gpu:                                  1050TI", "NVIDIA GeForce GTX 1050 Ti"),
    ],
)
def test_geforce_named_by_number(line: str, name: str) -> None:
    assert geforce_name(line) == name


@pytest.mark.parametrize("line", ["export to 1080p video", "device 0x2080 found", "port 3060 open"])
def test_numbers_that_are_not_gpus(line: str) -> None:
    assert geforce_name(line) is None


def test_prose_gpu_gets_its_compute_capability() -> None:
    facts = Facts(ingest_text("显卡为4060，已重装requirements过\nCUDA error: no kernel image"))
    assert facts.get("gpu.name") == "NVIDIA GeForce RTX 4060"
    assert facts.get("gpu.cc") == "8.9"


def test_a_gpu_family_gets_the_capability_its_models_share() -> None:
    facts = Facts(ingest_text("Training on an A100 80GB fails: CUDA error: no kernel image"))
    assert facts.get("gpu.cc") == "8.0"


def test_prose_versions_feed_the_facts() -> None:
    facts = Facts(ingest_text("pytorch版本 2.3.1，python版本：3.10\nRuntimeError: CUDA error"))
    assert facts.get("torch.version") == "2.3.1"
    assert facts.get("python.version") == "3.10"


def test_nvidia_smi_cuda_version_in_words() -> None:
    facts = prose_facts(["nvidia-smi shows CUDA Version 12.4 but torch says 11.8"])
    assert facts.get("driver.cuda_max") == "12.4"
    zh = prose_facts(["驱动支持的最高cuda版本是12.2"])
    assert zh.get("driver.cuda_max") == "12.2"


def test_chinese_next_to_an_english_word_is_a_boundary() -> None:
    # train/zh-0069 (a maintainer's reply): "CUDA10.1與" ends the version as a space would
    line = "這個版本需要安裝CUDA10.1與cudnn7.6搭配使用 ... nv 3000系列需要使用這個資料夾內的版本"
    facts = prose_facts([line])
    assert facts.get("cuda.runtime") == "10.1"
    assert facts.get("cudnn.version") == "7.6"
    assert prose_facts(["在WSL2里跑的，Windows系统"]) == {"os.wsl": True, "os.windows": True}
    assert prose_facts(["pytorch2.1版本"]).get("torch.prose_version") == "2.1"


def test_signature_patterns_use_the_same_word_rules() -> None:
    from envdoctor.triage_engine.model import Pattern

    # train/zh-0107: "环境中的torch为cpu版本"
    line = "简单排查后，我发现环境中的torch为cpu版本："
    assert Pattern(r"\btorch\b", ("torch",)).search(line, line.lower()) is not None
    assert Pattern(r"\bcpu\b", ("cpu",)).search(line, line.lower()) is not None


def test_driver_from_the_nvidia_smi_banner_and_in_words() -> None:
    # train/en-0097: the banner line of nvidia-smi, cut before "Driver Version"
    assert prose_facts(["NVIDIA-SMI 525.60.13   "]).get("driver.version") == "525.60.13"
    assert prose_facts(["The driver version is 470 and cuda 11.4"]).get("driver.version") == "470"
    assert prose_facts(["我的驱动是R535"]).get("driver.version") == "535"
    # hipconfig / rocminfo print HIP's version, which carries the ROCm release
    assert prose_facts(["HIP version: 6.0.32830-d62f6a171"]).get("rocm.version") == "6.0"


def test_torch_version_in_words_keeps_its_tags_and_drops_a_wheel_name() -> None:
    line = "torch 2.4.0.dev20240401+cu121"
    assert prose_facts([line]).get("torch.prose_version") == "2.4.0.dev20240401+cu121"
    wheel = Facts(ingest_text("pip install torch-2.1.0+cu121-cp310-cp310-linux_x86_64.whl"))
    assert wheel.get("torch.version") == "2.1.0+cu121"
    assert wheel.get("torch.cuda") == "12.1"


@pytest.mark.parametrize(
    "line, version",
    [
        # real lines: tests/triage_corpus/train/zh-1003-… and tests/triage_corpus/019-…
        ("v100显卡有测试部署成功的吗？ 我的cuda是12.2", "12.2"),
        ("我的CUDA是12.2.79", "12.2"),
        ("cuda为11.7的环境", "11.7"),
        ("nvcc -V 显示 11.8", "11.8"),
        ("nvcc --version says 12.1", "12.1"),
    ],
)
def test_cuda_toolkit_version_in_words(line: str, version: str) -> None:
    assert prose_facts([line])["cuda.runtime"] == version
