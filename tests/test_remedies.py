"""The chooser (envdoctor.remedies): one remedy, written for the host the facts describe.

Each rule has a case where it applies and one where it does not: root runs commands without sudo,
a user without sudo is told so; no dockerd means no start command; WSL2 updates the Windows
driver; an AMD GPU gets no NVIDIA toolkit; macOS gets no CUDA index; the Python in use is never
proposed; the wheel comes before the driver.
"""

from __future__ import annotations

import pytest

from envdoctor.checks import load_checks
from envdoctor.diagnosis.engine import run_checks
from envdoctor.fix_effects import Effect, TorchBuild
from envdoctor.matrix.loader import load_bundled
from envdoctor.model.findings import Fix
from envdoctor.model.snapshot import Snapshot, collected
from envdoctor.remedies import NeedsFact, RemedySpec, resolve, signature_fixes
from envdoctor.remedies.adapt import adapt
from envdoctor.remedies.host import host_of
from envdoctor.remedies.verify import apply

UBUNTU = {"system": "Linux", "distro_id": "ubuntu", "distro_version": "22.04", "arch": "x86_64"}


@pytest.fixture(scope="module")
def ms():
    return load_bundled()


def machine(
    *,
    os: dict | None = None,
    python: str = "3.11.9",
    platform: str = "linux",
    torch: str | None = None,
    gpu: tuple[str, str] | None = None,
    driver: str | None = None,
    **groups: dict,
) -> Snapshot:
    snap = Snapshot(origin="live")
    snap.add(collected("os", "t", dict(os or UBUNTU)))
    snap.add(
        collected(
            "python",
            "t",
            {"version": python, "platform": platform, "executable": "/venv/bin/python"},
        )
    )
    if torch:
        release, _, variant = torch.partition("+")
        snap.add(
            collected(
                "python.packages",
                "t",
                {"packages": {"torch": release}, "installers": {"torch": "pip"}},
            )
        )
        cuda = None
        if variant.startswith("cu"):
            cuda = f"{variant[2:-1]}.{variant[-1]}"
        build = "cuda" if cuda else ("rocm" if variant.startswith("rocm") else "cpu")
        snap.add(
            collected(
                "python.torch",
                "t",
                {"version": torch, "variant": variant, "build": build, "cuda": cuda},
            )
        )
    if gpu:
        snap.add(
            collected(
                "nvidia.gpus",
                "t",
                {"gpus": [{"index": 0, "name": gpu[0], "compute_capability": gpu[1]}]},
            )
        )
    if driver:
        snap.add(collected("nvidia.driver", "t", {"driver_version": driver}))
    for name, data in groups.items():
        snap.add(collected(name.replace("__", "."), "t", data))
    return snap


def fixes(found: list[Fix] | NeedsFact) -> list[Fix]:
    assert isinstance(found, list), found
    return found


DOCKER_DOWN = {
    "state": "not-running",
    "host": "unix:///var/run/docker.sock",
    "host_source": "default",
    "dockerd_path": "/usr/bin/dockerd",
}


def test_start_docker_as_root_without_sudo_runs_the_bare_command(ms):
    snap = machine(
        os={**UBUNTU, "euid": 0, "sudo": False},
        container__docker={**DOCKER_DOWN, "systemd": False},
    )
    [fix] = fixes(resolve(RemedySpec("start-docker"), snap, ms))
    assert fix.commands[0] == "service docker start" and fix.effect.services_started


def test_start_docker_as_a_user_uses_sudo_and_systemd(ms):
    snap = machine(
        os={**UBUNTU, "euid": 1000, "sudo": True},
        container__docker={**DOCKER_DOWN, "systemd": True},
    )
    [fix] = fixes(resolve(RemedySpec("start-docker"), snap, ms))
    assert fix.commands[0] == "sudo systemctl enable --now docker"


