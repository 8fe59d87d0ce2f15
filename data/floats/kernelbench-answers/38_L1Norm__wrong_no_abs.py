# intent: wrong: sums x instead of |x| (the mean of the row, not of its absolute values)
# KernelBench level 1 problem 38 (L1Norm), written as code models write answers: x / mean(|x|) per row.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

l1norm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void l1norm_kernel(const float* __restrict__ x, float* __restrict__ out, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float* xr = x + (size_t)r * cols;
        float acc = 0.0f;
        for (int j = 0; j < cols; ++j) acc += xr[j];
        float d = acc / cols;
        for (int j = 0; j < cols; ++j) out[(size_t)r * cols + j] = xr[j] / d;
    }
}

torch::Tensor l1norm_cuda(torch::Tensor x) {
    const int rows = x.size(0);
    const int cols = x.size(1);
    auto out = torch::empty_like(x);
    const int threads = 256;
    const int blocks = (rows + threads - 1) / threads;
    l1norm_kernel<<<blocks, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    return out;
}
"""

l1norm_cpp_source = "torch::Tensor l1norm_cuda(torch::Tensor x);"

l1norm = load_inline(
    name="l1norm",
    cpp_sources=l1norm_cpp_source,
    cuda_sources=l1norm_source,
    functions=["l1norm_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.l1norm = l1norm

    def forward(self, x) -> torch.Tensor:
        return self.l1norm.l1norm_cuda(x)
