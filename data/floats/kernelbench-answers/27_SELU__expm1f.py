# intent: correct
# KernelBench level 1 problem 27 (SELU), written as code models write answers: scale * (x > 0 ? x : alpha * expm1f(x)).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

selu_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void selu_kernel(const float* __restrict__ x, float* __restrict__ out, int size) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < size) {
        float v = x[idx];
        out[idx] = 1.0507009873554805f * (v > 0.0f ? v : 1.6732632423543772f * expm1f(v));
    }
}

torch::Tensor selu_cuda(torch::Tensor x) {
    auto out = torch::empty_like(x);
    int size = x.numel();
    const int block_size = 256;
    const int num_blocks = (size + block_size - 1) / block_size;
    selu_kernel<<<num_blocks, block_size>>>(x.data_ptr<float>(), out.data_ptr<float>(), size);
    return out;
}
"""

selu_cpp_source = "torch::Tensor selu_cuda(torch::Tensor x);"

selu = load_inline(
    name="selu",
    cpp_sources=selu_cpp_source,
    cuda_sources=selu_source,
    functions=["selu_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.selu = selu

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.selu.selu_cuda(x)
