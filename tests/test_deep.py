"""`--deep`: the GPU test finishes within its deadline whatever the target interpreter does
(hangs, segfaults, raises on `import torch`), reports the exact error, and reads device results."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_torch_build import real_torch_python
from test_torch_checks import one, run

from envdoctor.matrix.loader import load_bundled
from envdoctor.model.snapshot import Snapshot, collected
from envdoctor.probes import collect_all, deep
from envdoctor.probes.context import ProbeContext, ProbeOptions

# A stand-in torch for the device path: the API deep_script.py calls, a pure-Python tensor, and a
# "cuda:0" device whose behaviour FAKE_TORCH_MODE picks (ok / wrong / nokernel).
FAKE_TORCH = """
import os, random
__version__ = "2.7.1+cu128"
MODE = os.environ.get("FAKE_TORCH_MODE", "ok")
class version:
    cuda = "12.8"
    hip = None
class _C:
    _GLIBCXX_USE_CXX11_ABI = True
class Generator:
    def manual_seed(self, seed):
        self.rng = random.Random(seed)
        return self
class Tensor:
    def __init__(self, rows, device="cpu"):
        self.rows, self.device = rows, device
    def to(self, device):
        return Tensor(self.rows, device)
    def __matmul__(self, other):
        if self.device.startswith("cuda") and MODE == "nokernel":
            raise RuntimeError("CUDA error: no kernel image is available for execution on the device")
        n = len(other.rows[0])
        out = [[sum(a * other.rows[k][j] for k, a in enumerate(row)) for j in range(n)] for row in self.rows]
        if self.device.startswith("cuda") and MODE == "wrong":
            out[0][0] += 1.0
        return Tensor(out, self.device)
    def __sub__(self, other):
        return Tensor([[a - b for a, b in zip(r, s)] for r, s in zip(self.rows, other.rows)], self.device)
    def abs(self):
        return Tensor([[abs(a) for a in r] for r in self.rows], self.device)
    def max(self):
        return max(max(r) for r in self.rows)
def randn(n, m, generator):
    return Tensor([[generator.rng.gauss(0, 1) for _ in range(m)] for _ in range(n)])
class _Props:
    total_memory = 32607 * 1024 * 1024
class cuda:
    is_available = staticmethod(lambda: True)
    init = staticmethod(lambda: None)
    device_count = staticmethod(lambda: 1)
    get_arch_list = staticmethod(lambda: ["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"])
    get_device_name = staticmethod(lambda i: "NVIDIA GeForce RTX 5090")
    get_device_capability = staticmethod(lambda i: (12, 0))
    get_device_properties = staticmethod(lambda i: _Props())
class backends:
    class cuda:
        is_built = staticmethod(lambda: True)
        class matmul:
            allow_tf32 = True
