"""The zoo: real models whose code nobody on this project wrote, as capture programs with dynamic shapes.

Stage: zoo (before capture). Three sources: ``torch.nn`` blocks, torchvision models (``weights=None``) and
Hugging Face ``transformers`` models built from small configs; every model is randomly initialised and
nothing is downloaded. Each :class:`ZooModel` says which input dimensions are dynamic (batch and sequence, or
batch and spatial), marked with ``torch._dynamo.mark_dynamic`` at capture; parameters stay static. Models are
built by capture under ``torch.device("meta")`` (see :mod:`workbench.capture.modules`), so config size costs
no memory: ``llama_7b_dims`` has a 7B model's layer dimensions.

The only code of ours here is glue: each builder calls the library's own constructor, and a few one-line
wrappers (``SelfAttention``, ``Sdpa``) pick a call signature for blocks whose ``forward`` takes options.
torchvision and transformers are optional (the ``[zoo]`` extra); a missing one is a clear error naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from workbench.errors import UsageError
from workbench.programs import register_namespace
from workbench.programs.program import InputSpec, Program, call_module


TRAINING_NAMESPACE = "zoo_train"


class Source(StrEnum):
    TORCH_NN = "torch.nn"
    TORCHVISION = "torchvision"
    TRANSFORMERS = "transformers"


@dataclass(frozen=True, slots=True)
class ZooModel:
    """One model: how to build it, its inputs over named dims, which dims are dynamic, whether the default
    zoo run includes it."""

    name: str
    source: Source
    description: str
    build: Callable[[], Any]
    inputs: tuple[InputSpec, ...]
    example: Mapping[str, int]
    dynamic: tuple[tuple[int, ...], ...]
    default: bool = True
    # the dims a training step keeps dynamic, where Inductor's backward lowering specializes the others (None:
    # ``dynamic``). Inductor 2.13's convolution_backward_lowering (torch/_inductor/kernel/conv.py:1091) guards
    # the input gradient's strides to integers (``guard_int_seq``), fixing H*W and W: a training step with the
    # spatial dims marked dynamic fails with ConstraintViolationError, so convolutional models train with the
    # batch dynamic only (docs/zoo.md, "Training steps").
    training_dynamic: tuple[tuple[int, ...], ...] | None = None

    def program(self, training: bool = False) -> Program:
        """The capture program; ``training``: the training step's (its dims, built on the CPU)."""
        return Program(
            name=self.name,
            fn=call_module,
            inputs=self.inputs,
            example=self.example,
            dynamic=self.training_dynamic if training and self.training_dynamic is not None else self.dynamic,
            description=self.description,
            origin=f"zoo ({self.source.value})",
            build=partial(_built_on_cpu, self.build) if training else self.build,
        )


def _built_on_cpu(build: Callable[[], Any]) -> Any:
    """``build()`` on the CPU, inside capture's meta device. A training step runs on the CPU backend with real
    tensors, where a meta-built module's buffers become uninitialised memory (docs/capture.md); buffers a model
    computes while it is built then hold garbage, and some are indices: BERT's ``position_ids`` made the step
    fail with ``index -279348933622405 is out of bounds for dimension 1 with size 512``. Built on the CPU they
    hold the model's own values (the zoo's configs are small; weights stay randomly initialised)."""
    import torch

    with torch.device("cpu"):
        return build()


# -- torch.nn blocks ---------------------------------------------------------------------------------------
D, H, FF = 64, 4, 128  # width, heads, feed-forward width of the small blocks


def _nn():
    import torch
    import torch.nn as nn

    # nn.MultiheadAttention and the Transformer layers take a fused "fast path" in inference (one extern
    # op, no Triton kernel). Capture runs in a child process per model, so switching it off is local.
    torch.backends.mha.set_fastpath_enabled(False)
    return nn


def _encoder_layer():
    return _nn().TransformerEncoderLayer(D, H, FF, dropout=0.0, batch_first=True)


def _decoder_layer():
    return _nn().TransformerDecoderLayer(D, H, FF, dropout=0.0, batch_first=True)


def _self_attention():
    nn = _nn()

    class SelfAttention(nn.Module):
        def __init__(self):
            super().__init__()
            self.mha = nn.MultiheadAttention(D, H, batch_first=True)

        def forward(self, x):
            return self.mha(x, x, x, need_weights=False)[0]

    return SelfAttention()


def _layernorm_mlp():
    nn = _nn()
    return nn.Sequential(nn.LayerNorm(D), nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))


def _conv_bn_relu():
    nn = _nn()
    return nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU())


