"""GPUs named in prose, as reports write them: a GeForce by its number ("显卡为4060", "两张3090",
"4090D", "N卡1050TI", "gtx760", "gt 625m"), a generation ("30系", "30显卡"), a data-centre card by its model ("特斯拉p40", "Telsa T4", "A800机器"), an
AMD Radeon by its number ("RX 6600", "6700xt"), and the maker in words ("A卡", "N卡", "英伟达",
"锐炫"). Names come out as the GPU table spells them, so the capability can be looked up. ASCII
word rules: a Chinese character next to a number is a boundary, as a space is."""

from __future__ import annotations

import re

FLAGS = re.IGNORECASE | re.ASCII

# A GeForce model named by its number in prose ("显卡为4060", "两张3090", "用4块3090", "GPU:4060ti",
# "my 4090", "My GPU is 4090", "我的是4090D", "N卡1050TI", "4090显卡", "显卡型号是3060", "笔记本3060"). The China-only "D"
# models (4090 D, 5090 D) are their own rows of the GPU table; "1660s", "2070s" are how Chinese
# reports shorten the SUPER models.
_GEFORCE = (
    r"(?P<num>6[5-9]0|7[5-8]0|9[5-8]0|10[5-8]0|16[56]0|20[6-8]0|30[5-9]0|40[6-9]0|50[6-9]0)"
    r"(?:\s?(?P<suffix>ti|super|d|m|s))?"
)
# the GeForce numbers with a SUPER model, the only ones whose "s" suffix means SUPER
_SUPER_MODELS = (1650, 1660, 2060, 2070, 2080, 4070, 4080)
# what precedes a bare card number in a report: a noun, a classifier ("两张", "4块", "8卡"), a verb
_GPU_LEAD = (
    r"显卡|gpu(?:\s+model(?:\s+and\s+memory)?)?|graphics card|card|my|an?(?=\s)|with|rtx|gtx|geforce|n卡|单卡|双卡|单张|笔记本(?:是|的)?|"
    r"我的(?:是)?|用的(?:是)?|租的|租了|买的|买了|换成了?|换了|"
    # the board makers Chinese reports name a card by: "七彩虹3060", "技嘉4090", "华硕2080ti"
    r"七彩虹|技嘉|华硕|微星|影驰|索泰|铭瑄|映众|耕升|映泰|"
    r"(?:[一两二三四五六七八]|\d{1,2})\s?(?:张|块|台|片)|\b[1-8]\s?x\s"
)
# what follows one: "4090显卡", "3090 GPU", "3060笔记本", "3090*2", "在4090上跑" (not "卡住": stuck)
# ... or its memory size ("4090 24G显存", "3090 24G", "4060 8GB")
_GPU_TAIL = (
    r"显卡|卡(?![住死在顿])|gpus?\b|graphics card|笔记本|laptop|\s?[*×]\s?\d\b|"
    r"上(?:跑|运行|训练|推理|部署|面)|\s?(?:[468]|1[0-6]|2[024]|32|48)\s?gb?(?![a-z0-9])"
)
GPU_NUMBER = re.compile(
    r"(?:(?<![a-z0-9_])(?:" + _GPU_LEAD + r")"
    r"\s*(?:型号)?\s*(?:是|为|:|：|is(?=\s)|=)?\s*(?:nvidia\s*)?(?:geforce\s*)?(?:rtx\s*|gtx\s*)?"
    + _GEFORCE
    + r"(?![a-z0-9.])|(?<![a-z0-9.])"
    + _GEFORCE.replace("num", "num2").replace("suffix", "suffix2")
    + r"\s*(?:"
    + _GPU_TAIL
    + r"))",
    FLAGS,
)
# Data-centre cards by their model ("A800机器", "特斯拉p40的显卡", "Telsa T4 16G", "8卡H20", "v100显卡",
# "Colab T4", "colab (T4)":
# the reader's Unicode word rules miss a model glued to Chinese); the short names that are other
# things too (T4, A10, A30, H20, L20, P4) only next to a GPU word
_DC_CLEAR = (
    r"a800|h800|p40|p100|k80|m40|a6000|a5000|a4500|a4000|a2000|v100s|v100|a100|h100|h200|l40s|l40|"
    r"a40|a10g|gb200|gh200|t1000|t600|t400"
)
_DC_SHORT = r"t4|a10|a30|h20|l20|l4|p4|b200|b100|gb10"
DC_GPU = re.compile(
    r"(?:(?:tesla|telsa|特斯拉|nvidia|丽台|显卡|gpu|卡|张|块|台|用的是?|我的是?|"
    r"colab(?:'s)?(?:\s*\(|\s+with(?:\s+an?)?)?)"
    r"\s*(?:(?:[:：=]|is(?=\s))\s*)?(?P<short>"
    + _DC_SHORT
    + r"|"
    + _DC_CLEAR
    + r")(?![a-z0-9])|(?<![a-z0-9])(?P<short2>"
    + _DC_SHORT
    + r")\s*(?:显卡|卡|gpu|\d{2}\s?g\b)|(?<![a-z0-9-])(?P<clear>"
    + _DC_CLEAR
    + r")(?![a-z0-9]))",
    FLAGS,
)
SERIES = re.compile(
    r"(?<![a-z0-9.])(?P<brand>rtx\s*|gtx\s*)?(?P<series>[2-5]0|16|10)\s*(?:系(?!统)(?:列)?(?:的)?\s*"
    r"(?P<noun>显卡|n卡|卡|gpu)?|(?P<bare>显卡))",
    FLAGS,
)
# An NVIDIA architecture named in words, next to a GPU word ("Pascal GPUs", "my Maxwell card",
# "GPU架构是Turing"): the name only, its capability comes from the architecture table
# (facts._arch_capability). Not Kepler: its cards span 3.0 to 3.7, and the PyTorch wheels that
# carry sm_35 / sm_37 kernels run none of the 3.0 cards, so the word does not choose a build
_ARCHES = r"maxwell|pascal|volta|turing|ampere|ada(?:\s+lovelace)?|hopper|blackwell"
_ARCH_NOUN = r"gpus?|cards?|graphics cards?|architecture|arch|generation|series|显卡|架构"
ARCH = re.compile(
    r"(?<![a-z0-9])(?P<arch>"
    + _ARCHES
    + r")(?:[\s-]*(?:based|class|era|family))?\s*(?:"
    + _ARCH_NOUN
    + r")(?![a-z0-9])|(?:"
    + _ARCH_NOUN
    + r")\s*(?:is|are|:|：|是|为)?\s*(?:an?\s+|the\s+)?(?P<arch2>"
    + _ARCHES
    + r")(?![a-z0-9])",
    FLAGS,
)
# ... unless the words state a requirement, not the GPU in use: FlashAttention's "only supports
# Ampere GPUs or newer" is printed on the GPUs older than Ampere
_REQUIRED_BEFORE = re.compile(
    r"(?:only supports?|supports? only|requires?|required|needs?|at least|minimum|newer than|"
    r"later than|仅支持|只支持|需要|至少)[^.;!?。；]{0,30}$",
    FLAGS,
)
_REQUIRED_AFTER = re.compile(
    r"^[^.;!?。；]{0,12}?(?:or (?:newer|later|above|up|higher)|and (?:newer|later|above|up)|\+|"
    r"(?:及|或)?以上|或更新)",
    FLAGS,
)
# The GeForce GT models the GPU table lists ("gt 625m", "GT740", "GT 640M LE"); GT 730 is not
# one: NVIDIA lists it under two capabilities, one per variant
_GT_MODELS = frozenset(
    ("620M", "625M", "630M", "635M", "640M", "640M LE", "645M", "650M")
    + ("720", "720M", "730M", "735M", "740", "740M", "745M", "750M", "755M")
)
GT_GPU = re.compile(
    r"(?<![a-z0-9])(?:geforce\s*)?gt\s?(?P<num>[67][2-5][05])\s?(?P<m>m)?(?:\s?(?P<le>le))?"
    r"(?![a-z0-9])",
    FLAGS,
)
# the compute capability every card of a generation shares (NVIDIA's CUDA GPUs page)
SERIES_CAPABILITY = {"10": "6.1", "16": "7.5", "20": "7.5", "30": "8.6", "40": "8.9", "50": "12.0"}
_TESLA = ("p40", "p100", "k80", "m40", "t4", "p4", "v100", "v100s")
_RTX_A = ("a6000", "a5000", "a4500", "a4000", "a2000")
# Workstation and named cards by their family word, as the GPU table spells them: "Quadro P400",
# "quadro rtx5000", "Quadro K620", "TITAN RTX", "Titan Xp", "Tesla M60", "RTX 6000 Ada",
# "RTX PRO 6000 Blackwell" (not "TITAN X": a Maxwell and a Pascal card share the name)
NAMED_GPU = re.compile(
    r"(?<![a-z0-9])(?:quadro\s*(?P<quadro>rtx\s*[3-8]000|g[pv]100|[kmpt]\d{3,4}m?)"
    r"|titan\s*(?P<titan>rtx|xp|v)|tesla\s*(?P<tesla>[km]\d{2}m?)"
    r"|rtx\s*(?P<ada>\d{4})\s*ada|rtx\s*pro\s*(?P<pro>\d{4}))(?![a-z0-9])",
    FLAGS,
)
# the GPU table's names of the RTX Ada workstation cards, and of the RTX PRO Blackwell model each
# number names (a Workstation Edition where there are several); a number it lists none for: None
_RTX_ADA_NAMES = {
    number: f"NVIDIA RTX {number} Ada Generation"
    for number in ("2000", "4000", "4500", "5000", "5880", "6000")
}
_RTX_PRO_NAMES = {
    "6000": "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
    "5000": "NVIDIA RTX PRO 5000 Blackwell",
    "4500": "NVIDIA RTX PRO 4500 Blackwell",
    "4000": "NVIDIA RTX PRO 4000 Blackwell",
    "2000": "NVIDIA RTX PRO 2000 Blackwell",
}
# AMD Radeon cards by their number ("RX 6600", "6700xt", "7900 XTX"): the vendor rules out CUDA
AMD_GPU = re.compile(
    r"(?<![a-z0-9])(?:(?:amd\s*)?(?:radeon\s*)?rx\s?(?P<rx>[4-9]\d{2,3})(?:\s?(?P<rxs>xtx|xt|gre))?"
    r"|(?P<num>[5-9]\d{2}0)\s?(?P<sfx>xtx|xt|gre))(?![a-z0-9])",
    FLAGS,
)

