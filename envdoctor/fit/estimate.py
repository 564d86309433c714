"""How much GPU memory a model workload needs: the estimator behind `envdoctor fit`.

Pure functions of a `Workload` (model shape, number format, task, context, batch, optimizer,
checkpointing, GPUs). Every byte count is one `Term` with a formula id, the formula with its
numbers filled in, and the source it comes from. The terms:

- weights: N · bytes per parameter (fp32 4, fp16/bf16 2, fp8/int8 1, int4 = NF4 4.127 bits).
- gradients (full fine-tuning): N · 2 bytes in mixed precision, N · 4 in fp32 (ZeRO, Rajbhandari
  et al. 2019, https://arxiv.org/abs/1910.02054 §3.1: "2Ψ + 2Ψ + KΨ = 16Ψ bytes", K = 12 for
  mixed-precision Adam).
- optimizer state: K bytes per trained parameter (table `OPTIMIZER_BYTES`).
- activations (training): per layer s·b·h·(34 + 5·a·s/h) bytes in 16-bit without recomputation,
  2·s·b·h per layer with full recomputation (Korthikanti et al. 2022,
  https://arxiv.org/abs/2205.05198 §4). Flash attention (the default assumption) never stores the
  a·s² attention scores, so the 5·a·s/h term is dropped.
- logits (training): 4·s·b·V bytes for the loss in float32 (PyTorch autocast runs cross_entropy /
  log_softmax in float32: https://pytorch.org/docs/stable/amp.html#cuda-ops-that-can-autocast-to-float32).
- kv cache (inference): 2 · layers · kv_heads · head_dim · context · batch · bytes (Kwon et al.
  2023, https://arxiv.org/abs/2309.06180 §3: OPT-13B "800 KB" per token = 2 × 5120 × 40 × 2).
- LoRA adapters: r·(d_in + d_out) per adapted matrix, every linear layer of each block (Dettmers
  et al. 2023, https://arxiv.org/abs/2305.14314 §4: LoRA on all linear layers is needed to match
  full fine-tuning), trained in fp32 with their own gradients and optimizer state.
- QLoRA base: NF4 4-bit weights plus double-quantised constants, 8/64 + 32/(64·256) = 0.127 bits
  per parameter (Dettmers et al. 2023 §3); embeddings and the output layer stay 16-bit.
- framework overhead: the CUDA context and kernels, 1343 MiB measured by Hugging Face (
  https://huggingface.co/docs/transformers/model_memory_anatomy: "the kernels alone take up 1.3GB").

When only a parameter count is known the shape is derived (Kaplan et al. 2020,
https://arxiv.org/abs/2001.08361 §2.1: N ≈ 12·n_layer·d_model², with head_dim 128 and
d_model = 128·n_layer as in LLaMA-7B 4096/32 and GPT-3 175B 12288/96), and the shape-dependent
terms are labelled estimates. Sizes are bytes; GiB = 2**30 bytes, GB = 10**9 bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

GIB = float(1 << 30)
MIB = float(1 << 20)

DTYPES = ("fp32", "fp16", "bf16", "fp8", "int8", "int4")
TASKS = ("inference", "full", "lora", "qlora")
OPTIMIZERS = ("adamw", "adamw-8bit", "sgd", "adafactor")

# bytes per weight as stored
NF4_DQ_BITS = 4 + 8 / 64 + 32 / (64 * 256)  # 4.127: NF4 + double-quantised constants (QLoRA §3)
WEIGHT_BYTES = {
    "fp32": 4.0,
    "fp16": 2.0,
    "bf16": 2.0,
    "fp8": 1.0,
    "int8": 1.0,
    "int4": NF4_DQ_BITS / 8,
}
QUANTISED = ("int8", "int4")

# optimizer state bytes per trained parameter: (fp32 training, mixed precision incl. the fp32 master copy)
OPTIMIZER_BYTES = {
    "adamw": (8.0, 12.0),  # m + v in fp32; + fp32 master weights (ZeRO K = 12)
    "adamw-8bit": (2.0, 6.0),  # bitsandbytes 8-bit m + v (HF model_memory_anatomy: 2 bytes/param)
    "sgd": (4.0, 8.0),  # momentum (HF model_memory_anatomy: 4 bytes/param)
    "adafactor": (0.0, 4.0),  # factored second moment, O(rows + cols) per matrix (counted apart)
}
OPTIMIZER_SOURCES = {
    "adamw": "https://arxiv.org/abs/1910.02054",
    "adamw-8bit": "https://huggingface.co/docs/transformers/model_memory_anatomy",
    "sgd": "https://huggingface.co/docs/transformers/model_memory_anatomy",
    "adafactor": "https://arxiv.org/abs/1804.04235",
}
FRAMEWORK_OVERHEAD_BYTES = 1343 * MIB
FRAMEWORK_SOURCE = "https://huggingface.co/docs/transformers/model_memory_anatomy"
KORTHIKANTI = "https://arxiv.org/abs/2205.05198"
KAPLAN = "https://arxiv.org/abs/2001.08361"
QLORA = "https://arxiv.org/abs/2305.14314"
ZERO = "https://arxiv.org/abs/1910.02054"
VLLM = "https://arxiv.org/abs/2309.06180"
AMP = "https://pytorch.org/docs/stable/amp.html#cuda-ops-that-can-autocast-to-float32"

DERIVED_HEAD_DIM = 128
DERIVED_ASPECT = 128  # d_model / n_layer
DERIVED_VOCAB = 32000


@dataclass(frozen=True)
class ModelShape:
    """A decoder-only transformer: sizes as in a Hugging Face config.json."""

    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    ffn: int
    vocab: int
    tied_embeddings: bool = False
    gated_mlp: bool = True
    name: str | None = None
    source: str | None = None
    derived: bool = False  # True when guessed from the parameter count alone

    @property
    def embedding_params(self) -> int:
        """Input embeddings plus the output layer (once when tied)."""
        return self.vocab * self.hidden * (1 if self.tied_embeddings else 2)

    @property
    def params(self) -> int:
        """Parameter count implied by the shape (biases left out)."""
        return self.layers * self.layer_params + self.embedding_params + self.hidden

    @property
    def layer_params(self) -> int:
        """Weights of one block: attention projections, MLP, two norms."""
        return sum(i * o for i, o in self.block_matrices()) + 2 * self.hidden

    def block_matrices(self) -> list[tuple[int, int]]:
        """(in, out) of every linear layer of one block: q, k, v, o, then the MLP."""
        q_out = self.heads * self.head_dim
        kv_out = self.kv_heads * self.head_dim
        attention = [
            (self.hidden, q_out),
            (self.hidden, kv_out),
            (self.hidden, kv_out),
            (q_out, self.hidden),
        ]
        mlp = [(self.hidden, self.ffn)] * (2 if self.gated_mlp else 1) + [(self.ffn, self.hidden)]
        return attention + mlp

    def to_dict(self) -> dict:
        """JSON form."""
        return {
            "name": self.name,
            "layers": self.layers,
            "hidden": self.hidden,
            "heads": self.heads,
            "kv_heads": self.kv_heads,
            "head_dim": self.head_dim,
            "ffn": self.ffn,
            "vocab": self.vocab,
            "tied_embeddings": self.tied_embeddings,
            "gated_mlp": self.gated_mlp,
            "params": self.params,
            "derived": self.derived,
            "source": self.source,
        }


def derive_shape(params: float) -> ModelShape:
    """A plausible shape for `params` parameters: N ≈ 12·L·d² + 2·V·d with d = 128·L (Kaplan et
    al. 2020, head_dim 128), MLP 4·d, multi-head attention (kv_heads = heads, the largest KV cache),
    vocabulary 32000, untied embeddings."""
    target = max(float(params), 1.0)

    def total(layers: float) -> float:
        d = DERIVED_ASPECT * layers
        return 12 * layers * d * d + 2 * DERIVED_VOCAB * d

    lo, hi = 0.01, 1000.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if total(mid) < target else (lo, mid)
    layers = max(1, round(lo))
    hidden = DERIVED_ASPECT * layers
    heads = max(1, hidden // DERIVED_HEAD_DIM)
    return ModelShape(
        layers=layers,
        hidden=hidden,
        heads=heads,
        kv_heads=heads,
        head_dim=DERIVED_HEAD_DIM,
        ffn=4 * hidden,
        vocab=DERIVED_VOCAB,
        tied_embeddings=False,
        gated_mlp=False,
        name=None,
        source=KAPLAN,
        derived=True,
    )


@dataclass(frozen=True)
class Workload:
    """What is to run: `params` parameters of `shape`, stored as `dtype`, for `task`."""

    params: float
    shape: ModelShape
    dtype: str
    task: str
    context: int = 2048
    batch: int = 1
    optimizer: str = "adamw"
    checkpointing: bool = False
    flash_attention: bool = True
    lora_rank: int = 16
    gpus: int = 1
    offload_optimizer: bool = False  # optimizer state (and master weights) kept in CPU memory

    @property
    def training(self) -> bool:
        """Whether gradients flow (anything but inference)."""
        return self.task != "inference"

    def but(self, **changes) -> Workload:  # noqa: ANN003
        """A copy with some fields changed (for alternatives)."""
        return replace(self, **changes)


@dataclass(frozen=True)
class Term:
    """One part of the memory need, in bytes per GPU."""

    key: str
    label: str
    bytes: float
    formula_id: str
    formula: str
    source: str
    estimate: bool = False

    @property
    def gib(self) -> float:
        """The term in GiB."""
        return self.bytes / GIB

    def to_dict(self) -> dict:
        """JSON form."""
        return {
            "term": self.key,
            "label": self.label,
            "gib": round(self.gib, 3),
            "formula_id": self.formula_id,
            "formula": self.formula,
            "source": self.source,
            "estimate": self.estimate,
        }


@dataclass(frozen=True)
class Estimate:
    """The memory one GPU needs for a workload, term by term, and the assumptions behind it."""

    workload: Workload
    terms: tuple[Term, ...]
    assumptions: tuple[str, ...] = field(default_factory=tuple)

    @property
    def total_bytes(self) -> float:
        """Bytes per GPU."""
        return sum(t.bytes for t in self.terms)

    @property
    def total_gib(self) -> float:
        """GiB per GPU."""
        return self.total_bytes / GIB

    def term(self, key: str) -> Term | None:
        """The term called `key`, or None."""
        return next((t for t in self.terms if t.key == key), None)


def estimate(w: Workload) -> Estimate:
    """The memory one GPU needs for workload `w` (sharded over `w.gpus` GPUs)."""
    n, s = float(w.params), w.shape
    shard = max(1, w.gpus)
    per = f" / {shard} GPUs" if shard > 1 else ""
    terms: list[Term] = []
    assumptions: list[str] = []
    act_bytes = 4.0 if w.dtype == "fp32" else 2.0
    if w.gpus > 1:
        assumptions.append(
            f"Weights, gradients, optimizer state and KV cache are split evenly over {w.gpus} GPUs "
            "(ZeRO-3 / FSDP for training, tensor parallelism for inference); activations and the "
            "framework overhead are per GPU."
        )

    terms.append(_weights(w, n, s, shard, per, assumptions))
    if w.task == "full":
        grad = 4.0 if w.dtype == "fp32" else 2.0
        terms.append(
            Term(
                "gradients",
                "gradients",
                n * grad / shard,
                "grad.full",
                f"{_count(n)} × {grad:g} B{per}",
                ZERO,
            )
        )
        terms.extend(_optimizer(w, n, s, shard, per, assumptions))
    elif w.task in ("lora", "qlora"):
        terms.append(_adapters(w, s, shard, per, assumptions))
    if w.training:
        terms.extend(_training_activations(w, s, act_bytes, assumptions))
    else:
        terms.append(_inference_activations(w, s, act_bytes))
        terms.append(_kv_cache(w, s, shard, per))
    terms.append(
        Term(
            "overhead",
            "framework (CUDA context, kernels)",
            FRAMEWORK_OVERHEAD_BYTES,
            "overhead.cuda-context",
            "1343 MiB per GPU (measured: CUDA context + kernels)",
            FRAMEWORK_SOURCE,
        )
    )
    assumptions.append(
        "Framework overhead: the CUDA context and kernels, 1343 MiB as Hugging Face "
        "measured it (1-2 GB; less with CUDA lazy loading); allocator fragmentation "
        "comes on top."
    )
    if s.derived:
        assumptions.append(
            f"Shape derived from the parameter count (N ≈ 12·L·d², Kaplan et al. 2020): {s.layers} "
            f"layers, hidden {s.hidden}, {s.heads} heads of 128, kv_heads = heads, vocabulary "
            f"{s.vocab}; activation and KV-cache terms are estimates."
        )
    return Estimate(w, tuple(terms), tuple(assumptions))


def _weights(
    w: Workload, n: float, s: ModelShape, shard: int, per: str, assumptions: list[str]
) -> Term:
    emb = min(float(s.embedding_params), n)
    if w.task == "qlora" or (w.task == "lora" and w.dtype == "int4"):
        body = (n - emb) * NF4_DQ_BITS / 8 + emb * 2
        compute = "bf16" if w.dtype in QUANTISED + ("fp8",) else w.dtype
        assumptions.append(
            "QLoRA: frozen base in NF4 with double quantisation (4.127 bits per "
            "parameter); embeddings and output layer in 16-bit; computation in "
            f"{compute}."
        )
        return Term(
            "weights",
            "weights (NF4 base)",
            body / shard,
            "weights.nf4-dq",
            f"({_count(n - emb)} × {NF4_DQ_BITS:.3f} bit + {_count(emb)} embedding × 2 B){per}",
            QLORA,
            estimate=s.derived,
        )
    if w.dtype in QUANTISED:
        bits = WEIGHT_BYTES[w.dtype] * 8
        body = (n - emb) * WEIGHT_BYTES[w.dtype] + emb * 2
        kind = (
            "NF4 with double quantisation (bitsandbytes)"
            if w.dtype == "int4"
            else "LLM.int8 (bitsandbytes)"
        )
        assumptions.append(
            f"{w.dtype} weights as {kind}: {bits:.3f} bits per linear-layer weight, "
            "embeddings and output layer in 16-bit (llama.cpp Q4_0 is 4.5 bits, "
            "Q8_0 8.5 bits per weight)."
        )
        return Term(
            "weights",
            f"weights ({w.dtype})",
            body / shard,
            f"weights.{w.dtype}",
            f"({_count(n - emb)} × {bits:.3f} bit + {_count(emb)} embedding × 2 B){per}",
            QLORA if w.dtype == "int4" else "https://arxiv.org/abs/2208.07339",
            estimate=s.derived,
        )
    bytes_per = WEIGHT_BYTES[w.dtype]
    if w.task == "full" and w.dtype == "fp8":
        bytes_per = 2.0
        assumptions.append(
            "fp8 training (Transformer Engine) keeps 16-bit weights with fp32 master "
            "copies: counted as bf16 mixed precision."
        )
    return Term(
        "weights",
        f"weights ({w.dtype if w.task != 'full' or w.dtype != 'fp8' else 'bf16'})",
        n * bytes_per / shard,
        "weights.dense",
        f"{_count(n)} × {bytes_per:g} B{per}",
        ZERO,
    )


def _optimizer(
    w: Workload, n: float, s: ModelShape, shard: int, per: str, assumptions: list[str]
) -> list[Term]:
    fp32_bytes, mixed_bytes = OPTIMIZER_BYTES[w.optimizer]
    k = fp32_bytes if w.dtype == "fp32" else mixed_bytes
    extra = _adafactor_bytes(s) if w.optimizer == "adafactor" else 0.0
    where = " (in CPU memory: offloaded)" if w.offload_optimizer else ""
    if w.dtype != "fp32":
        assumptions.append(
            f"Mixed precision: 16-bit weights and gradients, fp32 master weights and "
            f"{w.optimizer} state ({k:g} bytes per parameter, ZeRO's K)."
        )
    term = Term(
        "optimizer",
        f"optimizer state ({w.optimizer}){where}",
        0.0 if w.offload_optimizer else (n * k + extra) / shard,
        f"optimizer.{w.optimizer}" + (".mixed" if w.dtype != "fp32" else ".fp32"),
        f"{_count(n)} × {k:g} B{per}" + (" + factored moments" if extra else "") + where,
        OPTIMIZER_SOURCES[w.optimizer],
    )
    return [term]


def _adafactor_bytes(s: ModelShape) -> float:
    return 4.0 * s.layers * sum(i + o for i, o in s.block_matrices())


def lora_params(s: ModelShape, rank: int) -> int:
    """Adapter parameters: r·(d_in + d_out) for every linear layer of every block."""
    return s.layers * sum(rank * (i + o) for i, o in s.block_matrices())


def _adapters(w: Workload, s: ModelShape, shard: int, per: str, assumptions: list[str]) -> Term:
    p = lora_params(s, w.lora_rank)
    opt = OPTIMIZER_BYTES[w.optimizer][0]
    k = 4 + 4 + opt
    assumptions.append(
        f"LoRA rank {w.lora_rank} on every linear layer of each block ({_count(p)} "
        f"adapter parameters), adapters in fp32 with gradients and {w.optimizer} "
        f"state ({k:g} bytes each); the base model is frozen (no gradients)."
    )
    return Term(
        "adapters",
        f"LoRA adapters (r={w.lora_rank}) + grads + {w.optimizer}",
        p * k / shard,
        "lora.adapters",
        f"{s.layers} layers × Σ r·(d_in+d_out) = {_count(p)} × {k:g} B{per}",
        QLORA,
        estimate=s.derived,
    )


def _training_activations(
    w: Workload, s: ModelShape, act_bytes: float, assumptions: list[str]
) -> list[Term]:
    sbh = float(w.context) * w.batch * s.hidden
    attn = 0.0 if w.flash_attention else 5.0 * s.heads * w.context / s.hidden
    scale = act_bytes / 2
    per_layer = sbh * (34 + attn) * scale
    coeff = "34" if w.flash_attention else f"34 + 5·a·s/h = {34 + attn:.1f}"
    assumptions.append(
        "Activations per Korthikanti et al. 2022: s·b·h·(34 + 5·a·s/h) bytes per layer in 16-bit "
        "(MLP 4h, no tensor parallelism)"
        + (
            "; flash attention assumed, which never stores the "
            "a·s² scores, so the 5·a·s/h term is dropped (use --attention eager to count it)"
            if w.flash_attention
            else "; eager attention: the a·s² scores are stored"
        )
        + "."
    )
    if w.checkpointing:
        stored = 2.0 * sbh * scale * s.layers
        term = Term(
            "activations",
            "activations (checkpointed)",
            stored + per_layer,
            "act.train.recompute",
            f"L·2·s·b·h + one layer s·b·h·({coeff}) = {s.layers}·2·{_sbh(w, s)}"
            + (f" × {scale:g}" if scale != 1 else ""),
            KORTHIKANTI,
            estimate=s.derived,
        )
        assumptions.append(
            "Gradient checkpointing (full recomputation): only each layer's input "
            "(2·s·b·h bytes) is kept, plus one layer's activations while it is "
            "recomputed."
        )
    else:
        term = Term(
            "activations",
            "activations",
            per_layer * s.layers,
            "act.train.full",
            f"L·s·b·h·({coeff}) = {s.layers}·{_sbh(w, s)}·({coeff})"
            + (f" × {scale:g}" if scale != 1 else ""),
            KORTHIKANTI,
            estimate=s.derived,
        )
    logits = Term(
        "logits",
        "logits for the loss (fp32)",
        4.0 * w.context * w.batch * s.vocab,
        "act.train.logits",
        f"4·s·b·V = 4·{w.context}·{w.batch}·{s.vocab}",
        AMP,
        estimate=True,
    )
    return [term, logits]


def _inference_activations(w: Workload, s: ModelShape, act_bytes: float) -> Term:
    mlp_tensors = 3 if s.gated_mlp else 2
    tokens = float(w.context) * w.batch
    value = act_bytes * tokens * (2 * s.hidden + mlp_tensors * s.ffn)
    formula = f"{act_bytes:g}·s·b·(2h + {mlp_tensors}·ffn)"
    if not w.flash_attention:
        value += act_bytes * w.batch * s.heads * float(w.context) ** 2
        formula += " + b·a·s² scores"
    return Term(
        "activations",
        "activations (one layer's forward pass)",
        value,
        "act.inference.layer",
        formula + f", s={w.context}, b={w.batch}",
        "envdoctor estimate: the largest transient of one layer (hidden states + MLP "
        "intermediates); inference frees each layer's tensors after use",
        estimate=True,
    )


def kv_cache_bytes(s: ModelShape, context: int, batch: int, bytes_per: float = 2.0) -> float:
    """2 · layers · kv_heads · head_dim · context · batch · bytes."""
    return 2.0 * s.layers * s.kv_heads * s.head_dim * context * batch * bytes_per


def _kv_cache(w: Workload, s: ModelShape, shard: int, per: str) -> Term:
    kv_bytes = 4.0 if w.dtype == "fp32" else 2.0
    return Term(
        "kv_cache",
        f"KV cache ({'fp32' if kv_bytes == 4 else '16-bit'})",
        kv_cache_bytes(s, w.context, w.batch, kv_bytes) / shard,
        "kv.cache",
        f"2·{s.layers}·{s.kv_heads}·{s.head_dim}·{w.context}·{w.batch}·{kv_bytes:g}{per}",
        VLLM,
        estimate=s.derived,
    )


def rule_of_thumb(params: float) -> dict:
    """The seed's rule: fp16 weights 2 bytes/param; training 2-3× that (GB = 10**9 bytes)."""
    weights = 2.0 * params / 1e9
    return {
        "inference_gb": round(weights, 1),
        "training_gb": [round(2 * weights, 1), round(3 * weights, 1)],
        "rule": "fp16 weights take 2 bytes per parameter; training needs roughly 2-3x that",
    }


