"""The names of the applications envdoctor knows: the canonical short name (`comfyui`, `webui`,
`vllm`, `ollama`, `llamacpp`, `textgen`, `torchserve`, `halcon`, and the CAD apps `creo`,
`solidworks`), the aliases users type for them, and the names people read. The apps probe and the
app queries both name applications through these."""

from __future__ import annotations

# alias (lowercase) -> canonical name
_ALIASES: dict[str, str] = {
    "comfyui": "comfyui",
    "comfy": "comfyui",
    "comfy-ui": "comfyui",
    "webui": "webui",
    "a1111": "webui",
    "automatic1111": "webui",
    "sd-webui": "webui",
    "stable-diffusion-webui": "webui",
    "stable_diffusion_webui": "webui",
    "forge": "webui",
    "stable-diffusion-webui-forge": "webui",
    "vllm": "vllm",
    "ollama": "ollama",
    "llamacpp": "llamacpp",
    "llama.cpp": "llamacpp",
    "llama-cpp": "llamacpp",
    "llama_cpp": "llamacpp",
    "llama-server": "llamacpp",
    "llama-cpp-python": "llamacpp",
    "textgen": "textgen",
    "text-generation-webui": "textgen",
    "oobabooga": "textgen",
    "tgw": "textgen",
    "torchserve": "torchserve",
    "torch-serve": "torchserve",
    "halcon": "halcon",
    "mvtec-halcon": "halcon",
    "creo": "creo",
    "ptc-creo": "creo",
    "solidworks": "solidworks",
    "sw": "solidworks",
}

CAD_APPS: tuple[str, ...] = ("creo", "solidworks")

DISPLAY_NAMES: dict[str, str] = {
    "comfyui": "ComfyUI",
    "webui": "Stable Diffusion web UI",
    "vllm": "vLLM",
    "ollama": "Ollama",
    "llamacpp": "llama.cpp",
    "textgen": "text-generation-webui",
    "torchserve": "TorchServe",
    "halcon": "HALCON",
    "creo": "Creo",
    "solidworks": "SOLIDWORKS",
}


def canonical(name: str | None) -> str | None:
    """The canonical application name for `name` (any alias, any case), or None when unknown."""
    return _ALIASES.get(str(name or "").strip().lower())
