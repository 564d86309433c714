"""The release of an application package that has what a report lacks, from the app_releases
table: "bitsandbytes 0.45.3 and later ship a binary for CUDA 12.8", "vLLM 0.3.2 requires
torch==2.1.2", "llama-cpp-python 0.2.70 builds CUDA with -DLLAMA_CUDA=on".

A fix that says "upgrade bitsandbytes" or "match torch to vLLM" leaves the reader to find the
version; these pairings are what the fix turns on, and they change with every release, so they
live in a table with a source per row instead of in each signature's words.

Remedy kind `app-release`; params: app* (the PyPI name), need* (what the report lacks: `torch`
the torch the release pins; `cuda` a binary for the CUDA in `value`; `feature` the first release
with the feature in `value`: windows-wheel, rocm-wheel, xpu-wheel, int8-all-gpus; `cuda-flag`
the CMake option that turns CUDA on; `cuda-wheel` the prebuilt CUDA wheel index for the driver's
CUDA in `value`; `host` the first release with wheels for this host's OS or
GPU maker: Windows, AMD ROCm, Intel XPU), version (the installed release), value, torch (the
installed torch: with `need = torch` the pin is named only when this torch is not it), reverse
(with `need = torch` and no version: name the releases made for the installed torch).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from envdoctor.model.findings import Fix
from envdoctor.model.snapshot import Snapshot
from envdoctor.remedies.host import Host
from envdoctor.remedies.package_pythons import given
from envdoctor.remedies.spec import RemedySpec

TABLE = "app_releases"
NAMES = {"vllm": "vLLM", "bitsandbytes": "bitsandbytes", "llama-cpp-python": "llama-cpp-python"}
_VERSION = re.compile(r"\d+(?:\.\d+){1,3}(?:\.post\d+)?")


def _version(value: Any) -> Version | None:
    """A release number from a parameter ("0.3.2", "0.45.3+cu121"), None when it is none."""
    text = given(value)
    found = _VERSION.match(text or "")
    try:
        return Version(found.group(0)) if found else None
    except InvalidVersion:
        return None


def _cuda(value: Any) -> str | None:
    """A CUDA release as major.minor from "12.8", "12.8.1", "128", "cuda128", "cu128"."""
    text = (given(value) or "").lower().removeprefix("cuda").removeprefix("cu")
    dotted = re.fullmatch(r"(\d{2})\.(\d)(?:\.\d+)?", text)
    if dotted:
        return f"{int(dotted.group(1))}.{dotted.group(2)}"
    packed = re.fullmatch(r"(\d{2})(\d)", text)
    return f"{int(packed.group(1))}.{packed.group(2)}" if packed else None


def rows_of(ms: Any, app: str) -> list[Mapping[str, Any]]:
    """The app's rows, oldest release first."""
    if ms is None or not ms.has(TABLE):
        return []
    rows = [r for r in ms.table(TABLE).rows if str(r.get("app")) == app]
    return sorted(rows, key=lambda r: Version(str(r.get("version"))))


def row_for(rows: list[Mapping[str, Any]], version: Version) -> Mapping[str, Any] | None:
    """The row in force at `version`: the newest row not newer than it."""
    held = [r for r in rows if Version(str(r.get("version"))) <= version]
    return held[-1] if held else None


def first_with(rows: list[Mapping[str, Any]], column: str, value: str) -> Mapping[str, Any] | None:
    """The oldest row whose list `column` holds `value`."""
    return next((r for r in rows if value in [str(v) for v in r.get(column) or ()]), None)


def _url(row: Mapping[str, Any]) -> str | None:
    return str(row.get("source")) if row.get("source") else None


def _upgrade(app: str, since: Any, summary: str, row: Mapping[str, Any]) -> Fix:
    """The fix "install `app` `since` or later": its summary (one sentence, so it is translated
    whole), the install command, the import check that it loads, and the release's source."""
    return Fix(summary, (f"pip install -U '{app}>={since}'", f"python -m {app}"), url=_url(row))


def app_release_fixes(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix]:
    """ "app-release": the fix naming the release (or the torch, or the flag) the table gives."""
    app = (given(spec.param("app")) or "").lower()
    rows = rows_of(ms, app)
    if not rows:
        return []
    need = given(spec.param("need")) or ""
    installed = _version(spec.param("version"))
    if need == "torch":
        reverse = bool(spec.param("reverse"))
        return _torch_pin(app, rows, installed, _version(spec.param("torch")), reverse)
    if need == "cuda":
        return _cuda_binary(app, rows, installed, _cuda(spec.param("value")), host.os)
    if need == "feature":
        return _feature(app, rows, installed, given(spec.param("value")) or "")
    if need == "host":  # the wheels this host's OS or GPU maker needs
        wanted = HOST_FEATURES.get(host.vendor or "") or HOST_FEATURES.get(host.os or "")
        return _feature(app, rows, installed, wanted) if wanted else []
    if need == "cuda-wheel":
        return _cuda_wheel(app, rows, _cuda(spec.param("value")))
    if need == "cuda-flag":
        return _cuda_flag(app, rows, installed, host.os == "windows")
    return []


