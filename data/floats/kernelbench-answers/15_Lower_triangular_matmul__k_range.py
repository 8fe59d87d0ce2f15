# intent: correct
# KernelBench level 1 problem 15 (Matmul for lower triangular matrices), written as code models write answers: only k in [col, row] contributes when A and B are lower triangular; zeros above the diagonal.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

tri_matmul_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void tri_matmul_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < N && col < N) {
        float sum = 0.0f;
        if (row >= col) {
            for (int k = col; k <= row; ++k) {
                sum += A[row * N + k] * B[k * N + col];
            }
        }
        C[row * N + col] = sum;
    }
}

torch::Tensor tri_matmul_cuda(torch::Tensor A, torch::Tensor B) {
    const int N = A.size(0);
    auto C = torch::empty({N, N}, A.options());
    dim3 threads(16, 16);
    dim3 blocks((N + 15) / 16, (N + 15) / 16);
    tri_matmul_kernel<<<blocks, threads>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), N);
    return C;
}
"""

tri_matmul_cpp_source = "torch::Tensor tri_matmul_cuda(torch::Tensor A, torch::Tensor B);"

tri_matmul = load_inline(
    name="tri_matmul",
    cpp_sources=tri_matmul_cpp_source,
    cuda_sources=tri_matmul_source,
    functions=["tri_matmul_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.tri_matmul = tri_matmul

    def forward(self, A, B) -> torch.Tensor:
        return self.tri_matmul.tri_matmul_cuda(A, B)