def test_start_docker_without_dockerd_installs_docker_engine_as_root(ms):
    snap = machine(
        os={**UBUNTU, "euid": 0, "sudo": False},
        container__docker={**DOCKER_DOWN, "dockerd_path": None, "systemd": False},
    )
    [fix] = fixes(resolve(RemedySpec("start-docker"), snap, ms))
    assert "No Docker daemon (dockerd) is installed here" in fix.summary
    assert fix.commands == ("apt-get update", "apt-get install -y docker.io")  # root: no sudo


def test_a_pasted_root_shell_without_sudo_or_dockerd(ms):
    """The shell session issue #18 quotes: root, `sudo: command not found`, no dockerd."""
    snap = Snapshot(origin="pasted")
    lines = [
        "root@gpu-node:~# sudo service docker start",
        "bash: sudo: command not found",
        "root@gpu-node:~# which dockerd",
        "uid=0(root) gid=0(root) groups=0(root)",
    ]
    snap.add(collected("pasted.text", "t", {"lines": lines}))
    host = host_of(snap)
    assert (host.root, host.sudo, host.dockerd) == (True, False, False)
    plain = Fix("Start the daemon", ("sudo service docker start",))
    assert adapt(plain, host, snap).reason == "no dockerd on this machine to start"


def test_without_root_or_sudo_the_fix_says_so(ms):
    snap = machine(
        os={**UBUNTU, "euid": 1000, "sudo": False},
        container__docker={**DOCKER_DOWN, "systemd": True},
    )
    [fix] = fixes(resolve(RemedySpec("start-docker"), snap, ms))
    assert not fix.commands[0].startswith("sudo ")
    assert any("needs root" in a for a in fix.assumptions)


def test_driver_inside_wsl2_is_the_windows_driver(ms):
    snap = machine(
        torch="2.8.0+cu128",
        gpu=("NVIDIA GeForce RTX 3090", "8.6"),
        driver="470.256.02",
        platform__wsl={"wsl_version": 2},
    )
    [fix] = fixes(resolve(RemedySpec("driver-for-torch"), snap, ms))
    assert not fix.commands and "on Windows (not inside WSL)" in fix.summary
    assert fix.effect.driver_min == "525"


def test_driver_on_ubuntu_is_the_distribution_package(ms):
    snap = machine(torch="2.8.0+cu128", gpu=("NVIDIA GeForce RTX 3090", "8.6"), driver="470.256.02")
    [fix] = fixes(resolve(RemedySpec("driver-for-torch"), snap, ms))
    assert "sudo apt-get install -y nvidia-driver-525" in fix.commands


def test_a_driver_of_the_same_cuda_major_gets_the_build_s_own_driver_not_the_floor(ms):
    """A driver already at CUDA 12.2 meets CUDA 12's minor-version floor (525): when a cu128
    build still calls it too old, "install 525 or newer" cannot help; the CUDA 12.8 driver can."""
    snap = machine(
        torch="2.8.0+cu128",
        gpu=("NVIDIA GeForce RTX 3090", "8.6"),
        nvidia__driver={"driver_version": "535.183.01", "cuda_driver_max": "12.2"},
    )
    [fix] = fixes(resolve(RemedySpec("driver-for-torch"), snap, ms))
    assert fix.effect.driver_min is not None and fix.effect.driver_min.startswith("570")
    assert "525" not in fix.summary and "nvidia-driver-525" not in " ".join(fix.commands)
    older = machine(
        torch="2.8.0+cu128",
        gpu=("NVIDIA GeForce RTX 3090", "8.6"),
        nvidia__driver={"driver_version": "470.256.02", "cuda_driver_max": "11.4"},
    )
    [fix] = fixes(resolve(RemedySpec("driver-for-torch"), older, ms))
    assert fix.effect.driver_min == "525"  # a CUDA 11 driver: the CUDA 12 floor is the fix


