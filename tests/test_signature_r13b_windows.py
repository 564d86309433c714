"""Windows DLLs, WSL2 and conda (checks/signatures/{windows,python_env,cuda,torch}.toml and the existing Windows, WSL
and conda causes): each message, verbatim from a public thread where the fix was confirmed (or a
maintainer stated cause and fix), reaches that cause first with a fix naming the knob it turned."""

from __future__ import annotations

import pytest

from tests.triage_lines import assert_first_with_knob, lookalike_test

# (message verbatim from the thread, the finding id first, the knob one of its fixes names, thread)
KNOB = [
    (
        'OSError: [WinError 126] Le module spécifié est introuvable. Error loading "C:\\ai\\stable-diffusion-webui\\venv\\lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.\nAppuyez sur une touche pour continuer...',
        "windows.dll-dependency-missing",
        "VCRedist",
        "https://github.com/huggingface/diffusers/issues/5247",
    ),
    (
        "Server execution error: The paging file is too small for this operation to complete. (os error 1455)",
        "windows.pagefile-too-small",
        "page",
        "https://github.com/Acly/krita-ai-diffusion/issues/1898",
    ),
    (
        'OSError: [WinError 1455] 页面文件太小，无法完成操作。 Error loading "F:\\anaconda3\\envs\\pytorch\\lib\\site-packages\\torch\\lib\\caffe2_detectron_ops_gpu.dll" or one of its dependencies.',
        "windows.pagefile-too-small",
        "page",
        "https://github.com/yassouali/pytorch-segmentation/issues/118",
    ),
    (
        '"Starting processing of all songs\nProcessing C:\\Users\\Dennis\\Downloads\\WhatsApp Audio 2023-08-10 at 12.19.32 PM.mpeg\nCould not locate zlibwapi.dll. Please make sure it is in your library path!\nFinished processing all songs"',
        "windows.cudnn-zlibwapi-missing",
        "zlibwapi",
        "https://github.com/boy1dr/SpleeterGui/issues/206",
    ),
    (
        "战斗结束后，搜索声骸大概率爆Could not locate zlibwapi.dll. Please make sure it is in your library path!\n然后程序就暂停不动了。",
        "windows.cudnn-zlibwapi-missing",
        "zlibwapi",
        "https://github.com/lazydog28/mc_auto_boss/issues/287",
    ),
    (
        "请问这个报错如何解决呢 Library cublas64_11.dll is not found or cannot be loaded",
        "windows.cuda-runtime-dll-missing",
        "cublas64_11",
        "https://github.com/jianchang512/stt/issues/52",
    ),
    (
        "ldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link\nEverytime installing package it hapened!",
        "wsl.libcuda-not-symlink",
        "mklink",
        "https://github.com/microsoft/WSL/issues/11229",
    ),
    (
        "CommandNotFoundError: Your shell has not been properly configured to use 'conda activate'.\nIf your shell is Bash or a Bourne variant, enable conda for the current user with\n\n    $ echo \". /home/dileep/anaconda3/etc/profile.d/conda.sh\" >> ~/.bashrc",
        "python.env-mismatch",
        "conda.sh",
        "https://github.com/segrelab/MiCoNE/issues/107",
    ),
    (
        'I found that if I only retained the third line of test.sh, that is, "conda activate whdenovo", and bash it (bash test.sh), then the above error will appeared. However, if I type "conda activate whdenovo" in terminal, it works.\nCommandNotFoundError: Your shell has not been properly configured to use \'conda activate\'',
        "python.env-mismatch",
        "conda shell.bash hook",
        "https://github.com/shilpagarg/DipAsm/issues/29",
    ),
    (
        "(base) hyeuk@hyeuk-GA:~/Projects/shakemap_src$ bash ./install.sh \nUsing python version 3.6\nconda 4.7.10\nconda detected, installing shakemap environment...\nActivate base virtual environment\n\nCommandNotFoundError: Your shell has not been properly configured to use 'conda activate'.\nTo initialize your shell, run\n\n    $ conda init <SHELL_NAME>",
        "python.env-mismatch",
        "conda shell.bash hook",
        "https://github.com/usgs/shakemap/issues/988",
    ),
    (
        "C:\\Users\\jhutber\\botty>conda activate botty\n\nCommandNotFoundError: Your shell has not been properly configured to use 'conda activate'.\nIf using 'conda activate' from a batch script, change your\ninvocation to 'CALL conda.bat activate'.\n\nTo initialize your shell, run\n\n    $ conda init <SHELL_NAME>",
        "python.env-mismatch",
        "conda init",
        "https://github.com/johannes-do/botty/issues/818",
    ),
    (
        "(base) C:\\openvoice>conda install pytorch==1.13.1 torchvision==0.14.1 torchaudio==0.13.1 cudatoolkit=11.7 -c pytorch -c nvidia\nCollecting package metadata (current_repodata.json): done\nSolving environment: unsuccessful initial attempt using frozen solve. Retrying with flexible solve.\n\nPackagesNotFoundError: The following packages are not available from current channels:\n\n  - cudatoolkit=11.7\n\nCurrent channels:\n\n  - https://conda.anaconda.org/pytorch/win-64\n  - https://conda.anaconda.org/pytorch/noarch\n  - https://conda.anaconda.org/nvidia/win-64",
        "cuda.conda-pip-cuda-mixed",
        "pytorch-cuda",
        "https://github.com/myshell-ai/OpenVoice/issues/83",
    ),
    (
        "C:\\tut\\IDM-VTON>conda env create -f environment.yaml\nPlatform: win-64\nCollecting package metadata (repodata.json): done\nSolving environment: failed\n\nPackagesNotFoundError: The following packages are not available from current channels:\n\n  - torchtriton==2.0.0=py310\n  - pytorch-cuda==11.8=h7e8668a_5\n  - pytorch==2.0.1=py3.10_cuda11.8_cudnn8.7.0_0\n  - python==3.10.0=h12debd9_5\n  - pip==23.3.1=py310h06a4308_0",
        "conda.env-file-other-platform",
        "no-builds",
        "https://github.com/yisol/IDM-VTON/issues/40",
    ),
    (
        "Solving environment: ...working... failed\n  PackagesNotFoundError: The following packages are not available from current channels:\n    - torch[version='>=0.4.1']\n  Current channels:\n    - https://repo.anaconda.com/pkgs/main/win-64",
        "conda.torch-package-name",
        "pytorch",
        "https://github.com/cleardusk/3DDFA/issues/133",
    ),
    (
        "ERROR: Could not install packages due to an OSError: [Errno 2] No such file or directory: 'C:\\\\Users\\\\IV\\\\AppData\\\\Local\\\\Temp\\\\pip-install-htgsdaan\\\\xformers_4296401f5c784b6a868332960ac6ef11\\\\third_party\\\\flash-attention\\\\csrc\\\\composable_kernel\\\\client_example\\\\24_grouped_conv_activation\\\\grouped_convnd_bwd_data_bilinear\\\\grouped_conv_bwd_data_bilinear_residual_fp16.cpp'\nHINT: This error might have occurred since this system does not have Windows Long Path support enabled. You can find information on how to enable this at https://pip.pypa.io/warnings/enable-long-paths",
        "windows.long-paths-disabled",
        "LongPathsEnabled",
        "https://github.com/TrajectoryCrafter/TrajectoryCrafter/issues/18",
    ),
    (
        "ERROR: Could not install packages due to an OSError: [Errno 2] No such file or directory: 'C:\\\\Users\\\\<user-name>\\\\AppData\\\\Local\\\\Packages\\\\PythonSoftwareFoundation.Python.3.10_qbz5n2kfra8p0\\\\LocalCache\\\\local-packages\\\\Python310\\\\site-packages\\\\vulncheck_sdk\\\\models\\\\render_response_with_metadata_array_advisory_becton_dickinson_advisory_paginate_pagination.py'\nHINT: This error might have occurred since this system does not have Windows Long Path support enabled. You can find information on how to enable this at https://pip.pypa.io/warnings/enable-long-paths",
        "windows.long-paths-disabled",
        "LongPathsEnabled",
        "https://github.com/vulncheck-oss/sdk-python/issues/1",
    ),
    (
        "ERROR: Could not install packages due to an EnvironmentError: [Errno 2] No such file or directory: 'C:\\\\Users\\\\myuser\\\\AppData\\\\Local\\\\Packages\\\\PythonSoftwareFoundation.Python.3.7_qbz5n2kfra8p0\\\\LocalCache\\\\local-packages\\\\Python37\\\\site-packages\\\\tensorboard\\\\_vendor\\\\tensorflow_serving\\\\sources\\\\storage_path\\\\__pycache__\\\\file_system_storage_path_source_pb2.cpython-37.pyc'",
        "windows.long-paths-disabled",
        "LongPathsEnabled",
        "https://github.com/pypa/pip/issues/7398",
    ),
    (
        "ERROR: Could not install packages due to an OSError: [Errno 2] No such file or directory: 'C:\\\\Temp\\\\pip-install-kbhuwt7y\\\\flash-attn_fc9d8f2226254f13ac13d4f7db12c1ea\\\\csrc/composable_kernel/library/src/tensor_operation_instance/gpu/batched_gemm_add_relu_gemm_add/device_batched_gemm_add_relu_gemm_add_xdl_cshuffle_f16_f16_f16_f16_gmk_gnk_gno_gmo_instance.cpp'\nHINT: This error might have occurred since this system does not have Windows Long Path support enabled. You can find information on how to enable this at https://pip.pypa.io/warnings/enable-long-paths",
        "windows.long-paths-disabled",
        "LongPathsEnabled",
        "https://github.com/Dao-AILab/flash-attention/issues/1631",
    ),
    (
        "Python 3.11.1 , even with nightly version of PyTorch: ERROR: No matching distribution found for torch\nDefaulting to user installation because normal site-packages is not writeable\nLooking in indexes: https://pypi.org/simple, https://pypi.ngc.nvidia.com, https://download.pytorch.org/whl/cu117\nERROR: Could not find a version that satisfies the requirement torch (from versions: none)\nERROR: No matching distribution found for torch",
        "torch.python-unsupported",
        "python",
        "https://github.com/pytorch/pytorch/issues/91543",
    ),
    (
        "ERROR: Could not find a version that satisfies the requirement torch==1.10.0+cu113 (from versions: none)\nERROR: No matching distribution found for torch==1.10.0+cu113 \nwhat should i do?",
        "torch.python-unsupported",
        "python",
        "https://github.com/zeyad-mansour/lunar/issues/95",
    ),
    (
        "`libmamba` reported it was unable to resolve the environment due to `pytorch-cuda>=11.7`. Relaxed restriction to `pytorch-cuda>=11.6 ` and was able to install the environment",
        "cuda.conda-pip-cuda-mixed",
        "pytorch-cuda",
        "https://github.com/TorchSpatiotemporal/tsl/issues/37",
    ),
    (
        'I\'m using python3.13 to develop a project, and I need to use the Whisper library, which depends on the Pytorch library, but I encountered the problem of "unable to find the applicable version" when pip, and after checking the Internet, I found that the Pytorch library does not support python 3.13 version! So please support python 3.13! （Windows10 32bit）',
        "torch.python-unsupported",
        "64-bit",
        "https://github.com/pytorch/pytorch/issues/149823",
    ),
    (
        "Looking in links: https://download.pytorch.org/whl/cu113/torch_stable.html\nERROR: Could not find a version that satisfies the requirement torch==1.10.0+cu113 (from versions: 0.1.2, 0.1.2.post1, 0.1.2.post2)\nERROR: No matching distribution found for torch==1.10.0+cu113",
        "torch.python-unsupported",
        "python",
        "https://github.com/pytorch/pytorch/issues/67669",
    ),
    (
        "`GLIBCXX_3.4.30' not found for importing _limap",
        "python.libstdcxx-too-old",
        "libstdc++",
        "https://github.com/cvg/limap/issues/2",
    ),
    (
        "ImportError: DLL load failed while importing fugashi: The specified module could not be found.\nForgot to mention this is on the windows store installation of python 3.8",
        "windows.store-python",
        "python.org",
        "https://github.com/kha-white/manga-ocr/issues/2",
    ),
    (
        "from torch._C import * (ImportError: DLL load failed)\nFile operations ended with \nNAME NOT FOUND \n\\PythonSoftwareFoundation.Python.3.7_3.7.1776.0_x64__qbz5n2kfra8p0\\torch_python.dll\n\\PythonSoftwareFoundation.Python.3.7_qbz5n2kfra8p0\\LocalCache\\local-packages\\Python37\\site-packages\\torch\\torch_python.dll",
        "windows.store-python",
        "python.org",
        "https://github.com/pytorch/pytorch/issues/32916",
    ),
    (
        "By the way, here is how my Anaconda rlpyt env installed:\n\n> conda env create -f linux_cuda10.yml\n\nAssertionError: Torch not compiled with CUDA enabled",
        "torch.cpu-build-on-gpu-host",
        "cudatoolkit",
        "https://github.com/astooke/rlpyt/issues/146",
    ),
]


