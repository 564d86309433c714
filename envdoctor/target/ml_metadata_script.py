"""Metadata of the ML packages installed in a Python environment, computed inside it.

Runs in two ways, like interpreter_facts.py: imported (the interpreter running envdoctor) and as
a script in a target interpreter (`python ml_metadata_script.py [SITE_DIR...]`), printing JSON.
It stays compatible with Python 3.7+, uses the standard library only and never imports torch,
TensorFlow, JAX or any other package it describes: it reads their dist-info metadata and a few
small text files they ship (torch/version.py, xformers/cpp_lib.json, TensorFlow's build_info.py,
onnxruntime's build_and_package_info.py) and lists a few library folders.

Output: {"environment": {the PEP 508 marker variables of this interpreter}, "distributions":
{normalized name: {name, version, location, installer, requires, requires_python, wheel_tags,
direct_url, files: {relative path: text}, listings: {relative dir: [names]}}}}, and as a script
without SITE_DIR arguments also "interpreter": interpreter_facts.describe() and "sys_path" (one run
serves the python_env, ML and CUDA library probes).
"""

import json
import os
import platform
import sys
from typing import Any  # noqa: F401 - named in type comments (Python 3.7 has no annotations here)

try:  # imported as part of envdoctor
    from envdoctor.target.interpreter_facts import _normalize as normalize
    from envdoctor.target.interpreter_facts import distributions
except ImportError:  # run as a script in the target interpreter: the sibling file is on sys.path
    from interpreter_facts import _normalize as normalize  # type: ignore[no-redef]
    from interpreter_facts import distributions  # type: ignore[no-redef]

# Distributions worth describing (normalized names); "prefix*" entries match a prefix.
INTERESTING = (
    "torch",
    "torchvision",
    "torchaudio",
    "torchtext",
    "torchdata",
    "torchao",
    "triton",
    "pytorch-triton*",
    "nvidia-*",
    "cuda-toolkit",
    "cuda-bindings",
    "cuda-python",
    "tensorflow*",
    "tf-nightly*",
    "tf-keras",
    "keras",
    "jax",
    "jaxlib",
    "jax-cuda*",
    "jax-rocm*",
    "cupy*",
    "amd-cupy",
    "onnxruntime*",
    "xformers",
    "flash-attn*",
    "bitsandbytes",
    "vllm",
    "ctranslate2",
    "deepspeed",
    "intel-extension-for-pytorch",
    "torch-directml",
    "mamba-ssm",
    "causal-conv1d",
    "sageattention",
    "torch-scatter",
    "torch-sparse",
    "torch-cluster",
    "torch-spline-conv",
    "pyg-lib",
    "apex",
    "transformer-engine*",
    "llama-cpp-python",
    "paddlepaddle*",
)

# Small text files read per distribution (relative to its site dir).
FILES = {
    "torch": ("torch/version.py",),
    "torchvision": ("torchvision/version.py",),
    "torchaudio": ("torchaudio/version.py",),
    "xformers": ("xformers/cpp_lib.json", "xformers/version.py"),
    "tensorflow": ("tensorflow/python/platform/build_info.py",),
    "tensorflow-cpu": ("tensorflow/python/platform/build_info.py",),
    "tensorflow-gpu": ("tensorflow/python/platform/build_info.py",),
    "tensorflow-intel": ("tensorflow/python/platform/build_info.py",),
    "tf-nightly": ("tensorflow/python/platform/build_info.py",),
    "onnxruntime-gpu": ("onnxruntime/capi/build_and_package_info.py",),
    "onnxruntime": ("onnxruntime/capi/build_and_package_info.py",),
    "deepspeed": ("deepspeed/git_version_info_installed.py",),
}

# Folders listed per distribution: which compiled libraries a wheel carries.
LISTINGS = {
    "torch": ("torch/lib",),
    "bitsandbytes": ("bitsandbytes",),
    "flash-attn": (".",),  # its compiled module sits at the top of site-packages
    "xformers": ("xformers",),
    "onnxruntime-gpu": ("onnxruntime/capi",),
}