# The GPU's maker in words: "A卡" (AMD, as users write it; "80G的A卡或者H卡" is an A100-class card),
# "N卡"/"英伟达" (NVIDIA), "英特尔显卡"/"锐炫" (Intel Arc): it rules CUDA in or out
_AMD_WORDS = re.compile(
    r"(?<![0-9a-z])a卡|amd\s*(?:的)?\s*(?:显卡|gpu|card)|(?<![a-z])radeon", FLAGS
)
_A100_CLASS = re.compile(r"\d+\s*g\s*(?:的)?\s*a卡|a卡\s*(?:或者?|和|或是)\s*h卡", FLAGS)
# Arc models by number: "A770", "A770M", "B580" (not the AMD chipsets A320/A520/B450/B550 of
# motherboards); "因特尔" is a common spelling of 英特尔
_ARC_MODELS = r"a310|a380|a580|a750|a770|a350m|a370m|a530m|a550m|a570m|a730m|a770m|b570|b580"
_INTEL_WORDS = re.compile(
    r"(?:intel|英特尔|因特尔)\s*(?:的)?\s*(?:显卡|独显|arc|锐炫)|锐炫|"
    r"(?<![a-z0-9])(?:arc\s?)?(?:" + _ARC_MODELS + r")(?![a-z0-9])",
    FLAGS,
)
_NVIDIA_WORDS = re.compile(r"(?<![0-9a-z])n卡|英伟达|nvidia\s*(?:的)?\s*显卡", FLAGS)


