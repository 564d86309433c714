"""Frequent PyTorch / CUDA run-time and build-time messages (checks/signatures/*.toml and
the entries it extends): each message, copied from a public thread where the fix was confirmed,
reaches its cause first, and that cause's fixes name the knob the confirmed fix turned."""

from __future__ import annotations

import pytest

from envdoctor.triage_engine import triage_text
from tests.triage_lines import assert_not_first, command_test

# (message, the finding id first, a command one of its fixes gives, the thread)
KNOB = [
    (
        "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load`"
        " from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will"
        " likely succeed, but it can result in arbitrary code execution. Do it only if you got the"
        " file from a trusted source.",
        "torch.load-weights-only-default",
        "torch.load(PATH, weights_only=False)",
        "https://github.com/official-stockfish/nnue-pytorch/pull/305",
    ),
    (
        "An error occurred while loading models: Weights only load failed. In PyTorch 2.6, we changed"
        " the default value of the `weights_only` argument in `torch.load` from `False` to `True`."
        " Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can"
        " result in arbitrary code execution. Do it only if you got the file from a trusted source.\n"
        "Please file an issue with the following so that we can make `weights_only=True` compatible"
        " with your use case: WeightsUnpickler error: Unsupported operand 118",
        "torch.load-weights-only-default",
        "torch.load(PATH, weights_only=False)",
        "https://github.com/D3voz/joy-caption-alpha-two-gui-mod/issues/7",
    ),
    (
        "../aten/src/ATen/native/cuda/Indexing.cu:1146: indexSelectLargeIndex: block: [18,0,0],"
        " thread: [5,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\n"
        "../aten/src/ATen/native/cuda/Indexing.cu:1146: indexSelectLargeIndex: block: [18,0,0],"
        " thread: [6,0,0] Assertion `srcIndex < srcSelectDimSize` failed.",
        "torch.device-side-assert",
        "model.resize_token_embeddings(len(tokenizer))",
        "https://github.com/huggingface/transformers/issues/28104",
    ),
    (
        "/opt/conda/conda-bld/pytorch_1686274778240/work/aten/src/ATen/native/cuda/Indexing.cu:1146:"
        " indexSelectLargeIndex: block: [58,0,0], thread: [21,0,0] Assertion srcIndex <"
        " srcSelectDimSize failed. 请问这个还是因为第一步pre-train的时候tokenizer有问题吗？",
        "torch.device-side-assert",
        "model.resize_token_embeddings(len(tokenizer))",
        "https://github.com/shibing624/MedicalGPT/issues/275",
    ),
    (
        "RuntimeError: CUDA error: device-side assert triggered\n"
        "CUDA kernel errors might be asynchronously reported at some other API call, so the"
        " stacktrace below might be incorrect.\n"
        "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n"
        "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
        "torch.device-side-assert",
        "CUDA_LAUNCH_BLOCKING=1 python train.py",
        "https://github.com/jwkirchenbauer/lm-watermarking/issues/16",
    ),
    (
        "../aten/src/ATen/native/cuda/NLLLoss2d.cu:104: nll_loss2d_forward_kernel: block: [13,0,0],"
        " thread: [290,0,0] Assertion `t >= 0 && t < n_classes` failed.\n"
        "../aten/src/ATen/native/cuda/NLLLoss2d.cu:104: nll_loss2d_forward_kernel: block: [13,0,0],"
        " thread: [291,0,0] Assertion `t >= 0 && t < n_classes` failed.",
        "torch.device-side-assert",
        "print(labels.min().item(), labels.max().item(), num_classes)",
        "https://github.com/Nota-NetsPresso/netspresso-trainer/issues/150",
    ),
    (
        "RuntimeError: An attempt has been made to start a new process before the current process"
        " has finished its bootstrapping phase.",
        "python.multiprocessing-main-guard",
        "DataLoader(dataset, num_workers=0)",
        "https://github.com/guoyang9/BPR-pytorch/issues/1",
    ),
    (
        "RuntimeError:\n"
        "        An attempt has been made to start a new process before the\n"
        "        current process has finished its bootstrapping phase.\n"
        "\n"
        "        This probably means that you are not using fork to start your\n"
        "        child processes and you have forgotten to use the proper idiom\n"
        "        in the main module:\n"
        "\n"
        "            if __name__ == '__main__':\n"
        "                freeze_support()\n"
        "                ...",
        "python.multiprocessing-main-guard",
        "if __name__ == '__main__':\n    main()",
        "https://github.com/tinkerhub/ComputerVision-with-PyTorch-Learning-Program/issues/80",
    ),
    (
        "    return _VF.stft(input, n_fft, hop_length, win_length, window,  # type: ignore[attr-defined]\n"
        "RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR",
        "torch.cufft-too-old-for-gpu",
        "--index-url https://download.pytorch.org/whl/cu1",
        "https://github.com/haoheliu/AudioLDM/issues/49",
    ),
    (
        'NOTSOFAR1-Challenge/diarization/word_based_diarization.py", line 105, in'
        " extract_speaker_embedding_for_words\n"
        "    _, tmp_embedding = spk_model.forward(input_signal=word_wavs, input_signal_length=word_lens)\n"
        "RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR",
        "torch.cufft-too-old-for-gpu",
        "--index-url https://download.pytorch.org/whl/cu1",
        "https://github.com/microsoft/NOTSOFAR1-Challenge/issues/40",
    ),
    (
        "RuntimeError: unable to open shared memory object </torch_29919_1396182366> in read-write mode",
        "torch.too-many-open-files",
        "import torch.multiprocessing; torch.multiprocessing.set_sharing_strategy('file_system')",
        "https://github.com/facebookresearch/maskrcnn-benchmark/issues/103",
    ),
    (
        "Error Message: unable to open shared memory object </torch_400776_2314494149_2899> in"
        " read-write mode: Too many open files (24)",
        "torch.too-many-open-files",
        "import torch.multiprocessing; torch.multiprocessing.set_sharing_strategy('file_system')",
        "https://github.com/3DAgentWorld/OpenGS-SLAM/issues/9",
    ),
    (
        "RuntimeError: DataLoader worker (pid(s) 25) exited unexpectedly",
        "nccl.shm-too-small",
        "docker run --gpus all --shm-size=16g IMAGE",
        "https://github.com/facebookresearch/detectron2/issues/384",
    ),
    (
        "ValueError: Attempting to unscale FP16 gradients.",
        "torch.amp-fp16-gradients",
        "model = AutoModelForCausalLM.from_pretrained(MODEL, torch_dtype=torch.float32)",
        "https://github.com/LAION-AI/Open-Assistant/issues/3213",
    ),
    (
        '  File "/opt/conda/lib/python3.9/site-packages/torch/cuda/amp/grad_scaler.py", line 210,'
        " in _unscale_grads_\n"
        '    raise ValueError("Attempting to unscale FP16 gradients.")\n'
        "ValueError: Attempting to unscale FP16 gradients.",
        "torch.amp-fp16-gradients",
        "model = AutoModelForCausalLM.from_pretrained(MODEL, torch_dtype=torch.float32)",
        "https://github.com/TheLastBen/fast-stable-diffusion/issues/1975",
    ),
    (
        "AlphAction/alphaction/csrc/cuda/ROIPool3d_cuda.cu:4:10: fatal error: THC/THC.h: No such file"
        " or directory",
        "torch.extension-removed-api",
        "grep -rnE 'THC/|THCState|THCudaCheck|AT_CHECK' --include='*.cu' --include='*.cpp' --include='*.h' --include='*.cuh' .",
        "https://github.com/open-mmlab/OpenPCDet/issues/900",
    ),
    (
        "path/torch_sampling/csrc/cuda/reservoir_sampling.cuh:15:10: fatal error: THC/THCTensor.h: No"
        " such file or directory\n"
        "   15 | #include <THC/THCTensor.h>\n"
        "      |          ^~~~~~~~~~~~~~~~~\n"
        "compilation terminated.",
        "torch.extension-removed-api",
        "grep -rnE 'THC/|THCState|THCudaCheck|AT_CHECK' --include='*.cu' --include='*.cpp' --include='*.h' --include='*.cuh' .",
        "https://github.com/LeviViana/torch_sampling/issues/10",
    ),
    (
        'error: identifier "AT_CHECK" is undefined',
        "torch.extension-removed-api",
        "#define AT_CHECK TORCH_CHECK",
        "https://github.com/Scalsol/mega.pytorch/issues/63",
    ),
    (
        "error: ‘AT_CHECK’ was not declared in this scope",
        "torch.extension-removed-api",
        "#define AT_CHECK TORCH_CHECK",
        "https://github.com/MVIG-SJTU/AlphAction/issues/13",
    ),
    (
        "RuntimeError: Unable to find a valid cuDNN algorithm to run convolution",
        "memory.out-of-memory",
        "python train.py --batch-size <smaller>",
        "https://github.com/ultralytics/yolov5/issues/11250",
    ),
    (
        "RuntimeError: Expected all tensors to be on the same device, but found at least two devices,"
        " cuda:0 and cpu!",
        "torch.tensors-on-different-devices",
        "model.to(device); inputs = inputs.to(device)",
        "https://github.com/SamLynnEvans/Transformer/issues/27",
    ),
    (
        "RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should"
        " be the same",
        "torch.tensors-on-different-devices",
        "model.to(device); inputs = inputs.to(device)",
        "https://github.com/yuanyuanli85/Fast_Human_Pose_Estimation_Pytorch/issues/7",
    ),
    (
        "RuntimeError: CUDA error: CUBLAS_STATUS_INVALID_VALUE when calling `cublasGemmEx( handle,"
        " opa, opb, m, n, k, alpha_ptr, a, CUDA_R_16F, lda, b, CUDA_R_16F, ldb,"
        "                                                             beta_ptr, c,"
        " std::is_same_v<C_Dtype, float> ? CUDA_R_32F : CUDA_R_16F, ldc, compute_type,"
        " CUBLAS_GEMM_DEFAULT_TENSOR_OP)`",
        "cuda.ld-library-path-shadows-wheel",
        "unset LD_LIBRARY_PATH",
        "https://github.com/vllm-project/vllm/issues/35608",
    ),
    (
        "RuntimeError: CUDA error: CUBLAS_STATUS_INVALID_VALUE when calling `cublasSgemm( handle,"
        " opa, opb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc)`",
        "cuda.ld-library-path-shadows-wheel",
        "unset LD_LIBRARY_PATH",
        "https://github.com/Fictionarry/TalkingGaussian/issues/14",
    ),
    (
        "    raise OSError('CUDA_HOME environment variable is not set. '\n"
        "                  'Please set it to your CUDA install root.')\n"
        "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.",
        "torch.extension-cuda-toolkit-missing",
        "conda install -c nvidia cuda-toolkit=X.Y",
        "https://github.com/test-time-training/ttt-video-dit/issues/14",
    ),
    (
        "No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'\n"
        "Traceback (most recent call last):\n"
        '  File "setup.py", line 69, in <module>\n'
        "    ext_modules=get_extensions(),\n"
        '  File "setup.py", line 47, in get_extensions\n'
        "    raise NotImplementedError('Cuda is not availabel')\n"
        "NotImplementedError: Cuda is not availabel",
        "torch.cuda-build-without-gpu",
        "docker run --gpus all -it IMAGE",
        "https://github.com/junhyung-SPALab/D-Align/issues/1",
    ),
    (
        "No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'",
        "torch.cuda-build-without-gpu",
        "docker run --gpus all -it IMAGE",
        "https://github.com/Thinklab-SJTU/ThinkMatch/issues/51",
    ),
    (
        "gcc: fatal error: cannot execute 'cc1plus': execvp: No such file or directory",
        "build.cxx-compiler-missing",
        "conda install -c conda-forge gxx_linux-64",
        "https://github.com/pytorch/vision/issues/8540",
    ),
    (
        "gcc: fatal error: cannot execute 'cc1plus': execvp: No such file or directory\n"
        "compilation terminated.\n"
        "error: command '/global/homes/j/jpbrandt/.conda/envs/PBH/bin/gcc' failed with exit code 1",
        "build.cxx-compiler-missing",
        "conda install -c conda-forge gxx_linux-64",
        "https://github.com/lesgourg/class_public/issues/580",
    ),
    (
        "RuntimeError: operator torchvision::nms does not exist",
        "torch.companion-mismatch",
        "pip install --force-reinstall torch torchvision torchaudio",
        "https://github.com/huggingface/diffusers/issues/9109",
    ),
    (
        "    samples = collate_fn([dataset[i] for i in batch_indices])\n"
        '  File "/path/to/mycodebase/src/data.py", line 636, in _batch_helper\n'
        "    (bs, max_nb_attr), dtype=torch.long, device=self.device)\n"
        "RuntimeError: CUDA error: initialization error",
        "torch.cuda-fork-after-init",
        "DataLoader(..., multiprocessing_context='spawn')",
        "https://github.com/pytorch/pytorch/issues/2517",
    ),
    (
        "My GPU is a generation too old for `torch.compile` (“Triton only supports devices of CUDA"
        " Capability >= 7.0, but your device is of CUDA capability 6.1”).",
        "torch.triton-gpu-too-old",
        "export TORCHDYNAMO_DISABLE=1",
        "https://github.com/celoyd/potato/issues/50",
    ),
]


