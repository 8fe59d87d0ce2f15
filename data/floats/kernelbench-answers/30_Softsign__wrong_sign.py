# intent: wrong: x / (1 - |x|) (sign slip in the denominator)
# KernelBench level 1 problem 30 (Softsign), written as code models write answers: a sign slip.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

softsign_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void softsign_kernel(const float* __restrict__ input, float* __restrict__ output, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = input[i];
        output[i] = v / (1.0f - fabsf(v));
    }
}

torch::Tensor softsign_cuda(torch::Tensor input) {
    TORCH_CHECK(input.is_cuda(), "input must be a CUDA tensor");
    auto output = torch::empty_like(input);
    const int n = input.numel();
    const int threads = 512;
    const int blocks = std::min((n + threads - 1) / threads, 65535);
    softsign_kernel<<<blocks, threads>>>(input.data_ptr<float>(), output.data_ptr<float>(), n);
    return output;
}
"""

softsign_cpp_source = "torch::Tensor softsign_cuda(torch::Tensor x);"

softsign = load_inline(
    name="softsign",
    cpp_sources=softsign_cpp_source,
    cuda_sources=softsign_source,
    functions=["softsign_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.softsign = softsign

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.softsign.softsign_cuda(x)
