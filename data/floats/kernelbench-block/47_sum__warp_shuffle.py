# intent: correct over the reals: warp shuffles (__shfl_down_sync), one partial per warp in shared memory
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sum_dim_source = """
#include <torch/extension.h>

__inline__ __device__ float warp_reduce_sum(float val) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2) {
        val += __shfl_down_sync(0xffffffff, val, offset);
    }
    return val;
}

__global__ void sum_dim_kernel(const float* __restrict__ x, float* __restrict__ out, int B, int R, int I) {
    __shared__ float warp_sums[32];
    int o = blockIdx.x;
    int b = o / I;
    int i = o % I;
    int lane = threadIdx.x % warpSize;
    int warp = threadIdx.x / warpSize;
    float val = 0.0f;
    for (int r = threadIdx.x; r < R; r += blockDim.x) {
        val += x[(b * R + r) * I + i];
    }
    val = warp_reduce_sum(val);
    if (lane == 0) warp_sums[warp] = val;
    __syncthreads();
    if (warp == 0) {
        val = (threadIdx.x < blockDim.x / warpSize) ? warp_sums[lane] : 0.0f;
        val = warp_reduce_sum(val);
        if (lane == 0) out[o] = val;
    }
}

torch::Tensor sum_dim_cuda(torch::Tensor x, int dim) {
    TORCH_CHECK(dim == 1, "only dim=1 is supported");
    const int B = x.size(0);
    const int R = x.size(1);
    const int I = x.size(2);
    auto out = torch::empty({B, 1, I}, x.options());
    const int threads = 256;
    sum_dim_kernel<<<B * I, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), B, R, I);
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
