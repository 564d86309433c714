"""`envdoctor check --image IMAGE`: diagnose a container image against this host, without running it.

The image is exported through the Docker SDK (`docker save`, streamed into a size-capped file in
a temporary folder), its layers are applied in order into a private root, and the filesystem
probes run on that root (`ProbeContext(root=...)`) with the image's environment. The host's own
probes run as usual; the snapshot keeps the host's driver, GPU and container-runtime facts and
takes the software layers (os, python, cuda) from the image, plus `container.image`.

Unpacking is defensive: member names that are absolute or climb out with `..` are skipped;
device nodes, FIFOs and sockets are never created; symbolic links are kept only when they stay
inside the root (absolute targets are rewritten relative to it); hard links only to files
already unpacked; no owner, setuid or setgid bit is applied. Only metadata-sized files that the
probes read (package metadata, version files, /etc, ...) get their content, capped per file and
in total; every other regular file is created empty so that names and globs still match. Layer
whiteouts (`.wh.NAME`, `.wh..wh..opq`) are honoured.

`container.image` facts: image (the reference asked for), id, repo_tags, architecture, os,
created, size_bytes, env (the NVIDIA_* / CUDA_* / NV_* / PATH / LD_LIBRARY_PATH / PYTORCH_* /
TORCH_* variables of the image config), env_count, entrypoint, cmd, cuda_version (CUDA_VERSION),
torch ({version, cuda, location} read from the image's site-packages), unpack (files, content
bytes, placeholders, skipped {reason: count}).
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import shutil
import stat
import tarfile
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from envdoctor.context import ProbeContext, ProbeOptions
from envdoctor.facts import layer_of
from envdoctor.snapshot import FactGroup, Snapshot, collected

MAX_ARCHIVE_BYTES = 8 * 1024**3  # the saved image; larger ones are refused
MAX_CONTENT_BYTES = 256 * 1024**2  # file contents written, all layers together
MAX_FILE_BYTES = 2 * 1024**2  # one file's content; larger metadata files become placeholders
MAX_MEMBERS = 1_000_000  # entries across all layers
SAVE_CHUNK_BYTES = 4 * 1024**2
API_TIMEOUT_S = 120.0

IMAGE_LAYERS = ("os", "python", "cuda")  # fact layers taken from the image, not the host
HOST_ONLY_PROBES = (
    "container_docker",
    "container_toolkit",
    "container_cdi",
    "container_podman",
    "container_inside",
)
_ENV_KEEP = re.compile(
    r"^(NVIDIA_|CUDA_|NV_|PYTORCH_|TORCH_|PATH$|LD_LIBRARY_PATH$|CUDNN_|NCCL_VERSION$)"
)
_CONTENT = re.compile(
    r"(^etc/|^usr/lib/os-release$|\.dist-info/|\.egg-info/|/version\.py$|/_version\.py$|/version\.txt$|"
    r"/version\.json$|\.pth$|pyvenv\.cfg$|/conda-meta/[^/]+\.json$|/torch/_utils_internal\.py$|"
    r"/include/python3[^/]*/patchlevel\.h$|/include/cudnn_version\.h$|/include/cuda_runtime_api\.h$|/include/cuda\.h$|/ld\.so\.conf)"
)
_TORCH_VERSION_PY = re.compile(
    r"^(__version__|cuda)\s*(?::[^=]+)?=\s*(None|'[^']*'|\"[^\"]*\")\s*$", re.M
)
_SITE_PATTERNS = (
    "/usr/local/lib/python3*/*-packages",
    "/usr/lib/python3*/*-packages",
    "/usr/lib/python3/dist-packages",
    "/opt/conda/lib/python3*/site-packages",
    "/opt/*/lib/python3*/site-packages",
    "/root/.local/lib/python3*/site-packages",
    "/usr/local/lib64/python3*/site-packages",
    "/*/.venv/lib/python3*/site-packages",
    "/opt/venv/lib/python3*/site-packages",
)


class ImageInspectError(ValueError):
    """The image could not be exported or read (a one-line reason)."""


@dataclass
class UnpackStats:
    """What unpacking kept and skipped."""

    files: int = 0
    content_bytes: int = 0
    placeholders: int = 0
    skipped: dict[str, int] = field(default_factory=dict)

    def skip(self, reason: str) -> None:
        """Count one skipped member."""
        self.skipped[reason] = self.skipped.get(reason, 0) + 1

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "files": self.files,
            "content_bytes": self.content_bytes,
            "placeholders": self.placeholders,
            "skipped": dict(sorted(self.skipped.items())),
        }


@dataclass
class ExportedImage:
    """An image unpacked under `root`, with its config."""

    reference: str
    root: Path
    config: dict[str, Any]
    attrs: dict[str, Any]
    stats: UnpackStats


def collect_for_image(
    image: str, options: ProbeOptions, env: dict[str, str] | None = None
) -> Snapshot:
    """The snapshot for `check --image`: host facts, with the image's software layers."""
    from envdoctor.probes import collect_all
    from envdoctor.probes.container_docker import resolve_endpoint

    host_ctx = ProbeContext(env=env, options=replace(options, image=None))
    host = collect_all(host_ctx).snapshot
    with tempfile.TemporaryDirectory(prefix="envdoctor-image-") as tmp:
        exported = export_image(image, resolve_endpoint(host_ctx).host, Path(tmp))
        image_env = image_environment(exported.config)
        image_ctx = ProbeContext(
            root=exported.root,
            env={**image_env, "PATH": str(Path(tmp) / "no-tools")},
            options=replace(options, image=None),
        )
        modules = tuple(m for m in _probe_modules() if m not in HOST_ONLY_PROBES)
        inner = collect_all(image_ctx, modules).snapshot
        facts = image_facts(exported, image_ctx)
    return merge(
        host,
        inner,
        collected("container.image", f"image:{image}", facts, summary=_summary(facts)),
        image,
    )


