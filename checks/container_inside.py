"""Inside a container: did the engine give it the GPUs the image expects, and does the driver
satisfy the image's CUDA requirement?"""

from __future__ import annotations

from envdoctor.checks import container_facts as facts
from envdoctor.checks import container_fixes as fixes
from envdoctor.checks import container_require as require
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.queries import nvidia as nvq


@check(
    "container.no-gpus-injected", "container.driver-libs-not-injected", needs=("container.inside",)
)
def no_gpus_injected(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """This container was started without GPUs although its image expects them.

    CUDA images set `NVIDIA_VISIBLE_DEVICES` (usually `all`), but the variable does nothing by
    itself: only the NVIDIA runtime, Docker's `--gpus`, a CDI device (`--device
    nvidia.com/gpu=all`) or a Kubernetes GPU resource make the engine inject /dev/nvidia* and the
    host driver's libcuda / libnvidia-ml. With none of them, every CUDA call fails (`no CUDA-capable
    device is detected`, `torch.cuda.is_available() == False`). Fix: start the container with the GPU
    flag of its engine. A container that has device nodes but no libcuda.so.1 was given devices by
    hand (`--device /dev/nvidia0`) without the driver libraries, or its NVIDIA_DRIVER_CAPABILITIES
    lack `compute`.
    """
    inside = snap.data("container.inside") or {}
    if not inside.get("in_container"):
        return None
    env = inside.get("env") or {}
    engine = inside.get("engine")
    nodes = inside.get("device_nodes") or []
    gpu_nodes = [n for n in nodes if n[len("nvidia") :].isdigit()]
    kube = snap.data("container.kubernetes") or {}
    expects = facts.gpu_requested(env) or bool(
        kube.get("gpu_env") and facts.gpu_requested({"NVIDIA_VISIBLE_DEVICES": kube["gpu_env"]})
    )
    if not expects:
        return None
    if not gpu_nodes and "nvidiactl" not in nodes and not inside.get("dxg"):
        return Finding(
            id="container.no-gpus-injected",
            severity=Severity.WARNING,
            title=f"Inside a {engine or 'container'}, no GPU devices injected",
            detail=(
                f"The image asks for GPUs (NVIDIA_VISIBLE_DEVICES={env.get('NVIDIA_VISIBLE_DEVICES', kube.get('gpu_env'))}), "
                "but no /dev/nvidia* device exists here: the container was started without the NVIDIA runtime, "
                "--gpus, a CDI device or a GPU resource, so CUDA sees no device."
            ),
            evidence=(
                Evidence(
                    "container.inside.env.NVIDIA_VISIBLE_DEVICES",
                    str(env.get("NVIDIA_VISIBLE_DEVICES", kube.get("gpu_env"))),
                ),
                Evidence(
                    "container.inside.device_nodes",
                    ", ".join(nodes) or "(none)",
                    "/dev/nvidia0, /dev/nvidiactl",
                ),
                Evidence("container.inside.engine", str(engine)),
            ),
            fixes=(fixes.gpu_run_fix(engine),),
        )
    if gpu_nodes and not inside.get("libcuda") and not inside.get("dxg"):
        caps = str(env.get("NVIDIA_DRIVER_CAPABILITIES", ""))
        ranked = [fixes.gpu_run_fix(engine)]
        if caps and "compute" not in caps and caps != "all":
            ranked.insert(
                0,
                Fix(
                    "Add the compute capability so the runtime mounts libcuda",
                    (
                        f"docker run --rm --gpus all -e NVIDIA_DRIVER_CAPABILITIES={caps},compute IMAGE",
                    ),
                    Risk.SAFE,
                    fixes.TOOLKIT_SPECIALIZED_URL,
                ),
            )
        return Finding(
            id="container.driver-libs-not-injected",
            severity=Severity.WARNING,
            title="GPU device nodes are here, but the driver's libcuda.so.1 is not",
            detail=(
                "The container has "
                + ", ".join(gpu_nodes)
                + " but no libcuda.so.1: the devices were passed "
                "by hand (--device) without the NVIDIA runtime, or NVIDIA_DRIVER_CAPABILITIES lacks compute."
            ),
            evidence=(
                Evidence("container.inside.device_nodes", ", ".join(nodes)),
                Evidence(
                    "container.inside.libcuda", "(not found)", "libcuda.so.1 from the host driver"
                ),
                Evidence(
                    "container.inside.env.NVIDIA_DRIVER_CAPABILITIES",
                    caps or "(unset: utility,compute)",
                ),
            ),
            fixes=tuple(ranked),
        )
    return None


@check(
    "container.cuda-requirement-unsatisfied",
    needs=("nvidia.driver",),
    needs_any=("container.image", "container.inside"),
    matrices=("cuda_driver",),
)
def cuda_requirement_unsatisfied(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The image's `NVIDIA_REQUIRE_CUDA` asks for a newer CUDA than the host driver supports.

    CUDA images carry `NVIDIA_REQUIRE_CUDA=cuda>=X.Y ...`; the NVIDIA hook compares it with the
    highest CUDA the host driver supports and refuses to start the container:
    `nvidia-container-cli: requirement error: unsatisfied condition: cuda>=X.Y, please update your
    driver to a newer version, or use an earlier cuda container`. Fix: a newer host driver, or an
    image built for the CUDA the driver supports. `NVIDIA_DISABLE_REQUIRE=true` only skips the
    check: the container starts, and CUDA then fails with "driver version is insufficient".
    """
    image = snap.data("container.image")
    inside = snap.data("container.inside") or {}
    if image is not None:
        env, where = image.get("env") or {}, f"image {image.get('image')}"
    elif inside.get("in_container"):
        env, where = inside.get("env") or {}, "this container"
    else:
        return None
    host = require.HostFacts(
        cuda_driver_max=facts.host_cuda_driver_max(snap),
        driver=facts.host_driver(snap),
        brands=tuple(str(g["brand"]) for g in facts.gpus(snap) if g.get("brand")),
        archs=tuple(
            str(g["compute_capability"]) for g in facts.gpus(snap) if g.get("compute_capability")
        ),
    )
    for name, expression in sorted(require.requirements(env).items()):
        failing = require.unsatisfied(expression, host)
        if failing is None:
            continue
        wanted = failing.split(",")[0]
        cuda = wanted.split(">=", 1)[1] if wanted.startswith("cuda>=") else None
        minimum = nvq.min_driver_for_cuda(ms, cuda, "linux") if cuda else None
        bypassed = require.disabled(env)
        started = image is None
        title = (
            f"{where.capitalize()} needs CUDA {cuda or wanted}, the host driver supports CUDA {host.cuda_driver_max}"
            if cuda
            else f"{where.capitalize()} requires {wanted}, which this host does not meet"
        )
        detail = f"{name}={expression!r}. " + (
            "NVIDIA_DISABLE_REQUIRE skipped the check, so the container runs, but CUDA calls will fail because the "
            "driver is too old: that variable is not a fix."
            if bypassed or started
            else f"The container will not start: nvidia-container-cli: requirement error: unsatisfied condition: {failing}"
            + (
                ", please update your driver to a newer version, or use an earlier cuda container."
                if cuda
                else "."
            )
        )
        ranked = []
        if minimum:
            ranked.append(
                Fix(
                    f"Upgrade the host NVIDIA driver to {minimum} or newer (CUDA {cuda} needs it)",
                    (
                        ("sudo ubuntu-drivers install",)
                        if (snap.data("os") or {}).get("distro_id") == "ubuntu"
                        else ()
                    )
                    + ("nvidia-smi",),
                    Risk.NEEDS_RESTART,
                    "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/",
                )
            )
        ranked.append(
            Fix(
                f"Or use an image built for CUDA {host.cuda_driver_max} or older (its tag names the CUDA version)",
                (),
                Risk.SAFE,
                fixes.TOOLKIT_SPECIALIZED_URL,
            )
        )
        return Finding(
            id="container.cuda-requirement-unsatisfied",
            severity=Severity.ERROR,
            title=title,
            detail=detail,
            evidence=(
                Evidence(
                    f"{'container.image' if image is not None else 'container.inside'}.env.{name}",
                    expression,
                ),
                Evidence("nvidia.driver.cuda_driver_max", str(host.cuda_driver_max), wanted),
                Evidence(
                    "nvidia.driver.driver_version",
                    str(host.driver),
                    f">= {minimum}" if minimum else None,
                ),
            ),
            fixes=tuple(ranked),
        )
    return None


CHECKS = [no_gpus_injected, cuda_requirement_unsatisfied]
