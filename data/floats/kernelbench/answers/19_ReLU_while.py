# Our answer for KernelBench level 1 problem 19 (ReLU), written the way code models write them: a `while`
# grid-stride loop, a capped grid, and a NaN-preserving select. Expected: equivalent on all 2**32 inputs.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

relu_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    while (i < n) {
        float v = x[i];
        out[i] = (v > 0.0f || v != v) ? v : 0.0f;
        i += stride;
    }
}

torch::Tensor relu_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    auto out = torch::empty_like(x);
    const int n = x.numel();
    const int threads = 256;
    const int blocks = std::min((n + threads - 1) / threads, 4096);
    relu_kernel<<<blocks, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), n);
    return out;
}
"""

relu_cpp = "torch::Tensor relu_cuda(torch::Tensor x);"

relu = load_inline(name="relu", cpp_sources=relu_cpp, cuda_sources=relu_source, functions=["relu_cuda"],
                   verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.relu = relu

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.relu.relu_cuda(x.contiguous())
