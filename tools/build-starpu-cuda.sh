#!/usr/bin/env bash
# Build a CUDA-enabled StarPU 1.3 (+ StarPU-MPI) from Debian bookworm's own
# source package (starpu 1.3.10+dfsg), patched to compile against CUDA 13.
#
# Usage: tools/build-starpu-cuda.sh [PREFIX]          (default /opt/starpu-cuda)
# Env:   CUDA_HOME  (default /usr/local/cuda)
#        WORKDIR    (default /tmp/starpu-cuda-build; wiped on each build)
#        NVCC_ARCH_FLAGS (default: sm_80 + sm_90 SASS, compute_90 PTX)
#        JOBS       (default: nproc)
# Idempotent: exits 0 at once if PREFIX already holds a finished install
# (stamp file + starpu-1.3.pc), so CI can cache PREFIX.
# Needs root (or sudo) for apt-get and for writing PREFIX.
set -euo pipefail

PREFIX=${1:-/opt/starpu-cuda}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
WORKDIR=${WORKDIR:-/tmp/starpu-cuda-build}
JOBS=${JOBS:-$(nproc)}
# CUDA 13 dropped sm_50..sm_72; StarPU's configure sets no -arch at all
# (it only probes the ancient sm_13), so choose modern targets explicitly.
NVCC_ARCH_FLAGS=${NVCC_ARCH_FLAGS:-"-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=[sm_90,compute_90]"}
STAMP="$PREFIX/.tila-starpu-cuda-stamp"
# The fixes below, by name: an install whose stamp lacks one of them is rebuilt.
FIXES="cuda13 send-bytes"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# shellcheck source=tools/starpu-source.sh
. "$HERE/starpu-source.sh"
starpu_script_start build-starpu-cuda

if [[ -f $STAMP && -f $PREFIX/lib/pkgconfig/starpu-1.3.pc ]] && grep -qx "fixes: $FIXES" "$STAMP"; then
    log "StarPU+CUDA already installed in $PREFIX ($(head -n1 "$STAMP")); nothing to do"
    exit 0
fi

starpu_need_root
[[ -x $CUDA_HOME/bin/nvcc ]] || die "nvcc not found in $CUDA_HOME/bin (set CUDA_HOME)"
log "PREFIX=$PREFIX CUDA_HOME=$CUDA_HOME WORKDIR=$WORKDIR JOBS=$JOBS"
log "$("$CUDA_HOME/bin/nvcc" --version | grep -m1 release)"

# ------------------------------------------------------ source and deps
log "enabling deb-src + apt-get update"
starpu_enable_deb_src
starpu_install_deps libopenmpi-dev openmpi-bin
starpu_fetch_source

# -------------------------------------------------------------- patches
# Why (everything else was found to build unchanged with CUDA 13.0):
#  1. cudaDeviceProp::computeMode was removed -> cudaDeviceGetAttribute(cudaDevAttrComputeMode).
#  2. CUDA 13's cublas.h / cublas_v2.h #error when both are included in one TU;
#     driver_cuda.h only needs the status enum (cublas_api.h), and
#     starpu_cublas.c declares the 3 legacy entry points it calls.
# (cudaThreadExit() in perfmodel_bus.c is already behind
#  "#if CUDART_VERSION >= 4000 cudaDeviceReset() #else", so it needs nothing.)
starpu_patch "CUDA 13" <<'PATCH'
diff -ruN a/src/drivers/cuda/driver_cuda.c b/src/drivers/cuda/driver_cuda.c
--- a/src/drivers/cuda/driver_cuda.c
+++ b/src/drivers/cuda/driver_cuda.c
@@ -391,7 +391,10 @@
 	if (STARPU_UNLIKELY(cures))
 		STARPU_CUDA_REPORT_ERROR(cures);
 #ifdef STARPU_HAVE_CUDA_MEMCPY_PEER
