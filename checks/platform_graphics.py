"""OpenGL rendering on the CPU (llvmpipe / softpipe) instead of the GPU: in WSL, and elsewhere."""

from __future__ import annotations

from dataclasses import replace

from envdoctor.checks import platform_facts as pf
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot

WSLG_D3D12_ISSUE = "https://github.com/microsoft/wslg/issues/1332"
DEFAULT_MESA_D3D12 = "21.0"


def _software(gfx: dict | None) -> bool:
    return gfx is not None and (gfx.get("software") is True or bool(gfx.get("forces_software")))


def _mesa_upgrade(snap: Snapshot, minimum: str) -> list[Fix]:
    """The commands that bring this distribution's Mesa to `minimum` or newer (unknown distribution:
    find it, with the Debian/Ubuntu commands)."""
    fam = pf.family(snap)
    distro_id, version, _ = pf.distro(snap)
    url = pf.WSLG_README
    check_gl = "glxinfo -B | grep -E 'OpenGL version|renderer'"
    commands = {
        "debian": (
            "sudo apt-get update",
            "sudo apt-get install -y --only-upgrade libgl1-mesa-dri libglx-mesa0 mesa-utils",
            check_gl,
        ),
        "fedora": ("sudo dnf upgrade -y --refresh mesa-dri-drivers mesa-libGL", check_gl),
        "arch": ("sudo pacman -Syu --needed mesa", check_gl),
        "suse": ("sudo zypper refresh", "sudo zypper update -y Mesa-dri Mesa-libGL1", check_gl),
    }
    if fam is None:
        return [
            Fix(
                f"Update Mesa to {minimum} or newer (the release with WSL's d3d12 driver); on Debian / Ubuntu:",
                ("cat /etc/os-release",) + commands["debian"],
                Risk.SAFE,
                url,
            )
        ]
    fixes = [
        Fix(
            f"Update Mesa to {minimum} or newer (the release with WSL's d3d12 driver)",
            commands.get(fam, ()),
            Risk.SAFE,
            url,
        )
    ]
    if distro_id == "ubuntu" and version and pf.version_lt(version, "22.04"):
        fixes.append(
            Fix(
                f"If Ubuntu {version}'s Mesa stays below {minimum}, upgrade the release",
                ("sudo do-release-upgrade",),
                Risk.NEEDS_RESTART,
                url,
            )
        )
    elif distro_id == "debian" and version and pf.version_lt(version, "12"):
        fixes.append(
            Fix(
                f"If Debian {version}'s Mesa stays below {minimum}, upgrade to Debian 12 (bookworm), whose "
                "libgl1-mesa-dri 22.3.6 includes d3d12_dri.so",
                ("sudo apt-get update", "sudo apt-get -y full-upgrade"),
                Risk.NEEDS_RESTART,
                url,
            )
        )
    return fixes


def _install_d3d12(snap: Snapshot) -> Fix:
    commands = {
        "debian": (
            "sudo apt-get install -y --reinstall libgl1-mesa-dri",
            "ls /usr/lib/x86_64-linux-gnu/dri/d3d12_dri.so",
        ),
        "fedora": ("sudo dnf install -y mesa-dri-drivers", "ls /usr/lib64/dri/d3d12_dri.so"),
        "arch": ("sudo pacman -S --needed mesa", "ls /usr/lib/dri/d3d12_dri.so"),
        "suse": ("sudo zypper install -y Mesa-dri", "ls /usr/lib64/dri/d3d12_dri.so"),
    }.get(pf.family(snap) or "", ())
    return Fix(
        "Install the Mesa DRI drivers with d3d12_dri.so (your distribution must build the d3d12 driver; "
        "Debian 12 and newer do)",
        commands,
        Risk.SAFE,
        pf.WSLG_README,
    )


def _unset_fix(forced: list[str]) -> Fix:
    names = sorted({f.split("=", 1)[0] for f in forced})
    return Fix(
        "Stop forcing software rendering: unset the variables and remove them from your shell profile",
        (
            "unset " + " ".join(names),
            "grep -n -E '" + "|".join(names) + "' ~/.bashrc ~/.profile /etc/environment",
            "glxinfo -B | grep -E 'renderer|Accelerated'",
        ),
    )


