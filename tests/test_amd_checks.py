"""Every AMD check with a failing and a passing snapshot, run through the engine."""

from __future__ import annotations

from typing import Any

import pytest

from envdoctor.checks import amd_access, amd_gfx, amd_ollama, amd_torch, amd_visible, load_checks
from envdoctor.diagnosis.engine import run_checks
from envdoctor.matrix.loader import load_bundled
from envdoctor.model.findings import Severity
from envdoctor.model.snapshot import Snapshot, absent, collected


@pytest.fixture(scope="module")
def ms():
    return load_bundled()


def snap(**groups: dict[str, Any] | None) -> Snapshot:
    """A snapshot from {group name with '_' for '.': data}; None makes the group absent."""
    out = Snapshot(origin="live")
    for key, data in groups.items():
        name = key.replace("__", ".")
        out.add(absent(name, "test", "not here") if data is None else collected(name, "test", data))
    return out


def gpu(index: int, name: str, gfx: str, **more: Any) -> dict[str, Any]:
    return {"index": index, "name": name, "gfx_target": gfx, **more}


PYTHON = {
    "version": "3.11.4",
    "executable": "/home/alice/.venv/bin/python",
    "environment": "venv",
    "prefix": "/home/alice/.venv",
    "platform": "linux",
}
LINUX = {"system": "Linux", "distro_id": "ubuntu", "distro_version": "22.04", "arch": "x86_64"}


def run1(chk, s: Snapshot, ms):
    """The one finding a check returns for `s`, or None."""
    found = chk.run(s, ms)
    assert len(found) <= 1, [f.id for f in found]
    return found[0] if found else None


def ids(findings) -> list[str]:
    return [f.id for f in findings]


# -- rocm.gfx-unsupported ----------------------------------------------------------------------
def test_gfx_unsupported_rdna2_card_on_rocm_62(ms):
    s = snap(
        amd__gpus={"gpus": [gpu(0, "AMD Radeon RX 6700 XT", "gfx1031")]},
        amd__rocm={"version": "6.2.4"},
        os=LINUX,
    )
    finding = run1(amd_gfx.gfx_unsupported, s, ms)
    assert finding.id == "rocm.gfx-unsupported" and finding.severity is Severity.WARNING
    assert finding.title == "ROCm 6.2.4 does not support AMD Radeon RX 6700 XT (gfx1031) on Linux"
    assert "gfx1030, gfx1100, gfx906, gfx908, gfx90a, gfx942" in finding.detail
    # no ROCm release lists gfx1031: the only fix is the override, marked as an unsupported workaround
    [fix] = finding.fixes
    assert fix.summary.startswith(
        "Unsupported workaround: run gfx1031 as gfx1030 with HSA_OVERRIDE_GFX_VERSION=10.3.0"
    )
    assert fix.commands[0] == "export HSA_OVERRIDE_GFX_VERSION=10.3.0"
    assert "app.ollama-cpu-fallback" in finding.explains


def test_gfx_unsupported_ranks_the_supported_release_first(ms):
    """RX 7900 XTX (gfx1100) on ROCm 5.7: 6.0+ lists it; no override for gfx1100 itself."""
    s = snap(
        amd__gpus={"gpus": [gpu(0, "AMD Radeon RX 7900 XTX", "gfx1100")]},
        amd__rocm={"version": "5.7.1"},
        os=LINUX,
    )
    finding = run1(amd_gfx.gfx_unsupported, s, ms)
    assert finding.fixes[0].summary.startswith("Install ROCm 6.2.4 (its Linux table lists gfx1100)")
    assert finding.fixes[0].commands == ("sudo apt update", "sudo apt install rocm")
    assert (
        finding.fixes[0].url
        == "https://rocm.docs.amd.com/projects/install-on-linux/en/docs-6.2.4/install/quick-start.html"
    )
    assert not any(f.summary.startswith("Unsupported workaround") for f in finding.fixes)


def test_gfx_unsupported_rdna3_apu_gets_the_11_0_0_override_after_nothing_better(ms):
    s = snap(
        amd__gpus={"gpus": [gpu(0, "AMD Radeon 780M Graphics", "gfx1103", is_apu=True)]},
        amd__rocm={"version": "6.1.2"},
        os={"system": "Linux", "distro_id": "fedora"},
    )
    finding = run1(amd_gfx.gfx_unsupported, s, ms)
    assert [f.commands[0] for f in finding.fixes] == ["export HSA_OVERRIDE_GFX_VERSION=11.0.0"]


