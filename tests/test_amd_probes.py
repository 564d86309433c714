"""AMD probes on fake KFD / sysfs trees built from real layouts (tests/fixtures/amd/SOURCES.md) and
fake ROCm tools printing real captures."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from envdoctor.diagnosis.enrich import amd_targets
from envdoctor.matrix.loader import load_bundled
from envdoctor.model.snapshot import Status
from envdoctor.probes import amd_env, amd_gpu, amd_kernel, amd_rocm, amd_sysfs
from envdoctor.probes.context import ProbeContext

KFD = Path(__file__).parent / "fixtures" / "amd" / "kfd"


def tree(fake_root, name: str, extra: dict | None = None, links: dict | None = None) -> Path:
    spec = json.loads((KFD / f"{name}.json").read_text())
    return fake_root({**spec["files"], **(extra or {})}, {**spec["symlinks"], **(links or {})})


def ctx(root: Path, env: dict | None = None) -> ProbeContext:
    return ProbeContext(root=root, env={"PATH": "/nonexistent", **(env or {})})


def gpus_of(root: Path, env: dict | None = None) -> dict:
    """The probe's amd.gpus data after the enrichment step (APU flags from the ROCm tables)."""
    [group] = amd_gpu.collect(ctx(root, env))
    assert group.status is Status.COLLECTED, group.reason
    amd_targets(group.data["gpus"], load_bundled())
    return group.data


# -- amd.gpus from sysfs alone ----------------------------------------------------------------
def test_mi300x_tree(fake_root):
    data = gpus_of(tree(fake_root, "mi300x-x4"))
    assert data["count"] == 4 and data["sources"] == ["kfd"]
    assert [g["kfd_node"] for g in data["gpus"]] == [2, 3, 4, 5]  # two CPU nodes first
    assert [g["index"] for g in data["gpus"]] == [0, 1, 2, 3]
    first = data["gpus"][0]
    assert first["name"] == "AMD Instinct MI300X"  # libdrm amdgpu.ids, device 74A1 revision 00
    assert (first["gfx_target"], first["gfx_target_version"]) == ("gfx942", 90402)
    assert first["pci_bus_id"] == "0000:26:00.0" and first["device_id"] == "0x74a1"
    assert first["compute_units"] == 304 and first["vram_mib"] == 196592
    assert (
        first["unique_id"] == "0x8d1457e2c20f59d2"
    )  # the Uuid rocminfo prints as GPU-8d1457e2c20f59d2
    assert first["is_apu"] is False and first["driver"] == "amdgpu" and first["render_minor"] == 128
    assert data["pci_only"] == []  # the HDMI audio functions are not GPUs


def test_mi100_tree(fake_root):
    data = gpus_of(tree(fake_root, "mi100-x2"))
    assert [(g["name"], g["gfx_target"], g["pci_bus_id"], g["vram_mib"]) for g in data["gpus"]] == [
        ("AMD Instinct MI100", "gfx908", "0000:1e:00.0", 32752),
        ("AMD Instinct MI100", "gfx908", "0000:22:00.0", 32752),
    ]
    assert data["gpus"][0]["compute_units"] is None  # no simd_count in the tree


def test_rx7900xtx_tree(fake_root):
    [gpu] = gpus_of(tree(fake_root, "rx7900xtx"))["gpus"]
    assert (gpu["name"], gpu["gfx_target"], gpu["gfx_target_version"]) == (
        "AMD Radeon RX 7900 XTX",
        "gfx1100",
        110000,
    )
    assert (
        gpu["pci_bus_id"] == "0000:86:00.0"
        and gpu["compute_units"] == 96
        and gpu["vram_mib"] is None
    )
    assert gpu["unique_id"] == f"0x{11673270660693242239:x}" and gpu["is_apu"] is False


def test_rx6800xt_tree(fake_root):
    [gpu] = gpus_of(tree(fake_root, "rx6800xt"))["gpus"]
    assert (gpu["name"], gpu["gfx_target"], gpu["vram_mib"], gpu["compute_units"]) == (
        "AMD Radeon RX 6800 XT",
        "gfx1030",
        16338,
        72,
    )


