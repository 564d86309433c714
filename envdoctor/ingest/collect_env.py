"""Reader of `python -m torch.utils.collect_env` output, every version of its format.

Handles the 2018 format (`[pip] numpy (1.15.0)`, Yes/No), 1.x and 2.x (`Libc version`,
`Python platform`, `CPU:` lscpu section, `CUDA_MODULE_LOADING`, `Is XNNPACK available`), forks
that pad keys (`OS                 : Ubuntu ...`, vLLM's `==== System Info ====` sections and
`vLLM Version`), dumps pasted as a Markdown quote (`> PyTorch version: ...`), Windows (cudnn64_*.dll paths, `OS: Microsoft Windows 10 Pro`, a cp866/cp1251
mojibake OS line, `OS: Could not collect`), macOS, ROCm builds (`HIP runtime version`, AMD GPU
names with their gfx target), and leading runpy warnings.

Groups filled (source "pasted:collect_env", confidence medium), the same the live probes fill:

- `os`: system (Linux / Windows / Darwin), distro_id, distro_version, distro_name, kernel, arch,
  glibc, virtualization ("wsl" when the kernel says so), windows_build.
- `python`: version, implementation, pointer_bits, platform.
- `python.packages`: packages {normalized name: version}, installers {name: pip|conda},
  conda_builds {name: build string}, conda_channels {name: channel}.
- `python.torch`: version, variant (the local label: cpu, cu121, rocm6.2...), build
  (cpu | cuda | rocm, from "CUDA/ROCM used to build"), cuda ("CUDA used to build PyTorch"), hip,
  debug, cuda_available, cuda_module_loading.
- `nvidia.driver`: driver_version (failed with the reason when a CUDA build "Could not collect").
- `nvidia.gpus` / `amd.gpus`: gpus [{index, name, compute_capability (matrix, NVIDIA) or
  gfx_target (AMD)}].
- `cuda.toolkits`: the nvcc collect_env found ("CUDA runtime version" is nvcc's version):
  toolkits [{version, path: None, nvcc_version}], nvcc_version.
- `cuda.cudnn`: version (when printed) and libraries (the paths it lists).
- `amd.rocm`: hip_runtime, miopen (ROCm builds only).
- `apps.vllm`: version and build flags (vLLM's fork only).
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.model.nvidia_records import new_gpu
from envdoctor.model.snapshot import Confidence, FactGroup, absent, collected, failed
from envdoctor.model.wheel_variant import torch_variant

NAME = "collect_env"
SOURCE = "pasted:collect_env"
MARKERS = ("PyTorch version", "Is CUDA available", "CUDA used to build PyTorch")

_KEY_LINE = re.compile(
    r"^\s*(?P<key>[A-Za-z][A-Za-z0-9 _/().+-]{1,60}?)\s*:(?:\s+(?P<value>.*?))?\s*$"
)
_MARKERS = (
    "PyTorch version",
    "Is debug build",
    "CUDA used to build PyTorch",
    "Is CUDA available",
    "GPU models and configuration",
    "Nvidia driver version",
    "cuDNN version",
    "Versions of relevant libraries",
    "Collecting environment information",
)
_NOT_A_VALUE = {"", "n/a", "none", "no cuda", "could not collect", "unknown", "not available"}
_ARCHES = ("x86_64", "amd64", "aarch64", "arm64", "ppc64le", "s390x", "i686", "i386", "armv7l")
_LIB_LINE = re.compile(r"^\s*\[(?P<tool>pip\d?|conda|conda-forge|uv)\]\s+(?P<rest>.+?)\s*$")
_PIP_EQ = re.compile(r"^(?P<name>[A-Za-z0-9_.\-]+)\s*(?:==|===)\s*(?P<version>\S+)")
_PIP_PAREN = re.compile(r"^(?P<name>[A-Za-z0-9_.\-]+)\s+\((?P<version>[^)]+)\)")
_CONDA = re.compile(
    r"^(?P<name>[A-Za-z0-9_.\-]+)\s+(?P<version>\S+)(?:\s+(?P<build>\S+))?(?:\s+(?P<rest>.*))?$"
)
_GPU_LINE = re.compile(r"^\s*GPU\s*(?P<index>\d+)\s*:\s*(?P<name>.+?)\s*$")
_GFX = re.compile(r"\((?P<gfx>gfx[0-9a-f]+)(?::[^)]*)?\)")
_PLATFORM_LINUX = re.compile(
    r"^Linux-(?P<kernel>.+?)-(?P<arch>x86_64|aarch64|ppc64le|s390x|armv7l|i686)(?:-with-(?P<libc>.+))?$"
)
_PLATFORM_MAC = re.compile(r"^macOS-(?P<version>[\d.]+)-(?P<arch>\w+)")
_PLATFORM_WIN = re.compile(r"^Windows-(?P<release>\w+)-(?P<build>[\d.]+)")
_VERSION = re.compile(r"\d+(?:\.\d+)+")
_BLOCKQUOTE = re.compile(r"^\s{0,3}(?:>\s?){1,5}")  # a dump pasted as a Markdown quote
_DISTRO_IDS = (
    ("red hat enterprise linux", "rhel"),
    ("rocky", "rocky"),
    ("almalinux", "almalinux"),
    ("centos", "centos"),
    ("fedora", "fedora"),
    ("ubuntu", "ubuntu"),
    ("debian", "debian"),
    ("arch linux", "arch"),
    ("manjaro", "manjaro"),
    ("opensuse", "opensuse"),
    ("suse", "sles"),
    ("linux mint", "linuxmint"),
    ("pop!_os", "pop"),
    ("amazon linux", "amzn"),
    ("gentoo", "gentoo"),
    ("nixos", "nixos"),
    ("cachyos", "cachyos"),
    ("endeavouros", "endeavouros"),
    ("oracle linux", "ol"),
    ("alpine", "alpine"),
    ("kali", "kali"),
    ("elementary", "elementary"),
)


def detect(text: str) -> bool:
    """Whether the text holds a collect_env dump (at least two of its tell-tale keys)."""
    head = text[:200000]
    return sum(1 for marker in _MARKERS if marker in head) >= 2


def read(text: str) -> list[FactGroup]:
    """The fact groups of a collect_env dump."""
    fields, gpu_lines, cudnn_lines, libraries = _parse(text)
    if not any(
        key in fields
        for key in ("pytorch version", "is cuda available", "cuda used to build pytorch")
    ):
        return []
    out: list[FactGroup] = []
    torch = _torch(fields)
    os_facts = _os(fields, cudnn_lines)
    if os_facts is not None:
        out.append(_group("os", os_facts, _os_summary(os_facts)))
    elif "os" in fields:
        out.append(
            failed(
                "os",
                SOURCE,
                f"collect_env printed 'OS: {fields['os']}'",
                confidence=Confidence.MEDIUM,
            )
        )
    python = _python(fields, os_facts)
    if python:
        out.append(_group("python", python, f"Python {python['version']}"))
    packages = _packages(libraries)
    if torch:
        packages["packages"].setdefault("torch", torch["version"])
    if packages["packages"]:
        out.append(
            _group(
                "python.packages",
                packages,
                f"{len(packages['packages'])} distributions listed by collect_env",
            )
        )
    if torch:
        out.append(_group("python.torch", torch, _torch_summary(torch)))
    out.extend(_gpu_groups(fields, gpu_lines, torch))
    if _no_cuda_anywhere(fields) and not any(g.name == "nvidia.gpus" for g in out):
        # collect_env prints "No CUDA" in these fields only when nvidia-smi gave neither a
        # driver version nor a GPU: no NVIDIA driver answers on that machine
        out.append(
            absent(
                "nvidia.gpus",
                SOURCE,
                "collect_env: 'GPU models and configuration: No CUDA', "
                "'Nvidia driver version: No CUDA'",
            )
        )
    driver = _clean(fields.get("nvidia driver version"))
    if driver:
        out.append(
            _group(
                "nvidia.driver",
                {"driver_version": driver, "cuda_driver_max": None},
                f"driver {driver}",
            )
        )
    elif torch.get("build") == "cuda" and "nvidia driver version" in fields:
        out.append(
            failed(
                "nvidia.driver",
                SOURCE,
                f"collect_env printed 'Nvidia driver version: {fields['nvidia driver version']}'",
                confidence=Confidence.MEDIUM,
            )
        )
    nvcc = _version_text(fields.get("cuda runtime version"))
    if nvcc:
        out.append(
            _group(
                "cuda.toolkits",
                {
                    "toolkits": [{"version": nvcc, "path": None, "nvcc_version": nvcc}],
                    "nvcc_version": nvcc,
                },
                f"nvcc {nvcc}",
            )
        )
    cudnn = _cudnn(fields.get("cudnn version"), cudnn_lines)
    if cudnn:
        out.append(_group("cuda.cudnn", cudnn, _cudnn_summary(cudnn)))
    rocm = {
        "hip_runtime": _version_text(fields.get("hip runtime version")),
        "miopen": _version_text(fields.get("miopen runtime version")),
    }
    if any(rocm.values()):
        out.append(_group("amd.rocm", rocm, f"HIP {rocm['hip_runtime'] or '?'}"))
    vllm = _clean(fields.get("vllm version"))
    if vllm:
        out.append(
            _group(
                "apps.vllm",
                {"version": vllm, "build_flags": _clean(fields.get("vllm build flags"))},
                f"vLLM {vllm}",
            )
        )
    return out


# ---------------------------------------------------------------------------------------------


def _group(name: str, data: dict[str, Any], summary: str | None) -> FactGroup:
    return collected(name, SOURCE, data, summary=summary, confidence=Confidence.MEDIUM)


def _parse(text: str) -> tuple[dict[str, str], list[str], list[str], list[tuple[str, str]]]:
    """(fields by normalised key, GPU lines, cuDNN lines, (tool, rest) library lines)."""
    fields: dict[str, str] = {}
    gpu_lines: list[str] = []
    cudnn_lines: list[str] = []
    libraries: list[tuple[str, str]] = []
    block: str | None = None  # the multi-line field being continued
    in_cpu = False
    for raw in text.splitlines():
        line = _BLOCKQUOTE.sub("", raw).rstrip()
        lib = _LIB_LINE.match(line)
        if lib:
            libraries.append((lib.group("tool"), lib.group("rest")))
            block = None
            continue
        stripped = line.strip()
        if not stripped or set(stripped) <= {"="}:
            block = None if block != "gpu" else block
            continue
        gpu = _GPU_LINE.match(line)
        if gpu and block in ("gpu", None) and "gpu models and configuration" in fields:
            gpu_lines.append(line)
            block = "gpu"
            continue
        if block == "cudnn" and (
            stripped.startswith(("/", "\\")) or re.match(r"[A-Za-z]:\\", stripped)
        ):
            cudnn_lines.append(stripped)
            continue
        match = _KEY_LINE.match(line)
        if match is None:
            block = None
            continue
        key = " ".join(match.group("key").lower().split())
        value = (match.group("value") or "").strip()
        if key == "cpu" and not value:
            in_cpu = True
            continue
        if in_cpu and key not in _KNOWN_KEYS:
            continue  # lscpu lines
        in_cpu = False
        if key in fields:
            continue  # the first occurrence wins (vLLM repeats some keys)
        fields[key] = value
        block = None
        if key == "gpu models and configuration":
            block = "gpu"
            if value and _GPU_LINE.match(value) or value:
                gpu_lines.append(value)
        elif key == "cudnn version":
            block = "cudnn"
    return fields, gpu_lines, cudnn_lines, libraries


_KNOWN_KEYS = {
    "pytorch version",
    "is debug build",
    "cuda used to build pytorch",
    "rocm used to build pytorch",
    "os",
    "gcc version",
    "clang version",
    "cmake version",
    "libc version",
    "python version",
    "python platform",
    "is cuda available",
    "cuda runtime version",
    "cuda_module_loading set to",
    "gpu models and configuration",
    "nvidia driver version",
    "cudnn version",
    "hip runtime version",
    "miopen runtime version",
    "is xnnpack available",
    "is xpu available",
    "versions of relevant libraries",
    "vllm version",
    "vllm build flags",
    "rocm version",
    "neuron sdk version",
    "gpu topology",
}


def _clean(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    return None if value.lower() in _NOT_A_VALUE else value


def _version_text(value: str | None) -> str | None:
    value = _clean(value)
    if value is None:
        return None
    match = _VERSION.search(value)
    return match.group(0) if match else None


def _bool(value: str | None) -> bool | None:
    value = (value or "").strip().lower()
    if value in ("true", "yes"):
        return True
    if value in ("false", "no"):
        return False
    return None


def _torch(fields: dict[str, str]) -> dict[str, Any]:
    version = _clean(fields.get("pytorch version"))
    if version is None:
        return {}
    cuda = _clean(fields.get("cuda used to build pytorch"))
    rocm = _clean(fields.get("rocm used to build pytorch"))
    cuda_version = _version_text(cuda)
    hip = _version_text(rocm) or _version_text(fields.get("hip runtime version"))
    build = "rocm" if rocm else ("cuda" if cuda_version else "cpu")
    return {
        "version": version,
        "variant": torch_variant(version),
        "build": build,
        "cuda": cuda_version,
        "hip": hip if build == "rocm" else None,
        "debug": _bool(fields.get("is debug build")),
        "cuda_available": _bool(fields.get("is cuda available")),
        "cuda_module_loading": _clean(fields.get("cuda_module_loading set to")),
        "source": "collect_env",
    }


def _torch_summary(torch: dict[str, Any]) -> str:
    build = {
        "cpu": "CPU-only",
        "cuda": f"CUDA {torch.get('cuda')}",
        "rocm": f"ROCm {torch.get('hip')}",
    }.get(str(torch.get("build")), "")
    available = torch.get("cuda_available")
    tail = "" if available is None else (", GPU available" if available else ", no GPU available")
    return f"torch {torch['version']} ({build}){tail}"


def _os(fields: dict[str, str], cudnn_lines: list[str]) -> dict[str, Any] | None:
    raw = (fields.get("os") or "").strip()
    platform_line = (fields.get("python platform") or "").strip()
    value = repaired = _repair_mojibake(raw)
    facts: dict[str, Any] = {
        "system": None,
        "distro_id": None,
        "distro_version": None,
        "distro_name": None,
        "kernel": None,
        "arch": None,
        "glibc": None,
        "virtualization": None,
    }
    known = _clean(value) is not None
    if known:
        arch_match = re.search(r"\s*\((" + "|".join(_ARCHES) + r")\)\s*$", value, re.IGNORECASE)
        if arch_match:
            facts["arch"] = arch_match.group(1)
            value = value[: arch_match.start()].strip()
        win = re.search(r"(?:Microsoft\s+)?Windows\s+(?:Server\s+)?\d+[^()]*", value)
        low = value.lower()
        if win:
            name = value.strip() if repaired != raw else win.group(0).strip()
            facts.update(
                system="Windows",
                distro_id="windows",
                distro_name=name,
                distro_version=_first_version(win.group(0)),
            )
            build = re.search(r"\(10\.0\.(\d+)", value)
            if build:
                facts["windows_build"] = int(build.group(1))
        elif low.startswith(("macos", "mac osx", "mac os x", "os x", "darwin")):
            facts.update(
                system="Darwin",
                distro_id="macos",
                distro_name=value,
                distro_version=_first_version(value),
            )
        else:
            facts.update(system="Linux", distro_name=value, distro_version=_first_version(value))
            for marker, distro_id in _DISTRO_IDS:
                if marker in low:
                    facts["distro_id"] = distro_id
                    break
        if repaired != raw:
            facts["os_line"] = raw
    linux = _PLATFORM_LINUX.match(platform_line)
    mac = _PLATFORM_MAC.match(platform_line)
    win_platform = _PLATFORM_WIN.match(platform_line)
    if linux:
        facts["system"] = facts["system"] or "Linux"
        facts["kernel"] = linux.group("kernel")
        facts["arch"] = facts["arch"] or linux.group("arch")
        libc = linux.group("libc") or ""
        glibc = re.match(r"glibc(\d+(?:\.\d+)+)", libc)
        if glibc:
            facts["glibc"] = glibc.group(1)
        if "microsoft" in linux.group("kernel").lower():
            facts["virtualization"] = "wsl"
    elif mac:
        facts["system"] = facts["system"] or "Darwin"
        facts["arch"] = facts["arch"] or mac.group("arch")
    elif win_platform:
        facts["system"] = "Windows"
        facts["distro_id"] = facts["distro_id"] or "windows"
        build = re.search(r"10\.0\.(\d+)", win_platform.group("build"))
        if build:
            facts["windows_build"] = int(build.group(1))
    libc = re.match(r"glibc-(\d+(?:\.\d+)+)", (fields.get("libc version") or "").strip())
    if libc and not facts["glibc"]:
        facts["glibc"] = libc.group(1)
    if facts["system"] is None and any(re.match(r"[A-Za-z]:\\", p) for p in cudnn_lines):
        facts["system"] = "Windows"
        facts["distro_id"] = "windows"
    if not known and facts["system"] is None:
        return None
    return facts


def _first_version(text: str) -> str | None:
    match = re.search(r"\d+(?:\.\d+)*", text)
    return match.group(0) if match else None


def _repair_mojibake(value: str) -> str:
    """Undo the commonest mojibake of a localised Windows name: cp866 bytes shown as cp1251
    ("Њ ©Єа®б®дв Windows 10" -> "Майкрософт Windows 10") or UTF-8 shown as cp1252."""
    if value.isascii():
        return value
    for wrong, right in (("cp1251", "cp866"), ("cp1252", "utf-8"), ("latin-1", "utf-8")):
        try:
            fixed = value.encode(wrong).decode(right)
        except (UnicodeEncodeError, UnicodeDecodeError):
            continue
        letters = [ch for ch in fixed if ch.isalpha() and not ch.isascii()]
        if letters and all(_script(ch) == _script(letters[0]) for ch in letters):
            return fixed
    return value


def _script(ch: str) -> str:
    code = ord(ch)
    if 0x0400 <= code <= 0x04FF:
        return "cyrillic"
    if 0x4E00 <= code <= 0x9FFF:
        return "cjk"
    if 0x00C0 <= code <= 0x024F:
        return "latin"
    return "other"


def _os_summary(facts: dict[str, Any]) -> str:
    parts = [facts.get("distro_name") or facts.get("system") or "unknown OS"]
    if facts.get("kernel"):
        parts.append(f"kernel {facts['kernel']}")
    if facts.get("arch"):
        parts.append(facts["arch"])
    if facts.get("virtualization"):
        parts.append(f"in {facts['virtualization']}")
    return ", ".join(parts)


def _python(fields: dict[str, str], os_facts: dict[str, Any] | None) -> dict[str, Any]:
    value = _clean(fields.get("python version"))
    if value is None:
        return {}
    version = re.match(r"\d+(?:\.\d+){0,2}", value)
    if version is None:
        return {}
    bits = re.search(r"\((\d+)-bit runtime\)", value)
    system = (os_facts or {}).get("system")
    return {
        "version": version.group(0),
        "implementation": "CPython",
        "pointer_bits": int(bits.group(1)) if bits else None,
        "platform": {"Linux": "linux", "Windows": "win32", "Darwin": "darwin"}.get(system or ""),
        "distribution": "conda"
        if re.search(r"packaged by (?:Anaconda|conda-forge)", value)
        else None,
    }


def _normalize(name: str) -> str:
    return re.sub(r"[-_.\s]+", "-", name.lower()).strip("-")


def _packages(libraries: list[tuple[str, str]]) -> dict[str, Any]:
    packages: dict[str, str] = {}
    installers: dict[str, str] = {}
    builds: dict[str, str] = {}
    channels: dict[str, str] = {}
    conda: list[tuple[str, str, str | None, str | None]] = []
    for tool, rest in libraries:
        if rest.lower().startswith("could not collect"):
            continue
        if tool.startswith(("pip", "uv")):
            match = _PIP_EQ.match(rest) or _PIP_PAREN.match(rest)
            if match:
                name = _normalize(match.group("name"))
                packages.setdefault(name, match.group("version"))
                installers.setdefault(name, "pip")
            continue
        match = _CONDA.match(rest)
        if match:
            conda.append(
                (
                    _normalize(match.group("name")),
                    match.group("version"),
                    match.group("build"),
                    (match.group("rest") or "").strip() or None,
                )
            )
    for name, version, build, channel in conda:
        from_pip = build == "<pip>" or build == "pypi_0" or channel == "pypi"
        key = "torch" if name == "pytorch" and not from_pip else name
        if key not in packages:
            packages[key] = version
            installers[key] = "pip" if from_pip else "conda"
        if not from_pip and build:
            builds.setdefault(key, build)
            if channel:
                channels.setdefault(key, channel.split()[-1])
    return {
        "packages": packages,
        "installers": installers,
        "conda_builds": builds,
        "conda_channels": channels,
    }


def _gpu_groups(
    fields: dict[str, str], gpu_lines: list[str], torch: dict[str, Any]
) -> list[FactGroup]:
    entries: list[tuple[int, str]] = []
    for position, line in enumerate(gpu_lines):
        match = _GPU_LINE.match(line)
        if match:
            entries.append((int(match.group("index")), match.group("name")))
        elif _clean(line):
            entries.append((position, line.strip()))
    if not entries:
        return []
    nvidia: list[dict[str, Any]] = []
    amd: list[dict[str, Any]] = []
    for index, name in entries:
        if _is_amd(name) or torch.get("build") == "rocm":
            gfx = _GFX.search(name)
            amd.append(
                {
                    "index": index,
                    "name": _GFX.sub("", name).strip(),
                    "gfx_target": gfx.group("gfx") if gfx else None,
                }
            )
        else:
            nvidia.append(_nvidia_gpu(index, name))
    out = []
    if nvidia:
        out.append(_group("nvidia.gpus", {"gpus": nvidia}, _gpu_summary(nvidia)))
    if amd:
        out.append(_group("amd.gpus", {"gpus": amd}, _gpu_summary(amd)))
    return out


def _no_cuda_anywhere(fields: dict[str, str]) -> bool:
    """Whether the GPU and driver fields both say "No CUDA" (all of nvidia-smi's were empty)."""
    return all(
        str(fields.get(key, "")).strip().lower() == "no cuda"
        for key in ("gpu models and configuration", "nvidia driver version")
    )


def _is_amd(name: str) -> bool:
    low = name.lower()
    return "radeon" in low or "instinct" in low or low.startswith("amd ") or "(gfx" in low


def _nvidia_gpu(index: int, name: str) -> dict[str, Any]:
    record = new_gpu(index)
    record["name"] = name
    return record


def _gpu_summary(gpus: list[dict[str, Any]]) -> str:
    names: dict[str, int] = {}
    for gpu in gpus:
        names[gpu["name"]] = names.get(gpu["name"], 0) + 1
    return ", ".join(f"{n} × {name}" if n > 1 else name for name, n in names.items())


def _cudnn(value: str | None, lines: list[str]) -> dict[str, Any] | None:
    value = _clean(value)
    libraries = list(lines)
    version = None
    if value:
        if value.lower().startswith("probably one of the following"):
            pass
        elif value.startswith(("/", "\\")) or re.match(r"[A-Za-z]:\\", value):
            libraries.insert(0, value)
        else:
            version = _version_text(value)
    if version is None:
        versions = set()
        for path in libraries:
            match = re.search(r"libcudnn\.so\.(\d+(?:\.\d+)*)$", path) or re.search(
                r"cudnn64_(\d+)\.dll$", path, re.IGNORECASE
            )
            if match:
                versions.add(match.group(1))
        if len(versions) == 1:
            version = versions.pop()
    if version is None and not libraries:
        return None
    return {"version": version, "libraries": libraries}


def _cudnn_summary(cudnn: dict[str, Any]) -> str:
    if cudnn.get("version"):
        return f"cuDNN {cudnn['version']}"
    return f"{len(cudnn['libraries'])} cuDNN libraries listed"