@check(
    "wsl.software-rendering", needs_any=("platform.graphics", "platform.opengl"), matrices=("wsl",)
)
def wsl_software(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """OpenGL in WSL renders on the CPU (llvmpipe) instead of the GPU (D3D12).

    In WSL 2, Mesa draws OpenGL on the Windows GPU through its d3d12 Gallium driver, and `glxinfo -B`
    shows `OpenGL renderer string: D3D12 (<GPU>)` with `Accelerated: yes`. llvmpipe (`Accelerated:
    no`) means rendering on the CPU: LIBGL_ALWAYS_SOFTWARE / GALLIUM_DRIVER force it; or Mesa is older
    than 21.0, the first release with the d3d12 driver (WSLg README), as on Ubuntu 20.04 (Mesa 20.0.8);
    or the distribution built Mesa without d3d12; or Mesa did not pick d3d12 although it is there,
    which `export GALLIUM_DRIVER=d3d12` fixes (microsoft/wslg#1332). With several GPUs,
    MESA_D3D12_DEFAULT_ADAPTER_NAME picks one by its Windows name.
    """
    state = pf.wsl_state(snap)
    gfx = pf.graphics(snap)
    if not state.is_wsl or state.version == 1 or not _software(gfx):
        return None
    minimum = pf.requirement(ms, "mesa_d3d12") or DEFAULT_MESA_D3D12
    mesa = gfx.get("mesa")
    forced = list(gfx.get("forces_software") or [])
    evidence = [
        Evidence("OpenGL renderer", str(gfx.get("renderer") or "unknown"), "D3D12 (<your GPU>)")
    ]
    if gfx.get("accelerated") is not None:
        evidence.append(Evidence("Accelerated", "yes" if gfx["accelerated"] else "no", "yes"))
    evidence.append(Evidence("Mesa", str(mesa or "unknown"), f">= {minimum}"))
    evidence.extend(Evidence(f.split("=", 1)[0], f.split("=", 1)[1], "unset") for f in forced)
    evidence.extend(Evidence(f, v) for f, v in state.evidence)
    fixes: list[Fix] = []
    cause = ""
    if forced:
        fixes.append(_unset_fix(forced))
        cause = f"{', '.join(forced)} forces the CPU renderer. "
    old = pf.version_lt(mesa, minimum) if mesa else None
    if old:
        fixes.extend(_mesa_upgrade(snap, minimum))
        cause += f"Mesa {mesa} is older than {minimum}, the first release with WSL's d3d12 driver. "
    elif gfx.get("d3d12_driver") is False:
        evidence.append(Evidence("d3d12_dri.so", "missing", "in the Mesa DRI folder"))
        fixes.append(_install_d3d12(snap))
        cause += "This Mesa has no d3d12 driver (d3d12_dri.so is missing). "
    if state.facts and state.facts.get("dxg") is False:
        evidence.append(Evidence("/dev/dxg", "missing", "present"))
        cause += "/dev/dxg is missing, so no GPU is reachable at all. "
    if not old and gfx.get("d3d12_driver") is not False:
        fixes.append(
            Fix(
                "Ask Mesa for the d3d12 driver (add the line to ~/.bashrc to keep it), then check the renderer",
                ("export GALLIUM_DRIVER=d3d12", "glxinfo -B | grep -E 'renderer|Accelerated'"),
                Risk.SAFE,
                WSLG_D3D12_ISSUE,
            )
        )
        if not cause:
            cause = "Mesa has the d3d12 driver but chose llvmpipe. "
    fixes.append(
        Fix(
            "Update WSL itself (PowerShell on Windows)",
            ("wsl --update", "wsl --shutdown"),
            Risk.NEEDS_RESTART,
            pf.WSL_INSTALL_DOCS,
        )
    )
    return Finding(
        id="wsl.software-rendering",
        severity=Severity.WARNING,
        title=f"OpenGL in WSL renders on the CPU ({gfx.get('renderer') or 'software'}) instead of the GPU through D3D12",
        detail=(cause + "GPU-accelerated OpenGL in WSL 2 needs Mesa's d3d12 driver."),
        evidence=tuple(evidence),
        fixes=tuple(fixes),
    )


@check(
    "platform.software-rendering",
    needs_any=("platform.graphics", "platform.opengl"),
    matrices=("wsl",),
)
def other_software(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """OpenGL renders on the CPU (llvmpipe / softpipe / swrast), outside WSL or where WSL is unknown.

    llvmpipe is Mesa's CPU renderer. It is used when no GPU driver for OpenGL is available to the
    process: in a VM whose guest sees only an emulated adapter (see vm.no-gpu-passthrough), in a
    container without the GPU, on a desktop whose NVIDIA/AMD GL driver is not installed or not
    chosen, or when LIBGL_ALWAYS_SOFTWARE / GALLIUM_DRIVER force it. In WSL 2 it has its own causes
    (wsl.software-rendering). From a pasted glxinfo alone the platform cannot be told: `uname -r`
    containing "microsoft" means WSL, `systemd-detect-virt` names a hypervisor.
    """
    state = pf.wsl_state(snap)
    gfx = pf.graphics(snap)
    if state.is_wsl or not _software(gfx):
        return None
    minimum = pf.requirement(ms, "mesa_d3d12") or DEFAULT_MESA_D3D12
    mesa = gfx.get("mesa")
    forced = list(gfx.get("forces_software") or [])
    pasted = gfx.get("source_group") == "platform.opengl" and snap.origin == "pasted"
    vm = snap.data("platform.vm") or {}
    evidence = [
        Evidence("OpenGL renderer", str(gfx.get("renderer") or "unknown"), "a GPU renderer")
    ]
    if gfx.get("accelerated") is not None:
        evidence.append(Evidence("Accelerated", "yes" if gfx["accelerated"] else "no", "yes"))
    if mesa:
        evidence.append(Evidence("Mesa", str(mesa)))
    evidence.extend(Evidence(f.split("=", 1)[0], f.split("=", 1)[1], "unset") for f in forced)
    fixes: list[Fix] = []
    if forced:
        fixes.append(_unset_fix(forced))
    where = "this machine"
    if vm.get("hypervisor"):
        where = f"this {vm['hypervisor']} VM"
        evidence.append(Evidence("platform.vm.hypervisor", str(vm["hypervisor"])))
    if state.is_wsl is None:
        where = "the machine this output comes from (the paste does not say whether it is WSL, a VM or a desktop)"
        fixes.append(
            Fix(
                "Tell the platform apart: a kernel release with 'microsoft' is WSL, systemd-detect-virt names "
                "a hypervisor",
                ("uname -r", "systemd-detect-virt", "lspci -nn | grep -Ei 'vga|3d|display'"),
            )
        )
        if mesa and pf.version_lt(mesa, minimum):
            upgrade = _mesa_upgrade(snap, minimum)[0]
            fixes.append(
                replace(
                    upgrade,
                    summary=f"If it is WSL 2: Mesa {mesa} is older than {minimum}, the first "
                    "release with WSL's d3d12 driver. " + upgrade.summary,
                )
            )
        else:
            fixes.append(
                Fix(
                    "If it is WSL 2: ask Mesa for its d3d12 driver",
                    ("export GALLIUM_DRIVER=d3d12",),
                    Risk.SAFE,
                    WSLG_D3D12_ISSUE,
                )
            )
    if pf.nvidia_gpus(snap) and not vm.get("hypervisor"):
        fixes.append(
            Fix(
                "With an NVIDIA GPU, check that its OpenGL library is installed and not overridden",
                (
                    "ls /usr/lib/x86_64-linux-gnu/libGLX_nvidia.so.0",
                    "echo $__GLX_VENDOR_LIBRARY_NAME",
                    "__GLX_VENDOR_LIBRARY_NAME=nvidia glxinfo -B | grep renderer",
                ),
            )
        )
    if not fixes:
        fixes.append(
            Fix(
                "Check which display adapter and driver the system has",
                ("lspci -nnk | grep -EiA3 'vga|3d|display'", "glxinfo -B"),
            )
        )
    severity = (
        Severity.WARNING
        if (pasted or pf.framework_gpu_intent(snap) or pf.nvidia_gpus(snap) or forced)
        else Severity.INFO
    )
    return Finding(
        id="platform.software-rendering",
        severity=severity,
        title=f"OpenGL renders on the CPU ({gfx.get('renderer') or 'software'}"
        + (f", Mesa {mesa}" if mesa else "")
        + "), not on a GPU",
        detail=(
            f"On {where}, Mesa's CPU renderer draws OpenGL: no GPU OpenGL driver is in use"
            + (f" ({', '.join(forced)} forces it)" if forced else "")
            + ". 3D applications will be slow; "
            "CUDA and other compute APIs are not affected by this by themselves."
        ),
        evidence=tuple(evidence),
        fixes=tuple(fixes),
    )


CHECKS = [wsl_software, other_software]
