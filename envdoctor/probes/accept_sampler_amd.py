"""rocm-smi readings for `envdoctor accept` on AMD GPUs: the counterpart of the NVML sampler.

Each reading runs `rocm-smi --showtemp --showpower --showmaxpower --showclocks --showuse
--showmemuse --showbus --showproductname --showmeminfo vram --json` once for all cards (no shell,
a timeout, its process group killed on expiry) and reads it with `ingest.rocm_smi_metrics` and
`ingest.rocm_smi`. What rocm-smi does not say is None, so the judges that need it stay silent:
it gives no clock-event reasons (no thermal or power throttling verdict), no default power limit
beside the cap, and the PCIe level it prints is the power-management level of the card's own
bridge, not what the slot trained to (no link verdict). Temperature, power, clocks, use and the
load's own results (correctness, VRAM patterns, bandwidth) are kept and judged as on NVIDIA.

GPU indices are rocm-smi's card order, which is the order HIP numbers the devices in when no
*_VISIBLE_DEVICES variable reorders them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envdoctor.ingest import rocm_smi, rocm_smi_metrics
from envdoctor.probes.context import ProbeContext, run_command

TOOL = "rocm-smi"
ARGS = (
    "--showtemp",
    "--showpower",
    "--showmaxpower",
    "--showclocks",
    "--showuse",
    "--showmemuse",
    "--showbus",
    "--showproductname",
    "--showmeminfo",
    "vram",
    "--json",
)
TIMEOUT_S = 10.0


class RocmSmi:
    """The AMD sampling backend: the same calls as the NVML one (`accept_sampler`)."""

    name = "rocm-smi"

    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = dict(env)
        self.path = ProbeContext(env=self.env).which(TOOL)
        self._cards: dict[int, dict[str, Any]] = {}
        self._order: list[int] = []  # card number of each index
        self._described: list[dict[str, Any]] = []  # identity per index (rocm_smi.parse)

    def init(self) -> str | None:
        """Read the cards once; the reason in one line when rocm-smi cannot."""
        if self.path is None:
            return "rocm-smi is not installed"
        text, error = self._run()
        if error is not None:
            return error
        self._cards = rocm_smi_metrics.cards(text)
        self._order = list(self._cards)
        self._described = rocm_smi.parse(text).get("gpus", [])
        return None if self._cards else "rocm-smi lists no GPU"

    def device_count(self) -> int:
        return len(self._order)

    def describe(self, indices: list[int]) -> list[dict[str, Any]]:
        """Each GPU's identity and the limits rocm-smi knows (the power cap)."""
        out = []
        for index in indices:
            fields = self._cards.get(self._order[index], {})
            record = self._described[index] if index < len(self._described) else {}
            out.append(
                {
                    "index": index,
                    "vendor": "amd",
                    "name": record.get("name"),
                    "uuid": None,
                    "serial": record.get("unique_id"),
                    "memory_total_mib": record.get("vram_mib"),
                    "power_default_limit_w": None,
                    "power_enforced_limit_w": rocm_smi_metrics.power_cap_w(fields),
                    "sm_clock_max_mhz": None,
                    "mem_clock_max_mhz": None,
                    "pcie_gen_max": None,
                    "pcie_width_max": None,
                    "pcie_gen_gpu_max": None,
                    "slowdown_temp_c": None,
                    "shutdown_temp_c": None,
                    "pci_bus_id": rocm_smi_metrics.pci_address(fields),
                }
            )
        return out

    def read(self, indices: list[int]) -> list[dict[str, Any]]:
        """One reading of each GPU (one rocm-smi run); an error entry per GPU when it fails."""
        text, error = self._run()
        cards = rocm_smi_metrics.cards(text) if error is None else {}
        out = []
        for index in indices:
            card = self._order[index] if index < len(self._order) else None
            if card is None or card not in cards:
                out.append({"index": index, "error": error or f"rocm-smi lost card {card}"})
                continue
            out.append({"index": index, **rocm_smi_metrics.reading(cards[card])})
        return out

    def shutdown(self) -> None:
        """Nothing stays open between runs of rocm-smi."""

    def _run(self) -> tuple[str, str | None]:
        result = run_command([str(self.path), *ARGS], TIMEOUT_S, self.env)
        if not result.ok:
            return "", result.describe_failure()
        return result.stdout, None
