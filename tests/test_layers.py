"""The layers that import-linter cannot see (pyproject.toml, [tool.importlinter]), by an AST scan:

- only the command line and the commands print or exit (the others return text and codes);
- `envdoctor.checks.*` (installed from the checks/ folder, so invisible to import-linter's
  graph) is imported only by the pipeline that runs checks and by the commands.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SOURCES = [p for folder in ("envdoctor", "checks") for p in sorted((REPO / folder).rglob("*.py"))]

# Modules that may print or exit, and why.
MAY_PRINT = {
    "envdoctor/cli.py": "the command line: prints what a command returned and exits",
    "envdoctor/__main__.py": "`python -m envdoctor`",
    "checks/__main__.py": "`python -m envdoctor.checks` rewrites checks/index.json (maintainers)",
    "envdoctor/i18n/__main__.py": "`python -m envdoctor.i18n update` re-extracts the message "
    "catalog and lists what is untranslated (maintainers and translators)",
}
MAY_PRINT_FOLDERS = {
    "envdoctor/commands/": "commands (through cli)",
    "envdoctor/target/": "scripts run in a target interpreter: their stdout is the answer",
}
# Modules outside the check engine that may import envdoctor.checks, and why.
MAY_IMPORT_CHECKS = {
    "envdoctor/diagnosis/pipeline.py": "the diagnosis pipeline loads the checks it runs",
    "envdoctor/ingest/free_text.py": "the triage signatures' anchors pick the notable lines "
    "(to go with the triage engine's move out of checks/, issue 20)",
}
# Whole packages that stand beside the pipeline: each runs checks as part of its job.
MAY_IMPORT_CHECKS_PACKAGES = {
    "envdoctor/remedies/": "the fix verifier re-runs the checks that read a fix's effect, and the "
    "chooser reads the torch facts the checks derive (TorchContext)",
    "envdoctor/triage_engine/": "the triage engine evaluates the causes registered with the checks and "
    "derives the torch facts through TorchContext",
}


def _relative(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


def _output_calls(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "print":
            found.append((node.lineno, "print()"))
        elif isinstance(func, ast.Attribute):
            target = ast.unparse(func)
            if target in ("sys.exit", "sys.stdout.write", "sys.stderr.write", "os._exit"):
                found.append((node.lineno, target))
    return found


def test_only_the_command_line_prints_or_exits():
    offenders = []
    for path in SOURCES:
        name = _relative(path)
        if name in MAY_PRINT or any(name.startswith(f) for f in MAY_PRINT_FOLDERS):
            continue
        for line, call in _output_calls(ast.parse(path.read_text(encoding="utf-8"))):
            if name == "envdoctor/probes/worker.py" and call == "os._exit":
                continue  # the forked probe worker ends without running the parent's exit code
            offenders.append(f"{name}:{line} {call}")
    assert offenders == []


def test_the_scan_finds_output_calls():
    tree = ast.parse("import sys\nprint('x')\nsys.exit(2)\nsys.stdout.write('y')\n")
    assert [call for _, call in _output_calls(tree)] == ["print()", "sys.exit", "sys.stdout.write"]


def _imports_checks(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        if any(n == "envdoctor.checks" or n.startswith("envdoctor.checks.") for n in names):
            lines.append(node.lineno)
    return lines


def test_only_the_pipeline_and_commands_import_the_checks():
    offenders = []
    for path in SOURCES:
        name = _relative(path)
        if (
            name.startswith(("checks/", "envdoctor/commands/", *MAY_IMPORT_CHECKS_PACKAGES))
            or name in MAY_IMPORT_CHECKS
        ):
            continue
        offenders += [f"{name}:{line}" for line in _imports_checks(ast.parse(path.read_text()))]
    assert offenders == []


def test_every_probe_and_reader_module_keeps_its_protocol():
    """Probe modules define GROUPS and collect(ctx); reader modules NAME, detect and read."""
    import importlib

    from envdoctor.ingest.driver import READER_MODULES, ReaderModule
    from envdoctor.probes import PROBE_MODULES, ProbeModule

    probes = {n: importlib.import_module(f"envdoctor.probes.{n}") for n in PROBE_MODULES}
    readers = {n: importlib.import_module(f"envdoctor.ingest.{n}") for n in READER_MODULES}
    assert [n for n, m in probes.items() if not isinstance(m, ProbeModule)] == []
    assert [n for n, m in readers.items() if not isinstance(m, ReaderModule)] == []
    assert all(isinstance(m.GROUPS, tuple) for m in probes.values())
    assert all(isinstance(m.NAME, str) for m in readers.values())
