/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mumps_peer.c -- MUMPS (sequential, Debian's libmumps-seq) on a reduced
 * system written by export_reduced.py: the SPD multifrontal LDL^T
 * (SYM = 1), MUMPS's automatic ordering, analysis + factorisation +
 * solve from A~ in memory (reading excluded), cold each repeat. Prints
 * one line: name, median seconds, 0 iterations, true relative residual.
 *     mumps_peer DIR REPEATS */
#include <dmumps_c.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define USE_COMM_WORLD -987654

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* A Matrix Market file's data lines after the size line; NULL on error. */
static FILE *open_body(const char *dir, const char *name, long *rows,
                       long *cols, long *entries, int *coordinate)
{
    char path[4096], line[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f || !fgets(line, sizeof line, f)) {
        fprintf(stderr, "mumps_peer: cannot read %s\n", path);
        if (f)
            fclose(f);
        return NULL;
    }
    *coordinate = strstr(line, "coordinate") != NULL;
    while (fgets(line, sizeof line, f) && line[0] == '%')
        ;
    int got = *coordinate ? sscanf(line, "%ld %ld %ld", rows, cols, entries)
                          : sscanf(line, "%ld %ld", rows, cols);
    if (got != (*coordinate ? 3 : 2)) {
        fprintf(stderr, "mumps_peer: %s: no size line\n", path);
        fclose(f);
        return NULL;
    }
    if (!*coordinate)
        *entries = *rows * *cols;
    return f;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: mumps_peer DIR REPEATS\n");
        return 2;
    }
    int repeats = atoi(argv[2]) > 0 ? atoi(argv[2]) : 1;
    long n, m, nz, bn, bm, bnz;
    int coo, bcoo;
    FILE *fa = open_body(argv[1], "A.mtx", &n, &m, &nz, &coo);
    FILE *fb = fa ? open_body(argv[1], "b.mtx", &bn, &bm, &bnz, &bcoo) : NULL;
    if (!fa || !fb || !coo || bcoo || bn != n) {
        fprintf(stderr, "mumps_peer: %s: not the files export_reduced.py writes\n",
                argv[1]);
        return 1;
    }
    /* the lower triangle (SYM = 1 reads one triangle), 1-based */
    MUMPS_INT *irn = malloc(nz * sizeof *irn), *jcn = malloc(nz * sizeof *jcn);
    double *a = malloc(nz * sizeof *a), *b = malloc(n * sizeof *b),
           *x = malloc(n * sizeof *x), *times = malloc(repeats * sizeof *times);
    if (!irn || !jcn || !a || !b || !x || !times) {
        fprintf(stderr, "mumps_peer: out of memory\n");
        return 1;
    }
    long kept = 0;
    for (long k = 0; k < nz; k++) {
        long i, j;
        double v;
        if (fscanf(fa, "%ld %ld %lf", &i, &j, &v) != 3) {
            fprintf(stderr, "mumps_peer: A.mtx: entry %ld unreadable\n", k + 1);
            return 1;
        }
        if (i >= j) {
            irn[kept] = (MUMPS_INT)i;
            jcn[kept] = (MUMPS_INT)j;
            a[kept++] = v;
        }
    }
    for (long k = 0; k < n; k++)
        if (fscanf(fb, "%lf", &b[k]) != 1) {
            fprintf(stderr, "mumps_peer: b.mtx: entry %ld unreadable\n", k + 1);
            return 1;
        }
    fclose(fa);
    fclose(fb);

    for (int r = 0; r < repeats; r++) {
        memcpy(x, b, n * sizeof *x);
        double t = now();
        DMUMPS_STRUC_C id;
        memset(&id, 0, sizeof id);
        id.comm_fortran = USE_COMM_WORLD;
        id.par = 1;
        id.sym = 1; /* SPD */
        id.job = -1;
        dmumps_c(&id);
        id.icntl[0] = id.icntl[1] = id.icntl[2] = id.icntl[3] = -1; /* quiet */
        id.n = (MUMPS_INT)n;
        id.nnz = kept;
        id.irn = irn;
        id.jcn = jcn;
        id.a = a;
        id.rhs = x;
        id.job = 6; /* analyse, factorise, solve */
        dmumps_c(&id);
        times[r] = now() - t;
        int info = id.infog[0];
        id.job = -2;
        dmumps_c(&id);
        if (info < 0) {
            fprintf(stderr, "mumps_peer: MUMPS failed, INFOG(1) = %d\n", info);
            return 1;
        }
    }
    /* |b - A x| / |b| over both triangles */
    double *res = malloc(n * sizeof *res), num = 0, den = 0;
    memcpy(res, b, n * sizeof *res);
    for (long k = 0; k < kept; k++) {
        long i = irn[k] - 1, j = jcn[k] - 1;
        res[i] -= a[k] * x[j];
        if (i != j)
            res[j] -= a[k] * x[i];
    }
    for (long k = 0; k < n; k++) {
        num += res[k] * res[k];
        den += b[k] * b[k];
    }
    qsort(times, repeats, sizeof *times, cmp_double);
    printf("%-28s %10.4f %8d %10.2e\n", "MUMPS 5.5 (SPD, sequential)",
           times[repeats / 2], 0, sqrt(num / den));
    return 0;
}
