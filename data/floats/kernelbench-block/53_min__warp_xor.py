# intent: correct over the reals: butterfly (__shfl_xor_sync) min per warp, then over the warps' minima
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

min_dim_source = """
#include <torch/extension.h>

__device__ float warp_min(float v, unsigned mask) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        v = fminf(v, __shfl_xor_sync(mask, v, offset));
    }
    return v;
}

__global__ void min_dim_kernel(const float* __restrict__ x, float* __restrict__ out, int R, int I) {
    __shared__ float warp_mins[8];
    int o = blockIdx.x;
    int b = o / I;
    int i = o % I;
    float m = INFINITY;
    for (int r = threadIdx.x; r < R; r += blockDim.x) {
        m = fminf(m, x[(b * R + r) * I + i]);
    }
    m = warp_min(m, 0xffffffff);
    if ((threadIdx.x & 31) == 0) warp_mins[threadIdx.x >> 5] = m;
    __syncthreads();
    if (threadIdx.x < 32) {
        m = threadIdx.x < 8 ? warp_mins[threadIdx.x] : INFINITY;
        m = warp_min(m, 0xffffffff);
        if (threadIdx.x == 0) out[o] = m;
    }
}

torch::Tensor min_dim_cuda(torch::Tensor x, int dim) {
    const int B = x.size(0);
    const int R = x.size(1);
    const int I = x.size(2);
    auto out = torch::empty({B, I}, x.options());
    min_dim_kernel<<<B * I, 256>>>(x.data_ptr<float>(), out.data_ptr<float>(), R, I);
    return out;
}

"""

min_dim_cpp_source = "torch::Tensor min_dim_cuda(torch::Tensor x, int dim);"

min_dim = load_inline(
    name="min_dim",
    cpp_sources=min_dim_cpp_source,
    cuda_sources=min_dim_source,
    functions=["min_dim_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim
        self.min_dim = min_dim

    def forward(self, x):
        return self.min_dim.min_dim_cuda(x, self.dim)
