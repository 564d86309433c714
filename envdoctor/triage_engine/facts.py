"""The facts conditions and templates use, derived once per snapshot.

torch, GPU and driver facts come from `checks.torch_context.TorchContext` (the same gathering the
torch checks use, so a signature and a fact check cannot disagree about the GPU's compute
capability or the wheel's arch list), completed from what the free text mentions (`pasted.text`)
and from prose phrasings (`envdoctor.triage_engine.prose`) when the snapshot has no structured group.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import parse as parse_version
from envdoctor.triage_engine.distro_release import distro_facts
from envdoctor.triage_engine.gpu_toolkit import derive_gpu_toolkit
from envdoctor.triage_engine.libraries import library_facts
from envdoctor.triage_engine.ngc import ngc_facts
from envdoctor.triage_engine.patterns import LineIndex
from envdoctor.triage_engine.prose import prose_facts


class Facts:
    """The facts of one snapshot under the names conditions use (see `conditions.FACT_NAMES`),
    plus the notable lines and the captures of the signature being evaluated."""

    def __init__(self, snap: Snapshot | None = None, matrices: Any = None) -> None:
        self.text: Mapping[str, Any] = (snap.data("pasted.text") if snap else None) or {}
        self.lines: list[str] = [str(line) for line in self.text.get("lines", [])]
        self.lowered = [line.lower() for line in self.lines]
        self.index = LineIndex(self.lowered)  # where the anchors occur (patterns.LineIndex)
        self.joined = self.index.joined
        self._source: tuple[Snapshot, Any] | None = (snap, matrices) if snap else None
        self._values: dict[str, Any] | None = None if snap else {}
        self.captures: dict[str, str] = {}

    @property
    def matrices(self) -> Any:
        """The matrices these facts are derived with (the bundled set when none was given)."""
        return _matrices(self._source[1] if self._source is not None else None)

    @property
    def values(self) -> dict[str, Any]:
        """The derived facts, computed on first use (most signatures match no line and never
        need them)."""
        if self._values is None:
            snap, matrices = self._source if self._source is not None else (Snapshot(), None)
            self._values = derive(snap, self.text, self.lines, matrices)
        return self._values

    def get(self, name: str) -> Any:
        """A fact's value, or None when unknown."""
        if name.startswith("m."):
            return self.captures.get(name[2:])
        if name.startswith("pkg."):
            return self.values.get("packages", {}).get(normalize(name[4:]))
        if name.startswith("env."):
            return (self.values.get("env") or {}).get(name[4:].upper())
        return self.values.get(name)

    def text_search(self, pattern: re.Pattern[str]) -> str | None:
        """The first notable line the pattern matches."""
        for line in self.lines:
            if pattern.search(line):
                return line
        return None

    def with_captures(self, captures: dict[str, str]) -> Facts:
        """The same facts with a signature's captures (shared lines, no copy)."""
        other = object.__new__(Facts)
        other.text, other.lines, other.lowered, other.joined = (
            self.text,
            self.lines,
            self.lowered,
            self.joined,
        )
        other.index = self.index
        other._source, other._values = self._source, self.values
        other.captures = captures
        return other


def normalize(name: str) -> str:
    """A package name as compared (PEP 503 style, lower-case, runs of -_. as one -)."""
    return re.sub(r"[-_.\s]+", "-", name.lower()).strip("-")


def sm_of(cc: Any) -> int | None:
    """The SM number of a compute capability ("8.6" or "sm_86" -> 86)."""
    match = re.match(r"^\s*(\d+)\.(\d+)", str(cc or ""))
    if match:
        return int(match.group(1)) * 10 + int(match.group(2))
    match = re.match(r"^\s*sm_?(\d+)", str(cc or ""), re.IGNORECASE)
    return int(match.group(1)) if match else None


def _matrices(matrices: Any) -> Any:
    """The matrices given (the engine passes the active set), else the bundled set: the checks'
    layer may not read the installed updates itself."""
    if matrices is not None:
        return matrices
    from envdoctor.matrix.loader import load_bundled

    return load_bundled()