# What only ROCm's HIP runtime prints, on an AMD GPU: torch's "HIP out of memory", a hipError /
# "HIP error:", Ollama's failed hipMemGetInfo and its gfx list ("amdgpu is not supported"). Not a
# +rocm wheel tag: the web UI's installer puts a ROCm torch on NVIDIA machines with an AMD iGPU.
_AMD_RUNTIME = re.compile(
    r"hip out of memory|(?<![a-z])hiperror|(?<![a-z])hip error:|hipmemgetinfo|"
    r"amdgpu is not supported|no compatible amdgpu devices",
    FLAGS,
)


def gpu_vendor(line: str) -> str | None:
    """The GPU maker a line names in words ("A卡" -> amd, "N卡" -> nvidia) or shows by its runtime's
    messages (HIP: amd), or None."""
    if _AMD_WORDS.search(line) and not _A100_CLASS.search(line):
        return "amd"
    if _AMD_RUNTIME.search(line):
        return "amd"
    if _INTEL_WORDS.search(line):
        return "intel"
    if _NVIDIA_WORDS.search(line):
        return "nvidia"
    return None


def gpu_name(line: str) -> str | None:
    """The GPU a line names in words, as the GPU table spells it: a GeForce by its number, a
    data-centre card by its model ("特斯拉p40" -> "Tesla P40", "A800" -> "NVIDIA A800"), an AMD
    Radeon by its number ("6700xt" -> "AMD Radeon RX 6700 XT"); None when it names none."""
    return (
        geforce_name(line)
        or gt_name(line)
        or datacenter_name(line)
        or named_name(line)
        or radeon_name(line)
        or series_name(line)
        or arch_name(line)
    )


