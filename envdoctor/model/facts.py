"""The layers of a machine, and which fact groups and finding ids belong to each.

A fact group is named `layer` or `layer.subject` ("os", "nvidia.gpus", "python.torch"); a finding
id is `area.kebab-name`, and its area maps to a layer here. The terminal view lists layers in
this order.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Layer:
    """One layer of the stack as shown to the user."""

    key: str
    title: str


LAYERS: tuple[Layer, ...] = (
    Layer("os", "Operating system"),
    Layer("platform", "Platform"),
    Layer("nvidia", "NVIDIA GPU and driver"),
    Layer("amd", "AMD GPU and ROCm"),
    Layer("intel", "Intel GPU"),
    Layer("apple", "Apple GPU"),
    Layer("cuda", "CUDA toolkit and libraries"),
    Layer("python", "Python and ML packages"),
    Layer("container", "Containers"),
    Layer("apps", "Applications"),
    Layer("workload", "Workload"),
    Layer("accept", "GPU acceptance test"),
    Layer("pasted", "Pasted text"),
    Layer("envdoctor", "envdoctor itself"),
)

LAYER_KEYS = {layer.key for layer in LAYERS}

# finding-id area -> layer, where they differ
_AREA_LAYER = {
    "torch": "python",
    "tensorflow": "python",
    "jax": "python",
    "cupy": "python",
    "bitsandbytes": "python",
    "onnxruntime": "python",
    "xformers": "python",
    "rocm": "amd",
    "wsl": "platform",
    "windows": "platform",
    "macos": "platform",
    "jetson": "platform",
    "vm": "platform",
    "vgpu": "platform",
    "android": "platform",
    "app": "apps",
    "memory": "workload",
    "fit": "workload",
    "triage": "pasted",
    "docker": "container",
    "podman": "container",
    "kubernetes": "container",
    "k8s": "container",
    "nccl": "python",
    "paddle": "python",
    "mmcv": "python",
    "apex": "python",
    "flashattn": "python",
    "autogptq": "python",
    "hardware": "nvidia",
    "cluster": "platform",
    "mpi": "platform",
    "system": "platform",
    "launch": "workload",
    "perf": "workload",
    "model": "workload",
    "io": "workload",
    # graphics and compute APIs below the frameworks
    "vulkan": "platform",
    "opencl": "platform",
    "render": "platform",
    "directml": "platform",
    "flatpak": "os",
    "nixos": "os",
    "nvml": "nvidia",
    "dcgm": "nvidia",
    "tensorrt": "cuda",
    "triton": "cuda",
    "xla": "cuda",
    # accelerators other than NVIDIA / AMD / Intel / Apple
    "ascend": "platform",
    "neuron": "platform",
    "tpu": "platform",
    "habana": "platform",
    "musa": "platform",
    "kunlun": "platform",
    "sophgo": "platform",
    "rknn": "platform",
    # serving stacks and end-user applications
    "vllm": "apps",
    "sglang": "apps",
    "tgi": "apps",
    "tabby": "apps",
    "xmrig": "apps",
    "vosk": "apps",
    "openfold": "apps",
    "colmap": "apps",
    "nunchaku": "apps",
    "chatglm": "apps",
    "paddleocr": "apps",
}

# every other finding area is a Python / ML package (conda, transformers, deepspeed, opencv, ...)
_PACKAGE_LAYER = "python"


def layer_of(name: str) -> str:
    """The layer a fact-group name or finding id belongs to ("nvidia.gpus" -> "nvidia"); a finding
    id of an area no layer names is a package's ("opencv.x" -> "python"), a bare word envdoctor's."""
    area = name.split(".", 1)[0]
    area = _AREA_LAYER.get(area, area)
    if area in LAYER_KEYS:
        return area
    return "envdoctor" if "." not in name else _PACKAGE_LAYER


# Which group speaks for its layer in one-line summaries (earlier = preferred).
_SUMMARY_FIRST = (
    "os",
    "platform.wsl",
    "platform.windows",
    "platform.macos",
    "platform.jetson",
    "platform.android",
    "platform.vm",
    "platform.graphics",
    "nvidia.gpus",
    "nvidia.driver",
    "nvidia.pci",
    "amd.gpus",
    "amd.rocm",
    "intel.gpus",
    "cuda.toolkits",
    "python",
    "python.torch",
    "container.inside",
    "container.docker",
)


def summary_rank(group_name: str) -> tuple[int, str]:
    """Sort key putting the group that best summarises its layer first."""
    try:
        return (_SUMMARY_FIRST.index(group_name), group_name)
    except ValueError:
        return (len(_SUMMARY_FIRST), group_name)
