"""Precision, round 14 sweep (checks/signatures/{clusters,intel,nccl}.toml): common messages that broad
entries caught although they were not theirs (Slurm submission errors read as 'no GPU requested',
OpenVINO's 'device ... is not registered' read as a JAX plugin mismatch, NCCL's informational
'NET/IB : No device found' read as a too-small /dev/shm). Each message is verbatim from a public
thread whose cause and fix were stated there; it reaches that cause first with a fix naming the
knob; the look-alikes (verbatim too) are not read as the broad cause."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message, the finding id first, a knob its fixes name, the thread)
KNOB = [
    (
        "sbatch: error: Batch script contains DOS line breaks (\\r\\n)\n"
        "sbatch: error: instead of expected UNIX line breaks (\\n).",
        "cluster.batch-script-dos-line-breaks",
        "dos2unix",
        "https://github.com/earthlab/rslurm/issues/84",
    ),
    (
        'kept getting an error message "sbatch: error: Batch job submission failed: Requested '
        'time limit is invalid (missing or exceeds some limit)". Looking into this, I found that '
        'the file "workflow/rules/dada.single.smk" included "runtime="120:00:00"" for several '
        "rules.",
        "cluster.job-time-limit",
        "--time",
        "https://github.com/a-h-b/dadasnake/issues/28",
    ),
    (
        'error : "sbatch: error: Batch job submission failed: Job dependency problem\n'
        "sbatch: error: Batch job submission failed: Requested time limit is invalid (missing or "
        'exceeds some limit)"',
        "cluster.job-time-limit",
        "sinfo -o '%P %l'",
        "https://github.com/aidenlab/juicer/issues/393",
    ),
    (
        "Exception: Job can't be submitted\n"
        "sbatch: error: Batch job submission failed: The requested time limit is invalid (missing "
        "or exceeds some limit)\n"
        "Error submitting jobscript (exit code 1):",
        "cluster.job-time-limit",
        "sinfo -o '%P %l'",
        "https://github.com/metagenome-atlas/atlas/issues/333",
    ),
    (
        "sbatch: error: Batch job submission failed: Time limit specification required, but not "
        "provided",
        "cluster.job-time-limit",
        "--time",
        "https://github.com/marbl/canu/issues/2307",
    ),
    (
        "sbatch: error: Memory specification can not be satisfied\n"
        "sbatch: error: Batch job submission failed: Requested node configuration is not available",
        "cluster.job-memory-limit",
        "--mem",
        "https://github.com/meta-pytorch/torchforge/issues/590",
    ),
    (
        "srun -N 1 hostname shows memory specification cannot be satisfied. unable to allocate "
        "resources",
        "cluster.job-memory-limit",
        "RealMemory",
        "https://github.com/mknoxnv/ubuntu-slurm/issues/9",
    ),
    (
        "RuntimeError: Exception from src/inference/src/cpp/core.cpp:106:\n"
        "Exception from src/inference/src/dev/core_impl.cpp:566:\n"
        'Device with "gpu" name is not registered in the OpenVINO Runtime',
        "intel.openvino-device-not-registered",
        "available_devices",
        "https://github.com/open-edge-platform/anomalib/issues/2119",
    ),
    (
        "when I get to the step of loading a model with the NPU selected. it fails with the error: "
        "Device NPU name is not registered in the OpenVINO Runtime.",
        "intel.openvino-device-not-registered",
        "setupvars",
        "https://github.com/intel/openvino-ai-plugins-gimp/issues/70",
    ),
    (
        "I am trying to use Intel NCS stick2 on my armv7 custom board.I am able to compile "
        "openvino dldt.\n"
        "> [ INFO ] Loading plugin MYRIAD\n"
        "> [ INFO ] Loading plugin CPU\n"
        '> [ ERROR ] Device with "CPU" name is not registered in the InferenceEngine',
        "intel.openvino-device-not-registered",
        "MYRIAD",
        "https://github.com/openvinotoolkit/open_model_zoo/issues/469",
    ),
]

# (a message of another cause, the broad cause it must not be read as, the thread)
LOOKALIKE = [
    # NCCL's informational line: no InfiniBand device, it uses sockets; not a /dev/shm failure
    (
        "10-12-3-162:7990:8056 [0] NCCL INFO NET/IB : No device found.",
        "nccl.shm-too-small",
        "https://github.com/pytorch/pytorch/issues/124380",
    ),
    # OpenVINO has no such device plugin: not JAX's CUDA plugin
    (
        "RuntimeError: Exception from src/inference/src/cpp/core.cpp:106:\n"
        "Exception from src/inference/src/dev/core_impl.cpp:566:\n"
        'Device with "gpu" name is not registered in the OpenVINO Runtime',
        "jax.cuda-plugin-mismatch",
        "https://github.com/open-edge-platform/anomalib/issues/2119",
    ),
    # Slurm refuses the submission's time or line breaks: no GPU request is in question
    (
        "sbatch: error: Batch script contains DOS line breaks (\\r\\n)\n"
        "sbatch: error: instead of expected UNIX line breaks (\\n).",
        "cluster.no-gpu-allocated",
        "https://github.com/earthlab/rslurm/issues/84",
    ),
    (
        "sbatch: error: Batch job submission failed: Time limit specification required, but not "
        "provided",
        "cluster.no-gpu-allocated",
        "https://github.com/marbl/canu/issues/2307",
    ),
]


test_a_common_message_gets_its_cause_and_the_knob = knob_test(KNOB)


test_a_look_alike_message_is_not_read_as_the_broad_cause = lookalike_test(LOOKALIKE)
