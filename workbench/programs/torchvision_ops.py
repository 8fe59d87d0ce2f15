"""Importing torchvision on a CPU-only torch: declare the operator schemas its compiled library would register.

Stage: programs (model sources: the zoo's models and user model files alike). ``torchvision==0.28.0`` is the release for torch 2.13.0, but its PyPI wheel is
built against CUDA; on the CPU torch this project pins, its ``_C`` library does not load and ``import
torchvision`` fails with ``RuntimeError: operator torchvision::nms does not exist`` (torchvision registers
fake kernels for ``nms``/``qnms`` at import time, which needs the operators to exist). :func:`ensure_importable`
declares the schemas of every operator torchvision's C++ code registers (``TORCH_LIBRARY_FRAGMENT(torchvision,
m)`` in ``torchvision/csrc/ops/*.cpp`` of the 0.28 release; SymInt where that release has SymInt) with
``torch.library`` before the import, without any implementation. Models built from plain layers
(``resnet18(weights=None)``, ``vit_b_16``, ...) never call these operators; a model that does (detection
heads: ``nms``, ``roi_align``) fails at that call with "no kernel", which the zoo records as a capture error.

Nothing is declared when torchvision's own library loaded (a CUDA machine with a matching torch), and the
declaration happens once per process.
"""

from __future__ import annotations

# Operator schemas of torchvision 0.28's C++ registrations (torchvision/csrc/ops/*.cpp).
SCHEMAS = (
    "nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor",
    "qnms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor",
    "roi_align(Tensor input, Tensor rois, float spatial_scale, SymInt pooled_height, SymInt pooled_width, "
    "int sampling_ratio, bool aligned) -> Tensor",
    "_roi_align_backward(Tensor grad, Tensor rois, float spatial_scale, SymInt pooled_height, SymInt pooled_width, "
    "SymInt batch_size, SymInt channels, SymInt height, SymInt width, int sampling_ratio, bool aligned) -> Tensor",
    "qroi_align(Tensor input, Tensor rois, float input_scale, int input_zero_point, float rois_scale, "
    "int rois_zero_point, float spatial_scale, SymInt pooled_height, SymInt pooled_width, int sampling_ratio, "
    "bool aligned) -> Tensor",
    "ps_roi_align(Tensor input, Tensor rois, float spatial_scale, SymInt pooled_height, SymInt pooled_width, "
    "int sampling_ratio) -> (Tensor, Tensor)",
    "_ps_roi_align_backward(Tensor grad, Tensor rois, Tensor channel_mapping, float spatial_scale, "
    "SymInt pooled_height, SymInt pooled_width, int sampling_ratio, SymInt batch_size, SymInt channels, "
    "SymInt height, SymInt width) -> Tensor",
    "roi_pool(Tensor input, Tensor rois, float spatial_scale, SymInt pooled_height, SymInt pooled_width) "
    "-> (Tensor, Tensor)",
    "_roi_pool_backward(Tensor grad, Tensor rois, Tensor argmax, float spatial_scale, SymInt pooled_height, "
    "SymInt pooled_width, SymInt batch_size, SymInt channels, SymInt height, SymInt width) -> Tensor",
    "ps_roi_pool(Tensor input, Tensor rois, float spatial_scale, SymInt pooled_height, SymInt pooled_width) "
    "-> (Tensor, Tensor)",
    "_ps_roi_pool_backward(Tensor grad, Tensor rois, Tensor channel_mapping, float spatial_scale, "
    "SymInt pooled_height, SymInt pooled_width, SymInt batch_size, SymInt channels, SymInt height, "
    "SymInt width) -> Tensor",
    "deform_conv2d(Tensor input, Tensor weight, Tensor offset, Tensor mask, Tensor bias, SymInt stride_h, "
    "SymInt stride_w, SymInt pad_h, SymInt pad_w, SymInt dilation_h, SymInt dilation_w, SymInt groups, "
    "SymInt offset_groups, bool use_mask) -> Tensor",
    "_deform_conv2d_backward(Tensor grad, Tensor input, Tensor weight, Tensor offset, Tensor mask, Tensor bias, "
    "SymInt stride_h, SymInt stride_w, SymInt pad_h, SymInt pad_w, SymInt dilation_h, SymInt dilation_w, "
    "SymInt groups, SymInt offset_groups, bool use_mask) -> (Tensor, Tensor, Tensor, Tensor, Tensor)",
    "box_iou_rotated(Tensor boxes1, Tensor boxes2) -> Tensor",
)

_LIBRARY = None  # the torch.library.Library object must outlive the process's use of the operators


def ensure_importable(optional: bool = False):
    """Import torchvision, declaring its operator schemas first when its compiled library cannot load.

    ``optional``: return None when torchvision is not installed (callers that only need it importable
    because another library imports it, such as transformers)."""
    global _LIBRARY
    import importlib.util
    import sys

    if "torchvision" in sys.modules:
        return sys.modules["torchvision"]
    if optional and importlib.util.find_spec("torchvision") is None:
        return None
    import torch

    if _LIBRARY is None and not _torchvision_library_loads():
        lib = torch.library.Library("torchvision", "FRAGMENT")
        for schema in SCHEMAS:
            name = schema.split("(", 1)[0]
            if not hasattr(torch.ops.torchvision, name):
                lib.define(schema)
        _LIBRARY = lib
    import torchvision

    return torchvision


def _torchvision_library_loads() -> bool:
    """Whether torchvision's own ``_C`` library loads here (then its registrations are the real ones)."""
    import importlib.util
    from pathlib import Path

    import torch

    spec = importlib.util.find_spec("torchvision")
    if spec is None or not spec.submodule_search_locations:
        from workbench.errors import ToolMissingError

        raise ToolMissingError(
            "torchvision is not installed; install the zoo extra (`pip install -e .[zoo]`, which pins "
            "torchvision==0.28.0 for torch 2.13.0)"
        )
    libs = sorted(Path(next(iter(spec.submodule_search_locations))).glob("_C*.so"))
    if not libs:
        return False
    try:
        torch.ops.load_library(str(libs[0]))
    except (OSError, RuntimeError):
        return False
    return hasattr(torch.ops.torchvision, "nms")
