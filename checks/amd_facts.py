"""What the AMD checks read from a snapshot, and the fixes they share (pure; no check lives here).

- `gpu_targets(snap)`: each AMD GPU with its physical gfx target and the one the runtime will
  use (HSA_OVERRIDE_GFX_VERSION, or its per-device form, applied);
- `rocm_version(snap)`: the installed ROCm (the default /opt/rocm);
- `torch_targets(snap, ms)`: the gfx targets compiled into the torch build (measured by --deep,
  else the build matrix) and where the list came from;
- `rocm_choice_for(snap, ms, rocm)`: the newest official torch ROCm wheel for a ROCm major;
- fix builders: install a ROCm release, set an override (always labelled an unsupported
  workaround), reinstall torch.
"""

from __future__ import annotations

from typing import Any

from envdoctor.checks.torch_context import reinstall_fixes, torch_context
from envdoctor.findings import Fix, Risk
from envdoctor.queries import rocm as rq
from envdoctor.queries import torch as tq
from envdoctor.queries.torch_fixes import Choice, released_minors
from envdoctor.snapshot import Snapshot
from envdoctor.versions import release as _v

SYSTEM_REQUIREMENTS = "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/reference/system-requirements.html"
GROUPS_DOC = (
    "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/install/prerequisites.html"
)
ISOLATION_DOC = "https://rocm.docs.amd.com/en/latest/conceptual/gpu-isolation.html"
DOCKER_DOC = "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/how-to/docker.html"
WORKAROUND = "Unsupported workaround"


def gpu_targets(snap: Snapshot) -> list[dict[str, Any]]:
    """[{gpu, index, name, gfx (physical), effective (what ROCm will run it as), override}] for
    every AMD GPU with a known gfx target. A per-device HSA_OVERRIDE_GFX_VERSION_<N> wins over the
    global one for GPU N."""
    gpus = [g for g in snap.fact("amd.gpus", "gpus") or [] if isinstance(g, dict)]
    env = snap.data("amd.env") or {}
    global_override = (env.get("override") or {}).get("value")
    per_device = env.get("per_device_overrides") or {}
    out = []
    for gpu in gpus:
        gfx = rq.normalize_gfx(gpu.get("gfx_target"))
        if gfx is None:
            continue
        value = (per_device.get(str(gpu.get("index"))) or {}).get("value") or global_override
        effective = rq.gfx_from_override(value) if value else None
        out.append(
            {
                "gpu": gpu,
                "index": gpu.get("index"),
                "name": gpu.get("name") or "AMD GPU",
                "gfx": gfx,
                "effective": effective or gfx,
                "override": value if effective else None,
            }
        )
    return out


def rocm_version(snap: Snapshot) -> str | None:
    """The installed ROCm release (amd.rocm version, e.g. "6.2.4"), or None."""
    data = snap.data("amd.rocm") or {}
    version = data.get("version")
    return str(version) if version else None


def torch_backend(snap: Snapshot) -> str | None:
    """ "rocm", "cuda", "xpu", "cpu" or None, from python.torch (backend/build, else the variant)."""
    torch = snap.data("python.torch") or {}
    backend = torch.get("backend") or torch.get("build")
    if backend:
        return str(backend)
    variant = str(
        torch.get("variant") or tq.parse_local_variant(str(torch.get("version") or "")) or ""
    )
    if variant.startswith("rocm"):
        return "rocm"
    if variant.startswith("cu"):
        return "cuda"
    if variant in ("cpu", "xpu"):
        return variant
    return None


def torch_variant(snap: Snapshot) -> str | None:
    """The torch wheel's variant label ("rocm6.3"), or None."""
    torch = snap.data("python.torch") or {}
    variant = torch.get("variant") or tq.parse_local_variant(str(torch.get("version") or ""))
    return str(variant) if variant else None


def torch_targets(snap: Snapshot, ms: Any) -> tuple[list[str] | None, str | None]:
    """The gfx targets compiled into the torch build: python.deep's torch.cuda.get_arch_list()
    on a ROCm build, else python.torch's arch_list, else the torch_arch matrix (its gfx_targets
    column) for the wheel's release and variant. (None, None) when unknown."""
    deep = snap.data("python.deep") or {}
    arches = [rq.normalize_gfx(a) for a in deep.get("arch_list") or []]
    if deep.get("torch_hip") and any(arches):
        return sorted({a for a in arches if a}), "torch.cuda.get_arch_list() (--deep)"
    torch = snap.data("python.torch") or {}
    arches = [rq.normalize_gfx(a) for a in torch.get("arch_list") or []]
    if any(arches):
        return sorted({a for a in arches if a}), str(
            torch.get("arch_list_source") or "python.torch"
        )
    variant = torch_variant(snap)
    if torch.get("version") and variant and variant.startswith("rocm"):
        listed = tq.variant_arches(ms, str(torch["version"]), variant, "linux")
        gfx = [rq.normalize_gfx(a) for a in listed or []]
        if any(gfx):
            return sorted({a for a in gfx if a}), "matrix:torch_arch"
    return None, None


