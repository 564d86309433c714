"""`check --image` / `--root`: the Python layer is the image's (#18 item 5), not envdoctor's own.

The trees below are laid out like the two common image families: a Debian/Ubuntu base with pip
installing into /usr/local/lib/python3.X/dist-packages (the NVIDIA and most CUDA images), and a
conda base under /opt/conda (the pytorch/pytorch images). The torch files are modelled on the
2.5.1+cu124 wheel (version.py assignments, WHEEL tag, a Requires-Dist pin); git_version is left out.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import tarfile
from pathlib import Path

from envdoctor import image_inspect
from envdoctor.context import ProbeContext, ProbeOptions
from envdoctor.probes import python_env, root_python, torch_build

DIST = "usr/local/lib/python3.10/dist-packages"
TORCH_VERSION_PY = (
    "from typing import Optional\n\n"
    "__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
    "__version__ = '2.5.1+cu124'\ndebug = False\ncuda: Optional[str] = '12.4'\n"
    "hip: Optional[str] = None\n"
)
TORCH_METADATA = (
    "Metadata-Version: 2.1\nName: torch\nVersion: 2.5.1+cu124\nRequires-Python: >=3.8.0\n"
    "Requires-Dist: filelock\n"
    'Requires-Dist: nvidia-cuda-runtime-cu12==12.4.127; platform_system == "Linux" and '
    'platform_machine == "x86_64"\n'
)
WHEEL = "Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: cp310-cp310-linux_x86_64\n"


def debian_image_files() -> dict[str, str]:
    return {
        "/etc/os-release": 'PRETTY_NAME="Ubuntu 22.04.5 LTS"\nID=ubuntu\nVERSION_ID="22.04"\n',
        "/usr/bin/python3.10": "",
        "/usr/lib/python3.10/os.py": "",
        "/usr/include/python3.10/patchlevel.h": '#define PY_VERSION              "3.10.12"\n',
        f"/{DIST}/torch/version.py": TORCH_VERSION_PY,
        f"/{DIST}/torch/lib/libtorch_cuda.so": "",
        f"/{DIST}/torch-2.5.1+cu124.dist-info/METADATA": TORCH_METADATA,
        f"/{DIST}/torch-2.5.1+cu124.dist-info/WHEEL": WHEEL,
        f"/{DIST}/torch-2.5.1+cu124.dist-info/INSTALLER": "pip\n",
        f"/{DIST}/nvidia_cuda_runtime_cu12-12.4.127.dist-info/METADATA": (
            "Metadata-Version: 2.1\nName: nvidia-cuda-runtime-cu12\nVersion: 12.4.127\n"
        ),
        "/usr/lib/python3/dist-packages/six-1.16.0.dist-info/METADATA": (
            "Metadata-Version: 2.1\nName: six\nVersion: 1.16.0\n"
        ),
    }


def _ctx(root: Path) -> ProbeContext:
    return ProbeContext(root=root, env={"PATH": str(root / "no-tools")}, options=ProbeOptions())


def test_debian_layout_is_described_from_files(fake_root):
    root = fake_root(debian_image_files())
    facts = root_python.describe(_ctx(root))
    assert facts is not None
    assert facts["executable"] == "/usr/bin/python3.10"
    assert facts["version"] == "3.10.12"
    assert facts["described_from"] == "files" and facts["machine"] == "x86_64"
    assert facts["packages"]["torch"] == "2.5.1+cu124"
    assert facts["packages"]["six"] == "1.16.0"  # Debian's own dist-packages is on the path too
    assert facts["locations"]["torch"] == f"/{DIST}"
    assert facts["installers"]["torch"] == "pip"
    assert sys.executable not in json.dumps(facts)  # nothing of the interpreter running envdoctor


def test_probes_read_the_images_torch_not_the_hosts(fake_root):
    root = fake_root(debian_image_files())
    ctx = _ctx(root)
    groups = {g.name: g for g in python_env.collect(ctx) + torch_build.collect(ctx)}
    assert groups["python"].data["version"] == "3.10.12"
    assert groups["python"].source.startswith("probe:python_env (files under")
    torch = groups["python.torch"]
    assert torch.status.value == "collected", torch.reason
    assert torch.data["version"] == "2.5.1+cu124"
    assert torch.data["variant"] == "cu124" and torch.data["cuda"] == "12.4"
    assert torch.data["location"] == f"/{DIST}"


def test_conda_with_torch_wins_over_a_system_python_without(fake_root):
    site = "/opt/conda/lib/python3.11/site-packages"
    files = {
        "/usr/bin/python3.12": "",
        "/usr/lib/python3.12/os.py": "",
        "/usr/lib/python3/dist-packages/six-1.16.0.dist-info/METADATA": "Name: six\nVersion: 1.16.0\n",
        "/opt/conda/conda-meta/history": "",
        f"{site}/torch-2.5.1.dist-info/METADATA": "Name: torch\nVersion: 2.5.1\n",
        f"{site}/torch/version.py": TORCH_VERSION_PY.replace("2.5.1+cu124", "2.5.1"),
    }
    ctx = _ctx(fake_root(files))
    facts = root_python.describe(ctx)
    assert facts is not None
    assert facts["environment"] == "conda" and facts["prefix"] == "/opt/conda"
    assert facts["executable"] == "/opt/conda/bin/python3.11" and facts["version"] == "3.11"
    assert "six" not in facts["packages"]
    torch = torch_build.collect(ctx)[0]
    assert torch.data["version"] == "2.5.1" and torch.data["cuda"] == "12.4"


def test_a_root_without_python_says_so(fake_root):
    ctx = _ctx(fake_root({"/etc/os-release": "ID=alpine\n"}))
    groups = python_env.collect(ctx) + torch_build.collect(ctx)
    assert all(g.status.value == "absent" for g in groups)
    assert all("no Python interpreter" in (g.reason or "") for g in groups)
    assert "this interpreter" not in " ".join(g.reason or "" for g in groups)


def _layer(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for path, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(path.lstrip("/"))
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def test_an_unpacked_saved_image_keeps_what_the_python_probes_read(tmp_path):
    """The unpacker writes only metadata-sized files' contents; those must include what the Python
    layer needs (dist-info, version.py, patchlevel.h), the rest exist as empty placeholders."""
    config = {"architecture": "amd64", "os": "linux", "config": {"Env": ["PATH=/usr/bin"]}}
    with tarfile.open(tmp_path / "image.tar", "w") as tar:
        for name, body in [
            ("0" * 64 + "/layer.tar", _layer(debian_image_files())),
            ("c" * 64 + ".json", json.dumps(config).encode()),
            (
                "manifest.json",
                json.dumps(
                    [
                        {
                            "Config": "c" * 64 + ".json",
                            "RepoTags": ["t:1"],
                            "Layers": ["0" * 64 + "/layer.tar"],
                        }
                    ]
                ).encode(),
            ),
        ]:
            info = tarfile.TarInfo(name)
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
    root = tmp_path / "root"
    image_inspect.unpack_saved_image(tmp_path / "image.tar", root)
    ctx = _ctx(root)
    facts = root_python.describe(ctx)
    assert facts is not None and facts["version"] == "3.10.12"
    torch = torch_build.collect(ctx)[0]
    assert torch.data["version"] == "2.5.1+cu124" and torch.data["variant"] == "cu124"


def test_check_root_cli_reports_the_images_python_and_says_the_target(fake_root):
    root = fake_root(debian_image_files())
    result = subprocess.run(
        [sys.executable, "-m", "envdoctor", "check", "--root", str(root), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode in (0, 1), result.stderr
    report = json.loads(result.stdout)
    groups = report["snapshot"]["groups"]
    assert groups["python"]["data"]["executable"] == "/usr/bin/python3.10"
    assert groups["python"]["source"].startswith("image:root ")
    assert groups["python.torch"]["data"]["version"] == "2.5.1+cu124"
    assert "this interpreter" not in json.dumps(groups["python.torch"])
    target = groups["container.target"]["data"]
    assert target["kind"] == "root" and target["root"] == str(root)
    assert target["python_from"] == "files" and "python" in target["image_layers"]


def test_site_packages_without_an_interpreter_file_still_counts(fake_root):
    """An image built from a root filesystem may carry /usr/local's site-packages without the
    binary the python images have: torch there is still the image's torch."""
    site = "/usr/local/lib/python3.12/site-packages"
    ctx = _ctx(
        fake_root(
            {
                f"{site}/torch/version.py": TORCH_VERSION_PY,
                f"{site}/torch-2.5.1+cu124.dist-info/METADATA": TORCH_METADATA,
            }
        )
    )
    facts = root_python.describe(ctx)
    assert facts is not None and facts["executable"] == "/usr/local/bin/python3.12"
    assert facts["executable_found"] is False
    assert torch_build.collect(ctx)[0].data["version"] == "2.5.1+cu124"


