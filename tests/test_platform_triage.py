"""`envdoctor triage` on real platform captures: WSL 2 nvidia-smi tables, glxinfo -B, Jetson release
files, native Windows nvidia-smi, collect_env from Windows and macOS, vGPU `nvidia-smi -q`. Each must
name the platform and, where there is one, the problem."""

from __future__ import annotations

from pathlib import Path

from envdoctor.commands.triage import triage_text
from envdoctor.ingest import ingest_text, tegra_release

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "platform"
WSL_TABLE = "nvidia-smi-text/unidentified-blog-wsl2-rtx4060-laptop-smi-545.46-driver-546.80.txt"
WSL_ERR = (
    "nvidia-smi-text/TRUNCATED-wsl2-cuda-version-err-rtx3060-laptop-microsoft-WSL-issue-11589.txt"
)
GLX_LLVMPIPE = "misc/glxinfo-B-wsl2-llvmpipe-mesa-20.0.8-rtx3090-host-microsoft-WSL-issue-10245.txt"
GLX_D3D12 = "misc/glxinfo-B-wsl2-docker-d3d12-rtx3070ti-mesa-22.2.5-egl-in-docker.txt"
WINDOWS_TABLE = "nvidia-smi-text/nvexp-rtx2080super-windows-591.86.txt"


def _ids(report):
    return {f.id: f for f in report.findings}


def test_wsl2_nvidia_smi_table_names_wsl_and_the_windows_driver(real_captures):
    found = _ids(triage_text((real_captures / WSL_TABLE).read_text()))
    ident = found["platform.identified"]
    assert ident.title == (
        "The pasted output comes from WSL 2, on Windows NVIDIA driver 546.80 "
        "(the Linux nvidia-smi is 545.46)"
    )
    assert "never be installed inside WSL" in ident.detail
    assert "wsl.driver-cuda-version-err" not in found


def test_wsl2_cuda_version_err_names_the_problem(real_captures):
    report = triage_text((real_captures / WSL_ERR).read_text())
    found = _ids(report)
    assert report.findings[0].id == "wsl.driver-cuda-version-err"
    assert "CUDA Version: ERR!" in found["wsl.driver-cuda-version-err"].title
    assert "platform.identified" in found


def test_glxinfo_llvmpipe_alone_reports_software_rendering_without_guessing_the_platform(
    real_captures,
):
    found = _ids(triage_text((real_captures / GLX_LLVMPIPE).read_text()))
    soft = found["platform.software-rendering"]
    assert "llvmpipe" in soft.title and "Mesa 20.0.8" in soft.title
    assert "does not say whether it is WSL" in soft.detail
    assert soft.fixes[0].commands[0] == "uname -r"
    assert "If it is WSL 2: Mesa 20.0.8 is older than 21.0" in soft.fixes[1].summary
    assert "wsl.software-rendering" not in found


def test_glxinfo_llvmpipe_with_a_wsl_kernel_names_wsl_and_the_cause(real_captures):
    text = (
        "$ uname -r\n5.15.90.1-microsoft-standard-WSL2\n$ glxinfo -B\n"
        + (real_captures / GLX_LLVMPIPE).read_text()
    )
    report = triage_text(text)
    found = _ids(report)
    soft = found["wsl.software-rendering"]
    assert report.findings[0].id == "wsl.software-rendering"
    assert "Mesa 20.0.8 is older than 21.0" in soft.detail
    assert soft.evidence[2].actual == "20.0.8" and soft.evidence[2].expected == ">= 21.0"
    assert "platform.software-rendering" not in found
    assert found["platform.identified"].title.startswith("The pasted output comes from WSL")


def test_glxinfo_d3d12_names_wsl2_and_no_problem(real_captures):
    found = _ids(triage_text((real_captures / GLX_D3D12).read_text()))
    assert found["platform.identified"].title == "The pasted output comes from WSL 2"
    assert (
        "OpenGL renderer: D3D12 (NVIDIA GeForce RTX 3070 Ti)" in found["platform.identified"].detail
    )
    assert not [f for f in found.values() if f.severity.value != "info"]


