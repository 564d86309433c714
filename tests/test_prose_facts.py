"""Facts from prose (envdoctor.triage_engine.prose, facts): each phrasing on a real line of a
training report of the triage corpus (tests/triage_corpus/, the file named beside it), English and
Chinese, and the lines it must not misread."""

from __future__ import annotations

import pytest

from envdoctor.ingest import ingest_text
from envdoctor.triage_engine.facts import Facts
from envdoctor.triage_engine.prose import geforce_name, prose_facts
from envdoctor.triage_engine.prose_gpu import arch_name, gpu_name

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
    (
        "train/en-1010",
        "The platform I used is `Python 3.6` using Anaconda on CentOS and the PyTorch Version is "
        "`1.1.0`.",
        "torch.prose_version",
        "1.1.0",
    ),
    (
        "train/en-0122",
        "Jul 01 22:55:07 gpu kernel: NVRM: GPU 0000:01:00.0: rm_init_adapter failed, device minor "
        "number 0",
        "os.linux",
        True,
    ),
    (
        "train/en-0055",
        "ImportError: /usr/local/lib/python3.10/dist-packages/vllm/_C.cpython-310-x86_64-linux-gnu"
        ".so: undefined symbol: _ZN2at4_ops15to_dtype_layout4call",
        "os.linux",
        True,
    ),
    (
        "train/en-27104",
        "is there a way that jax (or rather xla) could conform to the minimum requirements there, "
        "so that if NVIDIA claims that driver v.470 works with cuda v.11.6.2 then it should work "
        "for jax as well?",
        "cuda.runtime",
        "11.6",
    ),
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


@pytest.mark.parametrize(
    ("source", "line", "name", "cc"),
    [
        # a GTX 10 / Pascal card dropped by a newer build
        ("Comfy-Org/desktop#1300", "Pytorch support for Pascal GPUs", "NVIDIA Pascal GPU", "6.0"),
        ("wilicc/gpu-burn#5", "Errors on Turing GPUs", "NVIDIA Turing GPU", "7.5"),
        (
            "vllm-project/vllm#17639",
            "[Bug]: Unable to run Qwen3 on Turing GPUs after upgrading to torch 2.7.0",
            "NVIDIA Turing GPU",
            "7.5",
        ),
        (
            "pytorch/pytorch#12679",
            "Caffe2 does not work with nvidia turing architecture GPUs.",
            "NVIDIA Turing GPU",
            "7.5",
        ),
        # Blackwell spans 10.0 (B200) and 12.0 (RTX 50): no one capability chooses a build
        ("nv-tlabs/GEN3C#37", "Blackwell GPU issues", "NVIDIA Blackwell GPU", None),
    ],
)
def test_an_architecture_named_next_to_a_gpu_word(
    source: str, line: str, name: str, cc: str | None
) -> None:
    facts = Facts(ingest_text(line))
    assert facts.get("gpu.name") == name, source
    assert facts.get("gpu.cc") == cc, source


def test_an_architecture_next_to_a_chinese_gpu_word() -> None:
    # nunchux-ai/ComfyUI-nunchaku#136 (the GTX 1050 Ti it names wins in the facts)
    assert arch_name("能否为Pascal架构（如GTX 1050 Ti）提供降级支持") == "NVIDIA Pascal GPU"


@pytest.mark.parametrize(
    ("source", "line"),
    [
        # the requirement, printed on the GPUs older than Ampere: not the GPU in use
        (
            "Dao-AILab/flash-attention#762",
            "RuntimeError: FlashAttention only supports Ampere GPUs or newer.",
        ),
        # Kepler's cards span 3.0 to 3.7: the word chooses no build
        ("jax-ml/jax#16070", "Add a note that Kepler GPUs are not supported to the README."),
        # no GPU word beside the architecture
        (
            "nunchux-ai/nunchaku#216",
            "Turing will be supported in v0.2. I will let you know when we release it.",
        ),
    ],
)
def test_architecture_words_that_choose_no_build(source: str, line: str) -> None:
    assert Facts(ingest_text(line)).get("gpu.cc") is None, source


def test_an_architecture_in_words_chooses_a_build_that_runs_it() -> None:
    from envdoctor.triage_engine import triage_text

    report = triage_text("Pytorch support for Pascal GPUs")
    [found] = [f for f in report.findings if f.id == "torch.gpu-too-old-for-build"]
    first = " ".join((found.fixes[0].summary, *found.fixes[0].commands))
    # before: "torch 2.13 with cu130 (sm_75 and up)", which no Pascal card runs
    assert "sm_60" in first and "cu130" not in first and "cu132" not in first


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


@pytest.mark.parametrize(
    ("case", "line", "name"),
    [
        # real lines of Chinese training reports: the card by number after a classifier, after
        # "N卡", the China-only "D" model (the thread's title), data-centre cards by model
        (
            "train/zh-1018",
            "按照readme，用4块3090跑3B模型，vllm加载时报显存不足。",
            "NVIDIA GeForce RTX 3090",
        ),
        (
            "train/zh-0031",
            "由于显卡配置比较低，N卡1050TI,4G显存，但内存有32G",
            "NVIDIA GeForce GTX 1050 Ti",
        ),
        (
            "train/zh-0001 (title)",
            "5090D显卡已经配置好环境，但是打开应用后提示兼容性问题",
            "NVIDIA GeForce RTX 5090 D",
        ),
        ("train/zh-0051", "A800机器微调qwen2vl-7B", "NVIDIA A800"),
        ("train/zh-1028", "使用的GPU是Telsa T4 16G，GPU相关的训练参数是：", "Tesla T4"),
    ],
)
def test_gpu_named_in_chinese_prose(case: str, line: str, name: str) -> None:
    assert prose_facts([line]).get("gpu.prose_name") == name, case


