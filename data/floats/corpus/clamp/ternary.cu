// Clamp with ATen's comparison order.
__global__ void clamp_ternary(const float* __restrict__ x, float* __restrict__ out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        out[idx] = v < -0.5f ? -0.5f : (v > 0.5f ? 0.5f : v);
    }
}