"""


def fake_torch_python(fake_tools, tmp_path: Path, init_py: str, name: str = "python") -> str:
    site = tmp_path / f"site-{name}"
    (site / "torch").mkdir(parents=True)
    (site / "torch" / "__init__.py").write_text(init_py)
    bindir = fake_tools({name: f'#!/bin/sh\nPYTHONPATH="{site}" exec "{sys.executable}" -S "$@"\n'})
    return str(Path(bindir) / name)


def deep_group(python: str, timeout_s: float = 20.0, env: dict | None = None):
    ctx = ProbeContext(env=env, options=ProbeOptions(python=python, deep=True, timeout_s=timeout_s))
    started = time.monotonic()
    group = deep.collect(ctx)[0]
    return group, time.monotonic() - started


def test_not_requested_is_absent():
    group = deep.collect(ProbeContext(options=ProbeOptions()))[0]
    assert group.status.value == "absent" and "--deep" in group.reason


def test_import_that_hangs_is_killed_at_the_deadline(tmp_path, fake_tools):
    python = fake_torch_python(fake_tools, tmp_path, "import time\ntime.sleep(600)\n")
    group, took = deep_group(python, timeout_s=4.0)
    assert took < deep.deadline_s(ProbeContext(options=ProbeOptions(timeout_s=4.0))) + 2.0
    data = group.data
    assert data["outcome"] == "timeout" and data["hung_at"] == "import torch"
    assert data["error"] == "import torch did not finish within 2.5 s (killed)"


def test_import_that_segfaults(tmp_path, fake_tools):
    python = fake_torch_python(
        fake_tools, tmp_path, "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n"
    )
    data = deep_group(python)[0].data
    assert data["outcome"] == "crashed" and data["hung_at"] == "import torch"
    assert "killed by SIGSEGV" in data["error"]


def test_import_that_raises_keeps_the_exact_text(tmp_path, fake_tools):
    error = "libcudnn.so.9: cannot open shared object file: No such file or directory"
    python = fake_torch_python(fake_tools, tmp_path, f"raise ImportError({error!r})\n")
    data = deep_group(python)[0].data
    assert data["outcome"] == "import-failed" and data["cuda_available"] is False
    assert data["error"] == f"ImportError: {error}"


def test_a_target_that_is_not_python_at_all(fake_tools):
    python = str(
        Path(fake_tools({"notpython": "#!/bin/sh\necho boom >&2\nexit 2\n"})) / "notpython"
    )
    data = deep_group(python)[0].data
    assert data["outcome"] == "crashed" and data["error"].endswith("exit status 2: boom")


def test_collect_all_keeps_its_overall_deadline_with_a_hanging_import(tmp_path, fake_tools):
    python = fake_torch_python(fake_tools, tmp_path, "import time\ntime.sleep(600)\n")
    ctx = ProbeContext(options=ProbeOptions(python=python, deep=True, timeout_s=3.0))
    started = time.monotonic()
    snap = collect_all(ctx, ("deep",)).snapshot
    assert time.monotonic() - started < 5.0
    assert snap.fact("python.deep", "outcome") == "timeout"


@pytest.mark.parametrize("mode,ok", [("ok", True), ("wrong", False), ("nokernel", False)])
def test_device_results(tmp_path, fake_tools, mode, ok):
    python = fake_torch_python(fake_tools, tmp_path, FAKE_TORCH, name=f"python-{mode}")
    group, _ = deep_group(python, env={"FAKE_TORCH_MODE": mode, "PATH": "/usr/bin:/bin"})
    data = group.data
    assert data["outcome"] == "ok" and data["cuda_available"] is True and data["backend"] == "cuda"
    assert (
        data["devices"][0]["name"] == "NVIDIA GeForce RTX 5090"
        and data["devices"][0]["capability"] == "12.0"
    )
    assert data["devices"][0]["total_memory_mib"] == 32607 and data["cxx11_abi"] is True
    assert data["matmul_ok"] == {"cuda:0": ok} and data["arch_list"][-1] == "sm_120"
    if mode == "nokernel":
        assert (
            data["error"]
            == "RuntimeError: CUDA error: no kernel image is available for execution on the device"
        )
    if mode == "wrong":
        assert data["devices"][0]["max_abs_err"] == pytest.approx(1.0, abs=1e-6)


def test_gpu_test_failed_check(tmp_path, fake_tools):
    ms = load_bundled()
    python = fake_torch_python(fake_tools, tmp_path, FAKE_TORCH)
    group, _ = deep_group(python, env={"FAKE_TORCH_MODE": "nokernel", "PATH": "/usr/bin:/bin"})
    snap = Snapshot()
    snap.add(group)
    finding = one(run(snap, ms), "torch.gpu-test-failed")
    assert "no kernel image is available" in finding.detail
    good, _ = deep_group(python, env={"FAKE_TORCH_MODE": "ok", "PATH": "/usr/bin:/bin"})
    snap = Snapshot()
    snap.add(good)
    assert "torch.gpu-test-failed" in run(snap, ms).passed


def test_gpu_test_failed_when_torch_sees_no_gpu_the_machine_has():
    ms = load_bundled()
    snap = Snapshot()
    snap.add(
        collected(
            "nvidia.gpus",
            "probe:nvidia_gpu",
            {"gpus": [{"name": "NVIDIA H200", "compute_capability": "9.0"}]},
        )
    )
    snap.add(
        collected(
            "python.deep",
            "probe:deep",
            {
                "outcome": "ok",
                "cuda_available": False,
                "devices": [],
                "torch_version": "2.13.0+cu130",
                "backends": {"cuda": {"built": True, "available": False}},
                "error": "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU "
                "and installed a driver from http://www.nvidia.com/Download/index.aspx",
            },
        )
    )
    finding = one(run(snap, ms), "torch.gpu-test-failed")
    assert "Found no NVIDIA driver on your system" in finding.detail


def test_real_cpu_torch_under_deep():
    python = real_torch_python()
    if python is None:
        pytest.skip("no venv with torch 2.13.0 (./scripts/test makes .venv-torch)")
    group, took = deep_group(python, timeout_s=60.0)
    data = group.data
    assert data["outcome"] == "ok" and data["torch_version"].startswith("2.13.0")
    assert data["cuda_available"] is False and data["devices"] == []
    assert data["backends"]["cuda"]["built"] is False
    assert (
        data["backends"]["cuda"]["error"] == "AssertionError: Torch not compiled with CUDA enabled"
    )
    out = subprocess.run(
        [sys.executable, "-m", "envdoctor", "check", "--deep", "--python", python, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0
    assert '"torch.gpu-test-failed"' in out.stdout  # listed among the passed checks, not a finding
    assert '"id": "torch.gpu-test-failed"' not in out.stdout


def test_no_torch_at_all_is_absent_not_a_failure(tmp_path, fake_tools):
    empty = tmp_path / "empty"
    empty.mkdir()
    bindir = fake_tools(
        {"bare-python": f'#!/bin/sh\nPYTHONPATH="{empty}" exec "{sys.executable}" -S "$@"\n'}
    )
    group, _ = deep_group(str(Path(bindir) / "bare-python"))
    assert group.status.value == "absent" and "torch is not installed" in group.reason
