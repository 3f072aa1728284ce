/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cloth_fixture.h -- a scene of the cloth simulator for the tests that
 * solve realistic systems (test_cloth, test_mpcg, test_kept_analysis,
 * test_mesh), and the corepcg tool run as the simulator's user runs it. */
#ifndef COREPCG_CLOTH_FIXTURE_H
#define COREPCG_CLOTH_FIXTURE_H

#include "cloth.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#ifndef COREPCG_CLI
#define COREPCG_CLI "corepcg"
#endif

/* The simulator on p; NULL (and a failed check naming what) when it
 * refuses p. */
static inline cloth_sim *fixture_sim(const cloth_params *p, const char *what)
{
    cloth_sim *s = NULL;
    char msg[COREPCG_MSG_SIZE] = "";
    int rc = cloth_sim_create(p, &s, msg);
    CHECK(rc == COREPCG_OK, "cloth_sim_create %s: %s", what, msg);
    return s;
}

/* SCENE at m x m nodes with k_stretch; NULL (and a failed check) when the
 * simulator refuses it. */
static inline cloth_sim *fixture_cloth(cloth_scene scene, int m, double k_stretch)
{
    cloth_params p;
    cloth_params_default(&p, scene, m);
    p.k_stretch = k_stretch;
    return fixture_sim(&p, cloth_scene_name(scene));
}

/* Runs the CLI ($COREPCG_CLI, else the compiled-in one) with args, its
 * output (stdout and stderr) into out; returns the exit status (-1 if it
 * did not exit normally). */
static inline int fixture_run_cli(const char *args, char *out, size_t size)
{
    const char *env = getenv("COREPCG_CLI");
    char cmd[8192];
    if (snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", env && *env ? env : COREPCG_CLI, args) >=
        (int)sizeof cmd)
        return -1;
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t got = fread(out, 1, size - 1, p);
    out[got] = '\0';
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* m as an OBJ file at path (v and f lines, 1-based). */
static inline void fixture_write_mesh(const char *path, const cloth_mesh *m)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "%s opened", path);
    if (!f)
        return;
    for (int i = 0; i < m->num_vertices; i++)
        fprintf(f, "v %.17g %.17g %.17g\n", m->x[3 * i], m->x[3 * i + 1], m->x[3 * i + 2]);
    for (int t = 0; t < m->num_triangles; t++)
        fprintf(f, "f %d %d %d\n", m->triangles[3 * t] + 1, m->triangles[3 * t + 1] + 1,
                m->triangles[3 * t + 2] + 1);
    fclose(f);
}

#endif /* COREPCG_CLOTH_FIXTURE_H */