@pytest.mark.parametrize(("text", "finding_id", "knob", "url"), KNOB, ids=[k[3] for k in KNOB])
def test_a_common_message_gets_its_cause_and_the_knob(text, finding_id, knob, url) -> None:
    assert url.startswith("https://")
    assert_first_with_knob(text + "\n", finding_id, knob)


# real messages of other causes that a new pattern could catch: not read as that cause
LOOKALIKE = [
    # a DLL load failure from a conda environment (no Microsoft Store Python): not the Store cause
    (
        "~\\.conda\\envs\\py3\\lib\\site-packages\\torch\\__init__.py in <module>\n     79 del _dl_flags\n"
        "     80 \n---> 81 from torch._C import *\n\nImportError: DLL load failed: The specified module could not be found.",
        "windows.store-python",
        "https://github.com/pytorch/pytorch/issues/28363",
    ),
    # a version pin the channels lack (no build strings, no package named torch)
    (
        "PackagesNotFoundError: The following packages are not available from current channels:\n\n"
        "  - cudatoolkit=11.7\n\nCurrent channels:\n\n  - https://conda.anaconda.org/pytorch/win-64",
        "conda.env-file-other-platform",
        "https://github.com/myshell-ai/OpenVoice/issues/83",
    ),
    (
        "PackagesNotFoundError: The following packages are not available from current channels:\n\n"
        "  - cudatoolkit=11.7\n\nCurrent channels:\n\n  - https://conda.anaconda.org/pytorch/win-64",
        "conda.torch-package-name",
        "https://github.com/myshell-ai/OpenVoice/issues/83",
    ),
    # torchaudio / torchvision / pytorch on an aarch64 channel list: conda's names, not "torch"
    (
        "PackagesNotFoundError: The following packages are not available from current channels:\n\n"
        "  - torchaudio==0.9.0\n  - pytorch==1.9.0\n  - torchvision==0.10.0\n\nCurrent channels:\n\n"
        "  - https://conda.anaconda.org/pytorch/linux-aarch64",
        "conda.torch-package-name",
        "https://github.com/pytorch/pytorch/issues/118172",
    ),
    (
        "PackagesNotFoundError: The following packages are not available from current channels:\n\n"
        "  - torchaudio==0.9.0\n  - pytorch==1.9.0\n  - torchvision==0.10.0\n\nCurrent channels:\n\n"
        "  - https://conda.anaconda.org/pytorch/linux-aarch64",
        "conda.env-file-other-platform",
        "https://github.com/pytorch/pytorch/issues/118172",
    ),
    (
        "PackagesNotFoundError: The following packages are not available from current channels:\n\n  - cudatoolkit=10.2",
        "conda.torch-package-name",
        "https://github.com/juglab/EmbedSeg/issues/26",
    ),
]


