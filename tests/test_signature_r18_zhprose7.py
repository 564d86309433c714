"""Chinese users' reports, round 18 seventh pass (checks/signatures/{apps,containers}.toml): Chinese prose
around English errors, or Chinese alone. Two causes fell to similar-case guesses or to a Docker-only
cause: LMDeploy reserving a fraction of the GPU memory for its k/v cache (cache_max_entry_count),
reported as "显存占用很高 / 量化后显存只降低了一点", read as memory held by another process; and an LXD
container without a GPU device ("LXD容器中 ... nvidia-smi报错"), read as Docker without the NVIDIA
runtime. Two vLLM reports ("显存占用异常", "vllm也这么吃显存吗") fell to memory held by another process
or to a plain OOM: the Chinese phrasings of vLLM's reservation now reach it (checks/signatures/*.toml), and the
OOM prose guess steps back where an inference server that reserves memory up front is named
(checks/signatures/*.toml). The other rows are messages that already reached their cause with the knob (kept so they
stay there). Each row is the text of one public thread, verbatim, whose fix was confirmed (the
reporter or another user says it worked, or a maintainer states cause and fix): its cause ranks
first and one of that cause's fixes names the knob the confirmed fix turned. Look-alike rows are
real messages of OTHER causes that the new patterns could catch: the new cause must not rank
first."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

KV = "app.lmdeploy.kv-cache-ratio-too-high"
NO_GPUS = "container.no-gpus-injected"
LIB_MAJOR = "cuda.runtime-lib-major-missing"
VLLM_UTIL = "app.vllm.gpu-memory-utilization-too-high"

# (message verbatim, the finding id first, text one of its fixes names, thread URL)
KNOB = [
    (
        "LXD容器中安装显卡驱动后nvidia-smi报错\n"
        "如图，驱动版本是460.80，跟宿主机一样，宿主机和容器的ubuntu版本都是18.04.5",
        NO_GPUS,
        "lxc config device add",
        # maintainer: the GPU was not added to the container's config (lxc config edit, devices);
        # another user: adding a gpu device (type: gpu, id: PCI address) and restarting solved it
        "https://github.com/shenuiuin/LXD_GPU_SERVER/issues/11",
    ),
    (
        "[Bug] internlm2-chat-20b量化为4bit后，模型文件从原来的38.7G减小到11.5G，但是部署后的显存占用从"
        "原来的78.3G降低到68.3G，只降低了10G，正常吗？\n\n"
        "首先，感谢上海人工智能实验室及其成员对书生模型、代码框架、技术经验的分享！\n\n"
        "internlm2-chat-20b量化为4bit后，模型文件从原来的38.7G减小到11.5G，但是部署后的显存占用从原来的"
        "78.3G降低到68.3G，只降低了10G，正常吗？部署模型时，如何进一步降低显存占用呢？\n\n"
        "谢谢！\n\n"
        "量化运行命令：lmdeploy lite auto_awq internlm2-chat-20b --work-dir internlm2-chat-20b-4bit\n\n"
        "部署模型命令：\n"
        "CUDA_VISIBLE_DEVICES=0 python api_server.py --server-port 23343 --model_path "
        "internlm2-chat-20b-4bit --model-name internlm2-chat-20b --backend turbomind --model-format awq",
        KV,
        "cache-max-entry-count",
        # maintainer: lower the k/v cache with --cache-max-entry-count
        "https://github.com/InternLM/lmdeploy/issues/2217",
    ),
    (
        "[Feature] lmdeploy0.1.0，启动后显存占用较大，是什么原因？\n\n"
        "llama-13B使用lmdeploy和transformers分别加载后，显存占用差距较大，请问lmdeploy启动后做了哪些事情，"
        "占用了这部分显存？",
        KV,
        "cache_max_entry_count",
        # maintainer: the memory is the k/v cache allocated in advance; the pipeline docs (linked)
        # set its ratio with cache_max_entry_count
        "https://github.com/InternLM/lmdeploy/issues/1509",
    ),
    (
        "[Bug] 部署internvl2自己lora微调的模型，显存占用非常高，快速爬升到了60g正常吗\n\n"
        "部署internvl2自己lora微调的模型，显存占用非常高，快速爬升到了60g\n\n"
        "Name: lmdeploy\n"
        "Version: 0.5.2.post1",
        KV,
        "cache_max_entry_count",
        # maintainer: see the explanation of cache_max_entry_count in the getting-started docs
        "https://github.com/InternLM/lmdeploy/issues/2425",
    ),
    (
        "cuda程序执行出错: libcudart.so.8.0: cannot open shared object file: No such file or directory\n"
        "问题\n"
        "error while loading shared libraries: libcudart.so.8.0: cannot open shared object file: No such "
        "file or directory",
        LIB_MAJOR,
        "LD_LIBRARY_PATH",
        # the author's fix: put /usr/local/cuda-8.0/lib64 on LD_LIBRARY_PATH (or ldconfig it)
        "https://github.com/zhxt0/zhxt0.github.io/issues/25",
    ),
    (
        "ImportError: libcudart.so.10.2: cannot open shared object file: No such file or directory",
        LIB_MAJOR,
        "LD_LIBRARY_PATH",
        # a user: conda install cudatoolkit=10.2 and export LD_LIBRARY_PATH=<env>/lib worked;
        # another: "谢谢，这样可以解决问题"
        "https://github.com/PaddlePaddle/PaddleOCR/issues/9049",
    ),
    (
        "python setup.py build_ext --inplace出现错误\n"
        "unable to execute '/usr/local/cuda:/usr/local/cuda:/usr/local/cuda-9.0/bin/nvcc': No such file "
        "or directory\n"
        "error: command '/usr/local/cuda:/usr/local/cuda:/usr/local/cuda-9.0/bin/nvcc' failed with exit "
        "status 1\n\n"
        "试过更改.brashrc的CUDA的环境变量，但是不行，这个问题要怎么解决?",
        # round 27: the ':'-joined CUDA_HOME has its own cause now (cuda.cuda-home-malformed)
        "cuda.cuda-home-malformed",
        "CUDA_HOME",
        # maintainer: check CUDA_HOME (here a PATH-like list) and that the default CUDA matches torch
        "https://github.com/MhLiao/DB/issues/21",
    ),
    (
        "import torch正常，torch.cuda.is_available()返回False怎么办",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org",
        # maintainer: make sure the driver supports CUDA, then reinstall torch (the CUDA build)
        "https://github.com/babysor/MockingBird/issues/394",
    ),
    (
        "xinference本地部署qwen2.5-7b模型显存占用异常\n\n"
        "### Reproduction / 复现过程\n\n"
        "1. 通过服务端口进入模型列表界面\n"
        "2. 启动qwen2.5-instruct-7b模型\n"
        "3. 在容器内查看现存占用情况\n"
        "4. 发现模型**占用了37G的显存**\n\n"
        "### Expected behavior / 期待表现\n\n"
        "现存正常占用",
        VLLM_UTIL,
        "gpu_memory_utilization",
        # the reporter: yes, the vllm engine; users: vLLM pre-allocates the KV cache, set the amount
        # with gpu_memory_utilization (maintainer agrees and plans to set it automatically)
        "https://github.com/xorbitsai/inference/issues/3432",
    ),
    (
        "examples/offline_inference.py。推理baichuan-13b，1*A100（80G），会OOM？\n\n"
        "采用代码examples/offline_inference.py，vllm也这么吃显存吗？",
        VLLM_UTIL,
        "gpu_memory_utilization",
        # users: vLLM gives the memory left after the weights to the KV cache (default
        # gpu_memory_utilization 0.9); set gpu_memory_utilization lower (e.g. 0.5)
        "https://github.com/vllm-project/vllm/issues/2430",
    ),
]

# (message verbatim, the new cause that must not rank first, thread URL)
LOOKALIKE = [
    (
        "[Bug] lmdeploy部署报错API call is not supported in the installed CUDA driver\n\n"
        "lmdeploy部署InternVL2-8B报错API call is not supported in the installed CUDA driver",
        KV,
        # the driver is older than the CUDA LMDeploy was built with: not the k/v cache
        "https://github.com/InternLM/lmdeploy/issues/2311",
    ),
    (
        "[Bug] 最新的docker里面的推理功能不能使用，报错\n"
        "我目前使用阿里云的GPU服务V100来进行lmdeploy的docker的安装和使用\n"
        "目前遇到的问题，模型加载没问题，现在是推理出现CUDA版本报错问题\n"
        "W0816 16:43:33.649654 127 pinned_memory_manager.cc:236] Unable to allocate pinned system memory, "
        "pinned memory pool will not be available: CUDA driver version is insufficient for CUDA runtime "
        "version",
        KV,
        # the host driver is older than the image's CUDA: not the k/v cache
        "https://github.com/InternLM/lmdeploy/issues/263",
    ),
    (
        "Thanks @cyberwillis for this suggestion. It did enable me to get GPU access inside lxc container. "
        "But my issue is that I am trying to run docker with GPU inside my lxc container. So when I do "
        "this:\n\n"
        "`sudo docker run --rm --runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=all -it nvidia/cuda\n`\n"
        "It displays this error:\n\n"
        "`stderr: nvidia-container-cli: mount error: write error: .....  operation not permitted\n`\n\n"
        "And this is resolved with security privileged mode. But security.privileged mode doesn't work "
        "with nvidia runtime. So I'm stuck in a limbo. Unable to run docker with gpu inside lxc that has "
        "runtime true and privilege false.",
        NO_GPUS,
        # the LXD container has its GPU; Docker nested inside it cannot mount the driver: another cause
        "https://github.com/canonical/lxd/issues/4574",
    ),
]


test_field_message_reaches_its_cause_with_the_knob = knob_test(KNOB)


test_lookalike_is_not_caught_by_the_new_pattern = lookalike_test(LOOKALIKE)