# the command, or (a torch install the remedies chooser writes) the part of it that names the knob
test_a_frequent_message_gets_its_cause_and_the_knob = command_test(KNOB, ids=[k[3] for k in KNOB])


@pytest.mark.parametrize(
    ("text", "not_id", "url"),
    [
        # a git-lfs pointer file read as a checkpoint: not the weights_only default
        (
            "_pickle.UnpicklingError: invalid load key, 'v'.",
            "torch.load-weights-only-default",
            "https://github.com/svip-lab/PPGNet/issues/2",
        ),
        # CUDA used before fork (Linux): not the spawn main-module guard
        (
            "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with"
            " multiprocessing, you must use the 'spawn' start method",
            "python.multiprocessing-main-guard",
            "https://github.com/TencentARC/BrushNet/issues/39",
        ),
    ],
)
def test_a_look_alike_message_is_not_read_as_the_cause(text, not_id, url) -> None:
    assert_not_first(text + "\n", not_id, url, may_be_empty=True)


def test_a_worker_that_raised_is_not_read_as_a_dead_worker() -> None:
    # "exited unexpectedly with exit code 1": the worker's own error, not the pid(s) phrasing of a
    # worker that died (https://github.com/verl-project/verl/issues/730)
    text = (
        "RuntimeError: DataLoader worker (pid 3052708) exited unexpectedly with exit code 1."
        " Details are lost due to multiprocessing. Rerunning with num_workers=0 may give better"
        " error trace.\n"
    )
    titles = [f.title for f in triage_text(text).findings]
    assert not any(t.startswith("A DataLoader worker died") for t in titles)
