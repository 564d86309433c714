"""Round 15 sweep of the leftovers the maintainers listed (checks/signatures/{clusters,nvidia_driver,intel}.toml and
the entries it touched): a Slurm job that asks for more memory than a node has, refused as
"Requested node configuration is not available"; the bare cuDNN version line TensorFlow and JAX
share ("Loaded runtime CuDNN library: X but source was compiled with: Y") reaching JAX's cause only
when JAX is named; Jetson / aarch64 build fixes kept off x86 and macOS pastes; a GPU the unified
driver dropped, which needs the legacy branch the message names (RPM Fusion's akmod-nvidia-NNNxx,
ELRepo's kmod-nvidia-NNNxx); and the wording of an IPEX undefined symbol that names no release.
Each message is verbatim from its thread; it reaches the cause the thread confirmed first, and one
of that cause's fixes names the knob the confirmed fix turned."""

from __future__ import annotations

import re

import pytest
from triage_lines import fixes_text, source_knob_test, source_lookalike_test

from envdoctor.triage_engine import triage_text

NFCORE_BIANCA = (
    'Bianca only allows 7 GB per core, so max_mem of 128 GB results in an "Requested node '
    'configuration is not available" error.'
)
IPEX_TORCH21 = (
    "Yesterday I installed PyTorch 2.1 and it seems that ipex is not PyTorch 2.1 ready, since I got\n\n"
    "    import intel_extension_for_pytorch._C as core\n"
    "ImportError: /usr/lib64/python3.11/site-packages/intel_extension_for_pytorch/lib/libintel-ext-pt-cpu.so:"
    " undefined symbol: _ZN3c1010TensorTypeC1ENS_8optionalINS_10ScalarTypeEEENS1_INS_6DeviceEEERKNS_13Symbol"
    "icShapeERKNS_12VaryingShapeINS_6StrideEEENS1_IbEESE_"
)
XGBOOST_X86 = (
    "Operating System:\nubuntu14.04\nCompiler:\ngcc 4.9\nPackage used (python/R/jvm/C++):\npython 2.7\n"
    "`xgboost` version used:\n0.7\nuse cuda8.0 and NVIDIA1080Ti\nI want to use the xgboost with gpu, and i "
    "use the official step as below:\n$ mkdir build\n$ cd build\n$ cmake .. -DUSE_CUDA=ON\n$ make -j\nNo "
    "error in the process.\nBut when i test the benchmark.py,there is the error:\nXGBoost version not "
    "compile with GPU support."
)
CT2_MAC = (
    "I get the following error when I run the Streamlit application.\n\n```This CTranslate2 package was "
    "not compiled with CUDA support```\n\nWould you know what I should do to fix it? Do I need a GPU to run "
    "the model? I am using a Macbook Pro M1."
)

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # the reporter: the nodes have RealMemory=15867 (scontrol show node); --mem=15000M is accepted
        "https://github.com/SckyzO/slurm_exporter/issues/168",
        '$ sbatch --cpus-per-task=8 --mem=16384M --time=30 --wrap="sleep 60"\n'
        "sbatch: error: Memory specification can not be satisfied\n"
        "sbatch: error: Batch job submission failed: Requested node configuration is not available",
        "cluster.job-memory-limit",
        "scontrol show node",
    ),
    (
        # the reporter: accepted with --mem=0 (the whole node); the maintainer: Gaea takes no memory requests
        "https://github.com/NOAA-EMC/GDASApp/issues/1762",
        "#SBATCH --cpus-per-task=1\n#SBATCH --mem=8Gb\n```\nfails with\n```\n"
        "Gaea(gaea66):~$ sbatch submit_jjob_ens_init.sh\n"
        "sbatch: error: Memory specification can not be satisfied\n"
        "sbatch: error: Batch job submission failed: Requested node configuration is not available",
        "cluster.job-memory-limit",
        "--mem=0",
    ),
    (
        # the merged fix: memory per core is capped, ask for less (or a fat node)
        "https://github.com/nf-core/configs/pull/82",
        NFCORE_BIANCA,
        "cluster.job-memory-limit",
        "--mem",
    ),
    (
        # the reporter: TensorFlow's pip install with its matching nvidia-cudnn wheel fixed it
        "https://github.com/tensorflow/text/issues/554",
        "Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0.",
        "cuda.cudnn-mismatch",
        "cuDNN 8.1.0",
    ),
    (
        # the maintainer: IPEX 2.1 was not out yet; the torch release IPEX pairs with works
        "https://github.com/intel/intel-extension-for-pytorch/issues/436",
        IPEX_TORCH21,
        "intel.ipex-torch-mismatch",
        "pip list",
    ),
    (
        # the RPM Fusion packager: RPM Fusion carries the 390xx legacy driver (akmod-nvidia-390xx)
        "https://github.com/negativo17/nvidia-driver/issues/60",
        "It appears that video cards in the following list: https://download.nvidia.com/XFree86/Linux-x86_64/"
        "396.54/README/supportedchips.html are no longer supported in via the unified driver set you provide."
        "\n\n> Below are the legacy GPUs that are no longer supported in the unified driver. These GPUs will "
        "continue to be maintained through the special legacy NVIDIA GPU driver releases.\n\nAre you able to "
        "provide the alternative driver set so we don't need to manually install the 390.xx driver set "
        "currently?",
        "nvidia.gpu-needs-legacy-driver",
        "akmod-nvidia-390xx",
    ),
    (
        # the ELRepo maintainer: kmod-nvidia-470 releases are in the repository for this Kepler card
        "https://github.com/elrepo/packages/issues/241",
        "  nvidia-detect -v\n  Probing for supported NVIDIA devices...\n"
        "  [10de:11b4] NVIDIA Corporation GK104GL [Quadro K4200]\n"
        "  This device requires the legacy 470.xx NVIDIA driver kmod-nvidia-470xx",
        "nvidia.gpu-needs-legacy-driver",
        "kmod-nvidia-470xx",
    ),
    (
        # the maintainer: uninstall every earlier XGBoost and reinstall (an x86 machine: no Jetson build)
        "https://github.com/dmlc/xgboost/issues/3030",
        XGBOOST_X86,
        "xgboost.built-without-gpu",
        "pip uninstall -y xgboost",
    ),
    (
        # the reporter (MacBook M1): WhisperModel(model_size, device="cpu") instead of cuda
        "https://github.com/fictions-ai/autocaption/issues/3",
        CT2_MAC,
        "ctranslate2.built-without-cuda",
        'device="cpu"',
    ),
]


