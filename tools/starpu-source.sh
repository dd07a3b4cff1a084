# SPDX-License-Identifier: BSD-3-Clause
# Shared steps of the tools/build-starpu-*.sh scripts, which build StarPU 1.3 from Debian
# bookworm's own source package (starpu 1.3.10+dfsg).  Sourced, not run: the caller
# sets WORKDIR, then calls starpu_script_start.

# log and die, prefixed with the script's name ($1) and its time; on a failing exit, say
# where the logs are.
starpu_script_start() {
    STARPU_SCRIPT=$1
    T0=$SECONDS
    log() { printf '[%s %4ds] %s\n' "$STARPU_SCRIPT" $((SECONDS - T0)) "$*"; }
    die() { log "ERROR: $*" >&2; exit 1; }
    # shellcheck disable=SC2154
    trap 'rc=$?; [ $rc -eq 0 ] || log "FAILED (exit $rc) after $((SECONDS - T0))s; logs in $WORKDIR"' EXIT
}

# SUDO: empty for root, else sudo (apt-get and writing the prefix need one of them).
starpu_need_root() {
    SUDO=
    if [[ $(id -u) -ne 0 ]]; then command -v sudo >/dev/null || die "need root or sudo"; SUDO=sudo; fi
}

# Make Debian's source packages visible to apt (deb-src), then apt-get update.
starpu_enable_deb_src() {
    local f changed=0
    # deb822 (*.sources, bookworm default): add deb-src to the Types: line of
    # every Debian stanza that lacks it.
    for f in /etc/apt/sources.list.d/*.sources; do
        [[ -f $f ]] || continue
        if perl -00 -ne '$n++ if /^URIs:.*debian/mi && /^Types:/mi && !/^Types:.*\bdeb-src\b/mi; END{exit($n ? 0 : 1)}' "$f"; then
            # shellcheck disable=SC2016
            $SUDO perl -00 -pi -e 's/^(Types:[^\n]*?)[ \t]*$/$1 deb-src/mi if /^URIs:.*debian/mi && !/^Types:.*\bdeb-src\b/mi' "$f"
            log "enabled deb-src in $f"; changed=1
        fi
    done
    # one-line format: mirror every Debian "deb" line as "deb-src" in a
    # separate list (unless an identical deb-src line exists already).
    local lines lists=()
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [[ -f $f ]] && lists+=("$f")
    done
    ((${#lists[@]})) || lists=(/dev/null)
    lines=$(cat "${lists[@]}" |
        perl -ne 'chomp; s/#.*//; s/^\s+|\s+$//g; next unless length;
                  if (/^deb-src\s+(.*)/) { $have{$1}=1; next }
                  push @deb, $1 if /^deb\s+(.*debian.*)/;
                  END { print "deb-src $_\n" for grep { !$have{$_} } @deb }' | sort -u)
    if [[ -n $lines ]]; then
        printf '# written by tila tools/build-starpu-*.sh\n%s\n' "$lines" |
            $SUDO tee /etc/apt/sources.list.d/tila-deb-src.list >/dev/null
        log "wrote /etc/apt/sources.list.d/tila-deb-src.list"; changed=1
    fi
    [[ $changed = 1 ]] || log "deb-src already enabled"
    log "apt-get update"
    $SUDO apt-get update -qq
    # grep reads all of it (no -q): under pipefail an early exit would fail the pipeline.
    apt-cache showsrc starpu 2>/dev/null | grep '^Package: starpu' >/dev/null ||
        die "no source package 'starpu' visible to apt (deb-src not enabled?)"
}

