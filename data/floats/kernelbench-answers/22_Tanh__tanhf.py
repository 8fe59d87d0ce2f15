# intent: correct
# KernelBench level 1 problem 22 (Tanh), written as code models write answers: tanhf in a grid-stride loop.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

tanh_act_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void tanh_act_kernel(const float* __restrict__ input, float* __restrict__ output, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = input[i];
        output[i] = tanhf(v);
    }
}

torch::Tensor tanh_act_cuda(torch::Tensor input) {
    TORCH_CHECK(input.is_cuda(), "input must be a CUDA tensor");
    auto output = torch::empty_like(input);
    const int n = input.numel();
    const int threads = 512;
    const int blocks = std::min((n + threads - 1) / threads, 65535);
    tanh_act_kernel<<<blocks, threads>>>(input.data_ptr<float>(), output.data_ptr<float>(), n);
    return output;
}
"""

tanh_act_cpp_source = "torch::Tensor tanh_act_cuda(torch::Tensor x);"

tanh_act = load_inline(
    name="tanh_act",
    cpp_sources=tanh_act_cpp_source,
    cuda_sources=tanh_act_source,
    functions=["tanh_act_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.tanh_act = tanh_act

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.tanh_act.tanh_act_cuda(x)
