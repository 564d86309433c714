"""Jetson, aarch64 and HPC-cluster messages (checks/signatures/{clusters,python_env,jetson}.toml): each common
message of Open MPI launches, Slurm job limits, environment modules, the aarch64 static TLS block,
Jetson wheels and TensorRT's Jetson Python binding reaches the cause its real thread confirmed,
first, with a fix naming the knob that fix turned (a flag, a variable, a shebang, a command)."""

from __future__ import annotations

import pytest

from tests.triage_lines import assert_first_with_command, assert_not_first, command_test

# (message verbatim from the thread, the finding id first, a command one of its fixes gives, thread)
KNOB = [
    (
        'There are not enough slots available in the system to satisfy the 200\nslots that were requested by the application:\n\n  ./example\n\nEither request fewer slots for your application, or make more slots\navailable for use.\n\nA "slot" is the Open MPI term for an allocatable unit where we can\nlaunch a process.  The number of slots available are defined by the\nenvironment in which Open MPI processes are run:\n\n  1. Hostfile, via "slots=N" clauses (N defaults to number of\n     processor cores if not provided)\n  2. The --host command line parameter, via a ":N" suffix on the\n     hostname (N defaults to 1 if not provided)\n  3. Resource manager (e.g., SLURM, PBS/Torque, LSF, etc.)\n  4. If none of a hostfile, the --host command line parameter, or an\n     RM is present, Open MPI defaults to the number of processor cores\n\nIn all the above cases, if you want Open MPI to default to the number\nof hardware threads instead of the number of processor cores, use the\n--use-hwthread-cpus option.\n\nAlternatively, you can use the --oversubscribe option to ignore the\nnumber of available slots when deciding the number of processes to\nlaunch.',
        "mpi.not-enough-slots",
        "--oversubscribe",
        "https://github.com/open-mpi/ompi/issues/8955",
    ),
    (
        "mpirun has detected an attempt to run as root. Running at root is *strongly* discouraged as any mistake (e.g., in defining TMPDIR) or bug can result in catastrophic damage to the OS file system, leaving your system in an unusable state. You can override this protection by adding the --allow-run-as-root option to your cmd line. However, we reiterate our strong advice against doing so - please do so at your own risk.",
        "mpi.run-as-root",
        "--allow-run-as-root",
        "https://github.com/FedML-AI/FedML/issues/601",
    ),
    (
        "OSError: /root/miniforge3/envs/tensorflow/lib/python3.8/site-packages/torch/lib/libgomp-d22c30c5.so.1: cannot allocate memory in static TLS block",
        "python.static-tls-exhausted",
        "LD_PRELOAD",
        "https://github.com/AmpereComputingAI/ampere_model_library/pull/161",
    ),
    (
        "slurmstepd: error: Detected 12 oom-kill event(s) in StepId=16198179.batch. Some of your processes may have been killed by the cgroup out-of-memory handler.",
        "cluster.job-memory-limit",
        "--mem",
        "https://github.com/nathanweeks/exonerate/issues/31",
    ),
    (
        "slurmstepd: error: *** JOB 13055114 ON compute-h-17-51 CANCELLED AT 2020-07-11T22:48:26 DUE TO TIME LIMIT ***",
        "cluster.job-time-limit",
        "--time",
        "https://github.com/labsyspharm/mcmicro/issues/163",
    ),
    (
        "got error:`/var/spool/slurmd/job00156/slurm_script: line 4: ml: command not found`",
        "cluster.module-command-missing",
        "#!/bin/bash -l",
        "https://github.com/envmodules/modules/issues/339",
    ),
    (
        "/scratch/arash/HCP/Pipelines-3.4.0/FreeSurfer/FreeSurferPipeline.sh: line 4: module: command not found",
        "cluster.module-command-missing",
        "#!/bin/bash -l",
        "https://github.com/TIGRLab/admin/issues/348",
    ),
    (
        "The library attempted to open the following supporting CUDA libraries,\nbut each of them failed. CUDA-aware support is disabled.\nlibcuda.so.1: cannot open shared object file: No such file or directory\nlibcuda.dylib: cannot open shared object file: No such file or directory\n/usr/lib64/libcuda.so.1: cannot open shared object file: No such file or directory\n/usr/lib64/libcuda.dylib: cannot open shared object file: No such file or directory\nIf you are not interested in CUDA-aware support, then run with\n--mca mpi_cuda_support 0 to suppress this message.",
        "mpi.cuda-aware-disabled",
        "mpi_cuda_support",
        "https://github.com/open-mpi/ompi/issues/6896",
    ),
    (
        "nvidia@tegra-ubuntu:~/tensorflow$ pip install /tmp/tensorflow_pkg/tensorflow-1.6.0rc0-cp27-cp27mu-linux_aarch64.whl \ntensorflow-1.6.0rc0-cp27-cp27mu-linux_aarch64.whl is not a supported wheel on this platform.\nnvidia@tegra-ubuntu:~/tensorflow$ arch\naarch64",
        "jetson.pypi-wheel",
        "python3 -m pip --version",
        "https://github.com/jetsonhacks/installTensorFlowJetsonTX/issues/9",
    ),
    (
        "I'm trying to install `torch-tensorrt` on a Jetson AGX Xavier. When I try to import `torch_tensorrt` it throws an error, saying it can't find a module named `tensorrt`. Where I can find this package?\n\nI'm using a Jetson AGX Xavier with Jetpack 5.0.1.",
        "jetson.tensorrt-system-python-only",
        "--system-site-packages",
        "https://github.com/pytorch/TensorRT/issues/1233",
    ),
    (
        "ModuleNotFoundError: No module named 'tensorrt'\nDoes anyone run trtpose successfully in nano's CONDA environment.",
        "jetson.tensorrt-system-python-only",
        "--system-site-packages",
        "https://github.com/NVIDIA-AI-IOT/trt_pose/issues/93",
    ),
    (
        "        $ sinteractive -t 1:00:00 --gres=gpu:teslap100:1\n        sbatch: error: Batch job submission failed: Requested node configuration is not available",
        "cluster.no-gpu-allocated",
        "-p <gpu partition>",
        "https://github.com/AaltoSciComp/scicomp-docs/issues/26",
    ),
    (
        'Observed Behavior: "sbatch: error: Batch job submission failed: Requested node configuration is not available"\n#SBATCH -p debug\n#SBATCH -N 1\n#SBATCH -n 56',
        "cluster.no-gpu-allocated",
        "sinfo",
        "https://github.com/ArjunaCluster/ArjunaUsers/issues/112",
    ),
    (
        'However I get the following error:\n"sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified"',
        "cluster.invalid-account",
        "sacctmgr",
        "https://github.com/ArjunaCluster/ArjunaUsers/issues/47",
    ),
    (
        'When I try submit a job on the k80 partition on hemera I get following error: "sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified".',
        "cluster.invalid-account",
        "--account",
        "https://github.com/ComputationalRadiationPhysics/picongpu/issues/2931",
    ),
]