def _torch_pin(
    app: str,
    rows: list[Mapping[str, Any]],
    installed: Version | None,
    torch: Version | None,
    reverse: bool,
) -> list[Fix]:
    """The torch the installed release's wheel requires, unless the installed torch (when known)
    is that one; without a release and with `reverse`, the releases whose wheels require the
    installed torch."""
    name = NAMES.get(app, app)
    if installed is not None:
        row = next((r for r in rows if Version(str(r.get("version"))) == installed), None)
        spec = str(row.get("torch") or "") if row else ""
        if not row or not spec:
            return []
        if torch is not None and _holds(spec, torch, exact=False):
            return []  # the installed torch is the one it requires: not the cause
        return [
            Fix(
                f"{name} {installed} requires torch{spec} (its wheel's requirements): install that "
                f"torch (the same CUDA variant), or reinstall {app}=={installed} so pip brings it "
                "back, instead of a torch upgraded beside it",
                (
                    f"pip install 'torch{spec}'",
                    f"pip install --force-reinstall '{app}=={installed}'",
                ),
                url=_url(row),
            )
        ]
    if torch is None or not reverse:
        return []
    made_for = [r for r in rows if _holds(str(r.get("torch") or ""), torch, exact=True)]
    if not made_for:
        return []
    newest = str(made_for[-1].get("version"))
    listed = ", ".join(str(r.get("version")) for r in made_for[-4:])
    return [
        Fix(
            f"The {name} releases whose wheels require torch {torch}: {listed}; install one of "
            f"them ({app}=={newest}) to keep this torch, or let pip install the torch the "
            f"installed {name} requires",
            (f"pip show {app} | grep -E '^(Version|Requires)'", f"pip install '{app}=={newest}'"),
            url=_url(made_for[-1]),
        )
    ]


def _holds(spec: str, version: Version, exact: bool) -> bool:
    """Whether `spec` ("==2.1.2", ">=2.1.0") admits `version`; with `exact`, only a pin counts."""
    if not spec or (exact and "==" not in spec):
        return False
    try:
        return SpecifierSet(spec).contains(version, prereleases=True)
    except InvalidSpecifier:
        return False


def _cuda_binary(
    app: str,
    rows: list[Mapping[str, Any]],
    installed: Version | None,
    cuda: str | None,
    os_name: str | None,
) -> list[Fix]:
    """The first release with a prebuilt binary for `cuda` on this OS (bitsandbytes loads the
    library named for torch's CUDA: libbitsandbytes_cuda128 for CUDA 12.8). The table's first
    row is not the project's first release, so the fix says "X and later", never "from X on"."""
    if cuda is None:
        return []
    name = NAMES.get(app, app)
    built = [
        r
        for r in rows
        if r.get("cuda_binaries") and (not os_name or os_name in (r.get("platforms") or [os_name]))
    ]
    first = first_with(built, "cuda_binaries", cuda)
    if first is None:
        return _no_binary(app, rows, cuda)
    since = Version(str(first.get("version")))
    if installed is not None and installed >= since:
        current = row_for(built, installed)
        if current and cuda in [str(c) for c in current.get("cuda_binaries") or ()]:
            return []  # the installed release has it: the cause is elsewhere
    summary = (
        f"{name} {since} and later ship a binary for CUDA {cuda}: pip install -U "
        f"'{app}>={since}' (then python -m {app} checks that it loads)"
    )
    return [_upgrade(app, since, summary, first)]


def _no_binary(app: str, rows: list[Mapping[str, Any]], cuda: str) -> list[Fix]:
    """No release has a binary for `cuda`: the closest one of its major where a release loads it
    (`same-major-fallback`), else a source build."""
    name = NAMES.get(app, app)
    fallback = first_with(rows, "features", "same-major-fallback")
    wanted = Version(cuda)
    if fallback is not None:
        near = [
            Version(str(c))
            for c in fallback.get("cuda_binaries") or ()
            if Version(str(c)).major == wanted.major and Version(str(c)) <= wanted
        ]
        if near:
            since = fallback.get("version")
            summary = (
                f"{name} ships no binary for CUDA {cuda}; from {since} on it loads the closest "
                f"one of CUDA {wanted.major} ({max(near)}): pip install -U '{app}>={since}'"
            )
            return [_upgrade(app, since, summary, fallback)]
    shipped = sorted({str(c) for r in rows for c in r.get("cuda_binaries") or ()}, key=Version)
    return [
        Fix(
            f"No {name} release in envdoctor's table ships a binary for CUDA {cuda} (they cover "
            f"{', '.join(shipped)}): build {name} from source against CUDA {cuda}, or use a torch "
            "build for a CUDA it ships",
            (),
            url=_url(rows[-1]),
        )
    ]


