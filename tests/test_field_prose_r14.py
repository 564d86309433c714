"""Round 14 (prosefacts): the FACTS triage reads from what users write about their setup, on
verbatim lines of public threads (the URL beside each row): the GPU in the spellings reports use
("NVIDIA RTX 4090" without "GeForce", "GTX 3090" typed for the RTX card, "gpu: H20", "4090 24G显存",
"V100S"), the driver as "NVIDIA 455.23.04", the driver's CUDA in Chinese ("驱动仅支持到 CUDA 11.6",
nvidia-smi's number, no toolkit), and words that must not be read as a fact ("mamba_ssm" is no
conda; "on H20" and "cuda version in host" stay unknown)."""

from __future__ import annotations

import pytest

from envdoctor.ingest import ingest_text
from envdoctor.triage_engine.facts import Facts

# (verbatim text, fact, expected value, thread)
FACT_ROWS = [
    # a GeForce typed with its family word but without "GeForce", or with the wrong family word
    (
        "NVIDIA RTX 4090 / 24GB does not work properly",
        "gpu.cc",
        "8.9",
        "https://github.com/yxuansu/PandaGPT/issues/28",
    ),
    (
        "NVIDIA RTX 4090 / 24GB does not work properly",
        "gpu.name",
        "NVIDIA GeForce RTX 4090",
        "https://github.com/yxuansu/PandaGPT/issues/28",
    ),
    (
        "Why I run code on Nvidia GeForce RTX 3090Ti (24GB) GPUs will report an error, saying that "
        '"torch.cuda.OutOfMemoryError: CUDA out of memory.", do you know how to solve?',
        "gpu.cc",
        "8.6",
        "https://github.com/ShiyinTan/CI-GCL/issues/1",
    ),
    # a data-centre card after "gpu:", glued to Chinese, counted
    (
        "gpu: H20\ncuda version in host: 12.8",
        "gpu.name",
        "NVIDIA H20",
        "https://github.com/huggingface/text-embeddings-inference/issues/739",
    ),
    (
        "机器信息： ubuntu22.04，显卡H20",
        "gpu.cc",
        "9.0",
        "https://github.com/gpustack/gpustack/issues/4154",
    ),
    (
        "[Bug] Using 8 H20 GPUs, the deepseek-coder-v2-fp8 starts up normally, but there is no "
        "response to client requests.",
        "gpu.name",
        "NVIDIA H20",
        "https://github.com/sgl-project/sglang/issues/1329",
    ),
    (
        "[Bug]: vllm 0.10.0 failed to run Qwen3-30B-A3B-Instruct-2507-Int4-W4A16 on 4 L20 GPUs，but "
        "success on 2 L20 GPUs",
        "gpu.cc",
        "8.9",
        "https://github.com/vllm-project/vllm/issues/22085",
    ),
    (
        "8卡 h200 部署ERNIE-4.5-VL-424B-A47B-Paddle 失败",
        "gpu.name",
        "NVIDIA H200",
        "https://github.com/PaddlePaddle/FastDeploy/issues/2683",
    ),
    (
        "即便我把显卡换为telsa m40依然存在这个问题",
        "gpu.cc",
        "5.2",
        "https://github.com/gpustack/gpustack/issues/1382",
    ),
    (
        "How to enable GPU T4 x 2 in API?",
        "gpu.name",
        "Tesla T4",
        "https://github.com/Kaggle/kaggle-cli/issues/821",
    ),
    (
        "I  try to run it on kaggle with 2 T4 GPU, but failed.",
        "gpu.cc",
        "7.5",
        "https://github.com/BobJohnson24/ComfyUI-INT8-Fast/issues/38",
    ),
    # a GeForce number followed by its memory size, with classifiers
    (
        "4090 24G显存单卡是否可以运行?",
        "gpu.name",
        "NVIDIA GeForce RTX 4090",
        "https://github.com/WujiangXu/SLMRec/issues/4",
    ),
    (
        "[Bug]: 2080ti 22G * 4, vllm=0.4.0 startup error",
        "gpu.cc",
        "7.5",
        "https://github.com/vllm-project/vllm/issues/3764",
    ),
    (
        "我是4张4090 24g显卡目前跑不起来",
        "gpu.cc",
        "8.9",
        "https://github.com/zai-org/GLM-130B/issues/130",
    ),
    (
        "请问一张单卡3090 24G能否部署运行？",
        "gpu.name",
        "NVIDIA GeForce RTX 3090",
        "https://github.com/lyogavin/airllm/issues/10",
    ),
    (
        'python3.10\n2张4090 24G\n使用device_map="auto"进行多卡部署还是出现CUDA out of memory。',
        "gpu.name",
        "NVIDIA GeForce RTX 4090",
        "https://github.com/zcli-charlie/BatGPT/issues/4",
    ),
    (
        'python3.10\n2张4090 24G\n使用device_map="auto"进行多卡部署还是出现CUDA out of memory。',
        "python.version",
        "3.10",
        "https://github.com/zcli-charlie/BatGPT/issues/4",
    ),
    (
        "两张3090 24G 也不够用啊 还得去搞一张来 不知行不行",
        "gpu.cc",
        "8.6",
        "https://github.com/wxj630/visual-chatgpt-zh/issues/4",
    ),
    (
        "请问双卡 4090 24G 可以用么",
        "gpu.name",
        "NVIDIA GeForce RTX 4090",
        "https://github.com/weicj/vLLM-2080Ti-Definitive/issues/28",
    ),
    # the driver after the maker's name; driver and toolkit in one sentence
    (
        "I just installed a 3090, NVIDIA 455.23.04 and installed PyTorch nightly with:",
        "driver.version",
        "455.23.04",
        "https://github.com/pytorch/pytorch/issues/46794",
    ),
    (
        "I just installed a 3090, NVIDIA 455.23.04 and installed PyTorch nightly with:",
        "gpu.cc",
        "8.6",
        "https://github.com/pytorch/pytorch/issues/46794",
    ),
    (
        "cuda 11.4 and driver 471.43 accuses dll error, only the mentioned driver will work 460 and "
        "cuda 11?",
        "driver.version",
        "471.43",
        "https://github.com/HypoX64/DeepMosaics/issues/74",
    ),
    (
        "I am trying to set up CUDA 11.6 with NVIDIA driver version 535 on Ubuntu 20.04, using an "
        "RTX 4060 Ti GPU.",
        "driver.version",
        "535",
        "https://github.com/swc-17/SparseDrive/issues/67",
    ),
    (
        "I am trying to set up CUDA 11.6 with NVIDIA driver version 535 on Ubuntu 20.04, using an "
        "RTX 4060 Ti GPU.",
        "cuda.runtime",
        "11.6",
        "https://github.com/swc-17/SparseDrive/issues/67",
    ),
    (
        "CUDA: 11.2\nNvidia-driver: 460.91.03\nGPU model: RTX 2080 Ti\nUbuntu 20.04\n"
        "Python 3.8 with virtualenv",
        "driver.version",
        "460.91.03",
        "https://github.com/pytorch/pytorch/issues/50032",
    ),
    # the driver's CUDA (what nvidia-smi prints), never the toolkit's
    (
        "我目前在服务器上尝试运行该项目，但服务器中的 GPU 驱动仅支持到 CUDA 11.6，且我没有管理员权限，"
        "无法升级驱动。",
        "driver.cuda_max",
        "11.6",
        "https://github.com/xming521/WeClone/issues/88",
    ),
    (
        "[Docker] `nvidia-smi` shows CUDA12.2 in curret built docker image.",
        "driver.cuda_max",
        "12.2",
        "https://github.com/nvidia-cosmos/cosmos-rl/issues/131",
    ),
    (
        'I install nvidia driver 460.73.01 and use the "watch nvidia-smi" to see cuda version 11.2',
        "driver.cuda_max",
        "11.2",
        "https://github.com/onnx/onnx/issues/3491",
    ),
    (
        'I install nvidia driver 460.73.01 and use the "watch nvidia-smi" to see cuda version 11.2',
        "driver.version",
        "460.73.01",
        "https://github.com/onnx/onnx/issues/3491",
    ),
    # how many GPUs, counted with the card (two or more)
    (
        "[Bug] Using 8 H20 GPUs, the deepseek-coder-v2-fp8 starts up normally, but there is no response to client requests.",
        "gpu.count",
        8,
        "https://github.com/sgl-project/sglang/issues/1329",
    ),
    (
        "8卡 h200 部署ERNIE-4.5-VL-424B-A47B-Paddle 失败",
        "gpu.count",
        8,
        "https://github.com/PaddlePaddle/FastDeploy/issues/2683",
    ),
    (
        "How to enable GPU T4 x 2 in API?",
        "gpu.count",
        2,
        "https://github.com/Kaggle/kaggle-cli/issues/821",
    ),
    (
        "I  try to run it on kaggle with 2 T4 GPU, but failed.",
        "gpu.count",
        2,
        "https://github.com/BobJohnson24/ComfyUI-INT8-Fast/issues/38",
    ),
    (
        "我是4张4090 24g显卡目前跑不起来",
        "gpu.count",
        4,
        "https://github.com/zai-org/GLM-130B/issues/130",
    ),
    (
        "两张3090 24G 也不够用啊 还得去搞一张来 不知行不行",
        "gpu.count",
        2,
        "https://github.com/wxj630/visual-chatgpt-zh/issues/4",
    ),
    (
        "请问双卡 4090 24G 可以用么",
        "gpu.count",
        2,
        "https://github.com/weicj/vLLM-2080Ti-Definitive/issues/28",
    ),
    (
        "[Bug]: 2080ti 22G * 4, vllm=0.4.0 startup error",
        "gpu.count",
        4,
        "https://github.com/vllm-project/vllm/issues/3764",
    ),
]