-	if (props[devid].computeMode == cudaComputeModeExclusive)
+	/* Tila/CUDA 13: cudaDeviceProp::computeMode was removed */
+	int computemode = -1;
+	cudaDeviceGetAttribute(&computemode, cudaDevAttrComputeMode, devid);
+	if (computemode == cudaComputeModeExclusive)
 	{
 		_STARPU_MSG("CUDA is in EXCLUSIVE-THREAD mode, but StarPU was built with multithread GPU control support, please either ask your administrator to use EXCLUSIVE-PROCESS mode (which should really be fine), or reconfigure with --disable-cuda-memcpy-peer but that will disable the memcpy-peer optimizations\n");
 		STARPU_ABORT();
diff -ruN a/src/drivers/cuda/driver_cuda.h b/src/drivers/cuda/driver_cuda.h
--- a/src/drivers/cuda/driver_cuda.h
+++ b/src/drivers/cuda/driver_cuda.h
@@ -25,7 +25,9 @@
 #ifdef STARPU_USE_CUDA
 #include <cuda.h>
 #include <cuda_runtime_api.h>
-#include <cublas.h>
+/* Tila/CUDA 13: cublas.h (legacy API) may not be included together with
+ * cublas_v2.h any more; only the CUBLAS_STATUS_* values are needed here. */
+#include <cublas_api.h>
 #ifdef STARPU_HAVE_LIBNVIDIA_ML
 #include <nvml.h>
 #endif
diff -ruN a/src/drivers/cuda/starpu_cublas.c b/src/drivers/cuda/starpu_cublas.c
--- a/src/drivers/cuda/starpu_cublas.c
+++ b/src/drivers/cuda/starpu_cublas.c
@@ -20,8 +20,14 @@
 #include <core/workers.h>
 
 #ifdef STARPU_USE_CUDA
-#include <cublas.h>
 #include <starpu_cublas_v2.h>
+/* Tila/CUDA 13: cublas.h and cublas_v2.h refuse to be included together;
+ * declare the few legacy entry points used below (still exported by
+ * libcublas) instead of including cublas.h. */
+#define cublasStatus cublasStatus_t
+cublasStatus_t cublasInit(void);
+cublasStatus_t cublasShutdown(void);
+cublasStatus_t cublasSetKernelStream(cudaStream_t stream);
 
 static int cublas_initialized[STARPU_NMAXWORKERS];
 static cublasHandle_t cublas_handles[STARPU_NMAXWORKERS];
PATCH

# The bytes of a rank's sends in flight bounded (tools/starpu-source.sh).
starpu_patch_send_bytes

# ------------------------------------------------------------ configure
CONF_ARGS=(--prefix="$PREFIX" --enable-cuda --with-cuda-dir="$CUDA_HOME" --enable-mpi
           --enable-maxcpus=64 --disable-build-doc --disable-static
           --disable-build-examples --disable-build-tests)
starpu_disable_extras
# -std=c++17: CUDA 13 headers need >= C++17 (configure would otherwise add -std=c++11).
NVCCFLAGS="-std=c++17 -Xcompiler -fPIC $NVCC_ARCH_FLAGS"
# -Wno-deprecated-declarations: starpu.h includes cusparse.h, whose own
# deprecated typedefs otherwise produce ~100k lines of warnings.
CFLAGS="-O2 -Wno-deprecated-declarations"

log "configure ${CONF_ARGS[*]}"
mkdir -p "$WORKDIR/build"; cd "$WORKDIR/build"
"$SRC/configure" "${CONF_ARGS[@]}" NVCCFLAGS="$NVCCFLAGS" CFLAGS="$CFLAGS" CXXFLAGS="$CFLAGS" \
    > configure.log 2>&1 || { tail -n 40 configure.log; die "configure failed (see $WORKDIR/build/configure.log)"; }
grep -q '^#define STARPU_USE_CUDA 1' include/starpu_config.h ||
    { grep -iE 'cuda|nvcc' configure.log | tail -n 20; die "configure did not enable CUDA"; }
grep -q '^#define STARPU_USE_MPI 1' include/starpu_config.h || die "configure did not enable StarPU-MPI"
log "configure done: $(grep -E '^NVCCFLAGS =' Makefile)"

# ---------------------------------------------------------------- build
log "make -j$JOBS"
make -j"$JOBS" > make.log 2>&1 || { grep -E -B2 -A4 'error' make.log | tail -n 60; die "make failed (see $WORKDIR/build/make.log)"; }
log "make done"

# StarPU's own CUDA code (.cu) with the configured NVCCFLAGS (its only .cu,
# an MPI test kernel, is not built with --disable-build-tests).
nvcc_flags=$(sed -n 's/^NVCCFLAGS = //p' Makefile)
# shellcheck disable=SC2086
"$CUDA_HOME/bin/nvcc" $nvcc_flags -I"$SRC/include" -Iinclude -Impi/include \
    -c "$SRC/mpi/tests/ring_kernel.cu" -o ring_kernel.o > nvcc.log 2>&1 ||
    { tail -n 30 nvcc.log; die "nvcc could not compile StarPU's ring_kernel.cu"; }
log "nvcc OK on StarPU's ring_kernel.cu with: $nvcc_flags"

# -------------------------------------------------------------- install
log "make install -> $PREFIX"
$SUDO make install > install.log 2>&1 || { tail -n 40 install.log; die "make install failed"; }
CFG="$PREFIX/include/starpu/1.3/starpu_config.h"
grep -q '^#define STARPU_USE_CUDA 1' "$CFG" || die "$CFG does not define STARPU_USE_CUDA"
PKG_OUT=$(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --cflags --libs starpu-1.3 starpumpi-1.3) ||
    die "pkg-config starpu-1.3 starpumpi-1.3 failed"
log "pkg-config: $PKG_OUT"

# ---------------------------------------------------------------- check
"$HERE/check-starpu-cuda.sh" "$PREFIX"

{
    echo "$(basename "$SRC") CUDA $("$CUDA_HOME/bin/nvcc" --version | grep -om1 'release [0-9.]*') built $(date -u +%FT%TZ)"
    echo "configure ${CONF_ARGS[*]} NVCCFLAGS='$NVCCFLAGS' CFLAGS='$CFLAGS'"
    echo "fixes: $FIXES"
} | $SUDO tee "$STAMP" >/dev/null
log "done in $((SECONDS - T0))s: StarPU+CUDA in $PREFIX"
