"""The vocabulary of the free-text reader (`envdoctor.ingest.free_text`): the words that make a
line notable, and the patterns its facts are read with (errors, traceback frames, GPU names,
compute capabilities, package versions, drivers, operating systems, applications), with the small
functions that normalise what they match.
"""

from __future__ import annotations

import re

from envdoctor.model.extensions import EXTENSION_MODULES
from envdoctor.model.names import canonical_name

GENERIC_KEYWORDS = (
    "error",
    "exception",
    "failed",
    "failure",
    "fatal",
    "traceback",
    "cannot",
    "can't",
    "couldn't",
    "could not",
    "unable",
    "not found",
    "no such",
    "denied",
    "invalid",
    "unsatisfied",
    "mismatch",
    "incompatible",
    "not compatible",
    "too old",
    "out of memory",
    "aborted",
    "segmentation fault",
    "undefined symbol",
    "warning",
    "not available",
    "no gpu",
    "not detected",
    "报错",
    "错误",
    "失败",
    "显存",
    "内存不足",
    "无法",
    "找不到",
)
FACT_KEYWORDS = (
    "geforce",
    "rtx",
    "gtx",
    "quadro",
    "tesla",
    "titan",
    "radeon",
    "instinct",
    "nvidia",
    " arc ",
    "a100",
    "h100",
    "h200",
    "b200",
    "l40",
    "v100",
    "t4 ",
    "a10g",
    "jetson",
    "jetpack",
    "l4t",
    "tegra",
    "gfx",
    "capabilit",
    "sm_",
    "torch",
    "tensorflow",
    "tensor flow",
    "jax",
    "xformers",
    "flash",
    "bitsandbytes",
    "cudatoolkit",
    "cudnn",
    "cuda",
    "driver",
    "python",
    "windows",
    "win1",
    "wsl",
    "macos",
    "mac os",
    "ubuntu",
    "debian",
    "fedora",
    "centos",
    "arch linux",
    "opensuse",
    "gentoo",
    "cachyos",
    "docker",
    "container",
    "nvcr.io",  # an NGC image: its release names the CUDA and driver (triage_engine.ngc)
    "triton",
    "kubernetes",
    "podman",
    "comfy",
    "webui",
    "automatic1111",
    "a1111",
    "forge",
    "ollama",
    "vllm",
    'file "',
    ".so",
    ".pyd",
    ".dll",
    "site-packages",
    "dist-packages",
    "level=",
    "version",
    "successfully installed",  # pip's lines: what it installed, the versions a command pins
    "pip install",
    "pip3 install",
    "aarch64",
    "arm64",
    "x86_64",
)

ERROR_LINE = re.compile(
    r"\b(?:error|exception|failed|failure|fatal|cannot|can't|couldn't|could not|unable|not found|"
    r"no such|denied|invalid|unsatisfied|mismatch|incompatible|not compatible|too old|"
    r"out of memory|aborted|segmentation fault|undefined symbol)\b|"
    r"\w+Error\b|报错|错误|失败|显存不足|无法",
    re.IGNORECASE,
)
FRAME = re.compile(
    r'File "(?P<file>[^"]{1,400})", line (?P<line>\d{1,7})(?:, in (?P<func>[^\s,]{1,200}))?'
)
RICH_FRAME = re.compile(
    r"(?P<file>(?:[A-Za-z]:)?[\\/][^\s:│]{1,400}\.py):(?P<line>\d{1,7}) in (?P<func>[\w<>.]{1,200})"
)
IPY_FRAME = re.compile(r"(?P<file>~?/[^\s]{1,400}\.py) in (?P<func>[\w<>.]{1,200})\(")
SO_NAME = re.compile(
    r"(?P<name>[A-Za-z_][\w]{0,100})(?:\.cpython-\d{2,3}[\w-]{0,60}|\.abi3)?\.(?:so|pyd)\b"
)
SITE_PACKAGE = re.compile(r"(?:site|dist)-packages[\\/](?P<pkg>[A-Za-z_][\w]{0,100})")
CPP_EXTENSION = re.compile(r"torch[\\/]utils[\\/]cpp_extension\.py")
TORCH_LIBS = re.compile(
    r"^(?:lib)?(?:torch|c10|caffe2|cuda|cudart|cublas|cudnn|nvrtc|nvjitlink|"
    r"cusparse|cufft|curand|cusolver|nccl|gomp|stdc|_C$|_C_flatbuffer|"
    r"nvToolsExt|shm|torch_python)",
    re.IGNORECASE,
)
COMPANIONS = ("torchvision", "torchaudio", "torchtext", "_torch_sox", "torchdata")
# CUDA-extension packages: compiled against one torch build, broken by another.
EXTENSION_PACKAGES = EXTENSION_MODULES

