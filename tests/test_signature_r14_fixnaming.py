"""Fix naming (round 14): a cuDNN library that is not found gets the loader variable its fix sets.
Each message is copied from the thread cited beside it; look-alike messages of other causes are
not caught by the new pattern."""

from __future__ import annotations

import pytest
from triage_lines import knob_test

from envdoctor.triage_engine import triage_text

# (message verbatim from the thread, the finding id first, what one of its fixes names, thread)
KNOB = [
    # Torch7's cudnn binding: the reporter's fix was exporting LD_LIBRARY_PATH ("That seems to have
    # fixed the issue")
    (
        "/home/user/torch/install/bin/luajit: /home/user/torch/install/share/lua/5.1/trepl/init.lua:384: "
        "/home/ben/torch/install/share/lua/5.1/trepl/init.lua:384: "
        "/home/user/torch/install/share/lua/5.1/cudnn/ffi.lua:1279: 'libcudnn (R4) not found in "
        "library path.\nPlease install CuDNN from https://developer.nvidia.com/cuDNN\nThen make sure "
        "files named as libcudnn.so.4 or libcudnn.4.dylib are placed in your library load path (for "
        "example /usr/local/lib , or manually add a path to LD_LIBRARY_PATH)",
        "cuda.cudnn-missing",
        "LD_LIBRARY_PATH",
        "https://github.com/jcjohnson/neural-style/issues/154",
    ),
    # the same message for cuDNN 5: "solved it using export LD_LIBRARY_PATH=/usr/local/cuda-7.5/lib64"
    (
        "/usr/local/bin/luajit: /usr/local/share/lua/5.1/trepl/init.lua:384: "
        "/usr/local/share/lua/5.1/trepl/init.lua:384: /usr/local/share/lua/5.1/cudnn/ffi.lua:1599: "
        "'libcudnn (R5) not found in library path.\nPlease install CuDNN from "
        "https://developer.nvidia.com/cuDNN\nThen make sure files named as libcudnn.so.5 or "
        "libcudnn.5.dylib are placed in your library load path (for example /usr/local/lib , or "
        "manually add a path to LD_LIBRARY_PATH)",
        "cuda.cudnn-missing",
        "LD_LIBRARY_PATH",
        "https://github.com/jcjohnson/neural-style/issues/247",
    ),
    # the maintainer: libcudnn.so.5 must be in one of the directories of $LD_LIBRARY_PATH
    (
        "/usr/local/bin/luajit: /usr/local/share/lua/5.1/trepl/init.lua:384: "
        "/usr/local/share/lua/5.1/trepl/init.lua:384: /usr/local/share/lua/5.1/cudnn/ffi.lua:1598: "
        "'libcudnn (R5) not found in library path.\nPlease install CuDNN from "
        "https://developer.nvidia.com/cuDNN\nThen make sure files named as libcudnn.so.5 or "
        "libcudnn.5.dylib are placed in your library load path (for example /usr/local/lib , or "
        "manually add a path to LD_LIBRARY_PATH)",
        "cuda.cudnn-missing",
        "libcudnn.so.5",
        "https://github.com/jcjohnson/neural-style/issues/284",
    ),
]


test_a_common_message_gets_its_cause_and_the_knob_it_states = knob_test(
    KNOB, ids=[k[3] for k in KNOB]
)


@pytest.mark.parametrize(
    ("text", "not_id", "url"),
    [
        # a cuDNN that loads but is another version than the build's: a mismatch, not a missing file
        (
            "[...cuda_dnn.cc:352] Loaded runtime CuDNN library: 6021 (compatibility version 6000) but "
            "source was compiled with 5105 (compatibility version 5100).  If using a binary install, "
            "upgrade your CuDNN library to match.  If building from sources, make sure the library "
            "loaded at runtime matches a compatible version specified during compile configuration.",
            "cuda.cudnn-missing",
            "https://github.com/tensorflow/tensorflow/issues/9735",
        ),
    ],
)
def test_a_look_alike_message_is_not_read_as_the_cause(text, not_id, url) -> None:
    findings = triage_text(text + "\n").findings
    assert not findings or findings[0].id != not_id, url
