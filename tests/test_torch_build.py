"""python.torch: read from fake site-packages trees with the real wheel layouts, through a fake
target interpreter, and from the real torch 2.13.0 CPU venv of the test environment.

The helpers here (`write_dist`, the real file contents) are shared by the other test_torch_* /
test_frameworks* / test_deep* files. Provenance of every content: tests/fixtures/python/SOURCES.md.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from envdoctor.diagnosis import enrich
from envdoctor.ingest import torch_metadata
from envdoctor.matrix.loader import load_bundled
from envdoctor.probes import torch_build
from envdoctor.probes.context import ProbeContext, ProbeOptions
from envdoctor.target import ml_metadata_script

REPO = Path(__file__).resolve().parent.parent


def torch_facts(dists, environment, ms=None):
    """The python.torch facts of `dists`, enriched from the matrices as a diagnosis does."""
    data = torch_metadata.torch_facts(dists, environment)
    if ms is not None:
        enrich.torch_arches(data, ms)
    return data


# https://github.com/tanxinnn/sds_project/blob/59d62f715ecb503954cd781a914eb1b64d060c78/domain/lib/python3.10/site-packages/torch/version.py
VERSION_PY_271_CU126 = (
    "from typing import Optional\n\n"
    "__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
    "__version__ = '2.7.1+cu126'\n"
    "debug = False\n"
    "cuda: Optional[str] = '12.6'\n"
    "git_version = 'e2d141dbde55c2a4370fac5165b0561b6af4798b'\n"
    "hip: Optional[str] = None\n"
    "xpu: Optional[str] = None\n"
)

# torch/version.py of the official torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl
VERSION_PY_2130_CPU = (
    "from typing import Optional\n\n"
    "__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'rocm', 'xpu']\n"
    "__version__ = '2.13.0+cpu'\n"
    "debug = False\n"
    "cuda: Optional[str] = None\n"
    "git_version = 'cf30153c4c131c8164ee7798e5022d810682e2cb'\n"
    "hip: Optional[str] = None\n"
    "rocm: Optional[str] = None\n"
    "xpu: Optional[str] = None\n"
)

_X86 = 'platform_system == "Linux" and platform_machine == "x86_64"'
# Requires-Dist of the PyPI torch 2.7.1 wheel, https://github.com/astral-sh/uv/issues/14237
REQUIRES_271_PYPI = [
    "filelock",
    "typing-extensions>=4.10.0",
    'setuptools; python_version >= "3.12"',
    "sympy>=1.13.3",
    "networkx",
    "jinja2",
    "fsspec",
    f"nvidia-cuda-nvrtc-cu12==12.6.77; {_X86}",
    f"nvidia-cuda-runtime-cu12==12.6.77; {_X86}",
    f"nvidia-cuda-cupti-cu12==12.6.80; {_X86}",
    f"nvidia-cudnn-cu12==9.5.1.17; {_X86}",
    f"nvidia-cublas-cu12==12.6.4.1; {_X86}",
    f"nvidia-cufft-cu12==11.3.0.4; {_X86}",
    f"nvidia-curand-cu12==10.3.7.77; {_X86}",
    f"nvidia-cusolver-cu12==11.7.1.2; {_X86}",
    f"nvidia-cusparse-cu12==12.5.4.2; {_X86}",
    f"nvidia-cusparselt-cu12==0.6.3; {_X86}",
    f"nvidia-nccl-cu12==2.26.2; {_X86}",
    f"nvidia-nvtx-cu12==12.6.77; {_X86}",
    f"nvidia-nvjitlink-cu12==12.6.85; {_X86}",
    f"nvidia-cufile-cu12==1.11.1.6; {_X86}",
    f"triton==3.3.1; {_X86}",
    'optree>=0.13.0; extra == "optree"',
    'opt-einsum>=3.3; extra == "opt-einsum"',
]
# Requires-Dist of torch 2.6.0+cu124 in the older "name (==x) ; marker" form,
# https://github.com/pytorch/pytorch/issues/146679
REQUIRES_260_CU124 = [
    f"nvidia-cuda-nvrtc-cu12 (==12.4.127) ; {_X86}",
    f"nvidia-cuda-runtime-cu12 (==12.4.127) ; {_X86}",
    f"nvidia-cudnn-cu12 (==9.1.0.70) ; {_X86}",
]
LINUX_X86 = {
    "platform_system": "Linux",
    "platform_machine": "x86_64",
    "sys_platform": "linux",
    "python_version": "3.10",
    "python_full_version": "3.10.12",
    "os_name": "posix",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "platform_release": "6.8.0",
}


def write_dist(
    site: Path,
    name: str,
    version: str,
    *,
    requires: list[str] = (),
    installer: str = "pip",
    files: dict[str, str] | None = None,
    tag: str = "cp310-cp310-manylinux_2_28_x86_64",
    requires_python: str | None = None,
    metadata_version: str | None = None,
) -> Path:
    """A dist-info with METADATA, WHEEL, INSTALLER and RECORD as pip writes them, plus files."""
    stem = name.replace("-", "_")
    shown = metadata_version or version
    info = site / f"{stem}-{shown}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {shown}"]
    if requires_python:
        lines.append(f"Requires-Python: {requires_python}")
    lines += [f"Requires-Dist: {r}" for r in requires]
    (info / "METADATA").write_text("\n".join(lines) + "\n\n")
    (info / "WHEEL").write_text(
        f"Wheel-Version: 1.0\nGenerator: bdist_wheel (0.45.1)\nRoot-Is-Purelib: false\nTag: {tag}\n"
    )
    (info / "INSTALLER").write_text(installer + "\n")
    record = []
    for rel, text in (files or {}).items():
        target = site / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        record.append(f"{rel},,")
    record += [f"{info.name}/{f},," for f in ("METADATA", "WHEEL", "INSTALLER", "RECORD")]
    (info / "RECORD").write_text("\n".join(record) + "\n")
    return info


def torch_271_pypi_site(site: Path, nvidia: dict[str, str] | None = None) -> Path:
    """torch 2.7.1 installed from PyPI on Linux (dist-info "2.7.1", version.py "+cu126")."""
    write_dist(
        site,
        "torch",
        "2.7.1",
        requires=REQUIRES_271_PYPI,
        requires_python=">=3.9.0",
        files={
            "torch/version.py": VERSION_PY_271_CU126,
            "torch/__init__.py": "",
            "torch/lib/libtorch_cuda.so": "",
            "torch/lib/libc10_cuda.so": "",
            "torch/lib/libtorch_cpu.so": "",
        },
    )
    for dist, version in (nvidia or {}).items():
        write_dist(site, dist, version, tag="py3-none-manylinux2014_x86_64")
    return site


def fake_python(fake_tools, site: Path) -> str:
    """A target interpreter that sees only `site` (the real python, without its own site dirs)."""
    bindir = fake_tools(
        {
            "python": f'#!/bin/sh\nPYTHONNOUSERSITE=1 PYTHONPATH="{site}" exec "{sys.executable}" -S "$@"\n'
        }
    )
    return str(Path(bindir) / "python")


def real_torch_python() -> str | None:
    """The test environment's venv with torch 2.13.0 (CPU) from the local wheel, if present."""
    for candidate in (
        os.environ.get("ENVDOCTOR_TORCH_PYTHON"),
        str(REPO / ".venv-torch/bin/python"),
        "/tmp/venv-torch/bin/python",
    ):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


