"""Platform probes on fake root trees and fake tools: WSL, native Windows, macOS, Jetson, Android,
VMs / vGPU and the OpenGL / Vulkan renderers, each with a case that detects and one that does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from envdoctor.probes import (
    platform_android,
    platform_graphics,
    platform_jetson,
    platform_macos,
    platform_vm,
    platform_windows,
    platform_wsl,
)
from envdoctor.probes.context import ProbeContext

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "platform"
GLX_LLVMPIPE = "misc/glxinfo-B-wsl2-llvmpipe-mesa-20.0.8-rtx3090-host-microsoft-WSL-issue-10245.txt"
GLX_D3D12 = "misc/glxinfo-B-wsl2-docker-d3d12-rtx3070ti-mesa-22.2.5-egl-in-docker.txt"
TEGRA_36 = "misc/unidentified-nv-tegra-release-R36.4.3-orin-nx-jetpack-6.2.txt"


def _one(groups):
    assert len(groups) == 1
    return groups[0]


def _cat(path: Path) -> str:
    return f"#!/bin/sh\n/bin/cat '{path}'\n"


def _ctx(root, env=None, bindir=None):
    env = dict(env or {})
    env["PATH"] = bindir or "/nonexistent-envdoctor-test-bin"
    return ProbeContext(root=root, env=env)


DPKG_WSL_DRIVER = """Package: nvidia-driver-535
Status: install ok installed
Version: 535.183.01-0ubuntu0.22.04.1

Package: libnvidia-compute-535
Status: install ok installed
Version: 535.183.01-0ubuntu0.22.04.1

Package: cuda-12-4
Status: install ok installed
Version: 12.4.1-1

Package: cuda-toolkit-12-4
Status: install ok installed
Version: 12.4.1-1

