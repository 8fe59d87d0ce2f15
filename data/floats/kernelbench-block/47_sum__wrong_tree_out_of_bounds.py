# intent: wrong: the tree starts at stride blockDim.x instead of blockDim.x / 2 and reads past the shared array
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sum_dim_source = """
#include <torch/extension.h>

__global__ void sum_dim_kernel(const float* __restrict__ x, float* __restrict__ out, int B, int R, int I) {
    __shared__ float sdata[256];
    int o = blockIdx.x;
    int b = o / I;
    int i = o % I;
    int tid = threadIdx.x;
    float partial = 0.0f;
    for (int r = tid; r < R; r += blockDim.x) {
        partial += x[(b * R + r) * I + i];
    }
    sdata[tid] = partial;
    __syncthreads();
    for (int s = blockDim.x; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) out[o] = sdata[0];
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