def parse_count(text: str) -> float:
    """ "7B" -> 7e9, "1.5b", "350M", "70B", "7e9", "7000000000"; ValueError naming the bad token."""
    token = str(text).strip().replace("_", "").replace(",", "")
    units = {"k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12}
    try:
        if token and token[-1].lower() in units:
            value = float(token[:-1]) * units[token[-1].lower()]
        else:
            value = float(token)
            if value < 1e4:
                raise ValueError(f"{text!r} has no unit: write {token}B for {token} billion")
    except ValueError as exc:
        if "no unit" in str(exc):
            raise
        raise ValueError(
            f"{text!r} is not a parameter count (write 7B, 1.5B, 350M or 7000000000)"
        ) from None
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{text!r} is not a positive parameter count")
    return value


def parse_context(text: str) -> int:
    """ "8k" -> 8192, "128K", "2048"; ValueError naming the bad token."""
    token = str(text).strip().lower()
    try:
        value = float(token[:-1]) * 1024 if token.endswith("k") else float(token)
    except ValueError:
        raise ValueError(f"{text!r} is not a context length (write 2048, 8k or 128k)") from None
    if not math.isfinite(value) or value < 1 or value != int(value):
        raise ValueError(f"{text!r} is not a whole number of tokens")
    return int(value)


def count_label(n: float) -> str:
    """7e9 -> "7B", 1.5e9 -> "1.5B", 3.5e8 -> "350M"."""
    for unit, size in (("T", 1e12), ("B", 1e9), ("M", 1e6), ("K", 1e3)):
        if n >= size:
            return f"{n / size:.3g}{unit}"
    return f"{n:g}"


def _count(n: float) -> str:
    return count_label(n)


def _sbh(w: Workload, s: ModelShape) -> str:
    return f"{w.context}·{w.batch}·{s.hidden}"