def test_gfx_unsupported_passes_for_listed_targets_and_applied_override(ms):
    s = snap(
        amd__gpus={
            "gpus": [
                gpu(0, "AMD Instinct MI300X", "gfx942"),
                gpu(1, "AMD Radeon PRO W7900", "gfx1100"),
            ]
        },
        amd__rocm={"version": "6.2.4"},
    )
    assert run1(amd_gfx.gfx_unsupported, s, ms) is None
    overridden = snap(
        amd__gpus={"gpus": [gpu(0, "AMD Radeon RX 6700 XT", "gfx1031")]},
        amd__rocm={"version": "6.2.4"},
        amd__env={"override": {"value": "10.3.0", "gfx": "gfx1030"}, "variables": {}},
    )
    assert run1(amd_gfx.gfx_unsupported, overridden, ms) is None


def test_gfx_unsupported_without_release_reports_only_what_no_table_lists(ms):
    unknown = snap(
        amd__gpus={
            "gpus": [
                gpu(0, "AMD Radeon RX 9070 XT", "gfx1201"),
                gpu(1, "AMD Radeon RX 7800 XT", "gfx1101"),
            ]
        }
    )
    assert (
        run1(amd_gfx.gfx_unsupported, unknown, ms) is None
    )  # newer releases list them: no claim either way
    mi25 = snap(amd__gpus={"gpus": [gpu(0, "Radeon Instinct MI25", "gfx900")]})
    finding = run1(amd_gfx.gfx_unsupported, mi25, ms)
    assert finding.title == "ROCm does not support Radeon Instinct MI25 (gfx900) on Linux"
    assert "AMD's Linux tables mark gfx900 unsupported" in finding.detail


def test_product_unlisted_info(ms):
    s = snap(
        amd__gpus={"gpus": [gpu(0, "AMD Radeon RX 6800 XT", "gfx1030")]},
        amd__rocm={"version": "6.2.4"},
    )
    finding = run1(amd_gfx.gfx_unsupported, s, ms)
    assert finding.id == "rocm.product-unlisted" and finding.severity is Severity.INFO
    assert (
        "AMD lists AMD Radeon PRO W6800, AMD Radeon PRO V620 (gfx1030) for ROCm 6.2.4"
        in finding.detail
    )
    listed = snap(
        amd__gpus={"gpus": [gpu(0, "AMD Instinct MI300X OAM", "gfx942")]},
        amd__rocm={"version": "6.2.4"},
    )
    assert run1(amd_gfx.gfx_unsupported, listed, ms) is None


# -- rocm.no-binary-for-gpu --------------------------------------------------------------------
def _torch(version: str, variant: str | None, backend: str, **more: Any) -> dict[str, Any]:
    return {"version": version, "variant": variant, "backend": backend, **more}


def test_no_binary_from_the_deep_arch_list(ms):
    s = snap(
        amd__gpus={"gpus": [gpu(0, "AMD Radeon RX 6700 XT", "gfx1031")]},
        python__torch=_torch("2.5.1+rocm6.2", "rocm6.2", "rocm", hip="6.2.41133-dd7f95766"),
        python__deep={
            "torch_hip": "6.2.41133-dd7f95766",
            "arch_list": ["gfx900", "gfx906", "gfx908", "gfx90a", "gfx1030", "gfx1100", "gfx942"],
        },
        python=PYTHON,
    )
    finding = run1(amd_gfx.no_binary_for_gpu, s, ms)
    assert finding.severity is Severity.ERROR
    assert finding.title == "2.5.1+rocm6.2 has no GPU code for AMD Radeon RX 6700 XT (gfx1031)"
    assert "hipErrorNoBinaryForGpu" in finding.detail
    # the build lists gfx1030: the RDNA2 override works as a workaround; then a source build
    assert finding.fixes[0].commands[0] == "export HSA_OVERRIDE_GFX_VERSION=10.3.0"
    assert (
        finding.fixes[-1].commands[-1]
        == "PYTORCH_ROCM_ARCH=gfx1031 python -m pip install --no-build-isolation -v -e ."
    )
    assert finding.explains == ("torch.gpu-test-failed",)


