# intent: correct
# KernelBench level 1 problem 3 (Batched matrix multiplication), written as code models write answers: blockIdx.z is the batch.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

bmm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void bmm_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                           int batch, int M, int K, int N) {
    int b = blockIdx.z;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < batch && row < M && col < N) {
        const float* a = A + (size_t)b * M * K;
        const float* bb = B + (size_t)b * K * N;
        float sum = 0.0f;
        for (int k = 0; k < K; ++k) {
            sum += a[row * K + k] * bb[k * N + col];
        }
        C[(size_t)b * M * N + row * N + col] = sum;
    }
}

torch::Tensor bmm_cuda(torch::Tensor A, torch::Tensor B) {
    const int batch = A.size(0);
    const int M = A.size(1);
    const int K = A.size(2);
    const int N = B.size(2);
    auto C = torch::empty({batch, M, N}, A.options());
    dim3 threads(16, 16);
    dim3 blocks((N + 15) / 16, (M + 15) / 16, batch);
    bmm_kernel<<<blocks, threads>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), batch, M, K, N);
    return C;
}
"""

bmm_cpp_source = "torch::Tensor bmm_cuda(torch::Tensor A, torch::Tensor B);"

bmm = load_inline(
    name="bmm",
    cpp_sources=bmm_cpp_source,
    cuda_sources=bmm_source,
    functions=["bmm_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.bmm = bmm

    def forward(self, A, B) -> torch.Tensor:
        return self.bmm.bmm_cuda(A, B)