Package: nvidia-utils-530
Status: deinstall ok config-files
Version: 530.41.03-0ubuntu0.22.04.2
"""


# -- WSL -----------------------------------------------------------------------------------------


def _wsl2_files(extra=None):
    files = {
        "/proc/sys/kernel/osrelease": "5.15.153.1-microsoft-standard-WSL2\n",
        "/proc/version": "Linux version 5.15.153.1-microsoft-standard-WSL2 (root@941d701f84f1) #1 SMP\n",
        "/dev/dxg": "",
        "/usr/lib/wsl/lib/libcuda.so": "elf",
        "/usr/lib/wsl/lib/libcuda.so.1": "elf",
        "/usr/lib/wsl/lib/libcuda.so.1.1": "elf",
        "/usr/lib/wsl/lib/nvidia-smi": "elf",
        "/usr/lib/wsl/lib/libd3d12.so": "elf",
        "/usr/lib/wsl/drivers/nv_dispi.inf_amd64_3a1b2c/nvapi64.dll": "dll",
        "/etc/ld.so.conf.d/ld.wsl.conf": "/usr/lib/wsl/lib\n",
        "/proc/meminfo": "MemTotal:        8039120 kB\nMemFree:         7000000 kB\n",
        "/mnt/c/Users/ana/.wslconfig": "[wsl2]\nmemory=8GB  # half of 16\nprocessors=4\nswap=0\n",
        "/mnt/c/Users/Public/.wslconfig": "[wsl2]\nmemory=1GB\n",
        "/proc/sys/fs/binfmt_misc/WSLInterop": "enabled\n",
    }
    files.update(extra or {})
    return files


def test_wsl2_detected_with_windows_build_and_wslconfig(fake_root, fake_tools):
    root = fake_root(_wsl2_files())
    bindir = fake_tools(
        {"cmd.exe": "#!/bin/sh\nprintf '\\r\\nMicrosoft Windows [Version 10.0.22631.3593]\\r\\n'\n"}
    )
    group = _one(platform_wsl.collect(_ctx(root, {"WSL_DISTRO_NAME": "Ubuntu-22.04"}, bindir)))
    data = group.data
    assert group.collected
    assert data["wsl_version"] == 2
    assert data["distro_name"] == "Ubuntu-22.04"
    assert data["dxg"] is True and data["wsl_lib_dir"] is True and data["interop"] is True
    assert {f["name"]: f["kind"] for f in data["libcuda_files"]} == {
        "libcuda.so": "file",
        "libcuda.so.1": "file",
        "libcuda.so.1.1": "file",
    }
    assert data["wsl_lib_in_ld_conf"] is True
    assert data["windows_version"] == "10.0.22631.3593" and data["windows_build"] == 22631
    assert data["wslconfigs"] == [
        {"memory_bytes": 8 * 1024**3, "memory_text": "8GB", "swap_bytes": 0, "processors": 4}
    ]
    assert data["mem_total_mib"] == 7850
    assert data["driver_store_dirs"] == ["nv_dispi.inf_amd64_3a1b2c"]
    assert data["linux_driver_packages"] == {} and data["linux_libcuda"] == []
    assert "WSL 2 (Ubuntu-22.04)" in group.summary and "Windows build 22631" in group.summary


def test_wsl1_kernel_is_a_windows_build(fake_root):
    root = fake_root(
        {
            "/proc/sys/kernel/osrelease": "4.4.0-19041-Microsoft\n",
            "/proc/version": "Linux version 4.4.0-19041-Microsoft (Microsoft@Microsoft.com) (gcc version 5.4.0 (GCC) ) #1237-Microsoft\n",
        }
    )
    data = _one(platform_wsl.collect(_ctx(root, {"WSL_DISTRO_NAME": "Ubuntu"}))).data
    assert data["wsl_version"] == 1
    assert data["dxg"] is False
    assert "WSL 1" in data["version_evidence"][0]


def test_old_wsl2_kernel_without_wsl2_suffix(fake_root):
    root = fake_root({"/proc/sys/kernel/osrelease": "4.19.128-microsoft-standard\n"})
    assert _one(platform_wsl.collect(_ctx(root))).data["wsl_version"] == 2


def test_not_wsl(fake_root):
    root = fake_root(
        {
            "/proc/sys/kernel/osrelease": "6.1.0-26-amd64\n",
            "/proc/version": "Linux version 6.1.0-26-amd64 (debian-kernel@lists.debian.org)\n",
        }
    )
    group = _one(platform_wsl.collect(_ctx(root)))
    assert group.status.value == "absent"
    assert "6.1.0-26-amd64" in group.reason


def test_wsl_linux_driver_packages_and_foreign_libcuda(fake_root):
    files = _wsl2_files(
        {
            "/var/lib/dpkg/status": DPKG_WSL_DRIVER,
            "/usr/lib/x86_64-linux-gnu/libcuda.so.535.183.01": "elf",
            "/etc/apt/sources.list.d/cuda-ubuntu2204-x86_64.list": "deb [signed-by=/usr/share/keyrings/cuda-archive-keyring.gpg] "
            "https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2204/x86_64/ /\n",
        }
    )
    root = fake_root(
        files,
        symlinks={
            "/usr/lib/x86_64-linux-gnu/libcuda.so.1": "libcuda.so.535.183.01",
            "/usr/lib/x86_64-linux-gnu/libcuda.so": "/usr/lib/wsl/lib/libcuda.so",  # a user's link to WSL's copy
        },
    )
    data = _one(platform_wsl.collect(_ctx(root))).data
    assert data["linux_driver_packages"] == {
        "libnvidia-compute-535": "535.183.01-0ubuntu0.22.04.1",
        "nvidia-driver-535": "535.183.01-0ubuntu0.22.04.1",
    }
    assert data["cuda_meta_packages"] == {"cuda-12-4": "12.4.1-1"}
    assert data["cuda_repos"] == ["ubuntu2204"]
    assert sorted(data["linux_libcuda"]) == [
        "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
        "/usr/lib/x86_64-linux-gnu/libcuda.so.535.183.01",
    ]


def test_wsl_conf_and_sizes():
    conf = platform_wsl.parse_wsl_conf(
        "[automount]\nldconfig = false\n\n[gpu]\nenabled=false # off\n[boot]\nsystemd=true\n"
    )
    assert conf == {
        "gpu_enabled": False,
        "automount_ldconfig": False,
        "systemd": True,
        "interop_enabled": None,
    }
    assert platform_wsl.parse_size("512MB") == 512 * 1024**2
    assert platform_wsl.parse_size("1073741824") == 1073741824
    assert platform_wsl.parse_size("lots") is None
    assert platform_windows.parse_ver("Microsoft Windows [Version 10.0.19045.4412]") == (
        "10.0.19045.4412",
        19045,
    )
    text = (
        "\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1\n"
        "\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/wsl/lib/libcuda.so.1\n"
        "\tlibcuda.so (libc6,x86-64) => /usr/lib/wsl/lib/libcuda.so\n"
    )
    from envdoctor.probes import ld_cache

    assert [
        path for soname, _flags, path in ld_cache.parse_listing(text) if soname == "libcuda.so.1"
    ] == ["/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1"]


# -- native Windows ------------------------------------------------------------------------------

ADAPTERS_JSON = (
    '[{"Name":"NVIDIA GeForce RTX 4070","DriverVersion":"32.0.15.6094","AdapterCompatibility":"NVIDIA",'
    '"Status":"OK","PNPDeviceID":"PCI\\\\VEN_10DE&DEV_2786&SUBSYS_00000000"},'
    '{"Name":"Intel(R) UHD Graphics 770","DriverVersion":"31.0.101.4502","AdapterCompatibility":"Intel Corporation",'
    '"Status":"OK","PNPDeviceID":"PCI\\\\VEN_8086&DEV_4680"}]'
)
REG_OUTPUT = (
    "\nHKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\GraphicsDrivers\n"
    "    HwSchMode    REG_DWORD    0x2\n    TdrDelay    REG_DWORD    0x3c\n\n"
)
EVENTS = (
    "Event[0]:\n  Log Name: System\n  Source: Display\n  Date: 2025-03-02T21:14:07.1230000Z\n  Event ID: 4101\n"
    "  Description: \nDisplay driver nvlddmkm stopped responding and has successfully recovered.\n\n"
    "Event[1]:\n  Log Name: System\n  Source: Display\n  Date: 2025-02-27T10:01:44.0000000Z\n  Event ID: 4101\n"
)


def test_windows_fake_drive(fake_root, fake_tools, tmp_path):
    root = fake_root(
        {
            "/Windows/System32/nvidia-smi.exe": "exe",
            "/Windows/System32/wsl.exe": "exe",
            "/Windows/System32/DriverStore/FileRepository/nv_dispi.inf_amd64_5ab1/nvml.dll": "dll",
            "/Windows/System32/DriverStore/FileRepository/nv_dispi.inf_amd64_5ab1/nvidia-smi.exe": "exe",
        }
    )
    json_file = tmp_path / "adapters.json"
    json_file.write_text(ADAPTERS_JSON)
    bindir = fake_tools(
        {
            "cmd": "#!/bin/sh\necho 'Microsoft Windows [Version 10.0.22631.3593]'\n",
            "powershell": _cat(json_file),
            "reg": "#!/bin/sh\n/bin/cat <<'EOF'\n" + REG_OUTPUT + "EOF\n",
            "wevtutil": "#!/bin/sh\n/bin/cat <<'EOF'\n" + EVENTS + "EOF\n",
        }
    )
    env = {
        "PROCESSOR_ARCHITECTURE": "AMD64",
        "CUDA_PATH": "/nonexistent/CUDA/v12.4",
        "CUDA_PATH_V12_4": "/nonexistent/CUDA/v12.4",
    }
    group = _one(platform_windows.collect(_ctx(root, env, bindir)))
    data = group.data
    assert data["windows_build"] == 22631 and data["windows_release"] == "11"
    assert data["os_arch"] == "AMD64"
    assert data["nvidia_smi"] == "/Windows/System32/nvidia-smi.exe"
    assert data["nvml_dlls"] == [
        "/Windows/System32/DriverStore/FileRepository/nv_dispi.inf_amd64_5ab1/nvml.dll"
    ]
    assert data["cuda_path_exists"] is False and data["cuda_path_versions"] == {
        "CUDA_PATH_V12_4": "/nonexistent/CUDA/v12.4"
    }
    assert [a["nvidia_driver"] for a in data["display_adapters"]] == ["560.94", None]
    assert data["tdr"] == {
        "read": True,
        "TdrDelay": 60,
        "TdrLevel": None,
        "TdrDdiDelay": None,
        "HwSchMode": 2,
    }
    assert data["tdr_events"] == {"read": True, "count": 2, "last": "2025-03-02T21:14:07.1230000Z"}
    assert data["wsl_available"] is True
    assert group.summary == "Windows 11 (build 22631, AMD64)"


def test_not_windows(fake_root):
    group = _one(platform_windows.collect(_ctx(fake_root({"/etc/os-release": "ID=debian\n"}))))
    assert group.status.value == "absent"


def test_windows_driver_number_from_wmi_version():
    assert platform_windows.nvidia_driver_from_wmi("31.0.15.4680") == "546.80"
    assert platform_windows.nvidia_driver_from_wmi("32.0.15.6094") == "560.94"
    assert platform_windows.nvidia_driver_from_wmi("27.21.14.6089") == "460.89"
    assert platform_windows.nvidia_driver_from_wmi("garbage") is None
    assert platform_windows.parse_adapters(
        '{"Name":"Microsoft Basic Display Adapter","DriverVersion":"10.0.22621.1"}'
    ) == [
        {
            "name": "Microsoft Basic Display Adapter",
            "driver_version": "10.0.22621.1",
            "vendor": None,
            "status": None,
            "pnp_id": None,
            "nvidia_driver": None,
        }
    ]


# -- macOS ---------------------------------------------------------------------------------------

PLIST = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict>
<key>ProductBuildVersion</key><string>23F79</string>
<key>ProductName</key><string>macOS</string>
<key>ProductVersion</key><string>14.5</string>
</dict></plist>
"""