def test_prose_gpu_names_resolve_in_the_gpu_table() -> None:
    # the China-only 4090 D is an Ada card; an A800 gets the capability its family shares
    facts = Facts(ingest_text("5090D显卡已经配置好环境\nCUDA error: no kernel image"))
    assert facts.get("gpu.cc") == "12.0"
    facts = Facts(
        ingest_text("A800机器微调qwen2vl-7B\ntorch.OutOfMemoryError: CUDA out of memory.")
    )
    assert facts.get("gpu.cc") == "8.0"
    facts = Facts(ingest_text("A卡 RX 6700 XT 只能CPU跑\nRuntimeError: No CUDA GPUs are available"))
    assert facts.get("gpu.vendor") == "amd"


@pytest.mark.parametrize(
    "line",
    [
        "训练到3060卡住了",  # a step number next to 卡住 (stuck)
        "单卡10G是足够的",  # train/zh-0050: a memory size, not a card
        "python app.py --port 4090",
        "the T4 template",  # a bare short model name without a GPU word
    ],
)
def test_numbers_in_chinese_prose_that_are_not_gpus(line: str) -> None:
    assert "gpu.prose_name" not in prose_facts([line])


@pytest.mark.parametrize(
    ("case", "text", "fact", "value"),
    [
        # the free-text reader's Unicode word rules miss an OS glued to Chinese; prose reads it
        ("train/zh-1034", "- 系统：Win10、Win11", "os.system", "Windows"),
        (
            "train/zh-1025",
            "linux下的centos7, 8张A100的卡，有其他程序也在使用gpu，但是我的任务检测不到cuda",
            "os.system",
            "Linux",
        ),
        (
            "train/zh-1017",
            "当宿主机cuda版本为12.0，容器内为12.4时，运行模型会出现以下错误：",
            "os.container",
            True,
        ),
        ("train/zh-0078", "用的autodl上的镜像，然后就输入了python app.py", "os.container", True),
    ],
)
def test_context_glued_to_chinese(case: str, text: str, fact: str, value: object) -> None:
    assert Facts(ingest_text(text + "\nRuntimeError: CUDA error")).get(fact) == value, case


def test_driver_facts_in_more_chinese_phrasings() -> None:
    # "驱动版本号", "驱动的版本是", "最高支持 CUDA" (what nvidia-smi's corner reads to users)
    assert prose_facts(["显卡驱动版本号：551.86"]).get("driver.version") == "551.86"
    assert prose_facts(["驱动的版本是 535.104"]).get("driver.version") == "535.104"
    assert prose_facts(["驱动版本太低，升级到 2024 年的版本"]).get("driver.version") is None
    assert prose_facts(["我的显卡最高支持cuda12.2"]).get("driver.cuda_max") == "12.2"
    assert prose_facts(["支持的最高CUDA版本为11.4"]).get("driver.cuda_max") == "11.4"


@pytest.mark.parametrize(
    ("case", "text", "fact", "value"),
    [
        # the distribution and the app, glued to Chinese (the reader's Unicode word rules miss them)
        (
            "train/zh-1011",
            "我在ubuntu20.04的conda环境中安装了paddle-gpu2.3.0+cuda10.2版本",
            "os.distro",
            "ubuntu",
        ),
        (
            "train/zh-1025",
            "linux下的centos7, 8张A100的卡，有其他程序也在使用gpu，但是我的任务检测不到cuda",
            "os.distro",
            "centos",
        ),
        (
            "train/zh-0022",
            "我使用vllm启动Qwen2.5-32B-Instruct-INT8-W8A16模型，但是总是提示显存不足",
            "app.vllm",
            True,
        ),
    ],
)
def test_distro_and_app_glued_to_chinese(case: str, text: str, fact: str, value: object) -> None:
    assert Facts(ingest_text(text + "\nRuntimeError: CUDA error")).get(fact) == value, case


@pytest.mark.parametrize(
    ("line", "env"),
    [
        ("export CUDA_VISIBLE_DEVICES=0,1", {"CUDA_VISIBLE_DEVICES": "0,1"}),
        ("setx CUDA_VISIBLE_DEVICES 1", {"CUDA_VISIBLE_DEVICES": "1"}),
        ("ENV NVIDIA_VISIBLE_DEVICES all", {"NVIDIA_VISIBLE_DEVICES": "all"}),
        # a status name followed by words is no assignment
        ("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling cublasGemmEx", None),
        ("CUDA_VISIBLE_DEVICES 没有设置", None),
    ],
)
def test_environment_assignments_need_an_equals_sign(line: str, env: object) -> None:
    assert prose_facts([line]).get("env") == env


def test_a_tesla_card_named_without_its_brand_gets_its_capability() -> None:
    # train/zh-0066: "V100" alone; the GPU table spells it "Tesla V100-SXM2-16GB"
    facts = Facts(
        ingest_text("V100不支持 BF16 之后是否会有FP16的版本呢？\nRuntimeError: CUDA error")
    )
    assert facts.get("gpu.cc") == "7.0"


