"""torch.companion-mismatch and torch.extension-abi-mismatch, on real pastes (triage corpus) and
fake site-packages trees with the real metadata layouts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_torch_build import LINUX_X86, write_dist
from test_torch_checks import nvidia_made, one, python_groups, run, torch_group

from envdoctor.ingest import framework_metadata, ingest_text
from envdoctor.matrix.loader import load_bundled
from envdoctor.model.snapshot import Snapshot, collected
from envdoctor.target import ml_metadata_script

CORPUS = Path(__file__).resolve().parent / "triage_corpus"
PY = "/home/user/venv/bin/python"  # the interpreter python_groups describes


@pytest.fixture(scope="module")
def ms():
    return load_bundled()


def corpus_body(number: str) -> str:
    path = next(CORPUS.glob(f"{number}-*.txt"))
    return path.read_text().split("#! ---\n", 1)[1]


def frameworks_group(site: Path):
    dists = ml_metadata_script.describe([str(site)])["distributions"]
    packages = framework_metadata.frameworks_facts(dists, LINUX_X86)
    return collected("python.frameworks", "probe:frameworks", {"packages": packages})


def test_case_016_cpu_torch_with_pypi_torchvision(ms):
    """tt-forge #890: torch 2.9.0+cpu with torchvision 0.24.0 from PyPI -> torchvision::nms missing."""
    snap = ingest_text(corpus_body("016"))
    outcome = run(snap, ms)
    finding = one(outcome, "torch.companion-mismatch")
    assert outcome.findings[0].id == "torch.companion-mismatch"  # ranked first
    assert "torchvision 0.24.0 is PyPI's build, which is cu128 on Linux" in finding.detail
    assert finding.fixes[0].commands[:2] == (
        "python -m pip uninstall -y torchvision torchaudio",
        "python -m pip install torch==2.9.0 'torchvision==0.24.*' 'torchaudio==2.9.*' "
        "--index-url https://download.pytorch.org/whl/cpu",
    )


def test_matching_triple_passes(ms):
    snap = Snapshot()
    snap.extend(python_groups({"torch": "2.9.0", "torchvision": "0.24.0", "torchaudio": "2.9.0"}))
    snap.add(
        torch_group(
            ms,
            "2.9.0+cu128",
            "12.8",
            metadata_version="2.9.0",
            companions={"torchvision": "0.24.0", "torchaudio": "2.9.0"},
        )
    )
    assert "torch.companion-mismatch" in run(snap, ms).passed


def test_torchaudio_stays_at_2_11_for_torch_2_13(ms):
    snap = Snapshot()
    snap.extend(python_groups({"torch": "2.13.0", "torchaudio": "2.11.0"}))
    snap.add(
        torch_group(
            ms,
            "2.13.0+cu130",
            "13.0",
            metadata_version="2.13.0",
            companions={"torchaudio": "2.11.0"},
        )
    )
    assert "torch.companion-mismatch" in run(snap, ms).passed


def test_old_torchvision_with_new_torch_names_its_torch(ms):
    snap = Snapshot()
    snap.extend(python_groups({"torch": "2.1.2+cu121", "torchvision": "0.15.2+cu118"}))
    snap.add(torch_group(ms, "2.1.2+cu121", "12.1", companions={"torchvision": "0.15.2+cu118"}))
    finding = one(run(snap, ms), "torch.companion-mismatch")
    assert "torchvision 0.15.2+cu118 is the torchvision of torch 2.0" in finding.detail
    assert finding.fixes[0].commands[1] == (
        f"{PY} -m pip install torch==2.1.2 'torchvision==0.16.*' "
        "--index-url https://download.pytorch.org/whl/cu121"
    )


# ----------------------------------------------------------------------------- extensions


