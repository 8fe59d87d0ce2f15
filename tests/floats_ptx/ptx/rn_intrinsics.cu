// Scale and shift with explicit rounding intrinsics: __fmul_rz then __fadd_rd (never contracted).
__global__ void scale_shift_directed(const float* __restrict__ x, float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __fadd_rd(__fmul_rz(x[i], 0.1f), 0.5f);
}
