# intent: wrong: reads A's rows modulo M (every batch multiplies batch 0's matrix)
# KernelBench level 1 problem 10 (3D tensor matrix multiplication), written as code models write answers: the batch folded into the rows: (N*M, K) @ (K, L), one thread per output element.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

tmm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void tmm_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                           int rows, int M, int K, int L) {
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows && c < L) {
        float sum = 0.0f;
        for (int k = 0; k < K; ++k) {
            sum += A[(size_t)(r % M) * K + k] * B[(size_t)k * L + c];
        }
        C[(size_t)r * L + c] = sum;
    }
}

torch::Tensor tmm_cuda(torch::Tensor A, torch::Tensor B) {
    const int N = A.size(0);
    const int M = A.size(1);
    const int K = A.size(2);
    const int L = B.size(1);
    auto C = torch::empty({N, M, L}, A.options());
    dim3 threads(16, 16);
    dim3 blocks((L + 15) / 16, (N * M + 15) / 16);
    tmm_kernel<<<blocks, threads>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), N * M, M, K, L);
    return C;
}
"""

tmm_cpp_source = "torch::Tensor tmm_cuda(torch::Tensor A, torch::Tensor B);"

tmm = load_inline(
    name="tmm",
    cpp_sources=tmm_cpp_source,
    cuda_sources=tmm_source,
    functions=["tmm_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.tmm = tmm

    def forward(self, A, B) -> torch.Tensor:
        return self.tmm.tmm_cuda(A, B)
