"""English prose reports, third sweep of round 13: the machine that "will restart" / "shut off" /
"lost power" under load, generation that became many times slower (Windows' sysmem fallback, or a
driver update), TensorFlow 1.x on the CPU because the CPU package replaced tensorflow-gpu, a CUDA
torch "replaced by" a +cpu one while requirements install, a notebook that does not apply
~/.profile's LD_LIBRARY_PATH, and Task Manager's misleading GPU graph. Each row is verbatim from one
public thread whose fix was confirmed (the reporter says it worked, or a maintainer states cause and
fix); the cause ranks first and its fixes name the knob the confirmed fix turned. Look-alike rows are
real reports of OTHER causes that the new cue phrasings (checks/signatures/*.toml) could
wrongly catch: the tempting cause must not rank first."""

from __future__ import annotations

import pytest

from tests.triage_lines import assert_first_with_knob, lookalike_test

POWER = "hardware.power-insufficient"
TF_CPU = "tensorflow.cpu-package-shadows-gpu"
SYSMEM = "windows.sysmem-fallback-slow"
ABI = "torch.extension-abi-mismatch"
CPUBUILD = "torch.cpu-build-on-gpu-host"

# one verbatim post, a KNOB row (xformers' build mismatch) and a look-alike (not a CPU build)
XFORMERS_AFTER_REINSTALL = (
    "WARNING:xformers:WARNING[XFORMERS]:\n"
    "I reinstalled the Windows system and then the script stopped working. Before that, everything worked fine. Outputs this:\n"
    "\n"
    "WARNING:xformers:WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
    "    PyTorch 2.5.1+cu124 with CUDA 1204 (you have 2.6.0+cu124)\n"
    "    Python  3.10.11 (you have 3.10.0)\n"
    "  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)\n"
    "  Memory-efficient attention, SwiGLU, sparse and more won't be available.\n"
    "  Set XFORMERS_MORE_DETAILS=1 for more details"
)
ENV = "cuda.env-not-inherited"
MISREAD = "platform.gpu-load-misread"