FEATURES = {
    "windows-wheel": "publishes Windows wheels (win_amd64, CUDA DLLs included)",
    "rocm-wheel": "publishes AMD ROCm binaries in its PyPI wheels",
    "xpu-wheel": "publishes Intel XPU binaries in its PyPI wheels",
    "int8-all-gpus": "runs LLM.int8() on every GPU (below compute capability 7.5 by casting the "
    "int8 weights to 16-bit, slower)",
}


# what a host needs that not every release ships: keyed by GPU maker first, then by OS
HOST_FEATURES = {"amd": "rocm-wheel", "intel": "xpu-wheel", "windows": "windows-wheel"}


def _feature(
    app: str, rows: list[Mapping[str, Any]], installed: Version | None, feature: str
) -> list[Fix]:
    """The first release with `feature`, unless the installed one has it already."""
    first = first_with(rows, "features", feature)
    if first is None or feature not in FEATURES:
        return []
    since = Version(str(first.get("version")))
    if installed is not None and installed >= since:
        return []
    name = NAMES.get(app, app)
    summary = f"{name} {FEATURES[feature]} from {since} on: pip install -U '{app}>={since}'"
    return [_upgrade(app, since, summary, first)]


def _cuda_flag(
    app: str, rows: list[Mapping[str, Any]], installed: Version | None, windows: bool
) -> list[Fix]:
    """The CMake option the installed release builds CUDA with (the option was renamed twice, so
    the one a README or an old answer names may be ignored by the release installed). Nothing
    without the installed release: the signature's own words name the current option."""
    flagged = [r for r in rows if r.get("cuda_flag")]
    if installed is None:
        return []
    row = row_for(flagged, installed)
    if row is None:
        return []
    flag = str(row.get("cuda_flag"))
    later = [r for r in flagged if Version(str(r.get("version"))) > installed]
    renamed = next((r for r in later if r.get("cuda_flag") != flag), None)
    note = (
        f" (from {renamed.get('version')} on: -D{renamed.get('cuda_flag')}=on)" if renamed else ""
    )
    pip = f"pip install --upgrade --force-reinstall --no-cache-dir {app}=={installed}"
    if windows:  # PowerShell
        commands = (f'$env:CMAKE_ARGS="-D{flag}=on"; $env:FORCE_CMAKE="1"; {pip}',)
    else:
        commands = (f'CMAKE_ARGS="-D{flag}=on" FORCE_CMAKE=1 {pip}',)
    return [
        Fix(
            f'{app} {installed} builds CUDA with CMAKE_ARGS="-D{flag}=on"{note}: rebuild it with '
            "that option, without pip's cached CPU wheel (--no-cache-dir --force-reinstall)",
            commands,
            url=_url(row),
        )
    ]


WHEEL_INDEX = {"llama-cpp-python": "https://abetlen.github.io/llama-cpp-python/whl/cu{tag}"}


def _cuda_wheel(app: str, rows: list[Mapping[str, Any]], cuda: str | None) -> list[Fix]:
    """The prebuilt CUDA wheel index for the newest CUDA the driver runs (`cuda`: nvidia-smi's
    CUDA Version), among those the newest row lists: no build needed."""
    index = WHEEL_INDEX.get(app)
    built = [r for r in rows if r.get("cuda_binaries")]
    if index is None or cuda is None or not built:
        return []
    newest = built[-1]
    fits = [
        Version(str(c))
        for c in newest.get("cuda_binaries") or ()
        if Version(str(c)) <= Version(cuda)
    ]
    if not fits:
        return []
    best = max(fits)
    url = index.format(tag=f"{best.major}{best.minor}")
    listed = ", ".join(str(c) for c in newest.get("cuda_binaries") or ())
    return [
        Fix(
            f"Install {app}'s prebuilt CUDA {best} wheel (its index has wheels for CUDA "
            f"{listed}; this driver runs CUDA {cuda}), without building",
            (
                f"pip install --upgrade --force-reinstall --no-cache-dir {app} --extra-index-url {url}",
            ),
            url=_url(newest),
        )
    ]
