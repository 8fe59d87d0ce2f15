# intent: wrong: normalises over the last dim only (D = x.size(3)), the way a model reads LayerNorm as "the last axis"
# KernelBench level 1 problem 40 (LayerNorm over (features, dim1, dim2)), written as code models write answers: one block per row of the last dim, two-pass mean and variance with a shared-memory tree; no weight or bias (nn.LayerNorm builds them as ones and zeros, and KernelBench runs a freshly built model).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

layer_norm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void layer_norm_kernel(const float* __restrict__ x, float* __restrict__ out, int D, float eps) {
    __shared__ float buf[256];
    const float* xr = x + (size_t)blockIdx.x * D;
    float* outr = out + (size_t)blockIdx.x * D;
    float s = 0.0f;
    for (int i = threadIdx.x; i < D; i += blockDim.x) s += xr[i];
    buf[threadIdx.x] = s;
    __syncthreads();
    for (int st = blockDim.x / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st) buf[threadIdx.x] += buf[threadIdx.x + st];
        __syncthreads();
    }
    float mean = buf[0] / D;
    __syncthreads();
    float v = 0.0f;
    for (int i = threadIdx.x; i < D; i += blockDim.x) {
        float d = xr[i] - mean;
        v += d * d;
    }
    buf[threadIdx.x] = v;
    __syncthreads();
    for (int st = blockDim.x / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st) buf[threadIdx.x] += buf[threadIdx.x + st];
        __syncthreads();
    }
    float inv = rsqrtf(buf[0] / D + eps);
    for (int i = threadIdx.x; i < D; i += blockDim.x) outr[i] = (xr[i] - mean) * inv;
}

torch::Tensor layer_norm_cuda(torch::Tensor x) {
    const int D = x.size(3);
    const int B = x.numel() / D;
    auto out = torch::empty_like(x);
    layer_norm_kernel<<<B, 256>>>(x.data_ptr<float>(), out.data_ptr<float>(), D, 1e-5f);
    return out;
}
"""

layer_norm_cpp_source = "torch::Tensor layer_norm_cuda(torch::Tensor x);"

layer_norm = load_inline(
    name="layer_norm",
    cpp_sources=layer_norm_cpp_source,
    cuda_sources=layer_norm_source,
    functions=["layer_norm_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super(ModelNew, self).__init__()
        self.normalized_shape = normalized_shape
        self.layer_norm = layer_norm

    def forward(self, x) -> torch.Tensor:
        return self.layer_norm.layer_norm_cuda(x)
