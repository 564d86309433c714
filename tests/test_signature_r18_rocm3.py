"""AMD ROCm, round 18 sweep (checks/signatures/amd_rocm.toml): each message, verbatim from a
thread whose fix was confirmed, reaches its cause first and that cause's fixes name the knob the
confirmed fix turned on (a package, an environment variable, a HIP SDK version, an installer);
look-alike messages of other causes are not caught by the new patterns."""

from __future__ import annotations

from triage_lines import source_knob_test, source_lookalike_test

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # the reporter: "Installing the development headers for the c++ 12 standard library
        # resolved this issue for me under Ubuntu 22.04: sudo apt install --yes libstdc++-12-dev"
        "https://github.com/ROCm/MIOpen/issues/2096",
        "When trying to run a PyTorch application on ROCm 5.4, I get this error:\n\n"
        "MIOpen(HIP): Error [Compile] 'hiprtcCompileProgram(prog.get(), c_options.size(), "
        "c_options.data())' naive_conv.cpp: HIPRTC_ERROR_COMPILATION (6)\n"
        "MIOpen(HIP): Error [BuildHip] HIPRTC status = HIPRTC_ERROR_COMPILATION (6), source file: "
        "naive_conv.cpp\n"
        "MIOpen(HIP): Warning [BuildHip] /tmp/comgr-ededb1/input/naive_conv.cpp:39:10: fatal error: "
        "'limits' file not found\n"
        "#include <limits> // std::numeric_limits\n"
        "         ^~~~~~~~\n"
        "1 error generated when compiling for gfx900.\n"
        "terminate called after throwing an instance of 'miopen::Exception'\n"
        "  what():  /long_pathname_so_that_rpms_can_package_the_debug_info/data/driver/MLOpen/src/"
        "hipoc/hipoc_program.cpp:304: Code object build failed. Source: naive_conv.cpp",
        "rocm.hiprtc-cxx-headers-missing",
        "libstdc++-12-dev",
    ),
    (
        # the reporter: "It seems like I resolved it by installing the libstdc++-12-dev on ubuntu
        # 22.04.2 LTS"
        "https://github.com/ROCm/MIOpen/issues/2049",
        "MIOpen(HIP): Error [Compile] 'hiprtcCompileProgram(prog.get(), c_options.size(), "
        "c_options.data())' naive_conv.cpp: HIPRTC_ERROR_COMPILATION (6)\n"
        "MIOpen(HIP): Error [BuildHip] HIPRTC status = HIPRTC_ERROR_COMPILATION (6), source file: "
        "naive_conv.cpp\n"
        "MIOpen(HIP): Warning [BuildHip] /tmp/comgr-e64065/input/naive_conv.cpp:39:10: fatal error: "
        "'limits' file not found\n"
        "#include <limits> // std::numeric_limits\n"
        "         ^~~~~~~~\n"
        "1 error generated when compiling for gfx908.\n"
        "terminate called after throwing an instance of 'miopen::Exception'\n"
        "  what():  /long_pathname_so_that_rpms_can_package_the_debug_info/data/driver/MLOpen/src/"
        "hipoc/hipoc_program.cpp:304: Code object build failed. Source: naive_conv.cpp\n"
        "Aborted (core dumped)",
        "rocm.hiprtc-cxx-headers-missing",
        "libstdc++-12-dev",
    ),
    (
        # a user with the same error on Ubuntu 22.04: installing the libstdc++-12-dev package
        "https://github.com/ROCm/legacy-rocm-build/issues/1889",
        "I try to run a pytorch project with my RX 6800 (clinfo: gfx_1030)\n"
        "MIOpen(HIP): Warning [SQLiteBase] Missing system database file: gfx1030_30.kdb Performance "
        "may degrade. Please follow instructions to install: "
        "https://github.com/ROCmSoftwarePlatform/MIOpen#installing-miopen-kernels-package\n"
        "MIOpen(HIP): Error [Compile] 'hiprtcCompileProgram(prog.get(), c_options.size(), "
        "c_options.data())' naive_conv.cpp: HIPRTC_ERROR_COMPILATION (6)\n"
        "MIOpen(HIP): Error [BuildHip] HIPRTC status = HIPRTC_ERROR_COMPILATION (6), source file: "
        "naive_conv.cpp\n"
        "MIOpen(HIP): Warning [BuildHip] /tmp/comgr-112729/input/CompileSource:39:10: fatal error: "
        "'limits' file not found\n"
        "#include <limits> // std::numeric_limits\n"
        "         ^~~~~~~~\n"
        "1 error generated when compiling for gfx1030.\n"
        "terminate called after throwing an instance of 'miopen::Exception'\n"
        "  what():  /MIOpen/src/hipoc/hipoc_program.cpp:299: Code object build failed. Source: "
        "naive_conv.cpp\n"
        "Aborted (core dumped)",
        "rocm.hiprtc-cxx-headers-missing",
        "libstdc++-12-dev",
    ),
    (
        # the guide's author: HIP found the CPU's iGPU (gfx1036) before the dedicated GPU; disable
        # the Radeon TM Graphics or add HIP_VISIBLE_DEVICES=1 to webui-user.bat
        "https://github.com/CS1o/Stable-Diffusion-Info/issues/6",
        "## My setup\n\n"
        "- AMD 6800XT\n"
        "- AMD driver: 24.9.1\n"
        "- AMD HIP SDK: 6.1.2 (Install without Pro)\n"
        "- ZLUDA: windows-rocm6-amd64.zip\n"
        "- PATH sys env variable set as in the guide\n\n"
        "I have followed the step-by-step wiki guide on how to run AUTOMATIC111 with ZLUDA.\n\n"
        "Below is the error I got:\n\n"
        "rocBLAS error: Cannot read C:\\Program Files\\AMD\\ROCm\\6.1\\bin\\/rocblas/library/"
        "TensileLibrary.dat: No such file or directory for GPU arch : gfx1036\n\n"
        "rocBLAS error: Could not initialize Tensile host:\n"
        "regex_error(error_backref): The expression contained an invalid back reference.\n\n"
        "The HIP SDK installation folder, where rocBLAS complains, indeed does not have the "
        "`TensileLIbrary.dat` file. It makes me think the HIP SDK installation had problems. Do I "
        "need to go down to version 5.7?",
        "rocm.igpu-enumerated-first",
        "HIP_VISIBLE_DEVICES=1",
    ),
    (
        # a user with the same error: "export HSA_OVERRIDE_GFX_VERSION=10.3.0 worked on my navi10
        # card (5700xt)"
        "https://github.com/gbtb/nix-stable-diffusion/issues/10",
        "$ python scripts/preload_models.py\n"
        "/opt/amdgpu/share/libdrm/amdgpu.ids: No such file or directory\n"
        "/opt/amdgpu/share/libdrm/amdgpu.ids: No such file or directory\n"
        '"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"',
        "rocm.no-binary-for-gpu",
        "HSA_OVERRIDE_GFX_VERSION",
    ),
    (
        # ZLUDA's maintainer: "Make sure you have HIP SDK 5.7.x."; the reporter installed ROCm 5.7
        "https://github.com/vosen/ZLUDA/issues/136",
        "2024-02-22T20:18:10.541Z [NITRO]::Error: /home/lemmings/jan/extensions/@janhq/"
        "inference-nitro-extension/dist/bin/linux-cuda-11-7/nitro: /home/lemmings/Tools/zluda/"
        "target/release/libcublas.so.11: no version information available (required by "
        "/home/lemmings/jan/extensions/@janhq/inference-nitro-extension/dist/bin/linux-cuda-11-7/"
        "nitro)\n\n"
        "2024-02-22T20:18:10.546Z [NITRO]::Error: /home/lemmings/jan/extensions/@janhq/"
        "inference-nitro-extension/dist/bin/linux-cuda-11-7/nitro: symbol lookup error: "
        "/home/lemmings/Tools/zluda/target/release/libcublas.so.11: undefined symbol: "
        "rocblas_dtrmm_outofplace",
        "rocm.zluda-hip-sdk-mismatch",
        "5.7",
    ),
    (
        # an AMD maintainer: "This was resolved in ROCm 5.5" (a newer amdgpu-dkms for the kernel)
        "https://github.com/ROCm/legacy-rocm-build/issues/2155",
        "I tried this and $ sudo amdgpu-install --usecase=hiplibsdk,rocm.\n"
        "After installing finished, I did $rocm-smi but I is not woriking well.\n"
        "I found an error during $ sudo amdgpu-install --usecase=hiplibsdk,rocm.\n"
        "The error shows\n"
        "Loading new amdgpu-5.18.13-1538762.el8 DKMS files...\n\n"
        "Building for 4.18.0-490.el8.x86_64\n\n"
        "Building initial module for 4.18.0-490.el8.x86_64\n\n"
        "Error! Bad return status for module build on kernel: 4.18.0-490.el8.x86_64 (x86_64)\n\n"
        "Consult /var/lib/dkms/amdgpu/5.18.13-1538762.el8/build/make.log for more information.\n\n"
        "And I check the make.log\n"
        "$ cat /var/lib/dkms/amdgpu/5.18.13-1538762.el8/build/make.log\n\n"
        "Now I am using CentOS8stream and kernel is $ uname -r 4.18.0-490.el8.x86_64\n\n"
        "Could you teach me how to fix it?\n\n"
        "And when I try installing $sudo amdgpu-install --usecase=dkms, I get a WARNING: amdgpu "
        "dkms failed for running kernel",
        "rocm.amdgpu-dkms-kernel-unsupported",  # round 30: the cause's own id (was the symptom's)
        "newer ROCm",
    ),
    (
        # the users confirmed with roc-obj-ls that the ROCm 6.2 torch wheels have no gfx1010 code
        # object (gfx1030, gfx1100, gfx900, ... but not gfx1010): the build's arch list decides
        "https://github.com/pytorch/pytorch/issues/132570",
        "It work but I ended  up with the same error as @49RpK5dY.\n"
        "RuntimeError: HIP error: invalid device function\n"
        "HIP kernel errors might be asynchronously reported at some other API call, so the "
        "stacktrace below might be incorrect.\n"
        "For debugging consider passing AMD_SERIALIZE_KERNEL=3\n"
        "Compile with `TORCH_USE_HIP_DSA` to enable device-side assertion\n"
        "Radeon 5700XT",
        "rocm.no-binary-for-gpu",
        "get_arch_list",
    ),
]