def test_card_number_after_its_brand_glued() -> None:
    # "RTX4090D": the free-text reader's word rules stop at the D; the China-only model is its row
    assert geforce_name("RTX4090D 跑不了") == "NVIDIA GeForce RTX 4090 D"
    assert geforce_name("显卡是 GTX 960M") == "NVIDIA GeForce GTX 960M"


def test_cuda_in_an_environment_listing() -> None:
    # train/zh-0103 and train/en-0055: the toolkit in a hand-written environment list
    assert prose_facts(["我的环境：GPU：3090 ubuntu22.04 CUDA：11.8"]).get("cuda.runtime") == "11.8"
    assert prose_facts(["CUDA: 12.0.1"]).get("cuda.runtime") == "12.0"
    # torch's own CUDA and nvidia-smi's banner are other facts
    assert "cuda.runtime" not in prose_facts(["torch.version.cuda: 11.8"])
    assert "cuda.runtime" not in prose_facts(["Driver Version: 535.54.03   CUDA Version: 12.2"])


@pytest.mark.parametrize(
    ("line", "cuda_max", "runtime"),
    [
        # what nvidia-smi shows is the driver's highest CUDA, not the toolkit's
        ("`nvidia-smi` shows CUDA12.2 in the image", "12.2", None),
        ("nvidia-smi 显示 CUDA 12.4，nvcc 是 11.8", "12.4", "11.8"),
        ("nvidia-smi 表格右上角的 cuda 版本是 12.2", "12.2", None),
        ("the driver has CUDA 12.2 as shown in nvidia-smi", "12.2", None),
    ],
)
def test_nvidia_smi_cuda_is_the_drivers(line: str, cuda_max: str, runtime: object) -> None:
    facts = prose_facts([line])
    assert facts.get("driver.cuda_max") == cuda_max
    assert facts.get("cuda.runtime") == runtime


def test_intel_arc_model_numbers_are_no_geforce() -> None:
    # train/en-1006 and train/en-0147: Intel Arc A750 / A770 are not a GTX 750 / 770
    assert geforce_name("GPU : Intel Arc A750 8GB") is None
    assert geforce_name("This is with an Intel Arc A770 card") is None
    assert geforce_name("I have a 1080 in my server") == "NVIDIA GeForce GTX 1080"


@pytest.mark.parametrize(
    ("case", "line", "vendor"),
    [
        ("train/zh-0038", "不支持A卡吗？只能CPU跑？", "amd"),
        ("train/zh-0039", "A卡提示没有发现显卡，是不是只支持N卡？", "amd"),
        ("train/zh-0031", "由于显卡配置比较低，N卡1050TI,4G显存，但内存有32G", "nvidia"),
        ("train/en-1006", "GPU : Intel Arc A750 8GB", "intel"),
        # a maintainer's "A卡" for A100-class cards (train/zh-0109's confirmation) is no AMD card
        (
            "train/zh-0109",
            "正常我们都是在80G的A卡或者H卡上运行，16G的这种消费级显卡是会爆显存的",
            None,
        ),
    ],
)
def test_gpu_maker_in_chinese_words(case: str, line: str, vendor: object) -> None:
    assert prose_facts([line]).get("gpu.prose_vendor") == vendor, case


def test_the_maker_in_words_sets_the_gpu_vendor() -> None:
    facts = Facts(
        ingest_text(
            "不支持A卡吗？只能CPU跑？\nAssertionError: Torch not compiled with CUDA enabled"
        )
    )
    assert facts.get("gpu.vendor") == "amd"


@pytest.mark.parametrize(
    ("line", "name"),
    [
        # round 5: a card after "显卡型号是" or "笔记本", the SUPER models as Chinese reports shorten
        # them, and data-centre cards glued to Chinese (the reader's Unicode word rules miss them)
        ("显卡型号是3060", "NVIDIA GeForce RTX 3060"),
        ("笔记本3060，win11", "NVIDIA GeForce RTX 3060"),
        ("我的显卡是1660s", "NVIDIA GeForce GTX 1660 SUPER"),
        ("v100显卡有测试部署成功的吗？", "Tesla V100"),
        ("服务器是8张a100的", "NVIDIA A100"),
    ],
)
def test_gpu_named_after_a_model_word_or_glued(line: str, name: str) -> None:
    assert prose_facts([line]).get("gpu.prose_name") == name


def test_an_s_after_a_card_without_a_super_model_is_a_plural() -> None:
    assert geforce_name("我的显卡是两张3090s") == "NVIDIA GeForce RTX 3090"


@pytest.mark.parametrize(
    "line",
    [
        "显卡：因特尔 A770m 显卡",  # the "因特尔" spelling, an Arc model by number
        "显卡是A770，装了oneAPI",
        "Intel Arc B580 12GB",
    ],
)
def test_intel_arc_named_in_prose(line: str) -> None:
    assert prose_facts([line]).get("gpu.prose_vendor") == "intel"


@pytest.mark.parametrize("line", ["主板是B550", "A520主板", "华硕B450M"])
def test_amd_chipsets_are_not_arc_gpus(line: str) -> None:
    assert "gpu.prose_vendor" not in prose_facts([line])


@pytest.mark.parametrize(
    "line",
    [
        "NVIDIA Jetson AGX Xavier JetPack4.3",
        "在 AGX Orin 上跑",
        "Jetson TX2编译fastdeploy错误",
        "我的nano盒子上运行就报错",
        "nano开发板上装了pytorch",
    ],
)
def test_jetson_boards_as_reports_name_them(line: str) -> None:
    assert prose_facts([line]).get("jetson") is True