def derive(
    snap: Snapshot, text: Mapping[str, Any], lines: list[str], matrices: Any
) -> dict[str, Any]:
    """Every fact of `conditions.FACT_NAMES` that the snapshot or the text tells."""
    from envdoctor.checks.torch_context import torch_context

    ms = _matrices(matrices)
    ctx = torch_context(snap, ms)
    # an issue form's "### Heading" / answer pairs read as the inline "Heading: answer"
    answers = [str(a) for a in text.get("heading_answers", []) or []]
    prose = prose_facts([*lines, *answers])
    values: dict[str, Any] = {}
    mentioned = text.get("versions", {}) or {}
    system_versions = text.get("system_versions", {}) or {}
    packages = {normalize(k): v for k, v in ctx.installed.items()}
    for name, version in mentioned.items():
        packages.setdefault(normalize(name), version)
    values["packages"] = packages
    # the torch build: the snapshot's python.torch, completed from what the text mentions
    torch_version = (
        ctx.torch.get("version")
        or packages.get("torch")
        or prose.get("torch.printed_version")
        or prose.get("torch.prose_version")
    )
    torch_version = _release_of(torch_version)
    if torch_version and not ctx.torch.get("version"):
        ctx.torch["version"] = torch_version
    variant = ctx.torch.get("variant") or variant_of(torch_version)
    if variant is None and prose.get("torch.prose_build") == "cpu":  # "torch装的是cpu版本"
        variant = "cpu"
    if variant and not ctx.torch.get("variant"):
        ctx.torch["variant"] = variant
    values["torch.version"] = torch_version
    values["torch.variant"] = variant
    cuda = ctx.torch.get("cuda") or cuda_of_variant(variant)
    build = ctx.torch.get("build") or _build_of_variant(variant)
    values["torch.cuda"] = cuda
    values["torch.build"] = build
    values["torch.cuda_available"] = ctx.torch.get("cuda_available")
    _derive_os(snap, text, prose, values)
    values.update(distro_facts([*lines, *answers], ms))  # os.release: the manylinux wheels it takes
    if ctx.os is None:
        ctx.os = "windows" if values.get("os.system") == "Windows" else "linux"
    arch_list = list(text.get("torch_arch_list", []) or [])
    if not arch_list and torch_version and variant:
        arch_list = list(ctx.arches(ms)[0] or [])
    sms = [s for s in (sm_of(a) for a in arch_list) if s is not None]
    minimum = sm_of(text.get("torch_min_cc"))
    if minimum is not None and not sms:
        values["torch.sm_min"] = minimum
    if sms:
        values["torch.sm_max"], values["torch.sm_min"] = max(sms), min(sms)
        values["torch.arch_list"] = arch_list
    elif cuda and build == "cuda" and "torch.sm_min" not in values:
        targets = _nvcc_targets(ms, cuda)
        if targets:
            values["torch.sm_min"], values["torch.sm_max"] = targets
    values["torch.companion_mismatch"] = _companion_mismatch(
        packages, torch_version, variant, values.get("os.system"), ms
    )
    prose_gpu = prose.get("gpu.prose_name")
    _derive_gpu(ctx, text, ms, values, prose_gpu if isinstance(prose_gpu, str) else None)
    if values.get("gpu.count") is None and isinstance(prose.get("gpu.prose_count"), int):
        values["gpu.count"] = prose["gpu.prose_count"]  # "两张3090", "8卡A800", "T4 x 2"
    if values.get("gpu.vendor") is None and prose.get("gpu.prose_vendor"):
        values["gpu.vendor"] = prose["gpu.prose_vendor"]  # "A卡", "N卡": the maker in words
    values["driver.version"] = (
        ctx.driver_version or system_versions.get("driver") or prose.get("driver.version")
    )
    values["driver.cuda_max"] = (
        ctx.driver_max_cuda or system_versions.get("cuda_driver") or prose.get("driver.cuda_max")
    )
    if not values["driver.cuda_max"] and values["driver.version"]:
        from envdoctor.queries.nvidia import max_cuda_for_driver

        system = "windows" if values.get("os.system") == "Windows" else "linux"
        values["driver.cuda_max"] = max_cuda_for_driver(ms, str(values["driver.version"]), system)
    toolkits = snap.data("cuda.toolkits") or {}
    values["cuda.nvcc"] = toolkits.get("nvcc_version") or system_versions.get("nvcc")
    values["cuda.runtime"] = prose.get("cuda.runtime") or values["cuda.nvcc"]
    _derive_driver_floors(ms, values)
    derive_gpu_toolkit(ms, values, lines)  # the GPU against the toolkit's sm range (gpu_toolkit)
    from envdoctor.triage_engine.wheel_tags import cuda_wheel_tag, index_variant_facts

    pinned = prose.get("cuda.pinned")
    values["cuda.pinned"] = str(pinned) if pinned else None
    values["torch.cu_tag"] = cuda_wheel_tag(ms, values, values["cuda.pinned"])
    values.update(index_variant_facts(ms, lines, torch_version))  # an index folder not published
    _derive_extension_pins(ms, values, packages, lines)
    for fact in ("cudnn.version", "cudnn.compiled", "rocm.version"):
        values[fact] = prose.get(fact)
    values["tf.version"] = (
        packages.get("tensorflow")
        or packages.get("tensorflow-gpu")
        or packages.get("tensorflow-cpu")
        or packages.get("tensorflow-intel")  # what `pip list` shows on Windows from 2.12 on
        or packages.get("tensorflow-macos")
        or prose.get("tf.version")
    )
    values["jax.version"] = (
        packages.get("jaxlib") or packages.get("jax") or prose.get("jax.version")
    )
    paddle = packages.get("paddlepaddle-gpu") or packages.get("paddlepaddle")
    values["paddle.version"] = paddle or prose.get("paddle.version")
    values["paddle.cuda"] = paddle_cuda(paddle) or paddle_cuda(prose.get("paddle.post"))
    values["ort.version"] = (
        packages.get("onnxruntime-gpu") or packages.get("onnxruntime") or prose.get("ort.version")
    )
    _derive_framework_builds(ms, values)
    for fact in ("ctx.docker_desktop", "ctx.slurm", "ctx.kubernetes", "ctx.conda", "ctx.grace"):
        values[fact] = prose.get(fact)
    values["env"] = prose.get("env") or {}
    python = snap.data("python") or {}
    values["python.version"] = (
        python.get("version") or system_versions.get("python") or prose.get("python.version")
    )
    extensions = list(text.get("extensions", []) or [])
    values["traceback.extensions"] = extensions or None
    values["traceback.extension"] = extensions[0] if extensions else None
    apps = set(text.get("apps", []) or [])
    if snap.has("apps.vllm"):
        apps.add("vllm")
    for app in ("comfyui", "a1111", "ollama", "vllm", "forge"):
        values[f"app.{app}"] = True if app in apps or prose.get(f"app.{app}") else None
    jetson = (
        snap.has("platform.jetson")
        or "jetson" in (text.get("platforms", []) or [])
        or prose.get("jetson")
    )
    values["jetson"] = True if jetson else None
    values.update(library_facts(lines, text, values, ms))  # libraries.py: lib.*, cuda.required
    values.update(ngc_facts([*lines, *answers], ms, values["driver.version"]))  # ngc.py: ngc.*
    from envdoctor.checks.workload_facts import oom_memory_facts

    values.update(oom_memory_facts(lines))  # memory.*: where an out-of-memory's memory went
    return values


