// launch: grid = (n + 255) / 256, block = 256
__global__ void minmax_nan(const float* a, const float* b, float* hi, float* lo, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i], y = b[i];
        bool any_nan = isnan(x) || isnan(y);
        float nan_v = isnan(x) ? x : y;
        hi[i] = any_nan ? nan_v : fmaxf(x, y);
        lo[i] = any_nan ? nan_v : fminf(x, y);
    }
}
