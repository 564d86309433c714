"""stable-diffusion-webui on a GPU with little memory: the VRAM flags its own docs give for it."""

from __future__ import annotations

from envdoctor.checks import apps_facts as af
from envdoctor.checks.apps_gpu import webui_args_line, webui_file
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.queries import apps as aq

VRAM_FLAGS = ("--medvram", "--lowvram", "--medvram-sdxl")


@check("app.webui.low-vram-flags", needs=("apps.detected", "nvidia.gpus"), matrices=("apps",))
def webui_low_vram(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """stable-diffusion-webui is installed or asked about, the GPU has 4 GB of memory or less, and
    COMMANDLINE_ARGS (webui-user.sh / webui-user.bat) carries none of --medvram / --lowvram.

    The web UI's troubleshooting page: "When running on video cards with a low amount of VRAM
    (<=4GB), out of memory errors may arise": use --medvram for 512x512 images, --lowvram for
    larger ones (slower). The fix is the COMMANDLINE_ARGS line to put in webui-user.sh, keeping the
    arguments it has.
    """
    if not af.present(snap, "webui"):
        return None
    gpus = [
        g for g in af.nvidia_gpus(snap, ms) if isinstance(g.get("memory_total_mib"), (int, float))
    ]
    if not gpus:
        return None
    smallest = min(gpus, key=lambda g: g["memory_total_mib"])
    flags = aq.vram_flags(ms, "webui", smallest["memory_total_mib"])
    if not flags:
        return None
    entries = af.entries(snap, "webui") or [{}]
    entry = entries[0]
    args = [str(a) for a in entry.get("launch_args") or []]
    if any(a in VRAM_FLAGS for a in args):
        return None
    fixes = tuple(
        Fix(
            f"Add {row['flag']} ({'first choice' if i == 0 else 'if out of memory remains, slower'}): "
            f"put this line in {webui_file(entry)}",
            (webui_args_line(entry, [row["flag"]]),),
            Risk.SAFE,
            row.get("source"),
        )
        for i, row in enumerate(flags)
    )
    vram = f"{smallest['memory_total_mib'] / 1024:.1f} GiB"
    current = entry.get("launch_line") or "COMMANDLINE_ARGS not set"
    return Finding(
        id="app.webui.low-vram-flags",
        severity=Severity.WARNING,
        title=f"The web UI on a {vram} GPU ({smallest['name']}) without --medvram or --lowvram",
        detail=(
            f"{smallest['name']} has {vram}; the web UI's docs say cards with 4 GB or less run out of memory "
            "without --medvram (or --lowvram for larger images)."
        ),
        evidence=(
            Evidence(
                "nvidia.gpus.memory_total_mib",
                str(smallest["memory_total_mib"]),
                f"<= {flags[0].get('max_vram_mib')} needs a VRAM flag",
            ),
            Evidence("webui COMMANDLINE_ARGS", current, "--medvram or --lowvram"),
        ),
        fixes=fixes,
    )


CHECKS = [webui_low_vram]