def paddle_cuda(version: Any) -> str | None:
    """The CUDA a paddlepaddle-gpu release is built for, from its `.postNNN` suffix
    ("2.4.2.post117"): from Paddle 2 on the digits are CUDA's major and minor (post117 = CUDA 11.7,
    post120 = 12.0); Paddle 1.x's postXY named CUDA's major and cuDNN's (post97 = CUDA 9 with
    cuDNN 7, post107 = CUDA 10). None without a suffix."""
    found = re.match(r"\s*v?(\d+)\.\d+(?:\.\d+)?\.post(\d{2,3})\b", str(version or ""))
    if found is None:
        return None
    major, digits = found.group(1), found.group(2)
    return digits[:-1] if major == "1" else f"{digits[:-1]}.{digits[-1]}"


def framework_row(ms: Any, package: str, version: Any) -> dict[str, Any] | None:
    """The python_frameworks row of `package` for the release `version` names (its major.minor;
    a row's version may be a wildcard, "1.17.*"), or None."""
    wanted = parse_version(str(version or "").split("+")[0])
    if wanted is None or not ms.has("python_frameworks"):
        return None
    key = tuple((list(wanted.release) + [0])[:2])
    for row in ms.table("python_frameworks").rows:
        if normalize(str(row.get("package"))) != package:
            continue
        have = parse_version(str(row.get("version") or "").replace(".*", ""))
        if have is not None and tuple((list(have.release) + [0])[:2]) == key:
            return dict(row)
    return None


