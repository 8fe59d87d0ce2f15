# intent: correct
# KernelBench level 1 problem 36 (RMSNorm), written as code models write answers: one thread per (batch, spatial position); eps written into the kernel as 1e-5f.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

rms_norm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void rms_norm_kernel(const float* __restrict__ x, float* __restrict__ out, int B, int C, int S) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < B * S) {
        int b = idx / S;
        int s = idx % S;
        const float* p = x + (size_t)b * C * S + s;
        float acc = 0.0f;
        for (int c = 0; c < C; ++c) acc += p[(size_t)c * S] * p[(size_t)c * S];
        float rms = sqrtf(acc / C + 1e-5f);
        for (int c = 0; c < C; ++c) out[(size_t)b * C * S + (size_t)c * S + s] = p[(size_t)c * S] / rms;
    }
}

torch::Tensor rms_norm_cuda(torch::Tensor x) {
    const int B = x.size(0);
    const int C = x.size(1);
    const int S = x.numel() / (B * C);
    auto out = torch::empty_like(x);
    const int threads = 256;
    const int blocks = (B * S + threads - 1) / threads;
    rms_norm_kernel<<<blocks, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), B, C, S);
    return out;
}
"""

rms_norm_cpp_source = "torch::Tensor rms_norm_cuda(torch::Tensor x);"

rms_norm = load_inline(
    name="rms_norm",
    cpp_sources=rms_norm_cpp_source,
    cuda_sources=rms_norm_source,
    functions=["rms_norm_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super(ModelNew, self).__init__()
        self.eps = eps
        self.rms_norm = rms_norm

    def forward(self, x) -> torch.Tensor:
        return self.rms_norm.rms_norm_cuda(x)
