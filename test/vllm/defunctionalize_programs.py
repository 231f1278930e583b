"""CPU programs with mutating custom ops, for the defunctionalization suite (issue 33).

Each program is an ordinary eager function that calls mutating ops the way vLLM's models and
kernels do: an out-argument (``result!``), arguments normalized in place (``input!``,
``residual!``), q/k slices of one matmul rotated in place, a state or a cache that is a graph
input written through a slice or a dtype view. torch.compile functionalizes each call into
``auto_functionalized`` (v1 or v2, as ``torch._inductor.config.enable_auto_functionalized_v2``
says), and every argument that node writes is an implicit copy unless a pass proves it can go in
place. test_defunctionalize_suite.py counts the copies left after Inductor's passes with and
without declone's and vLLM's defunctionalization, and runs every variant against eager.

Two kinds of ops:
- vLLM's ``_C`` ops, under the names FixFunctionalizationPass checks (``torch.ops._C.rms_norm``
  ...), with the schemas of vLLM's torch_bindings.cpp (test_ir_pipeline.VLLM_C_SCHEMAS) and CPU
  kernels here: ``define_c_ops()`` registers them for the length of a test module;
- ops of our own in ``declone_defunc`` (a Mamba conv-state update, a KV-cache write, a backward
  kernel with an out-argument) and a ``torch.library.custom_op`` standing in for a Triton kernel
  (no Triton kernel runs on CPU; Dynamo would make ``triton_kernel_wrapper_functional`` of one).

The programs in group 8 (``blind_*``) are written so that Inductor's own ``remove_noop_ops``
drops a clone the program made (right on the functional graph: auto_functionalized writes
nothing), which leaves a listed op's written argument live after the call: a rewrite into the
in-place call that does not check, as FixFunctionalizationPass's, then changes the result.
"""

import dataclasses
from typing import Callable

import torch
import torch.nn.functional as F
from test_ir_pipeline import VLLM_C_SCHEMAS, define_op  # needs vLLM, as the suite does

EPS = 1e-6
TOKENS, HIDDEN, INTER = 4, 16, 32
HEADS, HEAD_SIZE = 2, 8  # query and key/value heads alike
QSIZE = HEADS * HEAD_SIZE
MAX_POSITION = 16
BATCH, CACHE_ROWS, CONV_WIDTH = 3, 5, 4  # the active rows of a larger conv-state cache
SLOTS = 8  # KV-cache slots
FP8 = torch.float8_e4m3fn
FP8_MAX = 448.0

NAMESPACE = "declone_defunc"

# --- kernels -----------------------------------------------------------------------------------
# Plain torch on CPU, deterministic; each writes only what its schema marks as written.


def _rms_norm(x, weight, epsilon):
    xf = x.float()
    normed = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + epsilon)
    return (normed * weight.float()).to(x.dtype)


def _c_rms_norm(result, input, weight, epsilon):
    result.copy_(_rms_norm(input, weight, epsilon))


def _c_fused_add_rms_norm(input, residual, weight, epsilon):
    residual.add_(input)
    input.copy_(_rms_norm(residual, weight, epsilon))


def _c_silu_and_mul(result, input):
    half = input.shape[-1] // 2
    result.copy_(F.silu(input[..., :half]) * input[..., half:])


def _rotate(x, cos, sin, head_size, is_neox):
    """Rotates ``x`` (tokens x heads*head_size, any strides) in place."""
    heads = x.unflatten(-1, (-1, head_size))  # a view: the copy_ below writes x
    cos, sin = cos.unsqueeze(-2), sin.unsqueeze(-2)
    if is_neox:
        x1, x2 = heads.chunk(2, dim=-1)
        heads.copy_(torch.cat((x1 * cos - x2 * sin, x2 * cos + x1 * sin), dim=-1))
    else:
        x1, x2 = heads[..., ::2], heads[..., 1::2]
        heads.copy_(torch.stack((x1 * cos - x2 * sin, x2 * cos + x1 * sin), dim=-1)
                    .flatten(-2))


def _c_rotary_embedding(positions, query, key, head_size, cos_sin_cache, is_neox):
    cos, sin = cos_sin_cache[positions].chunk(2, dim=-1)
    _rotate(query, cos, sin, head_size, is_neox)
    if key is not None:
        _rotate(key, cos, sin, head_size, is_neox)


def _c_rms_norm_static_fp8_quant(result, input, weight, scale, epsilon):
    scaled = _rms_norm(input, weight, epsilon).float() / scale
    result.copy_(scaled.clamp(-FP8_MAX, FP8_MAX).to(result.dtype))


