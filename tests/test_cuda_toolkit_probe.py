"""The cuda_toolkit probe on fake roots built from real toolkit files, and the nvcc reader."""

from __future__ import annotations

import pytest

from envdoctor.ingest import ingest_text, nvcc_version
from envdoctor.model.snapshot import Status
from envdoctor.probes import cuda_toolkit
from envdoctor.probes.context import ProbeContext
from tests.cuda_trees import (
    SITE,
    context,
    fixture_text,
    link,
    nvcc_script,
    put,
    this_machine,
    toolkit,
)


def _toolkits(root, env):
    [group] = cuda_toolkit.collect(context(root, env))
    return group


def test_this_machine_layout_gives_13_0_88_through_the_wrapper(fake_root):
    root = fake_root({})
    this_machine(root)
    group = _toolkits(root, {"PATH": "/usr/local/bin:/usr/bin"})
    data = group.data
    [tk] = data["toolkits"]
    assert (tk["real_path"], tk["version"], tk["version_source"]) == (
        "/usr/local/cuda-13.0",
        "13.0.88",
        "dist-info",
    )
    assert tk["nvcc_version"] is None  # binaries under a non-live root are never run
    assert data["default_path"] == "/usr/local/cuda-13.0"
    assert data["default_link"]["chain"] == ["/usr/local/cuda", "/usr/local/cuda-13.0"]
    nvcc = data["nvcc_on_path"]
    assert (nvcc["path"], nvcc["resolved"], nvcc["via"]) == (
        "/usr/local/bin/nvcc",
        "/usr/local/cuda-13.0/bin/nvcc",
        "wrapper",
    )
    assert (nvcc["toolkit"], nvcc["version"], nvcc["error"]) == (
        "/usr/local/cuda-13.0",
        None,
        cuda_toolkit.NOT_RUN,
    )
    assert group.summary == "CUDA 13.0.88 at /usr/local/cuda-13.0 (/usr/local/cuda, nvcc on PATH)"


def test_version_json_gives_the_sdk_release_and_alternatives_links_are_followed(fake_root):
    root = fake_root({})
    toolkit(root, "/usr/local/cuda-12.8", version_json="version.json-12.8.2")
    link(root, "/etc/alternatives/cuda", "/usr/local/cuda-12.8")
    link(root, "/usr/local/cuda", "/etc/alternatives/cuda")
    data = _toolkits(root, {"PATH": "/usr/bin"}).data
    [tk] = data["toolkits"]
    assert (tk["version"], tk["release"], tk["version_source"], tk["sdk_version"]) == (
        "12.8.2",
        "12.8",
        "version.json",
        "12.8.2",
    )
    assert data["default_link"]["chain"] == [
        "/usr/local/cuda",
        "/etc/alternatives/cuda",
        "/usr/local/cuda-12.8",
    ]
    assert data["nvcc_on_path"] is None


def test_old_toolkit_version_txt_and_run_file_date_versions(fake_root):
    root = fake_root({})
    toolkit(root, "/usr/local/cuda-11.0", version_txt="version.txt-11.0.207")
    # a run-file install writes a date as the SDK update ("12.6.20241114"): use cuda_nvcc instead
    put(
        root,
        "/opt/cuda-12.6/version.json",
        '{"cuda" : {"name" : "CUDA SDK", "version" : "12.6.20241114"},\n'
        ' "cuda_nvcc" : {"name" : "CUDA NVCC", "version" : "12.6.85"}}\n',
    )
    data = _toolkits(root, {}).data
    by_path = {tk["real_path"]: tk for tk in data["toolkits"]}
    assert (
        by_path["/usr/local/cuda-11.0"]["version"],
        by_path["/usr/local/cuda-11.0"]["version_source"],
    ) == ("11.0.207", "version.txt")
    assert (by_path["/opt/cuda-12.6"]["version"], by_path["/opt/cuda-12.6"]["sdk_version"]) == (
        "12.6.85",
        "12.6.20241114",
    )
    assert data["default_path"] is None


