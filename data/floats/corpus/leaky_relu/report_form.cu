// LeakyReLU in report 3's second form: v >= 0 ? v : slope * v.
__global__ void leaky_relu_ge(const float* __restrict__ x, float* __restrict__ out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        out[idx] = v >= 0.0f ? v : 0.01f * v;
    }
}
