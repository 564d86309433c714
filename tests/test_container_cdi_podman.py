"""CDI specs (a real nvidia-ctk spec, the block-YAML reader, the probe on a fake root) and Podman
(the real podman where installed, and its captured JSON)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from envdoctor.probes import container_cdi, container_cdi_yaml, container_podman
from envdoctor.probes.context import ProbeContext

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "container"
SPEC = FIXTURES / "cdi" / "salilkadam-nvidia-ctk-1.17.8-driver-575.64.03-1gpu.yaml"


def test_real_nvidia_ctk_spec_facts():
    facts = container_cdi.spec_facts(SPEC.read_text(), str(SPEC))
    assert facts["cdi_version"] == "0.5.0" and facts["kind"] == "nvidia.com/gpu"
    assert facts["devices"] == ["0", "GPU-520e01f2-cf30-6396-abef-e8e9a5233b0e", "all"]
    assert facts["uuids"] == ["GPU-520e01f2-cf30-6396-abef-e8e9a5233b0e"]
    assert facts["driver_version"] == "575.64.03"
    assert facts["device_nodes"]["0"] == ["/dev/nvidia0", "/dev/dri/card1", "/dev/dri/renderD128"]


def test_block_yaml_reader_matches_pyyaml_on_the_real_spec():
    yaml = pytest.importorskip("yaml")
    ours = container_cdi_yaml.loads(SPEC.read_text())
    theirs = yaml.safe_load(SPEC.read_text())

    def text(value):
        if isinstance(value, dict):
            return {str(k): text(v) for k, v in value.items()}
        if isinstance(value, list):
            return [text(v) for v in value]
        return None if value is None else str(value)

    assert text(ours) == text(theirs)


def test_block_yaml_reader_edge_cases():
    doc = container_cdi_yaml.loads(
        '---\n# c\nkind: "vendor.com/x"\nlist:\n- a\n- "b: c"\n- k: v\n  j: w\nempty: []\n'
        "quoted: 'it''s'\nblock: |-\n  one\n  two\nnested:\n  deep:\n    - 1\n"
    )
    assert doc == {
        "kind": "vendor.com/x",
        "list": ["a", "b: c", {"k": "v", "j": "w"}],
        "empty": [],
        "quoted": "it's",
        "block": "one\ntwo",
        "nested": {"deep": ["1"]},
    }
    with pytest.raises(ValueError, match="line 2"):
        container_cdi_yaml.loads("a: 1\n  b: 2\n")


def test_probe_reads_specs_from_the_spec_dirs(fake_root):
    json_spec = json.dumps(
        {
            "cdiVersion": "0.6.0",
            "kind": "amd.com/gpu",
            "devices": [{"name": "all", "containerEdits": {}}],
        }
    )
    root = fake_root(
        {
            "/etc/cdi/nvidia.yaml": SPEC.read_text(),
            "/var/run/cdi/amd.json": json_spec,
            "/var/run/cdi/broken.yaml": "kind: x\n  bad: indent\n",
            "/etc/cdi/README": "not a spec",
        }
    )
    [group] = container_cdi.collect(ProbeContext(root=root, env={}))
    data = group.data
    assert data["kinds"] == ["amd.com/gpu", "nvidia.com/gpu"]
    assert "nvidia.com/gpu=all" in data["devices"] and "amd.com/gpu=all" in data["devices"]
    assert [s["path"] for s in data["specs"]] == [
        "/etc/cdi/nvidia.yaml",
        "/var/run/cdi/amd.json",
        "/var/run/cdi/broken.yaml",
    ]
    assert "cannot parse" in data["specs"][2]["error"]


def test_no_spec_is_absent(fake_root):
    [group] = container_cdi.collect(ProbeContext(root=fake_root({"/etc/hostname": "x\n"}), env={}))
    assert group.status.value == "absent" and "/var/run/cdi" in group.reason


def test_podman_info_capture():
    info = json.loads((FIXTURES / "podman" / "podman-4.3.1-debian12-root-info.json").read_text())
    assert container_podman.facts_from_info(info) == {
        "version": "4.3.1",
        "api_version": "4.3.1",
        "rootless": False,
        "cgroup_manager": "cgroupfs",
        "cgroup_version": "v1",
        "oci_runtime": "runc",
    }


def test_real_podman_probe():
    if shutil.which("podman") is None:
        pytest.skip("podman is not installed (apt-get install podman)")
    [group] = container_podman.collect(ProbeContext())
    assert group.collected and group.data["version"], group.data
    assert group.data["cgroup_version"] in ("v1", "v2")
    assert "version_error" not in group.data


def test_podman_absent_and_broken(tmp_path, fake_tools):
    [group] = container_podman.collect(ProbeContext(env={"PATH": str(tmp_path / "none")}))
    assert group.status.value == "absent"
    path = fake_tools(
        {
            "podman": "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'podman version 5.0.2'; exit 0; fi\n"
            "echo 'Error: cannot re-exec process' >&2; exit 125\n"
        }
    )
    [group] = container_podman.collect(ProbeContext(env={"PATH": path}))
    assert group.data["version"] == "5.0.2" and "version_error" not in group.data
    path = fake_tools({"podman": "#!/bin/sh\necho 'Error: cannot re-exec process' >&2; exit 125\n"})
    [group] = container_podman.collect(ProbeContext(env={"PATH": path}))
    assert group.data["version"] is None and "cannot re-exec" in group.data["version_error"]


def test_packaged_podman_version_is_read_from_dpkg(tmp_path):
    """A podman binary that dpkg's podman.list names: its version from the status file, and the
    binary is not run (it is a script that would fail)."""
    root = tmp_path / "root"
    (root / "usr/bin").mkdir(parents=True)
    (root / "var/lib/dpkg/info").mkdir(parents=True)
    (root / "usr/bin/podman").write_text("#!/bin/sh\nexit 99\n")
    (root / "usr/bin/podman").chmod(0o755)
    (root / "var/lib/dpkg/info/podman.list").write_text("/.\n/usr\n/usr/bin\n/usr/bin/podman\n")
    (root / "var/lib/dpkg/status").write_text(
        "Package: podman\nStatus: install ok installed\nVersion: 4.3.1+ds1-8+deb12u1+b3\n\n"
        "Package: other\nStatus: install ok installed\nVersion: 1.0\n"
    )
    ctx = ProbeContext(root=root, env={"PATH": "/usr/bin"})
    assert container_podman.packaged_version(ctx, "/usr/bin/podman") == "4.3.1"
    assert (
        container_podman.packaged_version(ctx, "/usr/local/bin/podman") is None
    )  # not the package's file
    (root / "var/lib/dpkg/info/podman.list").write_text("/usr/bin/podman-remote\n")
    fresh = ProbeContext(root=root, env={"PATH": "/usr/bin"})  # a context reads each file once
    assert container_podman.packaged_version(fresh, "/usr/bin/podman") is None


def test_real_podman_version_from_dpkg_equals_the_binary():
    """On this machine (Debian's podman), dpkg's version is what `podman --version` prints."""
    import subprocess

    if shutil.which("podman") is None or not os.path.exists(container_podman.DPKG_LIST):
        pytest.skip("no packaged podman here")
    ctx = ProbeContext()
    packaged = container_podman.packaged_version(ctx, shutil.which("podman"))
    printed = subprocess.run(
        ["podman", "--version"], capture_output=True, text=True, timeout=30
    ).stdout
    assert packaged is not None and printed.split()[-1] == packaged
