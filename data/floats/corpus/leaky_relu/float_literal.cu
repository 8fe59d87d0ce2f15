// LeakyReLU with the float literal 0.01f: PyTorch's slope 0.01 is applied as 0.01f.
__global__ void leaky_relu_kernel(const float* __restrict__ x, float* __restrict__ out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        out[idx] = v > 0.0f ? v : v * 0.01f;
    }
}