def test_no_binary_from_the_error_text(ms):
    s = snap(
        amd__gpus={"gpus": [gpu(0, "AMD Radeon 780M Graphics", "gfx1103")]},
        python__torch=_torch("2.4.1+rocm6.1", "rocm6.1", "rocm"),
        python__deep={
            "error": "RuntimeError: HIP error: invalid device function\nHIP kernel errors might be "
            "asynchronously reported"
        },
    )
    finding = run1(amd_gfx.no_binary_for_gpu, s, ms)
    assert any(e.fact == "python.deep.error" for e in finding.evidence)
    assert finding.fixes[0].commands[0] == "export HSA_OVERRIDE_GFX_VERSION=11.0.0"


def test_no_binary_passes(ms):
    listed = snap(
        amd__gpus={"gpus": [gpu(0, "AMD Radeon RX 7900 XTX", "gfx1100")]},
        python__torch=_torch("2.5.1+rocm6.2", "rocm6.2", "rocm"),
        python__deep={"torch_hip": "6.2", "arch_list": ["gfx1030", "gfx1100", "gfx942"]},
    )
    assert run1(amd_gfx.no_binary_for_gpu, listed, ms) is None
    cuda = snap(
        amd__gpus={"gpus": [gpu(0, "AMD Radeon RX 6700 XT", "gfx1031")]},
        python__torch=_torch("2.5.1+cu124", "cu124", "cuda"),
    )
    assert run1(amd_gfx.no_binary_for_gpu, cuda, ms) is None
    unknown_list = snap(
        amd__gpus={"gpus": [gpu(0, "AMD Radeon RX 6700 XT", "gfx1031")]},
        python__torch=_torch("2.6.0+rocm6.1", "rocm6.1", "rocm"),
    )
    assert (
        run1(amd_gfx.no_binary_for_gpu, unknown_list, ms) is None
    )  # torch_arch has no gfx row for 2.6 rocm6.1


def test_no_binary_from_the_matrix_gfx_targets(ms):
    s = snap(
        amd__gpus={"gpus": [gpu(0, "AMD Radeon RX 6700 XT", "gfx1031")]},
        python__torch=_torch("2.5.1+rocm6.2", "rocm6.2", "rocm"),
    )
    finding = run1(amd_gfx.no_binary_for_gpu, s, ms)
    assert finding.title == "2.5.1+rocm6.2 has no GPU code for AMD Radeon RX 6700 XT (gfx1031)"
    assert any(e.expected == "a list with gfx1031 (matrix:torch_arch)" for e in finding.evidence)


# -- rocm.kfd-permission ------------------------------------------------------------------------
def _kernel(kfd_ok: bool | None, node_ok: bool | None = True, **more: Any) -> dict[str, Any]:
    return {
        "kfd": {
            "path": "/dev/kfd",
            "exists": True,
            "mode": "0660",
            "gid": 993,
            "group": "render",
            "accessible": kfd_ok,
        },
        "render_nodes": [
            {
                "path": "/dev/dri/renderD128",
                "exists": True,
                "mode": "0660",
                "gid": 993,
                "group": "render",
                "accessible": node_ok,
            }
        ],
        "user": {"user": "alice", "groups": ["alice"], "render_pending": [], "in_render": False},
        "in_container": False,
        **more,
    }


def test_kfd_permission_fails(ms):
    finding = run1(amd_access.kfd_permission, snap(amd__kernel=_kernel(False, False)), ms)
    assert finding.title == "alice cannot open /dev/kfd (group render)"
    assert finding.fixes[0].commands == (
        "sudo usermod -a -G render,video $LOGNAME",
        "newgrp render",
        "id",
    )
    assert "udevadm" in finding.fixes[1].commands[1]
    assert (
        'SUBSYSTEM=="kfd", KERNEL=="kfd", GROUP="render", MODE="0660"'
        in finding.fixes[1].commands[0]
    )


def test_kfd_permission_pending_login_and_container(ms):
    pending = _kernel(False, False)
    pending["user"]["render_pending"] = ["render"]
    finding = run1(amd_access.kfd_permission, snap(amd__kernel=pending), ms)
    assert finding.fixes[0].summary.startswith("You are already in render in /etc/group")
    inside = _kernel(False, False, in_container=True)
    finding = run1(amd_access.kfd_permission, snap(amd__kernel=inside), ms)
    assert (
        finding.fixes[0].commands[1]
        == "docker run --device=/dev/kfd --device=/dev/dri --group-add 993 IMAGE"
    )