# ASCII word rules: "显卡是RTX 4090", "在A100上" name a GPU although Chinese characters touch
# its name (in Unicode mode they are word characters and `\b` would not hold there)
WORDS_ASCII = re.IGNORECASE | re.ASCII
GPU_PATTERNS = (
    re.compile(
        # notebook chips keep their M / MX ("GeForce GT 625M", "GeForce 940M", "GT 640M LE"):
        # a GTX 960M is sm_50, a GTX 960 sm_52
        r"\b(?:NVIDIA\s+)?GeForce\s+(?:(?:RTX|GTX|GTS|GT|MX)\s?\d{3,4}|\d{3}(?=M))"
        r"(?:MX\b|M\b)?(?:\s?(?:Ti|SUPER))?(?:\s(?:LE|BOOST)\b)?"
        r"(?:\s(?:Laptop GPU|Mobile))?(?:\s?D\b)?",
        WORDS_ASCII,
    ),
    # the workstation cards before a GeForce's number ("RTX 4000 Ada" is no "RTX 4000")
    re.compile(r"\b(?:NVIDIA\s+)?(?:RTX\s+)?(?:PRO\s+)?(?:A|RTX\s)?\d{4}\s+Ada\b", WORDS_ASCII),
    re.compile(r"\bNVIDIA\s+RTX\s+A\d{3,4}\b|\bRTX\s+A\d{4}\b", WORDS_ASCII),
    re.compile(r"\b(?:NVIDIA\s+)?RTX\s+PRO\s+\d{4}(?:\s+Blackwell)?\b", WORDS_ASCII),
    re.compile(r"\b(?:NVIDIA\s+)?(?:RTX|GTX)\s?-?\d{3,4}(?:\s?(?:Ti|SUPER))?\b", WORDS_ASCII),
    re.compile(r"\b(?:NVIDIA\s+)?Quadro\s+(?:RTX\s+)?[A-Z]{0,2}\d{2,4}[A-Z]?\b", WORDS_ASCII),
    re.compile(r"\b(?:NVIDIA\s+)?Tesla\s+[A-Z]\d{1,4}[A-Z]{0,2}\b", WORDS_ASCII),
    re.compile(
        r"\bNVIDIA\s+(?:[AHBLTV]\d{1,3}[A-Z]?|GH200|GB200|GB10)(?:[- ](?:SXM\d?|PCIe|NVL))?"
        r"(?:[- ]\d{2,3}GB)?(?:\s+HBM\d\w?)?\b",
        re.ASCII,
    ),
    re.compile(r"\b(?:A100|H100|H200|B200|L40S?|V100|A10G|A30|A40|GH200|GB200)\b", re.ASCII),
    re.compile(r"\b(?:NVIDIA\s+)?TITAN\s+(?:RTX|Xp?|V|Black|Z)\b", WORDS_ASCII),
    re.compile(
        r"\b(?:NVIDIA\s+)?Jetson\s+(?:AGX\s+)?(?:Orin|Xavier|Nano|TX2|TX1|Thor)(?:\s+(?:NX|Nano))?\b",
        WORDS_ASCII,
    ),
    re.compile(
        r"\b(?:AMD\s+)?Radeon\s+(?:RX\s?)?(?:Pro\s+)?[A-Z]?\d{3,4}[A-Z]?(?:\s?(?:XTX|XT|GRE))?\b",
        WORDS_ASCII,
    ),
    re.compile(r"\b(?:AMD\s+)?Instinct\s+MI\d{2,3}[A-Z]?\b", WORDS_ASCII),
    re.compile(r"\bRX\s?\d{4}(?:\s?(?:XTX|XT|GRE))?\b", WORDS_ASCII),
    re.compile(
        r"\bIntel(?:\(R\))?\s+(?:Arc(?:\(TM\))?\s+[AB]\d{3}\w?|(?:UHD|Iris(?: Xe| Plus)?|HD)\s+Graphics(?:\s+\d{3,4})?)",
        WORDS_ASCII,
    ),
    re.compile(r"\b(?P<num>[1-9]\d{3})\s?(?P<suffix>ti|super)\b", WORDS_ASCII),
)
GPU_HINT = re.compile(
    r"geforce|rtx|gtx|quadro|tesla|titan|radeon|instinct|nvidia|a100|h100|h200|b200|"
    r"l40|v100|a10g|jetson|\brx|intel|\dti\b|\d ti\b|super|a30|a40|gb10|gh200|gb200",
    re.ASCII,
)
# GPU_HINT in two halves that hold together exactly when it does: its plain words (looked for
# with `in`, far faster than the regular expression's scan of every position) and the rest.
GPU_HINT_WORDS = (
    "geforce", "rtx", "gtx", "quadro", "tesla", "titan", "radeon", "instinct", "nvidia", "a100",
    "h100", "h200", "b200", "l40", "v100", "a10g", "jetson", "intel", "super", "a30", "a40",
    "gb10", "gh200", "gb200",
)  # fmt: skip
GPU_HINT_REST = re.compile(r"\brx|\dti\b|\d ti\b", re.ASCII)
GPU_HINT_REST_GATE = ("rx", "ti")
# "compute capability 8.6", "CUDA capability sm_86", "CUDA Compute Capability version: 2.1";
# Paddle's startup line ("Please NOTE: device: 0, GPU Compute Capability: 8.6, ..."; before
# Paddle 2.1 "CUDA Capability: 61", the digits run together)
CC = re.compile(
    r"(?:compute|cuda)\s+capability(?:\s+version)?(?:\s+of)?(?:\s+\(cc\))?(?:\s+(?:is\s+)?|\s*:\s*)"
    r"(?:sm_(?P<sm>\d{2,3})|(?P<major>\d{1,2})\.(?P<minor>\d)|(?:(?<=:)|(?<=: ))(?P<packed>\d{2,3})\b(?!\.))",
    re.IGNORECASE,
)
OLLAMA_COMPUTE = re.compile(r"\bcompute=(?P<major>\d{1,2})\.(?P<minor>\d)\b")
ARCH_LIST = re.compile(
    r"supports CUDA capabilities\s+(?P<list>(?:sm_\d{2,3}a?\s*){1,40})", re.IGNORECASE
)
MIN_CC = re.compile(
    r"minimum cuda capability (?:supported by this library )?is (?P<cc>\d{1,2}\.\d)", re.IGNORECASE
)
GFX = re.compile(r"\bgfx(?:\d{3,4}|90a|90c)\b", re.IGNORECASE)
VERSION = (
    r"v?(?P<version>\d{1,4}(?:\.\d{1,8}){1,3}(?:\.(?:post|dev)\d{1,12}|[a-z]{1,5}\d{0,12})?"
    r"(?:\+[\w.-]{1,40})?)"
)
NAME = r"(?P<name>[A-Za-z][\w.-]{0,60})"
PIP_LIST = re.compile(r"^\s*" + NAME + r"\s{2,}" + VERSION + r"(?:\s+\S+)?\s*$")
PIP_FREEZE = re.compile(r"^\s*" + NAME + r"\s*==\s*" + VERSION + r"\s*$")
CONDA_LIST = re.compile(
    r"^\s*" + NAME + r"\s+" + VERSION + r"\s+(?P<build>\S{1,80})(?:\s+\S{1,80})?\s*$"
)
INSTALLED = (
    re.compile(r"\(you have " + VERSION + r"\)", re.IGNORECASE),
    re.compile(r"\b(?:torch\.__version__|PyTorch version)\s*[:=]?\s*'?" + VERSION, re.IGNORECASE),
)
KEY_VALUE = re.compile(
    r"\b(?P<name>pytorch|torch|tensorflow|tensor flow|jaxlib|jax|xformers|flash[-_]attn|bitsandbytes|"
    r"torchvision|torchaudio|vllm|ollama)(?:\s+version)?\s*[:=]=?\s*" + VERSION + r"\b",
    re.IGNORECASE,
)
# the torch a package was built for names no installed torch ("vllm 0.2.2 is built with torch 2.1.0")
BUILT_FOR = (
    r"(?<!built with )(?<!built for )(?<!built against )(?<!compiled with )(?<!compiled for )"
)
MENTION = re.compile(
    BUILT_FOR
    + r"\b(?P<name>pytorch|torch|tensorflow|tensor flow|jaxlib|jax|xformers|flash[-_]attn|bitsandbytes|"
    r"torchvision|torchaudio|vllm|ollama|onnxruntime(?:-gpu)?|cupy(?:-cuda\w+)?)"
    r"(?:\s+version)?(?:\s+is)?(?:\s*[:=]=?\s*|\s*-\s*|\s+)" + VERSION + r"\b",
    re.IGNORECASE,
)
# a package named with its version in brackets: "the latest vllm (0.2.2)", pip's old list rows
# "torch (1.4.0)"; not the CUDA a build names so ("the version used to compile PyTorch (11.7)")
PAREN_MENTION = re.compile(
    r"(?<!compile )(?<!compiled )(?<!built )\b(?P<name>pytorch|torch|tensorflow|jaxlib|jax|xformers|"
    r"flash[-_]attn|bitsandbytes|torchvision|torchaudio|vllm|ollama|onnxruntime(?:-gpu)?|"
    r"triton|transformers|llama[-_]cpp[-_]python|paddlepaddle(?:-gpu)?)\s+\(" + VERSION + r"\)",
    re.IGNORECASE,
)
DRIVER = re.compile(
    r"\b(?:driver(?:\s+version)?|nvidia-drivers?|host driver)\s*[:=-]?\s*(?:is\s+)?[vr]?"
    r"(?P<version>\d{3}\.\d{1,3}(?:\.\d{1,3})?)\b",
    re.IGNORECASE,
)
CUDA_DRIVER = re.compile(r"\bCUDA Version\s*:\s*(?P<version>\d{2}\.\d)\b")
NVCC = re.compile(r"\brelease (?P<version>\d{1,2}\.\d), V\d")
# the Python in use ("Python version is 3.11.2"), not one a message asks for ("Please install
# Python 3.10.0 or higher") nor a distribution's package ("no longer includes a python3.10 package")
PYTHON = re.compile(
    r"(?<!please\sinstall\s)(?<!requires\s)(?<!needs\s)"
    r"\bpython(?:\s+version)?\s*(?:[:=]|\sis\s)?\s*(?P<version>3\.\d{1,2}(?:\.\d{1,2})?)\b"
    r"(?!\s+package)",
    re.IGNORECASE,
)
WINDOWS_BUILD = re.compile(r"\b10\.0\.(?P<build>\d{5})\b")
# An issue form's heading naming a package, its answer a version on one of the next lines
# ("### Tensorflow Version" / blank / "2.11.0"; "tf2.12.0"; "### Python version" / "3.10.10").
HEADING_VERSION = re.compile(
    r"^#{1,4}[ \t]*(?P<name>tensorflow|tensor flow|pytorch|torch|jaxlib|jax|python|ollama|vllm)"
    r"(?:[ \t]+version)?[ \t]*\r?\n(?:[ \t]*\r?\n){0,3}[ \t]*(?:tf[ \t]?|v)?"
    r"(?P<version>\d{1,4}(?:\.\d{1,8}){1,3})\b",
    re.IGNORECASE | re.MULTILINE,
)
HEADING_SCAN_CHARS = 200_000
# Any issue form's heading with its answer on one of the next lines ("### CUDA/cuDNN version" /
# blank / "11.8/8.6"; "### ONNX Runtime Version or Commit ID" / "1.16.3"; "### Driver version" /
# "535.104.05"; "### GPU" / "RTX 3060"): the pair is read as the inline "heading: answer" it
# stands for, so every prose phrasing of a fact ("CUDA/cuDNN version: 11.8/8.6") applies to it.
# A short heading and a one-line answer (not a heading, a quote, a list, a fence or a table).
HEADING_ANSWER = re.compile(
    r"^#{1,4}[ \t]*(?P<heading>[^\W\d_][^\n#]{1,79}?)[ \t]*\r?\n(?:[ \t]*\r?\n){0,3}"
    r"[ \t]*(?P<answer>[^\s#>`|*-][^\n]{0,150}?)[ \t]*\r?$",
    re.MULTILINE,
)
# what a heading says beside the fact's name: "(use command below)", "| Python 版本" (a form's
# second language), "or Commit ID" (ONNX Runtime's), "if applicable"
HEADING_NOISE = re.compile(
    r"\([^)\n]*\)|（[^）\n]*）|\s+(?:\||/)\s+.*$|\s+or\s+(?:git\s+)?commit(?:\s+(?:id|hash))?\b.*$|"
    r"[,;]?\s*if\s+(?:applicable|any|relevant)\b.*$",
    re.IGNORECASE,
)
MAX_HEADING_ANSWERS = 40
# pip's own lines: what it installed ("Successfully installed llama-cpp-python-0.2.55 torch-2.1.0")
# and what it found installed ("Requirement already satisfied: bitsandbytes==0.41.1 in ...",
# "Requirement already satisfied: bitsandbytes in ./venv/... (0.41.1)")
PIP_INSTALLED = re.compile(r"\bSuccessfully installed\s+(?P<list>[^\n]{1,4000})")
PIP_INSTALLED_ITEM = re.compile(
    r"(?<!\S)(?P<name>[A-Za-z][\w.]*(?:-[A-Za-z_][\w.]*)*)-"
    + VERSION.replace("v?", "", 1)
    + r"(?!\S)"
)
PIP_SATISFIED = re.compile(
    r"\bRequirement already satisfied:\s*" + NAME + r"(?:\[[\w,.-]{1,80}\])?"
    r"(?:\s*==\s*"
    + VERSION
    + r"|[^\n]{0,400}?\("
    + VERSION.replace("version", "version2")
    + r"\)\s*$)",
)
# a pin on a pip command line ("pip install vllm==0.2.2 torch==2.1.0"): the version asked for
PIP_PIN = re.compile(r"(?<![\w.=-])" + NAME + r"(?:\[[\w,.-]{1,80}\])?==" + VERSION)
PIP_COMMAND = re.compile(r"\bpip3?(?:\.exe)?\s+install\b", re.IGNORECASE)


