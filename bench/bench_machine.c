/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_machine.c -- the machine the figures come from: CPU, cores, BLAS
 * and its kernels, OpenMP settings, load; read by every bench report. */
#include "bench.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double bench_load_average(char *buf, size_t len)
{
    double l1 = 0, l5, l15;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f && fscanf(f, "%lf %lf %lf", &l1, &l5, &l15) == 3) {
        snprintf(buf, len, "%.2f %.2f %.2f", l1, l5, l15);
    } else {
        snprintf(buf, len, "?");
        l1 = 0;
    }
    if (f)
        fclose(f);
    return l1;
}

void bench_date(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tmv;
    strftime(buf, len, "%Y-%m-%d %H:%M UTC", gmtime_r(&now, &tmv));
}

void bench_stamp_take(bench_stamp *st)
{
    bench_date(st->date, sizeof st->date);
    st->load1 = bench_load_average(st->load, sizeof st->load);
}

/* 1 when /proc/cpuinfo's first flags line lists flag. */
static int cpu_has_flag(const char *flag)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    static char line[8192];
    int found = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "flags", 5) == 0) {
            char *list = strchr(line, ':');
            for (char *t = list ? strtok(list + 1, " \n") : NULL;
                 t && !found; t = strtok(NULL, " \n"))
                found = strcmp(t, flag) == 0;
            break;
        }
    fclose(f);
    return found;
}

/* OpenBLAS picks its kernels by the CPU's model; one it does not know (a
 * virtual machine's, often) gets generic kernels without AVX2, and
 * CHOLMOD's factorisations (corepcg, direct) then run at a fraction of the
 * machine's rate (docs/benchmark.md, "corePCG's factorisation"). Those
 * kernels' names, by OpenBLAS's DYNAMIC_ARCH core table. */
static void blas_kernels_note(bench_env *env)
{
    static const char *before_avx2[] = {"Prescott", "Core2", "Penryn",
        "Dunnington", "Nehalem", "Atom", "Nano", "Sandybridge", "Opteron",
        "Opteron_SSE3", "Barcelona", "Bobcat", "Bulldozer", "Piledriver",
        "Steamroller"};
    const char *core = openblas_get_corename();
    if (!core || !cpu_has_flag("avx2"))
        return;
    for (size_t k = 0; k < sizeof before_avx2 / sizeof *before_avx2; k++)
        if (strcmp(core, before_avx2[k]) == 0) {
            snprintf(env->blas_note, sizeof env->blas_note,
                     "OpenBLAS runs its %s kernels on a CPU with AVX2%s: "
                     "corepcg's and direct's factorisations run slower than "
                     "the machine can; OPENBLAS_CORETYPE=%s chooses its "
                     "kernels", core, cpu_has_flag("avx512f") ?
                     " and AVX-512" : "", cpu_has_flag("avx512f") ?
                     "SkylakeX" : "Haswell");
            return;
        }
}

void bench_print_machine(FILE *out, const bench_env *env)
{
    fprintf(out, "- machine: %s, %d cores online; %s, %d threads; CHOLMOD's "
                 "OpenMP: %s\n", env->cpu, env->cores, env->blas,
            env->blas_threads, env->omp);
    if (env->blas_note[0])
        fprintf(out, "- **note**: %s\n", env->blas_note);
}

void bench_env_read(bench_env *env)
{
    memset(env, 0, sizeof *env);
    snprintf(env->cpu, sizeof env->cpu, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "model name", 10) == 0) {
                char *colon = strchr(line, ':');
                if (colon) {
                    colon += 1 + (colon[1] == ' ');
                    colon[strcspn(colon, "\n")] = '\0';
                    snprintf(env->cpu, sizeof env->cpu, "%s", colon);
                }
                break;
            }
        fclose(f);
    }
    env->cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
    /* the tool may ask OpenBLAS directly; the library leaves it alone */
    const char *config = openblas_get_config();
    snprintf(env->blas, sizeof env->blas, "%s", config ? config : "OpenBLAS (no config)");
    env->blas_threads = openblas_get_num_threads();
    /* CHOLMOD's OpenMP threads and OpenBLAS's share the cores: how they wait
     * changes factorisation times (docs/benchmark.md, "corePCG's
     * factorisation"). */
    const char *wait = getenv("OMP_WAIT_POLICY"), *num = getenv("OMP_NUM_THREADS");
    snprintf(env->omp, sizeof env->omp, "OMP_WAIT_POLICY=%s, OMP_NUM_THREADS=%s",
             wait ? wait : "(unset)", num ? num : "(unset)");
    env->load1 = bench_load_average(env->load, sizeof env->load);
    blas_kernels_note(env);
}
