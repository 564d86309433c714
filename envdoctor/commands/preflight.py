"""`envdoctor preflight`: check a workload's requirements, then exec its command.

    envdoctor preflight [--require SPEC]… [--config FILE] [--json] [--timeout S] [--warn-only]
                        [--python PATH] [-- CMD [ARG…]]

Requirements come from `--require` (the language in `envdoctor.requirements.parse`) and from the
project's config: `envdoctor.toml` (`[preflight] require = [...]`) or `pyproject.toml`
(`[tool.envdoctor.preflight] require = [...]`) in the current directory, or `--config FILE`.
Only the probes and checks the requirements need are run. When all are met, CMD is exec'd (it
replaces envdoctor: same PID, signals go straight to it) or preflight exits 0; otherwise a short
reason with the first fix goes to stderr (the JSON document to stdout with --json) and it exits 1,
or starts CMD anyway with --warn-only. Usage errors exit 2, internal errors 3.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from envdoctor.commands import EXIT_FINDINGS, EXIT_OK, Outcome, UsageError
from envdoctor.commands.limits import TIMEOUT_MAX_S, existing_path, finite_number, seconds_type

if TYPE_CHECKING:
    from envdoctor.model.checkdef import Check
    from envdoctor.model.findings import Finding
    from envdoctor.model.snapshot import Snapshot
    from envdoctor.requirements.judge import Verdict
    from envdoctor.requirements.parse import Requirement

DEFAULT_TIMEOUT_S = 10.0
CONFIG_KEYS = ("require", "timeout")

# Which layers' findings may explain an unmet requirement, by requirement kind.
_CAUSE_LAYERS = {
    "gpu": ("nvidia", "amd", "intel", "platform", "container"),
    "driver": ("nvidia", "platform", "container"),
    "torch": ("python",),
    "torch.cuda": ("python", "nvidia", "amd", "platform", "container"),
    "rocm": ("amd",),
}
_KIND_CAUSES = {
    "gpus": "gpu",
    "vendor": "gpu",
    "compute": "gpu",
    "vram": "gpu",
    "cuda-driver": "driver",
}
_MARK = {"met": "✓", "unmet": "✗", "unknown": "?"}


def add_parser(subparsers) -> None:  # noqa: ANN001
    """Register `preflight`."""
    parser = subparsers.add_parser(
        "preflight",
        help="check a workload's requirements, then exec its command",
        description="Check that this machine meets the stated requirements (gpu, gpus>=2, "
        "vendor=nvidia|amd|intel, compute>=8.0, vram>=24GB, driver>=550, "
        "cuda-driver>=12.4, torch.cuda, torch>=2.4, rocm>=6.1, app=NAME, no:FINDING-ID), "
        "then exec CMD. Exit 1 when a requirement is not met, 2 on a usage error.",
    )
    parser.add_argument(
        "--require",
        action="append",
        default=[],
        metavar="SPEC",
        help="a requirement (repeatable; several may be given comma-separated)",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="read requirements from this envdoctor.toml or pyproject.toml "
        "(default: the one in the current directory, if any)",
    )
    parser.add_argument("--json", action="store_true", help="print the verdicts as JSON on stdout")
    parser.add_argument(
        "--timeout",
        type=seconds_type("--timeout"),
        default=None,
        metavar="S",
        help=f"give up on the probes after this many seconds (default: {DEFAULT_TIMEOUT_S:g})",
    )
    parser.add_argument(
        "--warn-only",
        action="store_true",
        help="report unmet requirements but start CMD (or exit 0) anyway",
    )
    parser.add_argument(
        "--python", metavar="PATH", help="judge torch in this interpreter's environment"
    )
    parser.add_argument(
        "argv",
        nargs=argparse.REMAINDER,
        metavar="-- CMD [ARG…]",
        help="the command to exec when the requirements are met",
    )


def run(args: argparse.Namespace) -> Outcome:
    """Judge the requirements and decide: exec, exit 0, or exit 1."""
    from envdoctor.requirements.parse import (
        RequirementError,
        expand_apps,
        parse_requirements,
    )

    started = time.monotonic()
    command = list(args.argv)
    if command and command[0] == "--":
        command = command[1:]
    if command and not command[0]:
        raise UsageError("-- '': the command to start is an empty word")
    config_specs, config_origin, config_timeout = read_config(args.config, Path.cwd())
    timeout_s = args.timeout if args.timeout is not None else (config_timeout or DEFAULT_TIMEOUT_S)
    try:
        existing_path("--python", args.python, "executable")
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    _refuse_empty(args.require, "--require")
    _refuse_empty(config_specs, config_origin or "config")
    try:
        requirements = parse_requirements(args.require)
        requirements += parse_requirements(config_specs, origin=config_origin or "config")
        requirements = expand_apps(requirements, _matrices)
    except RequirementError as exc:
        raise UsageError(str(exc)) from None
    unstartable = _cannot_start(command)
    if not requirements:
        if unstartable:
            return _unstartable(command, unstartable, [], [], args, started, None)
        note = (
            ""
            if args.json
            else (
                "envdoctor preflight: no requirements given (--require or "
                "[preflight] require in envdoctor.toml)\n"
            )
        )
        doc = _document([], [], command, True, args.warn_only, started, None)
        return Outcome(
            stdout=_json(doc, one_line=bool(command)) if args.json else "",
            stderr=note,
            exec_argv=command or None,
        )
    verdicts, snapshot, causes = judge(requirements, timeout_s, args.python)
    if unstartable:
        found = [causes.get(i) for i in range(len(verdicts))]
        return _unstartable(command, unstartable, verdicts, found, args, started, snapshot)
    ok = all(v.ok for v in verdicts)
    go = ok or args.warn_only
    doc = _document(
        verdicts,
        [causes.get(i) for i in range(len(verdicts))],
        command,
        go,
        args.warn_only,
        started,
        snapshot,
    )
    stdout = _json(doc, one_line=bool(command)) if args.json else ""
    stderr = "" if args.json else _text(verdicts, causes, command, ok, args.warn_only, started)
    return Outcome(
        stdout=stdout,
        stderr=stderr,
        exit_code=EXIT_OK if go else EXIT_FINDINGS,
        exec_argv=(command or None) if go else None,
    )


def judge(
    requirements: Sequence[Requirement],
    timeout_s: float,
    python: str | None = None,
    root: str = "/",
    env: dict[str, str] | None = None,
) -> tuple[list[Verdict], Snapshot, dict[int, Finding]]:
    """Collect what the requirements need and judge them: (verdicts, snapshot, causes by index)."""
    from envdoctor.probes import collect_all
    from envdoctor.probes.context import ProbeContext, ProbeOptions
    from envdoctor.requirements.judge import Judge
    from envdoctor.requirements.parse import finding_ids_needed, groups_needed

    checks, emitters = _finding_checks(requirements, finding_ids_needed(requirements))
    groups = groups_needed(requirements)
    for chk in checks:
        groups.update(chk.needs)
        groups.update(chk.needs_any)
    modules = probe_modules_for(groups)
    ctx = ProbeContext(
        root=root,
        env=env,
        options=ProbeOptions(python=python, timeout_s=timeout_s, groups=tuple(sorted(groups))),
    )
    if modules:
        from envdoctor.diagnosis.enrich import enrich, needs_matrices

        snapshot = collect_all(ctx, modules).snapshot
        if needs_matrices(snapshot):  # the tables are read only when there is a fact to derive
            enrich(snapshot, _matrices())
    else:
        from envdoctor.model.snapshot import Snapshot

        snapshot = Snapshot(origin="live")
    outcome = None
    if checks:  # the engine is imported only when a requirement names findings
        from envdoctor.diagnosis.engine import run_checks

        outcome = run_checks(
            snapshot, _matrices() if any(c.matrices for c in checks) else _no_matrices(), checks
        )
    verdicts = Judge(snapshot, requirements, outcome, emitters).judge_all()
    causes = {}
    if not all(v.ok for v in verdicts):
        causes = likely_causes(verdicts, snapshot)
    return verdicts, snapshot, causes


def probe_modules_for(groups: set[str]) -> tuple[str, ...]:
    """The probe modules (from PROBE_MODULES, by their GROUPS) that fill any of `groups`."""
    from envdoctor.probes import PROBE_MODULES, declared_groups

    return tuple(name for name in PROBE_MODULES if set(declared_groups(name)) & groups)


def _finding_checks(
    requirements: Sequence[Requirement], ids: set[str]
) -> tuple[list[Check], dict[str, list[Check]]]:
    """The checks that emit `ids`, and id -> emitting checks; UsageError for an unknown id."""
    if not ids:
        return [], {}
    emitters: dict[str, list] = {}
    chosen = []
    for chk in live_checks(emitting=ids):
        hits = set(chk.ids) & ids
        if hits:
            chosen.append(chk)
            for fid in hits:
                emitters.setdefault(fid, []).append(chk)
    for req in requirements:
        if req.kind == "finding" and req.value not in emitters:
            raise UsageError(
                f"unknown finding id {req.value!r} in {req.text!r} "
                "(`envdoctor explain ID` shows the known ones)"
            )
    return chosen, emitters


def live_checks(
    layers: Sequence[str] | None = None,
    emitting: set[str] | None = None,
    runnable_on: set[str] | None = None,
    touching: set[str] | None = None,
) -> list[Check]:
    """The checks that can judge a live machine (the registry minus the text-only modules),
    narrowed so that only the modules needed are imported: with `layers`, the modules named after
    those layers (`nvidia_devices` -> nvidia), where a layer's findings live; with `emitting`, the
    modules that may emit one of those finding ids; with `runnable_on`, the modules with a check
    whose needs are among those collected groups, and with `touching` too, that read one of
    these (the last three from the registry's index)."""
    from envdoctor.checks import (
        CHECK_MODULES,
        TEXT_ONLY_CHECK_MODULES,
        load_checks,
        modules_emitting,
        modules_runnable,
    )
    from envdoctor.model.facts import layer_of

    modules = tuple(
        m
        for m in CHECK_MODULES
        if m not in TEXT_ONLY_CHECK_MODULES
        and (layers is None or layer_of(m.split("_", 1)[0]) in layers)
    )
    if emitting is not None:
        modules = modules_emitting(emitting, modules)
    if runnable_on is not None:
        modules = modules_runnable(runnable_on, modules, touching)
    return load_checks(modules) if modules else []


def likely_causes(verdicts: Sequence[Verdict], snapshot: Snapshot) -> dict[int, Finding]:
    """For each unmet verdict not decided by a finding, the top finding of its layers (if any),
    from the check modules of those layers."""
    from envdoctor.model.facts import layer_of

    wanted = {
        layer
        for v in verdicts
        if not v.ok and v.finding is None
        for layer in _CAUSE_LAYERS.get(_KIND_CAUSES.get(v.requirement.kind, v.requirement.kind), ())
    }
    # the checks that can run on what was collected and read a group of the layers in question
    # (a check of the package list is no cause of a missing GPU)
    collected = {name for name in snapshot.groups if snapshot.has(name)}
    touching = {name for name in collected if layer_of(name) in wanted}
    checks = (
        live_checks(sorted(wanted), runnable_on=collected, touching=touching) if touching else []
    )
    findings = []
    if checks:
        from envdoctor.diagnosis.engine import run_checks

        matrices = _matrices() if any(c.matrices for c in checks) else _no_matrices()
        findings = run_checks(snapshot, matrices, checks).findings
    problems = [f for f in findings if f.severity.value != "info" and not f.explained_by]
    causes: dict[int, Finding] = {}
    for i, verdict in enumerate(verdicts):
        if verdict.ok:
            continue
        if verdict.finding is not None:
            causes[i] = verdict.finding
            continue
        kind = _KIND_CAUSES.get(verdict.requirement.kind, verdict.requirement.kind)
        layers = _CAUSE_LAYERS.get(kind, ())
        match = next((f for f in problems if f.layer in layers), None)
        if match is not None:
            causes[i] = match
    return causes


# -- configuration -------------------------------------------------------------------------------


def read_config(path: str | None, cwd: Path) -> tuple[list[str], str | None, float | None]:
    """(requirement specs, where they came from, timeout) from a config file; UsageError if bad."""
    if path is not None:
        file = Path(path)
        if not file.is_file():
            raise UsageError(f"--config {path}: no such file")
        return _config_table(file, required=True)
    for candidate in (cwd / "envdoctor.toml", cwd / "pyproject.toml"):
        if candidate.is_file():
            specs, origin, timeout = _config_table(candidate, required=False)
            if origin is not None:
                return specs, origin, timeout
    return [], None, None


def _config_table(file: Path, required: bool) -> tuple[list[str], str | None, float | None]:
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        doc = tomllib.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{file}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{file}: not valid TOML: {exc}") from None
    pyproject = file.name == "pyproject.toml"
    table = (doc.get("tool", {}).get("envdoctor", {}) if pyproject else doc).get("preflight")
    where = "[tool.envdoctor.preflight]" if pyproject else "[preflight]"
    if table is None:
        if required:
            raise UsageError(f"{file}: no {where} table with `require = [...]`")
        return [], None, None
    if not isinstance(table, dict):
        raise UsageError(f"{file}: {where} must be a table")
    unknown = sorted(set(table) - set(CONFIG_KEYS))
    if unknown:
        raise UsageError(
            f"{file}: unknown key {unknown[0]!r} in {where} (known: {', '.join(CONFIG_KEYS)})"
        )
    require = table.get("require", [])
    if isinstance(require, str):
        require = [require]
    if not isinstance(require, list) or not all(isinstance(r, str) for r in require):
        raise UsageError(f"{file}: {where} require must be a list of strings")
    timeout = table.get("timeout")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))):
        raise UsageError(f"{file}: {where} timeout must be a number of seconds")
    if timeout is not None:
        try:
            timeout = finite_number("timeout", timeout, 0.0, TIMEOUT_MAX_S)
        except ValueError as exc:
            raise UsageError(f"{file}: {where} {exc} (seconds)") from None
    return list(require), f"{file.name} {where}", timeout