# Mentions of the environment, one named group per mention (one pass per line).
ENVIRONMENT = re.compile(
    r"(?P<wsl>\bwsl\s?[12]?\b|microsoft-standard)"
    r"|(?P<windows>\bwindows(?:\s?1[01])?\b|\bwin1[01]\b|\b[a-z]:\\(?:users|windows|program)"
    # a drive path of two folders or more ("c:\python310\lib\site-packages", "d:\darknet\build"),
    # or a cmd / PowerShell prompt ("d:\work>", "ps c:\work>")
    r"|\b[a-z]:\\[^\\\s\"'<>|:*?]{1,80}\\|^(?:ps )?[a-z]:\\[^>\n]{0,200}>"
    # cmd.exe's and PowerShell's words for a command they cannot find
    r"|is not recognized as an internal or external command|is not recognized as the name of a cmdlet)"
    r"|(?P<macos>\bmac\s?os\b|\bmacos\b|\bosx\b|\bdarwin\b|\bapple m[1-4]\b|\bapple silicon\b"
    # a Mac's own paths: a home folder (/Users/<name>/, not C:/Users nor WSL's /mnt/c/Users),
    # Homebrew on Apple silicon, the python.org framework build
    r"|\bmacbook|(?<![a-z]:)(?<![a-z])/users/[^/\s\"']{1,64}/|/opt/homebrew/|python\.framework/)"
    r"|(?P<linux>\b(?:linux|ubuntu|debian|fedora|centos|rhel|opensuse|arch|gentoo|cachyos)\b)"
    r"|(?P<container>\bdocker\b|\bcontainer\b|\bkubernetes\b|\bk8s\b|\bpodman\b|\bkubelet\b)"
    r"|(?P<comfyui>comfy)"
    r"|(?P<a1111>stable-diffusion-webui|webui(?:-user)?\.(?:sh|bat)|automatic1111|\ba1111\b|--(?:med|low)vram|launch\.py"
    r"|use lower resolution \(max approx)"  # the webui's own out-of-memory message
    r"|(?P<forge>webui-forge|\bforge\b)"
    r"|(?P<ollama>ollama|source=(?:gpu|server|amd_\w{1,20}|routes)\.go)"
    r"|(?P<vllm>\bvllm(?![a-z])|cumem_allocator)"  # "vLLM0.7.2"; cumem_allocator.cpp is vLLM's
    r"|(?P<jetson>\bjetson\b|\bjetpack\b|\bl4t\b|\btegra\b|nv_tegra_release)"
)  # on lowercased lines
OS_MENTIONS = ("wsl", "windows", "macos", "linux", "container")
APP_MENTIONS = ("comfyui", "a1111", "forge", "ollama", "vllm")
# not a container image's name or tag ("ubuntu:latest", "nvidia/cuda:12.1.0-devel-ubuntu22.04"):
# the host a `docker run` starts from is another system
DISTRO = re.compile(
    r"(?<![/:-])\b(ubuntu|debian|fedora|centos|rhel|rocky|opensuse|arch\s?linux|manjaro|gentoo|"
    r"cachyos|nixos|pop!_os|linux mint)\b(?!:[\w.])",
    re.IGNORECASE,
)
DISTRO_IDS = {
    "archlinux": "arch",
    "arch linux": "arch",
    "linux mint": "linuxmint",
    "pop!_os": "pop",
}
ARCH = re.compile(r"\b(aarch64|arm64|x86_64|ppc64le)\b")
OLLAMA_LINE = re.compile(r"\blevel=(?P<level>[A-Z]{3,5})\s+source=(?P<source>\S{1,80})\s+msg=")
CJK = re.compile(r"[\u4e00-\u9fff]")