def test_windows_nvidia_smi_table(real_captures):
    found = _ids(triage_text((real_captures / WINDOWS_TABLE).read_text()))
    assert (
        found["platform.identified"].title
        == "The pasted output comes from native Windows, NVIDIA driver 591.86 (WDDM mode)"
    )


def test_windows_collect_env_cpu_torch(real_captures):
    text = (
        real_captures
        / "collect_env/torch-1.4.0+cpu-windows10-home-cpu-only-pytorch-issue-33473.txt"
    ).read_text()
    found = _ids(triage_text(text))
    assert found["platform.identified"].title == "The pasted output comes from native Windows"
    assert (
        "windows.pip-cpu-torch" not in found
    )  # no GPU in the paste: nothing says the CPU build is wrong


def test_macos_collect_env(real_captures):
    text = (
        real_captures / "collect_env/torch-1.12.1-macos12.5-arm64-pytorch-issue-83533.txt"
    ).read_text()
    found = _ids(triage_text(text))
    assert found["platform.identified"].title == "The pasted output comes from macOS (arm64)"


def test_jetson_release_files(real_captures):
    for name, l4t, jetpack in (
        ("unidentified-nv-tegra-release-R36.4.3-orin-nx-jetpack-6.2.txt", "36.4.3", "JetPack 6.2"),
        (
            "unidentified-nv-tegra-release-R36.4.4-seeed-recomputer-vendor-lines.txt",
            "36.4.4",
            "JetPack 6.2.1",
        ),
        (
            "unidentified-nv-tegra-release-R32.4.4-agx-xavier-t186ref-first-line.txt",
            "32.4.4",
            "JetPack 4.4.1",
        ),
    ):
        found = _ids(triage_text((real_captures / "misc" / name).read_text()))
        title = found["platform.identified"].title
        assert f"L4T {l4t}" in title and jetpack in title, title
        assert "jetson.gpu-monitoring" in found


def test_jetson_proc_driver_version(real_captures):
    text = (
        real_captures
        / "misc/proc-driver-nvidia-version-jetson-orin-nx-aarch64-35.3.1-nixGL-issue-139.txt"
    ).read_text()
    found = _ids(triage_text(text))
    assert (
        found["platform.identified"].title
        == "The pasted output comes from an NVIDIA Jetson, L4T 35.3.1"
    )


def test_vgpu_q_log_reports_the_missing_licence():
    found = _ids(
        triage_text(
            (
                FIXTURES / "TRUNCATED-nvidia-smi-q-vgpu-rtxa6000-24q-unlicensed-535.183.06.txt"
            ).read_text()
        )
    )
    assert "nvidia.vgpu-unlicensed" in found


def test_tegra_release_reader_on_real_captures(real_captures):
    seeed = tegra_release.parse(
        (
            real_captures
            / "misc/unidentified-nv-tegra-release-R36.4.4-seeed-recomputer-vendor-lines.txt"
        ).read_text()
    )
    assert (
        seeed["l4t_version"] == "36.4.4"
        and seeed["gcid"] == "41062509"
        and seeed["board"] == "generic"
    )
    assert seeed["extra_lines"][0].startswith(
        "# Seeed Image Name mfi_recomputer-robo-agx-orin-32g-j501-6.2.1-36.4.4"
    )
    old = tegra_release.parse(
        (
            real_captures
            / "misc/unidentified-nv-tegra-release-R32.4.4-agx-xavier-t186ref-first-line.txt"
        ).read_text()
    )
    assert (
        old["l4t_version"] == "32.4.4"
        and old["board"] == "t186ref"
        and old["kernel_variant"] is None
    )
    assert old["release_date"] == "Fri Oct 16 19:37:08 UTC 2020"
    snap = ingest_text(
        (
            real_captures / "misc/unidentified-nv-tegra-release-R36.4.3-orin-nx-jetpack-6.2.txt"
        ).read_text()
    )
    assert snap.group("platform.jetson").source == "pasted:tegra_release"
    assert snap.data("pasted.parts")["parts"][0]["reader"] == "tegra-release"
    assert tegra_release.parse("R36 but not a release file") is None
    assert not tegra_release.detect("OpenGL renderer string: llvmpipe")
