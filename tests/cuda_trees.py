"""Fake root trees for the CUDA tests, built from the real files in tests/fixtures/cuda."""

from __future__ import annotations

import shutil
from pathlib import Path

from envdoctor.model.snapshot import Snapshot, absent, collected
from envdoctor.probes import cuda_libraries, cuda_toolkit
from envdoctor.probes.context import ProbeContext

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "cuda"
SITE = "/opt/venv/lib/python3.11/site-packages"
ELF_STUB = b"\x7fELF stub for envdoctor tests\n"


def fixture_text(relative: str) -> str:
    """A fixture file's text."""
    return (FIXTURES / relative).read_text()


def put(root: Path, path: str, content: str | bytes = ELF_STUB, mode: int | None = None) -> Path:
    """Write one file into the fake root."""
    target = root / path.lstrip("/")
    target.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        target.write_bytes(content)
    else:
        target.write_text(content)
    if mode is not None:
        target.chmod(mode)
    return target


def link(root: Path, path: str, points_to: str) -> None:
    """A symbolic link inside the fake root (`points_to` as the target system would write it)."""
    target = root / path.lstrip("/")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.symlink_to(points_to)


def install_wheel(root: Path, dist_info: str, site: str = SITE) -> list[str]:
    """Copy a fixture dist-info into `site` and create the library files its RECORD lists."""
    source = FIXTURES / "wheels" / dist_info
    folder = root / site.lstrip("/") / dist_info
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("METADATA", "RECORD"):
        if (source / name).exists():
            shutil.copy(source / name, folder / name)
    made: list[str] = []
    if not (source / "RECORD").exists():
        return made
    for line in (source / "RECORD").read_text().splitlines():
        rel = line.rsplit(",", 2)[0]
        if ".so" in rel.rsplit("/", 1)[-1]:
            put(root, f"{site}/{rel}")
            made.append(f"{site}/{rel}")
    return made


def nvcc_script(capture: str) -> str:
    """A fake nvcc printing a real `nvcc --version` capture."""
    return f"#!/bin/sh\nexec /bin/cat {FIXTURES / 'nvcc' / capture}\n"


def toolkit(
    root: Path,
    prefix: str,
    *,
    version_json: str | None = None,
    version_txt: str | None = None,
    nvcc_capture: str | None = None,
    libs: dict[str, str] | None = None,
) -> None:
    """A toolkit tree: version file, bin/nvcc, lib64 libraries {soname: real file name}."""
    if version_json:
        put(root, f"{prefix}/version.json", fixture_text(f"toolkit/{version_json}"))
    if version_txt:
        put(root, f"{prefix}/version.txt", fixture_text(f"toolkit/{version_txt}"))
    if nvcc_capture:
        put(root, f"{prefix}/bin/nvcc", nvcc_script(nvcc_capture), mode=0o755)
    for soname, real in (libs or {}).items():
        put(root, f"{prefix}/lib64/{real}")
        if real != soname:
            link(root, f"{prefix}/lib64/{soname}", real)


def this_machine(root: Path) -> None:
    """The development container's layout: /usr/local/cuda -> cuda-13.0 built from the 13.0
    wheels (dist-info/, lib/libcudart.so.13, bin/nvcc), lib64 -> lib, and the
    /usr/local/bin/nvcc wrapper script."""
    prefix = "/usr/local/cuda-13.0"
    put(
        root,
        f"{prefix}/bin/nvcc",
        nvcc_script("nvcc-version-13.0.88-envdoctor-dev-container.txt"),
        mode=0o755,
    )
    put(root, f"{prefix}/lib/libcudart.so.13")
    link(root, f"{prefix}/lib/libcudart.so", "libcudart.so.13")
    link(root, f"{prefix}/lib64", "lib")
    for name in ("nvidia_cuda_nvcc-13.0.88.dist-info", "nvidia_cuda_runtime-13.0.96.dist-info"):
        (root / prefix.lstrip("/") / "dist-info" / name).mkdir(parents=True)
    link(root, "/usr/local/cuda", prefix)
    put(root, "/usr/local/bin/nvcc", f'#!/bin/sh\nexec {prefix}/bin/nvcc "$@"\n', mode=0o755)


def ldconfig_tool(fake_tools, capture: str) -> str:
    """A fake ldconfig printing a real `ldconfig -p` capture; returns its bin dir."""
    return fake_tools({"ldconfig": f"#!/bin/sh\nexec /bin/cat {FIXTURES / 'ldconfig' / capture}\n"})


def context(root: Path, env: dict[str, str]) -> ProbeContext:
    """A probe context on the fake root; PATH must be set by the caller when tools matter."""
    return ProbeContext(root=root, env={"HOME": "/root", **env})


def probe(root: Path, env: dict[str, str]) -> Snapshot:
    """Run the CUDA probes on the fake root and return their snapshot."""
    ctx = context(root, env)
    snap = Snapshot()
    snap.extend(cuda_toolkit.collect(ctx))
    snap.extend(cuda_libraries.collect(ctx))
    return snap


def with_driver(
    snap: Snapshot,
    driver_version: str | None,
    cuda_driver_max: str | None,
    gpus: list[dict] | None = None,
) -> Snapshot:
    """Add nvidia.driver / nvidia.gpus groups as the NVIDIA probes fill them."""
    if driver_version is None:
        snap.add(absent("nvidia.driver", "test", "no NVIDIA driver: nvidia-smi not found"))
        snap.add(absent("nvidia.gpus", "test", "no GPU facts without a driver"))
        return snap
    snap.add(
        collected(
            "nvidia.driver",
            "test",
            {
                "driver_version": driver_version,
                "cuda_driver_max": cuda_driver_max,
                "platform": "linux",
                "driver_loaded": True,
            },
        )
    )
    snap.add(collected("nvidia.gpus", "test", {"gpus": gpus or []}))
    return snap
