"""`envdoctor check --root DIR`: the software layers come from the unpacked root, the GPU and
driver facts from this host."""

from __future__ import annotations

import json
import subprocess
import sys


def test_root_layers_from_the_tree_and_driver_facts_from_the_host(fake_root):
    root = fake_root(
        {
            "/etc/os-release": 'PRETTY_NAME="Ubuntu 22.04.4 LTS"\nID=ubuntu\nVERSION_ID="22.04"\n',
            "/usr/local/cuda-12.4/version.json": '{"cuda": {"name": "CUDA SDK", "version": "12.4.1"}}',
        },
        symlinks={"/usr/local/cuda": "cuda-12.4"},
    )
    result = subprocess.run(
        [sys.executable, "-m", "envdoctor", "check", "--root", str(root), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode in (0, 1), result.stderr
    groups = json.loads(result.stdout)["snapshot"]["groups"]
    assert groups["os"]["data"]["distro_id"] == "ubuntu"
    assert groups["os"]["source"].startswith("image:root ")
    versions = [t["version"] for t in groups["cuda.toolkits"]["data"]["toolkits"]]
    assert versions == ["12.4.1"]
    assert not groups["nvidia.pci"]["source"].startswith("image:")  # the host's bus, not the tree's


def test_missing_root_is_a_usage_error(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "envdoctor", "check", "--root", str(tmp_path / "nope")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "not a directory" in result.stderr
