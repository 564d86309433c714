"""Round 15 (zhfacts): the torch build's CUDA in words and in `pip show torch`'s two lines, each
line verbatim from the thread cited beside it."""

from __future__ import annotations

import pytest

from envdoctor.triage_engine.prose import prose_facts
from tests.triage_lines import assert_not_first

FACT_ROWS = [
    # (thread, text, fact, value)
    (
        "https://github.com/pytorch/pytorch/issues/102936",
        "when i run pip show torch it gives me version 2.0.1 + cu117 which is why i installed "
        "cuda 11.7 but i previously had 12.2",
        "torch.prose_cuda",
        "cu117",
    ),
    (
        "https://github.com/pytorch/pytorch/issues/77528",
        "However, `pip show torch` reveals\n\n```\nName: torch\nVersion: 1.11.0+cu113\n```",
        "torch.printed_version",
        "1.11.0+cu113",
    ),
]


@pytest.mark.parametrize(("source", "text", "fact", "value"), FACT_ROWS)
def test_torch_build_in_words(source: str, text: str, fact: str, value: str) -> None:
    assert source.startswith("https://")
    assert prose_facts(text.splitlines()).get(fact) == value, source


NOT_TORCH = [
    # torchvision's wheel tag is no torch build
    # https://github.com/zai-org/ChatGLM-6B/issues/920
    "- torchvision-0.15.1+cu118.dist-info",
]


@pytest.mark.parametrize("line", NOT_TORCH)
def test_other_packages_tags_are_no_torch_build(line: str) -> None:
    assert "torch.prose_cuda" not in prose_facts([line])


def test_minor_version_compatibility_is_no_driver_claim() -> None:
    """Driver 460.32.03 (CUDA 11.2) runs torch 1.11.0+cu113 through CUDA 11's minor-version
    compatibility, as the maintainer answered: the facts must not claim the driver too old."""
    text = (
        "| NVIDIA-SMI 460.32.03    Driver Version: 460.32.03    CUDA Version: 11.2     |\n"
        "|-------------------------------+----------------------+----------------------+\n"
        "```\n\nHowever, `pip show torch` reveals\n\n```\nName: torch\nVersion: 1.11.0+cu113\n```"
    )
    assert_not_first(
        text,
        "torch.driver-too-old",
        "https://github.com/pytorch/pytorch/issues/77528",
        may_be_empty=True,
    )
