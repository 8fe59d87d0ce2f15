# intent: wrong: divides by the sum of squares (sqrt forgotten)
# KernelBench level 1 problem 39 (L2Norm), written as code models write answers: the square root left out.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

l2norm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void l2norm_kernel(const float* __restrict__ x, float* __restrict__ out, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float* xr = x + (size_t)r * cols;
        float acc = 0.0f;
        for (int j = 0; j < cols; ++j) acc += xr[j] * xr[j];
        float d = acc;
        for (int j = 0; j < cols; ++j) out[(size_t)r * cols + j] = xr[j] / d;
    }
}

torch::Tensor l2norm_cuda(torch::Tensor x) {
    const int rows = x.size(0);
    const int cols = x.size(1);
    auto out = torch::empty_like(x);
    const int threads = 256;
    const int blocks = (rows + threads - 1) / threads;
    l2norm_kernel<<<blocks, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    return out;
}
"""

l2norm_cpp_source = "torch::Tensor l2norm_cuda(torch::Tensor x);"

l2norm = load_inline(
    name="l2norm",
    cpp_sources=l2norm_cpp_source,
    cuda_sources=l2norm_source,
    functions=["l2norm_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.l2norm = l2norm

    def forward(self, x) -> torch.Tensor:
        return self.l2norm.l2norm_cuda(x)