# Gates: lowercase words one of which every match of a pattern contains (tests check them
# against the patterns' required literals). A line whose lowercase form holds none cannot match,
# so the pattern's scan of every position is skipped; for a case-insensitive pattern the gate
# holds for ASCII lines only (Unicode case folding matches "ſ" to "s", which lower() does not).
ERROR_GATE = (
    "error", "exception", "fail", "fatal", "can't", "cannot", "couldn't", "could not", "unable",
    "not found", "no such", "denied", "invalid", "unsatisfied", "mismatch", "compatible",
    "too old", "out of memory", "aborted", "segmentation fault", "undefined symbol",
)  # fmt: skip
ENVIRONMENT_GATE = (
    "wsl", "microsoft-standard", "windows", "win1", "users", "program", "mac", "osx", "darwin",
    "apple m", "apple silicon", "homebrew", "python.framework", "linux", "ubuntu", "debian", "fedora", "centos", "rhel", "opensuse", "arch",
    "gentoo", "cachyos", "docker", "container", "kubernetes", "k8s", "podman", "kubelet",
    "comfy", "webui", "automatic1111", "a1111", "vram", "launch.py", "forge", "ollama",
    "source=", "vllm", "cumem_allocator", "jetson", "jetpack", "l4t", "tegra",
    "use lower resolution", "not recognized as", ":\\",
)  # fmt: skip
KEY_VALUE_GATE = (
    "torch", "tensorflow", "tensor flow", "jax", "xformers", "flash", "bitsandbytes", "vllm",
    "ollama",
)  # fmt: skip
MENTION_GATE = (*KEY_VALUE_GATE, "onnxruntime", "cupy")
CUDA_DRIVER_GATE = ("cuda version",)
NVCC_GATE = ("release ",)


