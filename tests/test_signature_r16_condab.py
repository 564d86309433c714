"""Round 16 sweep of conda leftovers (checks/signatures/{python_env,cuda}.toml): a build calling conda's
prefixed cross-compiler (x86_64-conda-linux-gnu-cc, x86_64-conda_cos6-linux-gnu-gcc / -c++) that the
environment does not have, and torch's cpp_extension warning that the nvcc found differs from
torch's CUDA in the minor version only (a warning, not a driver too old). Each message is verbatim
from its thread; the finding first is the cause the thread states, and one of its fixes names the
knob of that fix."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        # conda/conda#6030 (the maintainers, quoted in chainer/chainercv#431): a bug in the python
        # packages, which name conda's compiler instead of falling back to the system gcc
        "https://github.com/travis-ci/travis-ci/issues/8512",
        "x86_64-conda_cos6-linux-gnu-gcc -pthread -fno-strict-aliasing -march=nocona -mtune=haswell -ftree-vectorize -fPIC -fstack-protector-strong -fno-plt -O3 -pipe -DNDEBUG -fwrapv -O3 -Wall -Wstrict-prototypes -fPIC -I/home/travis/miniconda/envs/test-environment/include/python2.7 -c src/C/base.c -o build/temp.linux-x86_64-2.7/src/C/base.o\n    unable to execute 'x86_64-conda_cos6-linux-gnu-gcc': No such file or directory\n    error: command 'x86_64-conda_cos6-linux-gnu-gcc' failed with exit status 1",
        "conda.prefixed-compiler-missing",
        "CC=gcc",
    ),
    (
        # R from conda names conda's C++ compiler; the reporter's gcc_linux-64 brings only the C one
        # (conda's compiler-tools page: C++ is the gxx_linux-64 package)
        "https://github.com/RcppCore/Rcpp/issues/770",
        "make: /ebio/abt3_projects/software/dev/miniconda3/envs/test/bin/x86_64-conda_cos6-linux-gnu-c++: Command not found\n/ebio/abt3_projects/software/dev/miniconda3/envs/test/lib/R/etc/Makeconf:167: recipe for target 'Date.o' failed",
        "conda.prefixed-compiler-missing",
        "gxx_linux-64",
    ),
    (
        # R 4.0.3 names the newer prefix (x86_64-conda-linux-gnu), the env's gcc_linux-64 7.3.0 has the cos6 one
        "https://github.com/conda-forge/r-base-feedstock/issues/147",
        "/bin/sh: x86_64-conda-linux-gnu-cc: command not found",
        "conda.prefixed-compiler-missing",
        "gcc_linux-64",
    ),
]

# (thread, a real message of another cause, the cause a new pattern could wrongly rank first)
LOOKALIKE = [
    (
        # only the minor CUDA version differs: torch says it is most likely no problem (not a driver)
        "https://github.com/open-mmlab/mmcv/issues/2949",
        "      /miniconda3/envs/test-env/lib/python3.10/site-packages/torch/utils/cpp_extension.py:388: UserWarning: The detected CUDA version (11.5) has a minor version mismatch with the version that was used to compile PyTorch (11.7). Most likely this shouldn't be a problem.\n        warnings.warn(CUDA_MISMATCH_WARN.format(cuda_str_version, torch.version.cuda))",
        "torch.driver-too-old",
    ),
    (
        # conda's compiler is there and runs: its version banner is no missing compiler
        "https://github.com/NVIDIA/apex/issues/797",
        "$ /home/narimene/anaconda3/bin/x86_64-conda_cos6-linux-gnu-gcc --version\nx86_64-conda_cos6-linux-gnu-gcc (crosstool-NG 1.23.0.449-a04d0) 7.3.0",
        "conda.prefixed-compiler-missing",
    ),
    (
        # the compiler is found; what fails later is its cc1plus (a different cause)
        "https://github.com/conda/conda-build/issues/3080",
        "using C++ compiler: ‘x86_64-conda-linux-gnu-c++ (conda-forge gcc 13.2.0-13) 13.2.0’",
        "conda.prefixed-compiler-missing",
    ),
]


test_reaches_cause_with_knob = knob_test(KNOB, columns=("source", "text", "finding_id", "knob"))


test_lookalike_not_caught = lookalike_test(
    LOOKALIKE, columns=("source", "text", "tempting"), may_be_empty=True
)
