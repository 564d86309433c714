"""CDI specs against the GPUs and driver present, and Podman's need for one."""

from __future__ import annotations

from envdoctor.checks import container_facts as facts
from envdoctor.checks import container_fixes as fixes
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import release

_GPU_NEEDS = ("nvidia.gpus", "nvidia.driver")


@check("container.podman-no-cdi-spec", needs=("container.podman",), needs_any=_GPU_NEEDS)
def podman_no_cdi_spec(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """Podman is installed on an NVIDIA machine but no nvidia.com/gpu CDI spec exists.

    Podman gives containers NVIDIA GPUs through CDI (`--device nvidia.com/gpu=all`, and its
    `--gpus` flag is translated to the same CDI names). Without a spec in /etc/cdi or /var/run/cdi
    it fails with `Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all`.
    Fix: generate the spec with `nvidia-ctk cdi generate` (the nvidia-container-toolkit-base
    package is enough), and regenerate it after driver or GPU changes.
    """
    if facts.nvidia_cdi_spec(snap) or not facts.nvidia_gpu_host(snap):
        return None
    dirs = snap.fact("container.cdi", "spec_dirs") or ["/etc/cdi", "/var/run/cdi"]
    ranked = []
    if not facts.toolkit_binary(snap, "nvidia-ctk"):
        ranked.append(fixes.install_toolkit(snap, "nvidia-container-toolkit-base"))
    ranked.append(fixes.generate_cdi_spec("/etc/cdi/nvidia.yaml"))
    ranked.append(
        Fix(
            "Then start GPU containers with the CDI device",
            (
                "podman run --rm --device nvidia.com/gpu=all --security-opt=label=disable IMAGE nvidia-smi -L",
            ),
            Risk.SAFE,
            fixes.TOOLKIT_CDI_URL,
        )
    )
    return Finding(
        id="container.podman-no-cdi-spec",
        severity=Severity.WARNING,
        title="Podman has no CDI spec for the NVIDIA GPUs",
        detail=(
            "Podman injects NVIDIA GPUs only through CDI, and no nvidia.com/gpu spec exists in "
            f"{', '.join(dirs)}: `podman run --device nvidia.com/gpu=all` fails with "
            "`unresolvable CDI devices nvidia.com/gpu=all`."
        ),
        evidence=(
            Evidence(
                "container.cdi.kinds",
                ", ".join(snap.fact("container.cdi", "kinds") or []) or "(no specs)",
                "nvidia.com/gpu",
            ),
            Evidence("container.podman.version", str(snap.fact("container.podman", "version"))),
        ),
        fixes=tuple(ranked),
    )


@check("container.cdi-spec-stale", needs=("container.cdi",), needs_any=_GPU_NEEDS)
def cdi_spec_stale(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """An NVIDIA CDI spec describes another driver or GPUs that are no longer here.

    A CDI spec is a snapshot of the driver and GPUs at the time `nvidia-ctk cdi generate` ran: it
    mounts that driver's versioned libraries (`libcuda.so.<version>`) and names GPUs by index and
    UUID. After a driver upgrade the files it mounts are gone, and containers fail to start; after
    a GPU swap it names devices that do not exist. Fix: regenerate the spec (from toolkit 1.18 the
    nvidia-cdi-refresh units do this on driver and toolkit changes, but not on driver removal or MIG
    changes).
    """
    host_driver = facts.host_driver(snap)
    host_uuids = {str(g["uuid"]) for g in facts.gpus(snap) if g.get("uuid")}
    host_count = len(facts.gpus(snap)) or (snap.data("nvidia.driver") or {}).get("gpu_count")
    found = []
    for spec in facts.nvidia_cdi_spec(snap):
        problems, evidence = [], []
        spec_driver = spec.get("driver_version")
        if spec_driver and host_driver and release(spec_driver) != release(host_driver):
            problems.append(
                f"it mounts the libraries of driver {spec_driver}, the host runs {host_driver}"
            )
            evidence.append(
                Evidence(
                    f"container.cdi[{spec['path']}].driver_version", str(spec_driver), host_driver
                )
            )
        gone = sorted(
            u
            for u in spec.get("uuids") or []
            if u.startswith("GPU-") and host_uuids and u not in host_uuids
        )
        if gone:
            problems.append("it names GPUs that are not here: " + ", ".join(gone))
            evidence.append(
                Evidence(
                    f"container.cdi[{spec['path']}].uuids",
                    ", ".join(gone),
                    ", ".join(sorted(host_uuids)),
                )
            )
        indexes = [int(d) for d in spec.get("devices") or [] if str(d).isdigit()]
        if (
            isinstance(host_count, int)
            and host_count > 0
            and indexes
            and max(indexes) >= host_count
        ):
            problems.append(f"it lists GPU index {max(indexes)}, the host has {host_count} GPU(s)")
            evidence.append(
                Evidence(
                    f"container.cdi[{spec['path']}].devices",
                    ", ".join(map(str, indexes)),
                    f"0..{host_count - 1}",
                )
            )
        if not problems:
            continue
        ranked = [fixes.generate_cdi_spec(spec["path"])]
        if snap.fact("container.toolkit", "cdi_refresh_unit"):
            ranked.insert(
                0,
                Fix(
                    "Let the toolkit's refresh service regenerate it",
                    ("sudo systemctl restart nvidia-cdi-refresh.service", "nvidia-ctk cdi list"),
                    Risk.SAFE,
                    fixes.TOOLKIT_CDI_URL,
                ),
            )
        found.append(
            Finding(
                id="container.cdi-spec-stale",
                severity=Severity.ERROR,
                title=f"The CDI spec {spec['path']} is out of date",
                detail=(
                    "Containers started with --device nvidia.com/gpu=... (and Docker 29.2+ --gpus) use this spec, but "
                    + "; ".join(problems)
                    + ". They fail to start or get the wrong GPUs until it is regenerated."
                ),
                evidence=tuple(evidence),
                fixes=tuple(ranked),
            )
        )
    return found


CHECKS = [podman_no_cdi_spec, cdi_spec_stale]