# The _C ops the programs run; FixFunctionalizationPass looks up the others in VLLM_C_SCHEMAS
# (defined, never run).
_C_KERNELS = {
    "rms_norm": _c_rms_norm,
    "fused_add_rms_norm": _c_fused_add_rms_norm,
    "silu_and_mul": _c_silu_and_mul,
    "rotary_embedding": _c_rotary_embedding,
    "rms_norm_static_fp8_quant": _c_rms_norm_static_fp8_quant,
}


def define_c_ops():
    """Defines vLLM's ``_C`` ops with the kernels above: every op of test_ir_pipeline's
    VLLM_C_SCHEMAS (FixFunctionalizationPass looks them all up), the ones in _C_KERNELS with
    CPU kernels and fake kernels (they return nothing). Returns the Library (``_destroy()``
    removes them), or None where torch.ops._C already has them (vLLM's compiled _C: its own CPU
    kernels run then)."""
    if hasattr(torch.ops._C, "rms_norm"):
        return None
    library = torch.library.Library("_C", "FRAGMENT")
    for name, schema in VLLM_C_SCHEMAS.items():
        library.define(name + schema)
    for name, kernel in _C_KERNELS.items():
        library.impl(name, kernel, "CPU")
        torch.library.register_fake(f"_C::{name}", lambda *args: None, lib=library)
    return library


# --- ops of our own ----------------------------------------------------------------------------

_library = torch.library.Library(NAMESPACE, "FRAGMENT")


def _define(schema, kernel, fake):
    define_op(schema, kernel, fake, library=_library)


def _causal_conv1d_update(x, conv_state, weight):
    # Mamba's decode step: shift the window left by one, append the new column, convolve.
    conv_state.copy_(torch.cat((conv_state[..., 1:], x.unsqueeze(-1)), dim=-1))
    return F.silu((conv_state * weight).sum(-1))


def _reshape_and_cache(key, value, kv_cache, slot_mapping):
    # kv_cache: the bytes of a (2, SLOTS, QSIZE) float32 cache, as attention backends take it.
    kv_cache[0, slot_mapping] = key.contiguous().view(torch.uint8)
    kv_cache[1, slot_mapping] = value.contiguous().view(torch.uint8)


def _silu_and_mul_backward(grad_input, grad_output, input):
    half = input.shape[-1] // 2
    gate, up = input[..., :half], input[..., half:]
    sig = torch.sigmoid(gate)
    d_gate = grad_output * up * sig * (1 + gate * (1 - sig))
    grad_input.copy_(torch.cat((d_gate, grad_output * F.silu(gate)), dim=-1))


def _ema_update(ema, x, momentum):
    ema.mul_(momentum).add_(x.mean(0), alpha=1 - momentum)


_define("causal_conv1d_update(Tensor x, Tensor(a!) conv_state, Tensor weight) -> Tensor",
        _causal_conv1d_update, lambda x, conv_state, weight: x.new_empty(x.shape))
_define("reshape_and_cache(Tensor key, Tensor value, Tensor(a!) kv_cache, Tensor slot_mapping)"
        " -> ()", _reshape_and_cache, lambda key, value, kv_cache, slot_mapping: None)
_define("silu_and_mul_backward(Tensor(a!) grad_input, Tensor grad_output, Tensor input) -> ()",
        _silu_and_mul_backward, lambda grad_input, grad_output, input: None)
_define("ema_update(Tensor(a!) ema, Tensor x, float momentum) -> ()", _ema_update,
        lambda ema, x, momentum: None)


@torch.library.custom_op(f"{NAMESPACE}::add_scaled_kernel", mutates_args=("out",))
def add_scaled_kernel(x: torch.Tensor, y: torch.Tensor, out: torch.Tensor, alpha: float) -> None:
    """Stands in for a Triton kernel launched on (x_ptr, y_ptr, out_ptr): out = x + alpha * y.
    ``out`` may be ``x`` itself (kernels written to run in place)."""
    out.copy_(x + alpha * y)


_ops = getattr(torch.ops, NAMESPACE)


