"""Which CUDA libraries the loader really picks: shadowed wheels, mixed conda/pip CUDA, missing cuDNN."""

from __future__ import annotations

import posixpath
import re
import shlex
from typing import Any

from envdoctor.checks import cuda_shell
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.names import canonical_name
from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import release

_LD_SO = "https://man7.org/linux/man-pages/man8/ld.so.8.html"
_NVJITLINK_CASE = "https://github.com/infiniflow/ragflow/issues/4466"
_FASTER_WHISPER_GPU = "https://github.com/SYSTRAN/faster-whisper#gpu"
_LOADER_ROUTES = ("LD_PRELOAD", "LD_LIBRARY_PATH", "ldconfig", "default-dir")

# What users see when the wrong copy of each family wins (the families issue #4 names).
_SYMPTOMS = {
    "nvjitlink": "`libcusparse.so.12: undefined symbol: __nvJitLink…, version libnvJitLink.so.12` at import",
    "cusparse": "`undefined symbol: __nvJitLink…` or cuSPARSE errors at import",
    "cudnn": (
        "`RuntimeError: cuDNN version incompatibility`, or `libcudnn_*.so.N: cannot open shared object "
        "file` / `Could not load library libcudnn_…` at the first convolution"
    ),
    "cublas": "`undefined symbol` errors from libcublas / libcublasLt, or CUBLAS_STATUS_* failures",
    "cudart": "`undefined symbol` errors or CUDA runtime version errors at import",
    "nccl": "`undefined symbol: ncclCommInitRankConfig`-style errors or NCCL hangs in distributed runs",
    "tensorrt": "TensorRT version-mismatch errors when building or loading engines",
}


def _kind(route: str | None) -> str:
    return (route or "").split("[", 1)[0]


def _on_loader_path(copy: dict[str, Any]) -> bool:
    return any(_kind(r) in _LOADER_ROUTES for r in copy.get("routes", []))


def _same_release(a: str | None, b: str | None) -> bool | None:
    """Same major.minor.patch ("9.1.0" from a header is the wheel's "9.1.0.70"); None if unknown."""
    first, second = release(a), release(b)
    if first is None or second is None:
        return None
    return (first.release + (0, 0))[:3] == (second.release + (0, 0))[:3]


