/**
 * @file calibrate.c
 * @brief tila-calibrate: calibrate every codelet's performance model on this machine.
 *
 *   tila-calibrate [--sizes 128,256,512,768,1024] [--prec sdcz] [--samples 10]
 *                  [--rounds 30] [--panel-tiles 4] [--plots DIR] [--home DIR]
 *
 * Runs every codelet on each tile size, on every kind of worker present (StarPU's dmda
 * scheduler with STARPU_CALIBRATE=1 tries each kind until it is calibrated), round after
 * round, until each model has at least --samples measurements of every size on every
 * worker kind.  The PANEL scheme's column kernels are timed per column height, on columns
 * of 1 to --panel-tiles tiles (4 by default; a simulated QR of n rows needs n / nb).  Then
 * prints one line per (codelet, size, worker kind): mean time, GFLOP/s and samples, and
 * with --plots writes a PNG per codelet (time against size, by starpu_perfmodel_plot and
 * gnuplot).  The models go under StarPU's own folder in STARPU_HOME, which defaults to
 * ./tila-calibration (not the user's ~/.starpu) unless STARPU_HOME or --home says
 * otherwise.  Warns when the machine is busy: calibrating on a loaded machine gives "too
 * big deviation" flushes and slow models.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "calibrate.h"

/* Codelet stems, with their name in real precisions where it differs. */
static const struct {
    const char *complex_name, *real_name;
} stems[] = {
    { "gemm", "gemm" },
    { "lacpy", "lacpy" },
    { "laset", "laset" },
    { "lascal", "lascal" },
    { "geadd", "geadd" },
    { "plrnt", "plrnt" },
    { "plghe", "plgsy" },
    { "potrf", "potrf" },
    { "trsm_left", "trsm_left" },
    { "trsm_right", "trsm_right" },
    { "trtri", "trtri" },
    { "trsm_inv", "trsm_inv" },
    { "herk", "syrk" },
    { "lange", "lange" },
    { "lansy_offdiag", "lansy_offdiag" },
    { "geqrt", "geqrt" },
    { "unmqr", "ormqr" },
    { "tsqrt", "tsqrt" },
    { "tsmqr", "tsmqr" },
    { "ttqrt", "ttqrt" },
    { "ttmqr", "ttmqr" },
    { "geqrt_col", "geqrt_col" },
    { "larft_col", "larft_col" },
    { "trmm", "trmm" },
};
#define NSTEMS (sizeof stems / sizeof stems[0])

typedef int (*workload_fn)(int nb, int panel_tiles, unsigned long long seed);
static const workload_fn workloads[4] = { tila_calibrate_sworkload, tila_calibrate_dworkload,
                                          tila_calibrate_cworkload, tila_calibrate_zworkload };

typedef struct opts_s {
    int sizes[32], nsizes, samples, rounds, round, panel_tiles;
    char prec[5];
    const char *plots;
} opts_t;

static int parse(int argc, char **argv, opts_t *o)
{
    static const int defaults[] = { 128, 256, 512, 768, 1024 };
    memcpy(o->sizes, defaults, sizeof defaults);
    o->nsizes = 5;
    o->samples = 10;
    o->rounds = 30;
    o->panel_tiles = 4;
    strcpy(o->prec, "sdcz");
    o->plots = NULL;
    o->round = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) return -1;
        if (!strcmp(a, "--sizes")) {
            o->nsizes = 0;
            for (char *s = (char *)v; *s && o->nsizes < 32; s += *s == ',') {
                o->sizes[o->nsizes++] = (int)strtol(s, &s, 10);
                if (o->sizes[o->nsizes - 1] <= 0) return -1;
            }
        }
        else if (!strcmp(a, "--prec"))
            snprintf(o->prec, sizeof o->prec, "%s", v);
        else if (!strcmp(a, "--samples"))
            o->samples = atoi(v);
        else if (!strcmp(a, "--rounds"))
            o->rounds = atoi(v);
        else if (!strcmp(a, "--panel-tiles"))
            o->panel_tiles = atoi(v);
        else if (!strcmp(a, "--plots"))
            o->plots = v;
        else if (!strcmp(a, "--home"))
            setenv("STARPU_HOME", v, 1);
        else if (!strcmp(a, "--round"))
            o->round = atoi(v);
        else
            return -1;
        i++;
    }
    /* Precisions: one or more of s, d, c, z (they index the workloads). */
    if (!o->prec[0] || o->prec[strspn(o->prec, "sdcz")]) return -1;
    return o->samples > 0 && o->rounds > 0 && o->panel_tiles > 0 ? 0 : -1;
}

