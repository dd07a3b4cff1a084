#!/usr/bin/env bash
# Build StarPU 1.3 + StarPU-MPI in SimGrid simulation mode (StarPU-MPI on SimGrid's SMPI)
# from Debian bookworm's own source package (starpu 1.3.10+dfsg), against Debian's
# libsimgrid-dev (3.32).
#
# Usage: tools/build-starpu-simgrid.sh [PREFIX]       (default /opt/starpu-simgrid)
# Env:   WORKDIR (default /tmp/starpu-simgrid-build; wiped on each build)
#        JOBS    (default: nproc)
# Idempotent: exits 0 at once if PREFIX already holds a finished install.
# Needs root (or sudo) for apt-get and for writing PREFIX.
#
# What simulation mode asks of the build (StarPU 1.3.10's configure.ac and manual):
#  - static libraries only (--disable-shared): smpicc links a program as a shared object
#    that SMPI loads once per simulated rank, so StarPU's globals must be inside it;
#  - StarPU-MPI compiled by smpicc and launched by smpirun (--enable-mpi is explicit,
#    simulation turns it off by default; --with-mpicc/--with-smpirun are given because
#    1.3.10 finds SimGrid through pkg-config and then leaves its directory unset);
#  - xsltproc, for starpu_smpirun (it merges the cluster's platform file with one copy
#    of the node's per rank).
# SimGrid 3.32 is newer than the 3.30 that StarPU 1.3.10 says it was tested with; it
# still has every function that configure picks (the s4u C API), and the actors' entry
# points returning int where 3.32 declares void only warn.  The fixes it needs are below.
set -euo pipefail

PREFIX=${1:-/opt/starpu-simgrid}
WORKDIR=${WORKDIR:-/tmp/starpu-simgrid-build}
JOBS=${JOBS:-$(nproc)}
STAMP="$PREFIX/.tila-starpu-simgrid-stamp"
# The fixes below, by name: an install whose stamp lacks one of them is rebuilt.
FIXES="smpi-host-count helper-actor-ref contiguous-as-bytes cuda-worker-waits send-bytes"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# shellcheck source=tools/starpu-source.sh
. "$HERE/starpu-source.sh"
starpu_script_start build-starpu-simgrid

if [[ -f $STAMP && -f $PREFIX/lib/pkgconfig/starpumpi-1.3.pc ]] && grep -qx "fixes: $FIXES" "$STAMP"; then
    log "StarPU+SimGrid already installed in $PREFIX ($(head -n1 "$STAMP")); nothing to do"
    exit 0
fi

starpu_need_root
log "PREFIX=$PREFIX WORKDIR=$WORKDIR JOBS=$JOBS"

# ------------------------------------------------------ source and deps
log "enabling deb-src + apt-get update"
starpu_enable_deb_src
starpu_install_deps libsimgrid-dev xsltproc
log "$(dpkg-query -W -f='libsimgrid-dev ${Version}' libsimgrid-dev)"
starpu_fetch_source

# -------------------------------------------------------------- patches
# _starpu_simgrid_get_nbhosts keeps a pointer to new_prefix, a buffer declared inside
# the "running SMPI" block, after that block ends: every count of simulated CPUs and GPUs
# of a rank reads a dead stack buffer (fixed on StarPU's 1.3 branch after 1.3.10).
starpu_patch "SMPI host-count" <<'PATCH'
diff -ruN a/src/core/simgrid.c b/src/core/simgrid.c
--- a/src/core/simgrid.c
+++ b/src/core/simgrid.c
@@ -158,11 +158,12 @@
 	xbt_dynar_t hosts = NULL;
 	unsigned i, nb = 0;
 	unsigned len = strlen(prefix);