PACKAGE_ALIASES = {
    "pytorch": "torch",
    "tensor-flow": "tensorflow",
    "tensor flow": "tensorflow",
    "flash-attn": "flash-attn",
    "flash_attn": "flash-attn",
}
INTERESTING = re.compile(
    r"^(?:torch|pytorch|tensorflow|tf-|jax|xformers|flash|bitsandbytes|cuda|"
    r"nvidia-|cudatoolkit|cudnn|triton|onnxruntime|cupy|vllm|transformers|"
    r"accelerate|diffusers|mmcv|detectron2|deepspeed|apex|ctranslate2|"
    r"faster-whisper|llama|auto-gptq|peft|cpuonly|rocm|hip)",
    re.IGNORECASE,
)


def interesting_package(name: str) -> bool:
    return bool(INTERESTING.match(name))


def package_key(name: str) -> str:
    key = canonical_name(re.sub(r"\s+", "-", name.strip())).strip("-")
    return PACKAGE_ALIASES.get(key, PACKAGE_ALIASES.get(name.lower(), key))


def package_in_path(text: str) -> str | None:
    found = None
    for match in SITE_PACKAGE.finditer(text):
        found = match.group("pkg")
    return found


def cc_of(match: re.Match) -> str | None:
    if match.group("sm") or match.group("packed"):
        sm = int(match.group("sm") or match.group("packed"))
        return f"{sm // 10}.{sm % 10}"
    return f"{match.group('major')}.{match.group('minor')}"


