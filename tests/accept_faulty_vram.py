"""A wrapper run as the "interpreter" of `envdoctor accept` in tests: it runs the real load script
(its path is the first argument) with the CPU build of torch, except that on the second GPU the
random pattern reads back wrong at 7 addresses of the first chunk, as defective VRAM would.
Everything else (correctness, bandwidth, the other patterns, the load) runs for real."""

import importlib.util
import sys

spec = importlib.util.spec_from_file_location("accept_load_script", sys.argv[1])
load = importlib.util.module_from_spec(spec)
spec.loader.exec_module(load)
BAD = [3, 17, 4096, 4097, 70000, 123457, 524287]  # int32 elements of the first chunk
state = {"index": None}
real_run_gpu, real_expected = load.run_gpu, load.expected_value


def run_gpu(torch, index, seconds, fraction):
    state["index"] = index
    return real_run_gpu(torch, index, seconds, fraction)


def expected_value(torch, chunk, pattern, step, seed):
    value = real_expected(torch, chunk, pattern, step, seed)
    if state["index"] == 1 and pattern == "random" and seed == 1000:  # chunk 0 of GPU 1
        value[BAD] ^= 1  # what was written and what reads back differ in one bit
    return value


load.run_gpu, load.expected_value = run_gpu, expected_value
sys.exit(load.main(sys.argv[2:]))