def test_path_order_cuda_home_conda_and_pip_nvcc(fake_root):
    root = fake_root({})
    toolkit(
        root,
        "/usr/local/cuda-10.0",
        nvcc_capture="unidentified-nvcc-version-10.0.130-no-build-line.txt",
    )
    toolkit(
        root, "/usr/local/cuda-12.4", nvcc_capture="nvcc-version-12.4.131-pytorch-issue-134929.txt"
    )
    put(root, "/opt/conda/conda-meta/cudatoolkit-11.8.0-h6a678d5_0.json", "{}")
    put(root, "/opt/conda/conda-meta/python-3.11.9-h955ad1f_0.json", "{}")
    put(
        root,
        f"{SITE}/nvidia_cuda_nvcc_cu12-12.4.131.dist-info/METADATA",
        "Name: nvidia-cuda-nvcc-cu12\n",
    )
    put(root, f"{SITE}/nvidia/cuda_nvcc/bin/nvcc", "#!/bin/sh\nexit 1\n", mode=0o755)
    env = {
        "PATH": "/usr/local/cuda-12.4/bin:/usr/local/cuda-10.0/bin:/usr/bin",
        "CUDA_HOME": "/usr/local/cuda-10.0",
        "CONDA_PREFIX": "/opt/conda",
        "VIRTUAL_ENV": "/opt/venv",
    }
    data = _toolkits(root, env).data
    assert data["nvcc_all_on_path"] == [
        "/usr/local/cuda-12.4/bin/nvcc",
        "/usr/local/cuda-10.0/bin/nvcc",
    ]
    assert data["nvcc_on_path"]["toolkit"] == "/usr/local/cuda-12.4"
    assert data["cuda_home"] == {"CUDA_HOME": "/usr/local/cuda-10.0"}
    by_path = {tk["real_path"]: tk for tk in data["toolkits"]}
    assert by_path["/usr/local/cuda-10.0"]["found_via"] == [
        "directory",
        "CUDA_HOME",
        "PATH (shadowed)",
    ]
    assert (
        by_path["/usr/local/cuda-10.0"]["version"] is None
    )  # only nvcc could tell, and it is not run here
    assert by_path["/opt/conda"]["origin"] == "conda"
    assert by_path["/opt/conda"]["version"] == "11.8.0"
    assert data["conda"] == [{"prefix": "/opt/conda", "packages": {"cudatoolkit": "11.8.0"}}]
    assert data["pip"][0]["name"] == "nvidia-cuda-nvcc-cu12"
    assert by_path[f"{SITE}/nvidia/cuda_nvcc"]["origin"] == "pip-wheel"
    assert by_path[f"{SITE}/nvidia/cuda_nvcc"]["version"] == "12.4.131"


def test_no_toolkit_is_absent_with_the_places_searched(fake_root):
    group = _toolkits(fake_root({"/etc/os-release": "ID=debian\n"}), {"PATH": "/usr/bin"})
    assert group.status is Status.ABSENT
    assert "/usr/local/cuda" in group.reason and "nvcc on PATH" in group.reason


def _live_toolkit(tmp_path, env_path):
    group = cuda_toolkit.collect(
        ProbeContext(root="/", env={"PATH": env_path, "HOME": str(tmp_path)})
    )[0]
    return group.data


def test_on_the_live_root_nvcc_runs_through_its_wrapper(tmp_path):
    tk = tmp_path / "cuda-12.4"
    put(tk, "/bin/nvcc", nvcc_script("nvcc-version-12.4.131-pytorch-issue-134929.txt"), mode=0o755)
    put(tmp_path, "/bin/nvcc", f'#!/bin/sh\nexec {tk}/bin/nvcc "$@"\n', mode=0o755)
    data = _live_toolkit(tmp_path, f"{tmp_path}/bin")
    nvcc = data["nvcc_on_path"]
    assert (nvcc["via"], nvcc["resolved"], nvcc["version"], nvcc["release"]) == (
        "wrapper",
        f"{tk}/bin/nvcc",
        "12.4.131",
        "12.4",
    )
    mine = next(t for t in data["toolkits"] if t["real_path"] == str(tk))
    assert (mine["version"], mine["version_source"], mine["nvcc_version"]) == (
        "12.4.131",
        "nvcc",
        "12.4.131",
    )


def test_on_the_live_root_a_broken_nvcc_leaves_the_file_version_and_a_reason(tmp_path):
    tk = tmp_path / "cuda-12.8"
    toolkit(tk, "/", version_json="version.json-12.8.2")
    put(tk, "/bin/nvcc", "#!/bin/sh\necho 'cannot execute' >&2\nexit 126\n", mode=0o755)
    data = _live_toolkit(tmp_path, f"{tk}/bin")
    mine = next(t for t in data["toolkits"] if t["real_path"] == str(tk))
    assert mine["version"] == "12.8.2"
    assert "exited 126: cannot execute" in data["nvcc_on_path"]["error"]


@pytest.mark.parametrize(
    "capture, version, release",
    [
        ("nvcc-version-13.0.88-envdoctor-dev-container.txt", "13.0.88", "13.0"),
        ("nvcc-version-12.4.131-pytorch-issue-134929.txt", "12.4.131", "12.4"),
        ("unidentified-nvcc-version-10.0.130-no-build-line.txt", "10.0.130", "10.0"),
    ],
)
def test_nvcc_reader_reads_real_captures(capture, version, release):
    text = fixture_text(f"nvcc/{capture}")
    assert nvcc_version.detect(text)
    [group] = nvcc_version.read(text)
    assert group.source == "pasted:nvcc-version" and group.confidence.value == "medium"
    assert (group.data["nvcc_on_path"]["version"], group.data["toolkits"][0]["release"]) == (
        version,
        release,
    )
    snap = ingest_text("my nvcc says:\n" + text)
    assert snap.fact("cuda.toolkits", "nvcc_on_path")["version"] == version


def test_nvcc_reader_ignores_other_text():
    assert not nvcc_version.detect("CUDA Version: 12.4 | Driver Version: 550.54.14")
    assert nvcc_version.read("nothing here") == []
