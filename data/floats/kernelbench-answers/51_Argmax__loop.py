# intent: correct
# KernelBench level 1 problem 51 (Argmax over a dimension), written as code models write answers: first index of the largest element.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

argmax_dim_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void argmax_dim_kernel(const float* __restrict__ x, int64_t* __restrict__ out, int B, int D1, int D2) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < B * D2) {
        int b = idx / D2;
        int j = idx % D2;
        const float* p = x + (size_t)b * D1 * D2 + j;
        float best = p[0];
        int64_t arg = 0;
        for (int k = 1; k < D1; ++k) {
            float v = p[(size_t)k * D2];
            if (v > best) {
                best = v;
                arg = k;
            }
        }
        out[idx] = arg;
    }
}

torch::Tensor argmax_dim_cuda(torch::Tensor x, int dim) {
    TORCH_CHECK(dim == 1, "only dim=1 is implemented");
    const int B = x.size(0);
    const int D1 = x.size(1);
    const int D2 = x.size(2);
    auto out = torch::empty({B, D2}, x.options().dtype(torch::kLong));
    const int threads = 256;
    const int blocks = (B * D2 + threads - 1) / threads;
    argmax_dim_kernel<<<blocks, threads>>>(x.data_ptr<float>(), out.data_ptr<int64_t>(), B, D1, D2);
    return out;
}
"""

argmax_dim_cpp_source = "torch::Tensor argmax_dim_cuda(torch::Tensor x, int dim);"

argmax_dim = load_inline(
    name="argmax_dim",
    cpp_sources=argmax_dim_cpp_source,
    cuda_sources=argmax_dim_source,
    functions=["argmax_dim_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim
        self.argmax_dim = argmax_dim

    def forward(self, x) -> torch.Tensor:
        return self.argmax_dim.argmax_dim_cuda(x, self.dim)