def _derive_framework_builds(ms: Any, values: dict[str, Any]) -> None:
    """What TensorFlow's tested build configurations and onnxruntime-gpu's requirements table
    say for the release the paste names: the CUDA and cuDNN it was built with (`tf.cuda`,
    `tf.cudnn`, `ort.cuda`, `ort.cudnn`), the Pythons it has wheels for (`tf.python`), whether it has a native-Windows GPU build
    (`tf.windows_gpu`), and the newest TensorFlow built for the CUDA / cuDNN installed
    (`tf.for_cuda`, `tf.for_cudnn`)."""
    tf = framework_row(ms, "tensorflow", values.get("tf.version"))
    values["tf.cuda"] = str(tf["cuda"]) if tf and tf.get("cuda") else None
    values["tf.cudnn"] = str(tf["cudnn"]) if tf and tf.get("cudnn") else None
    values["tf.python"] = python_span(tf.get("python")) if tf else None
    windows = tf.get("windows_native_gpu") if tf else None
    values["tf.windows_gpu"] = windows if isinstance(windows, bool) else None
    ort = framework_row(ms, "onnxruntime-gpu", values.get("ort.version"))
    values["ort.cuda"] = str(ort["cuda"]) if ort and ort.get("cuda") else None
    values["ort.cudnn"] = str(ort["cudnn"]) if ort and ort.get("cudnn") else None
    values["tf.for_cuda"] = _newest_tf_for(ms, "cuda", values.get("cuda.runtime"))
    values["tf.for_cudnn"] = _newest_tf_for(ms, "cudnn", values.get("cudnn.version"))


def python_span(pythons: Any) -> str | None:
    """A table row's Python list as its source writes it: ["2.7", "3.3", "3.4", "3.5"] ->
    "2.7, 3.3-3.5"."""
    runs: list[list[str]] = []
    for python in [str(p) for p in pythons or []]:
        last_major, _, last_minor = (runs[-1][-1] if runs else "").partition(".")
        major, _, minor = python.partition(".")
        follows = last_major == major and last_minor.isdigit() and minor.isdigit()
        if follows and int(last_minor) + 1 == int(minor):
            runs[-1].append(python)
        else:
            runs.append([python])
    return ", ".join(r[0] if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs) or None


def _newest_tf_for(ms: Any, column: str, installed: Any) -> str | None:
    """The newest TensorFlow release whose tested `column` (cuda / cudnn) the installed version
    satisfies: the same major, and a minor at least the tested one where the table names it."""
    have = parse_version(str(installed or ""))
    if have is None or not ms.has("python_frameworks"):
        return None
    major, minor = (list(have.release) + [0])[:2]
    best = None
    for row in ms.table("python_frameworks").rows:
        if normalize(str(row.get("package"))) != "tensorflow":
            continue
        tested = parse_version(str(row.get(column) or ""))
        release = parse_version(str(row.get("version") or ""))
        if tested is None or release is None:
            continue
        parts = list(tested.release)
        if parts[0] != major or (len(parts) > 1 and parts[1] > minor):
            continue
        if column == "cuda" and len(parts) > 1 and parts[1] != minor:
            continue  # a CUDA minor other than the tested one: not its build
        if best is None or release > best:
            best = release
    return str(best) if best is not None else None


