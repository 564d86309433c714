"""Chinese reports, round 19 (checks/signatures/memory.toml and small edits): whole opening
posts from Chinese LLM projects' trackers (ChatGLM, Langchain-Chatchat, LLaMA-Factory, Vary, Med-ChatGLM,
PaddleOCR) where the cause is GPU memory or the placement of a model on several GPUs and the
reporter writes Chinese prose around English errors: out of memory while loading a language model,
fine-tuning that does not fit, device_map="auto" that uses one card or piles memory on card 0.
Each verbatim post reaches its cause first and one of its fixes names the knob the thread's
confirmed fix turned; look-alike rows are real posts of other causes that the new phrasings must
not read as theirs."""

from __future__ import annotations

import pytest
from triage_lines import knob_test, lookalike_test

# (post verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # the reporter's own answer: "--quatization_bit 4应该加在torchrun下的参数中"
    (
        "3080 p2微调，显存不足\nwo\n我根据教程做了如下修改，并在运行脚本时添加了 --quatization_bit 4 进行量化，可是系统日志显示占用了9个多G的显存，并随后显存不足报错，教程中说的是只需要不到8个G的显存就可以了，请问是我哪些参数没有设置正确吗？",
        "memory.out-of-memory",
        "quantization_bit",
        "https://github.com/zai-org/ChatGLM3/issues/208",
    ),
    # a commenter: cut the input max length (fp16, 128 fits 16G); the reporter: "这确实是个办法"; labelled solved
    (
        "微调chatglm2需要多少显存？\n同等参数下，chatglm可以微调，chatglm2就爆显存，是模型优化问题吗？\nCUDA_VISIBLE_DEVICES=0 python src/train_sft.py \\\n    --do_train \\\n    --dataset alpaca_gpt4_zh \\\n    --finetuning_type lora \\\n    --output_dir path_to_sft_checkpoint \\\n    --per_device_train_batch_size 4 \\\n    --gradient_accumulation_steps 4 \\\n    --lr_scheduler_type cosine \\\n    --logging_steps 10 \\\n    --save_steps 1000 \\\n    --learning_rate 5e-5 \\\n    --num_train_epochs 3.0 \\\n    --fp16 \\\n    --use_v2 \\\n    --dev_ratio 0.01 \\",
        "memory.workload-does-not-fit",
        "sequence length",
        "https://github.com/hiyouga/ChatGLM-Efficient-Tuning/issues/202",
    ),
    # the maintainer: the card does not have the memory the default model needs, use a quantised
    # (int4) model; closed
    (
        '[BUG] CUDA out of memory with container deployment\n按照 README 下载 image 运行后，完成启动所需安装，报错 CUDA out of memory.\n1. ERROR 2023-05-10 18:15:04,235-1d: CUDA out of memory. Tried to allocate 128.00 MiB (GPU 0; 8.00 GiB total capacity; 7.25 GiB already allocated; 0 bytes free; 7.25 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF\n2. INFO  2023-05-10 18:15:04,236-1d: 模型未成功加载，请到页面左上角"模型配置"选项卡中重新选择后点击"加载模型"按钮',
        "memory.out-of-memory",
        "int4",
        "https://github.com/chatchat-space/Langchain-Chatchat/issues/310",
    ),
    # the maintainer: full fine-tuning needs much memory, use p-tuning or LoRA; closed
    pytest.param(
        "OutOfMemoryError: CUDA out of memory\n显存不够，根据网上的方案也无法解决这个问题，请问有什么别的方法可以解决下面的问题\nOutOfMemoryError: CUDA out of memory. Tried to allocate 128.00 MiB (GPU 0; 39.56\nGiB total capacity; 37.88 GiB already allocated; 32.56 MiB free; 38.21 GiB \nreserved in total by PyTorch) If reserved memory is >> allocated memory try \nsetting max_split_size_mb to avoid fragmentation.  See documentation for Memory \nManagement and PYTORCH_CUDA_ALLOC_CONF",
        "memory.out-of-memory",
        "LoRA",
        "https://github.com/SCIR-HI/Med-ChatGLM/issues/11",
        marks=pytest.mark.xfail(
            strict=True,
            reason="the post names no model, no training and no project: nothing in it says a fine-tuned language model, so LoRA cannot honestly be put first",
        ),
    ),
    # a commenter: infer_auto_device_map with max_memory per GPU, then load_checkpoint_and_dispatch;
    # the reporter: "哇！感谢大佬！"
    (
        '是否支持多卡推理\n代码中有 device_map = "auto" 但是实际上只会用到一张卡，应该如何修改支持多卡加载模型并推理呢？',
        "memory.device-map-unbalanced",
        "max_memory",
        "https://github.com/Ucas-HaoranWei/Vary/issues/27",
    ),
    # the maintainer: "多卡推理建议使用 vllm"; labelled solved
    (
        "关于推理时显存问题\nA800*8\n在多卡8张推理qwen72b的时候，输入一个长文本，会发现0卡的显存突然飙升，其他卡不动。但是直接用model.chat推理的话，每张卡的显存是基本均匀分配的，想请问下这个的原因。谢谢",
        "memory.device-map-unbalanced",
        "vllm",
        "https://github.com/hiyouga/LlamaFactory/issues/1766",
    ),
]

# (post verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # paddlepaddle-gpu 2.5.1.post120 is the GPU wheel: the reporter fixed it with CUDA 10.2 and
    # cuDNN 7.6.5; not the CPU package
    pytest.param(
        "paddleocr gpu PDF识别程序报错+乱码\nCUDA 12.0 + paddlepaddle-gpu2.5.1post120, 其他依赖在pipfile中保持‘*’最新版本，在use_gpu=True的时候不能正常识别文字，出现大量乱码，并且出现以下报错：",
        "paddle.cpu-package-installed",
        "https://github.com/PaddlePaddle/PaddleOCR/issues/11042",
        marks=pytest.mark.xfail(
            strict=True,
            reason="left: the CPU-package prose entry (its 'use_gpu' cue) and the similar-case suggestions read a GPU-wheel post as the CPU package; narrowing them needs a training run this session had no time for",
        ),
    ),
    # tensors on two cards with device_map (a code fix), not the memory placement
    (
        "多卡推理出现tensor 不在同一张卡的异常提示\nRuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:3 and cuda:0! (when checking argument for argument mask in method wrapper_CUDA__masked_scatter_)\n\n请问是什么原因，如何修正？",
        "memory.device-map-unbalanced",
        "https://github.com/QwenLM/Qwen3-VL/issues/234",
    ),
    # cuDNN not found by paddle (a library path), not memory
    (
        '我采用如下命令安装：\n```\nconda create -n ocr python=3.10\nconda activate ocr\npython -m pip install paddlepaddle-gpu==2.5.2.post120 -f https://www.paddlepaddle.org.cn/whl/linux/mkl/avx/stable.html\npip install "paddleocr>=2.0.1"\n```\n我也阅读过类似的帖子，我尝试了cuda 11.8和cuda 12.0的版本，均无法使用。\n它们说需要输入`locate libcudnn.so`和`locate libcublas.so`',
        "memory.out-of-memory",
        "https://github.com/PaddlePaddle/Paddle/issues/59011",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
