// v * (v * v): associates the other way, which rounds differently.
__global__ void cube_r(const float* __restrict__ x, float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { float v = x[i]; out[i] = v * (v * v); }
}
