"""Whether a paste reads as a problem report, and its lines that say so in words: the case base
suggests causes only for problem reports, and a problem told in prose without an error line gets
the no-match finding's prose form. Its own module: the signature evaluator asks it and must not
import the case base (which reads the matrices)."""

from __future__ import annotations

import re

from envdoctor.model.snapshot import Snapshot

# a paste without error lines is read as a problem report only when a sentence says something
# is wrong (not a table's "Not Supported" or nvidia-smi's "No running processes found")
PROBLEM = re.compile(
    r"\b(?:(?:does|do|did|is|are|was|were|can|could|will|would)\s+not|cannot|fails?|failed|"
    r"failing|error|issue|problem|wrong|crash\w*|hang\w*|stall\w*|stuck|freez\w*|timed out|"
    r"kill\w*|slow\w*|instead of|unable|broken|stops|stopped|"
    # "no CUDA devices visible", "GPU not detected" (not nvidia-smi's "No running processes
    # found": the missing thing is a GPU or a device)
    r"no (?:\w+ ){0,2}(?:gpus?|devices?)(?: \w+)? (?:found|detected|visible|available|recogni[sz]ed)|"
    r"not (?:found|detected|visible|available|recogni[sz]ed|used|utili[sz]ed|showing))\b|n't\b|"
    r"不(?:能|行|了|到|会|支持|知道|动|起作用)|无法|没(?:有|法|反应)|(?<![a-z])kill|杀掉|被杀|卡死|掉了|"
    r"错误|报错|失败|问题|崩溃|卡住|异常|"
    # a question is a request for help: "how do I ...?", "为什么...", "怎么办"; a question mark
    # right after a Chinese character (an input method's "？", read as "?") ends a question too
    r"\?\s*$|(?<=[\u4e00-\u9fff])\?|\b(?:how (?:do|can|to)|why (?:does|is|do)|is there a way|any idea)\b|"
    r"为什么|怎么|如何|请问|吗\s*$",
    re.IGNORECASE | re.ASCII,  # a Chinese character next to an English word is a boundary
)
# lines that read like errors in every healthy report: collect_env's "Clang version: Could not
# collect" for a tool it did not find
BOILERPLATE = re.compile(r":\s*could not collect\s*$", re.IGNORECASE)


def is_problem_report(snap: Snapshot) -> bool:
    """Whether the paste reads as a problem: it holds error lines, or says in words that
    something is wrong (a healthy log, `nvidia-smi` or `collect_env` gets no suggested cause)."""
    text = snap.data("pasted.text") or {}
    if any(not BOILERPLATE.search(str(line)) for line in text.get("errors") or ()):
        return True
    return bool(problem_lines(snap, 1))


def problem_lines(snap: Snapshot, most: int = 3) -> list[str]:
    """The paste's lines that say in words that something is wrong ("does not run on the GPU",
    "训练很慢"), at most `most`."""
    text = snap.data("pasted.text") or {}
    found: list[str] = []
    for line in text.get("lines", []):
        if PROBLEM.search(str(line)) and not BOILERPLATE.search(str(line)):
            found.append(str(line))
            if len(found) >= most:
                break
    return found
