"""An application asked about (or installed) on a machine with no usable GPU: what is missing,
and what the app can still do here (its CPU mode, in its own terms). Also: --app names
envdoctor does not know."""

from __future__ import annotations

import shlex
from typing import Any

from envdoctor.checks import apps_facts as af
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.queries import apps as aq

GPU_APPS = ("vllm", "comfyui", "webui", "textgen", "ollama", "llamacpp", "torchserve", "halcon")
CPU_FIRST = (
    "ollama",
    "llamacpp",
)  # run on the CPU as a matter of course: reported only when asked about
VLLM_CPU_DOCS = "https://docs.vllm.ai/en/latest/getting_started/installation/cpu.html"
_IDS = tuple(f"app.{app}.no-gpu" for app in GPU_APPS)

# What each app can still do without a GPU, in its own words (commands filled in below).
_CPU_WORDS = {
    "vllm": "vLLM's CPU backend (Linux, x86 or Arm: inference and serving in FP32, FP16 and BF16, slower than a GPU)",
    "comfyui": "ComfyUI runs everything on the CPU with --cpu (slow)",
    "webui": "the web UI runs on the CPU with --use-cpu all --skip-torch-cuda-test in COMMANDLINE_ARGS (slow)",
    "textgen": "text-generation-webui runs on the CPU with --cpu in CMD_FLAGS.txt",
    "ollama": "Ollama runs models on the CPU by itself (slowly); nothing to change",
    "llamacpp": "a CPU build of llama.cpp runs here; keep every layer on the CPU with -ngl 0",
    "torchserve": "TorchServe serves on the CPU with number_of_gpu=0 in config.properties",
    "halcon": "HALCON's deep-learning operators can use only the devices query_available_dl_devices lists "
    "(the CPU where the method supports it)",
}


def _cpu_fix(snap: Snapshot, ms: MatrixSet, app: str) -> Fix | None:
    row = aq.cpu_mode(ms, app)
    url = row.get("source") if row else None
    entry: dict[str, Any] = next(iter(af.entries(snap, app)), {})
    folder = entry.get("where")
    python = (entry.get("venv") or {}).get("python") or "python"
    if app == "vllm":
        return _vllm_cpu_fix(snap, ms)
    if app == "comfyui":
        cmd = (
            f"cd {shlex.quote(folder)} && {shlex.quote(python)} main.py --cpu"
            if folder
            else "python main.py --cpu"
        )
        return Fix(f"Run on the CPU: {_CPU_WORDS[app]}", (cmd,), Risk.SAFE, url)
    if app == "webui":
        line = webui_args_line(entry, ["--use-cpu", "all", "--skip-torch-cuda-test"])
        return Fix(f"Run on the CPU: put this line in {webui_file(entry)}", (line,), Risk.SAFE, url)
    if app == "textgen":
        flags = entry.get("launch_file") or (
            f"{folder}/user_data/CMD_FLAGS.txt" if folder else "user_data/CMD_FLAGS.txt"
        )
        return Fix(
            f"Run on the CPU: {_CPU_WORDS[app]}",
            (f"echo --cpu >> {shlex.quote(flags)}",),
            Risk.SAFE,
            url,
        )
    if app == "torchserve":
        return Fix(
            f"Run on the CPU: {_CPU_WORDS[app]}",
            ("echo number_of_gpu=0 >> config.properties",),
            Risk.SAFE,
            url,
        )
    return Fix(f"What it can do here: {_CPU_WORDS[app]}", (), Risk.SAFE, url)


def webui_args_line(entry: dict, add: list[str]) -> str:
    """The COMMANDLINE_ARGS line for webui-user.sh (or .bat): what it has, plus each flag of `add`
    (with the values that follow it) that it lacks."""
    current = [str(a) for a in entry.get("launch_args") or []]
    chunks: list[list[str]] = []
    for token in add:
        if token.startswith("--") or not chunks:
            chunks.append([token])
        else:
            chunks[-1].append(token)
    args = current + [t for chunk in chunks if chunk[0] not in current for t in chunk]
    text = " ".join(args)
    if str(entry.get("launch_file") or "").endswith(".bat"):
        return f"set COMMANDLINE_ARGS={text}"
    return f'export COMMANDLINE_ARGS="{text}"'


def webui_file(entry: dict) -> str:
    """The webui-user file to edit."""
    return str(entry.get("launch_file") or "webui-user.sh (in the stable-diffusion-webui folder)")


def _vllm_cpu_fix(snap: Snapshot, ms: MatrixSet) -> Fix | None:
    row = aq.row(ms, "vllm", "cpu-backend-x86") or {}
    wheel = aq.row(ms, "vllm", "cpu-backend-wheel") or {}
    arch = str(snap.fact("os", "arch") or "")
    flags = snap.fact("apps.detected", "cpu_flags")
    if af.os_name(snap) not in ("linux", "wsl", None):
        return Fix(
            "vLLM's CPU backend needs Linux (run it in WSL 2 or a Linux container)",
            (),
            Risk.SAFE,
            VLLM_CPU_DOCS,
        )
    if arch and arch not in ("x86_64", "amd64"):
        return Fix(
            f"vLLM's CPU backend for {arch}: build it from source as its CPU installation page describes",
            (),
            Risk.SAFE,
            VLLM_CPU_DOCS,
        )
    commands = tuple(c for c in (row.get("command"), wheel.get("command")) if c)
    if flags is None:
        return Fix(
            "vLLM's CPU backend (x86: avx512f recommended, avx2 with limited features; check with lscpu)",
            commands,
            Risk.SAFE,
            row.get("source"),
        )
    if "avx512f" in flags:
        what = "this CPU has avx512f, the flag vLLM recommends"
    elif "avx2" in flags:
        what = "this CPU has avx2 but not avx512f: vLLM's CPU backend runs with limited features"
    else:
        return Fix(
            "vLLM's CPU backend needs avx512f (recommended) or avx2, which this CPU lacks: use llama.cpp "
            "or Ollama on the CPU instead",
            (),
            Risk.SAFE,
            row.get("source"),
        )
    return Fix(
        f"Serve on the CPU with vLLM's CPU backend ({what}): the pre-built image or wheel",
        commands,
        Risk.SAFE,
        row.get("source"),
    )


