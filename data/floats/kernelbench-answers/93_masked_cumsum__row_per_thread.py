# intent: correct
# KernelBench level 1 problem 93 (masked cumsum), written as code models write answers: adds x only where the mask is set.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

masked_cumsum_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void masked_cumsum_kernel(const float* __restrict__ x, const bool* __restrict__ mask, float* __restrict__ out, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float* xr = x + (size_t)r * cols;
        float* outr = out + (size_t)r * cols;
        float acc = 0.0f;
        const bool* mr = mask + (size_t)r * cols;
        for (int j = 0; j < cols; ++j) {
            if (mr[j]) acc += xr[j];
            outr[j] = acc;
        }
    }
}

torch::Tensor masked_cumsum_cuda(torch::Tensor x, torch::Tensor mask, int dim) {
    TORCH_CHECK(dim == 1, "only dim=1 is implemented");
    const int rows = x.size(0);
    const int cols = x.size(1);
    auto out = torch::empty_like(x);
    const int threads = 256;
    const int blocks = (rows + threads - 1) / threads;
    masked_cumsum_kernel<<<blocks, threads>>>(x.data_ptr<float>(), mask.data_ptr<bool>(), out.data_ptr<float>(), rows, cols);
    return out;
}
"""

masked_cumsum_cpp_source = "torch::Tensor masked_cumsum_cuda(torch::Tensor x, torch::Tensor mask, int dim);"

masked_cumsum = load_inline(
    name="masked_cumsum",
    cpp_sources=masked_cumsum_cpp_source,
    cuda_sources=masked_cumsum_source,
    functions=["masked_cumsum_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim
        self.masked_cumsum = masked_cumsum

    def forward(self, x, mask) -> torch.Tensor:
        return self.masked_cumsum.masked_cumsum_cuda(x, mask, self.dim)
