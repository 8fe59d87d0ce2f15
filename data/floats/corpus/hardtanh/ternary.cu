// HardTanh with comparisons in ATen's order: NaN passes through.
__global__ void hardtanh_ternary(const float* __restrict__ x, float* __restrict__ out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        out[idx] = v < -1.0f ? -1.0f : (v > 1.0f ? 1.0f : v);
    }
}
