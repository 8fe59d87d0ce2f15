#define NEG_SLOPE 0.01f
#define BLOCK 256
__global__ void leaky_relu_macro(const float* __restrict__ x, float* __restrict__ out, int n) {
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n) { float v = x[i]; out[i] = v > 0.0f ? v : v * NEG_SLOPE; }
}
