// ReLU written as x < 0 ? 0 : x, which is how ATen's clamp_min computes it.
__global__ void relu_lt(const float* __restrict__ x, float* __restrict__ out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        out[idx] = v < 0.0f ? 0.0f : v;
    }
}