def test_a_kepler_gpu_without_a_driver_gets_its_last_branch(ms):
    snap = machine(gpu=("Tesla K80", "3.7"))
    [fix] = fixes(resolve(RemedySpec("driver"), snap, ms))
    assert fix.effect.driver_branch == "R470"
    assert "sudo apt-get install -y nvidia-driver-470" in fix.commands  # proprietary modules


def test_a_driver_without_a_floor_reads_as_a_sentence(ms):
    """No floor and no ended branch: the distribution's (or the current) driver, said in words
    of their own, never "Install NVIDIA driver the distribution's recommended one"."""
    [linux] = fixes(
        resolve(RemedySpec("driver"), machine(gpu=("NVIDIA GeForce RTX 3090", "8.6")), ms)
    )
    assert linux.summary.startswith("Install the NVIDIA driver your distribution recommends")
    assert linux.effect.driver_min is None and linux.commands
    wsl = machine(gpu=("NVIDIA GeForce RTX 3090", "8.6"), platform__wsl={"wsl_version": 2})
    [windows] = fixes(resolve(RemedySpec("driver"), wsl, ms))
    assert "(not inside WSL) to the current one" in windows.summary
    for fix in (linux, windows):
        assert "driver the" not in fix.summary and "to :" not in fix.summary


def test_container_toolkit_for_amd_passes_the_rocm_devices(ms):
    snap = machine(amd__gpus={"gpus": [{"name": "AMD Instinct MI300X", "gfx_target": "gfx942"}]})
    [fix] = fixes(resolve(RemedySpec("container-toolkit"), snap, ms))
    assert "--device=/dev/kfd" in fix.commands[0]
    assert "nvidia" not in " ".join(fix.commands)


def test_container_toolkit_for_nvidia_installs_it(ms):
    snap = machine(gpu=("NVIDIA GeForce RTX 3090", "8.6"), driver="550.144.03")
    found = fixes(resolve(RemedySpec("container-toolkit"), snap, ms))
    assert any("nvidia-container-toolkit" in c for f in found for c in f.commands)


def test_no_cuda_wheel_on_macos(ms):
    snap = machine(
        os={"system": "Darwin", "arch": "arm64"},
        platform="darwin",
        torch="2.8.0",
        gpu=("NVIDIA GeForce RTX 3090", "8.6"),
    )
    assert resolve(RemedySpec("torch-build-for-gpu"), snap, ms) == []


def test_an_intel_mac_gets_the_last_release_with_a_wheel(ms):
    snap = machine(os={"system": "Darwin", "arch": "x86_64"}, platform="darwin")
    snap.add(
        collected("python", "t", {"version": "3.11.9", "platform": "darwin", "machine": "x86_64"})
    )
    [fix] = fixes(resolve(RemedySpec("torch-release-for-platform", {"torch": "2.5.1"}), snap, ms))
    assert fix.commands == ("python -m pip install 'torch==2.2.*'",)
    assert "whl/cu" not in " ".join(fix.commands)


def test_the_python_in_use_is_never_proposed(ms):
    snap = machine(python="3.12.3", torch="2.1.2+cu121")
    found = fixes(resolve(RemedySpec("python-for-torch"), snap, ms))
    assert found and all("Python 3.12 " not in f.summary for f in found)
    supported = machine(python="3.11.9", torch="2.1.2+cu121")
    assert resolve(RemedySpec("python-for-torch"), supported, ms) == []


def test_plain_fixes_are_held_to_the_host(ms):
    windows = machine(os={"system": "Windows"}, platform="win32")
    linux_fix = Fix("Start it", ("sudo systemctl start docker",))
    assert adapt(linux_fix, host_of(windows), windows).reason.startswith(
        "Linux commands on Windows"
    )
    assert adapt(linux_fix, host_of(machine()), machine()) == linux_fix
    root = machine(os={**UBUNTU, "euid": 0, "sudo": False})
    assert adapt(linux_fix, host_of(root), root).commands == ("systemctl start docker",)
    same = machine(python="3.12.3")
    venv = Fix("Make a venv", ("python3.12 -m venv .venv",))
    assert "already in use" in adapt(venv, host_of(same), same).reason
    assert adapt(venv, host_of(machine()), machine()) == venv


