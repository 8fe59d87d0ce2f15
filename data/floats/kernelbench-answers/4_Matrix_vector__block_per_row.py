# intent: correct
# KernelBench level 1 problem 4 (Matrix vector multiplication), written as code models write answers: one block per row, strided partial sums, a shared-memory tree reduction.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

matvec_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void matvec_kernel(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y,
                              int M, int K) {
    __shared__ float partial[256];
    int row = blockIdx.x;
    float sum = 0.0f;
    for (int k = threadIdx.x; k < K; k += blockDim.x) {
        sum += A[(size_t)row * K + k] * x[k];
    }
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            partial[threadIdx.x] += partial[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        y[row] = partial[0];
    }
}

torch::Tensor matvec_cuda(torch::Tensor A, torch::Tensor B) {
    const int M = A.size(0);
    const int K = A.size(1);
    auto y = torch::empty({M, 1}, A.options());
    matvec_kernel<<<M, 256>>>(A.data_ptr<float>(), B.data_ptr<float>(), y.data_ptr<float>(), M, K);
    return y;
}
"""

matvec_cpp_source = "torch::Tensor matvec_cuda(torch::Tensor A, torch::Tensor B);"

matvec = load_inline(
    name="matvec",
    cpp_sources=matvec_cpp_source,
    cuda_sources=matvec_source,
    functions=["matvec_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.matvec = matvec

    def forward(self, A, B) -> torch.Tensor:
        return self.matvec.matvec_cuda(A, B)