class SiluAndMul(torch.autograd.Function):
    """vLLM's activation with a backward kernel that also writes an out-argument."""

    @staticmethod
    def forward(ctx, gate_up):
        result = gate_up.new_empty(gate_up.shape[:-1] + (gate_up.shape[-1] // 2,))
        torch.ops._C.silu_and_mul(result, gate_up)
        ctx.save_for_backward(gate_up)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (gate_up,) = ctx.saved_tensors
        grad_input = torch.empty_like(gate_up)
        _ops.silu_and_mul_backward(grad_input, grad_output.contiguous(), gate_up)
        return grad_input


# --- the programs ------------------------------------------------------------------------------


def decoder_block(x, w_in, w_norm, w_gate_up, w_down):
    """1. vLLM's decoder layers: rms_norm into a fresh result, then per layer an MLP with
    silu_and_mul and fused_add_rms_norm writing the hidden states and the residual."""
    hidden = x @ w_in
    residual = hidden
    normed = torch.empty_like(hidden)
    torch.ops._C.rms_norm(normed, hidden, w_norm, EPS)
    for _ in range(2):
        gate_up = normed @ w_gate_up
        act = gate_up.new_empty(gate_up.shape[0], gate_up.shape[1] // 2)
        torch.ops._C.silu_and_mul(act, gate_up)
        normed = act @ w_down
        torch.ops._C.fused_add_rms_norm(normed, residual, w_norm, EPS)
    return normed, residual


def rope_attention(x, positions, w_qkv, cos_sin_cache, w_o):
    """2. rotary_embedding on the q and k slices (split_with_sizes) of one qkv matmul, then
    attention."""
    qkv = x @ w_qkv
    q, k, v = qkv.split([QSIZE, QSIZE, QSIZE], dim=-1)
    torch.ops._C.rotary_embedding(positions, q, k, HEAD_SIZE, cos_sin_cache, True)
    q, k, v = (t.unflatten(-1, (HEADS, HEAD_SIZE)).transpose(0, 1) for t in (q, k, v))
    attn = ((q @ k.transpose(-1, -2)) / HEAD_SIZE ** 0.5).softmax(-1) @ v
    # Per head, then summed: no layout copy of the program's own to count beside the others.
    return (attn @ w_o.unflatten(0, (HEADS, HEAD_SIZE))).sum(0)


def quant_norm(x, w_in, w_norm, scale, w_out):
    """3. rms_norm_static_fp8_quant into a float8 result, dequantized by the next matmul."""
    hidden = x @ w_in
    quantized = torch.empty(hidden.shape, dtype=FP8)
    torch.ops._C.rms_norm_static_fp8_quant(quantized, hidden, w_norm, scale, EPS)
    return (quantized.float() * scale) @ w_out, quantized.float()


def mamba_conv(x, conv_state, w_in, w_conv, w_out):
    """4. Mamba's conv-state update: the op shifts the active rows (a slice) of the conv-state
    cache, a graph input, which is read again afterwards."""
    hidden = x @ w_in
    conv = _ops.causal_conv1d_update(hidden, conv_state[:BATCH], w_conv)
    return conv @ w_out + conv_state[:BATCH, :, -2], conv_state.sum(-1)


def kv_cache_write(x, w_kv, kv_cache, slot_mapping, w_q):
    """5. A KV-cache write through a dtype view of the cache, a graph input (kv_cache.view(
    torch.uint8), as attention backends take it; cf. pytorch PR 173177), then attention reads
    the cache."""
    key, value = (x @ w_kv).chunk(2, dim=-1)
    _ops.reshape_and_cache(key, value, kv_cache.view(torch.uint8), slot_mapping)
    scores = ((x @ w_q) @ kv_cache[0].t()).softmax(-1)
    return scores @ kv_cache[1]


def triton_standin(x, y, w):
    """6. A Triton-kernel stand-in (custom_op with mutates_args) writing a fresh buffer, then
    writing an intermediate in place."""
    a = x @ w
    out = torch.empty_like(a)
    add_scaled_kernel(a, y, out, 2.0)
    add_scaled_kernel(out, a, out, -0.5)
    return out.relu()


def training_mlp(x, w1, w2, ema):
    """7. Training: silu_and_mul forward and its backward kernel (both out-arguments), and a
    running statistic (a graph input) updated by a mutating op; forward and backward graphs."""
    hidden = x @ w1
    _ops.ema_update(ema, hidden.detach(), 0.9)
    return SiluAndMul.apply(hidden) @ w2


def blind_read_after(x, w, residual_w, w_norm):
    """8a. fused_add_rms_norm on a clone of an activation that is read after the call."""
    hidden = x @ w
    residual = x @ residual_w
    normed = hidden.clone()
    torch.ops._C.fused_add_rms_norm(normed, residual, w_norm, EPS)
    return normed + hidden, residual


def blind_input(x, w, w_norm, out_init):
    """8b. rms_norm into a clone of a graph input the caller keeps (not donated)."""
    result = out_init.clone()
    torch.ops._C.rms_norm(result, x @ w, w_norm, EPS)
    return result


def blind_returned(x, w_up, w_gate_up):
    """8c. silu_and_mul into a clone of an activation the program returns."""
    up = x @ w_up
    act = up.clone()
    torch.ops._C.silu_and_mul(act, x @ w_gate_up)
    return act, up


# --- inputs ------------------------------------------------------------------------------------


def _randn(generator, *shape, scale=1.0):
    return torch.randn(*shape, generator=generator) * scale


def _cos_sin_cache():
    inv_freq = 1.0 / 10000 ** (torch.arange(0, HEAD_SIZE, 2).float() / HEAD_SIZE)
    freqs = torch.outer(torch.arange(MAX_POSITION).float(), inv_freq)
    return torch.cat((freqs.cos(), freqs.sin()), dim=-1)


def _inputs(name, g):
    w = HIDDEN ** -0.5
    if name == "decoder_block":
        return [_randn(g, TOKENS, HIDDEN), _randn(g, HIDDEN, HIDDEN, scale=w),
                1 + _randn(g, HIDDEN, scale=0.1), _randn(g, HIDDEN, 2 * INTER, scale=w),
                _randn(g, INTER, HIDDEN, scale=INTER ** -0.5)]
    if name == "rope_attention":
        return [_randn(g, TOKENS, HIDDEN), torch.tensor([3, 0, 7, 5]),
                _randn(g, HIDDEN, 3 * QSIZE, scale=w), _cos_sin_cache(),
                _randn(g, QSIZE, HIDDEN, scale=QSIZE ** -0.5)]
    if name == "quant_norm":
        return [_randn(g, TOKENS, HIDDEN), _randn(g, HIDDEN, HIDDEN, scale=w),
                1 + _randn(g, HIDDEN, scale=0.1), torch.tensor([0.05]),
                _randn(g, HIDDEN, HIDDEN, scale=w)]
    if name == "mamba_conv":
        return [_randn(g, BATCH, HIDDEN), _randn(g, CACHE_ROWS, HIDDEN, CONV_WIDTH),
                _randn(g, HIDDEN, HIDDEN, scale=w), _randn(g, HIDDEN, CONV_WIDTH, scale=0.5),
                _randn(g, HIDDEN, HIDDEN, scale=w)]
    if name == "kv_cache_write":
        return [_randn(g, TOKENS, HIDDEN), _randn(g, HIDDEN, 2 * QSIZE, scale=w),
                _randn(g, 2, SLOTS, QSIZE), torch.tensor([6, 1, 3, 4]),
                _randn(g, HIDDEN, QSIZE, scale=w)]
    if name == "triton_standin":
        return [_randn(g, TOKENS, HIDDEN), _randn(g, TOKENS, HIDDEN),
                _randn(g, HIDDEN, HIDDEN, scale=w)]
    if name == "training_mlp":
        return [_randn(g, TOKENS, HIDDEN), _randn(g, HIDDEN, 2 * INTER, scale=w),
                _randn(g, INTER, HIDDEN, scale=INTER ** -0.5), torch.zeros(2 * INTER)]
    if name == "blind_read_after":
        return [_randn(g, TOKENS, HIDDEN), _randn(g, HIDDEN, HIDDEN, scale=w),
                _randn(g, HIDDEN, HIDDEN, scale=w), 1 + _randn(g, HIDDEN, scale=0.1)]
    if name == "blind_input":
        return [_randn(g, TOKENS, HIDDEN), _randn(g, HIDDEN, HIDDEN, scale=w),
                1 + _randn(g, HIDDEN, scale=0.1), _randn(g, TOKENS, HIDDEN)]
    if name == "blind_returned":
        return [_randn(g, TOKENS, HIDDEN), _randn(g, HIDDEN, INTER, scale=w),
                _randn(g, HIDDEN, 2 * INTER, scale=w)]
    raise KeyError(name)


@dataclasses.dataclass(frozen=True)
class Program:
    name: str
    forward: Callable
    # The inputs that get gradients (training): their .grad is compared too.
    grad_inputs: tuple = ()
    # Written so that a blind rewrite of one of vLLM's listed ops is wrong (group 8).
    blind: bool = False

    def inputs(self, seed=0):
        """Fresh inputs, the same for the same seed."""
        tensors = _inputs(self.name, torch.Generator().manual_seed(seed))
        for index in self.grad_inputs:
            tensors[index].requires_grad_(True)
        return tensors

    @property
    def doc(self):
        return " ".join(self.forward.__doc__.split())


PROGRAMS = [
    Program("decoder_block", decoder_block),
    Program("rope_attention", rope_attention),
    Program("quant_norm", quant_norm),
    Program("mamba_conv", mamba_conv),
    Program("kv_cache_write", kv_cache_write),
    Program("triton_standin", triton_standin),
    Program("training_mlp", training_mlp, grad_inputs=(0, 1, 2)),
    Program("blind_read_after", blind_read_after, blind=True),
    Program("blind_input", blind_input, blind=True),
    Program("blind_returned", blind_returned, blind=True),
]
