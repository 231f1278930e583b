"""Real model code for the Inductor tests: transformers and timm models built from small
configs with random weights (nothing is downloaded), and an input batch for each."""

import dataclasses
from typing import Callable

import torch


@dataclasses.dataclass
class Model:
    name: str
    make: Callable[[], torch.nn.Module]
    inputs: Callable[[], tuple]
    #: The tensor a training step differentiates: the output itself or an element of it.
    loss: Callable[[object], torch.Tensor]


def _logits(output):
    return output.logits if hasattr(output, "logits") else output


def _causal_lm(config_class, **config):
    import transformers
    model_class = getattr(transformers, config_class.replace("Config", "ForCausalLM"))
    return lambda: model_class(getattr(transformers, config_class)(**config))


_TEXT = dict(vocab_size=96, max_position_embeddings=64)
_DECODER = dict(_TEXT, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                num_attention_heads=4, num_key_value_heads=2, attention_dropout=0.0)


def _tokens(length=12):
    generator = torch.Generator().manual_seed(0)
    return lambda: (torch.randint(0, _TEXT["vocab_size"], (2, length), generator=generator),)


def _images(batch=2, size=32):
    # Batch norm in a training step normalises over batch x height x width of the last stages:
    # too few values there and the gradients it gives are numerically unstable.
    return lambda: (torch.randn(batch, 3, size, size,
                                generator=torch.Generator().manual_seed(0)),)


def _timm(name, **kwargs):
    import timm
    return lambda: timm.create_model(name, pretrained=False, num_classes=10, **kwargs)


def _resnet():
    # ResNet-10: ResNet-18's blocks, one per stage (compiling a training step of all eight takes
    # a minute and a half on two cores).
    from timm.models.resnet import BasicBlock, ResNet
    return ResNet(block=BasicBlock, layers=[1, 1, 1, 1], num_classes=10)


def _efficientnet():
    # EfficientNet-B0's blocks, one per stage (depth multiplier 0.25): the full 16 blocks take
    # half a minute per compile on two cores.
    from timm.models.efficientnet import _gen_efficientnet
    return _gen_efficientnet("efficientnet_b0", depth_multiplier=0.25, pretrained=False,
                             num_classes=10)


def _bert():
    import transformers
    config = transformers.BertConfig(**_TEXT, hidden_size=64, intermediate_size=128,
                                     num_hidden_layers=2, num_attention_heads=4,
                                     hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)
    return transformers.BertModel(config)


def _gpt2():
    import transformers
    config = transformers.GPT2Config(vocab_size=_TEXT["vocab_size"], n_positions=64, n_embd=64,
                                     n_layer=2, n_head=4, resid_pdrop=0.0, embd_pdrop=0.0,
                                     attn_pdrop=0.0)
    return transformers.GPT2LMHeadModel(config)


def _mamba():
    import transformers
    # Without the mamba_ssm and causal_conv1d kernels transformers runs Mamba's torch path.
    config = transformers.MambaConfig(vocab_size=_TEXT["vocab_size"], hidden_size=64,
                                      state_size=8, num_hidden_layers=2, expand=2, conv_kernel=4)
    return transformers.MambaForCausalLM(config)


MODELS = {model.name: model for model in (
    Model("llama", _causal_lm("LlamaConfig", **_DECODER), _tokens(), _logits),
    Model("qwen2", _causal_lm("Qwen2Config", **_DECODER), _tokens(), _logits),
    # Mamba's torch path unrolls its scan over the sequence: a short one keeps the graph small.
    Model("mamba", _mamba, _tokens(6), _logits),
    Model("gpt2", _gpt2, _tokens(), _logits),
    Model("bert", _bert, _tokens(), lambda output: output.last_hidden_state),
    Model("resnet", _resnet, _images(batch=4), _logits),
    Model("vit", _timm("vit_tiny_patch16_224", img_size=32, patch_size=8, depth=2), _images(),
          _logits),
    Model("efficientnet", _efficientnet, _images(batch=4, size=64), _logits),
    Model("convnext", _timm("convnext_atto"), _images(batch=4), _logits),
)}
