"""Round 16 sweep of WSL 2 and Windows GPU-stack messages (checks/signatures/wsl.toml): WSL 1
told by its kernel (4.4.0-<build>-Microsoft) or in words, the Hyper-V platform WSL 2 needs switched
off (HCS_E_HYPERV_NOT_INSTALLED, HCS_E_SERVICE_NOT_AVAILABLE, "WSL2 is not supported with your
current machine configuration", 0x80370102), the container toolkit's dxcore failing on a Windows
build without GPU paravirtualization, a WSL kernel older than GPU compute needs, and Windows' paging
file. Each message, verbatim from its thread, reaches the cause the thread confirmed first, and one
of that cause's fixes names the knob the confirmed fix turned."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        # maintainer: "That kernel version indicates that you are using WSL1" (the distro was converted)
        "https://github.com/microsoft/WSL/issues/5554",
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\nError! Your kernel headers for kernel 4.4.0-19041-Microsoft cannot be found.\nPlease install the linux-headers-4.4.0-19041-Microsoft package,\nor use the --kernelsourcedir option to tell DKMS where it's located",
        "wsl.wsl1-no-gpu",
        "wsl --set-version",
    ),
    (
        # merged: the installer refuses WSL 1 and names the conversion
        "https://github.com/ollama/ollama/pull/1778",
        "daniel@DESKTOP-PUNI632:/mnt/c/Users/Daniel$ ./install.sh\nERROR WSL1 is not currently supported - please upgrade to WSL2 with 'wsl --set-version <distro> 2'\ndaniel@DESKTOP-PUNI632:/mnt/c/Users/Daniel$ uname -r\n4.4.0-19041-Microsoft",
        "wsl.wsl1-no-gpu",
        "wsl --set-version",
    ),
    (
        # maintainer: "WSL2 has GPU support, WSL1 doesn't"; the reporter switched to WSL 2
        "https://github.com/AbdBarho/stable-diffusion-webui-docker/issues/117",
        "I'm using Windows with WSL1\n\nError response from daemon: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: initialization error: WSL environment detected but no adapters were found: unknown",
        "wsl.wsl1-no-gpu",
        "wsl --set-version",
    ),
    (
        # commenter: "In my case the problem was that I needed to enable virtualization"
        "https://github.com/microsoft/WSL/issues/6306",
        "WslRegisterDistribution failed with error: 0x80370102\nError: 0x80370102 The virtual machine could not be started because a required feature is not installed.",
        "wsl.platform-not-ready",
        "BIOS",
    ),
    (
        # maintainer: virtualization in the BIOS; the reporter had not enabled it (SVM on AMD)
        "https://github.com/MicrosoftDocs/WSL/issues/436",
        "Error 0x80370102 The Virtual machine could not be started because a required feature is not installed ....",
        "wsl.platform-not-ready",
        "BIOS",
    ),
    (
        # Spanish thread: enabling virtualization in the BIOS worked ("Me funciono")
        "https://github.com/IIC2143-2021-1/Syllabus/issues/32",
        "Descargue ubuntu, pero cuando abro la consola me muestra'\nInstalling, this may take a few minutes...\nWslRegisterDistribution failed with error: 0x80370102\nError: 0x80370102 The virtual machine could not be started because a required feature is not installed.'",
        "wsl.platform-not-ready",
        "BIOS",
    ),
    (
        # collaborator asked for hypervisorlaunchtype Auto; the reporter only had to restart the PC
        "https://github.com/microsoft/WSL/issues/8649",
        "Installing, this may take a few minutes...\nWslRegisterDistribution failed with error: 0x80370102\nPlease enable the Virtual Machine Platform Windows feature and ensure virtualization is enabled in the BIOS.\nFor information please visit https://aka.ms/enablevirtualization\nPress any key to continue...",
        "wsl.platform-not-ready",
        "reboot",
    ),
    (
        # commenters: "bcdedit /set hypervisorlaunchtype auto" and a reboot resolved it
        "https://github.com/microsoft/WSL/issues/10332",
        "Error code: Wsl/Service/CreateInstance/CreateVm/HCS/HCS_E_HYPERV_NOT_INSTALLED",
        "wsl.platform-not-ready",
        "hypervisorlaunchtype auto",
    ),
    (
        # an emulator had turned Hyper-V off: reinstalling Virtual Machine Platform made WSL 2 start
        "https://github.com/microsoft/WSL/issues/11117",
        "When I start the VM with Ubuntu, it fails with the error:\n`Error code: Wsl/Service/CreateInstance/CreateVm/HCS/HCS_E_HYPERV_NOT_INSTALLED`",
        "wsl.platform-not-ready",
        "VirtualMachinePlatform",
    ),
    (
        # reporter: "hypervisor services were not fully installed, ticked all the boxes ... rebooted"
        "https://github.com/sakai135/wsl-vpnkit/issues/207",
        "wsl --import wsl-vpnkit --version 2 $env:USERPROFILE\\wsl-vpnkit wsl-vpnkit.tar.gz\nImportation en cours. Cette opération peut prendre quelques minutes.\nL'opération n'a pas pu être démarrée car une fonctionnalité requise n'est pas installée.\nError code: Wsl/Service/CreateVm/HCS_E_SERVICE_NOT_AVAILABLE",
        "wsl.platform-not-ready",
        "VirtualMachinePlatform",
    ),
    (
        # collaborator: virtualization on in the BIOS and bcdedit's hypervisorlaunchtype Auto
        "https://github.com/microsoft/WSL/issues/8793",
        "The operation could not be started because a required feature is not installed.\nError code: Wsl/Service/CreateInstance/CreateVm/HCS_E_SERVICE_NOT_AVAILABLE",
        "wsl.platform-not-ready",
        "hypervisorlaunchtype auto",
    ),
    (
        # the message names the command that enables Virtual Machine Platform
        "https://github.com/microsoft/WSL/issues/12638",
        'C:\\Users\\devan>wsl --install -d kali-linux\nDownloading: Kali Linux Rolling\nInstalling: Kali Linux Rolling\nWSL2 is not supported with your current machine configuration.\nPlease enable the "Virtual Machine Platform" optional component and ensure virtualization is enabled in the BIOS.\nEnable "Virtual Machine Platform" by running: wsl.exe --install --no-distribution\nFor information please visit https://aka.ms/enablevirtualization',
        "wsl.platform-not-ready",
        "wsl.exe --install --no-distribution",
    ),
    (
        # NVIDIA maintainer: no libdxcore means a Windows build without WSL GPU support (21H2 /
        # 19044+); the reporter closed it to wait for the Windows update
        "https://github.com/NVIDIA/nvidia-docker/issues/1542",
        "WSL2 error: dxcore initialization failed, continuing assuming a non-WSL environment\n\nnvidia-container-cli simply does not work on WSL2 'cause dxcore initialization failed. It will assume non-WSL env and unable to proceed 'cause I didn't install cuda on WSL2.",
        "wsl.windows-too-old",
        "winver",
    ),
    (
        # reporter: the WSL kernel was 5.10.16.3, below the 5.10.43.3 GPU compute needs; updating
        # WSL (kernel 5.15.153.1) fixed it
        "https://github.com/vllm-project/vllm/issues/6184",
        '[Usage]: solve problem like "Found no NVIDIA driver on your system." in WSL2\n\nIn WSL2, after I update vllm from v0.5.0.post1 to v0.5.1, all model unable to load immediately.\nand I get "Linux version 5.10.16.3-microsoft-standard-WSL2 (oe-user@oe-host)"',
        "wsl.kernel-too-old-for-gpu",
        "wsl --update",
    ),
    (
        # maintainer (Chinese title): the page file is too small; enlarge it under Virtual memory
        "https://github.com/bmaltais/kohya_ss/issues/449",
        "[WinError 1455] 页面文件太小，无法完成操作",
        "windows.pagefile-too-small",
        "Virtual memory",
    ),
]


test_message_reaches_its_cause_with_the_knob = knob_test(
    KNOB, columns=("source", "text", "finding_id", "knob")
)


# real messages of other causes that the new patterns could catch: (thread, message, the cause
# that must not rank first)
LOOKALIKE = [
    (
        # Docker Desktop without WSL 1 in sight: the toolkit finds no adapter, not WSL 1
        "https://github.com/OpenBMB/UltraRAG/issues/12",
        "docker启动报了错：\nError response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: initialization error: WSL environment detected but no adapters were found: unknown",
        "wsl.wsl1-no-gpu",
    ),
    (
        # a server with two L20 under Docker Desktop: the same toolkit message, no WSL 1
        "https://github.com/duixcom/Duix-Avatar/issues/470",
        "设备是一个自己搭建的小型服务器，有2张英伟达L20显卡，cpu是intel的。\nError response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running prestart hook #0: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: initialization error: WSL environment detected but no adapters were found: unknown",
        "wsl.wsl1-no-gpu",
    ),
    (
        # nvidia-ctk on NixOS-WSL does not find libdxcore by itself (maintainer: LD_PRELOAD or
        # --mode wsl): not an old Windows build
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/452",
        "WSL NixOS `cdi generate` Error: failed to initialize dxcore context",
        "wsl.windows-too-old",
    ),
    (
        # a current WSL 2 kernel (5.10.102.1): not the old-kernel cause, and not WSL 1
        "https://github.com/microsoft/WSL/issues/9254",
        "I tried setting up Pytorch with CUDA in WSL but it just doesn't pick up my GPU. `torch.cuda.is_available()` returns `False`.\nI'm on `Microsoft Windows [Version 10.0.19044.2251]`\nPython platform: Linux-5.10.102.1-microsoft-standard-WSL2-x86_64-with-glibc",
        "wsl.kernel-too-old-for-gpu",
    ),
    (
        "https://github.com/microsoft/WSL/issues/9254",
        "I tried setting up Pytorch with CUDA in WSL but it just doesn't pick up my GPU. `torch.cuda.is_available()` returns `False`.\nI'm on `Microsoft Windows [Version 10.0.19044.2251]`\nPython platform: Linux-5.10.102.1-microsoft-standard-WSL2-x86_64-with-glibc",
        "wsl.wsl1-no-gpu",
    ),
]


test_lookalike_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, columns=("source", "text", "tempting")
)
