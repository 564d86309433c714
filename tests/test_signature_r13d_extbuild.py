"""Round 13d sweep of prebuilt extension wheels and builds in the OpenMMLab / 3D / graph ecosystem
(checks/signatures/{extensions,torch}.toml and the entries it touched in checks/signatures/*.toml, torch.toml and
checks/signatures/*.toml): each message, verbatim from its thread, reaches the cause the thread confirmed first,
and one of that cause's fixes names the knob the confirmed fix turned."""

from __future__ import annotations

import pytest
from triage_lines import source_knob_test

from envdoctor.triage_engine import triage_text

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        "https://github.com/wzzheng/TPVFormer/issues/48",
        "我按照给的环境配置，最后一直出现这个错误，mmcv-full==1.4.0我通过pip安装不上，最后是通过mim install mmcv==1.4.0装上的，但是一直报错No module named 'mmcv._ext'，请问怎么解决",
        "mmcv.ops-not-built",
        "mmcv-full",
    ),
    (
        "https://github.com/rusty1s/pytorch_scatter/issues/348",
        "OSError: /root/miniconda3/envs/nerf/lib/python3.10/site-packages/torch_scatter/_version_cuda.so: undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSs",
        "torch.extension-abi-mismatch",
        "data.pyg.org",
    ),
    (
        "https://github.com/xmlyqing00/AFB-URR/issues/7",
        "OSError: /GPUFS/.conda/envs/tor17/lib/python3.6/site-packages/torch_scatter/_version_cuda.so: undefined symbol: _ZN3c105ErrorC1ENS_14SourceLocationESs",
        "torch.extension-abi-mismatch",
        "data.pyg.org",
    ),
    (
        "https://github.com/pyg-team/pytorch_geometric/issues/3486",
        "OSError: /usr/local/lib/python3.7/dist-packages/torch_sparse/_convert_cuda.so: undefined symbol: _ZNK2at6Tensor5zero_Ev",
        "torch.extension-abi-mismatch",
        "data.pyg.org",
    ),
    (
        "https://github.com/facebookresearch/pytorch3d/issues/1608",
        '>>> import torch\n>>> import pytorch3d\n>>> from pytorch3d import _C\nTraceback (most recent call last):\n  File "<stdin>", line 1, in <module>\nImportError: /home/fwj/anaconda3/envs/pyfwj/lib/python3.10/site-packages/pytorch3d/_C.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZNK3c1010TensorImpl18compute_contiguousEv',
        "torch.extension-abi-mismatch",
        "pytorch3d",
    ),
    (
        "https://github.com/facebookresearch/pytorch3d/issues/562",
        "ImportError: /usr/local/lib/python3.6/dist-packages/pytorch3d/_C.cpython-36m-x86_64-linux-gnu.so: undefined symbol: _ZN3c104impl23ExcludeDispatchKeyGuardC1ENS_11DispatchKeyE",
        "torch.extension-abi-mismatch",
        "pytorch3d",
    ),
    (
        "https://github.com/traveller59/spconv/issues/367",
        "ImportError: cannot import name 'ConvFwdAndBwdInput' from 'cumm.conv.main'",
        "spconv.cumm-version-mismatch",
        "cumm",
    ),
    (
        "https://github.com/traveller59/spconv/issues/337",
        "ImportError: arg(): could not convert default argument 'indice_pair_mask: tv::Tensor' in function 'generate_subm_conv_inds' into a Python object (type not registered yet?)",
        "spconv.cumm-version-mismatch",
        "cumm",
    ),
    (
        "https://github.com/chensnathan/SpatialFlow/issues/8",
        "AssertionError: MMCV==1.2.0 is used but incompatible. Please install mmcv>=1.0.5, <=1.0.5.",
        "mmcv.version-incompatible",
        "1.0.5",
    ),
    (
        "https://github.com/YiqunChen1999/date/issues/1",
        "运行报错： MMCV==1.7.1 is used but incompatible. Please install mmcv>=2.0.0rc4, <2.1.0.",
        "mmcv.version-incompatible",
        "mmdet 2",
    ),
    (
        "https://github.com/Vchitect/VBench/issues/148",
        "UnImplemented dimension Human_Anatomy! MMCV==2.2.0 is used but incompatible. Please install mmcv>=2.0.0rc4 < 2.1.0",
        "mmcv.version-incompatible",
        "mmcv_maximum_version",
    ),
    (
        "https://github.com/judian17/ComfyUI-SDPose-OOD/issues/3",
        "Cannot import D:\\ComfyUI\\custom_nodes\\ComfyUI-SDPose-OOD module for custom nodes: MMCV==2.2.0 is used but incompatible. Please install mmcv>=2.0.0rc4, <2.2.0.",
        "mmcv.version-incompatible",
        "2.1.0",
    ),
    (
        "https://github.com/TMElyralab/Comfyui-MusePose/issues/24",
        "MMCV==2.2.0 is used but incompatible.",
        "mmcv.version-incompatible",
        "mmcv_maximum_version",
    ),
    (
        "https://github.com/open-mmlab/mmcv/issues/2502",
        "AssertionError: MMCV==2.0.0rc3 is used but incompatible. Please install mmcv>=1.3.17, <=1.8.0.",
        "mmcv.version-incompatible",
        "mmdet 3",
    ),
    (
        "https://github.com/open-mmlab/mmagic/issues/1756",
        "AssertionError: mmcv==1.7.1 is used but incompatible. Please install mmcv-full>=(2, 0, 0, 0, -1, 1), <(2, 1, 0, 0, 0, 0).",
        "mmcv.version-incompatible",
        "mmcv-full",
    ),
    (
        "https://github.com/GuanxingLu/ManiGaussian/issues/41",
        "When I install Gaussian Splatting Renderer, runing `pip install -e submodules/diff-gaussian-rasterization`.\nthe problem i meeted is **glm/glm.hpp: No such file or directory**.",
        "torch.extension-build-failed",
        "libglm-dev",
    ),
    (
        "https://github.com/open-mmlab/mmdetection/issues/281",
        "`No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'`",
        "torch.cuda-build-without-gpu",
        "GPU node",
    ),
    (
        "https://github.com/NVlabs/tiny-cuda-nn/issues/183",
        "I am trying to build the pytorch bindings, but I am unable to because lcuda was not found on my system. \n`ld: cannot find -lcuda ` \nI have cuda installed in `/usr/local/cuda-11.3` and added `/usr/local/cuda-11.3/bin` to my `$PATH` and `/usr/local/cuda-11.3/lib64/` to my `$LD_LIBRARY_PATH`. \n\nI am able to build the library itself with cmake, but no success with the torch bindings. \nThe g++ command fails since it is unable to find lcuda.",
        "cuda.link-library-not-found",
        "libcuda.so",
    ),
    (
        "https://github.com/NVlabs/nvdiffrast/issues/116",
        "FAILED: nvdiffrast_plugin_gl.so \nc++ common.o glutil.o rasterize_gl.o torch_bindings_gl.o torch_rasterize_gl.o -shared -lGL -lEGL -L/opt/conda/lib/python3.9/site-packages/torch/lib -lc10 -lc10_cuda -ltorch_cpu -ltorch_cuda_cu -ltorch_cuda_cpp -ltorch -ltorch_python -L/opt/conda/lib64 -lcudart -o nvdiffrast_plugin_gl.so\n/usr/bin/ld: cannot find -lcudart\ncollect2: error: ld returned 1 exit status\nninja: build stopped: subcommand failed.",
        "cuda.link-library-not-found",
        "cudart",
    ),
    (
        "https://github.com/Ruyi-Zha/naf_cbct/issues/15",
        "I configured the environment to run on RTX3090 with this \"nvcc fatal: Unsupported gpu architecture 'compute_86' ninja: build stopped: subcommand failed. \"I want to ask how to solve this?",
        "cuda.nvcc-too-old-for-gpu",
        "11.1",
    ),
    (
        "https://github.com/open-mmlab/mmdetection/issues/4671",
        "Upon looking into FAQS and this issue, it seems the only resolution to missing `mmcv._ext` module is just uninstalling `mmcv` and installing the full package `mmcv-full`. Meanwhile this solves the problem, library installation becomes very time consuming since building the `mmcv-full` wheel takes 8-10 mins. \n\nIs there any way around just installing `mmcv-full` which would reduce installation time? Do we need everything in the `mmcv-full` package?",
        "mmcv.ops-not-built",
        "download.openmmlab.com",
    ),
    (
        "https://github.com/open-mmlab/mmcv/issues/2214",
        "Building wheel for mmcv-full (setup.py) ... \\\nThis state has lasted for four hours. I think it is abnormal.",
        "mmcv.ops-not-built",
        "download.openmmlab.com",
    ),
    (
        "https://github.com/open-mmlab/mmcv/issues/2637",
        "I have been waiting for more than half an hour for the building wheel process of mmcv-full==1.7.0. Can you please let me know what's causing the delay and whether the process is still ongoing smoothly?",
        "mmcv.ops-not-built",
        "mim install",
    ),
    (
        "https://github.com/rusty1s/pytorch_scatter/issues/201",
        "torch: 1.4.0+cpu\ntorch-scatter:  torch_scatter-latest+cu101-cp37-cp37m-win_amd64.whl\n\nPart of my code:\n\n`\nfrom torch_scatter import scatter_mean, scatter_max, scatter_add\n`\n\nWhen I run my code,  the error **'ImportError: cannot import name 'scatter_mean' from 'torch_scatter' (unknown location)'** comes out.",
        "torch.extension-abi-mismatch",
        "data.pyg.org",
    ),
    (
        "https://github.com/rusty1s/pytorch_scatter/issues/470",
        "I installed torch via conda \n```sh\n$ conda list | grep torch\nffmpeg                    4.3                  hf484d3e_0    pytorch\nlibjpeg-turbo             2.0.0                h9bf148f_0    pytorch\nlibtorch                  2.4.0           cuda118_h8db9d67_301    conda-forge\npytorch                   2.4.0           cuda118_py312h3690e1b_301    conda-forge\npytorch-cuda              11.8                 h7e8668a_6    pytorch\npytorch-mutex             1.0                        cuda    pytorch\ntorchaudio                2.4.0               py312_cu118    pytorch\ntorchvision               0.19.0              py312_cu118    pytorch\n```\n\nand then install `torch-scatter` via pip\n```sh\npip install torch-scatter -f https://data.pyg.org/whl/torch-2.4.0+cu118.html --no-cache-dir\n```\n\nThen importing `torch-scatter` gives the following error:\n```sh\ntorch_scatter/_version_cuda.so: undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb\n```",
        "torch.extension-abi-mismatch",
        "conda-forge",
    ),
    (
        "https://github.com/HKUST-SAIL/RaDe-GS/issues/6",
        "pip3 install submodules/diff-gaussian-rasterization is failed.\n\nfatal error: glm/gtx/pca.hpp: 没有那个文件或目录\n20 | #include <glm/gtx/pca.hpp>",
        "torch.extension-build-failed",
        "--recursive",
    ),
]