@pytest.mark.parametrize("line", ["训练了一个nanoGPT", "耗时 3 nanoseconds", "orientation"])
def test_words_that_are_not_jetson_boards(line: str) -> None:
    assert "jetson" not in prose_facts([line])


def test_a_server_or_rented_gpu_host_is_linux() -> None:
    assert Facts(ingest_text("在服务器上跑的，报错如下\nCUDA error")).get("os.system") == "Linux"
    assert Facts(ingest_text("autodl租的3090\nCUDA error")).get("os.system") == "Linux"
    mixed = Facts(ingest_text("Windows Server 2019 服务器上跑\nCUDA error"))
    assert mixed.get("os.system") != "Linux"


@pytest.mark.parametrize(
    ("line", "name", "cc"),
    [
        # a card by its board maker, a Leadtek pro card, a generation in words ("30系显卡")
        ("我电脑显卡是七彩虹3060，12G显存", "NVIDIA GeForce RTX 3060", "8.6"),
        ("显卡为丽台t1000，显存4G", "NVIDIA T1000", "7.5"),
        ("cuda10 在RTX30系列显卡上无法正常使用", "NVIDIA GeForce RTX 30 series", "8.6"),
        ("我用的是40系的卡", "NVIDIA GeForce RTX 40 series", "8.9"),
    ],
)
def test_gpu_in_chinese_words_gets_its_capability(line: str, name: str, cc: str) -> None:
    facts = Facts(ingest_text(line + "\nCUDA error"))
    assert (facts.get("gpu.name"), facts.get("gpu.cc")) == (name, cc)


def test_win10_system_is_not_a_gpu_generation() -> None:
    assert "gpu.prose_name" not in prose_facts(["win10系统，10系统更新后"])


@pytest.mark.parametrize(
    ("line", "version"),
    [("装了535的驱动", "535"), ("470版本的显卡驱动", "470")],
)
def test_driver_version_before_the_word_driver(line: str, version: str) -> None:
    assert prose_facts([line]).get("driver.version") == version


def test_a_card_number_before_the_word_driver_is_not_a_driver_version() -> None:
    assert "driver.version" not in prose_facts(["4090的驱动是最新的"])


@pytest.mark.parametrize(
    "line",
    [
        "我的torch装的是cpu版本",
        "发现安装的是cpu版本的pytorch",
        "但随后执行gui.py，torch识别的却是2.3.1的cpu版本（所以无法使用GPU）",
    ],
)
def test_cpu_build_in_words(line: str) -> None:
    assert Facts(ingest_text(line + "\nCUDA error")).get("torch.build") == "cpu"


@pytest.mark.parametrize(
    "line",
    ["torch不是cpu版本", "之前torch是cpu版，换成cuda版就好了", "paddle装的是cpu版本"],
)
def test_cpu_build_words_that_do_not_say_so(line: str) -> None:
    assert "torch.prose_build" not in prose_facts([line])


@pytest.mark.parametrize(
    ("case", "line", "fact", "value"),
    [
        # issue forms, pip and conda rows, prose: the framework versions as reports write them
        ("train/en-1332", "- TensorFlow version (use command below): 2.1.0", "tf.version", "2.1.0"),
        ("train/en-1332", "- CUDA/cuDNN version: 10.2.89", "cuda.runtime", "10.2"),
        ("field", "- CUDA/cuDNN version: 10.1 / 7.6.5", "cudnn.version", "7.6.5"),
        ("field", "CUDA/cuDNN version: CUDA 11.0, cuDNN 8.0.4", "cuda.runtime", "11.0"),
        ("field", "CUDA/cuDNN version: CUDA 11.0, cuDNN 8.0.4", "cudnn.version", "8.0.4"),
        ("train/en-0187 (fix)", "pip install tensorflow-gpu==1.3.0", "tf.version", "1.3.0"),
        ("field", "TensorFlow版本：2.6.0", "tf.version", "2.6.0"),
        ("field", "tf version 2.1.0", "tf.version", "2.1.0"),
        (
            "field",
            "tensorflow-gpu            2.10.0          pypi_0    pypi",
            "tf.version",
            "2.10.0",
        ),
        (
            "train (fix of the onnxruntime 1.17 case)",
            "onnxruntime-gpu==1.15",
            "ort.version",
            "1.15",
        ),
        ("field", "ONNX Runtime version: 1.17.1", "ort.version", "1.17.1"),
        (
            "train (zh paddlex 3090)",
            "显卡GTX3090 现在支持了吗，安装的 paddlepaddle-gpu 2.1.0.post101，系统ubuntu18.04",
            "paddle.post",
            "2.1.0.post101",
        ),
        (
            "train/zh-0033",
            "python3 -m pip install paddlepaddle-gpu==1.7.2.post107 -i https://pypi.tuna.tsinghua.edu.cn/simple",
            "paddle.version",
            "1.7.2",
        ),
        ("train (zh)", "- cuDNN版本：9.5", "cudnn.version", "9.5"),
        ("train (zh)", "> cudnn版本：7.6.5", "cudnn.version", "7.6.5"),
        ("train (zh)", "- Python版本：3.12.7", "python.version", "3.12.7"),
        ("025", "jaxlib                       0.4.26+cuda12.cudnn89", "jax.version", "0.4.26"),
        ("field", "jax版本是0.4.30", "jax.version", "0.4.30"),
    ],
)
def test_framework_versions_in_forms_and_rows(
    case: str, line: str, fact: str, value: object
) -> None:
    assert prose_facts([line]).get(fact) == value, case