def test_kfd_permission_from_pasted_rocminfo(ms):
    from pathlib import Path

    from envdoctor.ingest import ingest_text

    text = (
        Path(__file__).parent
        / "fixtures"
        / "amd"
        / "rocminfo-kfd-permission-denied-rocm-docker-issue-116.txt"
    ).read_text()
    outcome = run_checks(ingest_text(text), ms, [amd_access.kfd_permission])
    [finding] = outcome.findings
    assert finding.id == "rocm.kfd-permission"
    assert any("Permission denied" in e.actual for e in finding.evidence)


def test_kfd_permission_passes(ms):
    assert run1(amd_access.kfd_permission, snap(amd__kernel=_kernel(True, True)), ms) is None
    assert (
        run1(amd_access.kfd_permission, snap(amd__kernel=_kernel(None, None)), ms) is None
    )  # unknown is not an alarm


def test_container_devices_missing(ms):
    data = {
        "kfd": {"path": "/dev/kfd", "exists": False},
        "render_nodes": [{"path": "/dev/dri/renderD128", "exists": False}],
        "kfd_sysfs": True,
        "in_container": True,
        "user": {},
    }
    finding = run1(
        amd_access.container_devices_missing,
        snap(amd__kernel=data, amd__rocm={"version": "6.2.4"}),
        ms,
    )
    assert finding.title == "This container was started without /dev/kfd and /dev/dri"
    assert finding.fixes[0].commands[0].startswith("docker run --device=/dev/kfd --device=/dev/dri")
    # no ROCm stack in the container: not an alarm (the host merely has an AMD GPU)
    assert run1(amd_access.container_devices_missing, snap(amd__kernel=data), ms) is None
    passed = dict(
        data,
        kfd={"path": "/dev/kfd", "exists": True},
        render_nodes=[{"path": "/dev/dri/renderD128", "exists": True}],
    )
    assert (
        run1(
            amd_access.container_devices_missing,
            snap(amd__kernel=passed, amd__rocm={"version": "6.2.4"}),
            ms,
        )
        is None
    )


# -- rocm.visible-devices-hide-gpus ------------------------------------------------------------
MI300 = [
    gpu(i, "AMD Instinct MI300X", "gfx942", unique_id=uid)
    for i, uid in enumerate(["0x8d1457e2c20f59d2", "0xb4fa34630e85d42a"])
]


def _env(**values: str) -> dict[str, Any]:
    variables = {
        name: {"set": name in values, "value": values.get(name)}
        for name in ("ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES")
    }
    return {
        "variables": variables,
        "slurm": {"job_id": "77"} if values.pop("slurm", None) else None,
    }


@pytest.mark.parametrize(
    "values",
    [
        {"ROCR_VISIBLE_DEVICES": "1"},
        {"ROCR_VISIBLE_DEVICES": "GPU-b4fa34630e85d42a"},
        {"ROCR_VISIBLE_DEVICES": "0,1", "HIP_VISIBLE_DEVICES": "1"},
        {},
    ],
)
def test_visible_devices_pass(ms, values):
    s = snap(amd__env=_env(**values), amd__gpus={"gpus": MI300})
    assert run1(amd_visible.visible_devices_hide_gpus, s, ms) is None


@pytest.mark.parametrize(
    "values, visible",
    [
        ({"ROCR_VISIBLE_DEVICES": ""}, 0),
        ({"ROCR_VISIBLE_DEVICES": "-1"}, 0),
        ({"HIP_VISIBLE_DEVICES": "2"}, 0),
        ({"ROCR_VISIBLE_DEVICES": "GPU-deadbeef"}, 0),
        ({"ROCR_VISIBLE_DEVICES": "1", "HIP_VISIBLE_DEVICES": "1"}, 0),
        ({"CUDA_VISIBLE_DEVICES": "-1"}, 0),
        ({"HIP_VISIBLE_DEVICES": "0,5"}, 1),
    ],
)
def test_visible_devices_hide(ms, values, visible):
    s = snap(amd__env=_env(**values), amd__gpus={"gpus": MI300})
    finding = run1(amd_visible.visible_devices_hide_gpus, s, ms)
    assert finding is not None
    assert finding.severity is (Severity.ERROR if visible == 0 else Severity.WARNING)
    assert f"ROCm shows {visible}." in finding.detail
    assert finding.fixes[0].commands[0].startswith("unset ")