@pytest.fixture(scope="module")
def ms():
    return load_bundled()


def test_pypi_wheel_layout_gives_variant_from_version_py(tmp_path, ms):
    site = torch_271_pypi_site(
        tmp_path / "site",
        {
            "nvidia-cudnn-cu12": "9.5.1.17",
            "nvidia-cublas-cu12": "12.6.4.1",
            "nvidia-nccl-cu12": "2.21.5",
        },
    )
    write_dist(site, "torchvision", "0.22.1", requires=["torch==2.7.1"])
    dists = ml_metadata_script.describe([str(site)])["distributions"]
    facts = torch_facts(dists, LINUX_X86, ms)
    assert facts["version"] == "2.7.1+cu126"  # version.py keeps the label ...
    assert facts["metadata_version"] == "2.7.1"  # ... the PyPI dist-info does not
    assert (facts["variant"], facts["backend"], facts["cuda"], facts["hip"]) == (
        "cu126",
        "cuda",
        "12.6",
        None,
    )
    assert facts["git_version"] == "e2d141dbde55c2a4370fac5165b0561b6af4798b"
    assert facts["torchvision"] == "0.22.1" and facts["torchaudio"] is None
    assert facts["compiled_backends"] == ["cuda"]
    assert facts["bundled_nvidia"] == {
        "nvidia-cublas-cu12": "12.6.4.1",
        "nvidia-cudnn-cu12": "9.5.1.17",
        "nvidia-nccl-cu12": "2.21.5",
    }
    assert facts["nvidia_requirements"]["nvidia-cudnn-cu12"] == "9.5.1.17"
    assert "nvidia-cuda-runtime-cu12" in facts["nvidia_missing"]
    assert facts["nvidia_mismatched"] == {
        "nvidia-nccl-cu12": {"required": "2.26.2", "installed": "2.21.5"}
    }
    assert (
        facts["arch_list"]
        == ms.table("torch_arch").where(torch="2.7", variant="cu126", os="linux")[0]["cuda_arches"]
    )
    assert facts["arch_list_source"] == "matrix:torch_arch"
    assert facts["installer"] == "pip" and facts["location"] == str(site)