def test_apu_tree(fake_root):
    [gpu] = gpus_of(tree(fake_root, "apu-780m"))["gpus"]
    assert gpu["gfx_target"] == "gfx1103" and gpu["is_apu"] is True
    assert (
        gpu["name"] == "AMD Radeon 780M Graphics"
    )  # from the gfx table: no amdgpu.ids line in this tree
    assert gpu["pci_bus_id"] == "0000:c6:00.0" and gpu["compute_units"] == 12


def test_no_amd_gpu_is_absent(fake_root):
    [group] = amd_gpu.collect(ctx(fake_root({"/proc/modules": "ext4 1 0 - Live 0x0\n"})))
    assert group.status is Status.ABSENT
    assert group.reason == "no KFD topology, no PCI display device of vendor 0x1002"


def test_pci_device_without_kfd(fake_root):
    """amdgpu not bound: the card shows on the PCI bus only, without a gfx target."""
    root = fake_root(
        {
            "/sys/bus/pci/devices/0000:03:00.0/vendor": "0x1002\n",
            "/sys/bus/pci/devices/0000:03:00.0/device": "0x744c\n",
            "/sys/bus/pci/devices/0000:03:00.0/revision": "0xc8\n",
            "/sys/bus/pci/devices/0000:03:00.0/class": "0x030000\n",
            "/usr/share/libdrm/amdgpu.ids": "1.0.0\n744C,\tC8,\tAMD Radeon RX 7900 XTX\n",
        }
    )
    [group] = amd_gpu.collect(ctx(root))
    assert group.data["sources"] == ["pci"] and group.data["kfd_present"] is False
    [gpu] = group.data["gpus"]
    assert (gpu["name"], gpu["gfx_target"], gpu["driver"]) == ("AMD Radeon RX 7900 XTX", None, None)
    # the enrichment step names the target from the product name, and says so
    amd_targets(group.data["gpus"], load_bundled())
    assert (gpu["gfx_target"], gpu["gfx_target_source"]) == ("gfx1100", "product-name")


# -- with ROCm's tools -------------------------------------------------------------------------
def test_rocminfo_enriches_and_amd_smi_hang_is_cut(fake_root, fake_tools, real_captures):
    capture = real_captures / "rocminfo" / "thamada-rocminfo-mi300x-x4-epyc9474f.txt"
    bindir = fake_tools(
        {
            "rocminfo": f"#!/bin/sh\nexec /bin/cat '{capture}'\n",
            "amd-smi": "#!/bin/sh\nexec /bin/sleep 30\n",
            "rocm-smi": "#!/bin/sh\necho should-not-run\nexit 1\n",
        }
    )
    root = tree(fake_root, "mi300x-x4")
    start = time.monotonic()
    old = amd_gpu.TOOL_TIMEOUT_S
    amd_gpu.TOOL_TIMEOUT_S = 1.0
    try:
        [group] = amd_gpu.collect(ProbeContext(root=root, env={"PATH": bindir}))
    finally:
        amd_gpu.TOOL_TIMEOUT_S = old
    assert time.monotonic() - start < 6
    data = group.data
    assert data["tools"]["amd-smi"] == "amd-smi timed out after 1 s"
    assert "rocm-smi" not in data["tools"]  # not tried after the SMI library hung
    assert data["tools"]["rocminfo"] == "ok"
    assert data["gpus"][0]["isa"] == "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"
    assert data["gpus"][0]["sources"] == ["kfd", "rocminfo"]
    assert "rocminfo.txt" in group.raw


def test_rocm_smi_json_enriches_by_pci_address(fake_root, fake_tools, real_captures):
    capture = real_captures / "rocm-smi" / "telegraf-mi100-rocm571.json"
    bindir = fake_tools({"rocm-smi": f"#!/bin/sh\nexec /bin/cat '{capture}'\n"})
    data = amd_gpu.collect(ProbeContext(root=tree(fake_root, "mi100-x2"), env={"PATH": bindir}))[
        0
    ].data
    assert data["tools"] == {"rocm-smi": "ok"}
    assert [g["vbios"] for g in data["gpus"]] == ["113-D3430400-037", "113-D3430400-037"]
    assert data["gpus"][0]["sources"] == ["kfd", "rocm-smi-json"]


