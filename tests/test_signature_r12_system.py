"""The system layers beneath ML (checks/signatures/{cuda,python_env}.toml and the entries it extends):
driver and kernel-module loading, containers, WSL, Windows DLLs, and the package installers' own
failures (conda's __cuda constraint, an index that pip or conda cannot reach or cannot verify).
Each row is a message as posted in the public thread it cites, where the fix was confirmed; the
cause must come first, and one of its fixes must name the knob that fix turned."""

from __future__ import annotations

import pytest

from envdoctor.triage_engine import triage_text
from tests.triage_lines import lookalike_test

# (message, the finding id first, a command or phrase one of its fixes names, the thread)
KNOB = [
    (
        # Secure Boot rejected the unsigned DKMS module; turning Secure Boot off made it load
        "insmod: ERROR: could not insert module src/facer.ko: Key was rejected by service\n"
        "[ 1748.999277] Loading of module with unavailable key is rejected",
        "nvidia.secure-boot-blocks-module",
        "mokutil",
        "https://github.com/JafarAkhondali/acer-predator-turbo-and-rgb-keyboard-linux-module/issues/113",
    ),
    (
        # the host had no NVIDIA driver installed
        "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot"
        " open shared object file: no such file or directory: unknown.",
        "container.nvml-library-not-found",
        "nvidia-smi",
        "https://github.com/docker/for-win/issues/13835",
    ),
    (
        # fbgemm.dll's dependency libomp140.x86_64.dll missing (maintainer's link; labelled solved)
        'OSError: [WinError 126] 找不到指定的模块。 Error loading "D:\\mysoft\\anaconda3\\envs\\'
        'llama_factory\\Lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies',
        "windows.dll-dependency-missing",
        "winget install Microsoft.VCRedist.2015+.x64",
        "https://github.com/hiyouga/LlamaFactory/issues/5132",
    ),
    (
        # the Visual C++ Redistributable made the error go away
        '[Bug]: Error loading "...c10.dll" or one of its dependencies',
        "windows.dll-dependency-missing",
        "winget install Microsoft.VCRedist.2015+.x64",
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/9929",
    ),
    (
        # replacing the copies with symbolic links to libcuda.so.1.1 worked
        "ldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link",
        "wsl.libcuda-not-symlink",
        "mklink libcuda.so libcuda.so.1.1",
        "https://github.com/microsoft/WSL/issues/5663",
    ),
    (
        # the driver supported CUDA 10.2; updating the driver (520.61) solved it
        "Encountered problems while solving:\n"
        "  - package cudatoolkit-11.6.0-habf752d_9 has constraint __cuda >=11.6.0 conflicting with"
        " __cuda-10.2-0",
        "cuda.toolkit-newer-than-driver",
        "CUDA 11.6",
        "https://github.com/MPI-Dortmund/tomotwin-cryoet/issues/3",
    ),
    (
        # proxy_servers (with the user and password) in .condarc solved it
        "CondaHTTPError: HTTP 000 CONNECTION FAILED for url "
        "<https://repo.continuum.io/pkgs/main/linux-64/repodata.json.bz2>\n"
        "Elapsed: -\n\n"
        "An HTTP error occurred when trying to retrieve this URL.\n"
        "HTTP errors are often intermittent, and a simple retry will get you on your way.\n"
        "ProxyError(MaxRetryError(\"HTTPSConnectionPool(host='repo.continuum.io', port=443): Max "
        "retries exceeded with url: /pkgs/main/linux-64/repodata.json.bz2 (Caused by "
        "ProxyError('Cannot connect to proxy.', OSError('Tunnel connection failed: 407 Proxy "
        "Authentication Required',)))\",),)",
        "python.package-index-unreachable",
        "conda config --set proxy_servers.https http://<user>:<password>@<proxy-host>:<port>",
        "https://github.com/conda/conda/issues/6341",
    ),
    (
        # the maintainer: the machine cannot connect to download.pytorch.org; try a proxy
        "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) "
        "after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection."
        "HTTPSConnection object at 0x7ff99f4f7970>: Failed to establish a new connection: [Errno -3]"
        " Temporary failure in name resolution')': /whl/torch_stable.html\n"
        "ERROR: Could not find a version that satisfies the requirement torch==1.7.1+cu110\n"
        "ERROR: No matching distribution found for torch==1.7.1+cu110",
        "python.package-index-unreachable",
        "pip install --proxy http://<user>:<password>@<proxy-host>:<port> <package>",
        "https://github.com/pytorch/pytorch/issues/51723",
    ),
    (
        # the maintainer: the connection is misconfigured (conda and pip both failed)
        "CondaHTTPError: HTTP 000 CONNECTION FAILED for url "
        "<https://conda.anaconda.org/pytorch/linux-64/repodata.json>\n"
        "Elapsed: -\n\n"
        "An HTTP error occurred when trying to retrieve this URL.\n"
        "HTTP errors are often intermittent, and a simple retry will get you on your way.\n"
        "ConnectionError(MaxRetryError(\"HTTPSConnectionPool(host='conda.anaconda.org', port=443): "
        "Max retries exceeded with url: /pytorch/linux-64/repodata.json (Caused by "
        "NewConnectionError('<urllib3.connection.VerifiedHTTPSConnection object at 0x7ff878897240>:"
        " Failed to establish a new connection: [Errno 101] Network is unreachable',))\",),)",
        "python.package-index-unreachable",
        "curl -I https://conda.anaconda.org/pytorch/linux-64/repodata.json",
        "https://github.com/pytorch/pytorch/issues/4532",
    ),
    (
        # download.pytorch.org's certificate had expired; --trusted-host got around it until renewal
        "Could not fetch URL https://download.pytorch.org/whl/cpu/torchvision/: There was a problem"
        " confirming the ssl certificate: HTTPSConnectionPool(host='download.pytorch.org', "
        "port=443): Max retries exceeded with url: /whl/cpu/torchvision/ (Caused by "
        "SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify"
        " failed: certificate has expired (_ssl.c:1133)'))) - skipping",
        "python.package-index-ssl-failed",
        "pip install --trusted-host download.pytorch.org <package>",
        "https://github.com/pytorch/pytorch/issues/150492",
    ),
    (
        # a VPN proxy re-signs HTTPS; the merged workaround marks the index hosts trusted
        "Could not fetch URL https://pypi.org/simple/pip/: There was a problem confirming the ssl "
        "certificate: HTTPSConnectionPool(host='pypi.org', port=443): Max retries exceeded with "
        "url: /simple/pip/ (Caused by SSLError(SSLCertVerificationError(1, '[SSL: "
        "CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer "
        "certificate (_ssl.c:1007)'))) - skipping",
        "python.package-index-ssl-failed",
        "pip install --trusted-host pypi.org --trusted-host files.pythonhosted.org <package>",
        "https://github.com/intel/gprofiler/pull/945",
    ),
    (
        # copying libcrypto-1_1-x64.dll and libssl-1_1-x64.dll from Library\bin to DLLs worked
        "conda install -c conda-forge pytube\n"
        "Collecting package metadata (current_repodata.json): failed\n\n"
        "CondaSSLError: OpenSSL appears to be unavailable on this machine. OpenSSL is required to\n"
        "download and install packages.\n\n"
        "Exception: HTTPSConnectionPool(host='conda.anaconda.org', port=443): Max retries exceeded"
        " with url: /conda-forge/win-64/current_repodata.json (Caused by SSLError(\"Can't connect "
        'to HTTPS URL because the SSL module is not available."))',
        "conda.env-not-activated",
        'copy "<conda root>\\Library\\bin\\libcrypto-1_1-x64.dll" "<conda root>\\DLLs\\"',
        "https://github.com/conda/conda/issues/11982",
    ),
]


