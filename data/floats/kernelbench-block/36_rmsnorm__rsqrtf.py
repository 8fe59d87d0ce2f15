# intent: correct over the reals: one thread per (batch, position), mean of squares over the features, rsqrtf
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

rms_norm_source = """
#include <torch/extension.h>

__global__ void rms_norm_kernel(const float* x, float* y, int B, int F, int S, float eps) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= B * S) return;
    int b = idx / S;
    int s = idx % S;
    const float* p = x + b * F * S + s;
    float ss = 0.0f;
    for (int f = 0; f < F; ++f) {
        float v = p[f * S];
        ss += v * v;
    }
    float inv = rsqrtf(ss / F + eps);
    for (int f = 0; f < F; ++f) {
        y[b * F * S + f * S + s] = p[f * S] * inv;
    }
}

torch::Tensor rms_norm_cuda(torch::Tensor x, float eps) {
    int B = x.size(0);
    int F = x.size(1);
    int S = x.size(2) * x.size(3);
    auto y = torch::empty_like(x);
    int threads = 256;
    int blocks = (B * S + threads - 1) / threads;
    rms_norm_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), B, F, S, eps);
    return y;
}
"""

rms_norm_cpp_source = "torch::Tensor rms_norm_cuda(torch::Tensor x, float eps);"

rms_norm = load_inline(
    name="rms_norm",
    cpp_sources=rms_norm_cpp_source,
    cuda_sources=rms_norm_source,
    functions=["rms_norm_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.rms_norm = rms_norm

    def forward(self, x):
        return self.rms_norm.rms_norm_cuda(x, self.eps)
