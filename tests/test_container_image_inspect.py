"""Unpacking `docker save` archives safely: hostile member names, links, device files, whiteouts,
size limits, and both the legacy and the OCI layout."""

from __future__ import annotations

import io
import json
import os
import tarfile
from pathlib import Path

import pytest

from envdoctor.diagnosis import image_inspect
from envdoctor.diagnosis.image_inspect import (
    ImageInspectError,
    safe_link_target,
    safe_name,
    unpack_saved_image,
)

CONFIG = {
    "architecture": "amd64",
    "os": "linux",
    "config": {"Env": ["PATH=/usr/bin", "NVIDIA_VISIBLE_DEVICES=all"]},
}


def _member(
    name: str,
    data: bytes | None = None,
    kind: bytes = tarfile.REGTYPE,
    link: str = "",
    mode: int = 0o644,
):
    info = tarfile.TarInfo(name)
    info.type, info.linkname, info.mode = kind, link, mode
    if data is not None:
        info.size = len(data)
    return info, (io.BytesIO(data) if data is not None else None)


def _layer(members) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for info, data in members:
            tar.addfile(info, data)
    return buffer.getvalue()


def _archive(path: Path, layers: list[bytes], oci: bool = False) -> Path:
    names = [f"blobs/sha256/{i:064d}" if oci else f"{i:064d}/layer.tar" for i in range(len(layers))]
    config_name = "blobs/sha256/" + "c" * 64 if oci else "c" * 64 + ".json"
    with tarfile.open(path, "w") as tar:
        for name, body in [
            *zip(names, layers, strict=True),
            (config_name, json.dumps(CONFIG).encode()),
            (
                "manifest.json",
                json.dumps(
                    [{"Config": config_name, "RepoTags": ["t:1"], "Layers": names}]
                ).encode(),
            ),
        ]:
            info = tarfile.TarInfo(name)
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
    return path


def test_hostile_members_are_skipped(tmp_path):
    layer = _layer(
        [
            _member("etc/os-release", b"ID=ubuntu\n"),
            _member("/etc/passwd", b"root::0:0\n"),
            _member("../../escape", b"x"),
            _member("usr/../../escape2", b"x"),
            _member("dev/sda", kind=tarfile.BLKTYPE),
            _member("dev/null", kind=tarfile.CHRTYPE),
            _member("run/fifo", kind=tarfile.FIFOTYPE),
            _member("lib/evil", kind=tarfile.SYMTYPE, link="../../../../etc/shadow"),
            _member("lib/abs", kind=tarfile.SYMTYPE, link="/usr/lib/libc.so.6"),
            _member("lib/hard", kind=tarfile.LNKTYPE, link="etc/os-release"),
            _member("lib/hard-missing", kind=tarfile.LNKTYPE, link="nowhere/file"),
            _member("usr/bin/tool", b"\x7fELF" + b"\0" * 100, mode=0o4755),
        ]
    )
    config, stats = unpack_saved_image(_archive(tmp_path / "img.tar", [layer]), tmp_path / "root")
    root = tmp_path / "root"
    assert config["config"]["Env"][1] == "NVIDIA_VISIBLE_DEVICES=all"
    assert (root / "etc/os-release").read_text() == "ID=ubuntu\n"
    assert not (tmp_path / "escape").exists() and not (tmp_path / "escape2").exists()
    assert not (root / "dev/sda").exists() and not (root / "run/fifo").exists()
    assert not (root / "lib/evil").is_symlink()
    assert (
        os.readlink(root / "lib/abs") == "../usr/lib/libc.so.6"
    )  # absolute target kept inside the root
    assert (root / "lib/hard").read_text() == "ID=ubuntu\n"
    tool = root / "usr/bin/tool"
    assert tool.stat().st_size == 0 and not tool.stat().st_mode & 0o4000  # placeholder, no setuid
    assert stats.skipped == {
        "unsafe path": 3,
        "device, fifo or other special file": 3,
        "link out of the root": 1,
        "hard link to a missing file": 1,
    }


