"""Round 18 sweep of conda / uv / poetry environments (checks/signatures/{torch,python_env,cuda}.toml): Poetry
finding no torch file for the project's Python, uv finding no wheel of a package for this platform,
older conda's "specifications were found to be in conflict" when packages are added to a crowded
environment, CUDA packages an environment file pins that no channel has for the platform (macOS),
and conda messages earlier rounds cover (exported build strings, conda init before
activate, __cuda missing where conda solves). Each message is verbatim from its thread; the finding
first is the cause the thread states, and one of its fixes names the knob of that fix."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        # the reporter: "python mismatch, torch isn't out for 3.13" (a Python torch 2.5.1 supports)
        "https://github.com/suxrobGM/bookshelf-scanner/issues/1",
        "Forgive me if this is trivial / something I should know, when I try to install the backend via Poetry I am blocked by an error:\n\n  - Installing torch (2.5.1+cu124): Failed\n\n    | Unable to find installation candidates for torch (2.5.1+cu124)",
        "torch.python-unsupported",
        "poetry env use",
    ),
    (
        # the reporter: a Python 3.11 issue; with Python 3.10 it installed
        "https://github.com/NatLabRockies/Wattile/issues/275",
        "I'm trying to get my environment set up properly for Wattile, but `poetry install` and `poetry update` fail to find torch 1.13.1:\n\n```\n  ▒ Installing torch (1.13.1): Failed\n\n  RuntimeError\n\n  Unable to find installation candidates for torch (1.13.1)\n```",
        "torch.python-unsupported",
        "poetry env use",
    ),
    (
        # torchcodec in the pinned range has no aarch64 wheel (uv's hint names the platforms it has)
        "https://github.com/Lightricks/LTX-2/issues/256",
        "Resolved 151 packages in 1ms\nerror: Distribution `torchcodec==0.9.1 @ registry+https://pypi.org/simple` can't be installed\nbecause it doesn't have a source distribution or wheel for the current platform\n\nhint: You're on Linux (`manylinux_2_39_aarch64`), but `torchcodec` (v0.9.1) only has wheels for\nthe following platforms: `manylinux_2_28_x86_64`, `macosx_11_0_arm64`, `win_amd64`; consider\nadding \"sys_platform == 'linux' and platform_machine == 'aarch64'\" to\n`tool.uv.required-environments` to ensure uv resolves to a v",
        "python.no-matching-wheel",
        "platform_machine",
    ),
    (
        # triton publishes no linux/aarch64 wheel: the dependency must be limited to x86_64
        "https://github.com/Motphys/UniLab/issues/632",
        "error: Distribution `triton==3.3.0 @ registry+https://pypi.org/simple` can't be\n       installed because it doesn't have a source distribution or wheel for the\n       current platform\n\nhint: You're on Linux (`manylinux_2_39_aarch64`), but `triton` (v3.3.0) only has\n      wheels for the following platforms: `manylinux_2_27_x86_64`, `manylinux_2_28_x86_64`\nmake: *** [Makefile:7: setup] Error 2",
        "python.no-matching-wheel",
        "platform_machine",
    ),
    (
        # conda's maintainer: use a conda environment (conda create -n pytorch pytorch-cpu ...)
        "https://github.com/conda/conda/issues/6743",
        'UnsatisfiableError: The following specifications were found to be in conflict: - pytorch-cpu Use "conda info <package>" to see the dependencies for each package.\n\nHi, i found this error on my ubuntu when im installing PyTorch,\nthis is command after this i encountered error  "conda install pytorch-cpu torchvision -c pytorch"\n Anyone known how do i solve this error. Thanks in advance :)',
        "python.dependency-conflict",
        "conda create -n",
    ),
    (
        # the reporter: solved by creating a new conda environment and installing there
        "https://github.com/conda/conda/issues/9657",
        '`conda install pytorch torchvision cudatoolkit=10.1 -c pytorch`\nIt start "Solving environment:" and after a while it return the following error:\n\n```\nSolving environment: failed\n\nUnsatisfiableError: The following specifications were found to be in conflict:\n  - ipaddress\n  - torchvision\nUse "conda info <package>" to see the dependencies for each package.\n\n```',
        "python.dependency-conflict",
        "conda create -n",
    ),
    (
        # the maintainer: delete these lines from environment.yaml; the reporter: no error after
        "https://github.com/dvl-tum/mot_neural_solver/issues/25",
        "Solving environment: failed\nResolvePackageNotFound:\n  - ld_impl_linux-64==2.34=h53a641e_4\n  - libgfortran-ng==7.5.0=hdf63c60_6",
        "conda.env-file-other-platform",
        "ld_impl_linux-64",
    ),
    (
        # a laptop without a GPU: pytorch's CUDA build needs __cuda; a fresh environment worked
        "https://github.com/escape2020/school2022/issues/37",
        "Encountered problems while solving:\n  - nothing provides __cuda needed by pytorch-1.11.0-cuda102py310hdf4a2db_202",
        "cuda.conda-pip-cuda-mixed",
        "conda create",
    ),
    (
        # macOS: the reporter commented out cuda90 in environment.yml and the update worked; the
        # maintainer: Mac is not a supported platform (the CPU environment file works there)
        "https://github.com/fastai/fastai/issues/84",
        "Using Anaconda API: https://api.anaconda.org\nSolving environment: failed\n\nResolvePackageNotFound:\n  - cuda90",
        "cuda.conda-pip-cuda-mixed",
        "comment out the CUDA lines",
    ),
    (
        # a Mac: the maintainers: the environment is a Linux one (cudatoolkit has no macOS build)
        "https://github.com/apple-aiml-research/ml-gmpi/issues/1",
        "Collecting package metadata (repodata.json): done\nSolving environment: failed\n\nResolvePackageNotFound:\n  - cudatoolkit=10.2",
        "cuda.conda-pip-cuda-mixed",
        "macOS",
    ),
    (
        # a script activating conda: source miniconda's conda.sh first (the reporter: now it works)
        "https://github.com/marbits-icm/marbits-public/issues/78",
        "[General Issue] CondaError: Run 'conda init' before 'conda activate'",
        "python.env-mismatch",
        "conda.sh",
    ),
]

# (thread, a real message of another cause, the cause a new pattern could wrongly rank first)
LOOKALIKE = [
    (
        # a cudatoolkit pin conflict (pytorch built for CUDA 9 against cudatoolkit 8.0), not a
        # crowded environment
        "https://github.com/araffin/robotics-rl-srl/issues/26",
        '> UnsatisfiableError: The following specifications were found to be in conflict:\n>   - cudatoolkit==8.0=3\n>   - pytorch==0.4.0=py35_cuda9.0.176_cudnn7.1.2_1 -> cudatoolkit=9\n> Use "conda info <package>" to see the dependencies for each package.',
        "python.dependency-conflict",
    ),
    (
        # libmamba: cuda-cudart 12.1 against cuda-version 12.6 (CUDA packages of two releases)
        "https://github.com/CSU-JPG/VCode/issues/3",
        "Solving environment: failed\n\nLibMambaUnsatisfiableError: Encountered problems while solving:\n  package cuda-cudart-12.1.105-hd3aeb46_0 requires cuda-version >=12.1,<12.2.0a0, but none of the providers can be installed\n\nCould not solve for environment specs\nThe following packages are incompatible\n├─ cuda-cudart =12.1.105 * is installable with the potential options\n│  ├─ cuda-cudart 12.1.105 would require\n│  │  └─ cuda-version >=12.1,<12.2.0a0 *, which can be installed;\n│  └─ cuda-cudart 12.1.105, which can be installed;\n├─ cuda-libraries =12.1.0 * is requested and can be installed;\n├─ cuda-version =12.6 * is not installable because it requires\n│  └─ cudatoolkit ==12.6|=12.6 *, which can be installed;",
        "python.dependency-conflict",
    ),
]


test_reaches_cause_with_knob = knob_test(KNOB, columns=("source", "text", "finding_id", "knob"))


test_lookalike_not_caught = lookalike_test(
    LOOKALIKE, columns=("source", "text", "tempting"), may_be_empty=True
)
