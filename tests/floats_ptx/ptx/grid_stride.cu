// Grid-stride ReLU (x < 0 ? 0 : x): the source level refuses the loop; the PTX level runs it.
// launch: grid = 2, block = 32
__global__ void relu_stride(const float* __restrict__ x, float* __restrict__ out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = x[i];
        out[i] = v < 0.0f ? 0.0f : v;
    }
}