# a GeForce named with its family word and number, as reports type it: "NVIDIA RTX 4090" (no
# "GeForce"), "GTX 3090" (the family every 20xx and newer card is RTX), "RTX 1080 Ti"
_GEFORCE_TYPED = re.compile(
    r"(?i)^(?:nvidia\s+)?(?:geforce\s+)?(?:rtx|gtx)\s(?P<num>\d{3,4})(?P<rest>(?:\s(?:Ti|SUPER))?"
    r"(?:\s(?:Laptop GPU|Mobile))?(?:\s?D)?)$"
)


def _geforce_family(text: str, workstation: bool) -> str:
    """A GeForce name with the family its number belongs to ("GTX 3090" -> "RTX 3090", "RTX
    1080 Ti" -> "GTX 1080 Ti") and the "GeForce" the GPU table spells; not the workstation cards
    ("RTX A6000", "RTX 4000 Ada") nor a number no GeForce carries ("RTX 6000", "RTX 8000")."""
    found = None if workstation else _GEFORCE_TYPED.match(text)
    if found is None:
        return text
    number = int(found.group("num"))
    if number >= 2000 and number % 100 == 0 or not 200 <= number < 6000:
        return text
    family = "GTX" if number < 2000 else "RTX"
    return f"NVIDIA GeForce {family} {number}{found.group('rest')}"


