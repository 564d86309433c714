"""The error signatures as checks: one check per finding id for the registry (`envdoctor
explain ID` shows its causes, the index lists its id), and the no-match check.

The engine itself lives in `envdoctor.triage_engine` (data: `checks/signatures/*.toml`). `envdoctor
triage` evaluates every cause once through `envdoctor.triage_engine.evaluate.signature_findings` and
does not run these checks; they serve a pasted snapshot diagnosed any other way (`check` on a
saved paste), where each evaluates only its own signatures.
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.model.checkdef import Check
from envdoctor.model.findings import Finding
from envdoctor.model.snapshot import Snapshot
from envdoctor.triage_engine.evaluate import (
    NO_MATCH_ID,
    help_text,
    match_all,
    no_match_finding,
    to_finding,
)
from envdoctor.triage_engine.facts import Facts
from envdoctor.triage_engine.loader import DATA, by_id
from envdoctor.triage_engine.model import Signature


def _make_check(finding_id: str, signatures: list[Signature]) -> Check:
    chosen = tuple(signatures)

    def run(snap: Snapshot, matrices: Any) -> Finding | None:
        facts = Facts(snap, matrices)
        found = match_all(snap, matrices, chosen, facts)
        return to_finding(found[0], facts, snap, matrices) if found else None

    run.__doc__ = help_text(signatures)
    run.__name__ = "signature_" + re.sub(r"\W", "_", finding_id)
    return Check((finding_id,), ("pasted.text",), run)


def _no_match(snap: Snapshot, matrices: Any) -> Finding | None:
    return None if match_all(snap, matrices) else no_match_finding(snap)


_no_match.__doc__ = str(
    DATA.no_match.get("help", "No known error signature matched the pasted text.")
)

CHECKS: list[Check] = [_make_check(fid, sigs) for fid, sigs in by_id().items()] + [
    Check((NO_MATCH_ID,), ("pasted.text",), _no_match)
]