def _derive_driver_floors(ms: Any, values: dict[str, Any]) -> None:
    """The oldest driver that runs the CUDA in use (`cuda.min_driver`: the release's own driver,
    which a CUDA image also demands through its NVIDIA_REQUIRE_CUDA) and the torch build's CUDA
    (`torch.min_driver`: by the rule the driver fix uses, `queries.nvidia.driver_floor`, so that
    a torch paste names one driver), from the matrices."""
    from envdoctor.queries.nvidia import driver_floor, min_driver_for_cuda

    system = "windows" if values.get("os.system") == "Windows" else "linux"
    runtime = values.get("cuda.runtime")
    values["cuda.min_driver"] = min_driver_for_cuda(ms, str(runtime), system) if runtime else None
    torch_cuda = values.get("torch.cuda")
    values["torch.min_driver"] = (
        driver_floor(ms, str(torch_cuda), system, values.get("driver.cuda_max"))
        if torch_cuda
        else None
    )
    for fact, cuda in (("cuda.driver_runs", "cuda.runtime"), ("torch.driver_runs", "torch.cuda")):
        version = values.get(cuda)
        values[fact] = driver_runs(ms, values, str(version), system) if version else None


def driver_runs(ms: Any, values: Mapping[str, Any], cuda: str, system: str) -> bool | None:
    """Whether code built with CUDA `cuda` runs on the driver the facts name, judged as the
    checks judge it (`queries.nvidia.driver_supports_cuda`: the release's own minimum, or from
    CUDA 11 on the major's minor-version-compatibility floor). Only the release counts: nvcc's
    build number ("12.4.131") is not a CUDA release newer than 12.4.1. With only nvidia-smi's
    "CUDA Version" known: a newer major never runs; the same major (11+) runs through
    minor-version compatibility. None when neither is known."""
    from envdoctor.model.versions import major_minor, parse
    from envdoctor.queries.nvidia import driver_supports_cuda

    release = major_minor(cuda)
    wanted = parse(release) if release else None
    if release is None or wanted is None:
        return None
    driver = values.get("driver.version")
    if driver:
        runs = driver_supports_cuda(ms, str(driver), release, system)
        if runs is not None:
            return runs
    most = values.get("driver.cuda_max")
    top = parse(major_minor(str(most)) or "") if most else None
    if top is None:
        return None
    if wanted <= top:
        return True
    return wanted.release[0] == top.release[0] and wanted.release[0] >= 11


EXTENSION_PACKAGES = ("xformers", "flash-attn", "bitsandbytes")


def _derive_extension_pins(
    ms: Any, values: dict[str, Any], packages: Mapping[str, Any], lines: list[str]
) -> None:
    """For a compiled extension package in the paste (the traceback's, else one installed):
    `ext.name`, the torch its installed release was built for (`ext.torch_needed`, from the
    python_frameworks table) and its release built for the installed torch (`ext.for_torch`)."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet
    from packaging.version import InvalidVersion, Version

    named = [normalize(str(e)) for e in values.get("traceback.extensions") or []]
    candidates = [n for n in (*named, *EXTENSION_PACKAGES) if n in EXTENSION_PACKAGES]
    mentioned = [
        n
        for n in EXTENSION_PACKAGES
        if any(n.replace("-", "_") in x.lower() or n in x.lower() for x in lines)
    ]
    name = next((n for n in candidates if n in packages or n in named), None) or next(
        iter(mentioned), None
    )
    values["ext.name"] = name
    values["ext.torch_needed"] = values["ext.for_torch"] = None
    if name is None or not ms.has("python_frameworks"):
        return
    rows = [
        r for r in ms.table("python_frameworks").rows if normalize(str(r.get("package"))) == name
    ]
    installed = str(packages.get(name) or "").split("+")[0]
    torch = str(values.get("torch.version") or "").split("+")[0]
    for row in rows:
        try:
            spec = SpecifierSet(str(row.get("torch") or ""))
        except InvalidSpecifier:
            continue
        if installed and str(row.get("version")) == installed and str(spec):
            values["ext.torch_needed"] = str(spec)
        try:
            if torch and str(spec) and Version(torch) in spec:
                values["ext.for_torch"] = str(row.get("version"))
        except InvalidVersion:
            continue


_RELEASE = re.compile(
    r"^\s*v?(\d+(?:\.\d+){0,3}(?:(?:a|b|rc|\.dev|\.post)\d+)?(?:\+[a-z0-9.]+)?)", re.I
)


def _release_of(version: Any) -> Any:
    """A version as the package reports it, without what followed it in a wheel file name
    ("2.1.0+cu121-cp310-cp310-linux_x86_64.whl" -> "2.1.0+cu121") or a web page's
    ("1.4.0+cu101.html" -> "1.4.0+cu101"); other values unchanged."""
    if not isinstance(version, str):
        return version
    from envdoctor.model.versions import clean_version

    found = _RELEASE.match(version)
    return clean_version(found.group(1)) if found else version


def _build_of_variant(variant: str | None) -> str | None:
    if not variant:
        return None
    if variant == "cpu":
        return "cpu"
    if variant.startswith("cu"):
        return "cuda"
    if variant.startswith("rocm"):
        return "rocm"
    return None


def variant_of(version: Any) -> str | None:
    """The wheel variant of a version's local label ("2.5.1+cu124" -> "cu124"), or None."""
    if not version or "+" not in str(version):
        return None
    match = re.match(r"(cpu|cu\d+|rocm\d+(?:\.\d+)*|xpu)", str(version).split("+", 1)[1].lower())
    return match.group(1) if match else None


