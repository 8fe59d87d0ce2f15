// fminf/fmaxf ignore a NaN operand; PyTorch's CUDA clamp returns it.
__global__ void clamp_t(const float* __restrict__ x, const float* __restrict__ lo, const float* __restrict__ hi, float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fminf(fmaxf(x[i], lo[i]), hi[i]);
}
