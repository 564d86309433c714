"""Round 16 sweep, Slurm and HPC clusters (checks/signatures/{clusters,containers}.toml): the frequent messages
of GPU requests (--gres / --gpus, SelectType), job scripts whose CPU count no node offers, sbatch /
srun options that exclude each other, job steps that wait for resources their sibling steps hold,
Slurm commands on a machine that is not a Slurm cluster, Lmod's module hierarchy, PMIx's
shared-memory datastore, Apptainer / Singularity without --nv, and Lightning's one-task-per-GPU
rule. Each message is verbatim from the thread its row cites; each reaches its cause first with a
fix naming the knob the confirmed fix turned. The look-alike rows are real messages of other
causes that a new pattern could catch."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message, the finding id first, a knob its fixes name, the thread)
KNOB = [
    # PMIx's ds12 datastore lock error under Open MPI 4.0.x: the maintainer's workaround
    (
        "PMIX ERROR: ERROR in file gds_ds12_lock_pthread.c at line 206",
        "mpi.pmix-gds-lock-error",
        "PMIX_MCA_gds=hash",
        "https://github.com/open-mpi/ompi/issues/7516",
    ),
    # Slurm: a CPU request no node offers (--cpus-per-gpu without a GPU request; --cpus-per-task ran)
    (
        "The slurm script that is generated using the command: `itwinai generate-slurm -nj` has "
        "`--cpus-per-gpu = 4` which gives the error: `sbatch: error: Batch job submission failed: "
        "Requested node configuration is not available`. However, on changing `--cpus-per-gpu=4` "
        "to `--cpus-per-task=4`, the script runs successfully on running the command: `sbatch "
        "slurm_scripts/ddp-1x4.sh`",
        "cluster.no-gpu-allocated",
        "--cpus-per-task",
        "https://github.com/interTwin-eu/itwinai/issues/415",
    ),
    # Slurm: --gpus needs select/cons_tres; the cluster takes --gres (the maintainer added gres)
    (
        "SLURM sbatch failed. The error message was 'sbatch: error: Requested GRES option "
        "unsupported by configured SelectType plugin'",
        "cluster.no-gpu-allocated",
        "--gres",
        "https://github.com/harvardinformatics/cactus-snakemake/issues/17",
    ),
    (
        "vagrant@virtual-login01:~$ srun --gpus 2 -n2 hostname\n"
        "srun: error: Unable to allocate resources: Requested GRES option unsupported by "
        "configured SelectType plugin",
        "cluster.no-gpu-allocated",
        "--gres",
        "https://github.com/NVIDIA/deepops/pull/485",
    ),
    (
        "sbatch: unrecognized option '--gpus=4'",
        "cluster.no-gpu-allocated",
        "--gres",
        "https://github.com/radical-cybertools/radical.saga/issues/813",
    ),
    # Slurm: a job step without a GPU request sees no GPU (-G1 / --gpus gave it one)
    (
        "vagrant@virtual-login101:~$ srun -N1 nvidia-smi\n"
        "No devices were found\n"
        "srun: error: virtual-gpu101: task 0: Exited with exit code 6",
        "cluster.no-gpu-allocated",
        "--gpus",
        "https://github.com/NVIDIA/deepops/pull/1157",
    ),
    # Lightning under Slurm: one Slurm task per GPU (--ntasks-per-node = devices)
    (
        "UserWarning: \n"
        "You requested 2 GPUs but launched 1 slurm tasks.\n"
        "We will launch 2 processes for you.\n"
        "We recommend you let slurm manage the processes by setting: --ntasks-per-node=2\n"
        "If you're not using SLURM, ignore this message!",
        "cluster.launch-not-via-srun",
        "--ntasks-per-node",
        "https://github.com/Lightning-AI/pytorch-lightning/issues/102",
    ),
    (
        "> You are not setting the number of nodes in slurm. It assumes 1 by default. The number "
        "of nodes and ntasks per node settins in slurm must match the num_nodes and gpus in the "
        "Trainer.",
        "cluster.launch-not-via-srun",
        "--ntasks-per-node",
        "https://github.com/Lightning-AI/pytorch-lightning/issues/10098",
    ),
    # Lmod: a module of another branch of the hierarchy (load its compiler first)
    (
        "[ndellin@sogpu01 ~]$ module purge\n"
        "[ndellin@sogpu01 ~]$ module load sems-cuda/11.1.0\n"
        "```\n"
        "results in error\n"
        "```\n"
        "Lmod has detected the following error:  These module(s) or extension(s) exist but "
        'cannot be loaded as requested: "sems-cuda/11.1.0"\n'
        '   Try: "module spider sems-cuda/11.1.0" to see how to load the module(s).',
        "cluster.module-needs-prerequisite",
        "module spider sems-cuda/11.1.0",
        "https://github.com/kokkos/kokkos-kernels/pull/1508",
    ),
    # Slurm: steps that wait for the resources the job's other steps hold (--overlap ran)
    (
        "29: srun: Job 9479148 step creation still disabled, retrying (Requested nodes are busy)\n"
        "26: srun: Job 9479148 step creation still disabled, retrying (Requested nodes are busy)\n"
        "51: srun: Job 9479148 step creation still disabled, retrying (Requested nodes are busy)\n"
        "50: srun: Job 9479148 step creation still disabled, retrying (Requested nodes are busy)\n"
        "43: srun: Job 9479148 step creation still disabled, retrying (Requested nodes are busy)\n"
        "49: srun: Job 9479148 step creation still disabled, retrying (Requested nodes are busy)\n"
        "52: srun: Job 9479148 step creation still disabled, retrying (Requested nodes are busy)\n"
        "53: srun: Job 9479148 step creation temporarily disabled, retrying (Requested nodes are "
        "busy)",
        "cluster.step-waits-for-resources",
        "--overlap",
        "https://github.com/llnl/smith/issues/688",
    ),
    # Apptainer / Singularity without --nv (or with --nv after the image name)
    (
        'Singularity Built From NGC Base Yields "unable to find libcuda.so.1"',
        "container.no-gpus-injected",
        "--nv",
        "https://github.com/apptainer/singularity/issues/5935",
    ),
    (
        "Singularity-2.4 loaded\n/.singularity.d/actions/exec: 9: exec: --nv: not found",
        "container.no-gpus-injected",
        "before the image",
        "https://github.com/jade-hpc-gpu/jade-hpc-gpu.github.io/issues/82",
    ),
    # srun / sbatch on a machine that is no Slurm cluster (the maintainers: drop the srun wrapper)
    (
        "./scripts/expert_construction/split/run_split_random.sh: 行 18: srun: 未找到命令",
        "cluster.slurm-not-available",
        "without srun",
        "https://github.com/pjlab-sys4nlp/llama-moe/issues/54",
    ),
    (
        "apt-get install slurm-client\n"
        "srun: error: resolve_ctls_from_dns_srv: res_nsearch error: Unknown host\n"
        "srun: error: fetch_config: DNS SRV lookup failed\n"
        "srun: error: _establish_config_source: failed to fetch config\n"
        "srun: fatal: Could not establish a configuration source",
        "cluster.slurm-not-available",
        "without srun",
        "https://github.com/pjlab-sys4nlp/llama-moe/issues/54",
    ),
    (
        "sbatch: error: resolve_ctls_from_dns_srv: res_nsearch error: Unknown host\n"
        "sbatch: error: fetch_config: DNS SRV lookup failed\n"
        "sbatch: error: _establish_config_source: failed to fetch config\n"
        "sbatch: fatal: Could not establish a configuration source",
        "cluster.slurm-not-available",
        "without srun",
        "https://github.com/nico-bohlinger/one_policy_to_run_them_all/issues/5",
    ),
    # sbatch / srun options that exclude each other (often inherited as SLURM_* variables)
    (
        "srun: fatal: SLURM_GPUS_PER_TASK is mutually exclusive with --ntasks-per-gpu and "
        "SLURM_NTASKS_PER_GPU",
        "cluster.conflicting-job-options",
        "--ntasks-per-gpu",
        "https://github.com/ComputationalRadiationPhysics/picongpu/pull/4215",
    ),
    (
        "> error:\n"
        "> `srun: fatal: SLURM_TRES_PER_TASK is mutually exclusive with --ntasks-per-gpu and "
        "SLURM_NTASKS_PER_GPU`",
        "cluster.conflicting-job-options",
        "--ntasks-per-gpu",
        "https://github.com/snakemake/snakemake-executor-plugin-slurm/issues/373",
    ),
    (
        "`sbatch --mem=8G --mem-per-cpu=8G` fails there too with the identical `fatal: --mem, "
        "--mem-per-cpu, and --mem-per-gpu are mutually exclusive`",
        "cluster.conflicting-job-options",
        "--mem-per-cpu",
        "https://github.com/bessagroup/f3dasm/issues/352",
    ),
]

# (a real message of another cause, the new cause it must not reach first, the thread)
LOOKALIKE = [
    # PBS: a queue's memory cap, not a Slurm node configuration
    (
        "qsub: submit error (Job exceeds queue resource limits MSG=cannot satisfy queue max mem "
        "requirement)",
        "cluster.conflicting-job-options",
        "https://github.com/cBio/cbio-cluster/issues/93",
    ),
    # PBS: a submit filter's GPU rule
    (
        'Must request at least one GPU to use the "gpu" queue!\n'
        "qsub: submit filter returned an error code, aborting job submission.",
        "cluster.slurm-not-available",
        "https://github.com/cBio/cbio-cluster/issues/200",
    ),
    # Slurm is there: its job credential expired (munge / clocks), not a missing Slurm
    (
        "[ngraham@brodmann23d ~]$ srun echo hello\n"
        "srun: error: Task launch for 1443722.0 failed on node compute-0-1: Job credential "
        "expired\n"
        "srun: error: Application launch failed: Job credential expired\n"
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
        "cluster.slurm-not-available",
        "https://github.com/c3nl-neuraldynamics/c3nl_cluster/issues/61",
    ),
    # Lmod loads the module, whose software a site must install itself: no prerequisite missing
    (
        "$ module load CUDA/12.1.1\n"
        "Lmod has detected the following error: \n"
        "You requested to load CUDA  but while the module file exists, the actual software is "
        "not entirely shipped with EESSI due to licencing. You will need to install a full copy "
        "of the CUDA SDK\n"
        "where EESSI can find it.",
        "cluster.module-needs-prerequisite",
        "https://github.com/EESSI/docs/pull/342",
    ),
    # a GRES request a step cannot get: not a step waiting for its siblings
    (
        "- [x] `srun: Warning: can't run 1 processes on 2 nodes, setting nnodes to 1`\n"
        "- [x] `srun: error: Unable to create step for job XXXX: Invalid generic resource (gres) "
        "specification`",
        "cluster.step-waits-for-resources",
        "https://github.com/radical-cybertools/radical.pilot/issues/2109",
    ),
    # PMIx's munge security component missing: not the ds12 datastore
    (
        "It looks like pmix_init failed for some reason; your parallel process is\n"
        "likely to abort.  There are many reasons that a parallel process can\n"
        "fail during pmix_init; some of which are due to configuration or\n"
        "environment problems.  This failure appears to be an internal failure;\n"
        "here's some additional information (which may only be relevant to an\n"
        "PMIX developer):\n\n"
        "  pmix_psec_base_open failed\n"
        "  --> Returned value -46 instead of PMIX_SUCCESS",
        "mpi.pmix-gds-lock-error",
        "https://github.com/open-mpi/ompi/issues/9589",
    ),
    # the nodes report no GRES: an administrator's configuration, not a CPU count
    (
        "On the Soperator cluster, Slurm nodes are reporting GPU GRES incorrectly. Instead of "
        "detecting the GPU type, the GRES field shows (null). This prevents job submission with "
        "--gres=gpu:1.",
        "cluster.conflicting-job-options",
        "https://github.com/nebius/soperator/issues/1521",
    ),
    # several ranks per GPU in exclusive mode (LSF): not Lightning's task count
    (
        "Mapping more than one rank per GPU. This will fail if the GPUs are in exclusive process "
        "mode\n"
        "and MPS is not enabled. In that case you will see an error such as: 'all CUDA-capable "
        "devices are\n"
        "busy'.",
        "cluster.launch-not-via-srun",
        "https://github.com/BLAST-WarpX/warpx/issues/3712",
    ),
]


test_message_reaches_its_cause_with_the_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_the_new_cause = lookalike_test(LOOKALIKE, may_be_empty=True)
