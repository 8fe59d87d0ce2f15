# intent: wrong: reads targets[i] as if targets had predictions' shape (it has one value per row)
# KernelBench level 1 problem 100 (HingeLoss), written as code models write answers: the broadcast missed.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

hinge_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void hinge_kernel(const float* __restrict__ p, const float* __restrict__ t, float* __restrict__ out,
                           int n, int cols) {
    __shared__ float partial[256];
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        acc += fmaxf(1.0f - p[i] * t[i], 0.0f);
    }
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, partial[0] / n);
}

torch::Tensor hinge_cuda(torch::Tensor predictions, torch::Tensor targets) {
    const int n = predictions.numel();
    auto out = torch::zeros({}, predictions.options());
    const int threads = 256;
    const int blocks = std::min((n + threads - 1) / threads, 1024);
    hinge_kernel<<<blocks, threads>>>(predictions.data_ptr<float>(), targets.data_ptr<float>(), out.data_ptr<float>(),
                                    n, predictions.size(1));
    return out;
}
"""

hinge_cpp_source = "torch::Tensor hinge_cuda(torch::Tensor predictions, torch::Tensor targets);"

hinge = load_inline(
    name="hinge",
    cpp_sources=hinge_cpp_source,
    cuda_sources=hinge_source,
    functions=["hinge_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.hinge = hinge

    def forward(self, predictions, targets) -> torch.Tensor:
        return self.hinge.hinge_cuda(predictions, targets)
