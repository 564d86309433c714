"""The families of the triage corpus: one vocabulary for the per-family figures.

Harvesters wrote family labels in two styles ("oom" and "CUDA allocator / OOM", "dkms" and
"DKMS / Secure Boot / kernel modules"); the legacy cases have none. `family_of` maps a case to
one name of `FAMILIES` (the families of issue #20 and the seed's scenarios): its header label
through `ALIASES` (case-insensitive), else the family of its expected finding id. Labels that
map nowhere are kept as written, so nothing is silently folded into a wrong family.
"""

from __future__ import annotations

FAMILIES = (
    "CPU-only wheel",
    "Driver too old for the CUDA build",
    "GPU too new for the build",
    "GPU too old for the build",
    "Driver/library mismatch after upgrade",
    "DKMS / Secure Boot / kernel modules",
    "NVIDIA driver and devices",
    "Container runtime",
    "Docker on Linux desktops",
    "Kubernetes",
    "Slurm / clusters",
    "WSL graphics",
    "Windows DLL dependencies",
    "Windows and laptops",
    "Hardware",
    "NCCL",
    "CUDA allocator / OOM",
    "cuDNN / CUDA libraries",
    "CUDA toolkit / nvcc",
    "Prebuilt extension wheels",
    "torch.compile / Triton",
    "TensorFlow / JAX versions",
    "PaddlePaddle",
    "ONNX Runtime",
    "bitsandbytes",
    "vLLM",
    "llama.cpp / Ollama",
    "Apple MPS",
    "Intel XPU / Arc",
    "ROCm / AMD",
    "Jetson and Grace (aarch64)",
    "conda environments",
    "Python and wheels",
    "Prose / launch context",
    "VMs / passthrough",
)

# header label (lower-case) -> family, for the labels harvesters wrote in the short style
ALIASES = {
    "oom": "CUDA allocator / OOM",
    "memory": "CUDA allocator / OOM",
    "dtype": "GPU too old for the build",
    "extension-wheel": "Prebuilt extension wheels",
    "nccl": "NCCL",
    "tensorflow": "TensorFlow / JAX versions",
    "jax": "TensorFlow / JAX versions",
    "prose": "Prose / launch context",
    "dkms": "DKMS / Secure Boot / kernel modules",
    "dkms / kernel modules": "DKMS / Secure Boot / kernel modules",
    "driver-too-old": "Driver too old for the CUDA build",
    "driver-mismatch": "Driver/library mismatch after upgrade",
    "gpu-too-new": "GPU too new for the build",
    "conda": "conda environments",
    "rocm": "ROCm / AMD",
    "amd rocm": "ROCm / AMD",
    "rocm unsupported gpu": "ROCm / AMD",
    "hardware": "Hardware",
    "vllm": "vLLM",
    "windows-dll": "Windows DLL dependencies",
    "windows": "Windows and laptops",
    "hybrid-graphics": "Windows and laptops",
    "jetson": "Jetson and Grace (aarch64)",
    "cpu-only-wheel": "CPU-only wheel",
    "paddle": "PaddlePaddle",
    "wsl": "WSL graphics",
    "docker": "Container runtime",
    "toolkit-mismatch": "CUDA toolkit / nvcc",
    "cudnn": "cuDNN / CUDA libraries",
    "ollama": "llama.cpp / Ollama",
    "ollama gpu not used": "llama.cpp / Ollama",
    "llama.cpp": "llama.cpp / Ollama",
    "llama.cpp / llama-cpp-python": "llama.cpp / Ollama",
    "app": "llama.cpp / Ollama",
}

# expected finding id -> family, for cases without a label (checked before the id's area)
BY_ID = {
    "torch.cpu-build-on-gpu-host": "CPU-only wheel",
    "torch.driver-too-old": "Driver too old for the CUDA build",
    "cuda.toolkit-newer-than-driver": "Driver too old for the CUDA build",
    "torch.gpu-too-new-for-build": "GPU too new for the build",
    "torch.gpu-too-old-for-build": "GPU too old for the build",
    "torch.extension-abi-mismatch": "Prebuilt extension wheels",
    "torch.companion-mismatch": "Prebuilt extension wheels",
    "torch.python-unsupported": "Python and wheels",
    "nvidia.driver-library-mismatch": "Driver/library mismatch after upgrade",
    "nvidia.module-not-built-for-kernel": "DKMS / Secure Boot / kernel modules",
    "nvidia.secure-boot-blocks-module": "DKMS / Secure Boot / kernel modules",
    "nvidia.nouveau-loaded": "DKMS / Secure Boot / kernel modules",
    "nvidia.ecc-uncorrected": "Hardware",
    "nvidia.xid-fallen-off-bus": "Hardware",
    "cuda.cudnn-missing": "cuDNN / CUDA libraries",
    "cuda.cudnn-mismatch": "cuDNN / CUDA libraries",
    "cuda.ld-library-path-shadows-wheel": "cuDNN / CUDA libraries",
    "cuda.toolkits-disagree": "CUDA toolkit / nvcc",
    "cuda.visible-devices-hide-gpus": "Prose / launch context",
    "container.docker-permission-denied": "Docker on Linux desktops",
    "tensorflow.windows-native-no-gpu": "TensorFlow / JAX versions",
    "jax.cuda-backend-failed": "TensorFlow / JAX versions",
    "memory.out-of-memory": "CUDA allocator / OOM",
    "windows.device-removed-tdr": "Windows and laptops",
}

# expected id's area (before the first dot) -> family, the last resort
BY_AREA = {
    "nvidia": "NVIDIA driver and devices",
    "container": "Container runtime",
    "wsl": "WSL graphics",
    "rocm": "ROCm / AMD",
    "jetson": "Jetson and Grace (aarch64)",
    "bitsandbytes": "bitsandbytes",
    "app": "llama.cpp / Ollama",
    "memory": "CUDA allocator / OOM",
}

_CANONICAL = {name.lower(): name for name in FAMILIES}


def family_of(label: str, expected: str) -> str:
    """The family of a case with header label `label` (may be empty) and expected id."""
    low = label.strip().lower()
    if low in _CANONICAL:
        return _CANONICAL[low]
    if low in ALIASES:
        return ALIASES[low]
    if low:
        return label.strip()
    if expected in BY_ID:
        return BY_ID[expected]
    area = expected.split(".", 1)[0]
    return BY_AREA.get(area, area)