+	/* Tila: outlives the block below, which points prefix at it */
+	char new_prefix[32];
 
 	if (_starpu_simgrid_running_smpi())
 	{
 #ifdef HAVE_STARPU_SIMGRID_GET_AS_BY_NAME
-		char new_prefix[32];
 		char name[32];
 		STARPU_ASSERT(starpu_mpi_world_rank);
 		snprintf(name, sizeof(name), STARPU_MPI_AS_PREFIX"%d", starpu_mpi_world_rank());
PATCH

# Each simulated MPI request waits in a helper actor (_starpu_mpi_simgrid_wait_req), made by
# _starpu_simgrid_xbt_thread_create through starpu_pthread_create_on, which keeps a reference
# for a join that never comes: SimGrid never frees the finished actor's context and stack, and
# a long simulation runs out of memory mappings ("Failed to protect stack", potrf n = 65536 on
# 16 nodes).  The reference is given back at once (StarPU fixed this after 1.3.10, in 1.3.11,
# with a detach; the engine keeps its own reference until the actor ends).
starpu_patch "helper-actor reference" <<'PATCH'
diff -ruN a/src/core/simgrid_cpp.cpp b/src/core/simgrid_cpp.cpp
--- a/src/core/simgrid_cpp.cpp
+++ b/src/core/simgrid_cpp.cpp
@@ -92,6 +92,12 @@
 	res->userparam = param;
 	res->code = code;
 	starpu_pthread_create_on(name, &t, NULL, _starpu_simgrid_xbt_thread_create_wrapper, res, sg_host_self());
+	/* Tila: never joined, so the join's reference goes back now */
+#ifdef HAVE_SG_ACTOR_REF
+	sg_actor_unref(t);
+#else
+	MSG_process_unref(t);
+#endif
 #else
 #if SIMGRID_VERSION >= 32190 || defined(HAVE_SIMCALL_PROCESS_CREATE) || defined(simcall_process_create)
 #ifdef HAVE_SMX_ACTOR_T
PATCH

# SMPI copies the payload of every message whose MPI datatype is derived, even a contiguous
# one, for real (0.75 GB/s here): StarPU-MPI sends each matrix tile as an MPI_Type_vector,
# so a simulated potrf n = 65536 on 4 nodes spent 67 s copying 34 GB of folded tiles, against
# 4 s on one node.  Contiguous datatypes go as bytes instead (same size on the network).
starpu_patch "contiguous-datatype" <<'PATCH'
--- a/mpi/src/mpi/starpu_mpi_mpi.c
+++ b/mpi/src/mpi/starpu_mpi_mpi.c
@@ -40,6 +40,27 @@
 #include <core/topology.h>
 #include <core/workers.h>
 
+#ifdef STARPU_SIMGRID
+/* Tila: SMPI copies the payload of any derived datatype for real, a contiguous one too (a
+ * matrix whose ld is its nx), at about 0.75 GB/s; sent as bytes, a folded buffer is not
+ * copied.  So a contiguous datatype goes as its bytes, the same size on the network. */
+static int _starpu_mpi_sim_bytes(struct _starpu_mpi_req *req)
+{
+	int size;
+	MPI_Aint lb, extent;
+	if (req->datatype == MPI_BYTE)
+		return 0;
+	MPI_Type_size(req->datatype, &size);
+	MPI_Type_get_extent(req->datatype, &lb, &extent);
+	return lb == 0 && extent == size ? (int) req->count * size : 0;
+}
+#define _STARPU_MPI_COUNT_TYPE(req) \
+	(_starpu_mpi_sim_bytes(req) ? _starpu_mpi_sim_bytes(req) : (int) (req)->count), \
+	(_starpu_mpi_sim_bytes(req) ? MPI_BYTE : (req)->datatype)
+#else
+#define _STARPU_MPI_COUNT_TYPE(req) (req)->count, (req)->datatype
+#endif
+
 #ifdef STARPU_USE_MPI_MPI
 
 /* Number of ready requests to process before polling for completed requests */
@@ -373,13 +394,13 @@
 	if (req->sync == 0)
 	{
 		_STARPU_MPI_COMM_TO_DEBUG(req, req->count, req->datatype, req->node_tag.node.rank, _STARPU_MPI_TAG_DATA, req->node_tag.data_tag, req->node_tag.node.comm);
-		req->ret = MPI_Isend(req->ptr, req->count, req->datatype, req->node_tag.node.rank, _STARPU_MPI_TAG_DATA, req->node_tag.node.comm, &req->backend->data_request);
+		req->ret = MPI_Isend(req->ptr, _STARPU_MPI_COUNT_TYPE(req), req->node_tag.node.rank, _STARPU_MPI_TAG_DATA, req->node_tag.node.comm, &req->backend->data_request);
 		STARPU_MPI_ASSERT_MSG(req->ret == MPI_SUCCESS, "MPI_Isend returning %s", _starpu_mpi_get_mpi_error_code(req->ret));
 	}
 	else
 	{
 		_STARPU_MPI_COMM_TO_DEBUG(req, req->count, req->datatype, req->node_tag.node.rank, _STARPU_MPI_TAG_SYNC_DATA, req->node_tag.data_tag, req->node_tag.node.comm);
-		req->ret = MPI_Issend(req->ptr, req->count, req->datatype, req->node_tag.node.rank, _STARPU_MPI_TAG_SYNC_DATA, req->node_tag.node.comm, &req->backend->data_request);
+		req->ret = MPI_Issend(req->ptr, _STARPU_MPI_COUNT_TYPE(req), req->node_tag.node.rank, _STARPU_MPI_TAG_SYNC_DATA, req->node_tag.node.comm, &req->backend->data_request);
 		STARPU_MPI_ASSERT_MSG(req->ret == MPI_SUCCESS, "MPI_Issend returning %s", _starpu_mpi_get_mpi_error_code(req->ret));
 	}
 
@@ -500,12 +521,12 @@
 	if (req->sync)
 	{
 		_STARPU_MPI_COMM_FROM_DEBUG(req, req->count, req->datatype, req->node_tag.node.rank, _STARPU_MPI_TAG_SYNC_DATA, req->node_tag.data_tag, req->node_tag.node.comm);
-		req->ret = MPI_Irecv(req->ptr, req->count, req->datatype, req->node_tag.node.rank, _STARPU_MPI_TAG_SYNC_DATA, req->node_tag.node.comm, &req->backend->data_request);
+		req->ret = MPI_Irecv(req->ptr, _STARPU_MPI_COUNT_TYPE(req), req->node_tag.node.rank, _STARPU_MPI_TAG_SYNC_DATA, req->node_tag.node.comm, &req->backend->data_request);
 	}
 	else
 	{
 		_STARPU_MPI_COMM_FROM_DEBUG(req, req->count, req->datatype, req->node_tag.node.rank, _STARPU_MPI_TAG_DATA, req->node_tag.data_tag, req->node_tag.node.comm);
-		req->ret = MPI_Irecv(req->ptr, req->count, req->datatype, req->node_tag.node.rank, _STARPU_MPI_TAG_DATA, req->node_tag.node.comm, &req->backend->data_request);
+		req->ret = MPI_Irecv(req->ptr, _STARPU_MPI_COUNT_TYPE(req), req->node_tag.node.rank, _STARPU_MPI_TAG_DATA, req->node_tag.node.comm, &req->backend->data_request);
 	}
 #ifdef STARPU_SIMGRID
 	_starpu_mpi_simgrid_wait_req(&req->backend->data_request, &req->status_store, &req->queue, &req->done);
PATCH

# A simulated CUDA worker that has a task running or a transfer in flight polls: each pass
# of its driver sleeps one simulated microsecond, so the simulation's cost grew with the
# simulated time (potrf n = 98304 in 8192-tiles on one node of 4 GPUs: 14.2 s to simulate
# 2.1 s).  The end of a simulated task or transfer already wakes the worker (its wait is
# registered on the task and transfer queues), so it waits instead: 0.1 s, and predictions
# within 0.5 % of the polling worker's (docs/SIMULATION.md, section 4).
starpu_patch "CUDA worker waits" <<'PATCH'
--- a/src/drivers/cuda/driver_cuda.c
+++ b/src/drivers/cuda/driver_cuda.c
@@ -956,7 +956,13 @@
 #endif
 
 	/* Something done, make some progress */
+#ifdef STARPU_SIMGRID
+	/* Tila: a simulated task's or transfer's end wakes this worker (its wait is on the
+	 * task and transfer queues): wait for it instead of polling every simulated us */
+	res = 0;
+#else
 	res = !idle_tasks || !idle_transfers;
+#endif
 	res |= __starpu_datawizard_progress(1, 1);
 
 	/* And pull tasks */
PATCH

# The bytes of a rank's sends in flight bounded (tools/starpu-source.sh).
starpu_patch_send_bytes

# ------------------------------------------------------------ configure
CONF_ARGS=(--prefix="$PREFIX" --enable-simgrid --disable-shared --enable-static
           --enable-mpi --with-mpicc=/usr/bin/smpicc --with-smpirun=/usr/bin/smpirun
           --disable-cuda --enable-maxcpus=64 --enable-maxcudadev=8 --disable-build-doc
           --disable-build-examples --disable-build-tests)
starpu_disable_extras simgrid
CFLAGS="-O2 -Wno-incompatible-pointer-types -Wno-deprecated-declarations"

log "configure ${CONF_ARGS[*]}"
mkdir -p "$WORKDIR/build"; cd "$WORKDIR/build"
"$SRC/configure" "${CONF_ARGS[@]}" CFLAGS="$CFLAGS" CXXFLAGS="-O2" \
    > configure.log 2>&1 || { tail -n 40 configure.log; die "configure failed (see $WORKDIR/build/configure.log)"; }
for def in STARPU_SIMGRID STARPU_USE_MPI; do
    grep -q "^#define $def 1" include/starpu_config.h || die "configure did not define $def"
done
grep -q '^#define STARPU_STATIC_ONLY 1' src/common/config.h || die "configure did not go static-only"
log "configure done"

# ---------------------------------------------------------------- build
log "make -j$JOBS"
make -j"$JOBS" > make.log 2>&1 || { grep -E -B2 -A4 'error' make.log | tail -n 60; die "make failed (see $WORKDIR/build/make.log)"; }
log "make done"

# -------------------------------------------------------------- install
log "make install -> $PREFIX"
$SUDO make install > install.log 2>&1 || { tail -n 40 install.log; die "make install failed"; }
[[ -x $PREFIX/bin/starpu_smpirun ]] || die "$PREFIX/bin/starpu_smpirun is missing"
PKG_OUT=$(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --static --cflags --libs starpumpi-1.3) ||
    die "pkg-config starpumpi-1.3 failed"
log "pkg-config: $PKG_OUT"

# ---------------------------------------------------------------- check
"$HERE/check-starpu-simgrid.sh" "$PREFIX"

{
    echo "$(basename "$SRC") SimGrid $(dpkg-query -W -f='${Version}' libsimgrid-dev) built $(date -u +%FT%TZ)"
    echo "configure ${CONF_ARGS[*]} CFLAGS='$CFLAGS'"
    echo "fixes: $FIXES"
} | $SUDO tee "$STAMP" >/dev/null
log "done in $((SECONDS - T0))s: StarPU+SimGrid in $PREFIX"