def collect_for_root(
    root: str, options: ProbeOptions, env: dict[str, str] | None = None
) -> Snapshot:
    """The snapshot for `check --root DIR`: this host's driver, GPU and runtime facts, with the
    software layers (os, python, cuda) read from the unpacked root filesystem at `root`."""
    from envdoctor.probes import collect_all

    host = collect_all(ProbeContext(env=env, options=options)).snapshot
    root_ctx = ProbeContext(root=root, env=env, options=options)
    modules = tuple(m for m in _probe_modules() if m not in HOST_ONLY_PROBES)
    inner = collect_all(root_ctx, modules).snapshot
    return merge(host, inner, None, f"root {root}")


def merge(host: Snapshot, inner: Snapshot, image_group: FactGroup | None, image: str) -> Snapshot:
    """Host snapshot with the image's os/python/cuda groups (where the probes read the image)."""
    merged = Snapshot(dict(host.groups), host.origin, host.created_at, host.envdoctor_version)
    for name, group in inner.groups.items():
        if layer_of(name) not in IMAGE_LAYERS:
            continue
        mine = host.groups.get(name)
        if mine is not None and mine.status == group.status and mine.data == group.data:
            continue  # the probe did not look at the image root: keep the host's, unrelabelled
        merged.groups[name] = replace(group, source=f"image:{image} {group.source}")
    if image_group is not None:
        merged.groups["container.image"] = image_group
    merged.groups["container.target"] = target_group(image, image_group is not None, inner)
    return merged


def target_group(label: str, is_image: bool, inner: Snapshot) -> FactGroup:
    """`container.target`: what was diagnosed, so fixes are said in its terms.

    kind "image" (`check --image`: change the Dockerfile / base image, the driver on the host) or
    "root" (`check --root`: an unpacked root filesystem); image / root name it; image_layers are
    the fact layers read from it (the rest are this host's); python_from says where the Python
    facts come from ("files": the image's interpreter, read without running it).
    """
    python = inner.groups.get("python")
    data = {
        "kind": "image" if is_image else "root",
        "image": label if is_image else None,
        "root": None if is_image else label.removeprefix("root "),
        "image_layers": list(IMAGE_LAYERS),
        "host_layers_kept": ["nvidia", "amd", "intel", "platform", "container"],
        "python_from": (python.data or {}).get("described_from") if python else None,
        "python_executable": (python.data or {}).get("executable") if python else None,
    }
    what = f"image {label}" if is_image else label
    return collected(
        "container.target", "envdoctor", data, summary=f"diagnosing {what} against this host"
    )


def export_image(
    image: str, base_url: str, workdir: Path, max_archive_bytes: int = MAX_ARCHIVE_BYTES
) -> ExportedImage:
    """Save `image` from the daemon at `base_url` and unpack it under `workdir`/root."""
    try:
        import docker
        import docker.errors
    except ImportError as exc:
        raise ImageInspectError(
            "the docker Python SDK is not installed (pip install docker)"
        ) from exc
    try:
        client = docker.DockerClient(base_url=base_url, version="auto", timeout=API_TIMEOUT_S)
    except docker.errors.DockerException as exc:
        raise ImageInspectError(
            f"cannot reach the Docker daemon at {base_url}: {_one_line(exc)}"
        ) from exc
    try:
        try:
            handle = client.images.get(image)
        except docker.errors.ImageNotFound as exc:
            raise ImageInspectError(
                f"no image {image!r} in the daemon at {base_url} (docker pull {image})"
            ) from exc
        except docker.errors.DockerException as exc:
            raise ImageInspectError(f"cannot inspect {image!r}: {_one_line(exc)}") from exc
        archive = workdir / "image.tar"
        written = 0
        try:
            with open(archive, "wb") as out:
                for chunk in handle.save(chunk_size=SAVE_CHUNK_BYTES, named=False):
                    written += len(chunk)
                    if written > max_archive_bytes:
                        raise ImageInspectError(
                            f"{image} is larger than {max_archive_bytes // 1024**2} MiB"
                        )
                    out.write(chunk)
        except docker.errors.DockerException as exc:
            raise ImageInspectError(f"docker save {image} failed: {_one_line(exc)}") from exc
        attrs = dict(handle.attrs or {})
    finally:
        client.close()
    root = workdir / "root"
    config, stats = unpack_saved_image(archive, root)
    archive.unlink()
    return ExportedImage(image, root, config, attrs, stats)


