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