def test_an_images_torch_is_judged_against_the_hosts_kepler_driver(fake_root):
    """Issue #18 item 5: torch 2.5.1+cu124 in the image, a Tesla K80 on driver 470 on the host. The
    image's torch is what gets judged (CUDA 12.4 cannot run on 470, and 2.5's cu124 build has no
    sm_37), and no fix may name a driver past Kepler's last branch, R470 (NVIDIA's architecture
    matrix)."""
    from envdoctor.diagnose import diagnose
    from envdoctor.matrixset import load_bundled
    from envdoctor.snapshot import Snapshot, collected

    root = fake_root(debian_image_files())
    ctx = _ctx(root)
    inner = Snapshot(origin="live")
    inner.extend(python_env.collect(ctx) + torch_build.collect(ctx))
    host = Snapshot(origin="live")
    host.add(
        collected(
            "nvidia.driver",
            "probe:nvidia_gpu",
            {"driver_version": "470.256.02", "cuda_driver_max": "11.4", "driver_loaded": True},
        )
    )
    host.add(
        collected(
            "nvidia.gpus",
            "probe:nvidia_gpu",
            {"gpus": [{"index": 0, "name": "Tesla K80", "compute_capability": "3.7"}]},
        )
    )
    snap = image_inspect.merge(host, inner, None, f"root {root}")
    assert snap.data("python.torch")["version"] == "2.5.1+cu124"
    assert snap.data("container.target")["kind"] == "root"
    report = diagnose(snap, matrices=load_bundled())
    torch_findings = [f for f in report.findings if f.id.startswith("torch.")]
    assert any(f.severity.value == "error" for f in torch_findings), [f.id for f in report.findings]
    texts = [" ".join([x.summary, *x.commands]) for f in report.findings for x in f.fixes]
    assert texts, "an error with no fix shown"
    assert not [t for t in texts if re.search(r"driver[^0-9]{0,30}(4[89]\d|[5-9]\d\d)", t)], texts
