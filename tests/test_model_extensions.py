"""The one table of compiled CUDA extensions: module names as tracebacks print them -> pip."""

from __future__ import annotations

import pytest

from envdoctor.ingest.free_text_vocabulary import EXTENSION_PACKAGES
from envdoctor.model.extensions import EXTENSION_PIP, extension_pip


@pytest.mark.parametrize(
    ("module", "pip"),
    [
        ("flash_attn_2_cuda", "flash-attn"),
        ("selective_scan_cuda", "mamba-ssm"),
        ("MinkowskiEngine", "MinkowskiEngine"),
        ("minkowskiengine", "MinkowskiEngine"),  # any letter case
        ("xformers_C", "xformers"),
        ("llama_cpp", "llama-cpp-python"),
        ("numpy", None),
    ],
)
def test_extension_pip(module: str, pip: str | None) -> None:
    assert extension_pip(module) == pip


def test_the_readers_know_every_extension_triage_names() -> None:
    assert set(EXTENSION_PACKAGES) == set(EXTENSION_PIP)
