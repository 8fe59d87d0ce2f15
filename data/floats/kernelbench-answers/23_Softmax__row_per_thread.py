# intent: correct
# KernelBench level 1 problem 23 (Softmax), written as code models write answers: one thread per row: max, sum of exps, normalise.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

softmax_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void softmax_kernel(const float* __restrict__ x, float* __restrict__ out, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float* xr = x + (size_t)r * cols;
        float* outr = out + (size_t)r * cols;
        float m = -INFINITY;
        for (int j = 0; j < cols; ++j) m = fmaxf(m, xr[j]);
        float s = 0.0f;
        for (int j = 0; j < cols; ++j) s += expf(xr[j] - m);
        for (int j = 0; j < cols; ++j) outr[j] = expf(xr[j] - m) / s;
    }
}

torch::Tensor softmax_cuda(torch::Tensor x) {
    const int rows = x.size(0);
    const int cols = x.size(1);
    auto out = torch::empty_like(x);
    const int threads = 128;
    const int blocks = (rows + threads - 1) / threads;
    softmax_kernel<<<blocks, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    return out;
}
"""

softmax_cpp_source = "torch::Tensor softmax_cuda(torch::Tensor x);"

softmax = load_inline(
    name="softmax",
    cpp_sources=softmax_cpp_source,
    cuda_sources=softmax_source,
    functions=["softmax_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.softmax = softmax

    def forward(self, x) -> torch.Tensor:
        return self.softmax.softmax_cuda(x)