# (message verbatim, the finding id first, text one of its fixes names, thread URL)
KNOB = [
    (
        "PC turns off after starting image generation\n"
        "I am trying to generate images on my other PC and it just shuts down right after staring he first image generation (after 1st sample). I can't know for sure which error it is because it turns off. \n"
        "My PC specs:\n"
        "64GB RAM\n"
        "AMD Ryzen 9 3950X\n"
        "AMD Radeon RX 5700 XT",
        POWER,
        "power supply",
        # maintainer: a duplicate of #1690, a power supply that cannot sustain the GPU
        "https://github.com/lllyasviel/Fooocus/issues/1810",
    ),
    (
        "Computer turns off when using two GPU\n"
        "Hello, \n"
        "\n"
        "I am coming to report a peculiar bug.  We have a computer with 2 GPU (GTX 1080 Ti ). \n"
        "if i use each of them separately for MCXlab, it is working well but if I try to start a simulation using both GPUs, then the computer will turn off after a few seconds. \n"
        "\n"
        "Do you have any idea of what could be causing the issue? ",
        POWER,
        "nvidia-smi -pl",
        # maintainer: the two GPUs' power draw; a contributor: cap it with nvidia-smi -pl
        "https://github.com/fangq/mcx/issues/228",
    ),
    (
        "Error on Training on Pascal VOC 2007\n"
        "I have the same problem,and I set restore=0,but my computer will restart soon and this killed my system. This also made my hard disk broken and I had to reinstall my system...So why I set restore=0 and then the program distory my computer?",
        POWER,
        "power supply",
        # the poster: the GPU drew more than the PSU gave; 500 W -> 600 W, it worked
        "https://github.com/CharlesShang/TFFRCNN/issues/39",
    ),
    (
        "Using GPU?\n"
        "-TensorFlow version? gpu 1.9.0\n"
        "\n"
        "### Describe the problem\n"
        "I run train.py but the gpu utilization showed in nvidia-smi is insignificant. I changed the line \"with tf.device('/cpu:0'):\" to \"with tf.device('/gpu:0'):\" in train.py but nothing changes. Is there a way to activate gpu utilization that I haven't found? Or there is no significant difference between gpu and cpu training?",
        TF_CPU,
        "tensorflow-gpu",
        # reporter: the conda tensorflow-gpu was gone; reinstalled, the GPU is used
        "https://github.com/GeorgeSeif/Semantic-Segmentation-Suite/issues/189",
    ),
    (
        "GPU is detected but training starts on the CPU\n"
        "I'm also facing the same problem. \n"
        "I have installed tensorflow-gpu 1.8, validated installation and uses gpu, but the python code, it says using tensforflow as backend, but still CPU memory is 100% and not using GPU .",
        TF_CPU,
        "tensorflow-gpu",
        # the poster: several tensorflow packages; kept and reinstalled only tensorflow-gpu: GPU listed
        "https://github.com/tensorflow/models/issues/3366",
    ),
    (
        "slow generation after first image\n"
        "when focus first came out and i was using it for a couple of updates, all 4 of my images would have the same generation time, however i updated it after a while and when i used it for some reason after the first image which is 2mins, the image after that becomes like 40min to generate. i have 3060 6gb vram, but like i said when i first used it they were all the same amount of time, dont know what changed",
        SYSMEM,
        "roll back",
        # maintainer: NVIDIA drivers above 532 are sometimes 10x slower; go back to 531
        "https://github.com/lllyasviel/Fooocus/issues/365",
    ),
    (
        "[Nvidia driver] Dont update to: 595.79 (studio)\n"
        "There is something wrong with this driver update, it halves the it/s on both vanilla forge and classic (havent tried neo).\n"
        "\n"
        "Rolling back to 595.71 (studio) resolved the issue.",
        SYSMEM,
        "roll back",
        # reporter: rolling back the driver resolved it
        "https://github.com/Haoming02/sd-webui-forge-classic/issues/1002",
    ),
    (
        "Very slow\n"
        "Got on after not using for a while and now it is taking over an hour to generate 10 images with the same settings I used before to generate 10 in a couple minutes. \n"
        "\n"
        "1660 super\n"
        "Opera \n"
        "Balanced \n"
        "35 steps \n"
        "512x512",
        SYSMEM,
        "low-VRAM",
        # reporter: the Low GPU memory setting made it fast again
        "https://github.com/easydiffusion/easydiffusion/issues/1349",
    ),
    (
        XFORMERS_AFTER_REINSTALL,
        ABI,
        "2.5.1",
        # maintainer: lycoris-lora upgraded torch to 2.6; back to the torch xformers was built for
        "https://github.com/sdbds/musubi-tuner-scripts/issues/4",
    ),
    (
        "Torch does not have CUDA\n"
        "I just updated the program on Windows, and I noticed that it has dumbed down torch to no cuda, and `python check_cuda.py` says no cuda, while I have an RTX 3090 card in the machine. I had CUDA before, so I don't understand.",
        CPUBUILD,
        "download.pytorch.org/whl/cu",
        # maintainer: the old installer's update replaced torch; reinstall
        "https://github.com/rsxdalv/TTS-WebUI/issues/356",
    ),
    (
        "does not detect GPU, generates on CPU\n"
        "### Issue Description\n"
        "\n"
        'I have an RTX2060 6Gb, but the generation process starts on the CPU, in the "System Info" section it says "2.0.0+cpu Autocast half" and an empty stash in the "GPU".\n'
        "\n"
        "At the same time, everything works fine in A1111, all the necessary drivers and CUDA toolkit are installed.\n"
        "\n"
        "How to switch CPU to GPU ?",
        CPUBUILD,
        "+cpu",
        # maintainer: the installer put the CPU torch; uninstall it and let the CUDA one install
        "https://github.com/vladmandic/sdnext/issues/409",
    ),
    (
        "torch in requirements.txt breaks forge neo due to a torch update (torch 2.9.0)\n"
        "@Haoming02 I can confirm. It still fails with the same error.\n"
        "But something is new now.\n"
        "torch 2.8.0+cu128 gets installed and during the installation of the requirements it gets replaced by torch 2.8.0+cpu now.",
        CPUBUILD,
        "whl/cu128",
        # maintainer fixed the requirement that pulled the CPU torch; reporters confirm
        "https://github.com/Haoming02/sd-webui-forge-classic/issues/269",
    ),
    (
        "Notebook cuda version does not follow LD_LIBRARY_PATH\n"
        "I have setup my `.profile` as follows:\n"
        "\n"
        "```\n"
        'if [ -d "/usr/local/cuda-10.1/bin/" ]; then    \n'
        "export PATH=/usr/local/cuda-10.1/bin${PATH:+:${PATH}}    \n"
        "export LD_LIBRARY_PATH=/usr/local/cuda-10.1/lib64${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}}fi\n"
        "```\n"
        "\n"
        "so I correctly load in the shell the right `nvcc` version:\n"
        "\n"
        "But when I start the notebook I get a different older version of cuda:",
        ENV,
        "LD_LIBRARY_PATH",
        # maintainer: the server is not a login shell, so .profile's variables are not applied
        "https://github.com/jupyter/notebook/issues/5871",
    ),
    (
        "Low GPU Usage in Task Manager\n"
        "Sorry about the stupid question I'm really an amateur. So i recently installed downloaded deepfacelab and noticed that while training or extracting faces my GPU usage doesn't go above 20% in task manager. HWMonitor shows 95 -100% usage at all times but task manager shows less than 20%. Other than this i'm not getting any errors and while training it does say running on rtx2070. I am using an i5 9400f and an RTX 2070. My card runs fine while playing games and shows much higher usage in task manager. I have not installed cuda, cudnn or anything else on my PC except for DeepFaceLabCUDA10.1SSE and latest drivers from nvidia. \n"
        "\n"
        "I'm not sure if task manager is showing false values or if my card is not being used properly by this program.",
        MISREAD,
        "Cuda",
        # answer: switch Task Manager's 3D graph to Compute_0 / Cuda; closed
        "https://github.com/iperov/DeepFaceLab/issues/215",
    ),
]


