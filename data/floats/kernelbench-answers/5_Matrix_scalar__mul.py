# intent: correct
# KernelBench level 1 problem 5 (Matrix scalar multiplication), written as code models write answers: A * s with s passed as a float argument.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

scale_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void scale_kernel(const float* __restrict__ A, float s, float* __restrict__ C, int size) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < size) {
        C[idx] = A[idx] * s;
    }
}

torch::Tensor scale_cuda(torch::Tensor A, float s) {
    auto C = torch::empty_like(A);
    const int size = A.numel();
    const int threads = 256;
    const int blocks = (size + threads - 1) / threads;
    scale_kernel<<<blocks, threads>>>(A.data_ptr<float>(), s, C.data_ptr<float>(), size);
    return C;
}
"""

scale_cpp_source = "torch::Tensor scale_cuda(torch::Tensor A, float s);"

scale = load_inline(
    name="scale",
    cpp_sources=scale_cpp_source,
    cuda_sources=scale_source,
    functions=["scale_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.scale = scale

    def forward(self, A, s) -> torch.Tensor:
        return self.scale.scale_cuda(A, s)
