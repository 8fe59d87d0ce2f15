# intent: wrong: ignores dilation (taps at o - 4 + k instead of o - 4 + 3k)
# KernelBench level 1 problem 41 (Max Pooling 1D), written as code models write answers: dilation dropped.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

max_pool1d_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void max_pool1d_kernel(const float* __restrict__ x, float* __restrict__ out, int rows, int L, int Lout) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < rows * Lout) {
        int r = idx / Lout;
        int o = idx % Lout;
        const float* xr = x + (size_t)r * L;
        float m = -INFINITY;
        for (int k = 0; k < 8; ++k) {
            int pos = o * 1 - 4 + k;
            if (pos >= 0 && pos < L) m = fmaxf(m, xr[pos]);
        }
        out[idx] = m;
    }
}

torch::Tensor max_pool1d_cuda(torch::Tensor x) {
    const int N = x.size(0);
    const int C = x.size(1);
    const int L = x.size(2);
    const int Lout = (L + 2 * 4 - 3 * (8 - 1) - 1) / 1 + 1;
    auto out = torch::empty({N, C, Lout}, x.options());
    const int threads = 256;
    const int blocks = (N * C * Lout + threads - 1) / threads;
    max_pool1d_kernel<<<blocks, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), N * C, L, Lout);
    return out;
}
"""

max_pool1d_cpp_source = "torch::Tensor max_pool1d_cuda(torch::Tensor x);"

max_pool1d = load_inline(
    name="max_pool1d",
    cpp_sources=max_pool1d_cpp_source,
    cuda_sources=max_pool1d_source,
    functions=["max_pool1d_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int = 8, stride: int = 1, padding: int = 4, dilation: int = 3, return_indices: bool = False):
        super(ModelNew, self).__init__()
        self.max_pool1d = max_pool1d

    def forward(self, x) -> torch.Tensor:
        return self.max_pool1d.max_pool1d_cuda(x)
