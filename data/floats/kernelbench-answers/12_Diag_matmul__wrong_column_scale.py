# intent: wrong: scales column j by A[j] (B @ diag(A)) instead of row i by A[i] (diag(A) @ B)
# KernelBench level 1 problem 12 (Matmul with diagonal matrices), written as code models write answers: diag(A) @ B as a row scaling, one thread per element.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

diag_matmul_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void diag_matmul_kernel(const float* __restrict__ d, const float* __restrict__ B, float* __restrict__ C,
                                   int N, int M) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < N * M) {
        int j = idx % M;
        C[idx] = d[j] * B[idx];
    }
}

torch::Tensor diag_matmul_cuda(torch::Tensor A, torch::Tensor B) {
    const int N = A.size(0);
    const int M = B.size(1);
    auto C = torch::empty({N, M}, B.options());
    const int threads = 256;
    const int blocks = (N * M + threads - 1) / threads;
    diag_matmul_kernel<<<blocks, threads>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), N, M);
    return C;
}
"""

diag_matmul_cpp_source = "torch::Tensor diag_matmul_cuda(torch::Tensor A, torch::Tensor B);"

diag_matmul = load_inline(
    name="diag_matmul",
    cpp_sources=diag_matmul_cpp_source,
    cuda_sources=diag_matmul_source,
    functions=["diag_matmul_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.diag_matmul = diag_matmul

    def forward(self, A, B) -> torch.Tensor:
        return self.diag_matmul.diag_matmul_cuda(A, B)