# (verbatim text, fact that must stay unknown or must not hold this value, thread)
UNKNOWN_ROWS = [
    # "mamba_ssm" is the Mamba model's package, no conda
    (
        "我使用的是特斯拉p40的显卡，是否是mamba_ssm/ops/selective_scan_interface.py未为特斯拉p40做"
        "优化，配置相应的CUDA kernel？",
        "ctx.conda",
        "https://github.com/zhangzjn/ADer/issues/51",
    ),
    # "on H20" alone: no GPU word, left unknown
    (
        "[Bug] Met a error when deploying an AWQ model on H20.",
        "gpu.name",
        "https://github.com/InternLM/lmdeploy/issues/2416",
    ),
    # the driver's CUDA "in host" is not the toolkit, nor read as one
    (
        "gpu: H20\ncuda version in host: 12.8",
        "cuda.runtime",
        "https://github.com/huggingface/text-embeddings-inference/issues/739",
    ),
    # "驱动仅支持到 CUDA 11.6" is the driver's, not an installed toolkit
    (
        "我目前在服务器上尝试运行该项目，但服务器中的 GPU 驱动仅支持到 CUDA 11.6，且我没有管理员权限，"
        "无法升级驱动。",
        "cuda.runtime",
        "https://github.com/xming521/WeClone/issues/88",
    ),
    # "单卡" / "一张" weigh what one card holds as often as they count: no count
    (
        "请问一张单卡3090 24G能否部署运行？",
        "gpu.count",
        "https://github.com/lyogavin/airllm/issues/10",
    ),
    (
        "4090 24G显存单卡是否可以运行?",
        "gpu.count",
        "https://github.com/WujiangXu/SLMRec/issues/4",
    ),
]