def test_markers_decide_which_nvidia_pins_apply(tmp_path, ms):
    site = torch_271_pypi_site(tmp_path / "site")
    dists = ml_metadata_script.describe([str(site)])["distributions"]
    arm = {**LINUX_X86, "platform_machine": "aarch64"}
    assert torch_facts(dists, arm, ms)["nvidia_requirements"] == {}
    assert len(torch_facts(dists, LINUX_X86, ms)["nvidia_requirements"]) == 14


def test_old_requires_dist_form_is_read(tmp_path, ms):
    site = tmp_path / "site"
    write_dist(
        site,
        "torch",
        "2.6.0+cu124",
        requires=REQUIRES_260_CU124,
        files={
            "torch/version.py": VERSION_PY_271_CU126.replace("2.7.1+cu126", "2.6.0+cu124").replace(
                "'12.6'", "'12.4'"
            )
        },
    )
    facts = torch_facts(ml_metadata_script.describe([str(site)])["distributions"], LINUX_X86, ms)
    assert facts["nvidia_requirements"] == {
        "nvidia-cuda-nvrtc-cu12": "12.4.127",
        "nvidia-cuda-runtime-cu12": "12.4.127",
        "nvidia-cudnn-cu12": "9.1.0.70",
    }
    assert facts["variant"] == "cu124" and facts["cuda"] == "12.4"


def test_cpu_wheel_is_a_cpu_build(tmp_path, ms):
    site = tmp_path / "site"
    write_dist(
        site,
        "torch",
        "2.13.0+cpu",
        requires=["filelock"],
        tag="cp311-cp311-manylinux_2_28_x86_64",
        files={"torch/version.py": VERSION_PY_2130_CPU, "torch/lib/libtorch_cpu.so": ""},
    )
    facts = torch_facts(ml_metadata_script.describe([str(site)])["distributions"], LINUX_X86, ms)
    assert (facts["variant"], facts["backend"], facts["cuda"]) == ("cpu", "cpu", None)
    assert facts["compiled_backends"] == ["cpu"] and facts["bundled_nvidia"] == {}
    assert facts["arch_list"] is None  # no CUDA arches in a CPU wheel
    assert torch_metadata.summary(facts) == "torch 2.13.0+cpu (CPU-only build)"


def test_version_py_parser_handles_every_spelling():
    assert torch_metadata.parse_version_py(VERSION_PY_271_CU126)["cuda"] == "12.6"
    old = "__version__ = '1.13.1+cu117'\ndebug = False\ncuda = '11.7'\ngit_version = 'abc'\nhip = None\n"
    assert torch_metadata.parse_version_py(old) == {
        "__version__": "1.13.1+cu117",
        "debug": False,
        "cuda": "11.7",
        "git_version": "abc",
        "hip": None,
    }
    assert torch_metadata.parse_version_py("") == {}


def test_probe_reads_the_target_interpreter(tmp_path, fake_tools):
    site = torch_271_pypi_site(tmp_path / "site", {"nvidia-cudnn-cu12": "9.5.1.17"})
    python = fake_python(fake_tools, site)
    groups = torch_build.collect(ProbeContext(options=ProbeOptions(python=python)))
    assert [g.status.value for g in groups] == ["collected"]
    assert groups[0].data["version"] == "2.7.1+cu126" and python in groups[0].source
    assert groups[0].summary == "torch 2.7.1+cu126 (CUDA 12.6 build)"


