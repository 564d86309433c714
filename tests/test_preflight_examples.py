"""The shipped examples (examples/): every requirement in them parses, every finding id they name
exists, and the Dockerfile keeps the exec chain (exec-form ENTRYPOINT ending in `--`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from envdoctor.commands.preflight import read_config
from envdoctor.requirements.parse import parse_requirements

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def require_args(text: str) -> list[str]:
    """The values given to --require in a file (quoted, as in YAML/JSON arrays or shell)."""
    return re.findall(r"""["']?--require["']?,?\s*["']([^"']+)["']""", text)


def known_finding_ids() -> set[str]:
    from envdoctor.checks import load_checks

    return {i for c in load_checks() for i in c.ids}


def test_example_config_parses_and_names_real_findings():
    specs, origin, timeout = read_config(str(EXAMPLES / "envdoctor.toml"), EXAMPLES)
    reqs = parse_requirements(specs, origin=origin)
    assert origin == "envdoctor.toml [preflight]" and timeout == 10.0
    assert {"gpu", "torch.cuda", "vram"} <= {r.kind for r in reqs}
    ids = {r.finding_id for r in reqs if r.finding_id}
    assert ids and ids <= known_finding_ids()


def test_kubernetes_example_requirements_parse():
    text = (EXAMPLES / "kubernetes-preflight.yaml").read_text()
    specs = require_args(text)
    assert len(specs) >= 6
    reqs = parse_requirements(specs)
    assert {r.finding_id for r in reqs if r.finding_id} <= known_finding_ids()
    assert "initContainers:" in text and "startupProbe:" in text and "timeoutSeconds: 10" in text


def test_dockerfile_entrypoint_is_exec_form_and_ends_with_the_separator():
    text = (EXAMPLES / "Dockerfile").read_text()
    entry = re.search(r"(?m)^ENTRYPOINT (\[.*\])$", text)
    assert entry, "ENTRYPOINT must be in exec (JSON) form so preflight can exec CMD as PID 1"
    argv = json.loads(entry.group(1))
    assert argv[:2] == ["envdoctor", "preflight"] and argv[-1] == "--"
    assert json.loads(re.search(r"(?m)^CMD (\[.*\])$", text).group(1))
    parse_requirements(require_args(text))
    assert "exec envdoctor preflight" in text