def cuda_of_variant(variant: str | None) -> str | None:
    """The CUDA release of a variant ("cu124" -> "12.4"), or None."""
    match = re.match(r"cu(\d+)(\d)$", variant or "")
    return f"{match.group(1)}.{match.group(2)}" if match else None


def _companion_mismatch(
    packages: Mapping[str, str],
    torch_version: Any,
    variant: str | None,
    system: str | None,
    matrices: Any,
) -> bool | None:
    """Whether torchvision / torchaudio belong to another release or variant than torch (None
    when unknown). Releases pair as the torchvision README's table does: torch 2.N with
    torchvision 0.(N+15) and torchaudio 2.N; torch 1.N with torchvision 0.(N+1), torchaudio 0.N."""
    from envdoctor.queries.torch import companion_versions

    if not torch_version:
        return None
    torch_release = parse_version(str(torch_version))
    if torch_release is None:
        return None
    major, minor = (list(torch_release.release) + [0])[:2]
    expected = {
        str(k): str(v) for k, v in (companion_versions(matrices, str(torch_version)) or {}).items()
    }
    if not expected:
        if major == 2:
            expected = {"torchvision": f"0.{minor + 15}", "torchaudio": f"2.{minor}"}
        elif major == 1 and minor >= 4:
            expected = {"torchvision": f"0.{minor + 1}", "torchaudio": f"0.{minor}"}
    seen = False
    for name in ("torchvision", "torchaudio"):
        version = packages.get(name)
        if not version:
            continue
        seen = True
        want = expected.get(name)
        have = parse_version(str(version))
        if want and have is not None:
            want_v = parse_version(want)
            if want_v is not None and tuple(have.release[:2]) != tuple(want_v.release[:2]):
                return True
        companion_variant = variant_of(version)
        if variant and companion_variant and variant != companion_variant:
            return True
        if variant == "cpu" and companion_variant is None and system not in ("Windows", "Darwin"):
            return True
    return False if seen else None