def _sysctl(values: dict[str, str]) -> str:
    cases = "".join(f"  {k}) echo '{v}' ;;\n" for k, v in values.items())
    return f'#!/bin/sh\ncase "$2" in\n{cases}  *) echo "sysctl: unknown oid \'$2\'" >&2; exit 1 ;;\nesac\n'


def test_macos_apple_silicon(fake_root, fake_tools):
    root = fake_root({"/System/Library/CoreServices/SystemVersion.plist": PLIST})
    bindir = fake_tools(
        {
            "sysctl": _sysctl(
                {
                    "hw.optional.arm64": "1",
                    "machdep.cpu.brand_string": "Apple M2 Pro",
                    "sysctl.proc_translated": "0",
                    "hw.model": "Mac14,12",
                }
            )
        }
    )
    group = _one(platform_macos.collect(_ctx(root, bindir=bindir)))
    assert group.data["macos_version"] == "14.5" and group.data["macos_build"] == "23F79"
    assert group.data["apple_silicon"] is True and group.data["hardware_arch"] == "arm64"
    assert group.data["envdoctor_translated"] is False
    assert group.summary == "macOS 14.5 on Apple M2 Pro"


def test_macos_intel(fake_root, fake_tools):
    root = fake_root(
        {"/System/Library/CoreServices/SystemVersion.plist": PLIST.replace("14.5", "12.7.4")}
    )
    bindir = fake_tools(
        {
            "sysctl": _sysctl(
                {"machdep.cpu.brand_string": "Intel(R) Core(TM) i7-8850H CPU @ 2.60GHz"}
            )
        }
    )
    data = _one(platform_macos.collect(_ctx(root, bindir=bindir))).data
    assert data["apple_silicon"] is False and data["hardware_arch"] == "x86_64"
    assert data["macos_version"] == "12.7.4"