def test_visible_devices_cuda_variable_ignored_next_to_nvidia(ms):
    s = snap(
        amd__env=_env(CUDA_VISIBLE_DEVICES="-1"),
        amd__gpus={"gpus": MI300},
        nvidia__gpus={"gpus": [{"index": 0, "name": "NVIDIA A100"}]},
    )
    assert run1(amd_visible.visible_devices_hide_gpus, s, ms) is None


def test_visible_devices_under_slurm(ms):
    env = _env(ROCR_VISIBLE_DEVICES="")
    env["slurm"] = {"job_id": "77"}
    finding = run1(
        amd_visible.visible_devices_hide_gpus, snap(amd__env=env, amd__gpus={"gpus": MI300}), ms
    )
    assert finding.fixes[0].commands == ("srun --gpus=1 rocminfo", "sbatch --gres=gpu:1 job.sh")


# -- torch and ROCm versions -------------------------------------------------------------------
def test_torch_rocm_mismatch(ms):
    s = snap(
        python__torch=_torch("2.3.1+rocm5.7", "rocm5.7", "rocm"),
        amd__rocm={"version": "6.2.4"},
        python=PYTHON,
        python__packages={"packages": {"torch": "2.3.1+rocm5.7"}},
        os=LINUX,
    )
    finding = run1(amd_torch.torch_rocm_mismatch, s, ms)
    assert finding.severity is Severity.WARNING
    assert finding.title == "torch 2.3.1+rocm5.7 is built for ROCm 5.7, but ROCm 6.2.4 is installed"
    install = [c for c in finding.fixes[0].commands if " install " in c][0]
    assert (
        "--index-url https://download.pytorch.org/whl/rocm6.3" in install
        and "torch==2.9.*" in install
    )
    assert finding.fixes[-1].summary.startswith("Install ROCm 5.7")


def test_torch_rocm_mismatch_passes(ms):
    same = snap(
        python__torch=_torch("2.5.1+rocm6.2", "rocm6.2", "rocm"), amd__rocm={"version": "6.2.4"}
    )
    assert run1(amd_torch.torch_rocm_mismatch, same, ms) is None
    cuda = snap(
        python__torch=_torch("2.5.1+cu124", "cu124", "cuda"), amd__rocm={"version": "6.2.4"}
    )
    assert run1(amd_torch.torch_rocm_mismatch, cuda, ms) is None


def test_cuda_torch_on_amd(ms):
    s = snap(
        python__torch=_torch("2.5.1+cu124", "cu124", "cuda"),
        amd__gpus={"gpus": [gpu(0, "AMD Radeon RX 7900 XTX", "gfx1100")]},
        amd__rocm={"version": "6.2.4"},
        python=PYTHON,
        python__packages={"packages": {"torch": "2.5.1+cu124"}},
        nvidia__gpus=None,
        os=LINUX,
    )
    finding = run1(amd_torch.cuda_torch_on_amd, s, ms)
    assert finding.severity is Severity.ERROR
    assert (
        finding.title
        == "torch 2.5.1+cu124 is a CUDA build, but this machine's GPUs are AMD (AMD Radeon RX 7900 XTX (gfx1100))"
    )
    commands = finding.fixes[0].commands
    assert any(c.startswith("/home/alice/.venv/bin/python -m pip uninstall -y") for c in commands)
    assert any("--index-url https://download.pytorch.org/whl/rocm6.3" in c for c in commands)
    assert "torch.cpu-build-on-gpu-host" in finding.explains


def test_cpu_torch_on_amd_without_rocm_gets_the_newest_rocm_wheel(ms):
    s = snap(
        python__torch=_torch("2.7.1+cpu", "cpu", "cpu"),
        amd__gpus={"gpus": [gpu(0, "AMD Instinct MI300X", "gfx942")]},
        python=PYTHON,
        python__packages={"packages": {"torch": "2.7.1+cpu"}},
        os=LINUX,
    )
    finding = run1(amd_torch.cuda_torch_on_amd, s, ms)
    assert "CPU-only build" in finding.title
    assert any(
        "--index-url https://download.pytorch.org/whl/rocm7.2" in c
        for c in finding.fixes[0].commands
    )


