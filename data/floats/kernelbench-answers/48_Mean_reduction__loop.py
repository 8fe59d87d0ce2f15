# intent: correct
# KernelBench level 1 problem 48 (Mean reduction over a dimension), written as code models write answers: a loop sum divided by the dim's size.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

mean_dim_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void mean_dim_kernel(const float* __restrict__ x, float* __restrict__ out, int B, int D1, int D2) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < B * D2) {
        int b = idx / D2;
        int j = idx % D2;
        const float* p = x + (size_t)b * D1 * D2 + j;
        float acc = 0.0f;
        for (int k = 0; k < D1; ++k) {
            acc += p[(size_t)k * D2];
        }
        out[idx] = acc / D1;
    }
}

torch::Tensor mean_dim_cuda(torch::Tensor x, int dim) {
    TORCH_CHECK(dim == 1, "only dim=1 is implemented");
    const int B = x.size(0);
    const int D1 = x.size(1);
    const int D2 = x.size(2);
    auto out = torch::empty({B, D2}, x.options());
    const int threads = 256;
    const int blocks = (B * D2 + threads - 1) / threads;
    mean_dim_kernel<<<blocks, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), B, D1, D2);
    return out;
}
"""

mean_dim_cpp_source = "torch::Tensor mean_dim_cuda(torch::Tensor x, int dim);"

mean_dim = load_inline(
    name="mean_dim",
    cpp_sources=mean_dim_cpp_source,
    cuda_sources=mean_dim_source,
    functions=["mean_dim_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim
        self.mean_dim = mean_dim

    def forward(self, x) -> torch.Tensor:
        return self.mean_dim.mean_dim_cuda(x, self.dim)