def test_not_macos(fake_root):
    assert (
        _one(
            platform_macos.collect(_ctx(fake_root({"/etc/os-release": "ID=debian\n"})))
        ).status.value
        == "absent"
    )


# -- Jetson --------------------------------------------------------------------------------------


def test_jetson_from_real_release_file(fake_root, real_captures):
    root = fake_root(
        {
            "/etc/nv_tegra_release": (real_captures / TEGRA_36).read_text(),
            "/proc/device-tree/model": "NVIDIA Jetson Orin NX Engineering Reference Developer Kit\x00",
            "/proc/device-tree/compatible": "nvidia,p3768-0000+p3767-0000\x00nvidia,p3767-0000\x00nvidia,tegra234\x00",
            "/sys/devices/platform/gpu.0/load": "345\n",
            "/usr/bin/tegrastats": "elf",
            "/usr/local/cuda/version.json": '{"cuda": {"name": "CUDA SDK", "version": "12.6.68"}}',
        }
    )
    group = _one(platform_jetson.collect(_ctx(root)))
    data = group.data
    assert (
        data["l4t_version"] == "36.4.3"
        and data["l4t_major"] == 36
        and data["l4t_source"] == "/etc/nv_tegra_release"
    )
    assert (
        data["kernel_variant"] == "oot"
        and data["userspace_lib_dir"] == "/usr/lib/aarch64-linux-gnu/nvidia"
    )
    assert data["soc"] == "tegra234"
    assert data["model"] == "NVIDIA Jetson Orin NX Engineering Reference Developer Kit"
    assert data["gpu_load_percent"] == 34.5 and data["tegrastats"] == "/usr/bin/tegrastats"
    assert data["cuda_version_json"] == "12.6.68"
    assert (
        group.summary.startswith("Jetson NVIDIA Jetson Orin NX") and "L4T 36.4.3" in group.summary
    )