def test_the_framework_release_chooser_reads_cudnn_codes_as_prose_does() -> None:
    # one decoder (model.nvidia_records.cudnn_release): the chooser's own copy had read cuDNN 9's
    # code 90100 (major*10000 + minor*100 + patch) as 90.1.0
    from envdoctor.remedies.framework_libs import _cudnn_version

    assert [str(_cudnn_version(c)) for c in ("6021", "7003", "90100", "8.9.2", "7")] == [
        "6.0.21",
        "7.0.3",
        "9.1.0",
        "8.9.2",
        "7",
    ]
    assert _cudnn_version("abc") is None and _cudnn_version(None) is None


def test_tensorflow_1x_prints_cudnn_version_codes() -> None:
    # train/en-0187: TensorFlow 1.x logs cuDNN's CUDNN_VERSION code (major*1000 + minor*100 + patch)
    line = (
        "E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded runtime CuDNN library: 6021 "
        "(compatibility version 6000) but source was compiled with 5105 (compatibility version "
        "5100)."
    )
    facts = prose_facts([line])
    assert facts["cudnn.version"] == "6.0.21"
    assert facts["cudnn.compiled"] == "5.1.5"
    # XLA's own line already prints releases
    xla = "Loaded runtime CuDNN library: 8.5.0 but source was compiled with: 8.6.0."
    assert prose_facts([xla])["cudnn.version"] == "8.5.0"


@pytest.mark.parametrize(
    ("line", "compiled", "loaded"),
    [
        # https://github.com/xingyizhou/CenterNet/issues/119 (a code, like TensorFlow 1.x's)
        (
            "RuntimeError: cuDNN version mismatch: PyTorch was compiled against 7102 but linked "
            "against 7605",
            "7.1.2",
            "7.6.5",
        ),
        # the tuple form of newer releases
        # (https://github.com/bmaltais/kohya_ss/issues/1096)
        (
            "17:22:50-122539 ERROR    Could not load torch: cuDNN version incompatibility: PyTorch "
            "was compiled  against (8, 7, 0) but found runtime version (8, 2, 4). PyTorch already "
            "comes bundled with cuDNN. One option",
            "8.7.0",
            "8.2.4",
        ),
        # ... and with 1.12's wording (https://github.com/pytorch/pytorch/issues/80637)
        (
            "RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (8, 3, 2) "
            "but linked against (8, 0, 3)",
            "8.3.2",
            "8.0.3",
        ),
    ],
)
def test_pytorch_prints_cudnn_as_a_code_or_a_tuple(line: str, compiled: str, loaded: str) -> None:
    facts = prose_facts([line])
    assert (facts["cudnn.compiled"], facts["cudnn.version"]) == (compiled, loaded)


@pytest.mark.parametrize(
    "line",
    [
        "tensorflow-metal 1.1.0",  # the plugin's own version, not TensorFlow's
        "tensorflow-hub 0.16.1",
        "W tensorflow/core/common_runtime/gpu/gpu_device.cc:1960] Cannot dlopen some GPU libraries.",
    ],
)
def test_other_tensorflow_packages_are_no_tensorflow_version(line: str) -> None:
    assert "tf.version" not in prose_facts([line])


def test_the_table_names_what_a_framework_release_was_built_with() -> None:
    # train/en-1332: TensorFlow 2.1.0 with CUDA 10.2 installed; 2.1 was built with CUDA 10.1
    facts = Facts(
        ingest_text(
            "- TensorFlow version (use command below): 2.1.0\n"
            "- CUDA/cuDNN version: 10.2.89\n"
            "tf.config.list_physical_devices(None) lists only the CPU"
        )
    )
    assert (facts.get("tf.cuda"), facts.get("tf.cudnn")) == ("10.1", "7.6")
    assert facts.get("tf.windows_gpu") is True
    assert facts.get("tf.for_cuda") is None  # no TensorFlow was built with CUDA 10.2
    # TensorFlow 1.x rows (tensorflow_gpu-1.x of the tested build configurations)
    old = Facts(
        ingest_text("pip3 install --upgrade tensorflow-gpu==1.4\nImportError: libcudnn.so.6")
    )
    assert (old.get("tf.cuda"), old.get("tf.cudnn")) == ("8", "6")
    # the newest TensorFlow built for the cuDNN loaded (6.0.21: cuDNN 6)
    loaded = Facts(ingest_text("Loaded runtime CuDNN library: 6021 (compatibility version 6000)"))
    assert loaded.get("tf.for_cudnn") == "1.4.0"
    windows = Facts(ingest_text("tensorflow==2.16 on Windows 11 does not use the GPU"))
    assert windows.get("tf.windows_gpu") is False


def test_onnxruntime_and_paddle_builds_from_their_versions() -> None:
    ort = Facts(ingest_text("onnxruntime-gpu==1.18.1\nFailed to create CUDAExecutionProvider"))
    assert (ort.get("ort.version"), ort.get("ort.cuda"), ort.get("ort.cudnn")) == (
        "1.18.1",
        "11.8",
        "8.x",
    )
    paddle = Facts(ingest_text("pip install paddlepaddle-gpu==2.4.2.post117\nimport paddle"))
    assert paddle.get("paddle.cuda") == "11.7"
    # Paddle 1.x: postXY = CUDA X with cuDNN Y (post107 = CUDA 10, cuDNN 7)
    old = Facts(ingest_text("python3 -m pip install paddlepaddle-gpu==1.7.2.post107"))
    assert old.get("paddle.cuda") == "10"


