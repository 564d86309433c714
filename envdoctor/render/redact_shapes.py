"""What a report's private data looks like: the key names, text shapes and envdoctor's own
vocabulary that `envdoctor.render.redact` uses to find user and host names, addresses, ids,
serials and secrets (kept apart from the redaction logic so each file has one job)."""

from __future__ import annotations

import math
import re
from collections import Counter

# -- what counts as what -------------------------------------------------------------------------

SECRET_WORDS = {
    "TOKEN",
    "TOKENS",
    "KEY",
    "KEYS",
    "SECRET",
    "SECRETS",
    "PASSWORD",
    "PASSWORDS",
    "PASSWD",
    "PASSPHRASE",
    "CREDENTIAL",
    "CREDENTIALS",
    "CREDS",
    "AUTH",
    "APIKEY",
    "COOKIE",
    "COOKIES",
    "PRIVATE",
    "SIGNATURE",
    "BEARER",
    "PAT",
}
SECRET_SUFFIXES = ("TOKEN", "APIKEY", "ACCESSKEY", "SECRETKEY", "SECRET", "PASSWORD", "PASSWD")
SERIAL_KEYS = {
    "serial",
    "serial_number",
    "serialnumber",
    "board_serial",
    "board_serial_number",
    "gpu_serial",
    "chassis_serial_number",
    "unique_id",
    "uniqueid",
    "serial number",
    "unique id",
    "board serial number",
}
HOST_KEYS = {
    "hostname",
    "host_name",
    "nodename",
    "node_name",
    "fqdn",
    "computername",
    "computer_name",
    "slurmd_nodename",
    "slurm_nodelist",
    "slurm_job_nodelist",
}
USER_KEYS = {
    "user",
    "username",
    "user_name",
    "logname",
    "login",
    "sudo_user",
    "slurm_job_user",
    "owner",
}
EXEMPT_KEY = re.compile(r"(?i)(version|commit|digest|sha\d*|checksum|hash)$")
GENERIC_USERS = {
    "root",
    "user",
    "users",
    "admin",
    "administrator",
    "ubuntu",
    "debian",
    "centos",
    "fedora",
    "ec2-user",
    "nobody",
    "runner",
    "jovyan",
    "docker",
    "vagrant",
    "pi",
    "coder",
    "app",
    "guest",
    "test",
    "default",
    "shared",
    "public",
    "all users",
    "default user",
    "linuxbrew",
    "opc",
    "azureuser",
    "cloud-user",
    "admin1",
    "home",
}
GENERIC_HOSTS = {
    "localhost",
    "localhost.localdomain",
    "ip6-localhost",
    "ip6-loopback",
    "redacted-host",
    "host",
    "none",
    "unknown",
    "n/a",
    "(none)",
    "local",
}
NOT_A_VALUE = {
    "",
    "n/a",
    "na",
    "none",
    "null",
    "not supported",
    "[n/a]",
    "unknown",
    "redacted",
    "not available",
    "[not supported]",
    "0",
    "-",
}

