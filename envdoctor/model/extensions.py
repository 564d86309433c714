"""Compiled CUDA-extension packages: built against one torch build, broken by another.

One table for the readers (which module or site-packages folder of a traceback is such an
extension) and for triage (the pip package a fix reinstalls: `flash_attn_2_cuda` is flash-attn).
Keys are the importable module or binary names as tracebacks print them.
"""

from __future__ import annotations

EXTENSION_PIP: dict[str, str] = {
    "xformers": "xformers",
    "flash_attn": "flash-attn",
    "flash_attn_2_cuda": "flash-attn",
    "flash_attn_cuda": "flash-attn",
    "apex": "apex",
    "mmcv": "mmcv",
    "mmcv_full": "mmcv-full",
    "detectron2": "detectron2",
    "bitsandbytes": "bitsandbytes",
    "vllm": "vllm",
    "deepspeed": "deepspeed",
    "torch_scatter": "torch-scatter",
    "torch_sparse": "torch-sparse",
    "torch_cluster": "torch-cluster",
    "torch_spline_conv": "torch-spline-conv",
    "pytorch3d": "pytorch3d",
    "causal_conv1d": "causal-conv1d",
    "mamba_ssm": "mamba-ssm",
    "auto_gptq": "auto-gptq",
    "exllamav2": "exllamav2",
    "llama_cpp": "llama-cpp-python",
    "sageattention": "sageattention",
    "nunchaku": "nunchaku",
    "spconv": "spconv",
    "diff_gaussian_rasterization": "diff_gaussian_rasterization",
    "simple_knn": "simple_knn",
    "tinycudann": "tinycudann",
    "nvdiffrast": "nvdiffrast",
    "natten": "natten",
    "fused_layer_norm_cuda": "apex",
    "transformer_engine": "transformer-engine",
    "groundingdino": "groundingdino",
    "gsplat": "gsplat",
    "kaolin": "kaolin",
    "torchsparse": "torchsparse",
    "MinkowskiEngine": "MinkowskiEngine",
    "dgl": "dgl",
    "xformers_C": "xformers",
    "flash_attn_3": "flash-attn",
    "vllm_flash_attn": "vllm",
    "amp_c": "apex",
    "pyg_lib": "pyg-lib",
    "causal_conv1d_cuda": "causal-conv1d",
    "selective_scan_cuda": "mamba-ssm",
    "exllamav2_ext": "exllamav2",
    "torchao": "torchao",
}
EXTENSION_MODULES = tuple(EXTENSION_PIP)
_BY_LOWER = {module.lower(): pip for module, pip in EXTENSION_PIP.items()}


def extension_pip(module: str) -> str | None:
    """The pip package of a known extension module (any letter case), or None."""
    return _BY_LOWER.get(module.lower())