def test_wsl_without_sysfs_uses_rocminfo(fake_root, fake_tools, real_captures):
    capture = (
        real_captures / "rocminfo" / "rocminfo-wsl2-gfx1030-rx6800xt-rocm-6.1.3-rocm-issue-3581.txt"
    )
    bindir = fake_tools({"rocminfo": f"#!/bin/sh\nexec /bin/cat '{capture}'\n"})
    root = fake_root({"/dev/dxg": ""})
    [group] = amd_gpu.collect(ProbeContext(root=root, env={"PATH": bindir}))
    assert group.status is Status.COLLECTED and group.data["sources"] == ["rocminfo"]
    [gpu] = group.data["gpus"]
    assert (gpu["name"], gpu["gfx_target"], gpu["vram_mib"]) == (
        "AMD Radeon RX 6800 XT",
        "gfx1030",
        16338,
    )


def test_tool_failure_without_sysfs_is_failed(fake_root, fake_tools):
    bindir = fake_tools(
        {
            "rocminfo": "#!/bin/sh\necho 'ROCk module is NOT loaded, possibly no GPU devices'\nexit 1\n"
        }
    )
    [group] = amd_gpu.collect(ProbeContext(root=fake_root({"/dev/dxg": ""}), env={"PATH": bindir}))
    assert group.status is Status.FAILED
    assert group.reason.startswith("no AMD GPU found: rocminfo listed no GPU agent")


# -- amd.kernel ---------------------------------------------------------------------------------
GROUP_FILE = "root:x:0:\nvideo:x:44:alice\nrender:x:993:\nalice:x:1000:\n"
PASSWD = "root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000:Alice:/home/alice:/bin/bash\n"


def _as_user(monkeypatch, uid: int, gids: list[int]) -> None:
    monkeypatch.setattr(amd_sysfs, "process_uid", lambda: uid)
    monkeypatch.setattr(amd_sysfs, "process_gids", lambda: gids)


def _kernel(root: Path) -> dict:
    [group] = amd_kernel.collect(ctx(root))
    assert group.status is Status.COLLECTED, group.reason
    return group.data


def test_kernel_facts_in_tree(fake_root):
    root = tree(fake_root, "rx7900xtx")
    (root / "dev/kfd").chmod(0o660)
    data = _kernel(root)
    assert data["amdgpu"]["loaded"] is True and data["amdgpu"]["version"] is None
    assert data["driver_source"] == "in-tree"
    assert data["kfd"]["exists"] and data["kfd"]["mode"] == "0660"
    assert [(n["path"], n["pci_address"], n["driver"]) for n in data["render_nodes"]] == [
        ("/dev/dri/renderD128", "0000:86:00.0", "amdgpu")
    ]
    assert data["kfd_sysfs"] is True and data["dxg"] is False


def test_kernel_dkms_driver(fake_root):
    root = tree(
        fake_root,
        "mi300x-x4",
        {
            "/sys/module/amdgpu/version": "6.7.0\n",
            "/lib/modules/6.8.0-48-generic/updates/dkms/amdgpu.ko.zst": "",
            "/var/lib/dkms/amdgpu/6.7.0-1787201.22.04/source": "",
        },
    )
    data = _kernel(root)
    assert data["amdgpu"]["version"] == "6.7.0" and data["driver_source"] == "dkms"
    assert data["dkms"] == ["6.7.0-1787201.22.04"]


def test_kernel_user_without_groups(fake_root, monkeypatch):
    root = tree(fake_root, "rx7900xtx", {"/etc/group": GROUP_FILE, "/etc/passwd": PASSWD})
    for node in ("dev/kfd", "dev/dri/renderD128"):
        (root / node).chmod(0o660)
    import os

    gid = os.stat(root / "dev/kfd").st_gid
    _as_user(monkeypatch, 1000, [1000] if gid != 1000 else [1001])
    data = _kernel(root)
    assert data["kfd"]["accessible"] is False
    assert data["render_nodes"][0]["accessible"] is False
    user = data["user"]
    assert user["user"] == "alice" and user["in_render"] is False
    assert user["render_pending"] == ["video"]  # listed in /etc/group, not held by this session


def test_kernel_user_in_group_may_open(fake_root, monkeypatch):
    root = tree(fake_root, "rx7900xtx")
    (root / "dev/kfd").chmod(0o660)
    import os

    gid = os.stat(root / "dev/kfd").st_gid
    _as_user(monkeypatch, 4242, [gid])
    assert _kernel(root)["kfd"]["accessible"] is True


