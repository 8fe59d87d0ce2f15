// Absolute value via a ternary: -0.0 stays -0.0.
__global__ void abs_ternary(const float* __restrict__ x, float* __restrict__ out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        out[idx] = v < 0.0f ? -v : v;
    }
}