# Install the packages named in "$@" that are missing.  Only what configure/make need
# (not build-dep starpu, which pulls doxygen, texlive, OpenCL, FFTW, HDF5, ...).
starpu_install_deps() {
    local p missing=()
    for p in dpkg-dev build-essential pkg-config autoconf automake libtool \
             libhwloc-dev libnuma-dev "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
    done
    if ((${#missing[@]})); then
        log "installing build deps: ${missing[*]}"
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    else
        log "build deps already installed"
    fi
}

# Unpack Debian's starpu source package in a fresh $WORKDIR; sets SRC to its tree.
starpu_fetch_source() {
    log "fetching Debian source package into $WORKDIR"
    rm -rf "$WORKDIR"; mkdir -p "$WORKDIR"
    (cd "$WORKDIR" && apt-get source -qq starpu > source.log 2>&1) ||
        { cat "$WORKDIR/source.log"; die "apt-get source starpu failed"; }
    SRC=
    local d
    for d in "$WORKDIR"/starpu-1.3.*/; do [[ -f $d/configure ]] && SRC=${d%/}; done
    [[ -n $SRC ]] || die "unpacked starpu-1.3.* source tree not found"
    log "source: $(basename "$SRC")"
}

# Apply the patch on standard input to $SRC (patch -p1), saying which fix it is ("$1").
starpu_patch() {
    log "applying the $1 fix"
    (cd "$SRC" && patch -p1 --forward --no-backup-if-mismatch) || die "the $1 fix did not apply"
}

# Append to CONF_ARGS the --disable of every optional feature that neither build needs
# (only those this configure knows), but for the features named in "$@".
# NB: not sc-hypervisor: 1.3.10's configure turns --disable-sc-hypervisor into "yes"
# (then fails on a missing uthash.h); it is off by default anyway.
starpu_disable_extras() {
    local f help
    help=$("$SRC/configure" --help)
    has_opt() { grep -qE -- "--(enable|disable|with|without)-$1([=[:space:]]|\\[|$)" <<<"$help"; }
    for f in opencl fortran starpufft socl starpupy simgrid mlr hdf5 leveldb glpk \
             opengl-render starpurm mpi-check build-doc-pdf; do
        [[ " $* " == *" $f "* ]] && continue
        has_opt "$f" && CONF_ARGS+=(--disable-"$f")
    done
    has_opt fxt && CONF_ARGS+=(--without-fxt)
    unset -f has_opt
}

# StarPU-MPI keeps up to STARPU_MPI_NDETACHED_SEND (10) sends in flight a rank, whatever
# their size; SimGrid and a real link share the link among them, so a send the critical
# path needs (the next panel's tile, first by priority in StarPU-MPI's ready list) crawls
# beside nine bulk ones once it is posted, and waits behind them until then.  Measured in
# simulation (potrf on 16 nodes of 4 H100, one 200 Gb/s link a node, docs/SIMULATION.md):
# 8192-tiles (512 MiB) ran best with 3 in flight, 4096-tiles with 10: about 1.5 GiB either
# way.  So a rank may also bound the bytes of its sends in flight:
# STARPU_MPI_NDETACHED_SEND_MB (0 or unset: no bound, StarPU's behaviour); a send is
# always posted when none is in flight.  Tila's tila_init sets 1536 unless the user did.
starpu_patch_send_bytes() {
    starpu_patch "sends' bytes in flight" <<'PATCH'
--- a/mpi/src/mpi/starpu_mpi_mpi.c
+++ b/mpi/src/mpi/starpu_mpi_mpi.c
@@ -69,6 +69,16 @@
 /* Number of send requests to submit to MPI at the same time */
 static unsigned ndetached_send;
 
+/* Tila: and their bytes at most (STARPU_MPI_NDETACHED_SEND_MB; 0: no bound) */
+static size_t ndetached_send_bytes;
+static size_t detached_send_bytes;
+
+/* Tila: the bytes a send request moves */
+static size_t _starpu_mpi_req_bytes(struct _starpu_mpi_req *req)
+{
+	return req->data_handle ? starpu_data_get_size(req->data_handle) : 0;
+}
+
 static void _starpu_mpi_add_sync_point_in_fxt(void);
 static void _starpu_mpi_handle_ready_request(struct _starpu_mpi_req *req);
 static void _starpu_mpi_handle_request_termination(struct _starpu_mpi_req *req);
@@ -1063,7 +1073,10 @@
 
 			STARPU_PTHREAD_MUTEX_LOCK(&detached_requests_mutex);
 			if (req->request_type == SEND_REQ)
+			{
 				detached_send_nrequests--;
+				detached_send_bytes -= _starpu_mpi_req_bytes(req);
+			}
 			_starpu_mpi_req_list_erase(&detached_requests, req);
 			STARPU_PTHREAD_MUTEX_UNLOCK(&detached_requests_mutex);
 			_starpu_mpi_handle_request_termination(req);
@@ -1106,7 +1119,10 @@
 		 * so that it can be handled by the progression mechanisms */
 		STARPU_PTHREAD_MUTEX_LOCK(&detached_requests_mutex);
 		if (req->request_type == SEND_REQ)
+		{
 			detached_send_nrequests++;
+			detached_send_bytes += _starpu_mpi_req_bytes(req);
+		}
 		_starpu_mpi_req_list_push_back(&detached_requests, req);
 		STARPU_PTHREAD_MUTEX_UNLOCK(&detached_requests_mutex);
 
@@ -1325,7 +1341,9 @@
 
 		/* get one send request */
 		n = 0;
-		while (!_starpu_mpi_req_prio_list_empty(&ready_send_requests) && detached_send_nrequests < ndetached_send)
+		while (!_starpu_mpi_req_prio_list_empty(&ready_send_requests) && detached_send_nrequests < ndetached_send
+		       /* Tila: and below the bytes' bound, or none in flight */
+		       && (!ndetached_send_bytes || !detached_send_nrequests || detached_send_bytes < ndetached_send_bytes))
 		{
 			struct _starpu_mpi_req *req;
 
@@ -1611,6 +1629,11 @@
 
 	nready_process = starpu_get_env_number_default("STARPU_MPI_NREADY_PROCESS", 10);
 	ndetached_send = starpu_get_env_number_default("STARPU_MPI_NDETACHED_SEND", 10);
+	{
+		/* Tila: the bytes' bound, in MiB */
+		int mb = starpu_get_env_number_default("STARPU_MPI_NDETACHED_SEND_MB", 0);
+		ndetached_send_bytes = mb > 0 ? (size_t) mb << 20 : 0;
+	}
 
 #ifdef STARPU_SIMGRID
 	STARPU_PTHREAD_MUTEX_INIT(&wait_counter_mutex, NULL);
PATCH
}