def test_probe_absent_without_torch_and_failed_for_a_broken_interpreter(tmp_path, fake_tools):
    empty = tmp_path / "empty"
    empty.mkdir()
    python = fake_python(fake_tools, empty)
    group = torch_build.collect(ProbeContext(options=ProbeOptions(python=python)))[0]
    assert group.status.value == "absent" and "not installed" in group.reason
    broken = (
        Path(fake_tools({"broken-python": "#!/bin/sh\necho 'no such module' >&2\nexit 3\n"}))
        / "broken-python"
    )
    group = torch_build.collect(ProbeContext(options=ProbeOptions(python=str(broken))))[0]
    assert group.status.value == "failed" and "exited 3" in group.reason


@pytest.mark.parametrize("script", ["ml_metadata_script.py", "deep_script.py"])
def test_target_scripts_parse_as_python_3_7(script):
    """The scripts that run inside the target interpreter must not use 3.8+ syntax."""
    import ast

    source = (REPO / "envdoctor" / "target" / script).read_text()
    ast.parse(source, feature_version=(3, 7))
    with pytest.raises(SyntaxError):  # the guard itself works: 3.8 syntax is refused
        ast.parse("if (x := 1):\n    pass\n", feature_version=(3, 7))


@pytest.fixture(scope="module")
def torch_python():
    python = real_torch_python()
    if python is None:
        pytest.skip("no venv with torch 2.13.0 (./scripts/test makes .venv-torch)")
    return python


def test_real_cpu_venv_is_described(torch_python):
    group = torch_build.collect(ProbeContext(options=ProbeOptions(python=torch_python)))[0]
    assert group.status.value == "collected"
    data = group.data
    assert (
        data["version"].startswith("2.13.0") and data["backend"] == "cpu" and data["cuda"] is None
    )
    assert data["version_py_read"] is True and data["bundled_nvidia"] == {}


def test_check_on_this_machine_says_cpu_build_nothing_to_fix(torch_python):
    """The acceptance case: a CPU torch, a CUDA toolkit, no GPU -> an info note, exit 0."""
    result = subprocess.run(
        [sys.executable, "-m", "envdoctor", "check", "--python", torch_python, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    report = json.loads(result.stdout)
    ours = [
        f
        for f in report["findings"]
        if f["id"].startswith(("torch.", "tensorflow.", "jax.", "cupy."))
    ]
    assert [(f["id"], f["severity"]) for f in ours] == [("torch.cpu-build-no-gpu", "info")]
    assert "nothing to fix for GPU use" in ours[0]["title"]
    assert report["snapshot"]["groups"]["python.torch"]["data"]["variant"] == "cpu"
    text = subprocess.run(
        [sys.executable, "-m", "envdoctor", "check", "--python", torch_python],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert "CPU-only build and no GPU was found: nothing to fix for GPU use" in text.stdout
    assert text.returncode == 0 and result.returncode == 0


def _old_python() -> str | None:
    import glob
    import shutil

    candidates = [shutil.which(n) for n in ("python3.7", "python3.8")]
    candidates += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.[78].*/bin/python")))
    for found in filter(None, candidates):
        if subprocess.run([found, "-c", "import sys"], capture_output=True).returncode == 0:
            return found
    return None


def test_metadata_script_gives_the_same_facts_under_an_old_python(tmp_path):
    """Where a Python 3.7/3.8 exists, the script runs in it and reads the same tree."""
    old = _old_python()
    if old is None:
        pytest.skip("no python3.7 / python3.8 on PATH")
    site = torch_271_pypi_site(tmp_path / "site", {"nvidia-cudnn-cu12": "9.5.1.17"})
    out = subprocess.run(
        [old, str(Path(ml_metadata_script.__file__)), str(site)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    theirs = json.loads(out.stdout)["distributions"]
    ours = ml_metadata_script.describe([str(site)])["distributions"]
    assert theirs["torch"]["files"] == ours["torch"]["files"]
    assert sorted(theirs["torch"]["requires"]) == sorted(ours["torch"]["requires"])
    assert {k: v["version"] for k, v in theirs.items()} == {
        k: v["version"] for k, v in ours.items()
    }