def test_conda_list_rows_name_the_environment_s_cuda_and_tensorflow() -> None:
    facts = Facts(
        ingest_text(
            "cudatoolkit               11.2.2              hbe64b41_10    conda-forge\n"
            "tensorflow-intel          2.12.0                   pypi_0    pypi\n"
            "tf.config.list_physical_devices('GPU') returns []"
        )
    )
    assert facts.get("cuda.runtime") == "11.2"
    assert facts.get("tf.version") == "2.12.0"


def _case(name: str) -> str:
    """A corpus report's text (below its header), as the triage reads it."""
    from pathlib import Path

    corpus = Path(__file__).parent / "triage_corpus"
    path = next(corpus.glob(f"{name}-*.txt"))
    return path.read_text(encoding="utf-8").split("#! ---\n", 1)[1]


def test_issue_form_answers_under_headings_give_the_inline_facts() -> None:
    # TensorFlow's form: "### CUDA/cuDNN version" / installer names; "### GPU model and memory"
    tf = Facts(ingest_text(_case("023")))
    assert (tf.get("cuda.runtime"), tf.get("cudnn.version")) == ("11.8", "8.6.0")
    assert (tf.get("gpu.name"), tf.get("gpu.cc")) == ("NVIDIA GeForce GTX 1050 Ti", "6.1")
    # ONNX Runtime's form: "### ONNX Runtime Version or Commit ID" / "1.16.3", a release archive
    assert Facts(ingest_text(_case("train/en-1014"))).get("ort.version") == "1.16.3"
    assert Facts(ingest_text(_case("train/en-1144"))).get("ort.version") == "1.17.1"
    assert Facts(ingest_text(_case("train/en-0018"))).get("cuda.runtime") == "11.8"
    form = "### Paddle version\n\n2.5.1\n\n### Driver version\n\n535.104.05\n\n### GPU\n\nNVIDIA A100\n"
    facts = Facts(ingest_text(form + "\nRuntimeError: CUDA error"))
    assert facts.get("paddle.version") == "2.5.1"
    assert facts.get("driver.version") == "535.104.05"
    assert facts.get("gpu.cc") == "8.0"


@pytest.mark.parametrize(
    "form",
    [
        "### Driver version\n\n_No response_\n\n535.104.05\n",  # not this heading's answer
        "### Driver version\n\n- see nvidia-smi below\n",  # a list, not an answer
        "#! ---\nDriver 535.104.05 is fine\n",  # no heading: a corpus header's line
    ],
)
def test_heading_answers_only_from_the_next_plain_line(form: str) -> None:
    answers = ingest_text(form).data("pasted.text")["heading_answers"]
    assert not any("535" in a for a in answers)


@pytest.mark.parametrize(
    ("line", "version"),
    [
        # train/en-1307 (an Unraid container report), the nvidia-smi header, zh, an installer's name
        ("Nvidia Driver: v550.78 (Quadro RTX 4000 should fine for CUDA 12)", "550.78"),
        ("Driver Version: 550.78", "550.78"),
        ("驱动版本 470", "470"),
        ("NVIDIA driver 535.104.05", "535.104.05"),
    ],
)
def test_driver_version_in_any_phrasing(line: str, version: str) -> None:
    assert Facts(ingest_text(line + "\nCUDA error")).get("driver.version") == version
    assert prose_facts([line]).get("driver.version") == version


def test_no_web_page_or_wheel_suffix_in_a_torch_version() -> None:
    # train/en-1027: PyG's wheel index page for torch 1.4.0+cu101
    facts = Facts(ingest_text(_case("train/en-1027")))
    assert facts.get("torch.version") == "1.4.0+cu101"
    assert facts.get("torch.cuda") == "10.1"


@pytest.mark.parametrize(
    ("text", "package", "version"),
    [
        ("Successfully installed ms-swift-1.2.0 torch-2.1.0", "ms-swift", "1.2.0"),  # train
        (
            "Successfully installed llama-cpp-python-0.2.55 torch-2.1.0",
            "llama_cpp_python",
            "0.2.55",
        ),
        ("pip install vllm==0.2.2", "vllm", "0.2.2"),
        # train/en-0056: "the latest vllm (0.2.2) for cuda11.8 is built with torch 2.1.0"
        ("Since the latest vllm (0.2.2) for cuda11.8 is built with torch 2.1.0", "vllm", "0.2.2"),
        (
            "Requirement already satisfied: bitsandbytes==0.41.1 in ./venv/lib",
            "bitsandbytes",
            "0.41.1",
        ),
        (
            "Requirement already satisfied: bitsandbytes in ./venv/lib/python3.10/site-packages "
            "(from -r requirements.txt (line 3)) (0.41.1)",
            "bitsandbytes",
            "0.41.1",
        ),
        # train: a pin on a pip command line
        (
            "python -m pip install paddlepaddle-gpu==2.2.0.post112 -f "
            "https://www.paddlepaddle.org.cn/whl/windows/mkl/avx/stable.html",
            "paddlepaddle-gpu",
            "2.2.0.post112",
        ),
    ],
)
def test_installed_packages_from_pip_s_own_lines(text: str, package: str, version: str) -> None:
    assert Facts(ingest_text(text + "\nImportError")).get(f"pkg.{package}") == version


