// Softplus with PyTorch's threshold 20.
__global__ void softplus_kernel(const float* __restrict__ x, float* __restrict__ out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        out[idx] = v > 20.0f ? v : log1pf(expf(v));
    }
}
