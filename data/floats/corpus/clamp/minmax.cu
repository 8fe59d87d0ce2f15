// Clamp via fminf/fmaxf: NaN becomes -0.5.
__global__ void clamp_minmax(const float* __restrict__ x, float* __restrict__ out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        out[idx] = fminf(fmaxf(v, -0.5f), 0.5f);
    }
}
