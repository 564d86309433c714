"""Platform checks: every finding with a snapshot that triggers it and one that does not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from envdoctor.checks import load_checks
from envdoctor.diagnosis.engine import run_checks
from envdoctor.matrix.loader import load_bundled
from envdoctor.model.findings import Severity
from envdoctor.model.snapshot import Snapshot, absent, collected
from envdoctor.probes import platform_vm
from envdoctor.probes.context import ProbeContext

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "platform"
MS = load_bundled()
MODULES = (
    "platform_wsl",
    "platform_wsl_libraries",
    "platform_graphics",
    "platform_windows",
    "platform_macos",
    "platform_jetson",
    "platform_android",
    "platform_vm",
    "platform_identify",
)


def run(snap: Snapshot) -> dict[str, Any]:
    outcome = run_checks(snap, MS, load_checks(MODULES))
    crashed = [f for f in outcome.findings if f.id == "envdoctor.check-crashed"]
    assert not crashed, crashed[0].detail if crashed else ""
    return {f.id: f for f in outcome.findings}


def snapshot(*groups, origin: str = "live") -> Snapshot:
    snap = Snapshot(origin=origin)
    for group in groups:
        snap.add(group)
    return snap


def commands(finding) -> list[str]:
    return [c for fix in finding.fixes for c in fix.commands]


def os_group(
    system="Linux",
    distro="ubuntu",
    version="22.04",
    kernel="5.15.153.1-microsoft-standard-WSL2",
    virt="wsl",
):
    return collected(
        "os",
        "probe:os_info",
        {
            "system": system,
            "distro_id": distro,
            "distro_version": version,
            "distro_like": ["debian"] if distro == "ubuntu" else [],
            "kernel": kernel,
            "arch": "x86_64",
            "virtualization": virt,
        },
    )


def wsl_group(**over):
    data = {
        "wsl_version": 2,
        "version_evidence": ["kernel 5.15.153.1-microsoft-standard-WSL2 is a WSL 2 kernel"],
        "kernel": "5.15.153.1-microsoft-standard-WSL2",
        "distro_name": "Ubuntu-22.04",
        "interop": True,
        "in_container": False,
        "dxg": True,
        "wsl_lib_dir": True,
        "wsl_lib_files": [
            "libcuda.so",
            "libcuda.so.1",
            "libcuda.so.1.1",
            "libd3d12.so",
            "nvidia-smi",
        ],
        "libcuda_files": [
            {"name": n, "kind": "file", "target": None}
            for n in ("libcuda.so", "libcuda.so.1", "libcuda.so.1.1")
        ],
        "driver_store_dirs": [],
        "nvidia_smi": True,
        "nvidia_smi_on_path": False,
        "wsl_lib_in_ld_conf": True,
        "ld_conf_files": ["/etc/ld.so.conf.d/ld.wsl.conf"],
        "wsl_lib_in_ld_library_path": False,
        "ldconfig_ran": True,
        "ldconfig_libcuda": ["/usr/lib/wsl/lib/libcuda.so.1"],
        "linux_driver_packages": {},
        "cuda_meta_packages": {},
        "cuda_repos": [],
        "linux_libcuda": [],
        "wsl_conf": {
            "gpu_enabled": None,
            "automount_ldconfig": None,
            "systemd": None,
            "interop_enabled": None,
        },
        "wslconfigs": [],
        "mem_total_mib": 32000,
        "windows_version": "10.0.22631.3593",
        "windows_build": 22631,
        "windows_error": None,
        "wsl_package_version": "2.3.26",
        "kfd": False,
        "rocm": {
            "opt_rocm": False,
            "librocdxg": False,
            "hsa_enable_dxg_detection": None,
            "wsl_runtime_package": None,
        },
        "ollama": {"installed": False, "rocm_libs": False},
    }
    data.update(over)
    return collected("platform.wsl", "probe:platform_wsl", data)


def driver_group(version="546.80", cuda="12.3", platform="wsl", smi="545.46", printed=None):
    return collected(
        "nvidia.driver",
        "nvml",
        {
            "driver_version": version,
            "cuda_driver_max": cuda,
            "platform": platform,
            "smi_version": smi,
            "cuda_version_printed": printed or cuda,
        },
    )


def gpus_group(name="NVIDIA GeForce RTX 4090", cc="8.9", mib=24564, **extra):
    return collected(
        "nvidia.gpus",
        "nvml",
        {
            "gpus": [
                {
                    "index": 0,
                    "name": name,
                    "compute_capability": cc,
                    "memory_total_mib": mib,
                    **extra,
                }
            ]
        },
    )


def torch_group(version="2.7.1+cu128", variant="cu128", cuda="12.8", backend="cuda", **extra):
    return collected(
        "python.torch",
        "probe:torch_build",
        {"version": version, "variant": variant, "cuda": cuda, "backend": backend, **extra},
    )


def python_group(**data):
    base = {
        "version": "3.12.3",
        "executable": "/home/ana/.venv/bin/python",
        "machine": "x86_64",
        "pointer_bits": 64,
        "platform": "linux",
        "environment": "venv",
    }
    base.update(data)
    return collected("python", "probe:python_env", base)


# -- WSL -----------------------------------------------------------------------------------------


def test_wsl1_needs_conversion():
    found = run(
        snapshot(
            wsl_group(wsl_version=1, dxg=False, wsl_lib_dir=False, distro_name="Ubuntu"),
            torch_group(),
        )
    )["wsl.wsl1-no-gpu"]
    assert found.severity is Severity.ERROR
    assert "wsl --set-version Ubuntu 2" in commands(found)


def test_wsl2_is_not_wsl1():
    assert "wsl.wsl1-no-gpu" not in run(snapshot(wsl_group()))


def test_wsl1_from_the_os_kernel_alone():
    found = run(snapshot(os_group(kernel="4.4.0-19041-Microsoft")))
    assert "wsl.wsl1-no-gpu" in found


def test_windows_build_too_old_for_gpu_compute():
    found = run(snapshot(wsl_group(windows_build=19041)))["wsl.windows-too-old"]
    assert "19041" in found.title and ">= 19044" in found.evidence[0].expected
    assert "wsl.windows-too-old" not in run(snapshot(wsl_group(windows_build=19045)))


def test_gpu_disabled_in_wsl_conf():
    snap = snapshot(
        wsl_group(
            dxg=False,
            wsl_conf={
                "gpu_enabled": False,
                "automount_ldconfig": None,
                "systemd": None,
                "interop_enabled": None,
            },
        )
    )
    found = run(snap)
    assert "wsl.gpu-disabled" in found and "wsl.no-gpu-device" not in found
    assert "wsl.exe --shutdown" in commands(found["wsl.gpu-disabled"])


def test_no_dxg_inside_a_container_on_wsl():
    found = run(snapshot(wsl_group(dxg=False, in_container=True, wsl_lib_dir=False)))[
        "wsl.no-gpu-device"
    ]
    assert any("--gpus all" in c for c in commands(found))


def test_dxg_present_no_device_finding():
    found = run(snapshot(wsl_group()))
    assert "wsl.no-gpu-device" not in found and "wsl.gpu-disabled" not in found


def test_linux_driver_inside_wsl():
    snap = snapshot(
        wsl_group(
            linux_driver_packages={
                "libnvidia-compute-535": "535.183.01-0ubuntu0.22.04.1",
                "nvidia-driver-535": "535.183.01",
            },
            cuda_meta_packages={"cuda-12-4": "12.4.1-1"},
            cuda_repos=["ubuntu2204"],
            linux_libcuda=["/usr/lib/x86_64-linux-gnu/libcuda.so.1"],
            ldconfig_libcuda=[
                "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
                "/usr/lib/wsl/lib/libcuda.so.1",
            ],
        )
    )
    found = run(snap)["wsl.linux-driver-inside-wsl"]
    assert found.severity is Severity.ERROR
    assert "(pulled in by cuda-12-4)" in found.title
    assert (
        "sudo apt-get remove --purge -y libnvidia-compute-535 nvidia-driver-535 cuda-12-4"
        in commands(found)
    )
    assert "sudo apt-get install -y cuda-toolkit-12-4" in commands(found)
    assert any(
        e.fact == "NVIDIA apt repositories" and e.actual == "ubuntu2204" for e in found.evidence
    )


def test_no_linux_driver_inside_wsl():
    assert "wsl.linux-driver-inside-wsl" not in run(snapshot(wsl_group(cuda_repos=["wsl-ubuntu"])))


def test_wsl_lib_not_on_loader_path():
    snap = snapshot(
        wsl_group(
            wsl_lib_in_ld_conf=False,
            ld_conf_files=[],
            ldconfig_libcuda=[],
            wsl_conf={
                "gpu_enabled": None,
                "automount_ldconfig": False,
                "systemd": None,
                "interop_enabled": None,
            },
        )
    )
    found = run(snap)["wsl.lib-not-on-loader-path"]
    assert "ldconfig" in found.fixes[0].commands[0] and "wsl.conf" in found.fixes[0].commands[0]
    assert "echo /usr/lib/wsl/lib | sudo tee /etc/ld.so.conf.d/ld.wsl.conf" in commands(found)


def test_wsl_lib_on_loader_path():
    assert "wsl.lib-not-on-loader-path" not in run(snapshot(wsl_group()))
    # LD_LIBRARY_PATH is enough too
    assert "wsl.lib-not-on-loader-path" not in run(
        snapshot(
            wsl_group(
                wsl_lib_in_ld_conf=False, ldconfig_libcuda=[], wsl_lib_in_ld_library_path=True
            )
        )
    )


def test_wsl_lib_missing_in_container():
    found = run(snapshot(wsl_group(wsl_lib_dir=False, in_container=True, libcuda_files=[])))[
        "wsl.lib-not-on-loader-path"
    ]
    assert any("-v /usr/lib/wsl:/usr/lib/wsl" in c for c in commands(found))


def test_libcuda_copies_are_reported_as_harmless():
    found = run(snapshot(wsl_group()))["wsl.libcuda-not-symlink"]
    assert found.severity is Severity.INFO
    assert "mklink libcuda.so.1 libcuda.so.1.1" in commands(found)


def test_libcuda_links_no_warning():
    links = [
        {"name": "libcuda.so", "kind": "symlink", "target": "libcuda.so.1.1"},
        {"name": "libcuda.so.1", "kind": "symlink", "target": "libcuda.so.1.1"},
        {"name": "libcuda.so.1.1", "kind": "file", "target": None},
    ]
    assert "wsl.libcuda-not-symlink" not in run(snapshot(wsl_group(libcuda_files=links)))


def test_windows_driver_too_old_for_cuda13_torch():
    snap = snapshot(
        wsl_group(), driver_group("546.80", "12.3"), torch_group("2.9.1+cu130", "cu130", "13.0")
    )
    found = run(snap)["wsl.windows-driver-too-old"]
    assert found.severity is Severity.ERROR
    assert "546.80" in found.title and "torch.driver-too-old" in found.explains
    assert found.fixes[0].commands == ("wsl --shutdown",)


def test_windows_driver_fine_for_cuda12_torch():
    # minor-version compatibility: a cu128 build runs on a driver that supports CUDA 12.3
    snap = snapshot(wsl_group(), driver_group("546.80", "12.3"), torch_group())
    assert "wsl.windows-driver-too-old" not in run(snap)


def test_cuda_version_err_in_wsl():
    snap = snapshot(wsl_group(), driver_group("546.80", None, printed="ERR!"))
    found = run(snap)["wsl.driver-cuda-version-err"]
    assert "ERR!" in found.title and "wsl --update" in commands(found)
    assert "wsl.driver-cuda-version-err" not in run(snapshot(wsl_group(), driver_group()))


def test_wsl_memory_below_gpu_memory():
    snap = snapshot(
        wsl_group(
            mem_total_mib=7850,
            wslconfigs=[
                {
                    "memory_bytes": 8 * 1024**3,
                    "memory_text": "8GB",
                    "swap_bytes": None,
                    "processors": None,
                }
            ],
        ),
        gpus_group(),
    )
    found = run(snap)["wsl.memory-limit"]
    assert "7.7 GiB" in found.title and "24.0 GiB" in found.title
    assert "48GB" in found.fixes[0].summary
    assert "wsl.memory-limit" not in run(snapshot(wsl_group(mem_total_mib=64000), gpus_group()))


def test_rocm_in_wsl_without_the_wsl_runtime():
    snap = snapshot(
        wsl_group(
            rocm={
                "opt_rocm": True,
                "librocdxg": False,
                "hsa_enable_dxg_detection": None,
                "wsl_runtime_package": None,
            },
            libcuda_files=[],
        ),
        torch_group("2.5.1+rocm6.2", "rocm6.2", None, "rocm"),
    )
    found = run(snap)["wsl.rocm-unsupported"]
    assert "sudo amdgpu-install -y --usecase=wsl,rocm --no-dkms" in commands(found)


def test_ollama_with_amd_gpu_in_wsl():
    snap = snapshot(
        wsl_group(ollama={"installed": True, "rocm_libs": False}, libcuda_files=[]),
        collected(
            "amd.gpus",
            "probe:amd_gpu",
            {"gpus": [{"name": "AMD Radeon RX 7900 XTX", "gfx_target": "gfx1100"}]},
        ),
    )
    found = run(snap)["wsl.rocm-unsupported"]
    assert "Ollama" in found.title
    assert any("Ollama for Windows" in f.summary for f in found.fixes)


def test_nvidia_wsl_has_no_rocm_finding():
    assert "wsl.rocm-unsupported" not in run(
        snapshot(wsl_group(ollama={"installed": True, "rocm_libs": False}), gpus_group())
    )


def test_rocm7_in_wsl_needs_dxg_detection():
    snap = snapshot(
        wsl_group(
            rocm={
                "opt_rocm": True,
                "librocdxg": True,
                "hsa_enable_dxg_detection": None,
                "wsl_runtime_package": None,
            }
        )
    )
    assert "export HSA_ENABLE_DXG_DETECTION=1" in commands(run(snap)["wsl.rocm-unsupported"])
    snap = snapshot(
        wsl_group(
            rocm={
                "opt_rocm": True,
                "librocdxg": True,
                "hsa_enable_dxg_detection": "1",
                "wsl_runtime_package": None,
            }
        )
    )
    assert "wsl.rocm-unsupported" not in run(snap)


# -- OpenGL renderers ----------------------------------------------------------------------------


def graphics_group(**over):
    data = {
        "renderer": "llvmpipe (LLVM 10.0.0, 256 bits)",
        "vendor": "VMware, Inc.",
        "software": True,
        "d3d12": False,
        "accelerated": False,
        "mesa_version": "20.0.8",
        "overrides": {},
        "forces_software": [],
        "glxinfo": "ok",
        "vulkan": [],
        "mesa_package": None,
        "dri_dirs": ["/usr/lib/x86_64-linux-gnu/dri"],
        "d3d12_driver": False,
    }
    data.update(over)
    return collected("platform.graphics", "probe:platform_graphics", data)


def test_wsl_software_rendering_old_mesa_and_forced():
    snap = snapshot(
        os_group(version="20.04"),
        wsl_group(),
        graphics_group(
            forces_software=["LIBGL_ALWAYS_SOFTWARE=1"], overrides={"LIBGL_ALWAYS_SOFTWARE": "1"}
        ),
    )
    found = run(snap)["wsl.software-rendering"]
    cmds = commands(found)
    assert cmds[0] == "unset LIBGL_ALWAYS_SOFTWARE"
    assert "sudo apt-get install -y --only-upgrade libgl1-mesa-dri libglx-mesa0 mesa-utils" in cmds
    assert "sudo do-release-upgrade" in cmds
    assert "export GALLIUM_DRIVER=d3d12" not in cmds  # Mesa 20 has no d3d12 driver to ask for


def test_wsl_software_rendering_with_new_mesa_asks_for_d3d12():
    snap = snapshot(
        os_group(version="24.04"),
        wsl_group(),
        graphics_group(mesa_version="24.2.8", d3d12_driver=True),
    )
    found = run(snap)["wsl.software-rendering"]
    assert "export GALLIUM_DRIVER=d3d12" in commands(found)


def test_wsl_d3d12_renderer_is_fine():
    snap = snapshot(
        wsl_group(),
        graphics_group(
            renderer="D3D12 (NVIDIA GeForce RTX 3070 Ti)",
            software=False,
            d3d12=True,
            accelerated=True,
            mesa_version="22.2.5",
            d3d12_driver=True,
        ),
    )
    found = run(snap)
    assert "wsl.software-rendering" not in found and "platform.software-rendering" not in found


def test_software_rendering_on_bare_metal_with_nvidia_gpu():
    snap = snapshot(
        os_group(kernel="6.8.0-49-generic", virt=None),
        absent("platform.wsl", "probe:platform_wsl", "not WSL"),
        graphics_group(mesa_version="24.0.9"),
        gpus_group(),
    )
    found = run(snap)
    assert "wsl.software-rendering" not in found
    assert found["platform.software-rendering"].severity is Severity.WARNING
    assert "__GLX_VENDOR_LIBRARY_NAME=nvidia glxinfo -B | grep renderer" in commands(
        found["platform.software-rendering"]
    )


def test_software_rendering_headless_without_gpu_is_info():
    snap = snapshot(
        os_group(kernel="6.1.0-26-amd64", distro="debian", version="12", virt="docker"),
        absent("platform.wsl", "probe:platform_wsl", "not WSL"),
        graphics_group(mesa_version="22.3.6"),
    )
    assert run(snap)["platform.software-rendering"].severity is Severity.INFO


# -- native Windows ------------------------------------------------------------------------------


def windows_group(**over):
    data = {
        "windows_version": "10.0.22631",
        "windows_build": 22631,
        "windows_release": "11",
        "os_arch": "AMD64",
        "process_arch": "AMD64",
        "nvidia_smi": "C:\\Windows\\System32\\nvidia-smi.exe",
        "nvml_dlls": [],
        "nvidia_driver_store": [],
        "cuda_path": None,
        "cuda_path_exists": None,
        "cuda_path_versions": {},
        "display_adapters": [
            {
                "name": "NVIDIA GeForce RTX 4070",
                "driver_version": "32.0.15.6094",
                "vendor": "NVIDIA",
                "status": "OK",
                "pnp_id": "PCI\\VEN_10DE&DEV_2786",
                "nvidia_driver": "560.94",
            }
        ],
        "tdr": {
            "read": True,
            "TdrDelay": None,
            "TdrLevel": None,
            "TdrDdiDelay": None,
            "HwSchMode": 2,
        },
        "tdr_events": {"read": True, "count": 0, "last": None},
        "wsl_available": True,
    }
    data.update(over)
    return collected("platform.windows", "probe:platform_windows", data)


def test_pip_cpu_torch_on_windows_with_nvidia_gpu():
    snap = snapshot(
        os_group("Windows", "windows", "11", "10.0.22631", None),
        windows_group(),
        python_group(
            platform="win32", executable="C:\\Users\\ana\\proj\\.venv\\Scripts\\python.exe"
        ),
        torch_group("2.5.1+cpu", "cpu", None, "cpu"),
        gpus_group("NVIDIA GeForce RTX 4070", "8.9", 12282),
        driver_group("560.94", "12.6", "windows", "560.94"),
    )
    found = run(snap)["windows.pip-cpu-torch"]
    assert found.severity is Severity.ERROR and "torch.cpu-build-on-gpu-host" in found.explains
    assert any("--index-url https://download.pytorch.org/whl/cu12" in c for c in commands(found))


def test_cuda_torch_on_windows_is_fine():
    snap = snapshot(
        os_group("Windows", "windows", "11", "10.0.22631", None),
        windows_group(),
        torch_group("2.5.1+cu124", "cu124", "12.4"),
        gpus_group(),
    )
    assert "windows.pip-cpu-torch" not in run(snap)


def test_cpu_torch_on_linux_is_not_a_windows_finding():
    assert "windows.pip-cpu-torch" not in run(
        snapshot(os_group(virt=None), torch_group("2.5.1+cpu", "cpu", None, "cpu"), gpus_group())
    )


def test_tdr_events():
    found = run(
        snapshot(
            windows_group(tdr_events={"read": True, "count": 3, "last": "2025-03-02T21:14:07Z"})
        )
    )
    assert "3 times" in found["windows.device-removed-tdr"].title
    assert any("TdrDelay" in c for c in commands(found["windows.device-removed-tdr"]))
    assert "windows.device-removed-tdr" not in run(snapshot(windows_group()))


def test_basic_display_adapter_only():
    basic = [
        {
            "name": "Microsoft Basic Display Adapter",
            "driver_version": "10.0.22621.1",
            "vendor": "(Standard display types)",
            "status": "OK",
            "pnp_id": "PCI\\VEN_1234&DEV_1111",
            "nvidia_driver": None,
        }
    ]
    found = run(snapshot(windows_group(display_adapters=basic)))["windows.d3d11-required"]
    assert "Microsoft Basic Display Adapter" in found.title
    assert "windows.d3d11-required" not in run(snapshot(windows_group()))


def test_store_python():
    exe = "C:\\Users\\ana\\AppData\\Local\\Microsoft\\WindowsApps\\PythonSoftwareFoundation.Python.3.12_qbz5n2kfra8p0\\python.exe"
    assert "windows.store-python" in run(snapshot(python_group(executable=exe, platform="win32")))
    assert "windows.store-python" not in run(
        snapshot(python_group(executable="C:\\Python312\\python.exe", platform="win32"))
    )


def test_python_architecture_on_windows():
    found = run(
        snapshot(windows_group(), python_group(platform="win32", pointer_bits=32, machine="AMD64"))
    )
    assert found["windows.python-arch-mismatch"].severity is Severity.WARNING
    found = run(
        snapshot(windows_group(os_arch="ARM64"), python_group(platform="win32", machine="AMD64"))
    )
    assert "emulated on ARM64" in found["windows.python-arch-mismatch"].title
    assert "windows.python-arch-mismatch" not in run(
        snapshot(windows_group(), python_group(platform="win32", machine="AMD64"))
    )


# -- macOS ---------------------------------------------------------------------------------------


def mac_group(**over):
    data = {
        "macos_version": "14.5",
        "macos_build": "23F79",
        "apple_silicon": True,
        "hardware_arch": "arm64",
        "cpu_brand": "Apple M2 Pro",
        "model": "Mac14,12",
        "envdoctor_translated": False,
        "envdoctor_machine": "arm64",
        "python_file": None,
    }
    data.update(over)
    return collected("platform.macos", "probe:platform_macos", data)


def test_rosetta_python():
    found = run(
        snapshot(
            mac_group(python_file="Mach-O universal binary with 2 architectures"),
            python_group(machine="x86_64", platform="darwin", executable="/usr/local/bin/python3"),
            torch_group("2.2.2", None, None, "cpu"),
        )
    )
    rosetta = found["macos.rosetta-python"]
    assert rosetta.severity is Severity.ERROR
    assert commands(rosetta)[0] == "arch -arm64 /usr/local/bin/python3 -m venv .venv-arm64"
    assert "macos.mps-unavailable" not in found  # explained by the Rosetta finding


def test_arm64_python_on_apple_silicon():
    found = run(
        snapshot(
            mac_group(),
            python_group(machine="arm64", platform="darwin"),
            torch_group("2.7.1", None, None, "cpu"),
        )
    )
    assert "macos.rosetta-python" not in found and "macos.mps-unavailable" not in found


@pytest.mark.parametrize(
    "version, severity", [("13.6.7", Severity.WARNING), ("12.1", Severity.ERROR)]
)
def test_mps_needs_a_recent_macos(version, severity):
    found = run(
        snapshot(
            mac_group(macos_version=version),
            python_group(machine="arm64", platform="darwin"),
            torch_group("2.7.1", None, None, "cpu"),
        )
    )
    assert found["macos.mps-unavailable"].severity is severity


def test_mps_on_intel_mac_is_info():
    found = run(
        snapshot(
            mac_group(
                apple_silicon=False, hardware_arch="x86_64", cpu_brand="Intel(R) Core(TM) i9"
            ),
            python_group(machine="x86_64", platform="darwin"),
            torch_group("2.2.2", None, None, "cpu"),
        )
    )
    assert found["macos.mps-unavailable"].severity is Severity.INFO
    assert "macos.rosetta-python" not in found


def test_mps_deep_says_unavailable():
    deep = collected(
        "python.deep", "probe:deep", {"backends": {"mps": {"built": False, "available": False}}}
    )
    found = run(
        snapshot(
            mac_group(),
            python_group(machine="arm64", platform="darwin"),
            torch_group("2.7.1", None, None, "cpu"),
            deep,
        )
    )
    assert "built without MPS" in found["macos.mps-unavailable"].title


# -- Jetson --------------------------------------------------------------------------------------


def jetson_group(l4t="36.4.3", major=36, **over):
    data = {
        "l4t_version": l4t,
        "l4t_major": major,
        "l4t_source": "/etc/nv_tegra_release",
        "board": "generic",
        "model": "NVIDIA Jetson Orin NX Engineering Reference Developer Kit",
        "soc": "tegra234",
        "tegrastats": "/usr/bin/tegrastats",
        "jtop": None,
        "gpu_load_percent": 12.5,
        "gpu_load_path": "/sys/devices/platform/gpu.0/load",
    }
    data.update(over)
    return collected("platform.jetson", "probe:platform_jetson", data)


def test_pypi_cuda_wheel_on_jetson():
    torch = torch_group(
        "2.8.0",
        None,
        "12.8",
        "cuda",
        wheel_tags=["cp310-cp310-manylinux_2_28_aarch64"],
        bundled_nvidia={"nvidia-cublas-cu12": "12.8.4.1"},
    )
    found = run(snapshot(jetson_group(), torch))["jetson.pypi-wheel"]
    assert found.severity is Severity.ERROR and "JetPack 6.2" in found.title
    assert (
        "pip install torch torchvision --index-url https://pypi.jetson-ai-lab.dev/jp6/cu126"
        in commands(found)
    )
    assert "torch.cpu-build-on-gpu-host" in found.explains


def test_cpu_wheel_on_jetson():
    found = run(snapshot(jetson_group("35.4.1", 35), torch_group("2.1.0", "cpu", None, "cpu")))[
        "jetson.pypi-wheel"
    ]
    assert "CPU-only" in found.title
    assert (
        "pip install torch torchvision --index-url https://pypi.jetson-ai-lab.dev/jp6/cu126"
        not in commands(found)
    )


def test_nvidia_jetson_wheel_is_fine():
    torch = torch_group(
        "2.5.0a0+872d972e41.nv24.08", None, "12.6", "cuda", wheel_tags=["cp310-cp310-linux_aarch64"]
    )
    found = run(snapshot(jetson_group(), torch))
    assert "jetson.pypi-wheel" not in found and "jetson.jetpack-too-old" not in found


def test_jetpack4_too_old_for_cuda11_torch():
    found = run(
        snapshot(
            jetson_group("32.7.1", 32),
            torch_group("2.0.0", None, "11.4", "cuda", wheel_tags=["cp38-cp38-linux_aarch64"]),
        )
    )
    too_old = found["jetson.jetpack-too-old"]
    assert too_old.severity is Severity.ERROR and "JetPack 4" in too_old.title


def test_jetpack5_with_cuda12_torch_is_a_warning():
    found = run(
        snapshot(
            jetson_group("35.1", 35),
            torch_group("2.8.0", None, "12.6", "cuda", wheel_tags=["cp310-cp310-linux_aarch64"]),
        )
    )
    assert found["jetson.jetpack-too-old"].severity is Severity.WARNING
    assert "CUDA 11.4" in found["jetson.jetpack-too-old"].title


def test_jetson_gpu_monitoring_note():
    found = run(snapshot(jetson_group()))["jetson.gpu-monitoring"]
    assert found.severity is Severity.INFO and "12.5 %" in found.title
    assert "sudo tegrastats" in commands(found)
    assert "jetson.gpu-monitoring" not in run(snapshot(os_group(virt=None)))


# -- VMs and vGPU --------------------------------------------------------------------------------


def _vm_from_fixture(fake_root, fake_tools, name: str, extra_files=None):
    files = {"/sys/class/dmi/id/sys_vendor": "QEMU\n", "/usr/bin/nvidia-gridd": "elf"}
    files.update(extra_files or {})
    bindir = fake_tools({"nvidia-smi": f"#!/bin/sh\n/bin/cat '{FIXTURES / name}'\n"})
    ctx = ProbeContext(root=fake_root(files), env={"PATH": bindir})
    return platform_vm.collect(ctx)[0]


def test_vgpu_unlicensed_from_real_capture(fake_root, fake_tools):
    vm = _vm_from_fixture(
        fake_root, fake_tools, "TRUNCATED-nvidia-smi-q-vgpu-rtxa6000-24q-unlicensed-535.183.06.txt"
    )
    found = run(snapshot(vm))["nvidia.vgpu-unlicensed"]
    assert found.severity is Severity.WARNING
    assert "NVIDIA RTX Virtual Workstation: Unlicensed" in found.evidence[0].actual
    assert "sudo systemctl restart nvidia-gridd" in commands(found)


def test_vgpu_restricted_is_an_error():
    vm = collected(
        "platform.vm",
        "probe:platform_vm",
        {
            "hypervisor": "VMware",
            "display_adapters": [],
            "vgpu": {
                "gridd_installed": True,
                "gridd_conf": {"present": True, "feature_type": 4, "server_address_set": False},
                "client_tokens": 1,
                "licenses": [
                    {
                        "gpu": "00000000:02:00.0",
                        "product_name": "NVIDIA Virtual Compute Server",
                        "license_status": "Unlicensed (Restricted)",
                        "licensed": False,
                        "restricted": True,
                    }
                ],
            },
        },
    )
    assert run(snapshot(vm))["nvidia.vgpu-unlicensed"].severity is Severity.ERROR


def test_vgpu_licensed(fake_root, fake_tools):
    vm = _vm_from_fixture(
        fake_root, fake_tools, "vgpu-license-lines-nrec-virtual-compute-server-licensed.txt"
    )
    assert "nvidia.vgpu-unlicensed" not in run(snapshot(vm))


def test_vgpu_mode_without_licensing_setup():
    vm = collected(
        "platform.vm",
        "probe:platform_vm",
        {
            "hypervisor": "KVM/QEMU",
            "display_adapters": [],
            "vgpu": {
                "gridd_installed": False,
                "gridd_conf": {"present": False},
                "client_tokens": 0,
                "licenses": [],
            },
        },
    )
    found = run(
        snapshot(vm, gpus_group("NVIDIA H100-80C", "9.0", 81920, virtualization_mode="vgpu"))
    )
    assert "nvidia-gridd is not installed" in found["nvidia.vgpu-unlicensed"].detail
    assert "nvidia.vgpu-unlicensed" not in run(
        snapshot(vm, gpus_group(virtualization_mode="pass-through"))
    )


def svga_vm(adapters=None):
    adapters = (
        adapters
        if adapters is not None
        else [
            {
                "slot": "0000:00:0f.0",
                "vendor_id": "0x15ad",
                "device_id": "0x0405",
                "kind": "virtual",
                "name": "VMware SVGA II",
            }
        ]
    )
    return collected(
        "platform.vm",
        "probe:platform_vm",
        {"hypervisor": "VMware", "display_adapters": adapters, "vgpu": {"licenses": []}},
    )


def test_vm_with_svga_only():
    found = run(snapshot(svga_vm(), torch_group()))["vm.no-gpu-passthrough"]
    assert found.severity is Severity.WARNING and "VMware SVGA II" in found.title
    assert "platform.software-rendering" in found.explains


def test_vm_svga_without_gpu_intent_is_info():
    assert run(snapshot(svga_vm()))["vm.no-gpu-passthrough"].severity is Severity.INFO


def test_vm_with_passed_through_gpu():
    adapters = [
        {"slot": "0000:00:0f.0", "kind": "virtual", "name": "VMware SVGA II"},
        {"slot": "0000:0b:00.0", "kind": "nvidia", "name": None},
    ]
    assert "vm.no-gpu-passthrough" not in run(snapshot(svga_vm(adapters), torch_group()))


def test_vm_without_any_display_adapter_says_nothing():
    # a Firecracker / KVM microVM (like this project's CI) has no display adapter at all
    assert "vm.no-gpu-passthrough" not in run(snapshot(svga_vm([]), torch_group()))


# -- Android -------------------------------------------------------------------------------------


def android_group(**over):
    data = {
        "termux": True,
        "termux_version": "0.118.1",
        "prefix": "/data/data/com.termux/files/usr",
        "proot": False,
        "android_release": "14",
        "android_sdk": "34",
        "device_model": "SM-S908B",
        "board_platform": "taro",
        "soc_model": None,
        "egl_hardware": "adreno",
        "vulkan_hardware": None,
        "kgsl": True,
        "kgsl_gpu_model": "Adreno730v2",
        "dri_render_nodes": [],
        "turnip_icds": [
            "/data/data/com.termux/files/usr/share/vulkan/icd.d/freedreno_icd.aarch64.json"
        ],
        "libvulkan_freedreno": True,
        "packages": {"mesa-vulkan-icd-freedreno": "26.0.6"},
        "vendor_opencl": True,
    }
    data.update(over)
    return collected("platform.android", "probe:platform_android", data)


def test_termux_turnip_reported():
    vulkan = collected(
        "platform.graphics",
        "probe:platform_graphics",
        {
            "vulkan": [
                {
                    "device_name": "Turnip Adreno (TM) 730",
                    "driver_name": "turnip Mesa driver",
                    "driver_info": "Mesa 26.0.6",
                }
            ]
        },
    )
    found = run(snapshot(android_group(), vulkan))
    assert found["android.adreno-turnip"].severity is Severity.INFO
    assert "android.turnip-no-kgsl" not in found
    assert any(
        e.fact == "Vulkan device" and "Turnip Adreno (TM) 730" in e.actual
        for e in found["android.adreno-turnip"].evidence
    )


def test_turnip_without_kgsl():
    found = run(snapshot(android_group(kgsl=False, proot=True)))
    assert found["android.turnip-no-kgsl"].severity is Severity.WARNING
    assert "proot" in found["android.turnip-no-kgsl"].detail


def test_android_without_turnip_suggests_the_package():
    found = run(snapshot(android_group(turnip_icds=[], libvulkan_freedreno=False, packages={})))[
        "android.adreno-turnip"
    ]
    assert "pkg install mesa-vulkan-icd-freedreno vulkan-tools" in commands(found)


# -- pasted-platform identification ------------------------------------------------------------


def test_identified_only_for_pasted_input():
    pasted = snapshot(driver_group(), origin="pasted")
    assert "546.80" in run(pasted)["platform.identified"].title
    assert "platform.identified" not in run(snapshot(driver_group()))


def test_identified_jetson_names_jetpack():
    pasted = snapshot(
        collected(
            "platform.jetson",
            "pasted:tegra_release",
            {"l4t_version": "35.1", "l4t_major": 35, "l4t_source": "/etc/nv_tegra_release"},
        ),
        origin="pasted",
    )
    found = run(pasted)["platform.identified"]
    assert (
        "JetPack 5.0.2" in found.title
        and "cuda 11.4" not in found.detail
        and "CUDA 11.4" in found.detail
    )