def _names(finding) -> list[str]:
    return [c for fix in finding.fixes for c in (*fix.commands, fix.summary)]


@pytest.mark.parametrize(
    ("text", "finding_id", "knob", "url"), KNOB, ids=[k[3].split("github.com/")[1] for k in KNOB]
)
def test_a_common_message_gets_its_cause_and_the_knob_it_states(text, finding_id, knob, url):
    finding = triage_text(text + "\n").findings[0]
    assert finding.id == finding_id, url
    assert any(knob in name for name in _names(finding)), url


# real messages of other causes that the new patterns must not take
LOOKALIKE = [
    (
        # downloading model weights from Python, not an installer
        "ssl.SSLError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed (_ssl.c:852)",
        "python.package-index-ssl-failed",
        "https://github.com/pytorch/ignite/pull/622",
    ),
    (
        # Python too new for any torch wheel: the index was reached
        'When I run install.sh, it says \n\n"Could not find a version that satisfies the '
        'requirement torch"',
        "python.package-index-unreachable",
        "https://github.com/jhj0517/Whisper-WebUI/issues/71",
    ),
    (
        # a pytorch-cuda pin conflict among packages, not the driver's __cuda
        "LibMambaUnsatisfiableError: Encountered problems while solving:\n"
        "  - package torchaudio-2.0.2-py310_cu117 requires pytorch-cuda 11.7.*, but none of the "
        "providers can be installed\n\nCould not solve for environment specs",
        "cuda.toolkit-newer-than-driver",
        "https://github.com/mhpi/hydroDL/issues/24",
    ),
]


test_a_look_alike_message_is_not_read_as_the_cause = lookalike_test(
    LOOKALIKE, ids=[k[2] for k in LOOKALIKE], may_be_empty=True, newline=True
)
