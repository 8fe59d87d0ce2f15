# intent: correct
# KernelBench level 1 problem 96 (HuberLoss), written as code models write answers: smooth L1 with beta 1: partial sums, a shared tree, one atomicAdd per block.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

huber_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void huber_kernel(const float* __restrict__ p, const float* __restrict__ t, float* __restrict__ out,
                           int n, int unused) {
    __shared__ float partial[256];
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float d = fabsf(p[i] - t[i]);
        acc += d < 1.0f ? 0.5f * d * d : d - 0.5f;
    }
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, partial[0] / n);
}

torch::Tensor huber_cuda(torch::Tensor predictions, torch::Tensor targets) {
    const int n = predictions.numel();
    auto out = torch::zeros({}, predictions.options());
    const int threads = 256;
    const int blocks = std::min((n + threads - 1) / threads, 1024);
    huber_kernel<<<blocks, threads>>>(predictions.data_ptr<float>(), targets.data_ptr<float>(), out.data_ptr<float>(),
                                    n, 0);
    return out;
}
"""

huber_cpp_source = "torch::Tensor huber_cuda(torch::Tensor predictions, torch::Tensor targets);"

huber = load_inline(
    name="huber",
    cpp_sources=huber_cpp_source,
    cuda_sources=huber_source,
    functions=["huber_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.huber = huber

    def forward(self, predictions, targets) -> torch.Tensor:
        return self.huber.huber_cuda(predictions, targets)
