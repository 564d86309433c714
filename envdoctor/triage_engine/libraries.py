"""Facts a paste's library names tell, so a fix can name what it turns on.

A loader error names the library file, and the file name carries the version the program was
built for: `libcudnn_ops_infer.so.8` / `cudnn_ops64_9.dll` is cuDNN 8 / 9, `libcudart.so.10.1` /
`cudart64_101.dll` the CUDA 10.1 runtime, `cublas64_12.dll` CUDA 12's cuBLAS. From CUDA 11 on the
runtime libraries carry only the major (`libcudart.so.11.0`, `cudart64_110.dll` serve every 11.x),
so only the major is named then. The traceback's paths (`site-packages/ctranslate2/...`) name the
package that loads it, and the python_frameworks table the releases of that package built for the
library found. A Windows DLL missing names what installs it (the Visual C++ runtime, a CUDA
runtime, cuDNN, the driver). A compiled torch extension (`flash_attn_2_cuda...so`) names its pip
package. A stated CUDA requirement ("unsatisfied condition: cuda>=11.8") gives the driver floor
from the cuda_driver table.

Every fact is None when the paste does not tell it: a fix naming one is then not shown.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from envdoctor.model.extensions import extension_pip

FACT_NAMES = (
    "lib.cudnn",
    "lib.cudnn_file",
    "lib.cudnn_cudas",
    "lib.cudnn_wheel",
    "lib.cuda",
    "lib.cuda_major",
    "lib.cuda_file",
    "lib.cuda_min_driver",
    "lib.cuda_min_driver_windows",
    "lib.jetpack_for_cuda",
    "lib.loader",
    "lib.loader_version",
    "lib.loader_named",
    "lib.loader_builds",
    "lib.dll",
    "lib.dll_provider",
    "lib.dlls",
    "cuda.required",
    "cuda.required_driver",
    "cuda.required_driver_windows",
    "lib.conda_lib",
    "lib.conda_dir",
    "ext.package",
    "ext.install",
    "ext.torch",
)

_FAILED = re.compile(
    r"could not|couldn't|cannot|can't|unable|not found|no such file|failed|missing|error|"
    r"not (?:be )?loaded|找不到|无法|缺少|缺失|丢失|未找到|没有找到|失败",
    re.I | re.A,
)
_CUDNN = re.compile(
    r"(?P<file>lib(?:cudnn)\w{0,40}\.so\.(?P<major>\d{1,2})(?:\.\d+){0,2}"
    r"|cudnn\w{0,40}?64_(?P<win>\d{1,2})\.dll)",
    re.I | re.A,
)
# cudart / cuBLAS / cuBLASLt / NVRTC are versioned by the CUDA release; cuFFT, cuRAND, cuSPARSE
# and cuSOLVER carry their own library versions (cufft64_10.dll ships with CUDA 11), so not them.
_CUDA_SO = re.compile(
    r"(?P<file>lib(?:cudart|cublasLt|cublas|nvrtc)\.so\.(?P<major>\d{1,2})(?:\.(?P<minor>\d))?)",
    re.I | re.A,
)
_CUDA_DLL = re.compile(
    r"(?P<file>(?:cudart|cublasLt|cublas|nvrtc)64_(?P<digits>\d{2,3})(?:_\d)?\.dll)", re.I | re.A
)
# a CUDA library file under a conda environment's own library folder (Linux: <env>/lib, Windows:
# <env>\\Library\\bin): conda's cudatoolkit / cuda-* packages put them there, pip wheels never do
_CONDA_LIB = re.compile(
    r"(?P<path>(?:[A-Za-z]:)?[\\/][^\s'\"]{0,240}?(?:conda|mamba|miniforge)[^\s'\"]{0,240}?[\\/]"
    r"(?P<lib>lib(?:cublas\w{0,4}|cudart|cudnn\w{0,20}|cusparse|cufft|curand|cusolver|nvrtc|nvJitLink)"
    r"\.so[\d.]{0,12}|(?:cublas\w{0,4}|cudart|cudnn\w{0,20}|cusparse|cufft|curand|cusolver|nvrtc)64_\d{1,3}"
    r"(?:_\d)?\.dll))",
    re.I | re.A,
)
_SITE = re.compile(r"(?:site|dist)-packages[\\/]+(?P<pkg>[A-Za-z_][A-Za-z0-9_]{1,40})", re.I | re.A)
_REQUIRED = (
    re.compile(r"unsatisfied condition:\s*cuda\s*>=?\s*(?P<v>\d{1,2}\.\d)", re.I | re.A),
    re.compile(
        r"(?:requires?|needs?|need at least|requiring)\s+(?:a\s+)?(?:nvidia\s+)?cuda"
        r"(?:\s+(?:toolkit|runtime|version))?\s*(?:>=\s*|version\s+)?v?(?P<v>1[0-3]\.\d)\b",
        re.I | re.A,
    ),
    re.compile(r"\bcuda\s*(?P<v>1[0-3]\.\d)\s+or\s+(?:later|newer|higher|above)\b", re.I | re.A),
    # a major only ("requires CUDA 12.x"): the major's minor-version-compatibility floor
    re.compile(
        r"(?:requires?|needs?|need at least|requiring)\s+(?:a\s+)?(?:nvidia\s+)?cuda\s*(?P<v>1[1-3]\.x)\b",
        re.I | re.A,
    ),
)

# The module a path or line names -> the pip package that loads CUDA libraries through it.
LOADERS: dict[str, str] = {
    "ctranslate2": "ctranslate2",
    "faster_whisper": "ctranslate2",
    "whisperx": "ctranslate2",
    "onnxruntime": "onnxruntime-gpu",
    "onnxruntime_gpu": "onnxruntime-gpu",
    "insightface": "onnxruntime-gpu",
    "rapidocr_onnxruntime": "onnxruntime-gpu",
    "tensorflow": "tensorflow",
    "tensorflow_core": "tensorflow",
    "keras": "tensorflow",
    "paddle": "paddlepaddle-gpu",
    "paddleocr": "paddlepaddle-gpu",
    "paddlehub": "paddlepaddle-gpu",
    "mxnet": "mxnet",
    "jaxlib": "jax",
    "jax": "jax",
    "cupy": "cupy",
    "cupy_backends": "cupy",
    "llama_cpp": "llama-cpp-python",
    "tensorrt": "tensorrt",
    "torch": "torch",
}
# the names as people write them in prose or pip lists ("faster-whisper", "onnxruntime-gpu")
_MENTION = re.compile(
    r"\b(?P<name>ctranslate2|faster[-_]whisper|whisperx|onnxruntime(?:[-_]gpu)?|tensorflow(?:[-_]gpu)?"
    r"|paddlepaddle(?:[-_]gpu)?|paddleocr|mxnet(?:-cu\d+)?|jaxlib|cupy(?:-cuda\w+)?|llama[-_]cpp[-_]python)\b",
    re.I | re.A,
)
# the table's package for a loader's pip name (python_frameworks rows)
_TABLE_PACKAGE = {"onnxruntime-gpu": "onnxruntime-gpu", "tensorflow": "tensorflow"}

# Windows DLL -> what installs it (each a vendor's own naming: Visual C++ runtime DLLs come with
# the Visual C++ Redistributable; cudnn*64_N.dll with cuDNN N; zlibwapi.dll is cuDNN 8's zlib
# dependency; nvcuda.dll comes only with the NVIDIA display driver).
_DLL = re.compile(r"(?P<dll>[A-Za-z][A-Za-z0-9_]{1,40}\.dll)\b", re.I | re.A)
_VC_RUNTIME = re.compile(
    r"^(?:msvcp1[34]0\w*|vcruntime1[34]0\w*|concrt140|vcomp140\w*)\.dll$", re.I | re.A
)

# what `pip install` takes to rebuild one against the installed torch, where the project documents
# it (apex, mmcv, vLLM and the PyG packages have their own fixes: a clone, mim, a pinned release,
# a wheel page)
EXTENSION_INSTALL: dict[str, str] = {
    "flash-attn": "flash-attn",  # github.com/Dao-AILab/flash-attention#installation-and-features
    "xformers": "xformers",
    "deepspeed": "deepspeed",
    "bitsandbytes": "bitsandbytes",
    "causal-conv1d": "causal-conv1d",
    "mamba-ssm": "mamba-ssm",
    "auto-gptq": "auto-gptq",
    "exllamav2": "exllamav2",
    "sageattention": "sageattention",
    # https://detectron2.readthedocs.io/en/latest/tutorials/install.html
    "detectron2": "'git+https://github.com/facebookresearch/detectron2.git'",
    # https://github.com/facebookresearch/pytorch3d/blob/main/INSTALL.md
    "pytorch3d": "'git+https://github.com/facebookresearch/pytorch3d.git@stable'",
}


def library_facts(
    lines: list[str], text: Mapping[str, Any], known: Mapping[str, Any], ms: Any
) -> dict[str, Any]:
    """The facts of `FACT_NAMES` that the paste's lines, frames and packages tell; `known`: the
    facts derived before (`packages`, `torch.version`)."""
    packages: Mapping[str, Any] = known.get("packages") or {}
    values: dict[str, Any] = dict.fromkeys(FACT_NAMES)
    failing = [line for line in lines if _FAILED.search(line)]
    _cudnn(failing or lines, values)
    _cuda(failing or lines, values)
    _cuda_floor(ms, values)
    _jetpack_for_cuda(ms, values)
    _cudnn_pairs(ms, values)
    paths = [str(f.get("file") or "") for f in text.get("frames", []) or [] if isinstance(f, dict)]
    _loader(lines, paths, packages, values)
    _loader_builds(ms, values)
    _dll([*failing, *lines], values)
    _required(lines, ms, values)
    _conda(lines, values)
    extensions = [str(e) for e in text.get("extensions", []) or []]
    values["ext.package"] = package = extension_package(extensions) or _extension_in_path(lines)
    values["ext.install"] = EXTENSION_INSTALL.get(package or "")
    torch = re.match(r"\d+(?:\.\d+){1,3}(?:\+[a-z]+\d*)?", str(known.get("torch.version") or ""))
    values["ext.torch"] = torch.group(0) if package and torch else None  # not "+cu101.html"
    return values


def _first(regex: re.Pattern[str], lines: Iterable[str]) -> re.Match[str] | None:
    for line in lines:
        found = regex.search(line)
        if found:
            return found
    return None


def _cudnn(lines: list[str], values: dict[str, Any]) -> None:
    found = _first(_CUDNN, lines)
    if found:
        values["lib.cudnn"] = found.group("major") or found.group("win")
        values["lib.cudnn_file"] = found.group("file")


def cuda_of_dll(digits: str) -> tuple[int, int | None]:
    """(major, minor or None) of a CUDA DLL's number: 101 -> (10, 1), 110 -> (11, 0), 12 ->
    (12, None), 90 -> (9, 0)."""
    if len(digits) == 3:
        return int(digits[:2]), int(digits[2])
    number = int(digits)
    if number >= 20:  # cudart64_80.dll, cudart64_92.dll: one digit of major, one of minor
        return number // 10, number % 10
    return number, None


def cuda_release(major: int, minor: int | None) -> str:
    """The release as the library name pins it: from CUDA 11 on one runtime library serves every
    minor release of the major, so only the major."""
    if major >= 11 or minor is None:
        return str(major)
    return f"{major}.{minor}"


def _cuda(lines: list[str], values: dict[str, Any]) -> None:
    for line in lines:
        so, dll = _CUDA_SO.search(line), _CUDA_DLL.search(line)
        if so:
            minor = so.group("minor")
            major, minor_n = int(so.group("major")), int(minor) if minor else None
            values["lib.cuda_file"] = so.group("file")
        elif dll:
            major, minor_n = cuda_of_dll(dll.group("digits"))
            values["lib.cuda_file"] = dll.group("file")
        else:
            continue
        if not 7 <= major <= 13:
            values["lib.cuda_file"] = None
            continue
        values["lib.cuda"] = cuda_release(major, minor_n)
        values["lib.cuda_major"] = str(major)
        return


def _cuda_floor(ms: Any, values: dict[str, Any]) -> None:
    """The oldest driver that runs the CUDA runtime named: from CUDA 11 on the major's
    minor-version-compatibility floor (cuda_compat), before it the release's own (cuda_driver)."""
    if ms is None or not values.get("lib.cuda_major"):
        return
    from envdoctor.queries.nvidia import compat_floor, min_driver_for_cuda

    major = int(values["lib.cuda_major"])
    for name, system in (
        ("lib.cuda_min_driver", "linux"),
        ("lib.cuda_min_driver_windows", "windows"),
    ):
        if major >= 11:
            values[name] = compat_floor(ms, major, system)
        elif "." in str(values.get("lib.cuda")):
            values[name] = min_driver_for_cuda(ms, str(values["lib.cuda"]), system)


