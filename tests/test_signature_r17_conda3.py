"""Round 17 sweep of conda / mamba / pixi environments (checks/signatures/{cuda,python_env,torch}.toml): pixi's
__cuda virtual package missing where it solves or installs (no driver visible, or no
[system-requirements] cuda), conda's NotWritableError on a package cache or environment the user
does not own, a conda package with no build for the environment's Python, the nvidia channel
missing from a mirror (the older multi-line UnavailableInvalidChannel), and the nvcc path of
conda's cudatoolkit, which carries no compiler. Each message is verbatim from its thread; the
finding first is the cause the thread states, and one of its fixes names the knob of that fix."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        # pixi on a CI runner with no NVIDIA GPU: the project sets CONDA_OVERRIDE_CUDA=12.0 (its fix)
        "https://github.com/fieldsoftheworld/ftw-baselines/issues/117",
        "  Error:   × Cannot install environment 'default'\n    ╰─▶ Virtual package '__cuda' does not match any of the available virtual packages on your machine: [__archspec=1=zen2, __glibc=2.39=0, __unix=0=0, __linux=6.11.0=0]\n    help:  You can mock the virtual package by overriding the environment variable, e.g.: '`CONDA_OVERRIDE_CUDA=12.0`'",
        "cuda.conda-pip-cuda-mixed",
        "CONDA_OVERRIDE_CUDA=12.0",
    ),
    (
        # jaxlib's CUDA build needs __cuda; the reporter: with [system-requirements] cuda = "12", things work
        "https://github.com/prefix-dev/pixi/issues/1288",
        " × failed to solve the conda requirements of 'default' 'linux-64'\n  ╰─▶ Cannot solve the request because of: jaxlib >=0.4.23,<0.5.0 *cuda12* cannot be installed because there are no viable options:\n      └─ jaxlib 0.4.23 | 0.4.23 | 0.4.23 | 0.4.23 | 0.4.23 | 0.4.23 | 0.4.23 | 0.4.23 | 0.4.23 would require\n         └─ __cuda *, for which no candidates were found.",
        "cuda.conda-pip-cuda-mixed",
        "system-requirements",
    ),
    (
        # the package cache belongs to another user; several report that chown of the folder fixed it
        "https://github.com/conda/conda/issues/8553",
        "$ conda create -n myenv\nSolving environment: failed\n\nNotWritableError: The current user does not have write permissions to a required path.\n  path: /home/unix/acristo/.conda/pkgs/urls.txt\n  uid: 819262083\n  gid: 41777\n\nIf you feel that permissions on this path are set incorrectly, you can manually\nchange them by executing\n\n  $ sudo chown 819262083:41777 /home/unix/acristo/.conda/pkgs/urls.txt\n\nIn general, it's not advisable to use 'sudo conda'.",
        "conda.path-not-writable",
        "chown",
    ),
    (
        # pytorch 1.4.0 has no Python 3.9 build: the author's fix is an environment with Python 3.8
        "https://github.com/KaihuaTang/Scene-Graph-Benchmark.pytorch/pull/160",
        "nsatisfiableError: The following specifications were found\nto be incompatible with the existing python installation in your environment:\n\nSpecifications:\n\n  - pytorch=1.4.0 -> python[version='>=2.7,<2.8.0a0|>=3.6,<3.7.0a0|>=3.7,<3.8.0a0|>=3.8,<3.9.0a0|>=3.5,<3.6.0a0']\n  - torchvision=0.5.0 -> python[version='>=2.7,<2.8.0a0|>=3.5,<3.6.0a0|>=3.6,<3.7.0a0|>=3.8,<3.9.0a0|>=3.7,<3.8.0a0']\n\nYour python: python=3.9\n\nIf python is on the left-most side of the chain, that's the version you've asked for.\nWhen python appears to the right, that indicates that the thing on the left is somehow\nnot available for the python version you are constrained to. Note that conda will not\nchange your python version to a different minor version unless you explicitly specify\nthat.",
        "python.no-matching-wheel",
        "conda create -n ENV python=",
    ),
    (
        # the university mirror has no nvidia channel; the maintainer: change the conda channel
        # configuration (the mirror); the reporter: solved
        "https://github.com/nianticlabs/acezero/issues/28",
        "Collecting package metadata (repodata.json): failed\n\nUnavailableInvalidChannel: HTTP 404 NOT FOUND for channel nvidia <http://mirrors.tuna.tsinghua.edu.cn/anaconda/nvidia>\n\nThe channel is not accessible or is invalid.\n\nYou will need to adjust your conda configuration to proceed.\nUse `conda config --show channels` to view your configuration's current state,\nand use `conda config --show-sources` to view config file locations.",
        "cuda.conda-pip-cuda-mixed",
        "conda config --show-sources",
    ),
    (
        # TUNA's maintainers: the nvidia channel's licence does not allow them to mirror it
        "https://github.com/tuna/issues/issues/1327",
        "UnavailableInvalidChannel: The channel is not accessible or is invalid.\n  channel name: nvidia\n  channel url: https://mirrors.tuna.tsinghua.edu.cn/anaconda/nvidia\n  error code: 404",
        "cuda.conda-pip-cuda-mixed",
        "conda config --show-sources",
    ),
    (
        # conda's cudatoolkit package carries no nvcc; the reporter: the answer on installing a
        # conda nvcc (cudatoolkit-dev) solved it
        "https://github.com/ddshan/hand_object_detector/issues/16",
        "`/home/user_name/miniconda3/pkgs/cudatoolkit-11.0.221-h6bb024c_0/bin/nvcc: not found`",
        "torch.extension-cuda-toolkit-missing",
        "cudatoolkit-dev",
    ),
    (
        # the notebook ran another conda environment's kernel; changing the kernel fixed it
        "https://github.com/jupyter/notebook/issues/4629",
        "I had the same issue. 'import torch' worked on the terminal but it didn't work on the Jupyter.",
        "python.notebook-kernel-not-active-env",
        "ipykernel install",
    ),
    (
        # the maintainer: the notebook and the terminal are different Python environments
        "https://github.com/pytorch/pytorch/issues/16103",
        "Unbale to load Pytorch from Jupyter Notebook.\nI am using Windows 10 and Anaconda Navigator-Jupy Notebook. \nI did `conda install pytorch torchvision -c pytorch`\nThe package loads successfully in Terminal (Opened within Jupyter) when I do `import torch`\nIt doesn't work within the Notebook and keeps throwing ImportError. ",
        "python.notebook-kernel-not-active-env",
        "sys.executable",
    ),
    (
        # conda's jaxlib without CUDA; the reporter: pip's jax[cuda12_pip] found the GPU
        "https://github.com/jax-ml/jax/issues/24604",
        "An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.\n[CpuDevice(id=0)]",
        "jax.cpu-only-jaxlib",  # JAX's own words: the CPU-only jaxlib (round 32: its own cause)
        "jax[cuda12]",
    ),
    (
        # a conda environment without a CUDA toolkit: conda install -c nvidia cuda (the thread's fix)
        "https://github.com/conda/conda/issues/7757",
        "CUDA_HOME environment variable is not set. Please set it to your CUDA install root for pytorch cpp extensions",
        "torch.extension-cuda-toolkit-missing",
        "conda install -c nvidia cuda",
    ),
]

# (thread, a real message of another cause, the cause a new pattern could wrongly rank first)
LOOKALIKE = [
    (
        # the virtual package missing is __glibc, not __cuda (a "cuda" build string is no CUDA cause)
        "https://github.com/Netflix/metaflow/issues/1904",
        "    nothing provides __glibc >=2.17 needed by tensorflow-base-2.6.0-cuda110py37hb8f09f9_2",
        "cuda.conda-pip-cuda-mixed",
    ),
    (
        # packages incompatible with each other (pytorch3d has no build for that pytorch), not the Python
        "https://github.com/facebookresearch/pytorch3d/issues/490",
        "UnsatisfiableError: The following specifications were found to be incompatible with each other:\n\\\nOutput in format: Requested package -> Available versions",
        "python.no-matching-wheel",
    ),
    (
        # the system libstdc++ loaded by conda's solver plugin is too old: no write permission problem
        "https://github.com/conda-forge/ctng-compilers-feedstock/issues/170",
        "$ conda install 'conda-libmamba-solver<25.3'\nError while loading conda entry point: conda-libmamba-solver (/lib64/libstdc++.so.6: version `GLIBCXX_3.4.29' not found (required by /home/mrbecker/mambaforge/lib/python3.11/site-packages/libmambapy/bindings.cpython-311-x86_64-linux-gnu.so))",
        "conda.path-not-writable",
    ),
]


test_reaches_cause_with_knob = knob_test(KNOB, columns=("source", "text", "finding_id", "knob"))


test_lookalike_not_caught = lookalike_test(
    LOOKALIKE, columns=("source", "text", "tempting"), may_be_empty=True
)
