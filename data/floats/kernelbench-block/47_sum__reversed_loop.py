# intent: correct over the reals: one thread per output, the reduced dim summed from its last element down
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sum_dim_source = """
#include <torch/extension.h>

__global__ void sum_dim_kernel(const float* __restrict__ x, float* __restrict__ out, int B, int R, int I) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < B * I) {
        int b = idx / I;
        int i = idx % I;
        float acc = 0.0f;
        for (int r = R - 1; r >= 0; --r) {
            acc += x[(b * R + r) * I + i];
        }
        out[idx] = acc;
    }
}

torch::Tensor sum_dim_cuda(torch::Tensor x, int dim) {
    const int B = x.size(0);
    const int R = x.size(1);
    const int I = x.size(2);
    auto out = torch::empty({B, 1, I}, x.options());
    const int threads = 256;
    const int blocks = (B * I + threads - 1) / threads;
    sum_dim_kernel<<<blocks, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), B, R, I);
    return out;
}
"""

sum_dim_cpp_source = "torch::Tensor sum_dim_cuda(torch::Tensor x, int dim);"

sum_dim = load_inline(
    name="sum_dim",
    cpp_sources=sum_dim_cpp_source,
    cuda_sources=sum_dim_source,
    functions=["sum_dim_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim
        self.sum_dim = sum_dim

    def forward(self, x):
        return self.sum_dim.sum_dim_cuda(x, self.dim)