static void symbol(char *out, size_t len, char prec, size_t s)
{
    snprintf(out, len, "tila_%c%s", prec,
             prec == 's' || prec == 'd' ? stems[s].real_name : stems[s].complex_name);
}

/*
 * Visit every (worker kind, history entry) of a model; returns the number of entries
 * with fewer than `samples` measurements (all of them if the model has none yet).
 * StarPU reloads a regression model's fit but not its per-size history, so there each
 * entry holds the last round's measurements only, and the fit, which holds them all,
 * is what must reach `samples` for each size (and is printed after the sizes).  A fit
 * needs sizes at least 10 % apart: a regression model of one size is counted in `unfit`,
 * not as short, since more rounds cannot help it.
 */
static int visit(const char *sym, int samples, int print, int *unfit)
{
    struct starpu_perfmodel model;
    memset(&model, 0, sizeof model);
    if (starpu_perfmodel_load_symbol(sym, &model) != 0) return 1;
    int regression = model.type == STARPU_REGRESSION_BASED;
    int short_of = 0, entries = 0;
    for (int comb = 0; comb < starpu_perfmodel_get_narch_combs(); comb++) {
        struct starpu_perfmodel_arch *arch = starpu_perfmodel_arch_comb_fetch(comb);
        struct starpu_perfmodel_per_arch *pa = starpu_perfmodel_get_model_per_arch(&model, arch, 0);
        if (!pa) continue;
        char name[64];
        starpu_perfmodel_get_arch_name(arch, name, sizeof name, 0);
        int here = 0;
        for (struct starpu_perfmodel_history_list *l = pa->list; l; l = l->next) {
            struct starpu_perfmodel_history_entry *e = l->entry;
            here++;
            short_of += !regression && e->nsample < (unsigned)samples;
            if (print) {
                double dev =
                    e->nsample > 1 ? sqrt(fabs(e->sum2 / e->nsample - e->mean * e->mean)) : 0;
                printf("%-14s %10.1f %-12s %12.1f %9.2f %8u %7.1f%%\n", sym, e->size / 1024.0, name,
                       e->mean, e->flops > 0 ? e->flops / e->mean * 1e-3 : 0, e->nsample,
                       e->mean > 0 ? 100 * dev / e->mean : 0);
            }
        }
        const struct starpu_perfmodel_regression_model *r = &pa->regression;
        if (regression && here) {
            int enough = r->nsample >= (unsigned)(samples * here);
            int one_size = enough && r->minx >= 0.9 * r->maxx;
            *unfit += one_size;
            short_of += enough && (r->valid || one_size) ? 0 : here;
            if (print)
                printf("%-14s %10s %-12s fit %.4g size^%.4f over %.1f-%.1f KiB, %u samples "
                       "(the sizes above: the last round's)\n",
                       sym, "all", name, r->alpha, r->beta, r->minx / 1024.0, r->maxx / 1024.0,
                       r->nsample);
        }
        entries += here;
    }
    starpu_perfmodel_unload_model(&model);
    return entries ? short_of : 1;
}

static int models_short(const opts_t *o, int print, int *unfit)
{
    int short_of = 0;
    char sym[64];
    *unfit = 0;
    for (const char *p = o->prec; *p; p++)
        for (size_t s = 0; s < NSTEMS; s++) {
            symbol(sym, sizeof sym, *p, s);
            short_of += visit(sym, o->samples, print, unfit);
        }
    return short_of;
}

static void warn_if_busy(void)
{
    double load = 0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &load) != 1) load = 0;
        fclose(f);
    }
    if (load > 0.5)
        fprintf(stderr,
                "tila-calibrate: warning: the machine is busy (load average %.2f): "
                "measurements will scatter, StarPU will flush them ('too big deviation') and "
                "the models will be slow; calibrate on an idle machine\n",
                load);
}

