"""Intel GPUs (oneAPI / oneMKL / SYCL / ipex-llm) and Apple silicon (MLX), round 18 sweep
(checks/signatures/{intel,apple}.toml): each common message, verbatim from a public thread whose fix
was confirmed (the reporter says it worked, or a maintainer states cause and fix), reaches its
cause first with a fix naming the knob that fix turned; look-alike messages of other causes
(verbatim too) are not read as the new entries' causes."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message, the finding id first, a knob its fixes name, the thread)
KNOB = [
    (
        # Intel's oneAPI engineer (the PR's author): IPEX depends on MKL, setvars.sh must set
        # LD_LIBRARY_PATH to find it; "It works fine with setvars.sh"
        "WARNING 07-12 23:25:17 _custom_ops.py:14] Failed to import from vllm._C with "
        "ModuleNotFoundError(\"No module named 'vllm._C'\")\n"
        "WARNING 07-12 23:25:17 utils.py:218] Import Error for IPEX: libmkl_intel_lp64.so.2: "
        "cannot open shared object file: No such file or directory\n"
        "WARNING 07-12 23:25:17 utils.py:222] not found ipex lib",
        "intel.oneapi-not-sourced",
        "setvars.sh",
        "https://github.com/vllm-project/vllm/pull/6393",
    ),
    (
        # the reporter: "the error goes away when I add export LD_LIBRARY_PATH=.../lib" (the
        # maintainers reproduced it: the wheel's library links were broken)
        "INTEL oneMKL ERROR: /home/user/test/lib/python3.12/site-packages/mkl/../mkl_service.libs/"
        "libmkl_core.so.2: cannot open shared object file: No such file or directory.\n"
        "Intel oneMKL FATAL ERROR: Cannot load libmkl_core.so.2.",
        "intel.oneapi-not-sourced",
        "LD_LIBRARY_PATH",
        "https://github.com/IntelPython/dpnp/issues/2505",
    ),
    (
        # the reporter: "export DYLD_LIBRARY_PATH=/path/to/libmkl/lib:$DYLD_LIBRARY_PATH";
        # the maintainer: "That should do it."
        "When I run program, I also get following error:\n\n"
        "Intel MKL FATAL ERROR: Cannot load libmkl_core.dylib.\n\n"
        "Anybody have any work around?",
        "intel.oneapi-not-sourced",
        "DYLD_LIBRARY_PATH",
        "https://github.com/ageitgey/face_recognition/issues/61",
    ),
    (
        # the maintainers' troubleshooting entry: llama.cpp finds no SYCL device; on laptops the
        # Arc driver install can pull Microsoft's "OpenCL, OpenGL, and Vulkan Compatibility Pack",
        # which hides the SYCL devices: uninstall it
        "GGML_ASSERT: C:/Users/Administrator/actions-runner/cpp-release/_work/llm.cpp/llm.cpp/"
        "llama-cpp-bigdl/ggml-sycl.cpp:18283: main_gpu_id<g_all_sycl_device_count",
        "intel.xpu-without-runtime",
        "Compatibility Pack",
        "https://github.com/intel/ipex-llm/pull/11774",
    ),
    (
        # maintainer: ipex-llm's Ollama expects an Intel GPU and cannot run on a CPU-only machine
        # (the reporter has no Intel GPU)
        "(PI_ERROR_DEVICE_NOT_FOUND) llama_load_model_from_file: exception loading model\n\n"
        "I am getting this error after installing the IPEX_LLM and onAPI.  I can successfully "
        "serve ollama and pull models.  But when I try to run any model, I get this error.",
        "intel.xpu-without-runtime",
        "sycl-ls",
        "https://github.com/intel/ipex-llm/issues/11609",
    ),
    (
        # the reporter traced it: the conda environment of the quickstart sets OCL_ICD_VENDORS
        # to a folder whose .icd files point nowhere, so the OpenCL loader finds no platform;
        # unsetting the three variables brings the devices back
        "clinfo shows essentially nothing, no devices:\n\n"
        "> clinfo\n"
        "> Number of platforms                               0\n"
        "> \n"
        "> ICD loader properties\n"
        ">   ICD loader Name                                 OpenCL ICD Loader\n"
        ">   ICD loader Vendor                               OCL Icd free software\n"
        ">   ICD loader Version                              2.3.2\n"
        ">   ICD loader Profile                              OpenCL 3.0\n\n"
        "sudo clinfo does show the devices.\n\n"
        "Something in the process in the bag_quickstart.md adds environment variables (3 of them):\n\n"
        "OCL_ICD_VENDORS_RESET=1\n"
        "OCL_ICD_VENDORS=/home/ubuntu/miniforge3/envs/battlemage/etc/OpenCL/vendors\n"
        "OCL_ICD_FILENAMES_RESET=1",
        "intel.opencl-icd-vendors-overridden",
        "unset OCL_ICD_VENDORS",
        "https://github.com/intel/ipex-llm/issues/13020",
    ),
    (
        # maintainer (the thread that closed when MPS gained bfloat16 on macOS 14 Sonoma):
        # bfloat16 on MPS needs macOS 14 and a torch with it
        "TypeError: Trying to convert BFloat16 to the MPS backend but it does not have support "
        "for that dtype.",
        "fit.dtype-unsupported",
        "macOS 14",
        "https://github.com/pytorch/pytorch/issues/104191",
    ),
    (
        # the reporter: platform.processor() printed i386 (a non-native Python on an M1); with
        # miniconda's (arm64) Python mlx installed
        "Here is my setup\n\n"
        "- MacBook Pro 13 inch M1 from 2020\n"
        "- python 3.12.5, installed via homebrew\n"
        "- pip 24.2\n\n"
        "If I try to intall the requiements or even manually mlx it tells me:\n\n"
        "```\n"
        "ERROR: Could not find a version that satisfies the requirement mlx (from versions: none)\n"
        "ERROR: No matching distribution found for mlx\n"
        "```",
        "macos.rosetta-python",
        "arm64",
        "https://github.com/mflux-community/mflux/issues/23",
    ),
    (
        # maintainer (awni): "If this happens you are probably using a non-native Python";
        # platform.processor() should print arm, not i386: use a native (arm64) Python
        "A common problem is `pip install mlx` does not find a matching distribution:\n\n"
        "```\n"
        "ERROR: Could not find a version that satisfies the requirement mlx (from versions: none)\n"
        "ERROR: No matching distribution found for mlx\n"
        "```",
        "macos.rosetta-python",
        "arm64",
        "https://github.com/ml-explore/mlx/issues/200",
    ),
]

# (a message of another cause, verbatim, the new cause that must not be read first, the thread)
LOOKALIKE = [
    (
        # mlx on Windows: MLX publishes wheels for Apple silicon Macs only, not a Rosetta Python
        "i got error when install mlx like this \n\n"
        "`Could not find a version that satisfies the requirement mlx==0.0.3 (from versions: none)`"
        "\n\ni'm using windows 10",
        "macos.rosetta-python",
        "https://github.com/shrihacker/miniseconds/issues/6",
    ),
    (
        # libmkl from a conda torch, seen only in an IPython left over from an uninstalled conda:
        # the reporter's stale interpreter, not oneAPI's environment
        "In [1]: import torch\n"
        "ImportError: libmkl_intel_lp64.so: cannot open shared object file: No such file or "
        "directory",
        "intel.oneapi-not-sourced",
        "https://github.com/pytorch/pytorch/issues/1621",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_new_cause = lookalike_test(LOOKALIKE, may_be_empty=True)