# -- output --------------------------------------------------------------------------------------


def _document(
    verdicts: Sequence[Verdict],
    causes: Sequence[Finding | None],
    command: list[str],
    go: bool,
    warn_only: bool,
    started: float,
    snapshot: Snapshot | None,
) -> dict[str, Any]:
    """The --json document (stable keys; fields are only ever added)."""
    from envdoctor import __version__
    from envdoctor.model.snapshot import SCHEMA_VERSION

    return {
        "schema_version": SCHEMA_VERSION,
        "envdoctor_version": __version__,
        "kind": "preflight",
        "ok": all(v.ok for v in verdicts),
        "starts_command": go,
        "warn_only": warn_only,
        "command": _shown(command) or None,
        "requirements": [_verdict_dict(v, c) for v, c in zip(verdicts, causes, strict=True)],
        "duration_ms": round((time.monotonic() - started) * 1000, 1),
        "snapshot": snapshot.to_dict() if snapshot is not None else None,
    }


def _verdict_dict(verdict: Verdict, cause: Finding | None) -> dict[str, Any]:
    fix = cause.fixes[0].to_dict(1) if cause is not None and cause.fixes else None
    return {
        "requirement": verdict.requirement.text,
        "origin": verdict.requirement.origin,
        "state": verdict.state,
        "reason": verdict.reason,
        "evidence": [{"fact": f, "actual": a, "expected": e} for f, a, e in verdict.evidence],
        "cause": cause.to_dict() if cause is not None else None,
        "fix": fix,
    }


