// ReLU6 with ATen's clamp order.
__global__ void relu6_ternary(const float* __restrict__ x, float* __restrict__ out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        out[idx] = v < 0.0f ? 0.0f : (v > 6.0f ? 6.0f : v);
    }
}