def test_jetson_from_l4t_core_package(fake_root):
    root = fake_root(
        {
            "/var/lib/dpkg/status": "Package: nvidia-l4t-core\nStatus: install ok installed\n"
            "Version: 35.4.1-20230801124926\n\nPackage: nvidia-jetpack\n"
            "Status: install ok installed\nVersion: 5.1.2-b104\n"
        }
    )
    data = _one(platform_jetson.collect(_ctx(root))).data
    assert data["l4t_version"] == "35.4.1" and data["l4t_source"] == "nvidia-l4t-core"
    assert data["nvidia_jetpack"] == "5.1.2-b104"


def test_not_jetson(fake_root):
    group = _one(
        platform_jetson.collect(
            _ctx(fake_root({"/proc/device-tree/compatible": "raspberrypi,4-model-b\x00"}))
        )
    )
    assert group.status.value == "absent"


# -- Android / Termux ----------------------------------------------------------------------------

TERMUX = "/data/data/com.termux/files/usr"


def test_termux_with_adreno_and_turnip(fake_root, fake_tools):
    root = fake_root(
        {
            "/dev/kgsl-3d0": "",
            "/sys/class/kgsl/kgsl-3d0/gpu_model": "Adreno730v2\n",
            "/system/build.prop": "ro.build.version.release=14\nro.build.version.sdk=34\nro.product.model=SM-S908B\n",
            f"{TERMUX}/share/vulkan/icd.d/freedreno_icd.aarch64.json": "{}",
            f"{TERMUX}/lib/libvulkan_freedreno.so": "elf",
            f"{TERMUX}/var/lib/dpkg/status": "Package: mesa-vulkan-icd-freedreno\nStatus: install ok installed\nVersion: 26.0.6\n\n"
            "Package: vulkan-loader-generic\nStatus: install ok installed\nVersion: 1.4.335\n\n"
            "Package: bash\nStatus: install ok installed\nVersion: 5.2.37\n",
        }
    )
    bindir = fake_tools(
        {"getprop": '#!/bin/sh\n[ "$1" = ro.hardware.egl ] && echo adreno\nexit 0\n'}
    )
    group = _one(
        platform_android.collect(
            _ctx(root, {"PREFIX": TERMUX, "TERMUX_VERSION": "0.118.1"}, bindir)
        )
    )
    data = group.data
    assert data["termux"] is True and data["termux_version"] == "0.118.1"
    assert (
        data["android_release"] == "14"
        and data["device_model"] == "SM-S908B"
        and data["egl_hardware"] == "adreno"
    )
    assert data["kgsl"] is True and data["kgsl_gpu_model"] == "Adreno730v2"
    assert data["turnip_icds"] == [f"{TERMUX}/share/vulkan/icd.d/freedreno_icd.aarch64.json"]
    assert data["libvulkan_freedreno"] is True
    assert data["packages"] == {
        "mesa-vulkan-icd-freedreno": "26.0.6",
        "vulkan-loader-generic": "1.4.335",
    }
    assert "Adreno730v2" in group.summary


