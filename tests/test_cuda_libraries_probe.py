"""The cuda_libraries probe (cuda.libraries, cuda.env) on fake roots from real wheel layouts."""

from __future__ import annotations

from envdoctor.probes import cuda_libraries
from tests.cuda_trees import (
    SITE,
    context,
    install_wheel,
    ldconfig_tool,
    link,
    put,
    this_machine,
    toolkit,
)


def _collect(root, env):
    libraries, env_group = cuda_libraries.collect(context(root, env))
    return libraries.data, env_group.data


def _copy(copies, soname, origin=None):
    found = [
        c for c in copies if c["soname"] == soname and (origin is None or c["origin"] == origin)
    ]
    assert found, f"no copy of {soname} ({origin})"
    return found[0]


def test_real_ldconfig_listing_of_this_machine(fake_root, fake_tools):
    root = fake_root({})
    this_machine(root)
    tools = ldconfig_tool(fake_tools, "ldconfig-p-debian12-cuda13.0-container.txt")
    data, _ = _collect(root, {"PATH": tools})
    assert data["ldconfig"] == {"ran": True, "error": None, "entries": 1, "how": "ran ldconfig -p"}
    cudart = _copy(data["copies"], "libcudart.so.13")
    assert (cudart["path"], cudart["via"], cudart["origin"], cudart["wins"]) == (
        "/usr/local/cuda-13.0/lib/libcudart.so.13",
        "ldconfig",
        "toolkit",
        True,
    )
    assert (cudart["version"], cudart["version_source"]) == ("13.0.96", "toolkit-manifest")
    assert data["winners"] == {"libcudart.so.13": "/usr/local/cuda-13.0/lib/libcudart.so.13"}
    assert not any(c["family"] == "driver" for c in data["copies"])


def test_missing_ldconfig_is_a_reason_not_a_crash(fake_root):
    data, _ = _collect(fake_root({}), {"PATH": "/nonexistent"})
    assert data["ldconfig"]["ran"] is False and data["ldconfig"]["error"] == "ldconfig not found"
    assert data["copies"] == []


def test_without_ldconfig_the_ld_so_conf_dirs_are_read(fake_root):
    # this machine's files: ld.so.conf includes ld.so.conf.d/*.conf; zz-cuda-13-0.conf names the toolkit
    root = fake_root(
        {
            "/etc/ld.so.conf": "include /etc/ld.so.conf.d/*.conf\n\n",
            "/etc/ld.so.conf.d/libc.conf": "# libc default configuration\n/usr/local/lib\n",
            "/etc/ld.so.conf.d/zz-cuda-13-0.conf": "/usr/local/cuda-13.0/lib\n",
        }
    )
    this_machine(root)
    data, _ = _collect(root, {"PATH": "/nonexistent"})
    assert data["ldconfig"]["conf_dirs"] == ["/usr/local/lib", "/usr/local/cuda-13.0/lib"]
    assert _copy(data["copies"], "libcudart.so.13")["via"] == "ldconfig"


def test_wheels_versions_and_ld_library_path_shadowing(fake_root):
    root = fake_root({})
    for wheel in (
        "nvidia_cuda_runtime_cu12-12.4.127.dist-info",
        "nvidia_nvjitlink_cu12-12.4.127.dist-info",
        "nvidia_cusparse_cu12-12.3.1.170.dist-info",
    ):
        install_wheel(root, wheel)
    install_wheel(root, "torch-2.5.1.dist-info")
    toolkit(
        root,
        "/usr/local/cuda-12.1",
        libs={
            "libnvJitLink.so.12": "libnvJitLink.so.12.1.105",
            "libcudart.so.12": "libcudart.so.12.1.105",
        },
    )
    put(
        root,
        "/root/.bashrc",
        "# ~/.bashrc\nalias ll='ls -l'\nexport LD_LIBRARY_PATH=/usr/local/cuda-12.1/lib64:$LD_LIBRARY_PATH\n"
        "export PATH=/usr/local/cuda-12.1/bin:$PATH\nexport PATH=$HOME/bin:$PATH\n",
    )
    data, env = _collect(
        root,
        {
            "PATH": "/nonexistent",
            "VIRTUAL_ENV": "/opt/venv",
            "LD_LIBRARY_PATH": "/usr/local/cuda-12.1/lib64:",
        },
    )
    wheel_jit = _copy(data["copies"], "libnvJitLink.so.12", "pip-wheel")
    assert (wheel_jit["package"], wheel_jit["version"], wheel_jit["version_source"]) == (
        "nvidia-nvjitlink-cu12",
        "12.4.127",
        "wheel-metadata",
    )
    assert wheel_jit["path"] == f"{SITE}/nvidia/nvjitlink/lib/libnvJitLink.so.12"
    assert wheel_jit["shadowed_by"]["path"] == "/usr/local/cuda-12.1/lib64/libnvJitLink.so.12"
    assert wheel_jit["shadowed_by"]["version"] == "12.1.105"
    toolkit_jit = _copy(data["copies"], "libnvJitLink.so.12", "toolkit")
    assert toolkit_jit["via"] == "LD_LIBRARY_PATH[0]" and toolkit_jit["wins"]
    assert _copy(data["copies"], "libcusparse.so.12")["version"] == "12.3.1.170"
    wheels = {w["name"]: w for w in data["wheels"]}
    assert wheels["nvidia-nvjitlink-cu12"]["cuda_major"] == 12
    assert "torch" in data["framework_requires"]
    assert any(
        "nvidia-nvjitlink-cu12 (==12.4.127)" in line for line in data["framework_requires"]["torch"]
    )
    entries = env["LD_LIBRARY_PATH"]["entries"]
    assert [e["path"] for e in entries] == ["/usr/local/cuda-12.1/lib64", ""]
    assert entries[1]["cwd"] is True
    shadowed = {(s["soname"], s["path"]) for s in entries[0]["shadows"]}
    assert ("libnvJitLink.so.12", wheel_jit["path"]) in shadowed
    lines = [(line["line"], line["variables"]) for line in env["profile_lines"]]
    assert lines == [(3, ["LD_LIBRARY_PATH"]), (4, ["PATH"])]


