"""The free-text fallback: error and log lines -> the `pasted.text` group.

It reads every part of a paste (whatever other reader claimed it) and keeps the *notable* lines:
those holding an anchor of some error signature or prose fact (`envdoctor.triage.loader.anchors()`), a
generic error word (error, failed, cannot, 报错...) or a word the facts below come from. From
the notable lines it extracts, without guessing:

- `lines`: the notable lines in input order (each cut at `MAX_LINE_CHARS`): the first
  `HEAD_LINES`, then lines that bring a signature anchor not seen before, and the notable lines
  among the last `TAIL_LINES` lines of the input;
- `errors`: the lines that read as errors (for people, and for "no signature matched");
- `frames`: traceback frames {file, line, function}; `extensions`: compiled extension modules
  and CUDA-extension packages seen in frames and paths (xformers, flash_attn_2_cuda, a custom
  `*.cpython-*.so`); `companions`: torchvision / torchaudio binaries seen the same way;
- `gpus`: GPU product names mentioned ("NVIDIA GeForce RTX 5090", "AMD Radeon RX 6600");
  `compute_capabilities` ("12.0"); `torch_arch_list` (from "supports CUDA capabilities sm_50 ...");
  `torch_min_cc` (from "minimum cuda capability supported by this library is 3.7");
  `gfx_targets`;
- `versions`: {package: version} mentioned (pip list / freeze / conda list lines, "PyTorch: 2.8.0",
  "(you have 2.1.2+cpu)", an issue form's "### Tensorflow Version" heading with the version under
  it), the most explicit mention winning; `system_versions`: driver,
  cuda_driver (nvidia-smi's "CUDA Version"), nvcc, python;
- `os_mentions` (windows, wsl, macos, linux, container), `distro`, `windows_build`, `arch`;
  `apps` (comfyui, a1111, forge, ollama, vllm); `platforms` (jetson); `languages` (zh);
- `ollama`: Ollama server log lines (`level=… source=… msg=…`) and what they say about the GPU.

Memory stays bounded whatever the input size: only notable lines are examined, at most
`PROCESS_LINES` of them in full. The scan itself is one compiled regular expression (a trie of
all keywords) over each lowercased part.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from envdoctor.snapshot import Confidence, FactGroup, collected

NAME = "free-text"
SOURCE = "pasted:free-text"
FALLBACK = True

HEAD_LINES = 400
NEW_ANCHOR_LINES = 200
TAIL_LINES = 100
PROCESS_LINES = 2000
REBUILD_AFTER_USELESS = 200
MAX_LINE_CHARS = 600
MAX_ERRORS = 40
MAX_FRAMES = 100
MAX_OLLAMA_LINES = 60
MAX_SHAPES = 200_000  # line shapes the deep scan remembers (a set of hashes: bounded memory)
_DROP_DIGITS = str.maketrans("", "", "0123456789")

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
    "aarch64",
    "arm64",
    "x86_64",
)

_ERROR_LINE = re.compile(
    r"\b(?:error|exception|failed|failure|fatal|cannot|can't|couldn't|could not|unable|not found|"
    r"no such|denied|invalid|unsatisfied|mismatch|incompatible|not compatible|too old|"
    r"out of memory|aborted|segmentation fault|undefined symbol)\b|"
    r"\w+Error\b|报错|错误|失败|显存不足|无法",
    re.IGNORECASE,
)
_FRAME = re.compile(
    r'File "(?P<file>[^"]{1,400})", line (?P<line>\d{1,7})(?:, in (?P<func>[^\s,]{1,200}))?'
)
_RICH_FRAME = re.compile(
    r"(?P<file>(?:[A-Za-z]:)?[\\/][^\s:│]{1,400}\.py):(?P<line>\d{1,7}) in (?P<func>[\w<>.]{1,200})"
)
_IPY_FRAME = re.compile(r"(?P<file>~?/[^\s]{1,400}\.py) in (?P<func>[\w<>.]{1,200})\(")
_SO_NAME = re.compile(
    r"(?P<name>[A-Za-z_][\w]{0,100})(?:\.cpython-\d{2,3}[\w-]{0,60}|\.abi3)?\.(?:so|pyd)\b"
)
_SITE_PACKAGE = re.compile(r"(?:site|dist)-packages[\\/](?P<pkg>[A-Za-z_][\w]{0,100})")
_CPP_EXTENSION = re.compile(r"torch[\\/]utils[\\/]cpp_extension\.py")
_TORCH_LIBS = re.compile(
    r"^(?:lib)?(?:torch|c10|caffe2|cuda|cudart|cublas|cudnn|nvrtc|nvjitlink|"
    r"cusparse|cufft|curand|cusolver|nccl|gomp|stdc|_C$|_C_flatbuffer|"
    r"nvToolsExt|shm|torch_python)",
    re.IGNORECASE,
)
COMPANIONS = ("torchvision", "torchaudio", "torchtext", "_torch_sox", "torchdata")
# CUDA-extension packages: compiled against one torch build, broken by another.
EXTENSION_PACKAGES = (
    "xformers",
    "flash_attn",
    "flash_attn_2_cuda",
    "flash_attn_cuda",
    "apex",
    "mmcv",
    "mmcv_full",
    "detectron2",
    "bitsandbytes",
    "vllm",
    "deepspeed",
    "torch_scatter",
    "torch_sparse",
    "torch_cluster",
    "torch_spline_conv",
    "pytorch3d",
    "causal_conv1d",
    "mamba_ssm",
    "auto_gptq",
    "exllamav2",
    "llama_cpp",
    "sageattention",
    "nunchaku",
    "spconv",
    "diff_gaussian_rasterization",
    "simple_knn",
    "tinycudann",
    "nvdiffrast",
    "natten",
    "fused_layer_norm_cuda",
    "transformer_engine",
    "groundingdino",
    "gsplat",
    "kaolin",
    "torchsparse",
    "MinkowskiEngine",
    "dgl",
    "xformers_C",
)

_GPU_PATTERNS = (
    re.compile(
        r"\b(?:NVIDIA\s+)?GeForce\s+(?:RTX|GTX|GT|MX)\s?\d{3,4}(?:\s?(?:Ti|SUPER))?"
        r"(?:\s(?:Laptop GPU|Mobile))?(?:\s?D\b)?",
        re.IGNORECASE,
    ),
    re.compile(r"\b(?:NVIDIA\s+)?(?:RTX|GTX)\s?-?\d{3,4}(?:\s?(?:Ti|SUPER))?\b", re.IGNORECASE),
    re.compile(r"\b(?:NVIDIA\s+)?(?:RTX\s+)?(?:PRO\s+)?(?:A|RTX\s)?\d{4}\s+Ada\b", re.IGNORECASE),
    re.compile(r"\bNVIDIA\s+RTX\s+A\d{3,4}\b|\bRTX\s+A\d{4}\b", re.IGNORECASE),
    re.compile(r"\b(?:NVIDIA\s+)?Quadro\s+(?:RTX\s+)?[A-Z]{0,2}\d{2,4}[A-Z]?\b", re.IGNORECASE),
    re.compile(r"\b(?:NVIDIA\s+)?Tesla\s+[A-Z]\d{1,3}[A-Z]?\b", re.IGNORECASE),
    re.compile(
        r"\bNVIDIA\s+(?:[AHBLTV]\d{1,3}[A-Z]?|GH200|GB200|GB10)(?:[- ](?:SXM\d?|PCIe|NVL))?"
        r"(?:[- ]\d{2,3}GB)?(?:\s+HBM\d\w?)?\b"
    ),
    re.compile(r"\b(?:A100|H100|H200|B200|L40S?|V100|A10G|A30|A40|GH200|GB200)\b"),
    re.compile(r"\b(?:NVIDIA\s+)?TITAN\s+(?:RTX|Xp?|V|Black|Z)\b", re.IGNORECASE),
    re.compile(
        r"\b(?:NVIDIA\s+)?Jetson\s+(?:AGX\s+)?(?:Orin|Xavier|Nano|TX2|TX1|Thor)(?:\s+(?:NX|Nano))?\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:AMD\s+)?Radeon\s+(?:RX\s?)?(?:Pro\s+)?[A-Z]?\d{3,4}[A-Z]?(?:\s?(?:XTX|XT|GRE))?\b",
        re.IGNORECASE,
    ),
    re.compile(r"\b(?:AMD\s+)?Instinct\s+MI\d{2,3}[A-Z]?\b", re.IGNORECASE),
    re.compile(r"\bRX\s?\d{4}(?:\s?(?:XTX|XT|GRE))?\b", re.IGNORECASE),
    re.compile(
        r"\bIntel(?:\(R\))?\s+(?:Arc(?:\(TM\))?\s+[AB]\d{3}\w?|(?:UHD|Iris(?: Xe| Plus)?|HD)\s+Graphics(?:\s+\d{3,4})?)",
        re.IGNORECASE,
    ),
    re.compile(r"\b(?P<num>[1-9]\d{3})\s?(?P<suffix>ti|super)\b", re.IGNORECASE),
)
_GPU_HINT = re.compile(
    r"geforce|rtx|gtx|quadro|tesla|titan|radeon|instinct|nvidia|a100|h100|h200|b200|"
    r"l40|v100|a10g|jetson|\brx|intel|\dti\b|\d ti\b|super|a30|a40|gb10|gh200|gb200"
)
_CC = re.compile(
    r"(?:compute|cuda)\s+capability(?:\s+of)?\s+(?:is\s+)?(?:sm_(?P<sm>\d{2,3})|(?P<major>\d{1,2})\.(?P<minor>\d))",
    re.IGNORECASE,
)
_OLLAMA_COMPUTE = re.compile(r"\bcompute=(?P<major>\d{1,2})\.(?P<minor>\d)\b")
_ARCH_LIST = re.compile(
    r"supports CUDA capabilities\s+(?P<list>(?:sm_\d{2,3}a?\s*){1,40})", re.IGNORECASE
)
_MIN_CC = re.compile(
    r"minimum cuda capability (?:supported by this library )?is (?P<cc>\d{1,2}\.\d)", re.IGNORECASE
)
_GFX = re.compile(r"\bgfx(?:\d{3,4}|90a|90c)\b", re.IGNORECASE)
_VERSION = r"v?(?P<version>\d{1,4}(?:\.\d{1,8}){1,3}(?:[a-z]{1,5}\d{0,12})?(?:\+[\w.-]{1,40})?)"
_NAME = r"(?P<name>[A-Za-z][\w.-]{0,60})"
_PIP_LIST = re.compile(r"^\s*" + _NAME + r"\s{2,}" + _VERSION + r"(?:\s+\S+)?\s*$")
_PIP_FREEZE = re.compile(r"^\s*" + _NAME + r"\s*==\s*" + _VERSION + r"\s*$")
_CONDA_LIST = re.compile(
    r"^\s*" + _NAME + r"\s+" + _VERSION + r"\s+(?P<build>\S{1,80})(?:\s+\S{1,80})?\s*$"
)
_INSTALLED = (
    re.compile(r"\(you have " + _VERSION + r"\)", re.IGNORECASE),
    re.compile(r"\b(?:torch\.__version__|PyTorch version)\s*[:=]?\s*'?" + _VERSION, re.IGNORECASE),
)
_KEY_VALUE = re.compile(
    r"\b(?P<name>pytorch|torch|tensorflow|tensor flow|jaxlib|jax|xformers|flash[-_]attn|bitsandbytes|"
    r"torchvision|torchaudio|vllm|ollama)(?:\s+version)?\s*[:=]=?\s*" + _VERSION + r"\b",
    re.IGNORECASE,
)
_MENTION = re.compile(
    r"\b(?P<name>pytorch|torch|tensorflow|tensor flow|jaxlib|jax|xformers|flash[-_]attn|bitsandbytes|"
    r"torchvision|torchaudio|vllm|ollama|onnxruntime(?:-gpu)?|cupy(?:-cuda\w+)?)"
    r"(?:\s+version)?(?:\s+is)?(?:\s*[:=]=?\s*|\s*-\s*|\s+)" + _VERSION + r"\b",
    re.IGNORECASE,
)
_DRIVER = re.compile(
    r"\b(?:driver(?:\s+version)?|nvidia-drivers?|host driver)\s*[:=-]?\s*(?:is\s+)?"
    r"(?P<version>\d{3}\.\d{1,3}(?:\.\d{1,3})?)\b",
    re.IGNORECASE,
)
_CUDA_DRIVER = re.compile(r"\bCUDA Version\s*:\s*(?P<version>\d{2}\.\d)\b")
_NVCC = re.compile(r"\brelease (?P<version>\d{1,2}\.\d), V\d")
_PYTHON = re.compile(
    r"\bpython(?:\s+version)?\s*[:=]?\s*(?P<version>3\.\d{1,2}(?:\.\d{1,2})?)\b", re.IGNORECASE
)
_WINDOWS_BUILD = re.compile(r"\b10\.0\.(?P<build>\d{5})\b")
# An issue form's heading naming a package, its answer a version on one of the next lines
# ("### Tensorflow Version" / blank / "2.11.0"; "tf2.12.0"; "### Python version" / "3.10.10").
_HEADING_VERSION = re.compile(
    r"^#{1,4}[ \t]*(?P<name>tensorflow|tensor flow|pytorch|torch|jaxlib|jax|python|ollama|vllm)"
    r"(?:[ \t]+version)?[ \t]*\r?\n(?:[ \t]*\r?\n){0,3}[ \t]*(?:tf[ \t]?|v)?"
    r"(?P<version>\d{1,4}(?:\.\d{1,8}){1,3})\b",
    re.IGNORECASE | re.MULTILINE,
)
HEADING_SCAN_CHARS = 200_000
# Mentions of the environment, one named group per mention (one pass per line).
_ENVIRONMENT = re.compile(
    r"(?P<wsl>\bwsl\s?[12]?\b|microsoft-standard)"
    r"|(?P<windows>\bwindows(?:\s?1[01])?\b|\bwin1[01]\b|\b[a-z]:\\(?:users|windows|program))"
    r"|(?P<macos>\bmac\s?os\b|\bmacos\b|\bosx\b|\bdarwin\b|\bapple m[1-4]\b)"
    r"|(?P<linux>\b(?:linux|ubuntu|debian|fedora|centos|rhel|opensuse|arch|gentoo|cachyos)\b)"
    r"|(?P<container>\bdocker\b|\bcontainer\b|\bkubernetes\b|\bk8s\b|\bpodman\b|\bkubelet\b)"
    r"|(?P<comfyui>comfy)"
    r"|(?P<a1111>stable-diffusion-webui|webui(?:-user)?\.(?:sh|bat)|automatic1111|\ba1111\b|--(?:med|low)vram|launch\.py)"
    r"|(?P<forge>webui-forge|\bforge\b)"
    r"|(?P<ollama>ollama|source=(?:gpu|server|amd_\w{1,20}|routes)\.go)"
    r"|(?P<vllm>\bvllm\b)"
    r"|(?P<jetson>\bjetson\b|\bjetpack\b|\bl4t\b|\btegra\b|nv_tegra_release)"
)  # on lowercased lines
_OS_MENTIONS = ("wsl", "windows", "macos", "linux", "container")
_APP_MENTIONS = ("comfyui", "a1111", "forge", "ollama", "vllm")
_DISTRO = re.compile(
    r"\b(ubuntu|debian|fedora|centos|rhel|rocky|opensuse|arch\s?linux|manjaro|gentoo|"
    r"cachyos|nixos|pop!_os|linux mint)\b",
    re.IGNORECASE,
)
_DISTRO_IDS = {
    "archlinux": "arch",
    "arch linux": "arch",
    "linux mint": "linuxmint",
    "pop!_os": "pop",
}
_ARCH = re.compile(r"\b(aarch64|arm64|x86_64|ppc64le)\b")
_OLLAMA_LINE = re.compile(r"\blevel=(?P<level>[A-Z]{3,5})\s+source=(?P<source>\S{1,80})\s+msg=")
_CJK = re.compile(r"[\u4e00-\u9fff]")


@lru_cache(maxsize=1)
def _selectors() -> tuple[re.Pattern, re.Pattern | None, frozenset[str]]:
    """(the regex of every keyword, the regex of the signatures' match anchors, those anchors).

    Each is one trie-shaped alternation, compiled once: the first finds notable lines while facts
    are still being gathered, the second finds lines that bring a match anchor not seen yet."""
    from envdoctor.triage.loader import anchors, match_anchors

    signature_anchors, deep_anchors = anchors(), match_anchors()
    words = set(GENERIC_KEYWORDS) | set(FACT_KEYWORDS) | set(signature_anchors)
    every = re.compile(_trie_regex(w for w in words if w))
    only_anchors = re.compile(_trie_regex(deep_anchors)) if deep_anchors else None
    return every, only_anchors, deep_anchors


def _trie_regex(words: Iterable[str]) -> str:
    trie: dict[str, dict] = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict[str, dict]) -> str:
        alternatives = [re.escape(ch) + build(child) for ch, child in sorted(node.items()) if ch]
        if not alternatives:
            return ""
        body = alternatives[0] if len(alternatives) == 1 else "(?:" + "|".join(alternatives) + ")"
        if "" in node:
            return "(?:" + body + ")?"
        return body

    return build(trie)


class Collector:
    """Streams parts through the selectors and accumulates the `pasted.text` facts.

    While fewer than PROCESS_LINES notable lines were seen, every keyword selects a line (facts
    come from it; the first HEAD_LINES are kept). After that only lines holding a signature anchor
    not seen before are kept (at most NEW_ANCHOR_LINES). The last TAIL_LINES lines of the input
    are examined in full at the end, so the final error is never lost."""

    def __init__(self) -> None:
        self.selector, self.anchor_selector, self.signature_anchors = _selectors()
        self.useless_hits = 0  # deep-scan hits that brought no new anchor since the last rebuild
        self.newly_seen = 0  # anchors seen since the deep selector was last built
        self.line_no = 0
        self.total_chars = 0
        self.processed = 0
        self.head_end = 0  # last line number examined in full during the head
        self.head: list[tuple[int, str]] = []
        self.extra: list[tuple[int, str]] = []
        self.tail: list[tuple[int, str]] = []
        self.recent: deque[tuple[int, str]] = deque(maxlen=4)  # (first line number, part text)
        self.seen_anchors: set[str] = set()
        self.seen_shapes: set[int] = set()  # hashes of the line shapes the deep scan examined
        self.errors: list[str] = []
        self.frames: list[dict[str, Any]] = []
        self.extensions: list[str] = []
        self.companions: list[str] = []
        self.gpus: list[str] = []
        self.ccs: list[str] = []
        self.arch_list: list[str] = []
        self.min_cc: str | None = None
        self.gfx: list[str] = []
        self.versions: dict[str, tuple[int, str]] = {}
        self.system_versions: dict[str, str] = {}
        self.os_mentions: list[str] = []
        self.distro: str | None = None
        self.arch: str | None = None
        self.windows_build: int | None = None
        self.apps: list[str] = []
        self.platforms: list[str] = []
        self.languages: list[str] = []
        self.ollama_lines: list[str] = []

    def feed(self, text: str) -> None:
        """Consume one part of the input."""
        self.total_chars += len(text)
        if "zh" not in self.languages and _CJK.search(text[:200000]):
            self.languages.append("zh")
        first = self.line_no + 1
        self.recent.append((first, text))
        while sum(t.count("\n") + 1 for _, t in list(self.recent)[1:]) > TAIL_LINES:
            self.recent.popleft()
        if "#" in text[:HEADING_SCAN_CHARS]:
            self._heading_versions(text[:HEADING_SCAN_CHARS])
        lowered = text.lower()
        if len(lowered) != len(text):  # a few characters change length when lowercased
            number = self.line_no
            for line in text.split("\n"):
                number += 1
                self._scan_one(number, line)
            self.line_no = number
            return
        self._scan(text, lowered)

    def _scan_one(self, number: int, line: str) -> None:
        lowered = line.lower()
        regex = self.selector if self.processed < PROCESS_LINES else self.anchor_selector
        if regex is not None and regex.search(lowered):
            self._line(number, line, lowered)

    def _scan(self, text: str, lowered: str) -> None:
        start_no = self.line_no
        position = 0
        counted_to = 0
        line_no = start_no
        size = len(lowered)
        while position < size:
            if self.processed >= PROCESS_LINES:  # past the head: only new line shapes
                line_no += lowered.count("\n", counted_to, position)
                self._deep_scan(text[position:], lowered[position:], line_no)
                break
            regex = self.selector
            found = regex.search(lowered, position)
            if found is None:
                break
            begin = lowered.rfind("\n", 0, found.start()) + 1
            end = lowered.find("\n", found.end())
            if end < 0:
                end = size
            line_no += lowered.count("\n", counted_to, begin)
            counted_to = begin
            self._line(line_no + 1, text[begin:end], lowered[begin:end])
            position = end + 1
        self.line_no = start_no + lowered.count("\n") + 1

    def _deep_scan(self, text: str, lowered: str, line_no: int) -> None:
        """Past the head, examine each line shape once: a long log's lines that differ only in
        digits (timestamps, counters, addresses) are one shape, and a signature anchor is looked
        for in the first line of each shape not seen before (at most MAX_SHAPES remembered)."""
        if self.anchor_selector is None:
            return
        lowered_lines = lowered.split("\n")
        lines = text.split("\n") if len(lowered_lines) > 1 else [text]
        if len(lines) != len(lowered_lines):
            return
        shapes = lowered.translate(_DROP_DIGITS).split("\n")
        seen = self.seen_shapes
        for offset, shape in enumerate(shapes):
            key = hash(shape)
            if key in seen:
                continue
            if len(seen) < MAX_SHAPES:
                seen.add(key)
            regex = self.anchor_selector
            if regex is None:
                return
            low = lowered_lines[offset]
            if regex.search(low):
                self._line(line_no + offset + 1, lines[offset], low)

    def _line(self, number: int, line: str, lowered: str) -> None:
        stripped = line.strip()
        if not stripped:
            return
        entry = (number, stripped[:MAX_LINE_CHARS])
        in_head = self.processed < PROCESS_LINES
        if in_head:
            self.processed += 1
            self.head_end = number
            self._facts(stripped[: 4 * MAX_LINE_CHARS], lowered)
            if len(self.head) < HEAD_LINES:
                self.head.append(entry)
                self._note_anchors(lowered)
                return
        if len(self.extra) >= NEW_ANCHOR_LINES or self.anchor_selector is None:
            return
        fresh = {m.group(0) for m in self.anchor_selector.finditer(lowered)} - self.seen_anchors
        if fresh:
            self.extra.append(entry)
            self.seen_anchors |= fresh
            self.newly_seen += len(fresh)
            if not in_head:
                self._facts(stripped[: 4 * MAX_LINE_CHARS], lowered)
        elif not in_head:
            self.useless_hits += 1
            if self.useless_hits >= REBUILD_AFTER_USELESS and self.newly_seen:
                self._rebuild_deep_selector()

    def _rebuild_deep_selector(self) -> None:
        """Drop the anchors already seen from the deep selector, so a word that floods a log
        (a common one that some signature needs) stops costing a match per line."""
        remaining = self.signature_anchors - self.seen_anchors
        self.anchor_selector = re.compile(_trie_regex(remaining)) if remaining else None
        self.useless_hits = self.newly_seen = 0

    def _note_anchors(self, lowered: str) -> None:
        if self.anchor_selector is not None:
            before = len(self.seen_anchors)
            self.seen_anchors.update(m.group(0) for m in self.anchor_selector.finditer(lowered))
            self.newly_seen += len(self.seen_anchors) - before

    def _finish_tail(self) -> None:
        """Examine the last TAIL_LINES lines in full (those the head did not already cover)."""
        lines: list[tuple[int, str]] = []
        for first, text in self.recent:
            lines.extend((first + i, line) for i, line in enumerate(text.split("\n")))
        kept = {n for n, _ in (*self.head, *self.extra)}
        for number, line in lines[-TAIL_LINES:]:
            if number <= self.head_end or number in kept:
                continue
            lowered = line.lower()
            if not self.selector.search(lowered) or not line.strip():
                continue
            self._facts(line.strip()[: 4 * MAX_LINE_CHARS], lowered)
            self.tail.append((number, line.strip()[:MAX_LINE_CHARS]))

    # -- facts ---------------------------------------------------------------------------------

    def _facts(self, line: str, lowered: str) -> None:
        if _ERROR_LINE.search(line):
            if len(self.errors) >= MAX_ERRORS:
                self.errors.pop(MAX_ERRORS // 2)  # keep the first half and the latest ones
            self.errors.append(line[:MAX_LINE_CHARS])
        if 'file "' in lowered or ".py:" in lowered or ".py in " in lowered:
            self._frames(line)
        if ".so" in lowered or ".pyd" in lowered or "-packages" in lowered:
            self._extensions(line)
        self._gpus(line, lowered)
        if "capabilit" in lowered or "compute=" in lowered:
            for match in _CC.finditer(line):
                self._add(self.ccs, _cc_of(match))
            for match in _OLLAMA_COMPUTE.finditer(line):
                self._add(self.ccs, f"{match.group('major')}.{match.group('minor')}")
            arch = _ARCH_LIST.search(line)
            if arch and not self.arch_list:
                self.arch_list = arch.group("list").split()
            minimum = _MIN_CC.search(line)
            if minimum:
                self.min_cc = minimum.group("cc")
        if "gfx" in lowered:
            for match in _GFX.finditer(line):
                self._add(self.gfx, match.group(0).lower())
        self._versions(line, lowered)
        self._environment(line, lowered)
        if "level=" in lowered:
            ollama = _OLLAMA_LINE.search(line)
            if ollama and len(self.ollama_lines) < MAX_OLLAMA_LINES:
                self.ollama_lines.append(line[:MAX_LINE_CHARS])

    @staticmethod
    def _add(items: list[str], value: str | None, limit: int = 50) -> None:
        if value and value not in items and len(items) < limit:
            items.append(value)

    def _frames(self, line: str) -> None:
        for regex in (_FRAME, _RICH_FRAME, _IPY_FRAME):
            for match in regex.finditer(line):
                if len(self.frames) >= MAX_FRAMES:
                    return
                groups = match.groupdict()
                frame = {
                    "file": groups.get("file"),
                    "line": int(groups["line"]) if groups.get("line") else None,
                    "function": groups.get("func"),
                }
                if frame not in self.frames:
                    self.frames.append(frame)
                self._path_packages(frame["file"] or "")
            if self.frames:
                break
        if _CPP_EXTENSION.search(line):
            self._add(self.extensions, "torch.utils.cpp_extension")

    def _extensions(self, line: str) -> None:
        for match in _SO_NAME.finditer(line):
            name = match.group("name")
            if _TORCH_LIBS.match(name):
                continue
            start = match.start()
            context = line[max(0, start - 200) : start]
            package = _package_in_path(context)
            if name in COMPANIONS or package in COMPANIONS:
                self._add(self.companions, package if package in COMPANIONS else name)
                continue
            self._add(self.extensions, name)
        self._path_packages(line)

    def _path_packages(self, text: str) -> None:
        for match in _SITE_PACKAGE.finditer(text):
            package = match.group("pkg")
            if package in COMPANIONS:
                self._add(self.companions, package)
            elif package in EXTENSION_PACKAGES:
                self._add(self.extensions, package)

    def _gpus(self, line: str, lowered: str) -> None:
        if not _GPU_HINT.search(lowered):
            return
        spans: list[tuple[int, int, str]] = []
        for regex in _GPU_PATTERNS:
            for match in regex.finditer(line):
                if any(s <= match.start() < e for s, e, _ in spans):
                    continue
                spans.append((match.start(), match.end(), canonical_gpu(match)))
        for _, _, name in sorted(spans):
            self._add(self.gpus, name, limit=16)

    def _versions(self, line: str, lowered: str) -> None:
        for priority, regex in enumerate(_INSTALLED):
            match = regex.search(line)
            if match:
                self._version("torch", match.group("version"), priority)
        for regex in (_PIP_FREEZE, _PIP_LIST, _CONDA_LIST):
            match = regex.match(line)
            if match and _interesting_package(match.group("name")):
                self._version(match.group("name"), match.group("version"), 2)
                break
        for match in _KEY_VALUE.finditer(line):
            self._version(match.group("name"), match.group("version"), 3)
        for match in _MENTION.finditer(line):
            self._version(match.group("name"), match.group("version"), 4)
        if "driver" in lowered:
            match = _DRIVER.search(line)
            if match:
                self.system_versions.setdefault("driver", match.group("version"))
        match = _CUDA_DRIVER.search(line)
        if match:
            self.system_versions.setdefault("cuda_driver", match.group("version"))
        match = _NVCC.search(line)
        if match:
            self.system_versions.setdefault("nvcc", match.group("version"))
        if "python" in lowered:
            match = _PYTHON.search(line)
            if match:
                self.system_versions.setdefault("python", match.group("version"))

    def _heading_versions(self, text: str) -> None:
        """Versions answered under issue-form headings (a version alone on its line is not a
        notable line, so the line scan never sees it)."""
        for match in _HEADING_VERSION.finditer(text):
            name, version = match.group("name"), match.group("version")
            if name.lower() == "python":
                self.system_versions.setdefault("python", version)
            else:
                self._version(name, version, 3)

    def _version(self, name: str, version: str, priority: int) -> None:
        key = _package_key(name)
        have = self.versions.get(key)
        more_specific = (
            have is not None
            and priority == have[0]
            and "+" in version
            and "+" not in have[1]
            and version.startswith(have[1])
        )
        if have is None or priority < have[0] or more_specific:
            self.versions[key] = (priority, version)

    def _environment(self, line: str, lowered: str) -> None:
        for match in _ENVIRONMENT.finditer(lowered):
            name = match.lastgroup
            if name in _OS_MENTIONS:
                if name not in self.os_mentions:
                    self.os_mentions.append(name)
            elif name in _APP_MENTIONS:
                if name not in self.apps:
                    self.apps.append(name)
            elif name == "jetson" and "jetson" not in self.platforms:
                self.platforms.append("jetson")
            if name == "linux" and self.distro is None:
                distro = _DISTRO.search(line)
                if distro:
                    word = " ".join(distro.group(1).lower().split())
                    self.distro = _DISTRO_IDS.get(word, word)
        if self.arch is None and "64" in line:
            match = _ARCH.search(line)
            if match:
                self.arch = match.group(1)
        if self.windows_build is None and "10.0." in line:
            match = _WINDOWS_BUILD.search(line)
            if match:
                self.windows_build = int(match.group("build"))

    # -- output --------------------------------------------------------------------------------

    def groups(self) -> list[FactGroup]:
        """The `pasted.text` group (always, once anything was fed)."""
        if self.total_chars == 0:
            return []
        self._finish_tail()
        kept = {number: line for number, line in (*self.head, *self.extra, *self.tail)}
        lines = [kept[n] for n in sorted(kept)]
        data: dict[str, Any] = {
            "lines": lines,
            "errors": self.errors,
            "frames": self.frames,
            "extensions": self.extensions,
            "companions": self.companions,
            "gpus": self.gpus,
            "compute_capabilities": self.ccs,
            "torch_arch_list": self.arch_list,
            "torch_min_cc": self.min_cc,
            "gfx_targets": self.gfx,
            "versions": {name: version for name, (_, version) in self.versions.items()},
            "system_versions": self.system_versions,
            "os_mentions": self.os_mentions,
            "distro": self.distro,
            "arch": self.arch,
            "windows_build": self.windows_build,
            "apps": self.apps,
            "platforms": self.platforms,
            "languages": self.languages,
            "ollama": {"lines": self.ollama_lines},
            "line_count": self.line_no,
            "char_count": self.total_chars,
            "notable_lines_seen": self.processed,
        }
        first_error = self.errors[0] if self.errors else None
        summary = f"{len(lines)} notable lines of {self.line_no}"
        if first_error:
            summary += f"; first error: {first_error[:120]}"
        return [collected("pasted.text", SOURCE, data, summary=summary, confidence=Confidence.LOW)]


def collector() -> Collector:
    """A fresh streaming collector (the driver feeds it every part)."""
    return Collector()


def detect(text: str) -> bool:
    """Free text is always readable."""
    return bool(text.strip())


def read(text: str) -> list[FactGroup]:
    """The `pasted.text` group of one text."""
    c = Collector()
    c.feed(text)
    return c.groups()


# ---------------------------------------------------------------------------------------------


_PACKAGE_ALIASES = {
    "pytorch": "torch",
    "tensor-flow": "tensorflow",
    "tensor flow": "tensorflow",
    "flash-attn": "flash-attn",
    "flash_attn": "flash-attn",
}
_INTERESTING = re.compile(
    r"^(?:torch|pytorch|tensorflow|tf-|jax|xformers|flash|bitsandbytes|cuda|"
    r"nvidia-|cudatoolkit|cudnn|triton|onnxruntime|cupy|vllm|transformers|"
    r"accelerate|diffusers|mmcv|detectron2|deepspeed|apex|ctranslate2|"
    r"faster-whisper|llama|auto-gptq|peft|cpuonly|rocm|hip)",
    re.IGNORECASE,
)


def _interesting_package(name: str) -> bool:
    return bool(_INTERESTING.match(name))


def _package_key(name: str) -> str:
    key = re.sub(r"[-_.\s]+", "-", name.lower()).strip("-")
    return _PACKAGE_ALIASES.get(key, _PACKAGE_ALIASES.get(name.lower(), key))


def _package_in_path(text: str) -> str | None:
    found = None
    for match in _SITE_PACKAGE.finditer(text):
        found = match.group("pkg")
    return found


def _cc_of(match: re.Match) -> str | None:
    if match.group("sm"):
        sm = int(match.group("sm"))
        return f"{sm // 10}.{sm % 10}"
    return f"{match.group('major')}.{match.group('minor')}"


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
        r"(?i)\b(rtx|gtx|gt|mx)\s?-?(\d)", lambda m: f"{m.group(1).upper()} {m.group(2)}", text
    )
    text = re.sub(r"(?i)(\d)\s?(ti)\b", r"\1 Ti", text)
    text = re.sub(r"(?i)(\d)\s?(super)\b", r"\1 SUPER", text)
    if re.match(r"(?i)^(?:rtx|gtx)\s", text) and "geforce" not in low:
        text = "GeForce " + text
    if re.match(r"(?i)^geforce|^quadro|^tesla|^titan|^jetson|^rtx a|^[ahblv]\d", text):
        text = "NVIDIA " + text
    if re.match(r"(?i)^rx\s?\d", text):
        text = "AMD Radeon " + re.sub(r"(?i)^rx\s?", "RX ", text)
    elif re.match(r"(?i)^radeon", text) or re.match(r"(?i)^instinct", text):
        text = "AMD " + text
    return text