@check("cuda.ld-library-path-shadows-wheel", needs=("cuda.libraries",))
def ld_library_path_shadows_wheel(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """LD_LIBRARY_PATH or LD_PRELOAD puts other CUDA/cuDNN libraries ahead of those a wheel bundles.

    pip wheels of PyTorch, JAX and others depend on nvidia-*-cu11/cu12/cu13 wheels, whose
    libraries live in site-packages/nvidia/<name>/lib. The framework finds them through its
    RUNPATH, and the dynamic loader searches LD_PRELOAD and LD_LIBRARY_PATH first (ld.so(8)).
    So a system toolkit or conda env on LD_LIBRARY_PATH that holds a library with the same soname
    (libcudnn.so.9, libnvJitLink.so.12) wins, and the framework runs against a version it was not
    built for. Typical results: `undefined symbol: __nvJitLinkAddData_12_1, version
    libnvJitLink.so.12` (an older nvJitLink from /usr/local/cuda-12.1/lib64 next to a newer
    cuSPARSE wheel), `cuDNN version incompatibility`, or `libcudnn_*.so.9: cannot open shared
    object file` (the shadowing folder has libcudnn.so.9 but not the sub-libraries it loads).

    Fix: take the folder out of LD_LIBRARY_PATH (and out of the shell profile that adds it), or
    unset LD_PRELOAD. The wheels need no LD_LIBRARY_PATH at all.
    """
    libraries = snap.data("cuda.libraries") or {}
    env = snap.data("cuda.env") or {}
    copies = libraries.get("copies", [])
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for copy in copies:
        shadow = copy.get("shadowed_by")
        if copy.get("origin") != "pip-wheel" or not shadow:
            continue
        if _same_release(copy.get("version"), shadow.get("version")):
            continue
        key = (
            _kind(shadow.get("via")),
            posixpath.dirname(shadow["path"])
            if _kind(shadow.get("via")) != "LD_PRELOAD"
            else shadow["path"],
        )
        groups.setdefault(key, []).append(copy)
    findings = [
        _shadow_finding(kind, where, wheel_copies, copies, env, libraries)
        for (kind, where), wheel_copies in groups.items()
    ]
    return findings + _ldd_findings(copies)


def _ldd_findings(copies: list[dict[str, Any]]) -> list[Finding]:
    """Pasted `ldd` of a wheel's library that resolved a CUDA dependency outside the wheels."""
    by_dir: dict[str, list[dict[str, Any]]] = {}
    for copy in copies:
        needed_by = copy.get("needed_by") or ""
        if (
            copy.get("via") != "ldd"
            or copy.get("origin") == "pip-wheel"
            or not re.search(r"/(?:site|dist)-packages/(?:torch/lib/\.\./\.\./)?nvidia/", needed_by)
        ):
            continue
        by_dir.setdefault(posixpath.dirname(copy["path"]), []).append(copy)
    findings = []
    for folder, group in by_dir.items():
        families = sorted({c["family"] for c in group})
        symptoms = "; ".join(_SYMPTOMS[f] for f in families if f in _SYMPTOMS)
        detail = (
            "ldd shows a library of a pip nvidia wheel loading "
            + "; ".join(
                f"{c['soname']} from {c['path']} ({c['origin']}) for {c['needed_by']}"
                for c in group
            )
            + f". A wheel's library finds its siblings through RUNPATH, which the loader searches after "
            f"LD_PRELOAD and LD_LIBRARY_PATH, so {folder} is on LD_LIBRARY_PATH (unless the wheel's own "
            "copy is missing and the ldconfig cache supplied this one)."
        )
        if symptoms:
            detail += f" Expect: {symptoms}."
        drop = shlex.quote(folder)
        findings.append(
            Finding(
                id="cuda.ld-library-path-shadows-wheel",
                severity=Severity.ERROR,
                title=f"A pip nvidia wheel loads {'/'.join(families)} from {folder} instead of its own copy",
                detail=detail,
                evidence=tuple(
                    Evidence(
                        f"ldd {c['needed_by']}",
                        f"{c['soname']} => {c['path']}",
                        "a copy in site-packages/nvidia",
                    )
                    for c in group
                ),
                fixes=(
                    Fix(
                        f"Take {folder} out of LD_LIBRARY_PATH in this shell",
                        (
                            f"export LD_LIBRARY_PATH=$(printf %s \"$LD_LIBRARY_PATH\" | tr ':' '\\n' | grep -vxF {drop} "
                            "| paste -sd: -)",
                        ),
                        Risk.SAFE,
                        _NVJITLINK_CASE,
                    ),
                    Fix(
                        f"Delete the lines of ~/.bashrc that add {folder} to LD_LIBRARY_PATH (a copy is kept "
                        "as ~/.bashrc.bak), then open a new shell",
                        (
                            f"sed -i.bak '\\#LD_LIBRARY_PATH=.*{folder.replace('#', '[#]')}#d' ~/.bashrc",
                        ),
                        Risk.SAFE,
                    ),
                ),
            )
        )
    return findings


def _shadow_finding(
    kind: str,
    where: str,
    wheel_copies: list[dict[str, Any]],
    copies: list[dict[str, Any]],
    env: dict[str, Any],
    libraries: dict[str, Any],
) -> Finding:
    variable = "LD_PRELOAD" if kind == "LD_PRELOAD" else "LD_LIBRARY_PATH"
    families = sorted({c["family"] for c in wheel_copies})
    packages = sorted(
        {f"{c['package']} {c['package_version']}" for c in wheel_copies if c.get("package")}
    )
    wheel_names = {c["package"] for c in wheel_copies if c.get("package")}
    users = [
        name
        for name, lines in sorted(libraries.get("framework_requires", {}).items())
        if any(_requirement_name(line) in wheel_names for line in lines)
    ]
    who = ", ".join(users) or "frameworks using the pip nvidia wheels"
    one = len(users) == 1
    pairs = []
    unknown = False
    for copy in wheel_copies:
        shadow = copy["shadowed_by"]
        if not copy.get("version") or not shadow.get("version"):
            unknown = True
        pairs.append(
            f"{copy['soname']}: {shadow['path']} ({shadow.get('version') or 'version unknown'}, "
            f"{shadow.get('origin')}) instead of {copy['path']} ({copy.get('version') or 'version unknown'})"
        )
    missing_subs = (
        _missing_cudnn_sublibraries(where, wheel_copies, copies) if kind != "LD_PRELOAD" else []
    )
    symptoms = "; ".join(_SYMPTOMS[f] for f in families if f in _SYMPTOMS)
    detail = (
        f"{variable} {'preloads' if kind == 'LD_PRELOAD' else 'contains'} {where}, which the dynamic loader "
        f"searches before the RUNPATH through which {who} {'finds its' if one else 'find their'} bundled libraries"
        f"{' (' + ', '.join(packages) + ')' if packages else ''}. They load: "
        + "; ".join(pairs)
        + "."
    )
    if missing_subs:
        detail += (
            f" {where} also lacks {', '.join(missing_subs)}, which cuDNN loads by name next: "
            "expect `cannot open shared object file`."
        )
    if symptoms:
        detail += f" Expect: {symptoms}."
    fixes = []
    entries = [e["path"] for e in env.get(variable, {}).get("entries", [])]
    if kind == "LD_PRELOAD":
        remaining = cuda_shell.without(entries, [where])
    else:
        remaining = [e for e in cuda_shell.without(entries, [where]) if e]
    fixes.append(
        Fix(
            f"Take {where} out of {variable} in this shell",
            (cuda_shell.set_variable_command(variable, remaining),),
            Risk.SAFE,
            _LD_SO,
        )
    )
    toolkit_root = posixpath.dirname(where.rstrip("/"))
    lines = cuda_shell.profile_lines(
        env, variable, [where, toolkit_root if toolkit_root != "/" else where]
    )
    profile_fix = cuda_shell.delete_lines_fix(lines, f"so new shells stop adding it to {variable}")
    if profile_fix:
        fixes.append(profile_fix)
    severity = Severity.WARNING if unknown and not missing_subs else Severity.ERROR
    title_where = posixpath.basename(where) if kind == "LD_PRELOAD" else where
    return Finding(
        id="cuda.ld-library-path-shadows-wheel",
        severity=severity,
        title=f"{variable} puts {title_where} ahead of the {'/'.join(families)} libraries that {who} "
        f"{'bundles' if one else 'bundle'}",
        detail=detail,
        evidence=tuple(
            Evidence(f"loader picks {c['soname']}", c["shadowed_by"]["path"], c["path"])
            for c in wheel_copies
        ),
        fixes=tuple(fixes),
    )


def _requirement_name(line: str) -> str:
    """The normalized project name a Requires-Dist line starts with."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", line)
    return canonical_name(match[1]) if match else ""


def _missing_cudnn_sublibraries(
    folder: str, wheel_copies: list[dict[str, Any]], copies: list[dict[str, Any]]
) -> list[str]:
    """cuDNN sub-libraries the wheel has but the shadowing folder lacks (cuDNN dlopens them)."""
    shadowed_cudnn = [c for c in wheel_copies if c["family"] == "cudnn"]
    if not shadowed_cudnn:
        return []
    site = shadowed_cudnn[0].get("site")
    majors = {c["soname"].rsplit(".", 1)[1] for c in shadowed_cudnn}
    wheel_subs = {
        c["soname"]
        for c in copies
        if c["family"] == "cudnn"
        and c.get("origin") == "pip-wheel"
        and c.get("site") == site
        and c["library"] != "libcudnn"
        and c["soname"].rsplit(".", 1)[1] in majors
    }
    there = {c["soname"] for c in copies if posixpath.dirname(c["path"]) == folder}
    return sorted(wheel_subs - there)


@check("cuda.conda-pip-cuda-mixed", needs=("cuda.libraries",))
def conda_pip_cuda_mixed(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """A conda environment holds conda CUDA packages of one major and pip nvidia-* wheels of another.

    conda's cudatoolkit / cuda-* packages put CUDA libraries in the env's lib/, which conda-built
    packages load through their RPATH; pip's nvidia-*-cu11/cu12/cu13 wheels put another copy in
    site-packages/nvidia. With two CUDA majors in one env, whichever package loads first decides
    which libcudart / libcublas / libcudnn the process gets, and the other half fails with
    undefined symbols or "CUDA driver version is insufficient". Keep one source of CUDA per env:
    if the framework came from pip, drop the conda CUDA packages; if it came from conda, drop the
    wheels; or start a clean env.
    """
    libraries = snap.data("cuda.libraries") or {}
    findings = []
    for env in libraries.get("conda", []):
        prefix = env["prefix"]
        conda_cuda = {
            name: pkg for name, pkg in env.get("packages", {}).items() if pkg.get("cuda_major")
        }
        wheels = [
            w
            for w in libraries.get("wheels", [])
            if w.get("cuda_major")
            and (w["site"] == prefix or w["site"].startswith(prefix.rstrip("/") + "/"))
        ]
        conda_majors = {pkg["cuda_major"] for pkg in conda_cuda.values()}
        pip_majors = {w["cuda_major"] for w in wheels}
        if not conda_majors or not pip_majors or conda_majors == pip_majors:
            continue
        findings.append(_mixed_finding(snap, prefix, conda_cuda, wheels, conda_majors, pip_majors))
    return findings


def _mixed_finding(
    snap: Snapshot,
    prefix: str,
    conda_cuda: dict[str, dict[str, Any]],
    wheels: list[dict[str, Any]],
    conda_majors: set[int],
    pip_majors: set[int],
) -> Finding:
    installers = snap.fact("python.packages", "installers") or {}
    torch_from = installers.get("torch") or ("conda" if "pytorch" in conda_cuda else None)
    conda_list = ", ".join(
        f"{n} {p['version']} (CUDA {p['cuda_major']})" for n, p in sorted(conda_cuda.items())
    )
    pip_list = ", ".join(f"{w['name']} {w['version']}" for w in wheels)
    python = f"{prefix}/bin/python"
    drop_conda = Fix(
        f"Remove the conda CUDA packages (keep the pip wheels{', which torch uses' if torch_from == 'pip' else ''})",
        (
            f"conda remove -p {shlex.quote(prefix)} --force "
            + " ".join(sorted(n for n in conda_cuda if n != "pytorch")),
        ),
        Risk.DESTRUCTIVE,
    )
    drop_pip = Fix(
        f"Remove the pip nvidia wheels (keep conda's CUDA{', which torch uses' if torch_from == 'conda' else ''})",
        (f"{shlex.quote(python)} -m pip uninstall -y " + " ".join(w["name"] for w in wheels),),
        Risk.DESTRUCTIVE,
    )
    py = snap.fact("python", "version")
    py_mm = ".".join(str(py).split(".")[:2]) if py else None
    clean = Fix(
        "Or start a clean environment with one source of CUDA (pip wheels)",
        (
            f"conda create -y -p {shlex.quote(prefix + '-clean')}"
            + (f" python={py_mm}" if py_mm else " python"),
            f"{shlex.quote(prefix + '-clean/bin/python')} -m pip install torch",
        ),
        Risk.SAFE,
    )
    fixes = (
        [drop_pip, drop_conda, clean] if torch_from == "conda" else [drop_conda, drop_pip, clean]
    )
    return Finding(
        id="cuda.conda-pip-cuda-mixed",
        severity=Severity.WARNING,
        title=(
            f"conda env {prefix} mixes conda CUDA {'/'.join(map(str, sorted(conda_majors)))} "
            f"with pip CUDA {'/'.join(map(str, sorted(pip_majors)))} wheels"
        ),
        detail=(
            f"conda packages: {conda_list}. pip wheels in the same env: {pip_list}. Which CUDA libraries a "
            "process gets depends on what it loads first; the other half then fails with undefined "
            "symbols or version errors."
        ),
        evidence=(
            Evidence(
                "conda CUDA major",
                "/".join(map(str, sorted(conda_majors))),
                "/".join(map(str, sorted(pip_majors))),
            ),
            Evidence("pip nvidia wheels", pip_list),
        ),
        fixes=tuple(fixes),
    )


@check("cuda.cudnn-missing", needs=("cuda.libraries",))
def cudnn_missing(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """An installed package needs a cuDNN major that nothing on this machine provides.

    Two ways a package says which cuDNN it needs: its wheel pins an nvidia-cudnn-cuXX version in
    Requires-Dist (torch), or it ships only cuDNN's small front library (CTranslate2, used by
    faster-whisper: ctranslate2.libs/libcudnn-<hash>.so.8.9.7 in 4.4.0, .so.9.1.0 in 4.6) and
    loads cuDNN's sub-libraries (libcudnn_ops_infer.so.8 / libcudnn_ops.so.9 …) by name at the
    first GPU call. The loader looks for those on LD_LIBRARY_PATH, in the ldconfig cache and in the
    system dirs, not in other wheels' folders. A torch that bundles cuDNN 9 does not help a
    CTranslate2 built for cuDNN 8: the result is `Could not load library
    libcudnn_ops_infer.so.8` or `Unable to load any of {libcudnn_ops.so.9.1.0, …}`.

    Fix: install the missing cuDNN major where the loader finds it, put an installed wheel's
    nvidia/cudnn/lib on LD_LIBRARY_PATH, or move the package to a release built for the cuDNN
    you have (faster-whisper's README: the latest ctranslate2 uses CUDA 12 and cuDNN 9).
    """
    libraries = snap.data("cuda.libraries") or {}
    copies = libraries.get("copies", [])
    has_gpu = bool(snap.fact("nvidia.gpus", "gpus"))
    findings = []
    for consumer in libraries.get("consumers", []):
        major = consumer.get("cudnn_major")
        if major is None:
            continue
        if consumer["kind"] == "vendored":
            finding = _vendored_missing(snap, consumer, major, copies, libraries, has_gpu)
        else:
            finding = _required_missing(consumer, major, copies, has_gpu)
        if finding is not None:
            findings.append(finding)
    return findings


_CUDNN_LIB_DIR = (
    "-c 'import os, nvidia.cudnn; print(os.path.join(list(nvidia.cudnn.__path__)[0], \"lib\"))'"
)


def _pip(site: str | None) -> str:
    """The pip of the environment that owns `site` ("/opt/venv/bin/python -m pip")."""
    if (
        site
        and "/.local/lib/" not in site
        and "/lib/python" in site
        and site.endswith("site-packages")
    ):
        return f"{shlex.quote(site.split('/lib/python')[0] + '/bin/python')} -m pip"
    return "python3 -m pip"


def _major_of(copy: dict[str, Any]) -> int:
    return int(copy["soname"].rsplit(".", 1)[1])


def _vendored_missing(
    snap: Snapshot,
    consumer: dict[str, Any],
    major: int,
    copies: list[dict[str, Any]],
    libraries: dict[str, Any],
    has_gpu: bool,
) -> Finding | None:
    if consumer.get("has_sublibraries"):
        return None
    cudnn = [c for c in copies if c["family"] == "cudnn" and c["library"] != "libcudnn"]
    if any(_major_of(c) == major and _on_loader_path(c) for c in cudnn):
        return None
    package = consumer["package"]
    version = consumer.get("version")
    wheel_same = [c for c in cudnn if _major_of(c) == major and c.get("origin") == "pip-wheel"]
    others = sorted(
        {
            (_major_of(c), c.get("package") or c.get("origin"))
            for c in cudnn
            if _major_of(c) != major
        }
    )
    fixes: list[Fix] = []
    if wheel_same:
        folder = posixpath.dirname(wheel_same[0]["path"])
        fixes.append(
            Fix(
                f"Put the cuDNN {major} libraries of {wheel_same[0].get('package') or 'the installed wheel'} "
                "on the loader path (add the same line to ~/.bashrc to keep it)",
                (
                    f"export LD_LIBRARY_PATH={shlex.quote(folder)}${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}",
                ),
                Risk.SAFE,
                _FASTER_WHISPER_GPU,
            )
        )
    newer = [m for m, _ in others if m > major]
    if package == "ctranslate2" and newer:
        commands = [f"{_pip(consumer.get('site'))} install --upgrade ctranslate2"]
        nine = [
            c
            for c in cudnn
            if _major_of(c) == max(newer)
            and c.get("origin") == "pip-wheel"
            and not _on_loader_path(c)
        ]
        if nine:
            folder = posixpath.dirname(nine[0]["path"])
            commands.append(
                f"export LD_LIBRARY_PATH={shlex.quote(folder)}${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}"
            )
        fixes.insert(
            0,
            Fix(
                f"Upgrade CTranslate2 to a release built for cuDNN {max(newer)}, the cuDNN already "
                "installed here (faster-whisper's README: the latest ctranslate2 uses CUDA 12 and cuDNN 9)",
                tuple(commands),
                Risk.SAFE,
                _FASTER_WHISPER_GPU,
            ),
        )
    cuda_majors = sorted(
        {
            w["cuda_major"]
            for w in libraries.get("wheels", [])
            if w.get("cuda_major") and w.get("site") == consumer.get("site")
        }
    )
    pinned_other = [
        c
        for c in libraries.get("consumers", [])
        if c["kind"] == "requires"
        and c.get("cudnn_major") not in (None, major)
        and c.get("site") == consumer.get("site")
    ]
    if not wheel_same and len(cuda_majors) == 1:
        wheel = f'"nvidia-cudnn-cu{cuda_majors[0]}=={major}.*"'
        if pinned_other:
            pins = ", ".join(
                f"{c['package']} {c.get('version')} pins {c.get('requirement')}{c.get('spec')}"
                for c in pinned_other
            )
            venv = f"~/.venvs/{package}"
            spec = f"{package}=={version}" if version else package
            fixes.append(
                Fix(
                    f"Or give {package} its own virtual environment with cuDNN {major} ({pins} here: "
                    f"installing cuDNN {major} in this environment would replace it)",
                    (
                        f"python3 -m venv {venv}",
                        f"{venv}/bin/python -m pip install {spec} {wheel}",
                        f"export LD_LIBRARY_PATH=$({venv}/bin/python {_CUDNN_LIB_DIR})${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}",
                    ),
                    Risk.SAFE,
                    _FASTER_WHISPER_GPU,
                )
            )
        else:
            pip = _pip(consumer.get("site"))
            fixes.append(
                Fix(
                    f"Install cuDNN {major} as a pip wheel and put it on the loader path",
                    (
                        f"{pip} install {wheel}",
                        f"export LD_LIBRARY_PATH=$({pip.split(' -m ')[0]} {_CUDNN_LIB_DIR})${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}",
                    ),
                    Risk.SAFE,
                    _FASTER_WHISPER_GPU,
                )
            )
    have = "; ".join(f"cuDNN {m} from {src}" for m, src in others) or "no other cuDNN"
    where = "" if wheel_same else " anywhere on this machine"
    return Finding(
        id="cuda.cudnn-missing",
        severity=Severity.ERROR if has_gpu else Severity.WARNING,
        title=f"{package} {version or ''} needs cuDNN {major}, which nothing on the loader path provides".replace(
            "  ", " "
        ),
        detail=(
            f"{package} ships only cuDNN's front library ({consumer['evidence']}) and loads the cuDNN {major} "
            f"sub-libraries (libcudnn_ops*.so.{major}, libcudnn_cnn*.so.{major} …) by name on the first GPU "
            f"call. None is on LD_LIBRARY_PATH, in the ldconfig cache or in the system dirs{where}. "
            f"Installed: {have}. Expect `Could not load library libcudnn_ops…so.{major}` or "
            f"`Unable to load any of {{libcudnn_ops.so.{major}…}}`."
        ),
        evidence=(
            Evidence(
                f"{package} needs", f"cuDNN {major}", f"libcudnn_*.so.{major} on the loader path"
            ),
            Evidence("cuDNN installed", have),
        ),
        fixes=tuple(fixes),
    )


def _required_missing(
    consumer: dict[str, Any], major: int, copies: list[dict[str, Any]], has_gpu: bool
) -> Finding | None:
    site = consumer.get("site")
    provided = [
        c
        for c in copies
        if c["soname"] == f"libcudnn.so.{major}"
        and ((c.get("origin") == "pip-wheel" and c.get("site") == site) or _on_loader_path(c))
    ]
    if provided:
        return None
    requirement = f"{consumer.get('requirement')}{consumer.get('spec') or ''}"
    package = consumer["package"]
    return Finding(
        id="cuda.cudnn-missing",
        severity=Severity.ERROR if has_gpu else Severity.WARNING,
        title=f"{package} {consumer.get('version')} needs cuDNN {major} ({requirement}), which is not installed",
        detail=(
            f"{package}'s metadata says {consumer['evidence']}, but no libcudnn.so.{major} is in that "
            f"environment's nvidia wheels or on the loader path (the wheel was removed, or installed with "
            f"--no-deps). Importing {package} with GPU support fails with `libcudnn.so.{major}: cannot open "
            "shared object file`."
        ),
        evidence=(Evidence(f"{package} requires", requirement, f"libcudnn.so.{major}"),),
        fixes=(
            Fix(
                f"Install the cuDNN wheel {package} was built for",
                (f'{_pip(site)} install "{requirement}"',),
                Risk.SAFE,
            ),
        ),
    )


CHECKS = [ld_library_path_shadows_wheel, conda_pip_cuda_mixed, cudnn_missing]