def canonical_gpu(match: re.Match) -> str:
    """A GPU name as NVIDIA/AMD print it: "rtx 3090" -> "NVIDIA GeForce RTX 3090",
    "1050ti" -> "NVIDIA GeForce GTX 1050 Ti", "rx 6600" -> "AMD Radeon RX 6600"."""
    groups = match.groupdict()
    if groups.get("num"):
        number = int(groups["num"])
        suffix = " Ti" if groups["suffix"].lower() == "ti" else " SUPER"
        family = "GTX" if number < 2000 or 1600 <= number < 1700 else "RTX"
        return f"NVIDIA GeForce {family} {number}{suffix}"
    text = " ".join(match.group(0).split())
    low = text.lower()
    text = re.sub(
        r"(?i)\b(rtx|gtx|gts|gt|mx)\s?-?(\d)", lambda m: f"{m.group(1).upper()} {m.group(2)}", text
    )
    if "geforce" in low:  # "GeForce GT 625m" -> "GT 625M", "640m le" -> "640M LE"
        text = re.sub(r"(?i)(\d)(mx|m)\b", lambda m: m.group(1) + m.group(2).upper(), text)
        text = re.sub(r"(?i)\s(le|boost)\b", lambda m: " " + m.group(1).upper(), text)
    text = re.sub(r"(?i)(\d)\s?(ti)\b", r"\1 Ti", text)
    text = re.sub(r"(?i)(\d)\s?(super)\b", r"\1 SUPER", text)
    # the workstation RTX cards are no GeForce: "RTX A6000", "RTX 6000 Ada", "RTX PRO 6000"
    workstation = re.match(r"(?i)^rtx\s(?:a\d|pro\b|\d{4}\s+ada\b)", text)
    if re.match(r"(?i)^(?:rtx|gtx)\s", text) and "geforce" not in low and not workstation:
        text = "GeForce " + text
    if workstation:
        text = re.sub(
            r"(?i)^rtx\s+(?:(pro)\b|a(?=\d))", lambda m: "RTX PRO" if m.group(1) else "RTX A", text
        )
        text = re.sub(r"(?i)\b(ada|blackwell)\b", lambda m: m.group(1).title(), text)
    if workstation or re.match(r"(?i)^geforce|^quadro|^tesla|^titan|^jetson|^[ahblv]\d", text):
        text = "NVIDIA " + text
    text = _geforce_family(text, workstation is not None)
    if re.match(r"(?i)^rx\s?\d", text):
        text = "AMD Radeon " + re.sub(r"(?i)^rx\s?", "RX ", text)
    elif re.match(r"(?i)^radeon", text) or re.match(r"(?i)^instinct", text):
        text = "AMD " + text
    return text