def unpack_saved_image(archive: Path, root: Path) -> tuple[dict[str, Any], UnpackStats]:
    """Apply the layers of a `docker save` archive (legacy or OCI layout) under `root`; returns
    the image config and the unpack statistics. ImageInspectError on a malformed archive."""
    root.mkdir(parents=True, exist_ok=True)
    stats = UnpackStats()
    try:
        outer = tarfile.open(archive, "r:")
    except (tarfile.TarError, OSError) as exc:
        raise ImageInspectError(f"not a docker save archive: {exc}") from exc
    with outer:
        manifest = _json_member(outer, "manifest.json")
        if not isinstance(manifest, list) or not manifest or not isinstance(manifest[0], dict):
            raise ImageInspectError("the archive has no manifest.json")
        entry = manifest[0]
        config = _json_member(outer, str(entry.get("Config", "")))
        if not isinstance(config, dict):
            raise ImageInspectError("the archive's image config is missing")
        budget = _Budget()
        for layer in entry.get("Layers") or []:
            stream = _member_file(outer, str(layer))
            if stream is None:
                raise ImageInspectError(f"layer {layer} is missing from the archive")
            try:
                with tarfile.open(fileobj=stream, mode="r|*") as inner:
                    apply_layer(inner, root, stats, budget)
            except tarfile.TarError as exc:
                raise ImageInspectError(f"layer {layer} is not a tar archive: {exc}") from exc
    return config, stats


@dataclass
class _Budget:
    members: int = 0
    content: int = 0


def apply_layer(
    layer: tarfile.TarFile, root: Path, stats: UnpackStats, budget: _Budget | None = None
) -> None:
    """Apply one layer tar (streamed) under `root`, safely (see the module docstring)."""
    budget = budget or _Budget()
    real_root = os.path.realpath(root)
    for member in layer:
        budget.members += 1
        if budget.members > MAX_MEMBERS:
            raise ImageInspectError(f"the image has more than {MAX_MEMBERS} files")
        name = safe_name(member.name)
        if name is None:
            stats.skip("unsafe path")
            continue
        folder, base = posixpath.split(name)
        if base.startswith(".wh."):
            _whiteout(root, real_root, folder, base[len(".wh.") :])
            continue
        target = root / name
        if not _inside(real_root, target.parent):
            stats.skip("path through a link")
            continue
        if member.isdir():
            _make_dir(target)
        elif member.issym():
            link = safe_link_target(name, member.linkname)
            if link is None:
                stats.skip("link out of the root")
                continue
            _replace(target)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(link, target)
        elif member.islnk():
            source_name = safe_name(member.linkname)
            source = root / source_name if source_name else None
            if (
                source is None
                or not source.is_file()
                or source.is_symlink()
                or not _inside(real_root, source)
            ):
                stats.skip("hard link to a missing file")
                continue
            _replace(target)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
            stats.files += 1
        elif member.isreg():
            _replace(target)
            target.parent.mkdir(parents=True, exist_ok=True)
            wanted = (
                bool(_CONTENT.search(name))
                and member.size <= MAX_FILE_BYTES
                and budget.content + member.size <= MAX_CONTENT_BYTES
            )
            with open(target, "wb") as out:
                if wanted:
                    stream = layer.extractfile(member)
                    if stream is not None:
                        shutil.copyfileobj(stream, out)
                    budget.content += member.size
                    stats.content_bytes += member.size
                else:
                    stats.placeholders += 1
            os.chmod(target, 0o755 if member.mode & 0o111 else 0o644)
            stats.files += 1
        else:
            stats.skip("device, fifo or other special file")


def safe_name(name: str) -> str | None:
    """A member name as a relative path inside the root, or None when it is absolute, climbs out
    with `..`, or is empty."""
    if not name or "\0" in name or name.startswith("/"):
        return None
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if not parts or any(p == ".." for p in parts):
        return None
    return "/".join(parts)


