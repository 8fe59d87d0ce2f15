// HardTanh via fminf/fmaxf: NaN is clamped to -1 instead of propagating.
__global__ void hardtanh_minmax(const float* __restrict__ x, float* __restrict__ out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        out[idx] = fminf(fmaxf(v, -1.0f), 1.0f);
    }
}
