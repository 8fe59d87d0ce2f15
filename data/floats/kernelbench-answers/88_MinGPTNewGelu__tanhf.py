# intent: correct
# KernelBench level 1 problem 88 (MinGPTNewGelu), written as code models write answers: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

new_gelu_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void new_gelu_kernel(const float* __restrict__ x, float* __restrict__ out, int size) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < size) {
        float v = x[idx];
        out[idx] = 0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)));
    }
}

torch::Tensor new_gelu_cuda(torch::Tensor x) {
    auto out = torch::empty_like(x);
    int size = x.numel();
    const int block_size = 256;
    const int num_blocks = (size + block_size - 1) / block_size;
    new_gelu_kernel<<<num_blocks, block_size>>>(x.data_ptr<float>(), out.data_ptr<float>(), size);
    return out;
}
"""

new_gelu_cpp_source = "torch::Tensor new_gelu_cuda(torch::Tensor x);"

new_gelu = load_inline(
    name="new_gelu",
    cpp_sources=new_gelu_cpp_source,
    cuda_sources=new_gelu_source,
    functions=["new_gelu_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.new_gelu = new_gelu

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.new_gelu.new_gelu_cuda(x)
