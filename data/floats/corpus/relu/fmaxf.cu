// Model-written ReLU via fmaxf: fmaxf ignores NaN, so NaN becomes +0.0; fmaxf(-0.0, 0.0) is +0.0.
__global__ void relu_fmaxf(const float* __restrict__ x, float* __restrict__ out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        out[idx] = fmaxf(v, 0.0f);
    }
}