test_a_common_message_gets_its_cause_and_the_knob = source_knob_test(KNOB)


# the build fixes for Jetson / aarch64 machines (a sentence that only says which wheels lack CUDA stays)
JETSON_FIX = re.compile(
    r"Jetson / other platforms|aarch64 with an NVIDIA GPU|Keep the CUDA build installed"
)


@pytest.mark.parametrize("text", [XGBOOST_X86, CT2_MAC], ids=["x86", "macos"])
def test_an_x86_or_mac_paste_gets_no_jetson_build_fix(text: str) -> None:
    finding = triage_text(text + "\n").findings[0]
    assert not JETSON_FIX.search(fixes_text(finding)), fixes_text(finding)


def test_an_ipex_undefined_symbol_without_a_release_reads_as_sentences() -> None:
    finding = triage_text(IPEX_TORCH21 + "\n").findings[0]
    text = finding.title + " " + fixes_text(finding)
    assert "torch the release" not in text and "torch another release" not in text, text
    assert "intel-extension-for-pytorch" in finding.title


# (thread, a real message of another cause, the cause that must not rank first)
LOOKALIKE = [
    # JAX names itself: JAX's cuDNN (jax[cuda12] / nvidia-cudnn-cu12), not TensorFlow's
    (
        "https://github.com/conda-forge/jaxlib-feedstock/issues/329",
        '% JAX_TRACEBACK_FILTERING=off python -c "import jax; jax.numpy.sin(3)"       conda:jaxtest\n'
        "E1027 15:11:27.184481 3266602 cuda_dnn.cc:456] Loaded runtime CuDNN library: 9.10.1 but source was "
        "compiled with: 9.13.1.  CuDNN library needs to have matching major version and equal or higher minor "
        "version. If using a binary install, upgrade your CuDNN library.  If building from sources, make sure "
        "the library loaded at runtime is compatible with the version specified during compile configuration.",
        "cuda.cudnn-mismatch",
    ),
    # a GPU request refused (partition and QoS for the GPUs), though the reporter mentions --mem
    (
        "https://github.com/rcgsheffield/sheffield_hpc/issues/1042",
        "`xxxt@bessemer-login1 ~]$ srun --nodes=1 --gpus-per-node=1 --pty bash\n"
        "srun: error: Unable to allocate resources: Requested node configuration is not available`\n\n"
        "srun proceed with the scheduling if --mem flag is specified",
        "cluster.job-memory-limit",
    ),
]


test_a_look_alike_message_is_not_read_as_the_cause = source_lookalike_test(LOOKALIKE, newline=True)
