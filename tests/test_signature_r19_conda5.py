"""conda / pip environments, round 19 (conda5): pip installing into another Python than the
activated environment's (fixed by python -m pip, or by installing pip into the environment), a
Python without the environment's packages (two Pythons on PATH), and an environment's libstdc++
not used because LD_LIBRARY_PATH points elsewhere (fixed by pointing it at $CONDA_PREFIX/lib).
Each verbatim opening post reaches its cause first and one of its fixes names the knob the
thread's confirmed fix turned; look-alike rows are real messages of other causes that the new
phrasings must not read as these."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # the reporter: `python -m pip install -e .` installed into the env; `which python`/`which pip`
    # pointed to different directories, fixed in ~/.zshrc (reporter)
    (
        "Have anyone tried to install pyschism to a defined conda environment on a Mac M1 chip?\n\nI used conda to create a new environment and activated it. However, if I use\n`pip install -e .`\nThe package was always installed in my python 3.11 folder.\n\nI have to use the below method to successfully install to a conda environment.\n` python -m pip install -e . `\n\nI'm not sure if this is an issue with the M1 chip, but I have had some similar situations before.",
        "python.env-mismatch",
        "python -m pip",
        "https://github.com/schism-dev/pyschism/issues/90",
    ),
    # the reporter: pip was missing from the conda environment; the environment's own pip worked
    (
        "following the conda install instructions below, the pip command uses the root pip which installs packages outside the environment. Can you please edit these instructions so that does not happen?\n\nThanks,\n\nTheo\n\ngit clone https://github.com/brunoasm/varKoder\ncd varKoder\nconda env create --file conda_environments/linux.yml\nconda activate varKoder\npip install . #uses root install - on hpc cluster this means the home directory becomes over quota very rapidly. Need to be able to install to the env in the env location, e.g. attached storage, not /home/user",
        "python.env-mismatch",
        "conda install pip",
        "https://github.com/brunoasm/varKoder/issues/29",
    ),
    # the maintainer (casperdcl confirms the cause) : use `python -m pip`; the repo switched to it
    (
        "On my system, `pip` is the wrong version for my (conda) Python. (Reason: I have `conda activate myenv` in my `.bashrc`, but my `.profile` prepends `~/.local/bin`, and @casperdcl confirms bash sources `.profile` *after* `.bashrc).\n\nTherefore, the following fails for me",
        "python.env-mismatch",
        "python -m pip",
        "https://github.com/ETSInitiative/PETSIRD/issues/143",
    ),
    # the maintainer: two Python installations (pip.exe and python.exe are Python35's, not
    # Anaconda's): run it from the Anaconda Prompt / the Anaconda Python
    (
        "I ran the following to installed Pytorch on my windows 10.\n``` conda install pytorch-cpu -c pytorch ```\n\nBut when I tried to import torch, I get the following error:\n``` ImportError: No module named 'torch' ```\n\ni did a \"conda list\" and verified that pytorch was install:\n``` pytorch-cpu               0.4.1           py36_cpuhe774522_1    pytorch ```\n\nDoes anyone know how to resolve this?",
        "python.env-mismatch",
        "Anaconda Prompt",
        "https://github.com/pytorch/pytorch/issues/12004",
    ),
    # the reporter: `export LD_LIBRARY_PATH=$CONDA_PREFIX/lib/` made everything work
    (
        "My project needs `GLIBCXX_3.4.29`, as stated when running `pytest` gets this error:\n\n```\nE ImportError: /home/matiasduran/anaconda3/lib/libstdc++.so.6: version `GLIBCXX_3.4.29' not found (required by /home/matiasduran/anaconda3/envs/new-object-detection/lib/python3.7/site-packages/scipy/spatial/ckdtree.cpython-37m-x86_64-linux-gnu.so)\n```\n\nWhen running locally on my laptop, everything works, because the OS or base environment has the needed version of `glibcxx`, but when running on some servers, the version is older, and `strings /home/matiasduran/anaconda3/lib/libstdc++.so.6 | grep GLIBCXX` only shows up to `GLIBCXX_3.4.28`",
        "python.libstdcxx-too-old",
        "LD_LIBRARY_PATH",
        "https://github.com/conda/conda/issues/12410",
    ),
    # the maintainer traced it to LD_LIBRARY_PATH pointing at the env's (missing) lib64; adding the
    # env's lib to LD_LIBRARY_PATH fixed it (reporter)
    (
        "Trying to run MCore I ran into:\n\n```txt\n2024-05-07 18:21:07.301 /lib64/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /home/burta2/software/warptools-dev/repo/Release/linux-x64/publish/libLibTorchSharp.so)\n```\n\nWhich was weird because `ldd /home/burta2/software/warptools-dev/repo/Release/linux-x64/publish/libLibTorchSharp.so` gave\n\n```txt\nlibstdc++.so.6 => /home/burta2/mambaforge/envs/warp_build/lib/libstdc++.so.6 (0x0000146aa6b5d000)\n```",
        "python.libstdcxx-too-old",
        "LD_LIBRARY_PATH",
        "https://github.com/warpem/warp/issues/54",
    ),
    # the author's own record: pip kept saying "already satisfied" from ~/.local; installing with
    # the environment's interpreter (.../envs/demo/bin/python -m pip install) is among the fixes
    (
        "在 conda 虚拟环境中执行:\nconda activate myenv\npip install xxx\n终端提示:\nRequirement already satisfied: xxx in /home/user/.local/lib/python3.10/site-packages\n随后运行项目:\npython main.py\n抛出:\nModuleNotFoundError: No module named 'xxx'\n明明 pip 说装好了,运行时却找不到。",
        "python.env-mismatch",
        "python -m pip",
        "https://jishuzhan.net/article/1946864710611152897",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # the maintainer: follow PyTorch's install instructions for CUDA support (a CPU build), not
    # another interpreter
    (
        "I have installed pytorch1.3.0 successfully, but print (torch.cuda.is_available) is False, how can I solve this problem?",
        "python.env-mismatch",
        "https://github.com/pyg-team/pytorch_geometric/issues/738",
    ),
    # conda could not solve pytorch with the environment's qt: the offline package fixed it
    (
        'Solving environment: failed\n\nUnsatisfiableError: The following specifications were found to be in conflict:\n  - pytorch\n  - qt -> icu=58 -> *[track_features=vc14]\n  - qt -> icu=58 -> vc==14\nUse "conda info <package>" to see the dependencies for each package.',
        "python.env-mismatch",
        "https://github.com/peterjc123/pytorch-scripts/issues/3",
    ),
    # a conda-forge opencv's libtiff needs newer libjpeg symbols: a package mix, not the interpreter
    (
        "ImportError: /home/username/anaconda3/envs/lerobot/lib/python3.10/site-packages/cv2/python-3.10/../../../.././libtiff.so.6: undefined symbol: jpeg12_write_raw_data, version LIBJPEG_8.0",
        "python.libstdcxx-too-old",
        "https://github.com/huggingface/lerobot/issues/742",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
