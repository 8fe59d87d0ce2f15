# Our answer for KernelBench level 1 problem 20 (LeakyReLU, negative_slope 0.01): a __device__ helper with
# an `if`, the output first in the kernel's parameters, the launch in a second host function.
# Expected: not equivalent under nvcc's default -fmad=true? No: there is no add, so nothing is contracted;
# the helper keeps NaN (v > 0 is false, v * slope is NaN): equivalent on all 2**32 inputs.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = """
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>

#define CHECK_INPUT(x) TORCH_CHECK(x.is_cuda() && x.is_contiguous(), #x " must be a contiguous CUDA tensor")

__device__ __forceinline__ float leaky(float v, float slope) {
    if (v > 0.0f) {
        return v;
    }
    return v * slope;
}

__global__ void leaky_relu_kernel(float* out, const float* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = leaky(in[i], 0.01f);
}

inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

void leaky_relu_launch(torch::Tensor out, torch::Tensor in) {
    int n = in.numel();
    dim3 block(512);
    dim3 grid(ceil_div(n, 512));
    leaky_relu_kernel<<<grid, block, 0>>>(out.data_ptr<float>(), in.data_ptr<float>(), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

torch::Tensor leaky_relu_cuda(torch::Tensor in) {
    CHECK_INPUT(in);
    torch::Tensor out = torch::empty(in.sizes(), in.options());
    leaky_relu_launch(out, in);
    return out;
}
"""

cpp_src = "torch::Tensor leaky_relu_cuda(torch::Tensor in);"

ext = load_inline("leaky_relu_helper", cpp_sources=cpp_src, cuda_sources=cuda_src, functions=["leaky_relu_cuda"])


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.ext = ext

    def forward(self, x):
        return self.ext.leaky_relu_cuda(x)
