// launch: grid = (n + 255) / 256, block = 256
__global__ void relu_and_double_f(const float* x, float* act, float* twice, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        act[i] = fmaxf(v, 0.0f);
        twice[i] = v + v;
    }
}