def _derive_gpu(
    ctx: Any,
    text: Mapping[str, Any],
    ms: Any,
    values: dict[str, Any],
    prose_name: str | None = None,
) -> None:
    """GPU facts: the context's NVIDIA GPUs (capability from the driver or the nvidia_gpus table),
    its AMD GPUs, else the GPU names the text mentions (or prose names by number: "显卡为4060",
    or a cloud instance type: "ml.p2.xlarge"),
    looked up in the same table; a family name ("A100") gets the capability all its models
    share. An AMD GPU named without its gfx target ("RX 6700 XT") gets the one rocm_targets
    lists for the product."""
    from envdoctor.queries.nvidia import capability_by_name, gpu_by_name
    from envdoctor.queries.rocm import gfx_for_product

    names = [str(g["name"]) for g in ctx.gpus + ctx.amd_gpus if g.get("name")]
    ccs = [str(c) for c in ctx.capabilities]
    if not names:
        names = [str(n) for n in text.get("gpus", []) or []]
    if not names and prose_name:
        names = [prose_name]
    if not names and not ccs:  # a cloud instance type names its GPU ("ml.p2.xlarge": a K80)
        from envdoctor.queries.cloud import gpu_for_instance

        lines = [str(x) for x in text.get("lines", []) or []]
        named = gpu_for_instance(ms, lines) if ms is not None else None
        names = [named] if named else names
    named_ccs: dict[str, str] = {}  # each named GPU's capability, where the tables know it
    if not ccs:
        ccs = [str(c) for c in text.get("compute_capabilities", []) or []]
        for name in names:
            row = gpu_by_name(ms, name)
            if row and row.get("compute_capability"):
                named_ccs[name] = str(row["compute_capability"])
            elif row is None:  # a family ("NVIDIA A100"): the models it starts, if they agree
                shared = (
                    capability_by_name(ms, f"{name} ...")
                    or _tesla_capability(ms, name)
                    or _series_capability(name)
                    or _arch_capability(ms, name)
                )
                if shared:
                    named_ccs[name] = shared
        ccs += named_ccs.values()
    vendor = "nvidia" if ctx.gpus else ("amd" if ctx.amd_gpus else None)
    if vendor is None and names:
        vendor = _vendor_of(names[0])
    sms = [s for s in (sm_of(c) for c in ccs) if s is not None]
    values["gpu.names"] = names or None
    values["gpu.name"] = names[0] if names else None
    if sms:  # the name beside gpu.cc is the GPU that has it ("Tesla K80 ... a V100": the V100)
        top_name = [n for n, c in named_ccs.items() if sm_of(c) == max(sms)]
        values["gpu.name"] = top_name[0] if top_name else values["gpu.name"]
    values["gpu.count"] = len(ctx.gpus + ctx.amd_gpus) or None
    values["gpu.vendor"] = vendor or ("nvidia" if sms else None)
    if sms:
        top = max(sms)
        values["gpu.sm"], values["gpu.sm_min"] = top, min(sms)
        values["gpu.cc"] = f"{top // 10}.{top % 10}"
        values["gpu.sm_name"] = f"sm_{top}"
    gfx = [g.get("gfx_target") for g in ctx.amd_gpus if g.get("gfx_target")] + list(
        text.get("gfx_targets", []) or []
    )
    if not gfx and values["gpu.vendor"] == "amd":  # a Radeon named, its target not printed
        gfx = [g for g in (gfx_for_product(ms, n) for n in names) if g][:1]
    values["gpu.gfx"] = gfx[0] if gfx else None


def _vendor_of(name: str) -> str | None:
    low = name.lower()
    if any(k in low for k in ("radeon", "instinct", "amd ", "gfx")):
        return "amd"
    if any(k in low for k in ("intel", " arc ", "iris", "uhd graphics")):
        return "intel"
    if any(k in low for k in ("nvidia", "geforce", "rtx", "gtx", "quadro", "tesla", "titan")):
        return "nvidia"
    return None


def _derive_os(
    snap: Snapshot, text: Mapping[str, Any], prose: Mapping[str, Any], values: dict[str, Any]
) -> None:
    os_facts = snap.data("os") or {}
    mentions = [str(m) for m in text.get("os_mentions", []) or []]
    system = os_facts.get("system")
    wsl = os_facts.get("virtualization") == "wsl" if os_facts else None
    if "wsl" in mentions:
        wsl = True
    if prose.get("os.wsl"):  # "在WSL2里", "Linux子系统": glued to Chinese, the reader misses them
        wsl = True
    if system is None:
        if "wsl" in mentions or "linux" in mentions:
            system = "Linux"
        elif "windows" in mentions:
            system = "Windows"
        elif "macos" in mentions:
            system = "Darwin"
    if system is None:  # the prose reader's ASCII word rules: "win10系统", "centos7服务器"
        # Wine / Proton run Windows programs on a Linux host: their .exe names are no Windows
        linux = prose.get("os.linux") or prose.get("os.wine")
        windows = prose.get("os.windows") and not prose.get("os.wine")
        if wsl or (linux and not windows):
            system = "Linux"
        elif windows and not linux:
            system = "Windows"
    values["os.system"] = system
    values["os.wsl"] = True if wsl else None
    values["os.arch"] = os_facts.get("arch") or (text.get("arch") or None)
    values["os.distro"] = (
        os_facts.get("distro_id") or (text.get("distro") or None) or prose.get("os.distro")
    )
    values["os.windows_build"] = os_facts.get("windows_build") or text.get("windows_build")
    opengl = snap.data("platform.opengl") or {}
    if opengl.get("d3d12"):
        values["os.wsl"] = True
        values["os.system"] = values["os.system"] or "Linux"
    values["opengl.software"] = opengl.get("software")
    virtualization = os_facts.get("virtualization")
    container = (
        virtualization in ("docker", "podman", "kubernetes", "lxc")
        or "container" in mentions
        or bool(prose.get("os.container"))  # "docker容器里", "容器内", a rented AutoDL instance
    )
    values["os.container"] = True if container else None