def _jetpack_for_cuda(ms: Any, values: dict[str, Any]) -> None:
    """The JetPack releases whose CUDA is the runtime named (jetpack table): on a Jetson CUDA comes
    with JetPack and is not installed on its own."""
    cuda = str(values.get("lib.cuda") or "")
    if ms is None or "." not in cuda or not ms.has("jetpack"):
        return
    wanted = cuda.split(".")[:2]
    found = [
        str(r["jetpack"])
        for r in ms.table("jetpack").rows
        if r.get("cuda") and str(r["cuda"]).split(".")[:2] == wanted
    ]
    if found:
        values["lib.jetpack_for_cuda"] = ", ".join(dict.fromkeys(found))


def _cudnn_pairs(ms: Any, values: dict[str, Any]) -> None:
    """The CUDA majors NVIDIA publishes cuDNN `lib.cudnn` for (the cudnn table), and with the CUDA
    major of a runtime library the same paste names, the pip wheel of that pair (CUDA 11 on)."""
    cudnn = values.get("lib.cudnn")
    if ms is None or not cudnn or not ms.has("cudnn"):
        return
    majors = sorted(
        int(r["cuda_major"])
        for r in ms.table("cudnn").rows
        if str(r.get("cudnn_major")) == str(cudnn) and r.get("cuda_major") is not None
    )
    if not majors:
        return
    values["lib.cudnn_cudas"] = "CUDA " + ", ".join(str(m) for m in majors)
    cuda = values.get("lib.cuda_major")
    if cuda and int(cuda) in majors and int(cuda) >= 11:
        values["lib.cudnn_wheel"] = f"nvidia-cudnn-cu{cuda}=={cudnn}.*"