def test_not_android(fake_root):
    assert (
        _one(
            platform_android.collect(_ctx(fake_root({"/etc/os-release": "ID=debian\n"})))
        ).status.value
        == "absent"
    )


# -- VMs and vGPU --------------------------------------------------------------------------------


def _pci(slot, klass, vendor, device):
    base = f"/sys/bus/pci/devices/{slot}"
    return {
        f"{base}/class": klass + "\n",
        f"{base}/vendor": vendor + "\n",
        f"{base}/device": device + "\n",
    }


def test_vmware_guest_with_svga_only(fake_root):
    files = {
        "/sys/class/dmi/id/sys_vendor": "VMware, Inc.\n",
        "/sys/class/dmi/id/product_name": "VMware Virtual Platform\n",
    }
    files.update(_pci("0000:00:0f.0", "0x030000", "0x15ad", "0x0405"))
    files.update(
        _pci("0000:00:07.0", "0x060100", "0x8086", "0x7110")
    )  # an ISA bridge, not a display
    group = _one(platform_vm.collect(_ctx(fake_root(files))))
    data = group.data
    assert data["hypervisor"] == "VMware"
    assert data["display_adapters"] == [
        {
            "slot": "0000:00:0f.0",
            "vendor_id": "0x15ad",
            "device_id": "0x0405",
            "kind": "virtual",
            "name": "VMware SVGA II",
            "driver": None,
        }
    ]
    assert group.summary == "VM: VMware, display: VMware SVGA II"


def test_bare_metal_is_absent(fake_root):
    files = {
        "/sys/class/dmi/id/sys_vendor": "Dell Inc.\n",
        "/sys/class/dmi/id/product_name": "Precision 7920 Tower\n",
        "/proc/cpuinfo": "processor\t: 0\nflags\t\t: fpu vme de pse tsc msr\n",
    }
    files.update(_pci("0000:65:00.0", "0x030000", "0x10de", "0x2204"))
    group = _one(platform_vm.collect(_ctx(fake_root(files))))
    assert group.status.value == "absent"


def test_vgpu_guest_licence_from_nvidia_smi(fake_root, fake_tools):
    files = {
        "/sys/class/dmi/id/sys_vendor": "QEMU\n",
        "/usr/bin/nvidia-gridd": "elf",
        "/etc/nvidia/gridd.conf": (
            FIXTURES / "gridd-conf-featuretype-comments-carlab.txt"
        ).read_text(),
    }
    files.update(_pci("0000:00:10.0", "0x030200", "0x10de", "0x2230"))
    bindir = fake_tools(
        {
            "nvidia-smi": _cat(
                FIXTURES / "TRUNCATED-nvidia-smi-q-vgpu-rtxa6000-24q-unlicensed-535.183.06.txt"
            )
        }
    )
    data = _one(platform_vm.collect(_ctx(fake_root(files), bindir=bindir))).data
    vgpu = data["vgpu"]
    assert data["hypervisor"] == "KVM/QEMU"
    assert data["display_adapters"][0]["kind"] == "nvidia"
    assert vgpu["gridd_installed"] is True and vgpu["gridd_conf"] == {
        "present": True,
        "feature_type": 2,
        "server_address_set": False,
    }
    assert vgpu["licenses"] == [
        {
            "gpu": "00000000:00:10.0",
            "product_name": "NVIDIA RTX Virtual Workstation",
            "license_status": "Unlicensed",
            "licensed": False,
            "restricted": None,
            "expiry": None,
            "virtualization_mode": "VGPU",
        }
    ]