def _groupnorm_silu():
    nn = _nn()
    return nn.Sequential(nn.GroupNorm(4, 32), nn.SiLU())


def _embedding_layernorm():
    nn = _nn()
    return nn.Sequential(nn.Embedding(1000, D), nn.LayerNorm(D))


def _sdpa():
    import torch.nn.functional as F

    nn = _nn()

    class Sdpa(nn.Module):
        def forward(self, q, k, v):
            return F.scaled_dot_product_attention(q, k, v, is_causal=True)

    return Sdpa()


# -- torchvision (weights=None) ----------------------------------------------------------------------------


def _tv(name: str):
    def build():
        from workbench.zoo.torchvision_ops import ensure_importable

        tv = ensure_importable()
        return getattr(tv.models, name)(weights=None)

    build.__name__ = f"torchvision_{name}"
    return build


# -- transformers (small configs, random init) -------------------------------------------------------------


def _hf(config_name: str, model_name: str, **config):
    def build():
        from workbench.zoo.torchvision_ops import ensure_importable

        ensure_importable(optional=True)  # transformers imports torchvision when it is installed
        try:
            import transformers
        except ImportError:
            from workbench.errors import ToolMissingError

            raise ToolMissingError(
                "transformers is not installed; install the zoo extra (`pip install -e .[zoo]`)"
            ) from None
        cfg = getattr(transformers, config_name)(**config)
        cfg.use_cache = False
        # outputs as a tuple, not a ModelOutput: a training step (capture --backward) sums the floating outputs
        # of a tensor, tuple or list; the kernels are the same either way
        cfg.return_dict = False
        if "." in model_name:  # a submodule the package does not export (``WhisperEncoder``)
            import importlib

            module, _, cls = model_name.rpartition(".")
            model_cls = getattr(importlib.import_module(f"transformers.{module}"), cls)
        else:
            model_cls = getattr(transformers, model_name)
        return model_cls._from_config(cfg, attn_implementation="sdpa")

    build.__name__ = f"transformers_{model_name.rpartition('.')[2]}"
    return build


F32, I64 = "float32", "int64"
_BS = {"batch": 3, "seq": 13}
_BT = {"batch": 3, "seq": 13, "mem": 7}
_IMG = {"batch": 3, "h": 64, "w": 96}
_TOKENS = (InputSpec(("batch", "seq"), I64),)
_IMAGE = (InputSpec(("batch", 3, "h", "w"), F32),)
_BATCH = ((0,),)  # a convolutional model's training step: batch dynamic (see ZooModel.training_dynamic)
_SPATIAL = ((0, 2, 3),)  # an image model's inference: batch, height and width dynamic

