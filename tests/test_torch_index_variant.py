"""pip's "from versions: none" under an --index-url folder PyTorch never published
(checks/signatures/torch.toml, wheel_tags.index_variant_facts): the folder is the cause,
not the Python, and the fix names a published build (ComfyUI-Trellis2#131's cu131; cu130 fixed it)."""

from __future__ import annotations

from envdoctor.diagnosis.pipeline import active_matrices
from envdoctor.triage_engine import triage_text
from envdoctor.triage_engine.wheel_tags import index_variant_facts

NONE_FOUND = (
    "ERROR: Could not find a version that satisfies the requirement torch (from versions: none)\n"
    "ERROR: No matching distribution found for torch\n"
)


def _first(paste: str) -> tuple[str, str]:
    found = triage_text(paste).findings
    assert found, paste
    fix = found[0].fixes[0]
    return found[0].id, " ".join((fix.summary, *fix.commands))


def test_a_folder_the_index_never_published_is_the_cause() -> None:
    paste = f"pip install torch --index-url https://download.pytorch.org/whl/cu131\n{NONE_FOUND}"
    finding, fix = _first(paste)
    assert finding == "torch.index-variant-missing"
    assert "download.pytorch.org/whl/cu130" in fix


def test_a_pinned_release_gets_a_folder_that_ships_it() -> None:
    paste = (
        "pip install torch==2.5.1 --index-url https://download.pytorch.org/whl/cu125\n"
        "ERROR: Could not find a version that satisfies the requirement torch==2.5.1 (from "
        "versions: none)\n"
    )
    finding, fix = _first(paste)
    assert finding == "torch.index-variant-missing"
    assert "torch==2.5.1" in fix and "whl/cu124" in fix


def test_a_published_folder_leaves_the_python_cause() -> None:
    paste = f"pip install torch --index-url https://download.pytorch.org/whl/cu128\n{NONE_FOUND}"
    ids = [f.id for f in triage_text(paste).findings]
    assert "torch.index-variant-missing" not in ids and ids[0] == "torch.python-unsupported", ids


def test_the_facts_come_from_the_index_table() -> None:
    ms = active_matrices()
    lines = ["--index-url https://download.pytorch.org/whl/cu131"]
    assert index_variant_facts(ms, lines, None) == {
        "torch.index_variant_missing": "cu131",
        "torch.index_variant_nearest": "cu130",
    }
    assert (
        index_variant_facts(ms, ["https://download.pytorch.org/whl/cu128"], None)[
            "torch.index_variant_missing"
        ]
        is None
    )
    # nightly folders list other variants than the release channel: not judged
    assert (
        index_variant_facts(ms, ["https://download.pytorch.org/whl/nightly/cu131"], None)[
            "torch.index_variant_missing"
        ]
        is None
    )


def test_a_folder_older_than_the_table_is_not_called_missing() -> None:
    """The table lists the folders of torch 1.13 and later; cu113 served torch 1.11 / 1.12, so its
    absence from the table is no proof (https://github.com/OpenTalker/SadTalker/issues/850: pip
    searched whl/cu113 and found no 1.12.1+cu113 for this Python)."""
    ms = active_matrices()
    assert index_variant_facts(ms, ["https://download.pytorch.org/whl/cu113"], None) == {
        "torch.index_variant_missing": None,
        "torch.index_variant_nearest": None,
    }
    assert (
        index_variant_facts(ms, ["https://download.pytorch.org/whl/cu131"], "1.12.1")[
            "torch.index_variant_missing"
        ]
        is None
    )
    paste = (
        "pip install torch==1.12.1+cu113 torchvision==0.13.1+cu113 torchaudio==0.12.1 "
        "--extra-index-url https://download.pytorch.org/whl/cu113\n"
        "Looking in indexes: https://pypi.org/simple, https://download.pytorch.org/whl/cu113\n\n"
        "ERROR: Could not find a version that satisfies the requirement torch==1.12.1+cu113 (from "
        "versions: 1.13.0, 1.13.1, 2.0.0, 2.0.1, 2.1.0, 2.1.1, 2.1.2, 2.2.0, 2.2.1, 2.2.2)\n\n"
        "ERROR: No matching distribution found for torch==1.12.1+cu113\n"
    )
    assert "torch.index-variant-missing" not in [f.id for f in triage_text(paste).findings]