def test_cuda_torch_on_amd_windows_and_passes(ms):
    windows = snap(
        python__torch=_torch("2.5.1+cpu", "cpu", "cpu"),
        amd__gpus={"gpus": [gpu(0, "AMD Radeon RX 7900 XTX", "gfx1100")]},
        os={"system": "Windows"},
    )
    [fix] = run1(amd_torch.cuda_torch_on_amd, windows, ms).fixes
    assert fix.commands == ("wsl --install -d Ubuntu-24.04",)
    rocm = snap(
        python__torch=_torch("2.5.1+rocm6.2", "rocm6.2", "rocm"),
        amd__gpus={"gpus": [gpu(0, "X", "gfx1100")]},
    )
    assert run1(amd_torch.cuda_torch_on_amd, rocm, ms) is None
    mixed = snap(
        python__torch=_torch("2.5.1+cu124", "cu124", "cuda"),
        amd__gpus={"gpus": [gpu(0, "X", "gfx1100")]},
        nvidia__gpus={"gpus": [{"index": 0, "name": "NVIDIA RTX 4090"}]},
    )
    assert run1(amd_torch.cuda_torch_on_amd, mixed, ms) is None


# -- Ollama ------------------------------------------------------------------------------------
OLLAMA = {
    "path": "/usr/local/bin/ollama",
    "service_files": ["/etc/systemd/system/ollama.service"],
    "service_env": {},
}


def test_ollama_unsupported_gfx(ms):
    s = snap(
        amd__gpus={"gpus": [gpu(0, "AMD Radeon RX 6700 XT", "gfx1031")]},
        amd__env={"variables": {}, "ollama": OLLAMA},
    )
    finding = run1(amd_ollama.ollama_amd_unsupported_gfx, s, ms)
    assert finding.id == "app.ollama-amd-unsupported-gfx" and finding.explains == (
        "app.ollama-cpu-fallback",
    )
    assert finding.fixes[0].summary.startswith("Use Ollama's Vulkan backend")
    workaround = finding.fixes[1]
    assert workaround.summary.startswith("Unsupported workaround")
    assert workaround.commands[1] == (
        "printf '[Service]\\nEnvironment=\"HSA_OVERRIDE_GFX_VERSION=10.3.0\"\\n' | "
        "sudo tee /etc/systemd/system/ollama.service.d/rocm-gfx-override.conf"
    )


def test_ollama_passes(ms):
    listed = snap(
        amd__gpus={"gpus": [gpu(0, "AMD Radeon 780M Graphics", "gfx1103")]},
        amd__env={"variables": {}, "ollama": OLLAMA},
    )
    assert run1(amd_ollama.ollama_amd_unsupported_gfx, listed, ms) is None
    service = dict(OLLAMA, service_env={"HSA_OVERRIDE_GFX_VERSION": "10.3.0"})
    overridden = snap(
        amd__gpus={"gpus": [gpu(0, "AMD Radeon RX 6700 XT", "gfx1031")]},
        amd__env={"variables": {}, "ollama": service},
    )
    assert run1(amd_ollama.ollama_amd_unsupported_gfx, overridden, ms) is None
    no_ollama = snap(
        amd__gpus={"gpus": [gpu(0, "AMD Radeon RX 6700 XT", "gfx1031")]},
        amd__env={"variables": {}, "ollama": None},
    )
    assert run1(amd_ollama.ollama_amd_unsupported_gfx, no_ollama, ms) is None


def test_ollama_symptom_folds_under_the_amd_cause(ms):
    """The triage signature's app.ollama-cpu-fallback is explained by the AMD finding."""
    s = snap(
        amd__gpus={"gpus": [gpu(0, "AMD Radeon RX 6700 XT", "gfx1031")]},
        amd__env={"variables": {}, "ollama": OLLAMA},
        amd__rocm={"version": "6.2.4"},
        os=LINUX,
    )
    outcome = run_checks(s, ms, load_checks(("amd_gfx", "amd_ollama")))
    assert ids(outcome.findings) == ["rocm.gfx-unsupported", "app.ollama-amd-unsupported-gfx"]
    assert outcome.findings[1].explained_by == "rocm.gfx-unsupported"


def test_every_amd_check_is_registered_with_help():
    from envdoctor.checks import find_check

    for finding_id in (
        "rocm.gfx-unsupported",
        "rocm.product-unlisted",
        "rocm.no-binary-for-gpu",
        "rocm.kfd-permission",
        "rocm.container-devices-missing",
        "rocm.visible-devices-hide-gpus",
        "rocm.torch-rocm-mismatch",
        "rocm.cuda-torch-on-amd",
        "app.ollama-amd-unsupported-gfx",
    ):
        chk = find_check(finding_id)
        assert chk is not None and chk.function.__module__.startswith("envdoctor.checks.amd_"), (
            finding_id
        )
        assert len(chk.help.splitlines()) > 3