test_message_reaches_its_cause_with_the_knob = source_knob_test(KNOB)


# (thread, a real message of another cause, the finding id that must not rank first)
LOOKALIKE = [
    (
        # Windows ROCm (TheRock build, gfx1151): the headers are missing from the Windows comgr
        # set-up, not a Linux libstdc++ package
        "https://github.com/ROCm/legacy-rocm-build/issues/6150",
        "Device used: AMD Radeon(TM) 8050S Graphics\n"
        "MIOpen: Error [Compile] 'hiprtcCompileProgram(prog.get(), c_options.size(), "
        "c_options.data())' MIOpenBatchNormFwdTrainSpatial.cpp: HIPRTC_ERROR_COMPILATION (6)\n"
        "MIOpen: Error [BuildHip] HIPRTC status = HIPRTC_ERROR_COMPILATION (6), source file: "
        "MIOpenBatchNormFwdTrainSpatial.cpp\n"
        "C:\\Users\\krishkat\\AppData\\Local\\Temp\\comgr-9004-512-cc9f7f\\include\\"
        "miopen_type_traits.hpp:151:10: fatal error: 'type_traits' file not found\n"
        "  151 | #include <type_traits>\n"
        "      |          ^~~~~~~~~~~~~\n"
        "1 error generated when compiling for gfx1151.",
        "rocm.hiprtc-cxx-headers-missing",
    ),
    (
        # gfx1032 with TheRock's wheels: a header conflict (typedef redefinition), no header missing
        "https://github.com/ROCm/TheRock/issues/6258",
        "MIOpen(HIP): Error [Compile] 'hiprtcCompileProgram(prog.get(), c_options.size(), "
        "c_options.data())' MIOpenNeuron.cpp: HIPRTC_ERROR_COMPILATION (6)\n"
        "MIOpen(HIP): Error [BuildHip] HIPRTC status = HIPRTC_ERROR_COMPILATION (6), source file: "
        "MIOpenNeuron.cpp\n"
        "MIOpen(HIP): Warning [BuildHip] In file included from /tmp/comgr-6517-15-07b813/input/"
        "MIOpenNeuron.cpp:35:\n"
        "/tmp/comgr-6517-15-07b813/include/miopen_cstdint.hpp:36:34: error: typedef redefinition "
        "with different types ('__hip_internal::uint64_t' (aka 'unsigned long long') vs "
        "'__uint64_t' (aka 'unsigned long'))",
        "rocm.hiprtc-cxx-headers-missing",
    ),
]


test_lookalike_is_not_caught = source_lookalike_test(LOOKALIKE)