@pytest.mark.parametrize(
    "name, expected",
    [
        (
            "vgpu-nvidia-smi-q-tail-virtual-compute-server-unrestricted.txt",
            {
                "product_name": "NVIDIA Virtual Compute Server",
                "licensed": False,
                "restricted": False,
                "expiry": None,
            },
        ),
        (
            "vgpu-license-lines-nrec-virtual-compute-server-licensed.txt",
            {
                "product_name": "NVIDIA Virtual Compute Server",
                "licensed": True,
                "restricted": None,
                "expiry": "2023-1-31 11:32:22 GMT",
            },
        ),
    ],
)
def test_licence_sections_of_real_captures(name, expected):
    [entry] = platform_vm.parse_license_sections((FIXTURES / name).read_text())
    assert {k: entry[k] for k in expected} == expected


# -- OpenGL / Vulkan renderers -------------------------------------------------------------------


def test_graphics_llvmpipe_forced_and_old_mesa(fake_root, fake_tools, real_captures):
    root = fake_root(
        {
            "/var/lib/dpkg/status": "Package: libgl1-mesa-dri\nStatus: install ok installed\n"
            "Version: 21.2.6-0ubuntu0.1~20.04.2\n",
            "/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so": "elf",
        }
    )
    bindir = fake_tools(
        {
            "glxinfo": _cat(real_captures / GLX_LLVMPIPE),
            "vulkaninfo": _cat(
                FIXTURES / "vulkaninfo-summary-turnip-adreno643-ubuntu-24.04-mesa-25.2.8.txt"
            ),
        }
    )
    group = _one(
        platform_graphics.collect(
            _ctx(root, {"DISPLAY": ":0", "LIBGL_ALWAYS_SOFTWARE": "1"}, bindir)
        )
    )
    data = group.data
    assert data["glxinfo"] == "ok"
    assert (
        data["renderer"] == "llvmpipe (LLVM 10.0.0, 256 bits)"
        and data["software"] is True
        and data["d3d12"] is False
    )
    assert data["mesa_version"] == "20.0.8"
    assert data["forces_software"] == ["LIBGL_ALWAYS_SOFTWARE=1"]
    assert data["mesa_package"] == {
        "name": "libgl1-mesa-dri",
        "version": "21.2.6-0ubuntu0.1~20.04.2",
        "upstream": "21.2.6",
    }
    assert data["d3d12_driver"] is False
    assert (
        data["vulkan"][0]["device_name"] == "Turnip Adreno (TM) 643"
        and data["vulkan"][0]["software"] is False
    )
    assert "software rendering" in group.summary and "LIBGL_ALWAYS_SOFTWARE=1" in group.summary


def test_graphics_d3d12(fake_root, fake_tools, real_captures):
    root = fake_root({"/usr/lib/x86_64-linux-gnu/dri/d3d12_dri.so": "elf"})
    bindir = fake_tools({"glxinfo": _cat(real_captures / GLX_D3D12)})
    data = _one(platform_graphics.collect(_ctx(root, {"DISPLAY": ":0"}, bindir))).data
    assert (
        data["renderer"] == "D3D12 (NVIDIA GeForce RTX 3070 Ti)"
        and data["d3d12"] is True
        and data["software"] is False
    )
    assert data["d3d12_driver"] is True and data["forces_software"] == []


def test_graphics_headless_is_absent(fake_root):
    group = _one(platform_graphics.collect(_ctx(fake_root({"/etc/os-release": "ID=debian\n"}))))
    assert group.status.value == "absent"
    assert "no DISPLAY" in group.reason


def test_vulkan_summary_turnip_capture():
    [device] = platform_graphics.parse_vulkan_summary(
        (FIXTURES / "vulkaninfo-summary-turnip-adreno730-termux-kgsl-mesa-26.0.6.txt").read_text()
    )
    assert device == {
        "device_name": "Turnip Adreno (TM) 730",
        "driver_name": "turnip Mesa driver",
        "driver_info": "Mesa 26.0.6 (git-0e095aab43)",
        "device_type": "PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU",
        "software": False,
    }
