"""transformers' "does not recognize this architecture" (a model type newer than the installed
release): the cause is named, with the type, instead of similar cases' unrelated driver causes."""

from __future__ import annotations

from envdoctor.triage_engine import triage_text

# https://github.com/huggingface/autotrain-advanced/issues/837 (with ModernBERT)
LINE = (
    "ValueError: The checkpoint you are trying to load has model type modernbert but Transformers "
    "does not recognize this architecture. This could be because of an issue with the checkpoint, "
    "or because your version of Transformers is out of date."
)


def test_the_unknown_model_type_names_the_transformers_upgrade() -> None:
    findings = triage_text(LINE + "\n").findings
    assert findings[0].id == "python.transformers-too-old-for-model"
    assert "modernbert" in findings[0].title
    commands = [c for fix in findings[0].fixes for c in fix.commands]
    assert "pip install -U transformers" in commands
    assert not any(f.id.startswith(("nvidia.", "cuda.")) for f in findings)
