# intent: wrong: slope 0.1f instead of 0.01 (wrong constant)
# KernelBench level 1 problem 20 (LeakyReLU), written as code models write answers: the slope typed as 0.1f.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

leaky_relu_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void leaky_relu_kernel(const float* __restrict__ input, float* __restrict__ output, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = input[i];
        output[i] = v > 0.0f ? v : v * 0.1f;
    }
}

torch::Tensor leaky_relu_cuda(torch::Tensor input) {
    TORCH_CHECK(input.is_cuda(), "input must be a CUDA tensor");
    auto output = torch::empty_like(input);
    const int n = input.numel();
    const int threads = 512;
    const int blocks = std::min((n + threads - 1) / threads, 65535);
    leaky_relu_kernel<<<blocks, threads>>>(input.data_ptr<float>(), output.data_ptr<float>(), n);
    return output;
}
"""

leaky_relu_cpp_source = "torch::Tensor leaky_relu_cuda(torch::Tensor x);"

leaky_relu = load_inline(
    name="leaky_relu",
    cpp_sources=leaky_relu_cpp_source,
    cuda_sources=leaky_relu_source,
    functions=["leaky_relu_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.leaky_relu = leaky_relu

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.leaky_relu.leaky_relu_cuda(x)