def test_case_019_xformers_built_for_cu121_with_a_cpu_torch(tmp_path, ms):
    """PIA #30: "xFormers was built for: PyTorch 2.1.2+cu121 with CUDA 1201 (you have 2.1.2+cpu)"."""
    site = tmp_path / "site"
    cpp_lib = {
        "version": {
            "cuda": 1201,
            "hip": None,
            "torch": "2.1.2+cu121",
            "python": "3.10.8",
            "flash": "v2.3.6",
            "use_torch_flash": False,
        },
        "env": {},
    }
    write_dist(
        site,
        "xformers",
        "0.0.23.post1",
        requires=["numpy", "torch==2.1.2"],
        files={"xformers/cpp_lib.json": json.dumps(cpp_lib), "xformers/__init__.py": ""},
        tag="cp310-cp310-win_amd64",
    )
    snap = Snapshot()
    snap.extend(python_groups({"torch": "2.1.2+cpu", "xformers": "0.0.23.post1"}, version="3.10.8"))
    snap.add(torch_group(ms, "2.1.2+cpu", None))
    snap.add(frameworks_group(site))
    finding = one(run(snap, ms), "torch.extension-abi-mismatch")
    assert (
        "xformers was built for CUDA 12.x but torch 2.1.2+cpu is a CPU-only build" in finding.detail
    )
    built = snap.data("python.frameworks")["packages"]["xformers"]["built_for"]
    assert built["torch"] == {"value": "2.1.2+cu121", "source": "xformers/cpp_lib.json"}
    assert built["cuda"]["value"] == "12.1"  # cpp_lib.json's 1201, as xformers' warning prints it


def test_xformers_pinned_to_the_installed_torch_passes(tmp_path, ms):
    site = tmp_path / "site"
    cpp_lib = {
        "version": {"cuda": 1204, "hip": None, "torch": "2.5.1+cu124", "python": "3.11.7"},
        "env": {},
    }
    write_dist(
        site,
        "xformers",
        "0.0.28.post3",
        requires=["torch==2.5.1"],
        files={"xformers/cpp_lib.json": json.dumps(cpp_lib)},
    )
    snap = Snapshot()
    snap.extend(python_groups({"torch": "2.5.1+cu124", "xformers": "0.0.28.post3"}))
    snap.add(torch_group(ms, "2.5.1+cu124", "12.4"))
    snap.add(frameworks_group(site))
    assert "torch.extension-abi-mismatch" in run(snap, ms).passed


def test_xformers_for_another_torch_gets_the_matching_xformers(tmp_path, ms):
    site = tmp_path / "site"
    write_dist(site, "xformers", "0.0.30", requires=["torch==2.7.0"])
    snap = Snapshot()
    snap.extend(python_groups({"torch": "2.5.1+cu124", "xformers": "0.0.30"}))
    snap.add(torch_group(ms, "2.5.1+cu124", "12.4"))
    snap.add(frameworks_group(site))
    finding = one(run(snap, ms), "torch.extension-abi-mismatch")
    assert "xformers 0.0.30 requires torch==2.7.0" in finding.detail
    # the python_frameworks table pairs torch 2.5.1 with xformers 0.0.28.post3
    assert finding.fixes[0].commands[1] == (
        f"{PY} -m pip install xformers==0.0.28.post3 torch==2.5.1 "
        "--index-url https://download.pytorch.org/whl/cu124"
    )
    assert "Or move torch to 2.7.0 (cu124)" not in finding.fixes[1].summary  # 2.7 has no cu124
    assert finding.fixes[1].commands[1].startswith(f"{PY} -m pip install torch==2.7.0")


