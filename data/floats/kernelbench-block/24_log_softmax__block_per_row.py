# intent: correct over the reals: one block per row, shared-memory trees for the max and the sum of exponentials
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

log_softmax_source = """
#include <torch/extension.h>

__global__ void log_softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int cols) {
    __shared__ float buf[128];
    int row = blockIdx.x;
    int tid = threadIdx.x;
    const float* xr = x + row * cols;
    float m = -FLT_MAX;
    for (int j = tid; j < cols; j += blockDim.x) m = fmaxf(m, xr[j]);
    buf[tid] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) buf[tid] = fmaxf(buf[tid], buf[tid + s]);
        __syncthreads();
    }
    float row_max = buf[0];
    __syncthreads();
    float acc = 0.0f;
    for (int j = tid; j < cols; j += blockDim.x) acc += expf(xr[j] - row_max);
    buf[tid] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) buf[tid] += buf[tid + s];
        __syncthreads();
    }
    float log_sum = logf(buf[0]);
    for (int j = tid; j < cols; j += blockDim.x) y[row * cols + j] = xr[j] - row_max - log_sum;
}

torch::Tensor log_softmax_cuda(torch::Tensor x) {
    int rows = x.size(0);
    int cols = x.size(1);
    auto y = torch::empty_like(x);
    log_softmax_kernel<<<rows, 128>>>(x.data_ptr<float>(), y.data_ptr<float>(), cols);
    return y;
}
"""

log_softmax_cpp_source = "torch::Tensor log_softmax_cuda(torch::Tensor x);"

log_softmax = load_inline(
    name="log_softmax",
    cpp_sources=log_softmax_cpp_source,
    cuda_sources=log_softmax_source,
    functions=["log_softmax_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.log_softmax = log_softmax

    def forward(self, x):
        return self.log_softmax.log_softmax_cuda(x)
