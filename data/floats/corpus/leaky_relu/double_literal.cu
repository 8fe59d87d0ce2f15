// LeakyReLU with the double literal 0.01: v is widened, multiplied in double, rounded once to float.
__global__ void leaky_relu_double(const float* __restrict__ x, float* __restrict__ out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        out[idx] = v > 0.0f ? v : v * 0.01;
    }
}
