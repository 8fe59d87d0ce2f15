# intent: correct
# KernelBench level 1 problem 49 (Max reduction over a dimension), written as code models write answers: fmaxf over the dim, from -FLT_MAX.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

max_dim_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void max_dim_kernel(const float* __restrict__ x, float* __restrict__ out, int B, int D1, int D2) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < B * D2) {
        int b = idx / D2;
        int j = idx % D2;
        const float* p = x + (size_t)b * D1 * D2 + j;
        float m = -3.402823466e+38f;
        for (int k = 0; k < D1; ++k) {
            m = fmaxf(m, p[(size_t)k * D2]);
        }
        out[idx] = m;
    }
}

torch::Tensor max_dim_cuda(torch::Tensor x, int dim) {
    TORCH_CHECK(dim == 1, "only dim=1 is implemented");
    const int B = x.size(0);
    const int D1 = x.size(1);
    const int D2 = x.size(2);
    auto out = torch::empty({B, D2}, x.options());
    const int threads = 256;
    const int blocks = (B * D2 + threads - 1) / threads;
    max_dim_kernel<<<blocks, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), B, D1, D2);
    return out;
}
"""

max_dim_cpp_source = "torch::Tensor max_dim_cuda(torch::Tensor x, int dim);"

max_dim = load_inline(
    name="max_dim",
    cpp_sources=max_dim_cpp_source,
    cuda_sources=max_dim_source,
    functions=["max_dim_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim
        self.max_dim = max_dim

    def forward(self, x) -> torch.Tensor:
        return self.max_dim.max_dim_cuda(x, self.dim)