test_an_extension_build_message_gets_its_cause_and_the_knob = source_knob_test(KNOB)


# real messages of other causes the new patterns could catch: they must not get the new cause
LOOKALIKE = [
    (
        "https://github.com/JIA-Lab-research/Seg-Zero/issues/63",
        "/usr/bin/ld: cannot find -lcuda\ncollect2: error: ld returned 1 exit status\n\nsubprocess.CalledProcessError: Command '['/usr/bin/gcc', '/tmp/tmpe7nu9b0l/main.c', '-O3', '-shared', '-fPIC', '-Wno-psabi', '-o', '/tmp/tmpe7nu9b0l/cuda_utils.cpython-312-x86_64-linux-gnu.so', '-lcuda', '-L/home/sim/anaconda3/envs/visionreasoner/lib/python3.12/site-packages/triton/backends/nvidia/lib', '-L/lib/x86_64-linux-gnu', '-L/lib/i386-linux-gnu', '-I/home/sim/anaconda3/envs/visionreasoner/lib/python3.12/site-packages/triton/backends/nvidia/include', '-I/tmp/tmpe7nu9b0l', '-I/home/sim/anaconda3/envs/visionreasoner/include/python3.12']' returned non-zero exit status 1.",
        "cuda.link-library-not-found",
    ),
    (
        "https://github.com/open-mmlab/mmsegmentation/issues/3729",
        "AssertionError: MMCV==2.2.0 is used but incompatible. Please install mmcv>=2.0.0rc4.`",
        "mmcv.ops-not-built",
    ),
]


@pytest.mark.parametrize(("url", "text", "not_id"), LOOKALIKE, ids=[k[0] for k in LOOKALIKE])
def test_a_look_alike_is_not_read_as_the_new_cause(url, text, not_id) -> None:
    assert triage_text(text + "\n").findings[0].id != not_id, url
