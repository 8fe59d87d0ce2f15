# intent: correct
# KernelBench level 1 problem 19 (ReLU), written as code models write answers: a ternary in a grid-stride loop, NaN kept explicitly.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

relu_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void relu_kernel(const float* __restrict__ input, float* __restrict__ output, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = input[i];
        output[i] = (v > 0.0f || v != v) ? v : 0.0f;
    }
}

torch::Tensor relu_cuda(torch::Tensor input) {
    TORCH_CHECK(input.is_cuda(), "input must be a CUDA tensor");
    auto output = torch::empty_like(input);
    const int n = input.numel();
    const int threads = 512;
    const int blocks = std::min((n + threads - 1) / threads, 65535);
    relu_kernel<<<blocks, threads>>>(input.data_ptr<float>(), output.data_ptr<float>(), n);
    return output;
}
"""

relu_cpp_source = "torch::Tensor relu_cuda(torch::Tensor x);"

relu = load_inline(
    name="relu",
    cpp_sources=relu_cpp_source,
    cuda_sources=relu_source,
    functions=["relu_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.relu = relu

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.relu.relu_cuda(x)