def _json(doc: dict[str, Any], one_line: bool = False) -> str:
    """The document; `one_line` (when CMD follows on the same stdout) puts it on exactly one line,
    the first, so `head -n 1` separates it from whatever the command prints."""
    import json

    if one_line:
        return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True) + "\n"
    return json.dumps(doc, sort_keys=True, indent=2) + "\n"


def _refuse_empty(specs: Sequence[str], origin: str) -> None:
    """A spec that names no requirement (`--require ''`, `--require ','`: often an unset shell
    variable) would silently turn the gate off: a usage error."""
    from envdoctor.requirements.parse import split_specs

    for spec in specs:
        if not split_specs([spec]):
            raise UsageError(
                f"{origin} {spec!r}: names no requirement (an unset variable?); "
                "leave the option out to check nothing"
            )


def _shown(command: Sequence[str]) -> list[str]:
    """The command as preflight shows it: credentials in its arguments masked (`--hf-token X`,
    `HF_TOKEN=X`), since its output goes to container logs; the command run is unchanged."""
    from envdoctor.render.redact import masked_argv

    return masked_argv(command) if command else []


def _cannot_start(command: Sequence[str]) -> str | None:
    """Why `command` cannot be exec'd (not found, not executable), or None; decided before any
    verdict is written, so the document never promises a start that will fail."""
    import os

    if not command:
        return None
    name = command[0]
    if os.sep in name:
        if not os.path.exists(name):
            return "no such file"
        if os.path.isdir(name) or not os.access(name, os.X_OK):
            return "not an executable file"
        return None
    # execvp's own search (shutil.which would cost an import on preflight's fast path)
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        candidate = os.path.join(folder or ".", name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return None
    return "not found on PATH"


def _unstartable(
    command: list[str],
    why: str,
    verdicts: Sequence[Verdict],
    causes: Sequence[Finding | None],
    args: argparse.Namespace,
    started: float,
    snapshot: Snapshot | None,
) -> Outcome:
    """The outcome when CMD cannot start: nothing is exec'd, exit 127 (not found) or 126 (not
    executable) as a shell would, and the document says so (ok and starts_command false)."""
    doc = _document(verdicts, causes, command, False, args.warn_only, started, snapshot)
    doc["ok"] = False
    doc["command_error"] = f"{command[0]}: {why}"
    message = f"envdoctor preflight: cannot exec {command[0]}: {why}\n"
    return Outcome(
        stdout=_json(doc) if args.json else "",
        stderr=message,
        exit_code=126 if why == "not an executable file" else 127,
    )


def _text(
    verdicts: Sequence[Verdict],
    causes: dict[int, Finding],
    command: list[str],
    ok: bool,
    warn_only: bool,
    started: float,
) -> str:
    """The human verdict for stderr: one line when all is met, else each unmet one with its fix."""
    elapsed = f"{time.monotonic() - started:.2f} s"
    names = ", ".join(v.requirement.text for v in verdicts)
    if ok:
        return f"envdoctor preflight: ok ({names}) in {elapsed}\n"
    bad = [v for v in verdicts if not v.ok]
    shown_cmd = ""
    if command:
        import shlex

        shown_cmd = shlex.join(_shown(command))
    if warn_only:
        tail = f" — starting {shown_cmd} anyway (--warn-only)" if command else " (--warn-only)"
    else:
        tail = f" — not starting {shown_cmd}" if command else ""
    lines = [f"envdoctor preflight: {len(bad)} of {len(verdicts)} requirement(s) not met{tail}"]
    width = max(len(v.requirement.text) for v in verdicts)
    for i, verdict in enumerate(verdicts):
        if verdict.ok:
            continue
        lines.append(
            f"  {_MARK[verdict.state]} {verdict.requirement.text:<{width}}  {verdict.reason}"
        )
        cause = causes.get(i)
        if cause is not None and cause is not verdict.finding:
            lines.append(f"      cause: {cause.title} [{cause.id}]")
        if cause is not None and cause.fixes:
            fix = cause.fixes[0]
            lines.append(f"      fix:   {fix.summary}")
            lines += [f"             {c}" for c in fix.commands]
    met = [v.requirement.text for v in verdicts if v.ok]
    if met:
        lines.append(f"  {_MARK['met']} met: {', '.join(met)}")
    hint = "Full diagnosis: envdoctor check"
    if not warn_only:
        hint += "; --warn-only starts the command anyway"
    lines.append(f"{hint}. ({elapsed})")
    return "\n".join(lines) + "\n"


# -- matrices, loaded only when a check or app needs them --------------------------------------


def _matrices() -> Any:
    from envdoctor.diagnosis.pipeline import active_matrices

    return active_matrices()


def _no_matrices() -> Any:
    from envdoctor.matrix.loader import MatrixSet

    return MatrixSet(origin="none")