PEM = re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S)
URL_CREDENTIALS = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)([^\s/@:<>\"']+:[^\s/@<>\"']+)@")
AUTH_HEADER = re.compile(
    r"(?i)\b(authorization|proxy-authorization|x-api-key|x-auth-token)"
    r"(\s*[:=]\s*)(?:(bearer|basic|token|digest)\s+)?([^\s\"',;]+)"
)
ASSIGNMENT = re.compile(r"""(?x)
    (?P<name>\b[A-Za-z_][A-Za-z0-9_.-]*)      # NAME
    (?P<sep>["']?\s*(?::(?!//)|=|=>)\s*)      # = or : (also "NAME": in JSON; not a URL's "https://")
    (?P<quote>["'])?
    (?P<value>(?(quote)[^"'\n]{1,4096}|[^\s"'<>,;&()\[\]]{1,4096}))   # quoted: up to the quote
""")
KEY_SHAPES = re.compile(r"""(?x)
    \b(?:
        hf_[A-Za-z0-9]{30,}                              # Hugging Face
      | gh[pousr]_[A-Za-z0-9]{30,}                        # GitHub tokens
      | github_pat_[A-Za-z0-9_]{30,}
      | sk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_-]{20,}  # OpenAI / Anthropic / Stripe
      | (?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}          # AWS access key ids
      | xox[abposr]-[A-Za-z0-9-]{10,}                     # Slack
      | glpat-[A-Za-z0-9_-]{20,}                          # GitLab
      | AIza[0-9A-Za-z_-]{35}                             # Google API keys
      | npm_[A-Za-z0-9]{36}
      | pypi-[A-Za-z0-9_-]{50,}
      | eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}   # JWT
    )""")
UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
GPU_UUID = re.compile(rf"\bGPU-(?:{UUID}|[0-9a-fA-F]{{16}})\b")
MIG_UUID = re.compile(rf"\bMIG-{UUID}\b")
ANY_UUID = re.compile(rf"(?<![\w-]){UUID}(?![\w-])")
DOCKER_INFO_NAME = re.compile(
    r"(?m)^ Name: ([A-Za-z0-9][A-Za-z0-9.-]*)$"
)  # `docker info`: the host
# a shell prompt: "jane@box7:~$ ", "(base) root@gpu-node-3:/workspace# ": its user and host (a
# path after the colon and the prompt's $ / # tell it from an e-mail address or git@host:org/repo)
PROMPT = re.compile(
    r"(?<![\w.@-])(?P<user>[a-z_][a-z0-9_.-]{0,31})@(?P<host>[A-Za-z0-9][A-Za-z0-9.-]{0,62})"
    r":(?:~|/)[^\s$#]{0,200}[$#](?=\s|$)"
)
SERIAL_TEXT = re.compile(
    r"(?i)(?P<label>serial(?:[ _-]?(?:number|no))?|unique[ _-]?id)"
    r"(?P<sep>[\"']?\s*(?:[:=]|>)\s*[\"']?)(?P<value>[A-Za-z0-9][A-Za-z0-9_-]{3,})"
)
MAC = re.compile(
    r"(?<![\w:-])[0-9A-Fa-f]{2}(?:([:-])[0-9A-Fa-f]{2})(?:\1[0-9A-Fa-f]{2}){4}(?![\w:-])"
)
IPV4 = re.compile(
    r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}"
    r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\w]|\.\w)"
)
IPV6_CANDIDATE = re.compile(r"(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}(?![\w:])")
DASHED_IP_HOST = re.compile(
    r"(?<![\w.-])[A-Za-z][A-Za-z0-9]*-(?:\d{1,3}-){3}\d{1,3}"
    r"(?:\.[A-Za-z0-9-]+)*(?![\w-])"
)
HOME = re.compile(
    r"(?P<prefix>(?:/home|/Users|/var/home|/export/home)/)"
    r"(?P<name>[A-Za-z0-9_][A-Za-z0-9_.@-]{0,63})(?![A-Za-z0-9_.@-])"
)
WINDOWS_HOME = re.compile(
    r"(?i)(?P<prefix>\b[A-Z]:(?:\\{1,2}|/)Users(?:\\{1,2}|/))"
    r"(?P<name>[A-Za-z0-9_][A-Za-z0-9_.@ -]{0,63}?)(?=\\|/|[\"':;,)\]}>\n]|$)"
)
HEX = re.compile(r"(?<![\w-])[0-9a-fA-F]{32,}(?![\w-])")
BASE64 = re.compile(r"(?<![\w+/=-])[A-Za-z0-9+/_-]{40,}={0,2}(?![\w+/=-])")
HEX_CONTEXT = re.compile(
    r"(?i)(sha\d*|commit|version|digest|git|rev|hash|checksum|build)[\w\s:=\"'-]{0,12}$"
)
PSEUDONYM = re.compile(r"<[a-z0-9-]+-\d+>")
# --gradio-auth user:pass, --api-key=X, -p? no: long options only (short ones say nothing)
OPTION_VALUE = re.compile(
    r"""(?P<flag>(?<![\w-])--[A-Za-z][\w-]*)(?P<sep>=|[ \t]+)(?P<quote>["'])?"""
    r"""(?P<value>(?(quote)[^"'\n]{1,4096}|[^\s"'<>;&|]{1,4096}))"""
)
OPTION_SECRET_PARTS = ("TOKEN", "KEY", "PASSWORD", "PASSWD", "SECRET", "AUTH", "CREDENTIAL")
OPTION_NOT_SECRET_PARTS = ("TOKENIZER", "AUTHOR", "KEYBOARD", "MONKEY", "HOTKEY")
PATH_VALUE = re.compile(
    r"(?:~|\.{1,2}|\$\w+)?/[^\s]*|[A-Za-z]:[\\/][^\n]*|[\w.-]+\.(?:pem|key|crt|json|txt)"
)
NUMBER_VALUE = re.compile(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?[kKmMgG]?|true|false|yes|no|none")
# the words envdoctor itself uses, beyond those of the document's ids (see the module docstring)
VOCABULARY = {
    "nvidia",
    "cuda",
    "gpu",
    "gpus",
    "linux",
    "vm",
    "amd",
    "intel",
    "rocm",
    "hip",
    "xpu",
    "torch",
    "pytorch",
    "python",
    "docker",
    "podman",
    "driver",
    "kernel",
    "host",
    "node",
    "container",
    "platform",
    "wsl",
    "windows",
    "macos",
    "apple",
    "jetson",
    "tegra",
    "slurm",
    "kubernetes",
    "k8s",
    "cpu",
    "nccl",
    "cudnn",
    "conda",
    "pip",
    "os",
    "apps",
    "app",
    "debian",
    "ubuntu",
    "centos",
    "fedora",
    "rhel",
    "rocky",
    "alma",
    "arch",
    "suse",
    "gnu",
    "kvm",
    "qemu",
    "vmware",
    "hyperv",
    "xen",
    "nvml",
    "smi",
    "toolkit",
    "cdi",
    "envdoctor",
    "triage",
    "check",
    "report",
    "fleet",
    "fit",
    "preflight",
    "cuda-toolkit",
    "libraries",
    "library",
    "module",
}
VOCABULARY_KEYS = {"id", "explains", "passed", "fact", "ids"}
WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*")
URL_TOKEN = re.compile(r"[a-z][a-z0-9+.-]*://\S*$", re.I)
# envdoctor's own words about a finding, never pasted text ("signature:memory.cuda-out-of-memory"
# reads as a SIGNATURE: assignment)
OWN_KEYS = frozenset({"origin"})
# values that a secret-named key ("key:", "token=") holds in envdoctor's own fixes and in real
# configs, and that are no secret: Kubernetes device resource names (a toleration's
# `key: nvidia.com/gpu`)
OWN_VALUE = re.compile(r"(?:nvidia\.com|amd\.com|gpu\.intel\.com|habana\.ai)/[\w.-]{1,40}")


def is_secret_name(name: str) -> bool:
    """Whether an environment variable or key name says its value is secret (HF_TOKEN, api_key)."""
    upper = name.upper()
    parts = [p for p in re.split(r"[_.\-\s]+", upper) if p]
    if any(p in SECRET_WORDS for p in parts):
        return True
    return any(p.endswith(SECRET_SUFFIXES) for p in parts)


def meaningful(value: str) -> bool:
    text = value.strip().strip("\"'")
    return text.lower() not in NOT_A_VALUE and bool(text.strip("0 "))


def entropy(text: str) -> float:
    counts = Counter(text)
    return -sum(c / len(text) * math.log2(c / len(text)) for c in counts.values())
