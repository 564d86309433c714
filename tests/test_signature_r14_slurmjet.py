"""Round 14 sweep, Slurm clusters and Jetson (checks/signatures/{clusters,containers,jetson}.toml): the frequent
messages of job submission (partition, QOS limits, node count, CPUs beyond the allocation, GRES
requests), of MPI launched by srun without the PMI it needs, of Apptainer's --nv on a node without
the NVIDIA driver, and of jtop's service on a Jetson. Each message is verbatim from the thread its
row cites; each reaches its cause first with a fix naming the knob the confirmed fix turned."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message, the finding id first, a knob its fixes name, the thread)
KNOB = [
    # Slurm: a partition name the cluster does not have (the reporter took the name sinfo -s gave)
    (
        "sbatch: error: invalid partition specified: gpu-v100-32GB \n"
        "sbatch: error: Batch job submission failed: Invalid partition name specified",
        "cluster.invalid-partition",
        "sinfo -s",
        "https://github.com/AaltoSciComp/scicomp-docs/pull/792",
    ),
    (
        "Command output:\n"
        "  sbatch: error: invalid partition specified: pibu_el8\n"
        "  sbatch: error: Batch job submission failed: Invalid partition name specified",
        "cluster.invalid-partition",
        "#SBATCH --partition=<partition>",
        "https://github.com/nf-core/fetchngs/issues/343",
    ),
    # Slurm: the QOS's limits (jobs per user, wall time) refuse the job
    (
        "sbatch: error: Batch job submission failed: Job violates accounting/QOS policy (job "
        "submit limit, user's size and/or time limits)",
        "cluster.qos-limit",
        "sacctmgr show qos",
        "https://github.com/jade-hpc-gpu/jade-hpc-gpu.github.io/issues/78",
    ),
    (
        "$ salloc -N1\n"
        "salloc: error: QOSMaxSubmitJobPerUserLimit\n"
        "salloc: error: Job submit/allocate failed: Job violates accounting/QOS policy (job submit "
        "limit, user's size and/or time limits)",
        "cluster.qos-limit",
        "squeue -u $USER",
        "https://github.com/szcf-weiya/techNotes/issues/7",
    ),
    (
        "sbatch: error: qosmaxwalldurationperjoblimit\n"
        "sbatch: error: batch job submission failed: job violates accounting/qos policy (job "
        "submit limit, user's size and/or time limits)",
        "cluster.qos-limit",
        "--time",
        "https://github.com/BSC-ES/autosubmit/issues/2854",
    ),
    # Slurm: more nodes than the partition allows (the maintainer's reading; a larger partition ran)
    (
        "The error message `Batch job submission failed: Node count specification invalid` is "
        "issued by the SLURM job manager",
        "cluster.node-count-invalid",
        "sinfo -o '%P %D %s'",
        "https://github.com/firemodels/fds/issues/8639",
    ),
    # Slurm: a step (srun) asks for more CPUs than the job's allocation holds
    (
        "srun: error: Unable to create step for job 65: More processors requested than permitted",
        "cluster.step-exceeds-allocation",
        "--ntasks",
        "https://github.com/PKUHPC/OpenSCOW/issues/1157",
    ),
    (
        "> now I get\n"
        ">   srun: error: Unable to create step for job 238051: More\n"
        ">   processors requested than permitted.\n"
        "> It seems that after the most recent shutdown of crusher a few days\n"
        "> ago, -c 8 no longer works.",
        "cluster.step-exceeds-allocation",
        "--cpus-per-task",
        "https://github.com/BLAST-WarpX/warpx/pull/3601",
    ),
    (
        "*sbatch: error: Batch job submission failed: More processors requested than permitted*",
        "cluster.step-exceeds-allocation",
        "sinfo -o '%P %c %D'",
        "https://github.com/facebookresearch/ELI5/issues/18",
    ),
    # Slurm: no node offers the request (existing cause; removing --ntasks-per-node=8 ran)
    (
        "With `#SBATCH --ntasks-per-node=8`, I get `sbatch: error: Batch job submission failed: "
        "Requested node configuration is not available`.  Removing the line works.",
        "cluster.no-gpu-allocated",
        "sinfo -o '%P %G %N'",
        "https://github.com/BLAST-WarpX/warpx/pull/3601",
    ),
    # Slurm: a GRES request the cluster does not define that way
    (
        "`sbatch: error: Invalid generic resource (gres) specification`",
        "cluster.no-gpu-allocated",
        "GresTypes=gpu",
        "https://github.com/awslabs/awsome-distributed-ai/issues/196",
    ),
    (
        "sbatch: error: Gres format wrong, specify --gres=gpu:TYPE:NUM\n"
        "sbatch: error: Batch job submission failed: Invalid generic resource (gres) specification",
        "cluster.no-gpu-allocated",
        "--gres=gpu:<type>:<n>",
        "https://github.com/radical-cybertools/radical.saga/issues/679",
    ),
    (
        "sbatch: error: No gpu count given, specify --gres=gpu\n"
        "             See https://www.psc.edu/bridges/user-guide\n"
        "sbatch: error: Batch job submission failed: Invalid generic resource (gres) specification",
        "cluster.no-gpu-allocated",
        "--gres=gpu",
        "https://github.com/glotzerlab/signac-flow/issues/59",
    ),
    # MPI started by srun without the PMI library Open MPI / Slurm need (mpiexec ran it)
    (
        "OPAL ERROR: Unreachable in file pmix3x_client.c at line 112\n"
        "--------------------------------------------------------------------------\n"
        'The application appears to have been direct launched using "srun",\n'
        "but OMPI was not built with SLURM's PMI support and therefore cannot\n"
        "execute. There are several options for building PMI support under\n"
        "SLURM, depending upon the SLURM version you are using:",
        "mpi.srun-pmi-unsupported",
        "mpiexec",
        "https://github.com/ComputationalRadiationPhysics/picongpu/pull/4962",
    ),
    (
        '0: The application appears to have been direct launched using "srun",\n'
        "0: but OMPI was not built with SLURM's PMI support and therefore cannot\n"
        "0: execute.",
        "mpi.srun-pmi-unsupported",
        "srun --mpi=list",
        "https://github.com/clusterinthecloud/ansible/issues/24",
    ),
    (
        "+ srun -m plane=30 --mpi=pmix ./gchp\n"
        "srun: error: Couldn't find the specified plugin name for mpi/pmix looking at all files\n"
        "srun: error: cannot find mpi plugin for mpi/pmix\n"
        "srun: error: cannot create mpi context for mpi/pmix\n"
        'srun: error: "--mpi=pmix" -- long invalid MPI type, --mpi=list for acceptable types.',
        "mpi.srun-pmi-unsupported",
        "srun --mpi=list",
        "https://github.com/geoschem/geos-chem/issues/822",
    ),
    # Apptainer / Singularity --nv on a node without the NVIDIA driver (a login node)
    (
        "singularity exec --nv alpine_latest.sif bash -c 'echo \"hey\"'\n"
        "INFO:    Could not find any nv files on this host!\n"
        "WARNING: passwd file doesn't exist in container, not updating\n"
        "WARNING: group file doesn't exist in container, not updating",
        "container.apptainer-nv-no-driver",
        "srun --gres=gpu:1",
        "https://github.com/apptainer/singularity/issues/6356",
    ),
    # Jetson: jtop's service is not running (reinstalling jetson-stats and enabling the unit ran)
    (
        "The jtop.service is not active. Please run:\nsudo systemctl restart jtop.service",
        "jetson.jtop-service-inactive",
        "jetson-stats",
        "https://github.com/rbonghi/jetson_stats/issues/466",
    ),
    (
        "HINT:\nThe jtop.service in not active. Please run:\nsudo systemctl  restart jtop.service.",
        "jetson.jtop-service-inactive",
        "systemctl enable",
        "https://github.com/rbonghi/jetson_stats/issues/626",
    ),
    # covered causes, new threads: a Jetson's numpy 1.19.5 (numpy 1.19.4 ran), a Slurm step's
    # memory cgroup, TensorRT's binding outside JetPack's system Python
    (
        "After successfully installing your application on my Jetson Nano 2GB whenever I attempt "
        "to import the application I get this result: `Illegal instruction (core dumped)`",
        "jetson.numpy-openblas-illegal-instruction",
        "numpy==1.19.4",
        "https://github.com/thehapyone/NanoCamera/issues/7",
    ),
    (
        "slurmstepd: error: Detected 1 oom_kill event in StepId=440575.0. Some of the step tasks "
        "have been OOM Killed.\n"
        "srun: error: nid001277: tasks 1-3: Out Of Memory",
        "cluster.job-memory-limit",
        "--mem",
        "https://github.com/chrisknewman/tusas/issues/149",
    ),
    (
        "    import tensorrt as trt\nModuleNotFoundError: No module named 'tensorrt'\n\njetson NX",
        "jetson.tensorrt-system-python-only",
        "--system-site-packages",
        "https://github.com/cong/yolov5_deepsort_tensorrt/issues/1",
    ),
]


test_a_frequent_message_gets_its_cause_and_the_knob = knob_test(KNOB, ids=[k[3] for k in KNOB])


# Real messages of other causes that a new pattern could catch: the tempting cause is not first.
LOOKALIKE = [
    # the account (or account and partition) is refused: cluster.invalid-account
    (
        "sbatch: error: Batch job submission failed: Invalid account or account/partition "
        "combination specified",
        "cluster.invalid-partition",
        "https://github.com/ArjunaCluster/ArjunaUsers/issues/17",
    ),
    # a step's memory, not its CPUs
    (
        "srun: Job 29986033 step creation temporarily disabled, retrying (Requested nodes are busy)\n"
        "srun: Job 29986033 step creation still disabled, retrying (Requested nodes are busy)\n"
        "srun: error: Unable to create step for job 29986033: Memory required by task is not "
        "available",
        "cluster.step-exceeds-allocation",
        "https://github.com/eth-cscs/DLA-Future/issues/337",
    ),
    # on a Jetson the driver is there: Apptainer's nvliblist does not name the Tegra libraries
    (
        "jdong@jdong-desktop:~/development/install_singularity$ singularity exec --nv "
        "l4t-pytorch_r32.5.0-pth1.7-py3.sif bash\n"
        "INFO:    Could not find any nv files on this host!",
        "container.apptainer-nv-no-driver",
        "https://github.com/apptainer/singularity/issues/5837",
    ),
]


test_a_look_alike_message_is_not_read_as_the_cause = lookalike_test(
    LOOKALIKE, ids=[k[2] for k in LOOKALIKE], may_be_empty=True, newline=True
)


def test_the_title_and_the_first_fix_carry_what_the_message_names() -> None:
    from envdoctor.triage_engine import triage_text

    partition = triage_text(KNOB[0][0] + "\n").findings[0]
    assert (
        partition.title
        == "Slurm refuses the job: no partition gpu-v100-32GB exists on this cluster"
    )
    qos = triage_text(KNOB[3][0] + "\n").findings[0]
    assert "(QOSMaxSubmitJobPerUserLimit)" in qos.title
    walltime = triage_text(KNOB[4][0] + "\n").findings[0]
    assert "--time" in walltime.fixes[0].summary
