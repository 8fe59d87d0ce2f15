// SAXPY with __fmul_rn: the product is rounded on its own and never merged into an fma.
__global__ void saxpy_rn(const float* __restrict__ x, const float* __restrict__ y, float alpha, float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __fmul_rn(alpha, x[i]) + y[i];
}
