// launch: grid = min((n + 255) / 256, 64), block = 256
__global__ void relu_gs(const float* __restrict__ x, float* __restrict__ out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = x[i];
        out[i] = v != v ? v : fmaxf(v, 0.0f);
    }
}