test_a_lookalike_does_not_get_the_new_cause = lookalike_test(
    LOOKALIKE, may_be_empty=True, newline=True
)


def test_an_old_cuda_folder_the_index_table_does_not_list_is_not_called_missing() -> None:
    """cu113 (torch 1.10-1.12) predates the torch_index table's first folder: unknown, not a folder
    PyTorch never published; the 0.1.2 placeholder tells the Python instead."""
    from envdoctor.triage_engine import triage_text

    findings = triage_text(KNOB[22][0] + "\n").findings
    assert "torch.index-variant-missing" not in [f.id for f in findings[:3]]


def test_a_pin_pip_lists_other_torch_releases_for_is_not_the_placeholder_reading() -> None:
    """An old pin with real releases listed (Python fine, release too old): not 'only the 0.1.2
    placeholder' (https://github.com/YassineYousfi/comma10k-baseline/issues/13)."""
    from envdoctor.triage_engine import triage_text

    text = (
        "ERROR: Could not find a version that satisfies the requirement torch==1.8.1 (from versions: "
        "1.13.0, 1.13.1, 2.0.0, 2.0.1, 2.1.0, 2.1.1, 2.1.2, 2.2.0, 2.2.1, 2.2.2, 2.3.0, 2.3.1, 2.4.0, "
        "2.4.1, 2.5.0, 2.5.1, 2.6.0, 2.7.0, 2.7.1, 2.8.0)\n"
        "ERROR: No matching distribution found for torch==1.8.1\n"
    )
    first = triage_text(text).findings[0]
    assert first.id == "torch.python-unsupported"
    assert "0.1.2 placeholder" not in first.title