def test_kernel_absent_without_amd(fake_root):
    [group] = amd_kernel.collect(ctx(fake_root({"/proc/modules": "nvidia 1 0 - Live 0x0\n"})))
    assert group.status is Status.ABSENT


def test_kernel_in_container_without_devices(fake_root):
    spec = json.loads((KFD / "rx7900xtx.json").read_text())
    files = {k: v for k, v in spec["files"].items() if not k.startswith("/dev/")}
    files["/.dockerenv"] = ""
    root = fake_root(files, spec["symlinks"])
    data = _kernel(root)
    assert data["in_container"] is True and data["kfd"]["exists"] is False
    assert data["render_nodes"][0]["exists"] is False  # sysfs shows the node, /dev does not


# -- amd.rocm ----------------------------------------------------------------------------------
def test_rocm_installs_side_by_side(fake_root):
    root = fake_root(
        {
            "/opt/rocm-6.2.4/.info/version": "6.2.4-120\n",
            "/opt/rocm-6.2.4/include/hip/hip_version.h": "#define HIP_VERSION_MAJOR 6\n#define HIP_VERSION_MINOR 2\n"
            '#define HIP_VERSION_PATCH 41134\n#define HIP_VERSION_GITHASH "65d174c3e"\n',
            "/opt/rocm-6.2.4/lib/libamdhip64.so.6.2.60204": "",
            "/opt/rocm-5.7.1/include/rocm-core/rocm_version.h": "#define ROCM_VERSION_MAJOR   5\n#define ROCM_VERSION_MINOR   7\n"
            "#define ROCM_VERSION_PATCH   1\n",
            "/etc/alternatives/rocm": "",
            "/var/lib/dpkg/status": "Package: rocm-core\nStatus: install ok installed\nVersion: 6.2.4.60204-139~22.04\n\n"
            "Package: amdgpu-dkms\nStatus: deinstall ok config-files\nVersion: 1:6.8.5\n",
        },
        {"/opt/rocm": "/etc/alternatives/rocm"},
    )
    (root / "etc/alternatives/rocm").unlink()
    (root / "etc/alternatives/rocm").symlink_to("/opt/rocm-6.2.4")
    [group] = amd_rocm.collect(ctx(root))
    data = group.data
    versions = {i["path"]: (i["version"], i["version_source"]) for i in data["installs"]}
    assert versions == {
        "/opt/rocm": ("6.2.4-120", ".info/version"),
        "/opt/rocm-5.7.1": ("5.7.1", "rocm_version.h"),
        "/opt/rocm-6.2.4": ("6.2.4-120", ".info/version"),
    }
    assert data["default"] == {
        "path": "/opt/rocm",
        "target": "/opt/rocm-6.2.4",
        "version": "6.2.4-120",
    }
    assert data["version"] == "6.2.4-120" and data["hip_version"] == "6.2.41134-65d174c3e"
    assert data["several"] is True
    assert data["packages"] == {
        "rocm-core": "6.2.4.60204-139~22.04"
    }  # a removed package does not count
    assert (
        group.summary
        == "ROCm 6.2.4-120, /opt/rocm -> /opt/rocm-6.2.4, 2 installs: 5.7.1, 6.2.4-120, HIP 6.2.41134-65d174c3e"
    )


def test_distribution_hip_runtime_alone_is_not_called_rocm(fake_root):
    # the layout of the CUDA image on a lent H200 (2026-12-04): Ubuntu 24.04's libamdhip64-5
    # 5.7.1-3 installed as another package's dependency, no /opt/rocm, no AMD GPU
    root = fake_root(
        {
            "/usr/lib/x86_64-linux-gnu/libamdhip64.so.5.7.31921": "",
            "/var/lib/dpkg/status": "Package: libamdhip64-5\nStatus: install ok installed\n"
            "Version: 5.7.1-3\n\n",
        },
        {"/usr/lib/x86_64-linux-gnu/libamdhip64.so.5": "libamdhip64.so.5.7.31921"},
    )
    [group] = amd_rocm.collect(ctx(root))
    assert group.status is Status.COLLECTED
    assert group.data["version"] is None and group.data["hip_version"] == "5.7.1"
    assert group.summary == (
        "no ROCm install (/opt/rocm); the distribution's HIP runtime libamdhip64-5 5.7.1"
    )


def test_rocm_absent(fake_root):
    [group] = amd_rocm.collect(ctx(fake_root({"/opt/other/x": ""})))
    assert group.status is Status.ABSENT