def safe_link_target(name: str, target: str) -> str | None:
    """The link target to create for member `name`: relative, resolving inside the root; None
    when it would point outside."""
    if not target or "\0" in target:
        return None
    folder = posixpath.dirname(name)
    if target.startswith("/"):
        resolved = posixpath.normpath(target.lstrip("/")) or "."
    else:
        resolved = posixpath.normpath(posixpath.join(folder, target))
    if resolved == ".." or resolved.startswith("../") or resolved.startswith("/"):
        return None
    return posixpath.relpath(resolved, folder or ".")


def image_environment(config: dict[str, Any]) -> dict[str, str]:
    """The image config's environment as a dict."""
    env: dict[str, str] = {}
    for item in (config.get("config") or config.get("Config") or {}).get("Env") or []:
        key, _, value = str(item).partition("=")
        if key:
            env[key] = value
    return env


def image_facts(exported: ExportedImage, ctx: ProbeContext) -> dict[str, Any]:
    """The `container.image` facts."""
    cfg = exported.config.get("config") or exported.config.get("Config") or {}
    env = image_environment(exported.config)
    attrs = exported.attrs
    return {
        "image": exported.reference,
        "id": attrs.get("Id"),
        "repo_tags": list(attrs.get("RepoTags") or []),
        "architecture": exported.config.get("architecture"),
        "os": exported.config.get("os"),
        "created": exported.config.get("created"),
        "size_bytes": attrs.get("Size"),
        "env": {k: v for k, v in sorted(env.items()) if _ENV_KEEP.match(k)},
        "env_count": len(env),
        "entrypoint": cfg.get("Entrypoint"),
        "cmd": cfg.get("Cmd"),
        "cuda_version": env.get("CUDA_VERSION"),
        "torch": find_torch(ctx),
        "unpack": exported.stats.to_dict(),
    }


def find_torch(ctx: ProbeContext) -> dict[str, Any] | None:
    """torch's version and CUDA build in the image's site-packages, read from torch/version.py
    (else the dist-info name), or None."""
    for pattern in _SITE_PATTERNS:
        for site in ctx.glob(pattern):
            version_py = ctx.read_text(f"{site}/torch/version.py")
            dist = next(iter(ctx.glob(f"{site}/torch-*.dist-info")), None)
            if version_py is None and dist is None:
                continue
            values = {k: v.strip("'\"") for k, v in _TORCH_VERSION_PY.findall(version_py or "")}
            version = values.get("__version__") or (
                dist.rsplit("/", 1)[-1][len("torch-") : -len(".dist-info")] if dist else None
            )
            cuda = values.get("cuda")
            if cuda in (None, "None") and version and "+cu" in version:
                label = version.split("+cu", 1)[1]
                cuda = f"{label[:-1]}.{label[-1]}" if label.isdigit() and len(label) >= 3 else None
            return {
                "version": version,
                "cuda": None if cuda in (None, "None") else cuda,
                "location": site,
            }
    return None


def _summary(facts: dict[str, Any]) -> str:
    parts = [str(facts.get("image"))]
    if facts.get("cuda_version"):
        parts.append(f"CUDA {facts['cuda_version']}")
    torch = facts.get("torch")
    if torch:
        parts.append(f"torch {torch.get('version')}")
    return ", ".join(parts)


def _probe_modules() -> tuple[str, ...]:
    from envdoctor.probes import PROBE_MODULES

    return PROBE_MODULES


def _json_member(outer: tarfile.TarFile, name: str) -> Any:
    stream = _member_file(outer, name)
    if stream is None:
        return None
    try:
        return json.loads(stream.read(16 * 1024**2))
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None


def _member_file(outer: tarfile.TarFile, name: str) -> IO[bytes] | None:
    clean = safe_name(name)
    if clean is None:
        return None
    try:
        member = outer.getmember(clean)
    except KeyError:
        return None
    try:
        return outer.extractfile(member)
    except (tarfile.TarError, KeyError):
        return None


def _whiteout(root: Path, real_root: str, folder: str, name: str) -> None:
    parent = root / folder if folder else root
    if not _inside(real_root, parent):
        return
    if name == ".wh..opq":
        if parent.is_dir() and not parent.is_symlink():
            for child in list(parent.iterdir()):
                _remove(child)
        return
    victim = parent / name
    if safe_name(f"{folder}/{name}" if folder else name) is not None:
        _remove(victim)


def _inside(real_root: str, path: Path) -> bool:
    real = os.path.realpath(path)
    return real == real_root or real.startswith(real_root.rstrip("/") + "/")


def _make_dir(target: Path) -> None:
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        _remove(target)
    target.mkdir(parents=True, exist_ok=True)
    os.chmod(target, 0o755)


def _replace(target: Path) -> None:
    if target.is_symlink() or target.exists():
        _remove(target)


def _remove(path: Path) -> None:
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:240]
