// Scale and shift with __fmul_rn, which nvcc never contracts.
__global__ void scale_shift_rn(const float* __restrict__ x, float* __restrict__ out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        out[idx] = __fmul_rn(v, 0.1f) + 0.5f;
    }
}