def test_cuda13_wheel_layout_and_cudnn_header_and_vendored_cudnn(fake_root):
    root = fake_root({})
    install_wheel(root, "nvidia_cuda_runtime-13.0.96.dist-info")
    install_wheel(root, "ctranslate2-4.4.0.dist-info")
    put(root, "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.9.7")
    link(root, "/usr/lib/x86_64-linux-gnu/libcudnn.so.8", "libcudnn.so.8.9.7")
    put(
        root,
        "/usr/include/x86_64-linux-gnu/cudnn_version_v8.h",
        "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n"
        "#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n",
    )
    data, _ = _collect(root, {"PATH": "/nonexistent", "VIRTUAL_ENV": "/opt/venv"})
    cudart = _copy(data["copies"], "libcudart.so.13")
    assert (cudart["origin"], cudart["version"], cudart["path"]) == (
        "pip-wheel",
        "13.0.96",
        f"{SITE}/nvidia/cu13/lib/libcudart.so.13",
    )
    assert {w["name"]: w["cuda_major"] for w in data["wheels"]}["nvidia-cuda-runtime"] == 13
    system = _copy(data["copies"], "libcudnn.so.8", "system")
    assert (system["version"], system["via"]) == ("8.9.7", "default-dir")
    assert data["cudnn_headers"] == [
        {"path": "/usr/include/x86_64-linux-gnu/cudnn_version_v8.h", "version": "8.9.7"}
    ]
    [consumer] = data["consumers"]
    assert consumer["package"] == "ctranslate2" and consumer["version"] == "4.4.0"
    assert (consumer["kind"], consumer["cudnn_major"], consumer["has_sublibraries"]) == (
        "vendored",
        8,
        False,
    )
    assert consumer["evidence"].endswith("ctranslate2.libs/libcudnn-463fd6d5.so.8.9.7")


def test_ld_preload_and_conda_env(fake_root):
    root = fake_root({})
    put(root, "/opt/conda/conda-meta/cudatoolkit-11.8.0-h6a678d5_0.json", "{}")
    put(root, "/opt/conda/conda-meta/cudnn-8.9.2.26-cuda11_0.json", "{}")
    put(root, "/opt/conda/lib/libcudart.so.11.8.89")
    link(root, "/opt/conda/lib/libcudart.so.11.0", "libcudart.so.11.8.89")
    put(root, "/opt/preload/libcudnn.so.9.0.0")
    data, env = _collect(
        root,
        {
            "PATH": "/nonexistent",
            "CONDA_PREFIX": "/opt/conda",
            "LD_PRELOAD": "/opt/preload/libcudnn.so.9.0.0",
        },
    )
    conda = _copy(data["copies"], "libcudart.so.11.0", "conda")
    assert (conda["version"], conda["via"], conda["wins"]) == ("11.8.89", "not-searched", False)
    preload = _copy(data["copies"], "libcudnn.so.9")
    assert (preload["via"], preload["wins"]) == ("LD_PRELOAD", True)
    packages = data["conda"][0]["packages"]
    assert packages["cudatoolkit"]["cuda_major"] == 11 and packages["cudnn"]["cuda_major"] == 11
    assert env["LD_PRELOAD"]["entries"][0]["libraries"] == ["libcudnn.so.9"]
