"""Round 17 sweep of Windows laptop / desktop and virtual-machine messages
(checks/signatures/{windows,platform,cuda,nvidia_driver}.toml): the NVIDIA installer refusing a Standard package on a DCH system
("wrong version of windows", "the system is incompatible"), a program that renders on the integrated
graphics of a hybrid laptop, CUDA asked for inside a VMware Workstation / VirtualBox guest, a missing
nvcuda.dll, Windows TDR resets named in prose, ptxas stopping on non-ASCII source characters, QEMU /
libvirt refusing PCI passthrough without an IOMMU, and an unlicensed vGPU refusing CUDA. Each
message, verbatim from its thread, reaches the cause the thread confirmed first, and one of that
cause's fixes names the knob the confirmed fix turned."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        # reporter: the DCH package of the driver installed with no issue
        "https://github.com/AeliusSaionji/chocopkgs/issues/25",
        "The current 'nvidia-display-driver' package in a clean install of Windows 10 1903 with a nVidia 2080 Ti throws an exit error of -467664896. Tried installing the drivers by hand and the installer said I had the \"wrong version of windows\".",
        "windows.driver-package-type-mismatch",
        "DCH",
    ),
    (
        # the reporter's own finding: a DCH package is needed where DCH drivers came pre-installed
        "https://github.com/TheRandomLabs/scoop-nonportable/issues/162",
        "Some computers come with DCH drivers pre-installed and when trying to install non DCH drivers, it fails with an error telling that the system is incompatible.",
        "windows.driver-package-type-mismatch",
        "DCH",
    ),
    (
        # the maintainer added DCH driver support (Standard packages do not install over DCH)
        "https://github.com/HawaiiBeach/TinyNvidiaUpdateChecker/issues/63",
        "Same problem here. DCH drivers installed on system, but the auto updater pulls the standard drivers and the installation fails.",
        "windows.driver-package-type-mismatch",
        "DCH",
    ),
    (
        # reporter: binding the program to the NVIDIA High performance profile solved it
        "https://github.com/gephi/gephi/issues/2704",
        "# OpenGL not using Nvidia but UHD graphics\n"
        "Gephi is super slow, chokes up the whole computer, and takes significantly longer to do anything than on comparatively much worse hardware.\n\n"
        "I have a Dell XPS 15 with a gtx 1650ti. In the settings, it seems it's also not using the nvidia card at a..",
        "windows.hybrid-gpu-uses-igpu",
        "High-performance NVIDIA processor",
    ),
    (
        # reporter: forcing the high-performance GPU for the Java runtime made it work
        "https://github.com/jrbudda/Vivecraft_112/issues/155",
        "So a message pop's up on my screen when ever I try to open vivecraft saying Render setup failed: Intel integrated graphics are not supported if this is a labtop, please force the high-performance GPU. Detected GPU: intel(r) UHD graphics, can I fix this",
        "windows.hybrid-gpu-uses-igpu",
        "High performance",
    ),
    (
        # the reporter gave the VM up; a commenter: WSL works (tested)
        "https://github.com/LordLiang/DrawingSpinUp/issues/14",
        "在VMware workstation虚拟机安装了ubuntu系统，有什么免费的方法可以让虚拟机中的系统使用到宿主机的GPU呀\n"
        "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx",
        "vm.no-gpu-passthrough",
        "WSL",
    ),
    (
        # maintainer: install the latest driver from NVIDIA
        "https://github.com/sp-hash/TeamBlackMiner/issues/329",
        "nvcuda.dll not found",
        "windows.nvcuda-missing",
        "NVIDIA Windows driver",
    ),
    (
        # the commenter: raising the TDR timeout fixed the CUDA failures on Windows
        "https://github.com/tensorflow/tensorflow/issues/45987",
        "Windows has a service called TDR (Timeout Detection and Recovery) which pings the GPU to check it hasn't frozen. If it does not get a reply within 2 seconds it resets the GPU causing the CUDA operation to fail.",
        "windows.device-removed-tdr",
        "TdrDelay",
    ),
    (
        # a later commenter: "your fix saved me" (TdrDelay raised in the registry)
        "https://github.com/alicevision/Meshroom/issues/2328",
        "Hello, with my Geforce GTX 960M I had the same problem. For me on Windows 10, the problem was the TdrDelay in Windows. More about it here : https://developer.download.nvidia.com/NsightVisualStudio/2.2/Documentation/UserGuide/HTML/Content/Timeout_Detection_Recovery.htm",
        "windows.device-removed-tdr",
        "TdrDelay",
    ),
    (
        # reporter: increasing TdrDelay solved it
        "https://github.com/matterport/Mask_RCNN/issues/258",
        "Nvidia replied my question. It was a WDDM event. Increasing the TdrDelay value solved the problem.",
        "windows.device-removed-tdr",
        "TdrDelay",
    ),
    (
        # maintainer: dropping --source-in-ptx fixes the ptxas error
        "https://github.com/cms-patatrack/pixeltrack-standalone/pull/416",
        "They lead to this compilation error with CUDA 12.8:\n```\nptxas fatal   : Unexpected non-ASCII character encountered on line 19136\n```",
        "cuda.ptxas-non-ascii-source",
        "--source-in-ptx",
    ),
    (
        # maintainer: enable the IOMMU; reporter: "That is probably my issue"
        "https://github.com/vivekmiyani/OSX_GVT-D/issues/7",
        "qemu-system-x86_64: -device vfio-pci,host=0000:00:02.0,id=hostdev0,bus=pcie.0,addr=0x2,romfile=./i915ovmf/i915ovmf.rom: vfio 0000:00:02.0: no iommu_group found: No such file or directory\nmodprobe: FATAL: Module vfio_pci is builtin.\nmodprobe: FATAL: Module vfio is builtin.",
        "vm.iommu-disabled",
        "intel_iommu=on",
    ),
    (
        # the reporter traced it to an unlicensed vGPU (license status in nvidia-smi -q)
        "https://github.com/DDMAL/Rodan/issues/1332",
        "Issue found. This is an infrastructure-level NVIDIA vGPU licensing problem (not application-side). Evidence below. Will contact Compute Canada.\n\n# GPU CUDA Initialization Issue - vGPU License Problem\n\n## What happened\n\nGPU jobs started failing on Jan 23 with this error:\n```\ntensorflow.python.framework.errors_impl.InternalError: CUDA runtime implicit initialization on GPU:0 failed. Status: all CUDA-capable devices are busy or unavailable\n```",
        "nvidia.vgpu-unlicensed",
        "ClientConfigToken",
    ),
]


test_message_reaches_its_cause_with_the_knob = knob_test(
    KNOB, columns=("source", "text", "finding_id", "knob")
)


# (thread, a real message of another cause, the cause a new pattern could wrongly put first)
LOOKALIKE = [
    (
        # a mining card the driver's INF does not list: not the Standard / DCH package type
        "https://github.com/dartraiden/NVIDIA-patcher/issues/293",
        "The same error today on cmp90hx, windows 10.\nNvidia installer cannot continue. \nThis nvndia graphics driver is not compatible with your device.",
        "windows.driver-package-type-mismatch",
    ),
    (
        # WSL inside a Hyper-V GPU-partitioned VM: the VM has a GPU, not a desktop hypervisor without one
        "https://github.com/microsoft/WSL/issues/12097",
        "    Ubuntu:$ nvidia-smi\n\n    Failed to initialize NVML: GPU access blocked by the operating system",
        "vm.no-gpu-passthrough",
    ),
    (
        # a PTX syntax error under a user name with a non-ASCII letter: not the non-ASCII ptxas message
        "https://github.com/niuzhiheng/caffe/issues/31",
        "1>  ptxas C:/Users/ANDR~1/AppData/Local/Temp/tmpxft_00002c90_00000000-13_bnll_layer.compute_20.ptx, line 1709; fatal   : Parsing error near '-': syntax error\n1>  ptxas fatal   : Ptx assembly aborted due to errors",
        "cuda.ptxas-non-ascii-source",
    ),
    (
        # an mdev (vGPU) device: solved by loading vfio_mdev and vfio_iommu_type1, not the IOMMU switch
        "https://github.com/DualCoder/vgpu_unlock/issues/47",
        "iommu_group: No such file or directory (solved)\nFor those who encounter this error while using _virt-manager_ or _qemu-system-*_. \nEnsure that the kernel modules `vfio_mdev` and `vfio_iommu_type1` are loaded. In my system (openSUSE Leap 15.2) they weren't and after a `modprobe` this issue was gone.",
        "vm.iommu-disabled",
    ),
]


test_lookalike_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, columns=("source", "text", "tempting"), may_be_empty=True
)