def _loader(
    lines: list[str], paths: list[str], packages: Mapping[str, Any], values: dict[str, Any]
) -> None:
    """The package that loads the library: a site-packages path in the frames or lines (the
    innermost one not torch's, which re-raises others' errors), else one the text names."""
    named: list[str] = []
    for text in (*reversed(paths), *lines):
        for found in _SITE.finditer(text):
            pip = LOADERS.get(found.group("pkg").lower())
            if pip:
                named.append(pip)
    if not named:
        for line in lines:
            for found in _MENTION.finditer(line):
                name = found.group("name").lower().replace("_", "-")
                pip = LOADERS.get(name.replace("-", "_")) or _mentioned(name)
                if pip:
                    named.append(pip)
    loader = next((n for n in named if n != "torch"), named[0] if named else None)
    values["lib.loader"] = loader
    if loader:
        for name in (loader, loader.replace("-gpu", "")):
            if packages.get(name):
                values["lib.loader_version"] = str(packages[name])
                break
        version = values["lib.loader_version"]
        values["lib.loader_named"] = f"{loader} {version}" if version else loader


# a package named in the paste -> the package that loads the CUDA libraries for it
_LOADER_PREFIXES = (
    (("faster-whisper", "whisperx"), "ctranslate2"),
    (("onnxruntime",), "onnxruntime-gpu"),
    (("tensorflow",), "tensorflow"),
    (("paddle",), "paddlepaddle-gpu"),
    (("mxnet",), "mxnet"),
    (("cupy",), "cupy"),
    (("llama",), "llama-cpp-python"),
)