test_a_cluster_or_jetson_message_gets_its_cause_and_the_knob = command_test(
    KNOB, ids=[k[3] for k in KNOB]
)


def test_the_knob_the_message_names_is_in_the_fix() -> None:
    slots = assert_first_with_command(KNOB[0][0], KNOB[0][1], "-np 200", KNOB[0][3])
    assert "200" in slots.title
    tls = assert_first_with_command(
        KNOB[2][0], KNOB[2][1], "LD_PRELOAD=/root/miniforge3/envs/tensorflow", KNOB[2][3]
    )
    assert "libgomp-d22c30c5.so.1" in tls.title


@pytest.mark.parametrize(
    ("text", "not_id"),
    [
        # TensorRT missing on an x86 server with a P100 is not the Jetson system-Python cause
        # (https://github.com/NVIDIA-AI-IOT/torch2trt/issues/414)
        (
            'File "/opt/conda/lib/python3.7/site-packages/torch2trt-0.1.0-py3.7.egg/torch2trt/torch2trt.py", '
            "line 2, in <module>\nModuleNotFoundError: No module named 'tensorrt'",
            "jetson.tensorrt-system-python-only",
        ),
        # a ComfyUI node's missing TensorRT bindings module on a desktop GPU
        # (https://github.com/yuvraj108c/ComfyUI-Upscaler-Tensorrt/issues/33)
        (
            "Cannot import /home/k/comfy/custom_nodes/ComfyUI-Upscaler-Tensorrt module for custom nodes: "
            "No module named 'tensorrt_bindings'",
            "jetson.tensorrt-system-python-only",
        ),
        # a step cancelled after another task's bus error is neither the time limit nor the memory
        # limit (https://github.com/hafs-community/HAFS/issues/101)
        (
            "srun: error: Orion-18-69: task 289: Bus error\nsrun: Terminating job step 3495450.0\n"
            "slurmstepd: error: *** STEP 3495450.0 ON orion-01-04 CANCELLED AT 2021-10-27T20:22:22 ***",
            "cluster.job-time-limit",
        ),
        (
            "srun: error: Orion-18-69: task 289: Bus error\nsrun: Terminating job step 3495450.0\n"
            "slurmstepd: error: *** STEP 3495450.0 ON orion-01-04 CANCELLED AT 2021-10-27T20:22:22 ***",
            "cluster.job-memory-limit",
        ),
        # a driver older than the CUDA Open MPI was built with is not a node without the driver
        # (https://github.com/open-mpi/ompi/issues/9690)
        (
            "An error occurred while trying to map in the address of a function.\n"
            "  Function Name: cuIpcOpenMemHandle_v2\n"
            "  Error string:  /lib/x86_64-linux-gnu/libcuda.so.1: undefined symbol: cuIpcOpenMemHandle_v2\n"
            "CUDA-aware support is disabled.",
            "mpi.cuda-aware-disabled",
        ),
        # nvidia-smi missing is the driver's utilities, not environment modules
        ("bash: nvidia-smi: command not found", "cluster.module-command-missing"),
    ],
)
def test_a_look_alike_is_not_taken_for_these_causes(text, not_id) -> None:
    assert_not_first(text + "\n", not_id, None, may_be_empty=True)
