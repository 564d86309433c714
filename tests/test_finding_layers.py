"""Every finding is shown under a layer of the machine, never under "envdoctor itself" unless it
is envdoctor's own (a finding id's area decides; README's layers are these)."""

from __future__ import annotations

import pytest

from envdoctor.model.facts import LAYER_KEYS, layer_of
from envdoctor.triage_engine.loader import DATA


def test_no_signature_finding_lands_in_envdoctors_own_layer() -> None:
    stray = sorted({s.id for s in DATA.signatures if layer_of(s.id) == "envdoctor"})
    assert stray == []


@pytest.mark.parametrize(
    ("name", "layer"),
    [
        ("xla.cuda-toolkit-files-not-found", "cuda"),
        ("tensorrt.engine-built-on-other-gpu", "cuda"),
        ("vllm.gpu-too-old", "apps"),
        ("vulkan.loader-library-missing", "platform"),
        ("render.mujoco-headless-needs-egl", "platform"),
        ("nvml.driver-too-old-for-symbol", "nvidia"),
        ("conda.env-not-activated", "python"),
        ("opencv.dnn-version-incompatible-onnx-model", "python"),
        ("amd.amf-runtime-not-installed", "amd"),
        # envdoctor's own findings and the fact groups keep their layers
        ("envdoctor.probe-failed", "envdoctor"),
        ("nvidia.gpus", "nvidia"),
        ("platform.wsl", "platform"),
        ("pasted", "pasted"),
        # a bare word that is no layer is not a package
        ("nonsense", "envdoctor"),
    ],
)
def test_layer_of(name: str, layer: str) -> None:
    assert layer in LAYER_KEYS
    assert layer_of(name) == layer
