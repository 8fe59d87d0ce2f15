# intent: correct
# KernelBench level 1 problem 23 (Softmax), written as code models write answers: one block per row, shared-memory tree reductions for the max and the sum.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

softmax_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void softmax_kernel(const float* __restrict__ x, float* __restrict__ out, int cols) {
    __shared__ float red[256];
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* outr = out + (size_t)blockIdx.x * cols;
    float m = -INFINITY;
    for (int j = threadIdx.x; j < cols; j += blockDim.x) m = fmaxf(m, xr[j]);
    red[threadIdx.x] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();
    float sum = 0.0f;
    for (int j = threadIdx.x; j < cols; j += blockDim.x) sum += expf(xr[j] - m);
    red[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
        __syncthreads();
    }
    sum = red[0];
    for (int j = threadIdx.x; j < cols; j += blockDim.x) outr[j] = expf(xr[j] - m) / sum;
}

torch::Tensor softmax_cuda(torch::Tensor x) {
    const int rows = x.size(0);
    const int cols = x.size(1);
    auto out = torch::empty_like(x);
    softmax_kernel<<<rows, 256>>>(x.data_ptr<float>(), out.data_ptr<float>(), cols);
    return out;
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
        super(ModelNew, self).__init__()
        self.softmax = softmax

    def forward(self, x) -> torch.Tensor:
        return self.softmax.softmax_cuda(x)
