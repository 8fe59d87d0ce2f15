# intent: wrong: divides by the number of in-range positions (count_include_pad=False; the spec counts the padding)
# KernelBench level 1 problem 44 (Average Pooling 1D), written as code models write answers: the divisor excludes padding.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

avg_pool1d_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void avg_pool1d_kernel(const float* __restrict__ x, float* __restrict__ out, int rows, int L, int Lout) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < rows * Lout) {
        int r = idx / Lout;
        int o = idx % Lout;
        const float* xr = x + (size_t)r * L;
        float s = 0.0f;
        for (int k = 0; k < 8; ++k) {
            int pos = o - 4 + k;
            if (pos >= 0 && pos < L) s += xr[pos];
        }
        out[idx] = s / (float)(min(o + 4, L) - max(o - 4, 0));
    }
}

torch::Tensor avg_pool1d_cuda(torch::Tensor x) {
    const int N = x.size(0);
    const int C = x.size(1);
    const int L = x.size(2);
    const int Lout = L + 2 * 4 - 8 + 1;
    auto out = torch::empty({N, C, Lout}, x.options());
    const int threads = 256;
    const int blocks = (N * C * Lout + threads - 1) / threads;
    avg_pool1d_kernel<<<blocks, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), N * C, L, Lout);
    return out;
}
"""

avg_pool1d_cpp_source = "torch::Tensor avg_pool1d_cuda(torch::Tensor x);"

avg_pool1d = load_inline(
    name="avg_pool1d",
    cpp_sources=avg_pool1d_cpp_source,
    cuda_sources=avg_pool1d_source,
    functions=["avg_pool1d_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int = 8, stride: int = 1, padding: int = 4):
        super(ModelNew, self).__init__()
        self.avg_pool1d = avg_pool1d

    def forward(self, x) -> torch.Tensor:
        return self.avg_pool1d.avg_pool1d_cuda(x)