_MODELS = (
    ZooModel("transformer_encoder_layer", Source.TORCH_NN, "nn.TransformerEncoderLayer(64, 4, 128)",
             _encoder_layer, (InputSpec(("batch", "seq", D), F32),), _BS, ((0, 1),)),
    ZooModel("transformer_decoder_layer", Source.TORCH_NN, "nn.TransformerDecoderLayer(64, 4, 128)",
             _decoder_layer, (InputSpec(("batch", "seq", D), F32), InputSpec(("batch", "mem", D), F32)), _BT,
             ((0, 1), (0, 1))),
    ZooModel("multihead_attention", Source.TORCH_NN, "nn.MultiheadAttention(64, 4), self-attention",
             _self_attention, (InputSpec(("batch", "seq", D), F32),), _BS, ((0, 1),)),
    ZooModel("layernorm_mlp", Source.TORCH_NN, "LayerNorm + Linear + GELU + Linear",
             _layernorm_mlp, (InputSpec(("batch", "seq", D), F32),), _BS, ((0, 1),)),
    ZooModel("conv_bn_relu", Source.TORCH_NN, "Conv2d + BatchNorm2d + ReLU (eval)",
             _conv_bn_relu, _IMAGE, _IMG, ((0, 2, 3),), training_dynamic=_BATCH),
    ZooModel("groupnorm_silu", Source.TORCH_NN, "GroupNorm(4, 32) + SiLU",
             _groupnorm_silu, (InputSpec(("batch", 32, "h", "w"), F32),), _IMG, ((0, 2, 3),)),
    ZooModel("embedding_layernorm", Source.TORCH_NN, "Embedding(1000, 64) + LayerNorm",
             _embedding_layernorm, _TOKENS, _BS, ((0, 1),)),
    ZooModel("sdpa", Source.TORCH_NN, "F.scaled_dot_product_attention, causal",
             _sdpa, tuple(InputSpec(("batch", H, "seq", 16), F32) for _ in range(3)), _BS, ((0, 2),) * 3),
    ZooModel("resnet18", Source.TORCHVISION, "torchvision resnet18(weights=None)",
             _tv("resnet18"), _IMAGE, _IMG, ((0, 2, 3),), training_dynamic=_BATCH),
    ZooModel("mobilenet_v3_small", Source.TORCHVISION, "torchvision mobilenet_v3_small(weights=None)",
             _tv("mobilenet_v3_small"), _IMAGE, _IMG, ((0, 2, 3),), training_dynamic=_BATCH),
    ZooModel("efficientnet_b0", Source.TORCHVISION, "torchvision efficientnet_b0(weights=None)",
             _tv("efficientnet_b0"), _IMAGE, _IMG, ((0, 2, 3),), training_dynamic=_BATCH),
    ZooModel("convnext_tiny", Source.TORCHVISION, "torchvision convnext_tiny(weights=None)",
             _tv("convnext_tiny"), _IMAGE, _IMG, ((0, 2, 3),), training_dynamic=_BATCH),
    ZooModel("vit_b_16", Source.TORCHVISION, "torchvision vit_b_16(weights=None); 224x224 images (fixed)",
             _tv("vit_b_16"), (InputSpec(("batch", 3, 224, 224), F32),), {"batch": 3}, ((0,),)),
    ZooModel("gpt2", Source.TRANSFORMERS, "GPT-2, 2 layers, width 64",
             _hf("GPT2Config", "GPT2Model", n_layer=2, n_embd=D, n_head=H, vocab_size=1000, n_positions=512,
                 bos_token_id=0, eos_token_id=0),
             _TOKENS, _BS, ((0, 1),)),
    ZooModel("llama", Source.TRANSFORMERS, "Llama, 2 layers, width 64, grouped-query attention",
             _hf("LlamaConfig", "LlamaModel", hidden_size=D, intermediate_size=FF, num_hidden_layers=2,
                 num_attention_heads=H, num_key_value_heads=2, vocab_size=1000),
             _TOKENS, _BS, ((0, 1),)),
    ZooModel("bert", Source.TRANSFORMERS, "BERT, 2 layers, width 64",
             _hf("BertConfig", "BertModel", hidden_size=D, intermediate_size=FF, num_hidden_layers=2,
                 num_attention_heads=H, vocab_size=1000),
             _TOKENS, _BS, ((0, 1),)),
    ZooModel("t5_encoder", Source.TRANSFORMERS, "T5 encoder, 2 layers, width 64",
             _hf("T5Config", "T5EncoderModel", d_model=D, d_ff=FF, d_kv=16, num_layers=2, num_heads=H,
                 vocab_size=1000),
             _TOKENS, _BS, ((0, 1),)),
    # -- the wider zoo (issue 24, item 8): CNN families, a vision transformer with shifted windows, encoders and
    # decoders with grouped-query / multi-query attention and sliding windows
    *(ZooModel(name, Source.TORCHVISION, f"torchvision {name}(weights=None){note}", _tv(name), _IMAGE, _IMG,
               dims, training_dynamic=_BATCH)
      for name, note, dims in (("mobilenet_v2", "", _SPATIAL), ("mnasnet0_5", "", _SPATIAL),
                               ("squeezenet1_0", "", _SPATIAL),
                               ("shufflenet_v2_x0_5", "; channel shuffle", _SPATIAL),
                               ("regnet_y_400mf", "; built on the CPU (widths computed with tensors)", _SPATIAL),
                               # batch only: with height and width dynamic, Inductor's own index
                               # simplification (sizevars.visit_indexing_div over the shifted windows' roll
                               # and pad) ran past 30 CPU-minutes on this machine (docs/zoo.md)
                               ("swin_t", "; shifted windows, attention mask; batch dynamic", _BATCH))),
    # opt-in (--all): 58 dense layers, each a distinct set of kernels; not in the shipped zoo (capture time)
    ZooModel("densenet121", Source.TORCHVISION, "torchvision densenet121(weights=None); dense concatenation",
             _tv("densenet121"), _IMAGE, _IMG, ((0, 2, 3),), default=False, training_dynamic=_BATCH),
    ZooModel("qwen2", Source.TRANSFORMERS,
             "Qwen2, 2 layers, width 64, GQA (4 query / 2 key-value heads), layer 2 with a sliding window of 8",
             _hf("Qwen2Config", "Qwen2Model", hidden_size=D, intermediate_size=FF, num_hidden_layers=2,
                 num_attention_heads=H, num_key_value_heads=2, vocab_size=1000, use_sliding_window=True,
                 sliding_window=8, max_window_layers=1),
             _TOKENS, _BS, ((0, 1),)),
    ZooModel("mistral", Source.TRANSFORMERS, "Mistral, 2 layers, width 64, GQA (4/2 heads), sliding window 8",
             _hf("MistralConfig", "MistralModel", hidden_size=D, intermediate_size=FF, num_hidden_layers=2,
                 num_attention_heads=H, num_key_value_heads=2, vocab_size=1000, sliding_window=8),
             _TOKENS, _BS, ((0, 1),)),
    ZooModel("gemma", Source.TRANSFORMERS, "Gemma, 2 layers, width 64, multi-query attention (4/1 heads)",
             _hf("GemmaConfig", "GemmaModel", hidden_size=D, intermediate_size=FF, num_hidden_layers=2,
                 num_attention_heads=H, num_key_value_heads=1, head_dim=16, vocab_size=1000),
             _TOKENS, _BS, ((0, 1),)),
    ZooModel("gpt_neox", Source.TRANSFORMERS, "GPT-NeoX, 2 layers, width 64, partial rotary embedding",
             _hf("GPTNeoXConfig", "GPTNeoXModel", hidden_size=D, intermediate_size=FF, num_hidden_layers=2,
                 num_attention_heads=H, vocab_size=1000),
             _TOKENS, _BS, ((0, 1),)),
    ZooModel("distilbert", Source.TRANSFORMERS, "DistilBERT, 2 layers, width 64",
             _hf("DistilBertConfig", "DistilBertModel", dim=D, hidden_dim=FF, n_layers=2, n_heads=H,
                 vocab_size=1000),
             _TOKENS, _BS, ((0, 1),)),
    ZooModel("albert", Source.TRANSFORMERS, "ALBERT, 2 layers (shared), width 64, embeddings 32",
             _hf("AlbertConfig", "AlbertModel", embedding_size=32, hidden_size=D, intermediate_size=FF,
                 num_hidden_layers=2, num_attention_heads=H, vocab_size=1000),
             _TOKENS, _BS, ((0, 1),)),
    # Whisper's encoder checks its input length (2 x max_source_positions frames): only the batch is dynamic
    ZooModel("whisper_encoder", Source.TRANSFORMERS, "Whisper encoder, 2 layers, width 64, 16 mel bins x 32 frames",
             _hf("WhisperConfig", "models.whisper.modeling_whisper.WhisperEncoder", d_model=D, encoder_layers=2,
                 encoder_attention_heads=H, encoder_ffn_dim=FF, decoder_layers=1, decoder_attention_heads=H,
                 decoder_ffn_dim=FF, num_mel_bins=16, max_source_positions=16, vocab_size=1000),
             (InputSpec(("batch", 16, 32), F32),), {"batch": 3}, ((0,),)),
    # A 7B model's layer dimensions (Llama-2-7B: width 4096, MLP 11008, 32 heads, vocab 32000) with 2 of its
    # 32 layers: built on the meta device, so its 0.67B parameters (2.7 GB in float32) are never allocated.
    ZooModel("llama_7b_dims", Source.TRANSFORMERS, "Llama at 7B dimensions (4096/11008/32 heads), 2 layers",
             _hf("LlamaConfig", "LlamaModel", hidden_size=4096, intermediate_size=11008, num_hidden_layers=2,
                 num_attention_heads=32, num_key_value_heads=32, vocab_size=32000),
             _TOKENS, _BS, ((0, 1),), default=False),
)

MODELS: Mapping[str, ZooModel] = MappingProxyType({m.name: m for m in _MODELS})


def names(all_models: bool = False) -> list[str]:
    """The default zoo run's models in registry order (``all_models``: also the opt-in ones)."""
    return [m.name for m in _MODELS if m.default or all_models]


def get(name: str) -> ZooModel:
    try:
        return MODELS[name]
    except KeyError:
        raise UsageError(
            f"unknown zoo model {name!r}; the zoo has {', '.join(MODELS)} (`workbench zoo list`)"
        ) from None


def program(name: str) -> Program:
    """The capture program of zoo model ``name`` (what ``workbench capture zoo:NAME`` compiles)."""
    return get(name).program()


def training_program(name: str) -> Program:
    """Zoo model ``name`` with the dims its training step keeps dynamic (``zoo_train:NAME``, what ``zoo run
    --backward`` captures; the same as ``zoo:NAME`` but for convolutional models: :attr:`ZooModel.training_dynamic`)."""
    return get(name).program(training=True)


# ``zoo:NAME`` and ``zoo_train:NAME`` resolve wherever this module is imported (programs never imports it)
register_namespace("zoo", program)
register_namespace(TRAINING_NAMESPACE, training_program)
