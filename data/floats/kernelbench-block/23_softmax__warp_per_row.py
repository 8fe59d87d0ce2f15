# intent: correct over the reals: one warp per row, __shfl_xor_sync butterflies for the row max and the sum of expf
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

softmax_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__device__ __forceinline__ float warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
    return v;
}

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}

__global__ void softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (row >= rows) return;
    const float* xr = x + row * cols;
    float m = -INFINITY;
    for (int j = lane; j < cols; j += 32) m = fmaxf(m, xr[j]);
    m = warp_max(m);
    float s = 0.0f;
    for (int j = lane; j < cols; j += 32) s += expf(xr[j] - m);
    s = warp_sum(s);
    for (int j = lane; j < cols; j += 32) y[row * cols + j] = expf(xr[j] - m) / s;
}

torch::Tensor softmax_cuda(torch::Tensor x) {
    int rows = x.size(0);
    int cols = x.size(1);
    auto y = torch::empty_like(x);
    int threads = 128;
    int blocks = (rows + 3) / 4;
    softmax_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), rows, cols);
    return y;
}
"""

softmax_cpp_source = "torch::Tensor softmax_cuda(torch::Tensor x);"

softmax = load_inline(
    name="softmax",
    cpp_sources=softmax_cpp_source,
    cuda_sources=softmax_source,
    functions=["softmax_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.softmax = softmax

    def forward(self, x):
        return self.softmax.softmax_cuda(x)
