# verify on real dumps at their real sizes (issue 34): vLLM's Qwen2 layer (32,768 tokens, a
# 151,936-row embedding, bf16) and Megatron's GPT layer (8 x 1,536 tokens, 24 heads, a 98,304
# vocabulary, f32) would need 16 GB and 35 GB as printed. verify shrinks the sizes the graph
# treats uniformly, checks the shrunk original is still as annotated, and names the sizes it ran
# with. Qwen2's token count stays above its rotary head size (128, which cannot change); GPT's
# vocabulary shrinks with the threshold its masks compare token ids with. GPT's collectives run
# as the only rank of their group, and its lifted constant takes its copy's annotation.
# RUN: %declone verify %corpus/entangle/qwen2__paral1_layer1__fw.g0.r0.py %corpus/entangle/qwen2__paral1_layer1__fw.g0.r0.py | %FileCheck %s --check-prefix=QWEN
# QWEN: equivalent (1 run; ran with 151936 -> 160, 32768 -> 144; ops run as stand-ins, not their own kernels: _C::fused_add_rms_norm, _C::rms_norm, _C::rotary_embedding, _C::silu_and_mul, vllm::unified_attention_with_output){{$}}
# RUN: %declone verify %corpus/entangle/gpt__paral1_layer1__fw.g0.r0.py %corpus/entangle/gpt__paral1_layer1__fw.g0.r0.py | %FileCheck %s --check-prefix=GPT
# GPT: equivalent (1 run; ran with 98304 -> 9216, 12288 -> 1152, 3072 -> 288, 1536 -> 144; ops run as stand-ins, not their own kernels: _c10d_functional::all_reduce, apex::fused_layer_norm_affine_fwd){{$}}
#
# A rewrite of the GPT layer that drops clone_1, the contiguous copy of the attention output's
# permute before its view, is not equivalent: the view cannot be taken of the permuted layout.
# RUN: sed -e '/clone_1: "f32/d' -e 's/view.default(clone_1, \[1536, 8, 768\]);  clone_1 = None/view.default(permute, [1536, 8, 768]);  permute = None/' %corpus/entangle/gpt__paral1_layer1__fw.g0.r0.py > %t.gpt-dropped.py
# RUN: not grep -q 'clone_1' %t.gpt-dropped.py
# RUN: %expect-exit 1 %declone verify %corpus/entangle/gpt__paral1_layer1__fw.g0.r0.py %t.gpt-dropped.py | %FileCheck %s --check-prefix=DROPPED
# DROPPED: gpt-dropped.py: not equivalent to {{.*}}gpt__paral1_layer1__fw.g0.r0.py: the rewrite raises where the original does not: cannot execute view_15: aten::view failed: view size is not compatible with input tensor's size and stride {{.*}} (ran with 98304 -> 9216, 12288 -> 1152, 3072 -> 288, 1536 -> 144); ops run as stand-ins
#
# As printed, the GPT layer does not fit: the refusal names the sizes that account for most of
# the memory, and how to run anyway.
# RUN: %expect-exit 2 %declone verify %corpus/entangle/gpt__paral1_layer1__fw.g0.r0.py %corpus/entangle/gpt__paral1_layer1__fw.g0.r0.py --full-size --memory-limit 4G 2>&1 | %FileCheck %s --check-prefix=FULL
# FULL: error: running the graph needs about {{.*}} GiB (its inputs five times, and every value it computes twice), more than the 4.0 GiB limit allows (declone verify --memory-limit SIZE sets it); the sizes that account for most of it: 1536 ({{.*}} GiB), 8 ({{.*}} GiB), 98304 ({{.*}} GiB); run without --full-size to shrink them
#
# A terminal sees the estimate before the run: the sizes, and a run's memory and time at them
# and as printed (here through `script`, which gives the command a terminal).
# RUN: script -qec '%declone verify %corpus/entangle/qwen2__paral1_layer1__fw.g0.r0.py %corpus/entangle/qwen2__paral1_layer1__fw.g0.r0.py' /dev/null | %FileCheck %s --check-prefix=TERMINAL
# TERMINAL: verify: about {{[0-9.]+}} MiB and {{[0-9.]+}} s a run at 151936 -> 160, 32768 -> 144 (as printed: about 4.1 GiB and {{[0-9]+}} s a run)