def _mentioned(name: str) -> str | None:
    for prefixes, loader in _LOADER_PREFIXES:
        if name.startswith(prefixes):
            return loader
    return LOADERS.get(name)


def _loader_builds(ms: Any, values: dict[str, Any]) -> None:
    """The loader's releases the python_frameworks table lists as built for the cuDNN major (or
    else the CUDA major) the paste names: "tensorflow 2.4.0 to 2.17.0"."""
    package = _TABLE_PACKAGE.get(str(values.get("lib.loader")))
    if not package or ms is None or not ms.has("python_frameworks"):
        return
    cudnn, cuda = values.get("lib.cudnn"), values.get("lib.cuda_major")
    column, wanted = ("cudnn", cudnn) if cudnn else ("cuda", cuda)
    if not wanted:
        return
    rows = [
        r
        for r in ms.table("python_frameworks").rows
        if r.get("package") == package
        and not r.get("unverified")
        and str(r.get(column) or "").split(".")[0] == str(wanted)
    ]
    if not rows:
        return
    ordered = sorted(rows, key=lambda r: _release_key(str(r.get("version"))))
    low, high = str(ordered[0]["version"]), str(ordered[-1]["version"])
    values["lib.loader_builds"] = (
        f"{package} {low}" if low == high else f"{package} {low} to {high}"
    )


def _release_key(version: str) -> tuple[int, ...]:
    """A table version ("2.16.1", "1.19.*") as numbers, for ordering."""
    return tuple(int(n) for n in re.findall(r"\d+", version))


