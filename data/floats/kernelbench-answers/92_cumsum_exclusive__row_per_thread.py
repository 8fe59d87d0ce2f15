# intent: correct
# KernelBench level 1 problem 92 (cumsum exclusive), written as code models write answers: store, then add (exclusive).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

excl_cumsum_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void excl_cumsum_kernel(const float* __restrict__ x, float* __restrict__ out, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float* xr = x + (size_t)r * cols;
        float* outr = out + (size_t)r * cols;
        float acc = 0.0f;
        for (int j = 0; j < cols; ++j) {
            outr[j] = acc;
            acc += xr[j];
        }
    }
}

torch::Tensor excl_cumsum_cuda(torch::Tensor x, int dim) {
    TORCH_CHECK(dim == 1, "only dim=1 is implemented");
    const int rows = x.size(0);
    const int cols = x.size(1);
    auto out = torch::empty_like(x);
    const int threads = 256;
    const int blocks = (rows + threads - 1) / threads;
    excl_cumsum_kernel<<<blocks, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    return out;
}
"""

excl_cumsum_cpp_source = "torch::Tensor excl_cumsum_cuda(torch::Tensor x, int dim);"

excl_cumsum = load_inline(
    name="excl_cumsum",
    cpp_sources=excl_cumsum_cpp_source,
    cuda_sources=excl_cumsum_source,
    functions=["excl_cumsum_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim
        self.excl_cumsum = excl_cumsum

    def forward(self, x) -> torch.Tensor:
        return self.excl_cumsum.excl_cumsum_cuda(x, self.dim)