def gt_name(line: str) -> str | None:
    """A GeForce GT model ("gt 625m" -> "NVIDIA GeForce GT 625M") the GPU table lists, or None."""
    for found in GT_GPU.finditer(line):
        model = found.group("num") + ("M" if found.group("m") else "")
        model += " LE" if found.group("le") and found.group("m") else ""
        if model in _GT_MODELS:
            return f"NVIDIA GeForce GT {model}"
    return None


def geforce_name(line: str) -> str | None:
    """The GeForce product a line names by its number ("显卡为4060" -> "NVIDIA GeForce RTX 4060",
    "1050ti" after "GPU:" -> "NVIDIA GeForce GTX 1050 Ti", "4090D" -> "NVIDIA GeForce RTX 4090 D"),
    or None."""
    found = GPU_NUMBER.search(line)
    if found is None:
        return None
    number = int(found.group("num") or found.group("num2"))
    # no GeForce number ends in 00: "RTX 4000 Ada", "RTX 6000" are workstation cards
    if number >= 2000 and number % 100 == 0:
        return None
    suffix = (found.group("suffix") or found.group("suffix2") or "").lower()
    family = "GTX" if number < 2000 else "RTX"
    tail = {"ti": " Ti", "super": " SUPER"}.get(suffix, "")
    if suffix == "s" and number in _SUPER_MODELS:  # "1660s"; elsewhere a plural: "two 3090s"
        tail = " SUPER"
    if suffix == "d" and number in (4090, 5090):
        tail = " D"
    if suffix == "m" and number < 1000:  # the Maxwell laptop chips: "GTX 960M"
        tail = "M"
    return f"NVIDIA GeForce {family} {number}{tail}"


def series_name(line: str) -> str | None:
    """A GeForce generation named in words ("30系显卡" -> "NVIDIA GeForce RTX 30 series"), or None;
    its capability is SERIES_CAPABILITY's."""
    found = SERIES.search(line)
    if found is None or not (found.group("brand") or found.group("noun") or found.group("bare")):
        return None
    series = found.group("series")
    if found.group("bare") and series in ("10", "16"):  # "10显卡", "16显卡": a count as likely
        return None
    family = "GTX" if series in ("10", "16") else "RTX"
    return f"NVIDIA GeForce {family} {series} series"


def arch_name(line: str) -> str | None:
    """An NVIDIA architecture named next to a GPU word ("Pascal GPUs" -> "NVIDIA Pascal GPU"),
    or None; its capability is the architecture table's (`facts._arch_capability`)."""
    for found in ARCH.finditer(line):
        if _REQUIRED_BEFORE.search(line[: found.start()]) or _REQUIRED_AFTER.search(
            line[found.end() :]
        ):
            continue  # "only supports Ampere GPUs or newer": a requirement, not this GPU
        arch = re.sub(r"\s+", " ", found.group("arch") or found.group("arch2")).title()
        return f"NVIDIA {'Ada Lovelace' if arch == 'Ada' else arch} GPU"
    return None


