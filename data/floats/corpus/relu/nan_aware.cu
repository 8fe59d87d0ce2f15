// PyTorch's CUDA relu (clamp_min): a NaN passes, otherwise fmaxf(v, 0).
__global__ void relu_nan_aware(const float* __restrict__ x, float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { float v = x[i]; out[i] = v != v ? v : fmaxf(v, 0.0f); }
}
