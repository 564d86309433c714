"""Every torch build a triage signature proposes comes from the fix chooser (issue #18): no written
fix names a fixed PyTorch wheel index (a canned cu126 / cu128 line shown whatever the GPU and
driver), and the signatures that say "install a torch build" name a chooser remedy instead."""

from __future__ import annotations

import re

from envdoctor.triage_engine.loader import DATA

CANNED = re.compile(r"download\.pytorch\.org/whl/cu\d")


def test_no_written_fix_names_a_fixed_pytorch_index() -> None:
    canned = [
        f"{s.key}: {command}"
        for s in DATA.signatures
        for fix in s.fixes
        for command in fix.commands
        if CANNED.search(command)
    ]
    assert DATA.signatures and canned == []


# the error-message causes whose written fixes installed a canned CUDA build before
CHOOSER_KEYS = (
    "torch.not-compiled-with-cuda",
    "torch.conda-cpu-variant",
    "torch.not-available.cpu-build",
    "torch.capability-not-compatible.new",
    "torch.capability-not-compatible.old",
    "torch.gpu-too-old.minimum-capability",
    "torch.no-kernel-image.gpu-too-new",
    "torch.no-kernel-image.gpu-too-old",
    "cuda.conda-cudatoolkit-conflict",
)


def test_torch_build_causes_name_the_chooser() -> None:
    by_key = {s.key: s for s in DATA.signatures}
    for key in CHOOSER_KEYS:
        kinds = {r.kind for r in by_key[key].remedies}
        assert "torch-build-for-gpu" in kinds, key
