"""Facts from prose, English and Chinese: what a report says in words rather than in a dump.

The free-text reader keeps the notable lines of a paste (`pasted.text`); this module reads
versions and context from them in the phrasings reports use: "found version 11040" (the CUDA the
driver supports, CUDA's 1000*major + 10*minor), "source was compiled with 8.6.0" (cuDNN),
"驱动版本 470", "CUDA Version: 12.2", "ROCm 6.1", "tensorflow 2.15", "jaxlib 0.4.30",
"paddlepaddle-gpu 2.6"; the GPU by its number or model ("两张3090", "4090D", "特斯拉P40", "A800",
"6700xt") and its maker in words ("A卡", "N卡", "因特尔 A770m"); the context (WSL and "Linux子系统",
Docker Desktop, a container or a rented AutoDL/恒源云/矩池云 instance, Slurm, Kubernetes, conda,
Windows and Linux with their distribution, a server ("在服务器上跑", "云服务器": Linux), Jetson by
its boards' names ("Xavier NX", "AGX Orin", "TX2", "nano板子"), Grace, vLLM/Forge); and environment
assignments in scripts (`export NCCL_P2P_DISABLE=1`, `set CUDA_VISIBLE_DEVICES=0`, `ENV X=Y`,
`os.environ["X"] = "Y"`).
The free-text reader's Unicode word rules miss words glued to Chinese ("win10系统", "在WSL2里");
these patterns use ASCII ones. Each pattern holds a literal the reader keys on (`ANCHORS`), so the
lines it needs are kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from envdoctor.model.nvidia_records import cudnn_release
from envdoctor.triage_engine.prose_gpu import geforce_name, gpu_count, gpu_name, gpu_vendor

# ASCII word rules: a Chinese character next to "WSL2" or "12.1" is a boundary, as a space is
FLAGS = re.IGNORECASE | re.ASCII
__all__ = ["ANCHORS", "geforce_name", "gpu_name", "gpu_vendor", "prose_facts"]
_V = r"v?(?P<version>\d+(?:\.\d+){0,3})"
# a CUDA release as reports write it: 8.0, 9.0-9.2 (the older ones the driver table lists) or
# 10.x-13.x; never "8.6" or "8.9", which are compute capabilities
_CUDA_RELEASE = r"(?:8\.0|9\.[0-2]|1[0-3]\.\d)"
_V_TUPLE = r"(?P<version>\d+(?:, ?\d+){0,2})"  # PyTorch prints cuDNN as (8, 9, 2) or 8902

# a driver release (a branch "470", or "535.104.05"), not the start of a longer number or a size
_DRIVER = r"(?P<version>[3-5]\d{2}(?:\.\d+){0,2})(?![\d.]*\d)(?!\s*(?:mb|gb|mhz|w\b|watts?\b))"
# a line that states what a driver must be says nothing of the one installed
_NOT_A_REQUIREMENT = (
    r"^(?!.*(?:minimum|required|requires?\b|at least|or newer|or later|>=|needs?\b))"
)
# the model numbers of old cards read like a driver branch ("GTX 470", "GT 430", "Quadro 600")
_NOT_A_CARD = "".join(
    f"(?<!{name} )" for name in ("gtx", "gt", "gts", "quadro", "nvs", "tesla", "rx", "hd", "mx")
)

# (fact, regex): the first match of each fact wins, in line order
VERSION_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (fact, re.compile(text, FLAGS))
    for fact, text in (
        (
            "driver.cuda_code",
            r"driver[^\n]{0,80}?(?:too old|版本过低)[^\n]{0,40}?found version (?P<code>\d{4,5})",
        ),
        ("driver.cuda_code", r"found version (?P<code>1\d{4})\b"),
        # what `torch.__version__` prints in a REPL: a bare version with torch's local build tag
        (
            "torch.printed_version",
            r"^\s*['\"]?(?P<version>[12]\.\d+(?:\.\d+)?\+(?:cpu|cu\d{2,3}|rocm\d[\d.]*))['\"]?\s*$",
        ),
        ("driver.cuda_max", r"cuda version\s*[:：]\s*" + _V),
        # Paddle's startup line: "Driver API Version: 11.4" is cudaDriverGetVersion's (the driver's
        # highest CUDA), "Runtime API Version: 10.2" the CUDA runtime the framework runs on
        ("driver.cuda_max", r"driver api version\s*[:：]\s*" + _V),
        (
            "driver.cuda_max",
            r"(?:驱动|driver)\s*(?:(?:仅|只)(?:能)?)?\s*(?:支持(?:到)?的?|supports?)\s*(?:最高|up to)?的?\s*cuda\s*(?:版本|version)?"
            r"\s*(?:是|为|is)?\s*[:：]?\s*" + _V,
        ),
        # "最高支持cuda12.2", "支持的最高CUDA版本为12.2", "CUDA Version显示12.2" (nvidia-smi's field)
        (
            "driver.cuda_max",
            r"(?:最高(?:只|仅)?(?:能)?支持(?:到)?(?:的)?|支持(?:的)?最高(?:的)?)\s*cuda\s*(?:版本)?"
            r"\s*(?:是|为|到)?\s*[:：]?\s*" + _V,
        ),
        ("driver.cuda_max", r"cuda version\s*(?:显示|显示的是|是|为)\s*[:：]?\s*" + _V),
        # "`nvidia-smi` shows CUDA12.2", "nvidia-smi 显示 CUDA 12.4", "右上角的 CUDA 版本是 12.2" (its
        # corner), "CUDA 12.2 as shown in nvidia-smi": the driver's highest, not the toolkit
        (
            "driver.cuda_max",
            r"nvidia-smi\W{0,3}\s*(?:shows?|says|显示(?:的是|的)?|里(?:显示)?(?:的)?|中(?:显示)?(?:的)?|"
            r"上(?:显示)?(?:的)?|看到(?:的)?)\s*(?:the\s*)?cuda\s*(?:版本|version)?\s*(?:是|为|is|:|：)?\s*"
            + _V,
        ),
        (
            "driver.cuda_max",
            r"右上角(?:显示)?(?:的)?\s*cuda\s*(?:版本|version)?\s*(?:是|为|:|：)?\s*" + _V,
        ),
        (
            "driver.cuda_max",
            r"cuda\s*(?:version\s*)?v?(?P<version>1\d\.\d)\s*\(?(?:as shown (?:in|by)|from|in|per)\s*"
            r"`?nvidia-smi",
        ),
        # "nvidia-smi shows CUDA Version 12.4", "nvidia-smi 显示的 CUDA 版本是 12.2"
        (
            "driver.cuda_max",
            r"nvidia-smi[^\n]{0,40}?cuda\s*(?:版本|version)\s*(?:is|是|为|of)?\s*[:：]?\s*" + _V,
        ),
        # "incompatible with my GPUs CUDA (11.6)", "my GPU's CUDA version is 12.2": what nvidia-smi
        # prints beside the driver, as users name it
        (
            "driver.cuda_max",
            r"\bmy\s+(?:gpu|graphics card|card)(?:'s|s'?)\s+cuda\s*(?:version)?\s*(?:is|=|:|\()?\s*"
            r"v?(?P<version>1\d\.\d)\b",
        ),
        ("driver.version", r"driver version\s*[:：]?\s*(?P<version>\d{3}(?:\.\d+){1,2})"),
        # "The driver version is 470", "NVIDIA-SMI 525.60.13" (nvidia-smi's version is the driver's)
        ("driver.version", r"driver version is\s*R?(?P<version>\d{3}(?:\.\d+){0,2})(?!\.?\d)"),
        ("driver.version", r"nvidia-smi\s+(?P<version>\d{3}\.\d+(?:\.\d+)?)(?!\.?\d)"),
        (
            "driver.version",
            r"驱动(?:程序)?(?:的)?(?:版本)?(?:号)?\s*(?:是|为|:|：)?\s*[rv]?"
            r"(?P<version>\d{3}(?:\.\d+){0,2})(?!\.?\d)",
        ),
        ("driver.version", r"nvidia-driver-(?P<version>\d{3})\b"),
        # "470版本的驱动", "535的驱动", "装了550的显卡驱动" (not a card: "4090的驱动")
        (
            "driver.version",
            r"(?<![\d.])(?P<version>[3-5]\d{2}(?:\.\d+){0,2})\s*(?:版本)?(?:的)?\s*"
            r"(?:nvidia\s*|n卡\s*|显卡\s*)?驱动",
        ),
        # English forms and prose: "- Driver: 550.163.01", "host driver 570.211.01", "Our driver
        # level is `418.87.01`", "NVIDIA driver: `595.71.05`", "updating the NVIDIA driver to
        # **595.79**", "driver 470" (a branch, as "驱动版本 470"); never a requirement ("The
        # minimum required Nvidia driver for nvenc is 470.57.02 or newer", "needs driver 525+")
        (
            "driver.version",
            _NOT_A_REQUIREMENT + r".*?\bdrivers?(?:\s+(?:level|version))?\s*(?:is|was|to|=|:|：)?"
            r"\s*(?:nvidia\s*)?[(`*\s]*[rv]?" + _DRIVER,
        ),
        # "the 525 driver", "470 drivers", "nvidia580 driver", "570.183 drivers didn't build" (not
        # a card's number: "GTX 470 driver")
        (
            "driver.version",
            _NOT_A_REQUIREMENT
            + r".*?(?<![\w.])(?:nvidia-?)?"
            + _NOT_A_CARD
            + _DRIVER
            + r"\s*(?:series\s+|branch\s+)?(?:nvidia\s+|gpu\s+|graphics\s+)?drivers?\b",
        ),
        # "I just installed a 3090, NVIDIA 455.23.04": the maker's name before a full driver
        # release (three dotted parts, or a branch and a two- or three-digit build)
        ("driver.version", r"\bnvidia\s+(?P<version>[3-5]\d{2}\.\d{2,3}(?:\.\d{2})?)(?![\d.]*\d)"),
        # a Windows driver file version (23.21.13.9135) carries NVIDIA's (391.35) in its tail
        (
            "driver.winfile",
            r"\b[23]\d\.\d{2}\.1(?P<major1>\d)\.(?P<major2>\d{2})(?P<minor>\d{2})\b",
        ),
        # "NVIDIA driver 535.104.05", "Nvidia Driver: v550.78", "NVIDIA驱动版本：470"
        (
            "driver.version",
            r"nvidia(?:-| )?(?:driver|驱动)\s*(?:version|版本)?\s*(?:是|为|is\b|:|：)?\s*[rv]?"
            r"(?P<version>\d{3}(?:\.\d+){0,2})\b",
        ),
        (
            "cudnn.compiled",
            r"(?:source was compiled with|compiled (?:against|with) cudnn)[^\n]{0,20}?" + _V,
        ),
        ("cudnn.version", r"loaded runtime cudnn library[^\n]{0,10}?" + _V),
        # PyTorch's check: "PyTorch was compiled against 7102 but linked against 7605", or
        # "... against (8, 9, 2) but found runtime version (8, 5, 0)"
        ("cudnn.compiled", r"pytorch was compiled\s+against \(?" + _V_TUPLE),
        (
            "cudnn.version",
            r"pytorch was compiled\s+against [^\n]{0,16}?but (?:linked against|found runtime "
            r"version) \(?" + _V_TUPLE,
        ),
        # NVIDIA's archive names: "cudnn-windows-x86_64-8.6.0.163_cuda11", "cudnn-linux-x86_64-8.9.7.29_cuda12-archive"
        (
            "cudnn.version",
            r"cudnn-(?:windows|linux)-(?:x86_64|sbsa|aarch64|ppc64le)-(?P<version>[5-9]\.\d+\.\d+)",
        ),
        (
            "cudnn.version",
            r"(?<!with )cudnn\s*(?:version|版本)?(?: in your machine)?\s*(?:is\s|是|为)?\s*[:：=]?\s*"
            + r"v?(?P<version>[5-9]\.\d+(?:\.\d+){0,3})(?!\.?\d)",
        ),
        # TensorFlow's issue form "CUDA/cuDNN version: 10.2.89 / 7.6" ("11.2/8.1", "CUDA 11.0,
        # cuDNN 8.0.4"): the toolkit first, then cuDNN
        (
            "cuda.runtime",
            r"cuda\s*/\s*cudnn\s*(?:version|版本)?\s*[:：]?\s*(?:cuda\s*)?v?(?P<version>(?:[89]|1[0-3])\.\d)",
        ),
        (
            "cudnn.version",
            r"cuda\s*/\s*cudnn\s*(?:version|版本)?\s*[:：]?\s*(?:cuda\s*)?v?(?:[89]|1[0-3])(?:\.\d+){1,2}"
            r"\s*(?:/|,|;|\+|and|&)?\s*(?:cudnn\s*)?(?:v|version\s*)?(?P<version>[5-9](?:\.\d+){1,3})(?!\.?\d)",
        ),
        (
            "cuda.pinned",
            r"(?:cudatoolkit|pytorch-cuda|cuda-version)\s*[=:]{1,2}\s*(?P<version>1\d\.\d)\b",
        ),
        ("cuda.runtime", r"cuda (?:runtime|toolkit)\s*(?:version)?\s*[:：]?\s*" + _V),
        # also the installer's name: "cuda_11.8.0_522.06_windows", and "cuda v.11.6.2"
        (
            "cuda.runtime",
            r"cuda(?:-toolkit)?[-_ ]?(?:v\.?)?(?P<version>" + _CUDA_RELEASE + r")(?:\.\d+)?\b",
        ),
        (
            "cuda.runtime",
            r"cuda\s*(?:版本\s*(?:是|为|:|：)?|是|为|用的是)\s*v?(?P<version>"
            + _CUDA_RELEASE
            + r")\b",
        ),
        # "cuda is 12.4", "my system's cuda is 11.7": the CUDA a report says it installed (not
        # "CUDA Version is 12.3", which may be nvidia-smi's: the driver's)
        ("cuda.runtime", r"(?<![a-z_.])cuda\s+is\s+v?(?P<version>" + _CUDA_RELEASE + r")\b"),
        # a `conda list` row "cudatoolkit               11.3.1     h2bc3f7f_2": the env's CUDA runtime
        ("cuda.runtime", r"^\s*cudatoolkit\s{2,}(?P<version>" + _CUDA_RELEASE + r")\.\d"),
        # an environment listing's "CUDA：11.8" / "CUDA: 12.0.1" (nvidia-smi's is "CUDA Version:")
        ("cuda.runtime", r"(?<![a-z_.])cuda\s*[:：]\s*v?(?P<version>" + _CUDA_RELEASE + r")(?!\d)"),
        # "nvcc -V 显示 11.8", "nvcc --version says 12.1": the toolkit's version in words
        (
            "cuda.nvcc_words",
            r"nvcc(?: -v| --version)?[`'\"]*,?\s*(?:显示(?:的是)?|shows?|says|is|reports|是|为|:|：|"
            r"(?:i|it|we) (?:get|got|see|saw)|gives?|gave|returns?|prints?)\s*(?:cuda\s*)?"
            r"v?(?P<version>" + _CUDA_RELEASE + r")\b",
        ),
        (
            "rocm.version",
            r"rocm\s*(?:version)?\s*[:：]?\s*" + r"v?(?P<version>[3-7]\.\d+(?:\.\d+)?)",
        ),
        # HIP's version is the ROCm release's ("HIP version: 6.0.32830" is ROCm 6.0)
        ("rocm.version", r"hip version\s*[:：]?\s*(?P<version>[3-7]\.\d+)"),
        # "tensorflow-gpu==1.3.0", "tensorflow_gpu-1.15.0" (a wheel), an issue form's "TensorFlow
        # version (use command below): 2.1.0", "TensorFlow版本：2.6.0", a `pip list` / `conda list`
        # row "tensorflow-gpu  2.10.0  pypi_0" (not tensorflow-metal's, tensorflow-hub's own)
        (
            "tf.version",
            r"tensorflow(?:[-_](?:gpu|cpu|intel|macos))?\s*(?:version|版本)?\s*(?:\([^)\n]{0,40}\))?"
            r"\s*(?:是|为|is\b)?\s*[:：=-]{0,2}\s*[`'\"]?v?(?P<version>[12]\.\d+(?:\.\d+)?)(?!\.?\d)",
        ),
        (
            "tf.version",
            r"\btf\s*(?:version|版本|\.__version__)?\s*(?:是|为|is\b|:|：|==?)?\s*[`'\"]?"
            r"v?(?P<version>[12]\.\d{1,2}(?:\.\d+)?)(?!\.?\d)",
        ),
        (
            "jax.version",
            r"jax(?:lib)?\s*(?:version|版本)?\s*(?:是|为|is\b)?\s*[:：=]{0,2}\s*[`'\"]?"
            r"v?(?P<version>0\.\d+(?:\.\d+)?)",
        ),
        # the CUDA of a paddlepaddle-gpu wheel: "paddlepaddle-gpu==2.4.2.post117",
        # "paddlepaddle-gpu-2.2.1.post112" (facts.py reads it)
        (
            "paddle.post",
            r"paddle(?:paddle)?[-_]gpu\s*(?:版本|version)?\s*[:：=-]{0,2}\s*"
            r"v?(?P<version>[123]\.\d+(?:\.\d+)?\.post\d{2,3})\b",
        ),
        # "onnxruntime-gpu 1.17.1", "onnxruntime-gpu==1.16.2", ONNX Runtime's issue form "ONNX Runtime
        # version: 1.17.1", a `pip list` row
        # a release archive's name: "onnxruntime-win-x64-cuda12-1.17.1", "onnxruntime-linux-x64-gpu-1.16.3.tgz"
        (
            "ort.version",
            r"onnxruntime-(?:win|linux|osx)-[a-z0-9_-]*?-(?P<version>1\.\d{1,2}\.\d+)(?!\.?\d)",
        ),
        (
            "ort.version",
            r"onnx\s*runtime(?:[-_](?:gpu|directml|openvino|training|silicon))?\s*(?:version|版本)?\s*"
            r"(?:是|为|is\b)?\s*[:：=]{0,2}\s*[`'\"]?v?(?P<version>1\.\d{1,2}(?:\.\d+)?)(?!\.?\d)",
        ),
        (
            "paddle.version",
            r"(?:paddle(?:paddle)?(?:-gpu)?|飞桨)\s*(?:version|版本)?\s*(?:是|为)?\s*[:：=]{0,2}\s*"
            + r"v?(?P<version>[123]\.\d+(?:\.\d+)?)",
        ),
        # "PyTorch 2.1.0", "torch==2.5.1", "pytorch版本 2.3.1", "torch2.3.1" (not torchvision),
        # an issue form's "PyTorch Version is `1.1.0`" and pip show's "pytorch: Version: 2.0.1"; not the torch a package was built for
        # ("vllm is built with torch 2.1.0"), nor the pin pip did not find ("No matching
        # distribution found for torch==1.13.1+cu117": not installed)
        (
            "torch.prose_version",
            r"(?<![a-z0-9_-])(?<!built\swith\s)(?<!built\sfor\s)(?<!built\sagainst\s)"
            r"(?<!compiled\swith\s)(?<!compiled\sfor\s)(?<!requirement\s)(?<!found\sfor\s)"
            r"(?:py)?torch(?![a-z_-])\s*(?:[:：]\s*)?(?:版本|version)?\s*"
            r"(?:是|为|:|：|==?|is\b)?\s*[`'\"]?"
            r"v?(?P<version>[12]\.\d{1,2}(?:\.\d+)?(?:(?:a|b|rc|\.dev)\d+)?"
            r"(?:\+(?:cpu|cu\d{2,3}|cuda\d{3}|rocm[\d.]+))?)(?!\.?\d)",
        ),
        # "Python 3.12.1", "python版本：3.7", "python=3.8" (not a path's python3.10/, nor the
        # Python a message asks for: "Please install Python 3.10.0 or higher", "requires Python 3.9")
        (
            "python.version",
            r"(?<![a-z0-9_/\\.-])(?<!please\sinstall\s)(?<!requires\s)(?<!needs\s)"
            r"python\s*(?:版本|version)?\s*(?:是|为|:|：|==?)?\s*"
            r"v?(?P<version>3\.\d{1,2}(?:\.\d+)?)(?!\.?\d|/)",
        ),
    )
)

CONTEXT_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (fact, re.compile(text, FLAGS))
    for fact, text in (
        ("ctx.docker_desktop", r"docker desktop|docker-desktop|desktop-linux"),
        ("ctx.slurm", r"\bslurm|\bsbatch\b|\bsrun\b|#SBATCH"),
        ("ctx.kubernetes", r"kubernetes|\bk8s\b|kubectl|kubelet|device-plugin|nvidia\.com/gpu"),
        # mamba / micromamba, not the Mamba model's package (mamba_ssm, mamba-ssm)
        (
            "ctx.conda",
            r"\bconda\b|anaconda|miniconda|(?<![a-z0-9_-])(?:micro)?mamba(?![a-z0-9_-])|"
            r"site-packages.{0,40}envs/",
        ),
        ("ctx.grace", r"\bgrace\b|\bgh200\b|\bgb200\b|aarch64|arm64|sbsa"),
        # "Windows的Linux子系统", "ubuntu子系统": how Chinese reports name WSL
        ("os.wsl", r"\bwsl2?\b|microsoft-standard|/usr/lib/wsl|(?:linux|ubuntu|windows)\s*子系统"),
        (
            "os.linux",
            r"\b(?:linux|ubuntu|debian|centos|fedora|rhel|rocky|opensuse|manjaro|deepin|openeuler|"
            r"kylin)(?:\s?\d[\d.]*)?\b|统信|麒麟|宝塔|"
            # what only a Linux host prints: the driver's kernel log, DKMS, module tools, apt
            r"\bNVRM:|\bdkms\b|\bmodprobe\b|/lib/modules/|\bapt(?:-get)? install\b|"
            r"x86_64-linux-gnu|"
            # a server or a rented GPU host: "在服务器上跑", "云服务器", "实验室的服务器", AutoDL
            r"服务器\s*(?:上|里|端|中)|云服务器|云主机|(?:gpu|算力|租用?的?|实验室的?|学校的?|公司的?)\s*服务器|"
            r"autodl|恒源云|gpushare|矩池云|matpool",
        ),
        # inside a container: "docker容器里", "容器内"; the rented GPU hosts (AutoDL, 恒源云
        # gpushare, 矩池云 matpool) hand out containers whose driver is the host's; the HPC
        # runtimes (Apptainer / Singularity, Enroot with pyxis' srun --container-image) and
        # Kubernetes pods are containers too
        (
            "os.container",
            r"\bdocker\b|\bpodman\b|容器|autodl|恒源云|gpushare|矩池云|matpool|\bapptainer\b|"
            r"\bsingularity\b|\benroot\b|\bpyxis\b|--container-image|\bkubectl\b|\bk8s\b|kubernetes",
        ),
        # the boards by name ("Xavier NX", "AGX Orin", "TX2"), and the Nano as Chinese reports name
        # it: "nano盒子", "nano板子", "nano开发板"
        (
            "jetson",
            r"\bjetson|jetpack|\bl4t\b|tegra|\bxavier\b|\borin\b|\btx[12]\b|\bagx\b|"
            r"\bnano\s*(?:盒子|板子|开发板|板卡|主板|b01\b)",
        ),
        # apps named glued to Chinese ("用vllm部署", "forge版本"): the reader's word rules miss them
        ("app.vllm", r"\bvllm\b"),
        ("app.forge", r"webui-forge|\bforge\b"),
        ("os.windows", r"\bwindows\b|\bwin(?:dows)?\s?1[01]\b|[a-z]:\\\\|\.dll\b|\.exe\b"),
        # Windows programs run on Linux: Wine and Proton (through Lutris, gamescope), whose
        # prefixes hold a drive_c folder; their .exe and .dll names say nothing of the host
        ("os.wine", r"\bwine(?:64)?\b|\bproton\b|\blutris\b|\bgamescope\b|/drive_c/"),
    )
)

# a CPU-only torch in words: "torch装的是cpu版本", "cpu版本的pytorch", "识别的却是2.3.1的cpu版本"
# (with torch named on the line); not "不是cpu版", nor a past state fixed since ("之前是cpu版，换成了...")
CPU_BUILD = re.compile(
    r"(?:(?<!不)是|为|装成了?|装的|安装的|下载的|变成了?|成了|默认)\s*(?:[12]\.\d+(?:\.\d+)?\s*(?:的)?\s*)?"
    r"cpu\s*(?:版|的版本)|cpu\s*版(?:本)?的\s*(?:py)?torch",
    FLAGS,
)
_CPU_BUILD_NOT = re.compile(
    r"不是\s*cpu|并非|而不是|之前|以前|原来|换成|改成|卸载|cuda版|gpu版", FLAGS
)
_TORCH_WORD = re.compile(r"(?<![a-z])(?:py)?torch(?![a-z])", FLAGS)

# the distribution by name, glued to Chinese or a version ("centos7服务器", "ubuntu22.04系统")
DISTRO = re.compile(  # not a container image's name or tag ("ubuntu:latest", "-ubuntu22.04")
    r"(?<![a-z/:-])(ubuntu|debian|centos|fedora|rocky|rhel|opensuse|manjaro|almalinux)(?![a-z])"
    r"(?!:[\w.])",
    FLAGS,
)

_ENV_NAME = (
    r"(?P<name>(?:CUDA|NCCL|TORCH|PYTORCH|HSA|HIP|ROCR|LD|TF|XLA|OLLAMA|NVIDIA|CUBLAS|"
    r"CUDNN|OMP|TRITON|VLLM|JAX|FLAGS|ZE|SYCL|BNB|OPENBLAS)_[A-Z0-9_]{2,40})"
)
# NAME=value (after export/set/env or none), or NAME value only after setx / a Dockerfile's ENV:
# "CUBLAS_STATUS_NOT_SUPPORTED when calling" and "CUDA_VISIBLE_DEVICES 没有设置" assign nothing
_ENV_ASSIGNMENT = re.compile(
    r"(?:^|[\s;&(])(?:(?:export\s+|set\s+|\$env:)?"
    + _ENV_NAME
    + r"\s*=|(?:setx|ENV)\s+"
    + _ENV_NAME.replace("name", "name2")
    + r"\s)\s*['\"]?(?P<value>[^'\"\s;]{1,120})"
)
_OS_ENVIRON = re.compile(
    r"os\.environ\[\s*['\"](?P<name>[A-Z][A-Z0-9_]{2,40})['\"]\s*\]\s*=\s*['\"](?P<value>[^'\"]{0,120})"
    r"(?P<name2>)"
)

ANCHORS = (
    "found version",
    "nvcc",
    "cuda是",
    "cuda为",
    "cuda version",
    "driver version",
    "驱动",
    "compiled with",
    "cudnn",
    "cudatoolkit",
    "pytorch-cuda",
    "rocm",
    "tensorflow",
    "jax",
    "paddle",
    "docker desktop",
    "docker-desktop",
    "slurm",
    "sbatch",
    "srun",
    "kubernetes",
    "k8s",
    "kubectl",
    "conda",
    "aarch64",
    "arm64",
    "grace",
    "gh200",
    "wsl",
    "export ",
    "os.environ",
    "setx ",
    "$env:",
    "_visible_devices",
    "nccl_",
    "python",
    "torch",
    "tf version",
    "tf版本",
    "tf.__version__",
    "onnxruntime",
    "onnx runtime",
    "tf2.",
    "tf 2.",
    "tf1.",
    "tf 1.",
    "tf==",
    "飞桨",
    "nvidia-smi",
    "显卡",
    "张",
    "块",
    "台",
    "telsa",
    "特斯拉",
    "a800",
    "h800",
    "h20",
    "l20",
    "p40",
    "p100",
    "k80",
    "m40",
    "a6000",
    "a5000",
    "a4000",
    "我的是",
    "用的是",
    "租的",
    "租了",
    "n卡",
    "单卡",
    "双卡",
    *(f"{d}卡" for d in "0123456789"),
    *(f"rx{s}{d}" for s in ("", " ") for d in "456789"),
    "0xt",
    "0 xt",
    "0gre",
    "子系统",
    "容器",
    "docker",
    "podman",
    "autodl",
    "恒源云",
    "gpushare",
    "矩池云",
    "matpool",
    "linux",
    "cpu版",
    "cpu 版",
    # specific words only: a common one ("服务器", "型号") would keep many lines of every report
    "云服务器",
    "云主机",
    "gpu服务器",
    "xavier",
    *(f"orin{w}" for w in (" nx", " nano", "上", "板")),  # not "orin": "original", "orientation"
    "agx",
    "tx2",
    *(f"nano{w}" for w in ("盒子", "板子", "开发板", "板卡", "主板")),
    "因特尔",
    "丽台",
    *("七彩虹", "技嘉", "华硕", "微星", "影驰", "索泰", "铭瑄", "映众", "耕升"),
    *(
        "系显卡",
        "系列显卡",
        "系的卡",
        "系的显卡",
        "rtx30",
        "rtx40",
        "rtx50",
        "rtx 30",
        "rtx 40",
        "rtx 50",
    ),
    "显卡型号",
    *(f"{d}s" for d in ("1660", "2060", "2070", "2080")),
    "v100",
    "a100",
    "h100",
    "h200",
    *(f"a{n}" for n in ("380", "580", "750", "770", "370m", "730m", "770m")),
    "b580",
    "ubuntu",
    "debian",
    "centos",
    "fedora",
    "rocky",
    "deepin",
    "openeuler",
    "kylin",
    "统信",
    "麒麟",
    "宝塔",
    "windows",
    "win1",
    "最高",
    "a卡",
    "英伟达",
    "英特尔",
    "锐炫",
    "amd",
    "右上角",
    "vllm",
    "rtx",
    "gtx",
    *(f"gt{s}{d}" for s in ("", " ") for d in "67"),  # GeForce GT models: "gt 625m", "gt740"
    "forge",
    "rhel",
    "almalinux",
    "opensuse",
    "manjaro",
)


def _cpu_build_named(line: str) -> bool:
    """Whether a line says the torch installed is the CPU-only build."""
    return bool(
        _TORCH_WORD.search(line) and CPU_BUILD.search(line) and not _CPU_BUILD_NOT.search(line)
    )


# `pip show torch`: "Name: torch" then "Version: 2.0.1+cu118" on the next line
_PIP_SHOW_TORCH = re.compile(r"\s*name:\s*torch\s*$", FLAGS)
_PIP_SHOW_VERSION = re.compile(
    r"\s*version:\s*(?P<version>[12]\.\d{1,2}(?:\.\d+)?(?:\+(?:cpu|cu\d{2,3}|rocm[\d.]+))?)\s*$",
    FLAGS,
)


# facts whose last mention wins: `torch.__version__` printed before and after a step of the
# paste ("before: 2.2.0+cu121 ... after pip install -r requirements.txt: 2.3.0+cpu") is the
# installed torch at its last print
LATEST_WINS = frozenset({"torch.printed_version"})


def prose_facts(lines: Iterable[str]) -> dict[str, object]:
    """{fact: value} read from the notable lines (first mention wins, but the last for the facts
    of `LATEST_WINS`), with `env` holding the environment assignments seen."""
    facts: dict[str, object] = {}
    env: dict[str, str] = {}
    previous = ""
    for line in lines:
        if len(line) > 2000:
            line = line[:2000]
        shown = _PIP_SHOW_VERSION.match(line) if _PIP_SHOW_TORCH.match(previous) else None
        if shown and "torch.prose_version" not in facts:
            facts["torch.prose_version"] = shown.group("version")
        previous = line
        line_max = None  # the driver's CUDA this line names: the same number is no toolkit
        for fact, regex in VERSION_PATTERNS:
            if fact == "driver.cuda_max" and line_max is None:
                found = regex.search(line)
                line_max = found.group("version") if found else None
            if fact in LATEST_WINS:
                pass  # a later print is the state after what the paste changed in between
            elif fact in facts or (fact == "driver.cuda_code" and "driver.cuda_max" in facts):
                continue
            match = regex.search(line)
            if match is None:
                continue
            if fact == "cuda.runtime" and line_max and match.group("version") == line_max:
                continue
            if fact == "driver.cuda_code":
                code = int(match.group("code"))
                facts["driver.cuda_max"] = f"{code // 1000}.{(code % 1000) // 10}"
                continue
            if fact == "driver.winfile":
                if "driver.version" not in facts:
                    parts = match.group("major1"), match.group("major2"), match.group("minor")
                    facts["driver.version"] = f"{parts[0]}{parts[1]}.{parts[2]}"
                continue
            facts[fact] = match.group("version")
        if "gpu.prose_name" not in facts:
            name = gpu_name(line)
            if name:
                facts["gpu.prose_name"] = name
        if "gpu.prose_count" not in facts:
            count = gpu_count(line)
            if count:
                facts["gpu.prose_count"] = count
        if "gpu.prose_vendor" not in facts:
            vendor = gpu_vendor(line)
            if vendor:
                facts["gpu.prose_vendor"] = vendor
        for fact, regex in CONTEXT_PATTERNS:
            if fact not in facts and regex.search(line):
                facts[fact] = True
        if "torch.prose_build" not in facts and _cpu_build_named(line):
            facts["torch.prose_build"] = "cpu"
        if "os.distro" not in facts:
            distro = DISTRO.search(line)
            if distro:
                facts["os.distro"] = distro.group(1).lower()
        for regex in (_ENV_ASSIGNMENT, _OS_ENVIRON):
            for match in regex.finditer(line):
                name = match.group("name") or match.group("name2")
                env.setdefault(name.upper(), match.group("value"))
    if "cuda.nvcc_words" in facts:  # what nvcc printed outranks the CUDA a report installed
        facts["cuda.runtime"] = facts.pop("cuda.nvcc_words")
    facts.pop("driver.cuda_code", None)
    facts.pop("driver.winfile", None)
    for fact in ("cudnn.version", "cudnn.compiled"):
        if fact in facts:
            facts[fact] = cudnn_release(str(facts[fact]))
    if "torch.prose_version" in facts:  # "torch1.10.0+cuda111": the wheel's local tag is cu111
        facts["torch.prose_version"] = re.sub(
            r"\+cuda(\d{3})$", r"+cu\1", str(facts["torch.prose_version"])
        )
    if env:
        facts["env"] = env
    return facts
