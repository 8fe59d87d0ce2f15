# intent: correct
# KernelBench level 1 problem 24 (LogSoftmax), written as code models write answers: one thread per row: x - max - log(sum exp).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

log_softmax_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void log_softmax_kernel(const float* __restrict__ x, float* __restrict__ out, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float* xr = x + (size_t)r * cols;
        float* outr = out + (size_t)r * cols;
        float m = -INFINITY;
        for (int j = 0; j < cols; ++j) m = fmaxf(m, xr[j]);
        float s = 0.0f;
        for (int j = 0; j < cols; ++j) s += expf(xr[j] - m);
        for (int j = 0; j < cols; ++j) outr[j] = xr[j] - m - logf(s);
    }
}

torch::Tensor log_softmax_cuda(torch::Tensor x) {
    const int rows = x.size(0);
    const int cols = x.size(1);
    auto out = torch::empty_like(x);
    const int threads = 128;
    const int blocks = (rows + threads - 1) / threads;
    log_softmax_kernel<<<blocks, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    return out;
}
"""

log_softmax_cpp_source = "torch::Tensor log_softmax_cuda(torch::Tensor x);"

log_softmax = load_inline(
    name="log_softmax",
    cpp_sources=log_softmax_cpp_source,
    cuda_sources=log_softmax_source,
    functions=["log_softmax_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super(ModelNew, self).__init__()
        self.log_softmax = log_softmax

    def forward(self, x) -> torch.Tensor:
        return self.log_softmax.log_softmax_cuda(x)
