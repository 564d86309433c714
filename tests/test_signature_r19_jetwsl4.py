"""Jetson / aarch64 and WSL graphics, round 19 (jetwsl4): CUDA in WSL2 that a program cannot
find until /usr/lib/wsl/lib is on its loader path, WSLg programs that render on llvmpipe until
the WSL driver folder is on the loader path, onnxruntime-gpu on a Jetson (NVIDIA's Jetson Zoo
wheels, not PyPI), PyPI torch on a Jetson TX2 ('Illegal instruction'; NVIDIA's JetPack wheel
fixes it), and an l4t-pytorch base image older than the JetPack on the board. Each verbatim
message reaches its cause first and one of its fixes names the knob the thread's confirmed fix
turned; look-alike rows are real messages of other causes that the new phrasings must not read
as theirs."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # the maintainer: export LD_LIBRARY_PATH=/usr/lib/wsl/lib:$LD_LIBRARY_PATH in ~/.bashrc;
    # the reporter: "This is super helpful. Everything works!"
    (
        "I successfully install taichi on WSL2 and it runs normally when using CPU. However, when it comes to GPU (for example, CUDA), taichi seems not recognizing my CUDA on WSL2.",
        "wsl.lib-not-on-loader-path",
        "/usr/lib/wsl/lib",
        "https://github.com/taichi-dev/taichi/issues/2537",
    ),
    # a commenter (verified on a Ryzen + RTX 3050 laptop): /usr/lib/wsl/lib must be added to
    # LD_LIBRARY_PATH for glxinfo -B to report d3d12 acceleration; the maintainer agreed
    (
        "Is it possible to get this to work with [wslg](https://github.com/microsoft/wslg)? All my natively installed wsl ubuntu apps work with 3d acceleration, but not the ones installed with nix.",
        "wsl.software-rendering",
        "/usr/lib/wsl/lib",
        "https://github.com/nix-community/nixGL/issues/69",
    ),
    # the maintainer (yf711): install the pre-built onnxruntime-gpu for JetPack from the Jetson Zoo
    (
        "### Describe the feature request\n\nThere are CUDA enabled devices like Nvidia jetson which uses arm64 processors. \n\nCurrently, onnxruntime-gpu doesnt support arm64 processors. \n\nCould we enable support for them?",
        "onnxruntime.jetson-no-gpu-build",
        "Jetson Zoo",
        "https://github.com/microsoft/onnxruntime/issues/21232",
    ),
    # the reporter: the TX2 needs NVIDIA's build of torch for its JetPack (PyPI torch is not it);
    # the fix was upgrading JetPack to get a matching NVIDIA wheel
    (
        'when i do "pip3 install torch"  and try to use a torch, i got  "an illegal instruction" error\nand i know that the jetson tx2 needs a specifically modified version of the torch, and my jetpack version is too low to use a modified torch that can be found on the internet\n\nHow much time its take to update the jetpack?',
        "jetson.pypi-wheel",
        "JetPack",
        "https://github.com/SKKU-ESLAB/ANT/issues/258",
    ),
    # the reporter: on JetPack 4.5, changing the base image to l4t-pytorch:r32.5.0-pth1.6-py3
    # fixed it; the maintainer committed that change
    (
        "Hey thanks for publishing this, awesome work! Because jetpack 4.5 is now I got an issue with the current dockerfile, but changing the first line to nvcr.io/nvidia/l4t-pytorch:r32.5.0-pth1.6-py3 fixed this.",
        "jetson.container-l4t-mismatch",
        "r32.",
        "https://github.com/otamajakusi/dockerfile-yolov5-jetson/issues/1",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # image r32.6.1 on an R32.6.1 host: the maintainer: the NVIDIA runtime is not mounting CUDA
    # (the container runtime's host-files csv), not a release mismatch
    (
        "```docker run -it --network host --rm --runtime nvidia --gpus all dustynv/ros:foxy-pytorch-l4t-r32.6.1```\n\nImage: foxy-pytorch-l4t-r32.6.1  \n\n```cat /etc/nv_tegra_release ```\nR32 (release), REVISION: 6.1, GCID: 27863751, BOARD: t210ref, EABI: aarch64, DATE: Mon Jul 26 19:20:30 UTC 2021\n\n```ls /usr/local/cuda/lib64```\n```libacudavert.a libcudart_static.a stubs```\n\nnot found``` libcublas.so.10``` and ```libcurand.so.10```",
        "jetson.container-l4t-mismatch",
        "https://github.com/dusty-nv/jetson-containers/issues/194",
    ),
    # a Windows Insider build that broke GPU in WSL (a known issue of that build), not the loader path
    (
        "After my computer upgraded to build 21337, I lost GPU support.  I knew that build 21327 had a known issue but that it would be fixed in this version. I am unable to roll back to my previous version (it was the one before 21327) and was working correctly with GPU.",
        "wsl.lib-not-on-loader-path",
        "https://github.com/microsoft/WSL/issues/6702",
    ),
    # onnxruntime's own aarch64 wheel crashing in a static initializer (not OpenBLAS on a Jetson)
    (
        "Here is the stacktrace: \n\n```\n#0  0x0000ffffe9073df4 in _sub_I_65535_0.0 ()\n   from /home/chasun/.local/lib/python3.11/site-packages/onnxruntime/capi/onnxruntime_pybind11_state.cpython-311-aarch64-linux-gnu.so\n#1  0x0000fffff7fc2918 in call_init (env=0xfffffffff3a0, argv=0xfffffffff388, argc=2, l=<optimized out>)\n    at dl-init.c:70",
        "jetson.numpy-openblas-illegal-instruction",
        "https://github.com/microsoft/onnxruntime/issues/23957",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE, may_be_empty=True)
