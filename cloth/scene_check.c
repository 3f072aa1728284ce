/* SPDX-License-Identifier: GPL-2.0-or-later */
/* scene_check.c -- a scene whose start leaves nothing to simulate is
 * refused rather than run: a mesh lying flat in its file's up plane is
 * held whole by hang's top band, and would step without moving. */
#include "cloth.h"

#include <stdio.h>

/* Why the fixed vertices are fixed: the scene's hold, sticky contacts. */
static void fixed_cause(const cloth_sim *s, int held, int stuck, char *buf, size_t len)
{
    int N = s->model.N;
    int band = cloth_scene_describe(s->par.scene)->hold == CLOTH_HOLD_TOP;
    if (held && band && s->model.face_size == 3 && 2 * held > N)
        snprintf(buf, len, "the mesh's highest %g cm holds %s", 100 * CLOTH_HANG_BAND,
                 held == N ? "all of it" : "more than half of it");
    else if (held)
        snprintf(buf, len, "the scene holds %d of them", held);
    else
        buf[0] = '\0';
    if (stuck) {
        size_t used = 0;
        while (buf[used])
            used++;
        snprintf(buf + used, len - used, "%s%d stick to an obstacle at the start",
                 used ? " and " : "", stuck);
    }
}

int cloth_scene_check(cloth_sim *s, char *msg)
{
    cloth_constrain(s);
    int N = s->model.N, fixed = s->ndof_count[0], free_nodes = N - s->num_cons;
    if (2 * fixed <= N && free_nodes > 0)
        return COREPCG_OK;
    int held = 0;
    for (int i = 0; i < N; i++)
        held += s->held[i] == 0;
    char cause[160];
    fixed_cause(s, held, fixed - held, cause, sizeof cause);
    if (msg && 2 * fixed > N)
        snprintf(msg, COREPCG_MSG_SIZE, "fixed %d of %d vertices: %s", fixed, N, cause);
    else if (msg)
        snprintf(msg, COREPCG_MSG_SIZE, "no vertex of %d is free: %d fixed, %d touching "
                 "an obstacle at the start", N, fixed, N - fixed);
    return COREPCG_ERR_ARGUMENT;
}
