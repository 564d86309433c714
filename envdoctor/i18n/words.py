"""Words renderers compose at run time (plurals, enum values), listed so the extractor finds
them: a renderer builds "2 warnings" or "needs-restart" from data, which no f-string spells."""

from __future__ import annotations

# The extractor reads these tuples as messages (see extract.WORD_MODULE).
COUNTS = (
    "{count} error",
    "{count} errors",
    "{count} warning",
    "{count} warnings",
    "{count} info",
    "{count} infos",
    "{count} check",
    "{count} checks",
    "{count} check passed",
    "{count} checks passed",
    "{count} not applicable",
    "{count} skipped",
    "{count} passed",
    "{count} error(s)",
)
VALUES = (
    "error",
    "warning",
    "info",
    "high confidence",
    "medium confidence",
    "low confidence",
    "safe",
    "needs-restart",
    "destructive",
    "collected",
    "absent",
    "failed",
    "-v for details",
    "What to do first",
    "no reason given",
    "machine unknown",
    "No problems found.",
    "Findings",
    "Layers",
    "Checks",
    "Facts",
    "Machine:",
    "Findings:",
    "Passed:",
    "not applicable",
    "skipped",
    "(expected {expected})",
    "explains: {ids}",
    "assumption: {assumption}",
    "(assumption: {assumption})",
    "✗ rejected: ",
    "this interpreter",
    "no NVIDIA driver",
    "no AMD GPU",
    "no AMD GPU ({reason})",
    "(JetPack {jetpack}{value})",
    "torch {version}{value}",
    "at {where}",
    "NVIDIA driver {version}",
    "({models} mode)",
    # envdoctor fleet's summary and tables
    "Majority: {parts}",
    "{field} {value} on {count}/{total}",
    "{count} node",
    "{count} nodes",
    "{count} stack",
    "{count} stacks",
    "{count} outlier",
    "{count} outliers",
    "majority {value}",
    "nodes",
    "driver",
    "toolkit",
    # envdoctor fit's table and headings
    "Assumptions",
    "term",
    "formula",
    "total",
    "total per GPU",
    "weights ({dtype})",
    "activations",
    "a GPU",
    "of {vram} GiB",
)
# layer titles of one word (envdoctor.model.facts.LAYERS)
LAYER_TITLES = (
    "AMD GPU and ROCm",
    "Platform",
    "Intel GPU",
    "Apple GPU",
    "Containers",
    "Applications",
    "Workload",
)
# table headings, looked up one word at a time
HEADINGS = ("fact", "seen", "expected", "layer", "status", "facts")
# envdoctor matrices list: its columns and the matrix set in use
MATRIX_WORDS = ("name", "schema", "rows", "checked", "title", "set: {origin}", "bundled")
# probe summaries and reasons composed from parts (envdoctor.probes: cuda_toolkit, target_python,
# platform_macos, nvidia_gpu, apps_detect, apps_halcon) and the skip reason of the engine
PROBE_WORDS = (
    "CUDA {version} at {path} ({tags})",
    "CUDA {version} at {path}",
    "nvcc on PATH",
    "needs {name}: {status} ({reason})",
    "not macOS",
    "no /proc/driver/nvidia",
    "no HALCONROOT",
    "no {names} package in {python}",
    "chosen with --python",
    "the active venv (VIRTUAL_ENV)",
    "the active conda env (CONDA_PREFIX)",
    "the first python on PATH",
    "envdoctor's own interpreter",
    "the image's own interpreter, read from its files",
    # the pasted text's summary (envdoctor.ingest.driver): parts, and the parts no reader took
    "{count} part: {shown}",
    "{count} parts: {shown}",
    "unread text",
    "unread traceback",
    "unread json",
    "unread text ×{n}",
    "unread traceback ×{n}",
    "unread json ×{n}",
)
# envdoctor fit's title and table rows, composed from parts (envdoctor.fit.render, .estimate)
FIT_WORDS = (
    "{label} parameters ({name})",
    "{label} parameters",
    "context {context}",
    "batch {batch}",
    "{n_gpus} GPUs",
    "KV cache (16-bit)",
    "KV cache (fp32)",
    "llama.cpp files: {files}",
    "fits",
)
# envdoctor accept's VRAM finding (checks/accept.py): the failing patterns and addresses
ACCEPT_WORDS = (
    "Failing: {patterns} ({addresses}).",
    "Failing: {patterns}.",
    "GPU {index}: {n_mismatches} mismatch(es) in {patterns}",
    "The acceptance load failed in {phase}: {last_line}",
)
# the driver fix without a version (envdoctor.remedies.system: the label is empty) and the GPUs
# no driver is bound to (checks/nvidia_presence.py)
DRIVER_WORDS = (
    "Install NVIDIA driver ({why}) from NVIDIA's download page, then reboot",
    "Install NVIDIA driver ({why}), then reboot",
    "the NVIDIA GPU",
    "{n_gpus} NVIDIA GPUs",
    # envdoctor preflight's gpu verdict (envdoctor.requirements.judge): why none was found
    "no GPU found ({detail})",
)
# where a container's CUDA requirement comes from (checks/container_inside.py, capitalised)
CONTAINER_WORDS = ("This container", "Image {image}")