static void plot(const opts_t *o)
{
    char sym[64], cmd[1024];
    mkdir(o->plots, 0755);
    for (const char *p = o->prec; *p; p++)
        for (size_t s = 0; s < NSTEMS; s++) {
            symbol(sym, sizeof sym, *p, s);
            /* starpu_perfmodel_plot writes starpu_SYM.gp for an EPS; ask it for a PNG. */
            snprintf(cmd, sizeof cmd,
                     "cd '%s' && starpu_perfmodel_plot -s %s >/dev/null 2>&1 && "
                     "sed -i -e 's/^set term.*/set term png size 800,500/' "
                     "-e 's/\\.eps\"/.png\"/' starpu_%s.gp && gnuplot starpu_%s.gp && "
                     "rm -f starpu_%s.gp starpu_%s_avg.data",
                     o->plots, sym, sym, sym, sym, sym);
            if (system(cmd) != 0)
                fprintf(stderr,
                        "tila-calibrate: no plot for %s (needs starpu_perfmodel_plot "
                        "from starpu-tools and gnuplot)\n",
                        sym);
        }
}

/* One round in this process: a StarPU session running every workload once. */
static int round_here(int argc, char **argv, const opts_t *o)
{
    int rc = tila_init(&argc, &argv); /* starts MPI, and tila_finalize ends it */
    for (int s = 0; s < o->nsizes && !rc; s++)
        for (const char *p = o->prec; *p && !rc; p++)
            rc = workloads[strchr("sdcz", *p) - "sdcz"](o->sizes[s], o->panel_tiles,
                                                        (unsigned long long)o->round);
    tila_finalize(); /* writes the models */
    return rc ? 1 : 0;
}

/*
 * Each round runs in a child process: the models reach the disk when StarPU shuts
 * down, and this process, which never starts StarPU, reads them back between rounds.
 */
static int round_child(char **argv, int round)
{
    char arg[16];
    snprintf(arg, sizeof arg, "%d", round);
    int n = 0;
    while (argv[n])
        n++;
    char **args = calloc((size_t)n + 3, sizeof *args);
    memcpy(args, argv, sizeof *args * (size_t)n);
    args[n] = "--round";
    args[n + 1] = arg;
    pid_t pid = fork();
    if (pid == 0) {
        execv("/proc/self/exe", args);
        _exit(127);
    }
    free(args);
    int status = 1;
    if (pid < 0 || waitpid(pid, &status, 0) < 0) return 1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv)
{
    opts_t o;
    if (parse(argc, argv, &o)) {
        fprintf(stderr, "usage: tila-calibrate [--sizes 128,256,512,768,1024] [--prec sdcz] "
                        "[--samples 10] [--rounds 30] [--panel-tiles 4] [--plots DIR] "
                        "[--home DIR]\n");
        return 2;
    }
    setenv("STARPU_HOME", "tila-calibration", 0);
    setenv("STARPU_CALIBRATE", "1", 1);
    setenv("STARPU_SCHED", "dmda", 0);
    setenv("OPENBLAS_NUM_THREADS", "1", 0);
    if (o.round) return round_here(argc, argv, &o);
    mkdir(getenv("STARPU_HOME"), 0755);
    char *home = realpath(getenv("STARPU_HOME"), NULL); /* the plots run elsewhere */
    if (home) {
        setenv("STARPU_HOME", home, 1);
        free(home);
    }
    printf("tila-calibrate: models in %s/.starpu/sampling, scheduler %s, %d sample(s) per "
           "size\n",
           getenv("STARPU_HOME"), getenv("STARPU_SCHED"), o.samples);
    fflush(stdout);
    starpu_perfmodel_initialize();
    int round, rc = 0, short_of = 0, unfit = 0;
    for (round = 1; round <= o.rounds && !rc; round++) {
        if (round > 1 && (short_of = models_short(&o, 0, &unfit)) == 0) break;
        if (round > 1)
            printf("round %d: %d model entr%s short of %d samples\n", round - 1, short_of,
                   short_of == 1 ? "y" : "ies", o.samples);
        fflush(stdout);
        if (round == 1) warn_if_busy(); /* later, the load average counts our own rounds */
        rc = round_child(argv, round);
    }
    printf("\n%-14s %10s %-12s %12s %9s %8s %8s\n", "codelet", "size KiB", "worker", "mean us",
           "GFLOP/s", "samples", "stddev");
    short_of = models_short(&o, 1, &unfit);
    if (o.plots) plot(&o);
    if (short_of)
        fprintf(stderr,
                "tila-calibrate: %d model entries have fewer than %d samples after %d "
                "round(s)\n",
                short_of, o.samples, round - 1);
    if (unfit)
        fprintf(stderr,
                "tila-calibrate: %d regression model%s (a size^b) hold%s one tile size only and "
                "cannot time any task: calibrate two sizes at least (--sizes 256,512)\n",
                unfit, unfit == 1 ? "" : "s", unfit == 1 ? "s" : "");
    return rc || short_of || unfit ? 1 : 0;
}