def datacenter_name(line: str) -> str | None:
    """A data-centre card named by its model, as the GPU table spells it, or None."""
    found = DC_GPU.search(line)
    if found is None:
        return None
    model = (found.group("short") or found.group("short2") or found.group("clear")).lower()
    if model in _TESLA:
        return f"{'NVIDIA ' if model == 'v100s' else ''}Tesla {model.upper()}"
    if model in _RTX_A:
        return f"NVIDIA RTX {model.upper()}"
    return f"NVIDIA {model.upper()}"


def named_name(line: str) -> str | None:
    """A workstation or named card by its family word ("Quadro P400" -> "Quadro P400", "rtx 6000
    ada" -> "NVIDIA RTX 6000 Ada Generation"), as the GPU table spells it, or None."""
    found = NAMED_GPU.search(line)
    if found is None:
        return None
    if found.group("quadro"):
        return "Quadro " + re.sub(r"(?i)rtx\s*", "RTX ", found.group("quadro")).upper()
    if found.group("titan"):
        titan = found.group("titan").upper()
        return f"NVIDIA TITAN {'Xp' if titan == 'XP' else titan}"
    if found.group("tesla"):
        model = found.group("tesla")
        return f"Tesla {model[0].upper()}{model[1:].lower()}"
    if found.group("ada"):
        return _RTX_ADA_NAMES.get(found.group("ada"))
    return _RTX_PRO_NAMES.get(found.group("pro"))


def radeon_name(line: str) -> str | None:
    """An AMD Radeon card named by its number ("RX 6600", "6700xt"), or None."""
    found = AMD_GPU.search(line)
    if found is None:
        return None
    number = found.group("rx") or found.group("num")
    suffix = (found.group("rxs") or found.group("sfx") or "").upper()
    return f"AMD Radeon RX {number}{' ' + suffix if suffix else ''}"


# How many GPUs a report names, counted with the card: "两张3090", "4张4090", "8卡A800", "双卡 4090",
# "RTX 4090 * 4卡", "2080ti 22G * 4", "T4 x 2", "Using 8 H20 GPUs", "2 T4 GPU". Two or more only:
# "单卡" / "一张" as often weigh what one card holds ("4090单卡不够") as say how many there are
_CARD = (
    r"(?:nvidia\s*|tesla\s*|telsa\s*|特斯拉\s*)?(?:geforce\s*)?(?:rtx\s*|gtx\s*)?"
    r"(?:(?:[1-5]0[5-9]0|16[56]0)(?:\s?(?:ti|super|d))?|" + _DC_CLEAR + "|" + _DC_SHORT + r")"
    r"(?![a-z0-9.])"
)
_ZH_COUNT = {"两": 2, "二": 2, "双": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8}
GPU_COUNT = re.compile(
    r"(?<![a-z0-9.])(?P<lead>[两二三四五六七八]|[2-9]|1[0-6])\s?(?:张|块|片|卡)\s*(?:卡\s*)?"
    + _CARD
    + r"|(?P<dual>双卡)\s*"
    + _CARD
    + r"|"
    + _CARD
    + r"(?:\s?\d{1,2}\s?gb?)?\s?[*×x]\s?(?P<tail>[2-9]|1[0-6])\s*(?:卡|张|块)?(?![\d.a-z])"
    + r"|(?<![a-z0-9.])(?P<en>[2-9]|1[0-6])\s?x?\s"
    + _CARD
    + r"\s*gpus?\b",
    FLAGS,
)


def gpu_count(line: str) -> int | None:
    """How many GPUs a line names with the card ("两张3090" -> 2, "T4 x 2" -> 2), two or more;
    None when it names no count."""
    found = GPU_COUNT.search(line)
    if found is None:
        return None
    if found.group("dual") is not None:
        return 2
    text = found.group("lead") or found.group("tail") or found.group("en")
    return _ZH_COUNT.get(text) or int(text)