def test_a_hardware_fix_keeps_its_action_without_its_linux_checks():
    # the riser fix of the hardware signatures: the action is in the summary, the commands only
    # read the link state on Linux; on Windows the action stays and the Linux reading goes
    windows = machine(os={"system": "Windows"}, platform="win32")
    riser = Fix(
        "Swap the PCIe riser of the failing GPU, or force PCIe Gen2 in the BIOS",
        ("sudo lspci -vvv | grep -iE 'LnkSta|AER'", "nvidia-smi -q -d PCIE"),
    )
    kept = adapt(riser, host_of(windows), windows)
    assert kept.summary == riser.summary and kept.commands == ("nvidia-smi -q -d PCIE",)
    assert adapt(riser, host_of(machine()), machine()) == riser
    # a Linux command that changes the machine still rejects the fix on Windows
    grub = Fix("Turn ASPM off", ("sudo lspci -vvv | grep ASPM", "sudo update-grub"))
    assert adapt(grub, host_of(windows), windows).reason.startswith("Linux commands on Windows")
    written = Fix("Save the log", ("sudo dmesg > /tmp/dmesg.txt",))
    assert adapt(written, host_of(windows), windows).reason.startswith("Linux commands on")
    # a summary that says what to do on Windows keeps it there, without the Linux commands
    both = Fix(
        "Install the validated driver branch (580.65.06 on Linux, 580.88 on Windows)",
        ("sudo apt-get install -y nvidia-driver-580", "nvidia-smi"),
    )
    assert adapt(both, host_of(windows), windows).commands == ("nvidia-smi",)
    assert adapt(both, host_of(machine()), machine()) == both


def test_a_gpu_is_needed_to_choose_a_wheel(ms):
    snap = machine(torch="2.8.0+cpu")
    found = resolve(RemedySpec("torch-build-for-gpu"), snap, ms)
    assert isinstance(found, NeedsFact) and "nvidia-smi" in found.how


def pasted(snap: Snapshot) -> Snapshot:
    snap.origin = "pasted"
    return snap


def test_a_pasted_report_without_a_gpu_gets_the_release_default_cuda_build(ms):
    # a paste that names torch 2.3.1+cpu and no GPU: keep the release, take its default CUDA
    # variant (torch_releases: pypi_default_linux_x86_64 = cu121), and say what that assumes
    found = fixes(
        resolve(RemedySpec("torch-build-for-gpu"), pasted(machine(torch="2.3.1+cpu")), ms)
    )
    [fix] = found
    assert fix.effect.torch.variant == "cu121" and fix.effect.torch.exact == "2.3.1"
    assert any("/whl/cu121" in c for c in fix.commands)
    assert any("the GPU was not given" in a for a in fix.assumptions)
    assert any("driver" in a and "was not given" in a for a in fix.assumptions)


def test_a_pasted_report_without_a_gpu_takes_the_variant_the_named_driver_runs(ms):
    # driver 470 runs CUDA 11.4 at most: of torch 2.3's cu118 / cu121, only cu118 runs on it
    snap = pasted(machine(torch="2.3.1+cpu", driver="470.256.02"))
    [fix] = fixes(resolve(RemedySpec("torch-build-for-gpu"), snap, ms))
    assert fix.effect.torch.variant == "cu118"
    assert not any("driver" in a for a in fix.assumptions)


def test_a_pasted_release_older_than_the_tables_gets_no_assumed_build(ms):
    # torch 1.8 predates matrices/torch_releases (1.9 on): no sourced variant to name
    found = resolve(RemedySpec("torch-build-for-gpu"), pasted(machine(torch="1.8.1+cpu")), ms)
    assert isinstance(found, NeedsFact)


