"""Round 18 sweep of Kubernetes / Slurm GPU scheduling and the DCGM exporter
(checks/signatures/{clusters,kubernetes}.toml): each message, verbatim from its thread, reaches the cause the
thread confirmed first, and one of that cause's fixes names the knob the confirmed fix turned;
look-alike messages of other causes do not rank the new entries first."""

from __future__ import annotations

import pytest
from triage_lines import assert_first_naming, assert_not_first

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # the maintainer: before dcgm-exporter 2.1.2 the profiling metrics were loaded by default and
        # they exist only on data-center GPUs; 2.1.2 skips the metrics a GPU does not support
        "https://github.com/NVIDIA/gpu-monitoring-tools/issues/141",
        'time="2020-12-15T11:28:40Z" level=info msg="Starting dcgm-exporter"\n'
        'time="2020-12-15T11:28:40Z" level=info msg="DCGM successfully initialized!"\n'
        'time="2020-12-15T11:28:40Z" level=fatal msg="Error watching fields: This request is servic'
        'ed by a module of DCGM that is not currently loaded"',
        "dcgm.profiling-unsupported-gpu",
        "2.1.2",
    ),
    (
        # a P100: the maintainer says the DCP metrics (field ids above 1000) need a newer architecture,
        # Pascal is not supported (the reporter thanked)
        "https://github.com/NVIDIA/DCGM/issues/47",
        "Error setting watches. Result: -33: This request is serviced by a module of DCGM that is n"
        "ot currently loaded",
        "dcgm.profiling-unsupported-gpu",
        "Pascal",
    ),
    (
        # a Tesla P4 (Pascal): the host engine's log names the architectures DCP metrics need
        "https://github.com/NVIDIA/dcgm-exporter/issues/303",
        "2024-04-05 15:32:02.811 ERROR [1:1] [[Profiling]] DCP metrics are supported for Volta, Tur"
        "ing or Ampere GPUs architectures only [/workspaces/dcgm-rel_dcgm_3_3-postmerge/dcg",
        "dcgm.profiling-unsupported-gpu",
        "Volta",
    ),
    (
        # the reporter traced it to the missing datacenter-gpu-manager-4-proprietary package; the merged
        # fix (PR #456) installs it in the image
        "https://github.com/NVIDIA/dcgm-exporter/issues/449",
        "Not collecting DCP metrics: This request is serviced by a module of DCGM that is not curre"
        "ntly loaded\n"
        "Skipping line 20 ('DCGM_FI_PROF_GR_ENGINE_ACTIVE'): metric not enabled\n"
        "Skipping line 21 ('DCGM_FI_PROF_PIPE_TENSOR_ACTIVE'): metric not enabled\n"
        "Skipping line 22 ('DCGM_FI_PROF_DRAM_ACTIVE'): metric not enabled\n"
        "Skipping line 23 ('DCGM_FI_PROF_PCIE_TX_BYTES'): metric not enabled\n"
        "Skipping line 24 ('DCGM_FI_PROF_PCIE_RX_BYTES'): metric not enabled\n"
        "\n"
        "### What did you expect to happen?\n"
        "\n"
        "DCP metrics are collected as before\n"
        "\n"
        "### What is the GPU model?\n"
        "\n"
        "A100\n"
        "\n"
        "### What is the environment?\n"
        "\n"
        "K8S\n"
        "\n"
        "### How did you deploy the dcgm-exporter and what is the configuration?\n"
        "\n"
        "GPU Operator\n"
        "\n"
        "### Anything else we need to know?\n"
        "\n"
        "Failed to load module 8 - dlopen(libdcgmmoduleprofiling.so.4) returned: libdcgmmoduleprof"
        "iling.so.4: cannot open shared object file: No such file or directory [/builds/dcgm/dcgm/"
        "dcgmlib/\n"
        "src/DcgmHostEngineHandler.cpp:1866] [DcgmHostEngineHandler::LoadModule] dcgm_level=ERROR",
        "dcgm.profiling-module-missing",
        "datacenter-gpu-manager-4-proprietary",
    ),
    (
        # a commenter solved it by making nvidia Docker's default runtime ("default-runtime" in
        # /etc/docker/daemon.json) on the node
        "https://github.com/NVIDIA/gpu-monitoring-tools/issues/96",
        "However, when I'm deploying the `kubectl create -f https://raw.githubusercontent.com/NVID"
        "IA/gpu-monitoring-tools/2.0.0-rc.12/dcgm-exporter.yaml`  the `dcgm-exporter` pod is in `Cr"
        "ashLoopBackOff` with the following error:\n"
        "```\n"
        'time="2020-07-21T18:49:33Z" level=info msg="Starting dcgm-exporter"\n'
        "Error: Failed to initialize NVML\n"
        'time="2020-07-21T18:49:33Z" level=fatal msg="Error starting nv-hostengine: DCGM initializa'
        'tion error"\n'
        "```",
        "k8s.runtimeclass-not-set",
        "default-runtime",
    ),
    (
        # the kubelet keeps its pod-resources under /opt/kubelet; bind-mounting that directory at
        # /var/lib/kubelet/pod-resources made the pods and namespaces show up (a commenter)
        "https://github.com/NVIDIA/dcgm-exporter/issues/363",
        'time="2024-08-02T12:45:40Z" level=error msg="Failed to collect metrics; err: failed to tra'
        "nsform metrics for transform 'podMapper'; err: failure connecting to '/var/lib/kubelet/pod"
        "-resources/kubelet.sock'; err: context deadline exceeded\"",
        "k8s.kubelet-pod-resources-path",
        "pod-resources",
    ),
    (
        # the srun ran inside a job on a GPU node (a step of that job); the commenters worked around it
        # by submitting from a login node
        "https://github.com/mehta-lab/waveorder/issues/201",
        "When submitting jobs on a GPU node, the generated batch job requests GRES that is not valid"
        ":\n"
        "\n"
        "```\n"
        "srun: error: Unable to create step for job 16413634: Invalid generic resource (gres) speci"
        "fication\n"
        "```",
        "cluster.step-exceeds-allocation",
        "login node",
    ),
]