@pytest.mark.parametrize(("text", "finding_id", "knob", "url"), KNOB, ids=[k[3] for k in KNOB])
def test_a_described_problem_gets_its_confirmed_cause_and_knob(text, finding_id, knob, url) -> None:
    assert url.startswith("https://")
    assert_first_with_knob(text + "\n", finding_id, knob)


# (message verbatim, the cause that must not rank first, thread URL)
LOOKALIKE = [
    (
        # Kernel-Power 41 shutdowns at idle after installing a fan-control tool, not under GPU load
        "**Random hard shutdowns (Kernel-Power 41, BugcheckCode 0) after installing Legion-Fan-Controller** (version independent)\n"
        "**Random hard shutdowns (Kernel-Power 41, BugcheckCode 0) – possible correlation with Legion-Fan-Controller**\n"
        "\n"
        "**System:**\n"
        "Lenovo Legion 16ACHg6 (Gen 6, AMD)\n"
        "Ryzen 7 + RTX 3080\n"
        "Windows 11 25H2 (Build 26200.7623)\n"
        "Legion-Fan-Controller v2 and v3 (both affected)\n"
        "\n"
        "**Observed behavior:**\n"
        "Since installing Legion-Fan-Controller, the system has been experiencing random hard shutdowns with no BSOD and no warning. The machine simply powers off instantly.\n"
        "\n"
        "Event Viewer shows Kernel-Power Event ID 41 with BugcheckCode 0 and all parameters null — indicating the OS had no involvement and power was simply cut. This rules out software crashes.",
        POWER,
        "https://github.com/Kangarroar/Legion-Fan-Controller/issues/25",
    ),
    (
        # a laptop losing power in Connected Standby (event 41): firmware, not GPU load
        "Laptop 13 intermittently loses power even plugged in to AC, usually in Connected Standby (ID 41 Windows Event)\n"
        "For awareness, my Laptop 13 with a Gen 12 Mainboard intermittently drops power, usually while plugged in (80%) and in Connected Standby, but at least a couple of times while actively being used.",
        POWER,
        "https://github.com/FrameworkComputer/EmbeddedController/issues/81",
    ),
    (
        # tensorflow-gpu at 0% GPU use: the reporter found the CPU-side data pipeline was the bottleneck
        "GPU Memory Loaded, but 0 Utilization\n"
        "I am trying to restore mobilenet_thin weights and continue training on Ubuntu 16 + CUDA 9.0 + CUDNN 7.5 + Tensorflow-gpu 1.8 with a smaller subset of the coco training data as a proof of concept before I work in my own training data.  I'm using 8 NVIDIA Tesla K80 GPU's through Google Cloud.  \n"
        "\n"
        "I can get the GPU's fully loaded with data (Batch size 96), but the model training isn't executing on the GPU - I see GPU utilization 0%.  I can validate that my GPU configuration works well with an MNIST pipeline and it seems to work just fine.  Any thoughts on why I can't seem to get the train steps to execute on a GPU? I stall out after \"Training started\" with CPU utilization 100%.",
        TF_CPU,
        "https://github.com/ildoonet/tf-pose-estimation/issues/406",
    ),
    (
        # an hour to generate on a Tesla M40: the card and settings, per the maintainer's A100 timing
        "What is the normal generation time?\n"
        "A 3-second audio plus picture, it takes 1 hour to generate the video, the graphics card is Telsa m40. Is it normal?",
        SYSMEM,
        "https://github.com/Zejun-Yang/AniPortrait/issues/127",
    ),
    (
        # the notebook runs another conda environment's Python (a kernel choice), not missing variables
        "Python interpreter not the same in notebook and in terminal\n"
        "**Describe the bug**\n"
        "\n"
        "The Python interpreter is not the same in the notebook and in the terminal.\n"
        "\n"
        "In the notebook, it is `/home/studio-lab-user/.conda/envs/default/bin/python`, while in the terminal, it is `/home/studio-lab-user/.conda/envs/studiolab/bin/python`.",
        ENV,
        "https://github.com/aws/studio-lab-examples/issues/218",
    ),
    (
        # a CUDA torch replaced by another CUDA torch: xformers' build mismatch, not a CPU build
        XFORMERS_AFTER_REINSTALL,
        CPUBUILD,
        "https://github.com/sdbds/musubi-tuner-scripts/issues/4",
    ),
]


test_a_look_alike_report_is_not_read_as_the_cause = lookalike_test(
    LOOKALIKE, ids=[k[2] for k in LOOKALIKE], may_be_empty=True, newline=True
)


def test_the_captured_versions_reach_the_fixes() -> None:
    from envdoctor.triage_engine import triage_text

    tf = triage_text(KNOB[3][0] + "\n").findings[0]
    assert "tensorflow-gpu==1.9.0" in " ".join(c for f in tf.fixes for c in f.commands)
    cpu = triage_text(KNOB[11][0] + "\n").findings[0]
    assert cpu.title.startswith(
        "The CUDA build of torch was replaced by a CPU-only build (torch 2.8.0+cpu)"
    )