def test_a_build_for_the_driver_still_needs_the_driver_without_a_gpu(ms):
    found = resolve(RemedySpec("torch-build-for-driver"), pasted(machine(torch="2.3.1+cu121")), ms)
    assert isinstance(found, NeedsFact)


def test_without_the_driver_an_older_cuda_major_is_offered_beside_the_newest(ms):
    # RTX 5090 (sm_120), driver unknown: the newest build needs CUDA 13's driver floor; the
    # newest one with sm_120 kernels from CUDA 12 runs on an older driver
    snap = pasted(machine(torch="2.6.0+cu126", gpu=("NVIDIA GeForce RTX 5090", "12.0")))
    found = fixes(resolve(RemedySpec("torch-build-for-gpu"), snap, ms))
    majors = {f.effect.torch.variant[2:4] for f in found}
    assert {"12", "13"} <= majors, [f.summary for f in found]
    assert all(f.effect.torch.variant != "cu126" for f in found)  # cu126 has no sm_120


def test_signature_remedies_are_filled_then_resolved(ms):
    snap = machine(torch="2.1.2+cu121", driver="470.256.02")
    found = signature_fixes(
        [{"kind": "torch-build-for-gpu", "capability": "{{m.sm}}"}],
        snap,
        ms,
        fill=lambda text: text.replace("{{m.sm}}", "37"),
    )
    assert found and all(f.effect.torch.variant == "cu118" for f in found)  # sm_37 on 470


def test_the_wheel_comes_before_the_driver(ms):
    snap = machine(
        torch="2.8.0+cu128", gpu=("NVIDIA GeForce GTX 1080 Ti", "6.1"), driver="470.256.02"
    )
    outcome = run_checks(snap, ms, load_checks(("torch_gpu", "nvidia_driver_arch")))
    [old] = [f for f in outcome.findings if f.id == "torch.driver-too-old"]
    kinds = ["driver" if f.effect.driver_min else "torch" for f in old.fixes]
    assert kinds[0] == "torch" and "driver" in kinds  # Pascal runs 525: both work, wheel first


def test_apply_changes_only_a_copy(ms):
    snap = machine(torch="2.1.2+cu121", driver="470.256.02")
    after, touched = apply(Effect(torch=TorchBuild("2.5", "cu118"), driver_min="525"), snap, ms)
    assert snap.fact("python.torch", "variant") == "cu121"
    assert after.fact("python.torch", "variant") == "cu118"
    assert after.fact("nvidia.driver", "driver_version") == "525"
    assert {"python.torch", "nvidia.driver"} <= touched


def test_checks_outside_the_diagnosis_still_judge_a_fix(ms):
    """Preflight loads only the modules of the ids it asks about; the driver-architecture check
    is loaded by the verifier when a fix changes the driver."""
    snap = machine(torch="2.1.2+cu121", gpu=("Tesla K80", "3.7"), driver="470.256.02")
    outcome = run_checks(snap, ms, load_checks(("torch_gpu",)))
    [old] = [f for f in outcome.findings if f.id == "torch.driver-too-old"]
    assert not [f for f in old.fixes if f.effect and f.effect.driver_min]
    assert any("no branch after 470 supports Tesla K80" in r.reason for r in old.rejected_fixes)


def test_a_framework_release_gets_a_python_it_publishes_wheels_for(ms):
    # tensorflow 2.12 lists Python 3.8-3.11 (matrices/python_frameworks): on 3.12, a 3.11 venv
    snap = machine(python="3.12.2")
    spec = RemedySpec("python-for-package", {"package": "tensorflow", "version": "2.12.0"})
    [fix] = fixes(resolve(spec, snap, ms))
    assert fix.effect.python == "3.11"
    assert fix.commands[0].startswith("python3.11 -m venv")
    assert "tensorflow==2.12.0" in fix.commands[1]


