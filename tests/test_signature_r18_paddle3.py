"""Round 18 sweep of PaddlePaddle environment messages (checks/signatures/{paddle,jetson,cuda}.toml):
PaddlePaddle 3.3's oneDNN / PIR regression on CPU ("ConvertPirAttribute2RuntimeAttribute not
support"), oneDNN's "could not execute a primitive" in a Paddle predictor, PaddleOCR without the
framework ("No module named 'paddle'"), paddlepaddle-gpu on a Jetson (no PyPI wheel), Paddle's
unversioned libcudnn.so, GPUs too new or too old for the installed build. Each message, verbatim
from its thread, reaches the cause the thread confirmed first, and one of that cause's fixes names
the knob the confirmed fix turned."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        # reporter: solved by passing enable_mkldnn=False to PaddleOCR (or older paddle)
        "https://github.com/PaddlePaddle/PaddleOCR/issues/17539",
        "I0123 10:21:47.322901 16792 onednn_context.cc:81] oneDNN v3.6.2\n🔥 Error: (Unimplemented) ConvertPirAttribute2RuntimeAttribute not support [pir::ArrayAttribute<pir::DoubleAttribute>]  (at ..\\paddle\\fluid\\framework\\new_executor\\instruction\\onednn\\onednn_instruction.cc:118)",
        "paddle.onednn-cpu-inference-failed",
        "enable_mkldnn=False",
    ),
    (
        # reporter: "This worked correctly in PaddlePaddle 3.2.x and earlier" (3.3.0 regression)
        "https://github.com/PaddlePaddle/Paddle/issues/77340",
        "# Run inference - FAILS in 3.3.0\npredictor.run()\n\nError Message\n\nNotImplementedError: (Unimplemented) ConvertPirAttribute2RuntimeAttribute not support [pir::ArrayAttribute<pir::DoubleAttribute>].",
        "paddle.onednn-cpu-inference-failed",
        "paddlepaddle==3.2",
    ),
    (
        # labelled upstream/paddlepaddle by the maintainers: the oneDNN/PIR bug of paddle 3.3
        "https://github.com/PaddlePaddle/PaddleOCR/issues/17947",
        "分层 OCR 识别失败：(Unimplemented) ConvertPirAttribute2RuntimeAttribute not support [pir::ArrayAttribute<pir::DoubleAttribute>]  (at ..\\paddle\\fluid\\framework\\new_executor\\instruction\\onednn\\onednn_instruction.cc:118)\n-------------------------------------------------------------------------------------------------\npython -m pip install paddlepaddle==3.3.0 -i https://www.paddlepaddle.org.cn/packages/stable/cpu/\npaddleocr = 3.4.1",
        "paddle.onednn-cpu-inference-failed",
        "enable_mkldnn",
    ),
    (
        # reporter: with mkldnn off the error is gone
        "https://github.com/PaddlePaddle/PaddleOCR/issues/7990",
        "    self.predictor.run()\nRuntimeError: could not execute a primitive\n```\n**关闭`mkldnn`时，就没有这种错误**，看了相关的issue，发现有人提出说是版本问题，但是我升级了版本，还是一样的问题；推测是mkldnn的问题",
        "paddle.onednn-cpu-inference-failed",
        "enable_mkldnn=False",
    ),
    (
        # reporter: 关闭mkldnn加速后没有此问题
        "https://github.com/PaddlePaddle/PaddleOCR/issues/13407",
        "开启mkldnn加速后，出现报错RuntimeError: could not execute a primitive",
        "paddle.onednn-cpu-inference-failed",
        "enable_mkldnn=False",
    ),
    (
        # maintainer: (with mkldnn on) update paddle to 2.1, where it was fixed
        "https://github.com/PaddlePaddle/PaddleOCR/issues/3313",
        "    self.predictor.run()\nRuntimeError: could not execute a primitive\n\n可以知道这是因为什么  如何修改吗",
        "paddle.onednn-cpu-inference-failed",
        "-U paddlepaddle",
    ),
    (
        # answer: paddlepaddle needs to be installed separately (pip install paddlepaddle)
        "https://github.com/PaddlePaddle/PaddleOCR/issues/11214",
        "  File \"C:\\Python38\\lib\\site-packages\\paddleocr\\paddleocr.py\", line 21, in <module>\n    import paddle\nModuleNotFoundError: No module named 'paddle'",
        "paddle.framework-not-installed",
        "pip install paddlepaddle -i",
    ),
    (
        # maintainers: 你没有装paddlepaddle / pip install paddlepaddle
        "https://github.com/PaddlePaddle/PaddleOCR/issues/4122",
        "我运行paddleocr --image_dir ./imgs/11.jpg --use_angle_cls true\nNo module named 'paddle' 什么问题？",
        "paddle.framework-not-installed",
        "pip install paddlepaddle -i",
    ),
    (
        # maintainer: 安装paddlepaddle了吗
        "https://github.com/PaddlePaddle/PaddleOCR/issues/804",
        "File \"D:\\Anaconda3\\lib\\site-packages\\paddleocr\\ppocr\\utils\\utility.py\", line 19, in <module>\n    from paddle import fluid\nNo module named 'paddle'",
        "paddle.framework-not-installed",
        "pip install paddlepaddle -i",
    ),
    (
        # maintainer: the aarch64 paddlepaddle-gpu is the Jetson build, downloaded from Paddle Inference
        "https://github.com/PaddlePaddle/Paddle/issues/36742",
        "On aarch64, ‘pip install paddlepaddle-gpu’ gives the following error:\n\n```\nERROR: Could not find a version that satisfies the requirement paddlepaddle-gpu (from versions: none)\nERROR: No matching distribution found for paddlepaddle-gpu\n```",
        "jetson.pypi-wheel",
        "paddle-inference-lib",
    ),
    (
        # maintainer: the JetPack 5.1.2 wheel on paddle-inference-lib.bj.bcebos.com
        "https://github.com/PaddlePaddle/Paddle/issues/72578",
        "Currently [Ultralytics export to paddlepaddle](https://docs.ultralytics.com/integrations/paddlepaddle) fails on NVIDIA Jetson devices due to lack of `aarch64` binaries on pypi.\nhttps://pypi.org/project/paddlepaddle-gpu/#files",
        "jetson.pypi-wheel",
        "paddle-inference-lib",
    ),
    (
        # maintainer: on a Jetson only the inference wheels (download page); the first post with its title
        "https://github.com/PaddlePaddle/Paddle/issues/31183",
        "Jetson nano pip install paddlepaddle-gpu==2.0.0报错\n\n安装报错：`python3 -m pip install paddlepaddle-gpu==2.0.0 -i https://mirror.baidu.com/pypi/simple`\n### python版本：3.6.9（pip版本：21.0.1）\n### cuda版本：10.2\n### JePack：4.4.1",
        "jetson.pypi-wheel",
        "paddle-inference-lib",
    ),
    (
        # comment (the fix that worked): link libcudnn.so to libcudnn.so.8 (LD_LIBRARY_PATH was not enough)
        "https://github.com/PaddlePaddle/Paddle/issues/30694",
        "RuntimeError: (PreconditionNotMet) Cannot load cudnn shared library. Cannot invoke method cudnnGetVersion.",
        "cuda.cudnn-missing",
        "ln -s",
    ),
    (
        # maintainer: "a30和cuda10.2不匹，此问题已解决" (A30 needs a CUDA 11 build)
        "https://github.com/PaddlePaddle/Paddle/issues/56514",
        "运行paddle.utils.run_check() 卡住不动\n\n### 问题描述 Issue Description\n\npaddle=2.2.2\ncuda 10.2\ncudnn 7.6.5\nNVIDIA A30\n可以在Tesla P40调通，但是在A30上调不通。",
        "paddle.gpu-too-new-for-build",
        "cu11",
    ),
    (
        # reporter: pip install paddle (an unrelated PyPI project) failed; paddlepaddle-gpu worked
        "https://github.com/PaddlePaddle/PaddleOCR/issues/1782",
        "pip install paddle出错\nfrom paddle import fluid\nImportError: cannot import name 'fluid'",
        "paddle.framework-not-installed",
        "pip install paddlepaddle",
    ),
]


test_message_reaches_its_cause_with_the_knob = knob_test(
    KNOB, columns=("source", "text", "finding_id", "knob")
)


# (thread, a real message of another cause, the cause it must not be read as first)
LOOKALIKE = [
    (
        # paddle.fluid was removed in Paddle 2.6: the framework is installed
        "https://github.com/PaddlePaddle/Paddle/issues/63317",
        "报错ModuleNotFoundError: No module named 'paddle.fluid' 已经下载过paddle该如何解决",
        "paddle.framework-not-installed",
    ),
    (
        # a folder named paddle shadowed the installed framework
        "https://github.com/PaddlePaddle/X2Paddle/issues/589",
        "    from paddle.fluid.proto import framework_pb2\nModuleNotFoundError: No module named 'paddle.fluid'",
        "paddle.framework-not-installed",
    ),
    (
        # Windows, Python 3.12: no wheel for that Python yet, not a Jetson
        "https://github.com/PaddlePaddle/Paddle/issues/57872",
        "ERROR: Could not find a version that satisfies the requirement paddlepaddle-gpu==2.5.1.post120 (from versions: none)\nERROR: No matching distribution found for paddlepaddle-gpu==2.5.1.post120",
        "jetson.pypi-wheel",
    ),
    (
        # Python 3.11 on Windows 11: no wheel for that Python yet
        "https://github.com/PaddlePaddle/Paddle/issues/54995",
        "win11下使用python3.11.4和CUDA12.2无法安装，无论带不带gpu都报错找不到版本\n\nLooking in indexes: https://pypi.tuna.tsinghua.edu.cn/simple\nERROR: Could not find a version that satisfies the requirement paddlepaddle-gpu==2.4.2 (from versions: none)\nERROR: No matching distribution found for paddlepaddle-gpu==2.4.2",
        "jetson.pypi-wheel",
    ),
    (
        # PyTorch's own oneDNN on a large conv: not a Paddle predictor
        "https://github.com/pytorch/pytorch/issues/55884",
        "    f1_r_shift = f.conv2d(f1, r_shift_kernel, padding=1, groups=64)\nRuntimeError: could not create a primitive",
        "paddle.onednn-cpu-inference-failed",
    ),
]


test_lookalike_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, columns=("source", "text", "tempting")
)