@pytest.mark.parametrize(("text", "fact", "value", "source"), FACT_ROWS)
def test_fact_read_from_a_real_line(text: str, fact: str, value: object, source: str) -> None:
    assert source.startswith("https://")
    assert Facts(ingest_text(text)).get(fact) == value, source


@pytest.mark.parametrize(("text", "fact", "source"), UNKNOWN_ROWS)
def test_fact_left_unknown(text: str, fact: str, source: str) -> None:
    assert source.startswith("https://")
    assert not Facts(ingest_text(text)).get(fact), source


def test_a_geforce_typed_with_the_wrong_family_word_is_the_geforce_its_number_names() -> None:
    # the family word follows the number: a "GTX 3090" is the RTX 3090 (sm_86), an "RTX 1080 Ti"
    # the GTX 1080 Ti; the workstation cards keep their names
    from envdoctor.ingest.free_text_vocabulary import _geforce_family

    assert _geforce_family("NVIDIA GTX 3090", False) == "NVIDIA GeForce RTX 3090"
    assert _geforce_family("GeForce RTX 1080 Ti", False) == "NVIDIA GeForce GTX 1080 Ti"
    assert _geforce_family("NVIDIA RTX 6000", False) == "NVIDIA RTX 6000"
    assert _geforce_family("NVIDIA RTX A6000", True) == "NVIDIA RTX A6000"