def test_no_python_fix_when_the_python_in_use_is_supported_or_the_release_unknown(ms):
    supported = RemedySpec("python-for-package", {"package": "tensorflow", "version": "2.12.0"})
    assert fixes(resolve(supported, machine(python="3.11.9"), ms)) == []
    unknown = RemedySpec("python-for-package", {"package": "tensorflow", "version": "0.1.0"})
    assert fixes(resolve(unknown, machine(python="3.12.2"), ms)) == []
    placeholder = RemedySpec("python-for-package", {"package": "tensorflow", "version": "m.ver"})
    [fix] = fixes(resolve(placeholder, machine(python="3.99.0"), ms))  # newest release instead
    assert "tensorflow==" in fix.commands[1]


def test_a_package_release_gets_a_python_its_pypi_wheels_cover(ms):
    # faiss-gpu 1.7.2's wheels on PyPI are cp36-cp310 (matrices/package_wheels): on 3.11, a 3.10 venv
    spec = RemedySpec("python-for-package", {"package": "faiss-gpu", "version": "1.7.2"})
    [fix] = fixes(resolve(spec, machine(python="3.11.4"), ms))
    assert "Python 3.6, 3.7, 3.8, 3.9, 3.10, not 3.11" in fix.summary
    assert fix.effect.python == "3.10" and "faiss-gpu==1.7.2" in fix.commands[1]
    assert fix.url == "https://pypi.org/project/faiss-gpu/1.7.2/#files"
    assert fixes(resolve(spec, machine(python="3.10.12"), ms)) == []  # a Python it has


def test_a_release_without_a_wheel_for_this_os_says_where_its_wheels_are(ms):
    # triton publishes Linux wheels only: on Windows the way is WSL2, never another Python
    windows = machine(os={"system": "Windows"}, platform="win32", python="3.12.1")
    [fix] = fixes(resolve(RemedySpec("python-for-package", {"package": "triton"}), windows, ms))
    assert "none for Windows" in fix.summary and "WSL2" in fix.summary
    assert fix.effect is None or fix.effect.python is None
    # tensorflow-metal's wheels are macOS-only: on Linux, no WSL advice
    linux = machine(python="3.11.4")
    [mac] = fixes(
        resolve(RemedySpec("python-for-package", {"package": "tensorflow-metal"}), linux, ms)
    )
    assert "none for Linux" in mac.summary and "macOS" in mac.summary and "WSL" not in mac.summary


def test_source_only_releases_and_abi3_wheels_get_no_python_change(ms):
    rows = {(r["package"], r["version"]): r for r in ms.table("package_wheels").rows}
    abi3 = next(r for r in rows.values() if r.get("python_min") and not r.get("python"))
    floor = str(abi3["python_min"])
    spec = RemedySpec(
        "python-for-package", {"package": abi3["package"], "version": abi3["version"]}
    )
    newer = f"3.{int(floor.split('.')[1]) + 1}.0"
    assert fixes(resolve(spec, machine(python=newer), ms)) == []  # abi3: every newer Python
    older = f"3.{int(floor.split('.')[1]) - 1}.0"
    [fix] = fixes(resolve(spec, machine(python=older), ms))
    assert fix.effect.python == floor
    sdist = next(r for r in rows.values() if r.get("sdist_only"))
    only_source = RemedySpec(
        "python-for-package", {"package": sdist["package"], "version": sdist["version"]}
    )
    assert fixes(resolve(only_source, machine(python="3.12.1"), ms)) == []


def test_a_printed_torch_version_stands_in_for_the_missing_fact(ms):
    # a paste that printed "2.3.1+cpu" and named no GPU: keep 2.3.1, take its default CUDA build
    spec = RemedySpec("torch-build-for-gpu", {"installed": "2.3.1+cpu"})
    [fix] = fixes(resolve(spec, pasted(machine()), ms))
    assert fix.effect.torch.exact == "2.3.1" and fix.effect.torch.variant == "cu121"
    unfilled = RemedySpec("torch-build-for-gpu", {"installed": "m.ver"})
    [newest] = fixes(resolve(unfilled, pasted(machine()), ms))
    assert newest.effect.torch.exact is None  # the placeholder is no version: newest release