# -- amd.env -----------------------------------------------------------------------------------
def test_env_overrides_and_slurm(fake_root):
    env = {
        "HSA_OVERRIDE_GFX_VERSION": "10.3.0",
        "HSA_OVERRIDE_GFX_VERSION_1": "11.0.0",
        "ROCR_VISIBLE_DEVICES": "0,GPU-8d1457e2c20f59d2",
        "SLURM_JOB_ID": "4711",
        "SLURM_JOB_GPUS": "0",
    }
    [group] = amd_env.collect(ctx(fake_root({}), env))
    data = group.data
    assert data["override"] == {"value": "10.3.0", "gfx": "gfx1030"}
    assert data["per_device_overrides"] == {"1": {"value": "11.0.0", "gfx": "gfx1100"}}
    assert data["variables"]["ROCR_VISIBLE_DEVICES"] == {
        "set": True,
        "value": "0,GPU-8d1457e2c20f59d2",
    }
    assert data["variables"]["HIP_VISIBLE_DEVICES"] == {"set": False, "value": None}
    assert data["slurm"] == {"job_id": "4711", "job_gpus": "0", "step_gpus": None}


def test_env_ollama_service_override(fake_root):
    root = fake_root(
        {
            "/usr/local/bin/ollama": "",
            "/etc/systemd/system/ollama.service": "[Service]\nExecStart=/usr/local/bin/ollama serve\n"
            'Environment="PATH=/usr/bin"\n',
            "/etc/systemd/system/ollama.service.d/override.conf": '[Service]\nEnvironment="HSA_OVERRIDE_GFX_VERSION=10.3.0" OLLAMA_DEBUG=1\n',
        }
    )
    data = amd_env.collect(ctx(root))[0].data
    assert data["ollama"]["path"] == "/usr/local/bin/ollama"
    assert data["ollama"]["service_env"] == {
        "PATH": "/usr/bin",
        "HSA_OVERRIDE_GFX_VERSION": "10.3.0",
        "OLLAMA_DEBUG": "1",
    }


def test_env_absent_when_nothing_is_set(fake_root):
    [group] = amd_env.collect(ctx(fake_root({})))
    assert group.status is Status.ABSENT


# -- the real machine --------------------------------------------------------------------------
def test_this_machine_has_no_amd_alarm():
    """Live run here (no AMD GPU, no ROCm): absent groups, never a failure."""
    from envdoctor.probes import collect_all

    snap = collect_all(ProbeContext(), ("amd_gpu", "amd_kernel", "amd_rocm", "amd_env")).snapshot
    for name in ("amd.gpus", "amd.kernel", "amd.rocm"):
        assert snap.group(name).status is not Status.FAILED, snap.group(name).reason


@pytest.mark.parametrize(
    "value, gfx",
    [
        ("10.3.0", "gfx1030"),
        ("11.0.0", "gfx1100"),
        ("9.0.10", "gfx90a"),
        ("gfx1030", "gfx1030"),
        ("10.3", None),
        ("banana", None),
    ],
)
def test_override_values(fake_root, value, gfx):
    data = amd_env.collect(ctx(fake_root({}), {"HSA_OVERRIDE_GFX_VERSION": value}))[0].data
    assert data["override"]["gfx"] == gfx


def test_preflight_reads_amd_facts(fake_root):
    """vendor=amd, gpus>=4, vram>=192GB on the MI300X tree (196592 MiB each: 192 GB, just under 192 GiB);
    rocm>=6.1 on an install."""
    from envdoctor.model.snapshot import Snapshot
    from envdoctor.requirements.judge import Judge
    from envdoctor.requirements.parse import MET, UNMET, parse_requirements

    root = tree(fake_root, "mi300x-x4", {"/opt/rocm-6.2.4/.info/version": "6.2.4\n"})
    snap = Snapshot()
    snap.extend(amd_gpu.collect(ctx(root)) + amd_rocm.collect(ctx(root)))
    verdicts = Judge(
        snap, parse_requirements(["vendor=amd", "gpus>=4", "vram>=192GB", "rocm>=6.1"])
    ).judge_all()
    assert [v.state for v in verdicts] == [MET] * 4
    [too_much] = Judge(snap, parse_requirements(["vram>=192GiB"])).judge_all()
    assert too_much.state == UNMET