def _nvcc_targets(ms: Any, cuda: str) -> tuple[int, int] | None:
    """(min_sm, max_sm) nvcc of the CUDA release `cuda` builds for: the matrices' table, else
    signatures/_common.toml's fallback rows (same major, nearest release at or below)."""
    from envdoctor.queries.nvidia import nvcc_targets
    from envdoctor.triage_engine.loader import DATA

    found = nvcc_targets(ms, cuda)
    if found:
        return found
    wanted = parse_version(str(cuda))
    if wanted is None:
        return None
    major_minor = tuple((list(wanted.release) + [0])[:2])
    best = None
    for row in DATA.arch_rows:
        have = parse_version(str(row["cuda"]))
        if have is None:
            continue
        key = tuple((list(have.release) + [0])[:2])
        if key[0] != major_minor[0] or key > major_minor:
            continue
        if best is None or key > best[0]:
            best = (key, row)
    return (int(best[1]["min_sm"]), int(best[1]["max_sm"])) if best else None


def _series_capability(name: str) -> str | None:
    """The capability of a GeForce generation named in words ("NVIDIA GeForce RTX 30 series", from
    "30系显卡"): every card of it shares one."""
    from envdoctor.triage_engine.prose_gpu import SERIES_CAPABILITY

    found = re.search(r"(\d+) series$", name)
    return SERIES_CAPABILITY.get(found.group(1)) if found else None


def _arch_capability(ms: Any, name: str) -> str | None:
    """The capability to choose builds by for an architecture named in words ("NVIDIA Pascal
    GPU"): the lowest the architecture table lists for it (a build with kernels for 6.0 runs on
    every 6.x card: a cubin runs on later minors of its major), None for an architecture whose
    capabilities span majors (Blackwell: 10.0 and 12.0) or one the table does not have."""
    found = re.fullmatch(r"NVIDIA (.+) GPU", name)
    if found is None or ms is None or not ms.has("nvidia_arch_support"):
        return None
    ccs = [
        str(row["compute_capability"])
        for row in ms.table("nvidia_arch_support").rows
        if str(row.get("arch", "")).lower() == found.group(1).lower()
    ]
    majors = {cc.split(".")[0] for cc in ccs}
    if len(majors) != 1:
        return None
    return min(ccs, key=lambda cc: tuple(int(x) for x in cc.split(".")))


def _tesla_capability(ms: Any, name: str) -> str | None:
    """The capability of a data-centre card named without its "Tesla" brand ("V100", "NVIDIA
    P40"): the GPU table spells the Volta and older ones "Tesla V100-SXM2-16GB", "Tesla P40"."""
    from envdoctor.queries.nvidia import capability_by_name, gpu_by_name

    model = re.sub(r"^(?:nvidia\s+)?(?:tesla\s+)?", "", name.strip(), flags=re.IGNORECASE)
    if not re.match(r"^[KMPTV]\d{1,3}\b", model, re.IGNORECASE):
        return None
    row = gpu_by_name(ms, f"Tesla {model}")
    if row and row.get("compute_capability"):
        return str(row["compute_capability"])
    return capability_by_name(ms, f"Tesla {model} ...")