def test_the_torch_a_package_was_built_with_is_not_the_installed_one() -> None:
    facts = Facts(ingest_text(_case("train/en-0056")))  # vLLM built with 2.1.0; torch2.0.1 here
    assert (facts.get("pkg.vllm"), facts.get("torch.version")) == ("0.2.2", "2.0.1")
    # "compiled with PyTorch (11.7)" names a CUDA, not a torch release
    compiled = "The detected CUDA version (9.2) mismatches the version that was used to compile PyTorch (11.7)"
    assert Facts(ingest_text(compiled)).get("torch.version") is None


@pytest.mark.parametrize(
    ("line", "name", "cc"),
    [
        (
            "请问paddle支持30显卡和cuda11吗？",
            "NVIDIA GeForce RTX 30 series",
            "8.6",
        ),  # train/zh-1307
        ("i have cuda 9.1 ( GeForce GT 625M ).", "NVIDIA GeForce GT 625M", "2.1"),  # train/en-1316
        ("my laptop has a gt 625m", "NVIDIA GeForce GT 625M", "2.1"),
        ("GT740 on linux", "NVIDIA GeForce GT 740", "3.0"),
        ("760显卡", "NVIDIA GeForce GTX 760", "3.0"),
        ("I have a gtx760", "NVIDIA GeForce GTX 760", "3.0"),
        ("my 660显卡 is old", "NVIDIA GeForce GTX 660", "3.0"),
        ("my 1050ti laptop", "NVIDIA GeForce GTX 1050 Ti", "6.1"),
    ],
)
def test_gpu_names_in_more_spellings(line: str, name: str, cc: str) -> None:
    facts = Facts(ingest_text(line + "\nCUDA error: no kernel image"))
    assert (facts.get("gpu.name"), facts.get("gpu.cc")) == (name, cc)


@pytest.mark.parametrize(
    "line",
    [
        "my gt730 does not work",  # GT 730: two capabilities by variant, left out of the table
        "10显卡",  # a count as likely as the GTX 10 generation
    ],
)
def test_gpu_spellings_the_table_cannot_resolve(line: str) -> None:
    assert "gpu.prose_name" not in prose_facts([line])


def test_prose_gt_models_resolve_in_the_gpu_table() -> None:
    from envdoctor.matrix.loader import load_bundled
    from envdoctor.queries.nvidia import gpu_by_name
    from envdoctor.triage_engine.prose_gpu import _GT_MODELS

    ms = load_bundled()
    for model in _GT_MODELS:
        assert gpu_by_name(ms, f"NVIDIA GeForce GT {model}") is not None, model


@pytest.mark.parametrize(
    ("case", "line", "version"),
    [
        # English forms and prose name the installed driver as "驱动版本 470" does in Chinese
        ("003", "- Driver: 550.163.01", "550.163.01"),
        ("039", "**Reproduced on:** RTX 3060, host driver 570.211.01, CUDA 12.8.", "570.211.01"),
        ("048", "Our driver level is `418.87.01`", "418.87.01"),
        ("train/en-0178", "* NVIDIA driver: `595.71.05`", "595.71.05"),
        ("train/en-1044", "RTX 2070, driver 440.44", "440.44"),
        ("train/en-1202", "Driver: nvidia (560.35.03)", "560.35.03"),
        (
            "train/en-1220",
            "After updating the NVIDIA driver to **595.79**, Isaac Sim fails",
            "595.79",
        ),
        ("train/en-1405", "570.183 drivers didn't build on new kernel 6.17.1.", "570.183"),
        (
            "train/en-1404",
            "2. Install nvidia580 driver or reconfigure nvidia580-dkms package",
            "580",
        ),
        ("constructed", "the machine has the 525 driver", "525"),
        ("constructed", "driver 470", "470"),
    ],
)
def test_driver_in_english_words(case: str, line: str, version: str) -> None:
    assert prose_facts([line]).get("driver.version") == version


@pytest.mark.parametrize(
    "line",
    [
        # a requirement, a card's model number, a size, a longer number: no installed driver
        "[hevc_nvenc @ 0x55defbb87c00] The minimum required Nvidia driver for nvenc is 470.57.02 or newer",
        "needs driver 525 or newer",
        "GTX 470 driver crashes",
        "the driver uses 500 MB",
        "driver 4700",
    ],
)
def test_driver_words_that_name_no_installed_driver(line: str) -> None:
    assert "driver.version" not in prose_facts([line])


def test_a_branch_in_english_gives_the_drivers_cuda_as_in_chinese() -> None:
    english = Facts(ingest_text("the machine has the 470 driver\nCUDA error"))
    chinese = Facts(ingest_text("驱动版本 470\nCUDA error"))
    assert english.get("driver.cuda_max") == chinese.get("driver.cuda_max") == "11.4"


@pytest.mark.parametrize(
    ("case", "line", "version"),
    [
        (
            "train/en-1043",
            "It seems like this toolkit was incompatible with my GPUs CUDA (11.6).",
            "11.6",
        ),
        ("constructed", "my GPU's CUDA version is 12.2", "12.2"),
    ],
)
def test_my_gpus_cuda_is_the_drivers(case: str, line: str, version: str) -> None:
    assert prose_facts([line]).get("driver.cuda_max") == version