@pytest.mark.parametrize(("url", "text", "finding_id", "knob"), KNOB, ids=[row[0] for row in KNOB])
def test_message_reaches_confirmed_cause_with_its_knob(url, text, finding_id, knob):
    assert_first_naming(text, finding_id, knob, url)


# (thread, a real message of another cause, the new entry's cause it must not rank first)
LOOKALIKE = [
    (
        # the exporter's pod without the NVIDIA runtime (no NVML at all): not the profiling module
        "https://github.com/NVIDIA/gpu-monitoring-tools/issues/96",
        'time="2020-07-21T18:49:33Z" level=info msg="Starting dcgm-exporter"\n'
        "Error: Failed to initialize NVML\n"
        'time="2020-07-21T18:49:33Z" level=fatal msg="Error starting nv-hostengine: DCGM initializa'
        'tion error"',
        "dcgm.profiling-unsupported-gpu",
    ),
    (
        # the profiling library is missing from the install: not a GPU without DCP metrics
        "https://github.com/NVIDIA/dcgm-exporter/issues/449",
        "Failed to load module 8 - dlopen(libdcgmmoduleprofiling.so.4) returned: libdcgmmoduleprof"
        "iling.so.4: cannot open shared object file: No such file or directory",
        "dcgm.profiling-unsupported-gpu",
    ),
    (
        # the device plugin on a node whose runtime does not inject the GPU: not the exporter's
        # pod-resources socket
        "https://github.com/NVIDIA/k8s-device-plugin/issues/1220",
        "E0506 17:45:45.421956       1 factory.go:112] Incompatible strategy detected auto\n"
        "E0506 17:45:45.421965       1 factory.go:113] If this is a GPU node, did you configure th"
        "e NVIDIA Container Toolkit?",
        "k8s.kubelet-pod-resources-path",
    ),
    (
        # a batch submission (not a step inside a job) the cluster refuses: not a step of a job
        "https://github.com/NVIDIA/NeMo-Framework-Launcher/issues/72",
        "OSError: sbatch: error: Batch job submission failed: Invalid generic resource (gres) spec"
        "ification",
        "cluster.step-exceeds-allocation",
    ),
]


@pytest.mark.parametrize(("url", "text", "tempting"), LOOKALIKE, ids=[row[0] for row in LOOKALIKE])
def test_lookalike_does_not_rank_new_cause_first(url, text, tempting):
    assert_not_first(text, tempting, url)
