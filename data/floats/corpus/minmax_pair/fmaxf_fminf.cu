// launch: grid = (n + 255) / 256, block = 256
__global__ void minmax(const float* a, const float* b, float* hi, float* lo, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        hi[i] = fmaxf(a[i], b[i]);
        lo[i] = fminf(a[i], b[i]);
    }
}
