__global__ void clamp_t_nan(const float* __restrict__ x, const float* __restrict__ lo, const float* __restrict__ hi, float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i], a = lo[i], b = hi[i];
        out[i] = v != v ? v : (a != a ? a : (b != b ? b : fminf(fmaxf(v, a), b)));
    }
}
