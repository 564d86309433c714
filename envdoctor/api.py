"""The Python API: what the commands do, returning objects instead of printing.

    import envdoctor
    report = envdoctor.check()                   # this machine, the active environment
    report.findings                              # ranked Finding objects
    report.to_json()                             # the `check --json` document
    envdoctor.triage("RuntimeError: CUDA error: no kernel image is available ...")
    envdoctor.preflight(["gpu", "torch>=2.4"]).ok

In a notebook a Report shows itself as HTML. Nothing here prints or exits; bad arguments raise
ValueError with the message the command line would print.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from envdoctor.model.findings import Finding
from envdoctor.model.report import Report
from envdoctor.model.snapshot import Snapshot

DEFAULT_TIMEOUT_S = 20.0


class ShownReport(Report):
    """A Report that shows itself: as the HTML report inline in Jupyter, as the text report in
    a terminal IPython and with `str()`. (The model knows no renderer; the API adds the views.)"""

    @classmethod
    def of(cls, report: Report) -> ShownReport:
        """The same report, with the views."""
        return cls(**{f.name: getattr(report, f.name) for f in fields(report)})

    def to_text(self, verbose: bool = False) -> str:
        """The plain-text view (what `check` prints when not on a terminal)."""
        from envdoctor.render import render

        return render(self, "text", verbose=verbose, color=False)

    def __str__(self) -> str:
        return self.to_text()

    def _repr_html_(self) -> str:
        """Jupyter's inline view: the HTML report in a sandboxed frame, so its page styles
        cannot leak into the notebook's."""
        from html import escape

        from envdoctor.render import render

        page = render(self, "html")
        return (
            '<iframe class="envdoctor-report" sandbox="" style="width:100%;height:640px;'
            f'border:1px solid #ccc" srcdoc="{escape(page, quote=True)}"></iframe>'
        )

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """IPython's terminal view: the plain-text report."""
        printer.text(repr(self) if cycle else self.to_text())


def check(
    python: str | None = None,
    *,
    deep: bool = False,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    apps: Iterable[str] = (),
    app_dirs: Iterable[str] = (),
    root: str = "/",
) -> ShownReport:
    """Diagnose this machine, as `envdoctor check` does.

    `python` names the interpreter to inspect; by default the active environment (VIRTUAL_ENV,
    CONDA_PREFIX, else the first python on PATH; see README, "Which Python is inspected").
    """
    from envdoctor.diagnosis.pipeline import collect_live, diagnose
    from envdoctor.probes.context import ProbeOptions

    _positive("timeout_s", timeout_s)
    if python is not None and not os.path.exists(python):
        raise ValueError(f"python {python}: no such file")
    if root != "/" and not os.path.isdir(root):
        raise ValueError(f"root {root}: not a directory")
    options = ProbeOptions(
        python=python,
        deep=deep,
        timeout_s=timeout_s,
        apps=tuple(a.lower() for a in apps),
        app_dirs=tuple(app_dirs),
    )
    if root != "/":
        from envdoctor.diagnosis.image_inspect import collect_for_root

        return ShownReport.of(diagnose(collect_for_root(root, options), kind="check"))
    return ShownReport.of(diagnose(collect_live(options), kind="check"))


def triage(text: str, *, here: bool = False, timeout_s: float = DEFAULT_TIMEOUT_S) -> ShownReport:
    """Diagnose pasted text (an error, a log, collect_env output, an envdoctor report), as
    `envdoctor triage` does; `here` adds this machine's live facts."""
    from envdoctor.commands.triage import triage_text

    if not isinstance(text, str):
        raise ValueError(f"triage needs text (str), not {type(text).__name__}")
    _positive("timeout_s", timeout_s)
    return ShownReport.of(triage_text(text, here=here, timeout_s=timeout_s))


@dataclass
class PreflightResult:
    """The verdict of `preflight`: `ok`, each requirement's verdict, and the likely causes."""

    ok: bool
    document: dict[str, Any]
    snapshot: Snapshot
    causes: list[Finding] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        """The likely cause of each unmet requirement (as in `preflight --json`)."""
        return self.causes

    def to_json(self) -> str:
        """The `preflight --json` document."""
        import json

        return json.dumps(self.document, sort_keys=True, indent=2) + "\n"


def preflight(
    requirements: str | Sequence[str],
    *,
    python: str | None = None,
    timeout_s: float = 10.0,
) -> PreflightResult:
    """Judge requirements ("gpu", "torch>=2.4", "vram>=24", "app:comfyui", ...) on this machine,
    as `envdoctor preflight --require ...` does, without starting any command."""
    import time

    from envdoctor.commands.preflight import _document, _matrices, judge
    from envdoctor.requirements.parse import RequirementError, expand_apps, parse_requirements

    _positive("timeout_s", timeout_s)
    specs = [requirements] if isinstance(requirements, str) else list(requirements)
    started = time.monotonic()
    try:
        parsed = expand_apps(parse_requirements(specs), _matrices)
    except RequirementError as exc:
        raise ValueError(str(exc)) from None
    if not parsed:
        raise ValueError("no requirements given")
    verdicts, snapshot, causes = judge(parsed, timeout_s, python)
    ok = all(v.ok for v in verdicts)
    ordered = [causes.get(i) for i in range(len(verdicts))]
    document = _document(verdicts, ordered, [], False, False, started, snapshot)  # starts nothing
    return PreflightResult(ok, document, snapshot, [c for c in ordered if c is not None])


def explain(finding_id: str) -> str:
    """The help page of a finding id (`envdoctor explain ID`)."""
    from argparse import Namespace

    from envdoctor.commands import UsageError
    from envdoctor.commands.explain import run

    try:
        return run(Namespace(id=finding_id)).stdout
    except UsageError as exc:
        raise ValueError(str(exc)) from None


def redacted(report: Report) -> ShownReport:
    """A copy of `report` with user and host names, home paths, addresses, GPU UUIDs, serials
    and secrets replaced by pseudonyms, as `envdoctor report` writes it."""
    from envdoctor.commands.report import machine_identifiers
    from envdoctor.render.redact import redact_document

    users, hosts = machine_identifiers(os.environ)
    doc, _ = redact_document(report.to_dict(include_raw=True), users, hosts)
    return ShownReport.of(Report.from_dict(doc))


def _positive(name: str, value: float) -> None:
    """ValueError unless `value` is a finite positive number."""
    if not isinstance(value, (int, float)) or not 0 < value < float("inf"):
        raise ValueError(f"{name} must be a positive number of seconds, not {value!r}")