def _gpu_fix(snap: Snapshot, ms: MatrixSet, app: str) -> Fix:
    if af.nvidia_on_pci(snap):
        return Fix(
            "An NVIDIA GPU is on the PCI bus but has no working driver: fix the driver first",
            ("envdoctor explain nvidia.no-driver-bound",),
            Risk.SAFE,
        )
    floor = aq.min_compute(ms, app)
    need = f" (NVIDIA: compute capability {floor[0][0]} or higher)" if floor else ""
    if af.in_container(snap):
        return Fix(
            f"For GPU use, run {af.label(app)} on a host with a supported GPU{need} and pass the GPU into "
            "the container (docker run --gpus all ...; needs the NVIDIA Container Toolkit on the host)",
            (),
            Risk.SAFE,
            "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html",
        )
    return Fix(
        f"For GPU use, run {af.label(app)} on a machine with a supported GPU{need}",
        (),
        Risk.SAFE,
        (floor[0][1].get("source") if floor else None),
    )


@check(*_IDS, needs=("apps.detected",), matrices=("apps",))
def app_without_gpu(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """An application you asked about (`--app NAME`) or that is installed cannot use a GPU here,
    because no GPU is usable: no NVIDIA GPU reported by a driver, no AMD GPU.

    The finding says what is missing (read from the GPU probes: nothing on the PCI bus, no
    driver, a container with no GPU passed in) and what the application can still do on this
    machine, in its own terms: vLLM's CPU backend (Linux x86 with avx512f recommended or avx2 with
    limited features, from its CPU installation page), ComfyUI's `--cpu`, the web UI's
    `--use-cpu all --skip-torch-cuda-test` in COMMANDLINE_ARGS, text-generation-webui's `--cpu` in
    CMD_FLAGS.txt, Ollama and llama.cpp on the CPU, TorchServe with number_of_gpu=0. A warning
    when you asked about the app, info when it is merely installed (Ollama and llama.cpp, which run
    on the CPU as a matter of course, only when asked); nothing when a GPU probe failed (then it
    is unknown, not absent).
    """
    if af.any_gpu(snap, ms) or af.gpu_unknown(snap):
        return []
    findings = []
    reasons = af.no_gpu_reasons(snap) or ["no GPU reported by any driver"]
    for app in GPU_APPS:
        if not af.present(snap, app) or (app in CPU_FIRST and not af.asked(snap, app)):
            continue
        fixes = [f for f in (_cpu_fix(snap, ms, app), _gpu_fix(snap, ms, app)) if f is not None]
        what = "asked about with --app" if af.asked(snap, app) else "installed here"
        found = af.entries(snap, app)
        evidence = [
            Evidence("GPU", "; ".join(reasons), "an NVIDIA or AMD GPU with a working driver"),
            Evidence(
                "apps.detected",
                f"{af.label(app)} {what}" + (f" ({af.where(found[0])})" if found else ""),
            ),
        ]
        findings.append(
            Finding(
                id=f"app.{app}.no-gpu",
                severity=af.severity_for(snap, app),
                title=f"{af.label(app)} cannot use a GPU here: no NVIDIA or AMD GPU is usable",
                detail=(
                    f"Missing for GPU use: {'; '.join(reasons)}. "
                    f"What {af.label(app)} can still do on this machine: {_CPU_WORDS[app]}."
                ),
                evidence=tuple(evidence),
                fixes=tuple(fixes),
            )
        )
    return findings


@check("app.unknown", needs=("apps.detected",), matrices=("apps",))
def unknown_app(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """`--app NAME` named an application envdoctor has no knowledge of, so nothing was checked
    for it: its requirements are not in envdoctor's `apps` table (matrices/apps.toml). The finding
    lists the names it knows; aliases such as a1111, stable-diffusion-webui, llama.cpp,
    text-generation-webui or oobabooga work too. Always info."""
    unknown = [str(n) for n in snap.fact("apps.detected", "unknown_requested") or []]
    if not unknown:
        return None
    known = ", ".join(aq.known_apps(ms))
    return Finding(
        id="app.unknown",
        severity=Severity.INFO,
        title=f"envdoctor knows nothing about {', '.join(unknown)}",
        detail=f"No requirements of {', '.join(unknown)} are in envdoctor's tables, so nothing was "
        f"checked for it. Known applications: {known}.",
        evidence=(Evidence("--app", ", ".join(unknown), f"one of {known}"),),
        fixes=(
            Fix(
                "Ask about a known application", (f"envdoctor check --app {aq.known_apps(ms)[0]}",)
            ),
        ),
    )


CHECKS = [app_without_gpu, unknown_app]