def rocm_choice_for(
    snap: Snapshot,
    ms: Any,
    rocm: str | None,
    gfx: list[str] | None = None,
    any_python: bool = False,
) -> Choice | None:
    """The official torch ROCm wheel to install: the newest released torch whose ROCm variants
    include one of ROCm `rocm`'s major (the highest variant not newer than `rocm`, else the lowest
    of that major); without `rocm`, the newest release's newest ROCm variant. When `gfx` is given
    and the build matrix knows a variant's gfx targets, variants lacking one of them are skipped.
    With `any_python`, releases are not limited to those with wheels for the snapshot's Python."""
    python = None if any_python else (snap.data("python") or {}).get("version")
    installed = _v(rocm)
    for release in released_minors(ms, python):
        row = tq.release_row(ms, release) or {}
        variants = sorted(
            (v for v in row.get("rocm_variants") or [] if _v(v[4:]) is not None),
            key=lambda v: _v(v[4:]),
        )
        if installed is not None:
            same = [v for v in variants if _v(v[4:]).release[0] == installed.release[0]]
            older = [v for v in same if _v(v[4:]) <= installed]
            variants = older[-1:] or same[:1]
        else:
            variants = variants[-1:]
        for variant in variants:
            if gfx:
                listed = tq.variant_arches(ms, release, variant, "linux")
                if listed is not None and not set(gfx) <= {rq.normalize_gfx(a) for a in listed}:
                    continue
            url = tq.index_url(ms, variant)
            if url is None:
                continue
            companions = tq.companion_versions(ms, release)
            return Choice(
                release, variant, url, companions.get("torchvision"), companions.get("torchaudio")
            )
    return None


def torch_fixes(snap: Snapshot, ms: Any, choice: Choice | None, why: str) -> tuple[Fix, ...]:
    """The exact reinstall commands for `choice` in the environment the snapshot describes."""
    if choice is None:
        return ()
    return reinstall_fixes(torch_context(snap, ms), [choice], why)


def install_rocm_fix(snap: Snapshot, version: str, why: str) -> Fix:
    """Install ROCm `version` with AMD's packages (after pointing AMD's repository at it)."""
    distro = str((snap.data("os") or {}).get("distro_id") or "").lower()
    if distro in ("rhel", "centos", "rocky", "almalinux", "ol", "fedora"):
        commands = ("sudo dnf clean all", "sudo dnf install rocm")
    elif distro in ("sles", "opensuse-leap"):
        commands = ("sudo zypper refresh", "sudo zypper install rocm")
    else:
        commands = ("sudo apt update", "sudo apt install rocm")
    return Fix(
        f"Install ROCm {version} ({why}): add AMD's ROCm {version} repository as its quick start "
        "shows, then install the rocm package",
        commands,
        Risk.NEEDS_RESTART,
        url=f"https://rocm.docs.amd.com/projects/install-on-linux/en/docs-{version}/install/quick-start.html",
    )


def override_fix(
    gpu_gfx: str, value: str, runs_as: str, source: str | None, scope: str = "shell"
) -> Fix:
    """Set HSA_OVERRIDE_GFX_VERSION (always labelled an unsupported workaround)."""
    summary = (
        f"{WORKAROUND}: run {gpu_gfx} as {runs_as} with HSA_OVERRIDE_GFX_VERSION={value} "
        "(not supported by AMD; kernels built for its sibling target usually work, some may fail)"
    )
    if scope == "ollama":
        commands = (
            "sudo mkdir -p /etc/systemd/system/ollama.service.d",
            f"printf '[Service]\\nEnvironment=\"HSA_OVERRIDE_GFX_VERSION={value}\"\\n' | "
            "sudo tee /etc/systemd/system/ollama.service.d/rocm-gfx-override.conf",
            "sudo systemctl daemon-reload",
            "sudo systemctl restart ollama",
        )
    else:
        commands = (
            f"export HSA_OVERRIDE_GFX_VERSION={value}",
            f"echo 'export HSA_OVERRIDE_GFX_VERSION={value}' >> ~/.bashrc",
        )
    return Fix(summary, commands, Risk.SAFE, url=source)


def in_container(snap: Snapshot) -> bool:
    """Whether the facts say this runs inside a container."""
    kernel = snap.data("amd.kernel") or {}
    if kernel.get("in_container"):
        return True
    inside = snap.data("container.inside") or {}
    if inside.get("in_container"):
        return True
    return (snap.data("os") or {}).get("virtualization") in (
        "docker",
        "podman",
        "kubernetes",
        "lxc",
    )