MAX_FILE_BYTES = 65536
MAX_LISTING = 400


def describe(paths=None):
    """The ML distributions on `paths` (default: sys.path), as a JSON-ready dict."""
    out = {}  # type: dict[str, dict[str, Any]]
    result = {"environment": marker_environment(), "distributions": out}
    try:
        dists = list(distributions(paths))
    except Exception as exc:  # noqa: BLE001 - a broken path entry must not stop the scan
        result["error"] = f"cannot list distributions: {exc}"
        return result
    for dist in dists:
        name = _safe(lambda dist=dist: dist.name)
        if not name:
            continue
        key = normalize(name)
        if key in out or not interesting(key):
            continue  # the first on the path wins, as for imports
        out[key] = _entry(dist, key, name)
    return result


def marker_environment():
    """The PEP 508 environment markers of this interpreter (to evaluate Requires-Dist lines)."""
    return {
        "python_version": "{}.{}".format(*sys.version_info[:2]),
        "python_full_version": platform.python_version(),
        "implementation_name": sys.implementation.name,
        "platform_python_implementation": platform.python_implementation(),
        "sys_platform": sys.platform,
        "platform_system": platform.system(),
        "platform_machine": platform.machine(),
        "platform_release": platform.release(),
        "os_name": os.name,
    }


def _entry(dist, key, name):
    location = _location(dist)
    entry = {
        "name": name,
        "version": dist.version,
        "location": location,
        "installer": _read(dist, "INSTALLER"),
        "requires": _safe(lambda: list(dist.requires or [])) or [],
        "requires_python": _safe(lambda: dist.header("Requires-Python")),
        "wheel_tags": _wheel_tags(dist),
        "direct_url": _direct_url(dist),
        "files": {},
        "listings": {},
    }
    if location:
        for rel in FILES.get(key, ()):
            text = _read_file(os.path.join(location, rel))
            if text is not None:
                entry["files"][rel] = text
        for rel in LISTINGS.get(key, ()):
            names = _listdir(os.path.join(location, rel))
            if rel == ".":  # a whole site dir: only the entries of this distribution
                stem = key.replace("-", "_")
                names = [n for n in names if n.startswith(stem)]
            if names:
                entry["listings"][rel] = names[:MAX_LISTING]
    return entry


def interesting(key):
    """Whether a normalized distribution name is one envdoctor describes."""
    for pattern in INTERESTING:
        if pattern.endswith("*"):
            if key.startswith(pattern[:-1]):
                return True
        elif key == pattern:
            return True
    return False


def _safe(fn):
    try:
        return fn()
    except Exception:  # noqa: BLE001
        return None


def _read(dist, filename):
    text = _safe(lambda: dist.read_text(filename))
    return text.strip() if text else None


def _location(dist):
    return os.path.dirname(dist.path)


def _wheel_tags(dist):
    text = _safe(lambda: dist.read_text("WHEEL")) or ""
    return [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Tag:")]


def _direct_url(dist):
    text = _safe(lambda: dist.read_text("direct_url.json"))
    if not text:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _read_file(path):
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES)
    except OSError:
        return None
    return data.decode("utf-8", "replace")


def _listdir(path):
    if not path:
        return []
    try:
        return sorted(os.listdir(path))
    except OSError:
        return []


if __name__ == "__main__":
    DOC = describe(sys.argv[1:] or None)
    if not sys.argv[1:]:  # the whole interpreter too, so python_env and ml_packages share one run
        try:
            from interpreter_facts import describe as describe_interpreter
        except ImportError:
            from envdoctor.target.interpreter_facts import describe as describe_interpreter
        DOC["interpreter"] = describe_interpreter()
        DOC["sys_path"] = [entry for entry in sys.path if entry]
    sys.stdout.write(json.dumps(DOC))
