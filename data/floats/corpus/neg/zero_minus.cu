// Negation as 0.0f - v: 0 - 0 is +0.0, not -0.0.
__global__ void neg_sub(const float* __restrict__ x, float* __restrict__ out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        out[idx] = 0.0f - v;
    }
}