def test_writing_through_a_link_that_leaves_the_root_is_refused(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "root"
    root.mkdir()
    os.symlink(str(outside), root / "sneaky")  # a link planted outside the unpacker's control
    layer = _layer([_member("sneaky/planted", b"x")])
    _, stats = unpack_saved_image(_archive(tmp_path / "img.tar", [layer]), root)
    assert not (outside / "planted").exists() and stats.skipped == {"path through a link": 1}


def test_layers_apply_in_order_with_whiteouts(tmp_path):
    lower = _layer(
        [
            _member("opt/app/a.txt", b"a"),
            _member("opt/app/b.txt", b"b"),
            _member("opt/keep/c.txt", b"c"),
            _member("etc/motd", b"old\n"),
        ]
    )
    upper = _layer(
        [
            _member("opt/app/.wh..wh..opq", b""),
            _member("opt/app/new.txt", b"n"),
            _member("opt/keep/.wh.c.txt", b""),
            _member("etc/motd", b"new\n"),
        ]
    )
    for oci in (False, True):
        root = tmp_path / f"root-{oci}"
        unpack_saved_image(_archive(tmp_path / f"img-{oci}.tar", [lower, upper], oci=oci), root)
        assert sorted(p.name for p in (root / "opt/app").iterdir()) == ["new.txt"]
        assert not (root / "opt/keep/c.txt").exists()
        assert (root / "etc/motd").read_text() == "new\n"


def test_content_limits(tmp_path, monkeypatch):
    monkeypatch.setattr(image_inspect, "MAX_FILE_BYTES", 10)
    layer = _layer(
        [
            _member("etc/big.conf", b"x" * 11),
            _member("etc/small.conf", b"y" * 10),
            _member("usr/lib/libbig.so", b"z" * 5),
        ]
    )
    _, stats = unpack_saved_image(_archive(tmp_path / "img.tar", [layer]), tmp_path / "root")
    assert (tmp_path / "root/etc/big.conf").stat().st_size == 0
    assert (tmp_path / "root/etc/small.conf").read_bytes() == b"y" * 10
    assert (tmp_path / "root/usr/lib/libbig.so").stat().st_size == 0  # not metadata: a placeholder
    assert (stats.content_bytes, stats.placeholders) == (10, 2)
    monkeypatch.setattr(image_inspect, "MAX_MEMBERS", 2)
    with pytest.raises(ImageInspectError, match="more than 2 files"):
        unpack_saved_image(_archive(tmp_path / "img2.tar", [layer]), tmp_path / "root2")


def test_malformed_archives(tmp_path):
    (tmp_path / "junk.tar").write_bytes(b"not a tar at all" * 100)
    with pytest.raises(ImageInspectError):
        unpack_saved_image(tmp_path / "junk.tar", tmp_path / "r1")
    with tarfile.open(tmp_path / "empty.tar", "w"):
        pass
    with pytest.raises(ImageInspectError, match="manifest"):
        unpack_saved_image(tmp_path / "empty.tar", tmp_path / "r2")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("./etc/x", "etc/x"),
        ("a//b/./c", "a/b/c"),
        ("/abs", None),
        ("a/../b", None),
        ("", None),
        (".", None),
    ],
)
def test_safe_name(name, expected):
    assert safe_name(name) == expected


@pytest.mark.parametrize(
    ("name", "target", "expected"),
    [
        ("usr/lib/libx.so", "libx.so.1", "libx.so.1"),
        ("usr/lib/libx.so", "/lib/libx.so.1", "../../lib/libx.so.1"),
        ("bin", "usr/bin", "usr/bin"),
        ("a/b", "../../../etc", None),
        ("a", "/", "."),
    ],
)
def test_safe_link_target(name, target, expected):
    assert safe_link_target(name, target) == expected
