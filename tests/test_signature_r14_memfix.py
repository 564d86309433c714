"""GPU out-of-memory messages people paste, by workload (checks/signatures/memory.toml and the
entries it extends): each verbatim message from a thread whose fix was confirmed reaches that cause
first, and one of its fixes names the knob the confirmed fix turned (quantised release, tensor
parallelism, device_map, ZeRO-3, no_grad, audio slices, cutoff_len). Look-alike rows are real messages
of other causes that the new phrasings must not read as theirs."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # 8x RTX A6000 in vLLM, GPU 0 full: tensor_parallel_size=<num_gpus> (maintainer; reporter thanked)
    (
        "8x RTX A6000\n289.0  TFLOPS\n383.9 GB GPU RAM\n```\n\n### 🐛 Describe the bug\n\nI get error\n```torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of 47.54 GiB of which 1.38 GiB is free. Process 876965 has 46.14 GiB memory in use. Of the allocated memory 45.52 GiB is allocated by PyTorch, and 5.85 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)```\n\nHowever, I have enough ram on all my gpus. I don't think vllm is using all the gpus.",
        "memory.out-of-memory",
        "tensor_parallel_size",
        "https://github.com/vllm-project/vllm/issues/4417",
    ),
    # an int4 model of about 20 GB on 2 x 12 GB cards with vLLM: --tensor-parallel-size (maintainer)
    (
        "I want to run inference of a [specific model](put link here). I don't know how to integrate it with vllm.\nThe model(int4) needs about 20GB CUDA Memory, I have 2 * 3080Ti(2 * 12GB), can I run the model in this machine?",
        "memory.workload-does-not-fit",
        "--tensor-parallel-size",
        "https://github.com/vllm-project/vllm/issues/9977",
    ),
    # Qwen-VL-Chat on a 16 GB card: it needs about 23 GB, the Int4 release about 12 GB (maintainer; reporter: that is right)
    (
        'CUDA out of memory. Tried to allocate 26.00 MiB (GPU 0; 15.99 GiB total capacity; 15.09 GiB already allocated; 0 bytes free; 15.14 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF\n  File "D:\\Python\\Qwen-VL\\debug.py", line 8, in <module>\n    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen-VL-Chat", device_map="cuda", trust_remote_code=True, bf16=True).eval()\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 26.00 MiB (GPU 0; 15.99 GiB total capacity; 15.09 GiB already allocated; 0 bytes free; 15.14 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF',
        "memory.out-of-memory",
        "int4",
        "https://github.com/QwenLM/Qwen-VL/issues/26",
    ),
    # four 12 GB cards, GPU 0 full: the int4 release worked (reporter)
    (
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 112.00 MiB. GPU 0 has a total capacty of 10.75 GiB of which 105.62 MiB is free. Including non-PyTorch memory, this process has 10.65 GiB memory in use. Of the allocated memory 10.49 GiB is allocated by PyTorch, and 1.63 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF\n```\n我看模型文件很小啊。是不是还需要设置什么一个环境变量才能把4张卡都用起来？",
        "memory.out-of-memory",
        "-Int4",
        "https://github.com/OpenBMB/MiniCPM-V/issues/102",
    ),
    # 8 x 24 GB, only GPU 0 used: the model's split_model device map worked (reporter)
    (
        'CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 python web_demo.py \\\n--model_name "deepseek-ai/deepseek-vl2" \\\n--port 37914 \\ \n\nthe out put is:\n......\ndeepseek-ai/deepseek-vl2/model-00008-of-000008.safetensors\nLoading checkpoint shards: 100%|█████████████████████████████████████████████████████| 8/8 [00:14<00:00,  1.85s/it]\nafter Loading checkpoint shards: 100%, the CUDA out of memory:\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 23.55 GiB total capacity; 17.98 GiB already allocated; 18.81 MiB free; 23.08 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF\nit seems that only one gpu is used, the CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 didn\'t work,',
        "memory.out-of-memory",
        'device_map="auto"',
        "https://github.com/deepseek-ai/DeepSeek-VL2/issues/86",
    ),
    # Baichuan2-13B full fine-tuning on 4 x A800: four cards need ZeRO-3 (maintainer; labelled solved)
    (
        "训练环境： 4 * A800 80G显卡\n\n启动脚本：\n\ndeepspeed --include localhost:4,5,6,7 --master_port $MASTER_PORT src/train_bash.py\n--stage sft\n--model_name_or_path /home/work/record/llm_models/Baichuan2-13B-Chat\n--do_train\n--cutoff_len 1536\n--max_length 320\n--overwrite_output_dir\n--dataset train_intent_args_all\n--template baichuan2\n--finetuning_type full\n--output_dir output/$SAVE_MODEL_PATH\n--overwrite_cache\n--per_device_train_batch_size 1 \\\n--gradient_accumulation_steps 1 \\\n--lr_scheduler_type cosine\n--logging_steps 100\n--save_steps 400\n--learning_rate 5e-5\n--num_train_epochs 5.0\n--plot_loss\n--deepspeed ds_config.json\n--bf16 > log/train_${SAVE_MODEL_PATH}.log 2>&1 &\n\n错误日志：\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 12.94 GiB (GPU 1; 79.35 GiB total capacity; 77.65 GiB already allocated; 316.12 MiB free; 77.66 GiB reserved in total by PyTorch) If reserv ed memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation. See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF",
        "memory.out-of-memory",
        "ZeRO-3",
        "https://github.com/hiyouga/LlamaFactory/issues/1158",
    ),
    # test.py with a trained model: with torch.no_grad() before the loop solved it (commenter)
    (
        "I was trying to run the command \n`python test.py --trained_model=./craft_mlt_25k.pth --test_folder=./test_data` and got the error.\n\n> RuntimeError: CUDA out of memory. Tried to allocate 100.00 MiB (GPU 0; 3.95 GiB total capacity; 2.88 GiB already allocated; 58.25 MiB free; 42.71 MiB cached)",
        "memory.out-of-memory",
        "torch.no_grad()",
        "https://github.com/clovaai/CRAFT-pytorch/issues/15",
    ),
    # demo.py kept gradients at test time: torch.set_grad_enabled(False) took it from 9 GB to 2 GB (commenter)
    (
        "RuntimeError: CUDA out of memory. Tried to allocate 88.00 MiB (GPU 0; 7.93 GiB total capacity; 6.82 GiB already allocated; 68.50 MiB free; 65.36 MiB cached)",
        "memory.out-of-memory",
        "torch.no_grad()",
        "https://github.com/Tencent/FaceDetection-DSFD/issues/20",
    ),
    # evaluate.py without a no_grad decorator (reporter's own finding)
    (
        "On fixing that, there is a CUDA out of memory error because there is not no_grad decorator arround the inference script",
        "memory.out-of-memory",
        "no_grad",
        "https://github.com/mit-han-lab/spvnas/issues/108",
    ),
    # a long audio slice at inference filled 16 GB: slice it (maintainer; reporter sliced by hand / used the CPU)
    (
        "在进行推理时输入音频较长且中间没有停顿导致切出的slice较长，大约超过50s左右时会用尽16G显存。",
        "memory.out-of-memory",
        "切片",
        "https://github.com/innnky/so-vits-svc/issues/7",
    ),
    # svc infer at batch size 1 on 4 GB: split the long input file, or infer on the CPU (commenter)
    (
        "I trained the model and get nice audio while using svc vc to test my voice, but when i use svc infer, I get error like this:\n`torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 294.00 MiB (GPU 0; 4.00 GiB total capacity; 2.61 GiB already allocated; 0 bytes free; 3.42 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF`\n\nI wanna know how to solve it with the batch_size = 1.",
        "memory.workload-does-not-fit",
        "split",
        "https://github.com/voicepaw/so-vits-svc-fork/issues/225",
    ),
    # 80 GB A100 out of memory at 512 instead of 224: memory grows with the resolution (maintainer; reporter thanked)
    (
        "作者你好，我在80G的A100上跑您的代码，为什么还会报显存不足呢。我没有修改代码。",
        "memory.out-of-memory",
        "resolution",
        "https://github.com/WindVChen/DiffAttack/issues/37",
    ),
    # 33B full fine-tuning with ZeRO-3: ZeRO-3 offload, micro batch 1, max length < 2048 (reporter)
    (
        "how can full parameters should be finetuned rather than lora? \nwhen using deepspeed zero stage3 , out of memory exists",
        "memory.out-of-memory",
        "offload",
        "https://github.com/deepseek-ai/DeepSeek-Coder/issues/78",
    ),
    # LoRA on Qwen-7B over four 3090s: a smaller cutoff_len solved it (reporter)
    (
        "4张3090lora微调Qwen7B爆显存",
        "memory.out-of-memory",
        "cutoff_len",
        "https://github.com/hiyouga/LlamaFactory/issues/3708",
    ),
    # Qwen-14B-Chat on 3 x A100 40 GB: --quantization_bit 8 or 4 (maintainer; labelled solved)
    (
        "pt qwen-14B-chat 3张A100 40GB的 显存还超了。。。大神帮忙看看",
        "memory.out-of-memory",
        "quantization_bit",
        "https://github.com/hiyouga/LlamaFactory/issues/1408",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not rank first, thread)
LOOKALIKE = [
    # another process held 15 GB of the GPU (a small model in vLLM): not a model too large for the GPU
    (
        "I have GPU device 1, and there are other processes taking up about 15G of Memory-Usage, but there is 30G of Memory-Usage left, so why does it go OOM when I run a small model?",
        "memory.workload-does-not-fit",
        "https://github.com/vllm-project/vllm/issues/783",
    ),
    # a model class without _no_split_modules refuses device_map='auto' (maintainer fixed the class)
    (
        "My GPU is A30(24G)，cannot load the model on single GPU. I tried to load the huggingface model with `device_map='auto'`, it report the error:\n```\nValueError: InternVisionModel does not support `device_map='auto'`. To implement support, the model class needs to implement the `_no_split_modules` attribute.\n```",
        "memory.workload-does-not-fit",
        "https://github.com/OpenGVLab/InternVL/issues/42",
    ),
    (
        "My GPU is A30(24G)，cannot load the model on single GPU. I tried to load the huggingface model with `device_map='auto'`, it report the error:\n```\nValueError: InternVisionModel does not support `device_map='auto'`. To implement support, the model class needs to implement the `_no_split_modules` attribute.\n```",
        "memory.out-of-memory",
        "https://github.com/OpenGVLab/InternVL/issues/42",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE, may_be_empty=True)