def test_a_tensorflow_release_names_the_cuda_and_cudnn_it_was_built_with(ms):
    # matrices/python_frameworks (TensorFlow's tested build configurations)
    old = RemedySpec("cuda-libs-for-package", {"package": "tensorflow", "version": "2.12.0"})
    [fix] = fixes(resolve(old, machine(), ms))
    assert "CUDA 11.8" in fix.summary and "cuDNN 8.6" in fix.summary
    wheels = RemedySpec("cuda-libs-for-package", {"package": "tensorflow", "version": "2.15.0"})
    [fix] = fixes(resolve(wheels, machine(), ms))
    assert fix.commands == ("pip install 'tensorflow[and-cuda]==2.15.0'",)
    # 2.16's [and-cuda] wheels are not found by TensorFlow (tensorflow#63362): no such advice
    broken = RemedySpec("cuda-libs-for-package", {"package": "tensorflow", "version": "2.16.1"})
    assert fixes(resolve(broken, machine(), ms)) == []


def test_no_gpu_is_assumed_where_a_probe_found_none_or_another_vendor(ms):
    probed = pasted(machine(torch="2.3.1+cpu", nvidia__gpus={"gpus": []}))
    assert isinstance(resolve(RemedySpec("torch-build-for-gpu"), probed, ms), NeedsFact)


def test_a_gpu_named_in_the_paste_is_not_assumed_unknown() -> None:
    """ "我的显卡是RTX 4090": the chooser picks a build with sm_89 kernels, and the fix does not
    also claim the GPU was not given."""
    from envdoctor.commands.triage import triage_text

    report = triage_text("我的显卡是RTX 4090，装了torch之后 torch.cuda.is_available() 返回 False")
    fixes = [fix for finding in report.findings for fix in finding.fixes]
    chosen = [fix for fix in fixes if "sm_89" in fix.summary]
    assert chosen, [fix.summary for fix in fixes]
    assert not any("it was not given" in a and "GPU" in a for a in chosen[0].assumptions)


def test_an_amd_gpu_named_in_the_paste_gets_no_cuda_wheel() -> None:
    """ "我用的是A卡 RX 6600": every torch build offered is a ROCm one, never a CUDA wheel."""
    from envdoctor.commands.triage import triage_text

    report = triage_text(
        "我用的是A卡 RX 6600，只能cpu跑，提示 Torch not compiled with CUDA enabled"
    )
    commands = " ".join(c for f in report.findings for fix in f.fixes for c in fix.commands)
    summaries = " ".join(fix.summary for f in report.findings for fix in f.fixes)
    assert "rocm" in summaries
    assert "whl/cu" not in commands and " cu1" not in summaries


@pytest.mark.parametrize(("code", "driver"), [("11040", "525"), ("12020", "570.26")])
def test_one_paste_names_one_driver_for_the_torch_build(code, driver) -> None:
    """The chooser's driver fix and the finding's own driver texts ("minimum driver for this
    build") use one rule (`queries.nvidia.driver_floor`): a CUDA 11 driver under a cu128 build is
    told CUDA 12's minor-version floor everywhere; a CUDA 12.2 driver, which meets that floor,
    the CUDA 12.8 driver everywhere."""
    import re

    from envdoctor.commands.triage import triage_text

    report = triage_text(
        "torch 2.7.0+cu128\nRuntimeError: The NVIDIA driver on your system is too old "
        f"(found version {code})."
    )
    [finding] = [f for f in report.findings if f.id == "torch.driver-too-old"]
    named = set()
    for fix in finding.fixes:
        named.update(re.findall(r"driver (\d{3}(?:\.\d+)?) or newer", fix.summary))
        named.update(re.findall(r"minimum driver for this build: (\d{3}(?:\.\d+)?)", fix.summary))
    assert named and {n.split(".")[0] for n in named} == {driver.split(".")[0]}, named