def test_case_017_flash_attn_undefined_symbol_from_deep(ms):
    """open-r1 #684: flash_attn_2_cuda ... undefined symbol: _ZN3c105ErrorC2...: rebuild flash-attn."""
    error = (
        "ImportError: /home/$USER/miniconda3/envs/openr1/lib/python3.11/site-packages/flash_attn_2_cuda."
        "cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx11"
        "12basic_stringIcSt11char_traitsIcESaIcEEE"
    )
    assert error.split("undefined symbol: ")[1] in corpus_body("017")
    snap = Snapshot()
    snap.extend(python_groups({"torch": "2.6.0", "flash-attn": "2.8.0.post2"}))
    snap.add(torch_group(ms, "2.6.0+cu124", "12.4", metadata_version="2.6.0"))
    snap.add(
        collected(
            "python.deep",
            "probe:deep",
            {
                "outcome": "ok",
                "devices": [],
                "cuda_available": True,
                "extensions": {"flash_attn": {"ok": False, "error": error}},
            },
        )
    )
    finding = one(run(snap, ms), "torch.extension-abi-mismatch")
    assert error in finding.detail
    assert finding.fixes[0].commands == (
        f"{PY} -m pip uninstall -y flash-attn",
        f"{PY} -m pip install flash-attn --no-build-isolation",
    )


def test_flash_attn_label_names_its_torch_and_abi(tmp_path, ms):
    site = tmp_path / "site"
    write_dist(
        site,
        "flash-attn",
        "2.7.4.post1+cu12torch2.5cxx11abiFALSE",
        requires=["torch", "einops"],
        files={
            "flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so": "",
            "flash_attn/__init__.py": "",
        },
    )
    snap = Snapshot()
    snap.extend(python_groups({"torch": "2.6.0", "flash-attn": "2.7.4.post1"}))
    snap.add(torch_group(ms, "2.6.0+cu124", "12.4", metadata_version="2.6.0"))
    snap.add(frameworks_group(site))
    snap.add(
        collected("python.deep", "probe:deep", {"outcome": "ok", "cxx11_abi": True, "devices": []})
    )
    finding = one(run(snap, ms), "torch.extension-abi-mismatch")
    assert (
        "built for torch 2.5" in finding.detail and "old C++ ABI (cxx11abiFALSE)" in finding.detail
    )
    built = snap.data("python.frameworks")["packages"]["flash-attn"]["built_for"]
    assert built["compiled_module"]["value"] == "flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so"


def test_vllm_pinned_to_another_torch_offers_both_directions(tmp_path, ms):
    site = tmp_path / "site"
    write_dist(
        site,
        "vllm",
        "0.6.4.post1",
        requires=["torch==2.5.1", 'xformers==0.0.28.post3; platform_system == "Linux"'],
    )
    snap = Snapshot()
    snap.extend(python_groups({"torch": "2.6.0", "vllm": "0.6.4.post1"}))
    snap.add(torch_group(ms, "2.6.0+cu124", "12.4", metadata_version="2.6.0"))
    snap.add(frameworks_group(site))
    finding = one(run(snap, ms), "torch.extension-abi-mismatch")
    assert finding.fixes[0].commands == (
        f"{PY} -m pip install -U vllm torch==2.6.0 --extra-index-url https://download.pytorch.org/whl/cu124",
    )
    assert (
        finding.fixes[1].commands[1]
        == f"{PY} -m pip install torch==2.5.1 --index-url https://download.pytorch.org/whl/cu124"
    )


def test_a_torch_fix_removes_extensions_pinned_to_the_old_torch(tmp_path, ms):
    site = tmp_path / "site"
    # 2.6 has no build with sm_120, so the fix changes torch (2.7's cu128 would keep an xformers for 2.7.0)
    write_dist(site, "xformers", "0.0.29.post3", requires=["torch==2.6.0"])
    snap = Snapshot()
    snap.extend(nvidia_made("NVIDIA GeForce RTX 5090", "12.0", "570.124.04", "12.8", 32607))
    snap.extend(python_groups({"torch": "2.6.0", "xformers": "0.0.29.post3"}))
    snap.add(torch_group(ms, "2.6.0+cu124", "12.4", metadata_version="2.6.0"))
    snap.add(frameworks_group(site))
    fix = one(run(snap, ms), "torch.gpu-too-new-for-build").fixes[0]
    assert fix.commands[0] == "/home/user/venv/bin/python -m pip uninstall -y torch xformers"
    assert "removes xformers (built for torch 2.6.0)" in fix.summary