def _conda(lines: list[str], values: dict[str, Any]) -> None:
    """A CUDA library loaded from a conda environment's own folder (the path resolved: torch's
    "torch/lib/../../../../libcublas.so.11" is the environment's lib), not from a pip wheel."""
    import ntpath
    import posixpath

    for line in lines:
        for found in _CONDA_LIB.finditer(line):
            path = found.group("path")
            windows = "\\" in path
            folder = (ntpath if windows else posixpath).dirname(
                (ntpath if windows else posixpath).normpath(path)
            )
            tail = folder.replace("\\", "/").lower()
            if "site-packages" in tail or not (
                tail.endswith("/lib") or tail.endswith("/library/bin")
            ):
                continue
            values["lib.conda_lib"], values["lib.conda_dir"] = found.group("lib"), folder
            return


def dll_provider(dll: str) -> str | None:
    """What installs a Windows DLL, in words, or None when it is not one of the known kinds."""
    low = dll.lower()
    if _VC_RUNTIME.match(low):
        return "the Microsoft Visual C++ Redistributable (x64, vc_redist.x64.exe)"
    if low == "zlibwapi.dll":
        return "zlibwapi.dll (cuDNN 8's zlib dependency, placed next to the cuDNN DLLs)"
    if low == "nvcuda.dll":
        return "the NVIDIA display driver (nvcuda.dll comes only with the driver)"
    found = _CUDNN.fullmatch(dll)
    if found and found.group("win"):
        return f"cuDNN {found.group('win')}"
    found = _CUDA_DLL.fullmatch(dll)
    if found:
        major, minor = cuda_of_dll(found.group("digits"))
        return f"the CUDA {cuda_release(major, minor)} runtime"
    return None


def _dll(lines: list[str], values: dict[str, Any]) -> None:
    """The first DLL of a known kind the error lines name (`lib.dll`, `lib.dll_provider`), and
    every such DLL with what installs it (`lib.dlls`: "cublas64_11.dll: the CUDA 11 runtime")."""
    seen: dict[str, str] = {}
    for line in lines:
        for found in _DLL.finditer(line):
            dll = found.group("dll")
            provider = dll_provider(dll)
            if provider and dll.lower() not in {k.lower() for k in seen} and len(seen) < 4:
                seen[dll] = provider
    if seen:
        values["lib.dll"], values["lib.dll_provider"] = next(iter(seen.items()))
        values["lib.dlls"] = "; ".join(f"{dll}: {provider}" for dll, provider in seen.items())


def _required(lines: list[str], ms: Any, values: dict[str, Any]) -> None:
    """A CUDA release a message says is required, and the drivers NVIDIA pairs with it."""
    for regex in _REQUIRED:
        found = _first(regex, lines)
        if found:
            break
    else:
        return
    cuda = found.group("v")
    values["cuda.required"] = cuda
    if ms is None:
        return
    from envdoctor.queries.nvidia import min_driver_for_cuda

    if cuda.lower().endswith(".x"):
        from envdoctor.queries.nvidia import compat_floor

        major = int(cuda.split(".")[0])
        values["cuda.required_driver"] = compat_floor(ms, major, "linux")
        values["cuda.required_driver_windows"] = compat_floor(ms, major, "windows")
        return
    values["cuda.required_driver"] = min_driver_for_cuda(ms, cuda, "linux")
    values["cuda.required_driver_windows"] = min_driver_for_cuda(ms, cuda, "windows")


_EXT_PATH = re.compile(
    r"[\\/](?P<pkg>[A-Za-z_]\w{1,40})[\\/]\w{1,40}(?:\.cpython[\w.-]{0,40}|\.abi3)?\.(?:so|pyd)\b",
    re.A,
)


def _extension_in_path(lines: Iterable[str]) -> str | None:
    """The pip package of a known extension whose binary a path names inside its package folder
    (a source build outside site-packages: ~/detectron2/detectron2/_C.cpython-39-...so)."""
    for line in lines:
        for found in _EXT_PATH.finditer(line):
            pip = extension_pip(found.group("pkg"))
            if pip:
                return pip
    return None


def extension_package(extensions: Iterable[str]) -> str | None:
    """The pip package of the first compiled extension that is a known one."""
    for name in extensions:
        module = re.split(r"[./\\]", str(name).lower())[0]
        base = re.sub(r"\.cpython.*$|\.so$|\.pyd$", "", module)
        pip = extension_pip(base) or extension_pip(base.split("-")[0])
        if pip:
            return pip
    return None
