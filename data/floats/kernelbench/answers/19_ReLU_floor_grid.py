# Our answer for KernelBench level 1 problem 19 (ReLU) with a bug code models make: the grid is n / 256,
# rounded down, so the last n % 256 elements are never written (torch::empty_like leaves them as they were).
# Expected: "output-not-fully-written" (no access is out of bounds, no two threads race).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = """
#include <torch/extension.h>

__global__ void relu_kernel(const float* x, float* y, int size) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < size) {
        y[idx] = fmaxf(x[idx], 0.0f);
    }
}

torch::Tensor relu_forward(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int size = x.numel();
    int block_size = 256;
    int num_blocks = size / block_size;
    relu_kernel<<<num_blocks, block_size>>>(x.data_ptr<float>(), y.data_ptr<float>(), size);
    return y;
}
"""

cpp_source = "torch::Tensor relu_forward(torch::Tensor x);"

relu_ext = load_inline(name="relu_floor", cpp_sources=cpp_source, cuda_sources=source, functions=["relu_forward"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.relu_ext = relu_ext

    def forward(self, x):
        return self.relu_ext.relu_forward(x)