@pytest.mark.parametrize(
    ("source", "line", "name", "cc"),
    [
        # the workstation RTX cards are no GeForce, and their number is no GeForce's
        (
            "train/en-0178",
            "communication on a workstation with two RTX PRO 6000 Blackwell GPUs.",
            "NVIDIA RTX PRO 6000 Blackwell",
            "12.0",
        ),
        (
            "https://github.com/MCG-NJU/CamLiFlow/issues/9",
            "Since RTX A6000 belongs to the 30-series, CUDA 11 is required:",
            "NVIDIA RTX A6000",
            "8.6",
        ),
        (
            "https://github.com/NVlabs/alpasim/issues/37",
            "My SensorSim crashes with CUDA error: no kernel image on RTX 4000 Ada (Arch 8.9).",
            "NVIDIA RTX 4000 Ada",
            "8.9",
        ),
        (
            "https://github.com/dongdongbh/RCQL/issues/8",
            "I tried running the repository on an NVIDIA RTX 6000 Ada GPU.",
            "NVIDIA RTX 6000 Ada",
            "8.9",
        ),
    ],
)
def test_workstation_rtx_cards_get_their_capability(
    source: str, line: str, name: str, cc: str
) -> None:
    facts = Facts(ingest_text(line + "\nCUDA error"))
    assert (facts.get("gpu.name"), facts.get("gpu.cc")) == (name, cc)


def test_a_workstation_number_alone_is_no_geforce_capability() -> None:
    # "RTX 6000" alone is a Quadro RTX 6000 (Turing) or an RTX 6000 Ada: no capability is guessed
    assert Facts(ingest_text("RTX 6000\nCUDA error")).get("gpu.cc") is None


def test_a_blackwell_card_failing_in_ollama_is_no_torch_kernel_guess() -> None:
    # train/zh-1405: once "NVIDIA RTX PRO 6000" reads as sm_120, "报错" and nvidia-smi's "CUDA
    # Version" made the prose guess that PyTorch lacks its kernels; Ollama runs its own CUDA build
    from envdoctor.triage_engine import triage_text

    paste = (
        "环境：\nNVIDIA-SMI 580.105.08\nDriver Version: 580.105.08\nCUDA Version: 13.0\n"
        "GPU: NVIDIA RTX PRO 6000\n\n运行：\nollama run glm-ocr:latest\n\n报错：\n"
        "Error: 500 Internal Server Error: model failed to load, \n"
        "this may be due to resource limitations or an internal error, \n"
        "check ollama server logs for details\n"
    )
    ids = [finding.id for finding in triage_text(paste).findings]
    assert "torch.gpu-too-new-for-build" not in ids
    same_without_ollama = paste.replace("ollama run glm-ocr:latest", "python app.py")
    same_without_ollama = same_without_ollama.replace("check ollama server", "check the server")
    ids = [finding.id for finding in triage_text(same_without_ollama).findings]
    assert "torch.gpu-too-new-for-build" in ids  # the guess itself still stands


@pytest.mark.parametrize(
    ("line", "name", "cc"),
    [
        # lines of the training corpus (the case each is from)
        (
            "GPU: NVIDIA RTX PRO 6000",
            "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
            "12.0",
        ),  # zh-1405
        ("with one A10G GPU (24GB VRAM)?", "NVIDIA A10G", "8.6"),  # en-3805
        ("  0  Quadro P620      ", "Quadro P620", "6.1"),  # en-2543
        (
            "Looks like Google Cloud Run L4 gpus have 12.2 by default.",
            "NVIDIA L4",
            "8.9",
        ),  # en-7005
        ("使用H20显卡推理时，内容为空", "NVIDIA H20", "9.0"),  # zh-4102
        ("Device 1: Quadro K620, compute capability 5.0", "Quadro K620", "5.0"),  # LLamaSharp#162
        # names no corpus line holds yet, as reports write them (the GPU table's products)
        ("My GPU is H20 and vLLM fails", "NVIDIA H20", "9.0"),
        ("GPU: L20", "NVIDIA L20", "8.9"),
        ("8 GPU B200 node", "NVIDIA B200", "10.0"),
        ("RTX A4500 workstation", "NVIDIA RTX A4500", "8.6"),
        ("a Quadro RTX 5000 laptop", "Quadro RTX 5000", "7.5"),
        ("Titan Xp on Ubuntu", "NVIDIA TITAN Xp", "6.1"),
        ("TITAN RTX", "NVIDIA TITAN RTX", "7.5"),
        ("Tesla M60 in Azure", "Tesla M60", "5.2"),
        ("RTX 6000 Ada", "NVIDIA RTX 6000 Ada Generation", "8.9"),
        ("rtx 4500 ada", "NVIDIA RTX 4500 Ada Generation", "8.9"),
    ],
)
def test_named_and_data_centre_cards_resolve_in_the_gpu_table(
    line: str, name: str, cc: str
) -> None:
    assert gpu_name(line) == name
    facts = Facts(ingest_text(line + "\nCUDA error: no kernel image is available"))
    assert facts.get("gpu.cc") == cc


@pytest.mark.parametrize(
    "line",
    [
        "I drive a Tesla Model 3",
        "the l4 layer of the network",  # a short model name without a GPU word
        "b200 rows in the table",
        "GPU is busy",
        "titan x",  # a Maxwell and a Pascal card share the name
        "rtx pro tips",
    ],
)
def test_words_that_name_no_named_card(line: str) -> None:
    assert gpu_name(line) is None
