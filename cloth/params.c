/* SPDX-License-Identifier: GPL-2.0-or-later */
/* params.c -- scene names, default parameters and their validation. */
#include "cloth.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const scene_names[CLOTH_SCENE_COUNT] = {
    "pinned", "drape", "ballhit", "rail", "free",
};

const char *cloth_scene_name(int scene)
{
    if (scene < 0 || scene >= CLOTH_SCENE_COUNT)
        return "unknown";
    return scene_names[scene];
}

int cloth_scene_from_name(const char *name)
{
    if (!name)
        return -1;
    for (int k = 0; k < CLOTH_SCENE_COUNT; k++)
        if (strcmp(name, scene_names[k]) == 0)
            return k;
    return -1;
}

double cloth_default_dt(int size)
{
    /* Ye et al. §5: 6.67, 5.55, 3.67 ms for 41, 81, 161 nodes a side. */
    static const int sizes[3] = {41, 81, 161};
    static const double steps[3] = {6.67e-3, 5.55e-3, 3.67e-3};
    if (size <= sizes[0])
        return steps[0];
    for (int k = 0; k < 2; k++)
        if (size <= sizes[k + 1]) {
            double w = (double)(size - sizes[k]) / (double)(sizes[k + 1] - sizes[k]);
            return steps[k] + w * (steps[k + 1] - steps[k]);
        }
    return steps[2];
}

void cloth_params_default(cloth_params *p, cloth_scene scene, int size)
{
    if (!p)
        return;
    p->scene = scene;
    p->size = size;
    p->side = CLOTH_DEFAULT_SIDE;
    p->mass = CLOTH_DEFAULT_MASS;
    p->k_stretch = CLOTH_DEFAULT_K_STRETCH;
    p->k_shear = CLOTH_DEFAULT_K_SHEAR;
    p->k_bend = CLOTH_DEFAULT_K_BEND;
    p->damping = CLOTH_DEFAULT_DAMPING;
    p->dt = cloth_default_dt(size);
    p->gravity = CLOTH_DEFAULT_GRAVITY;
    p->margin = CLOTH_DEFAULT_MARGIN;
}

static int bad(char *msg, const char *what, double value, const char *rule)
{
    if (msg)
        snprintf(msg, COREPCG_MSG_SIZE, "cloth parameter %s = %g: must be %s",
                 what, value, rule);
    return COREPCG_ERR_ARGUMENT;
}

int cloth_params_check(const cloth_params *p, char *msg)
{
    if (!p)
        return bad(msg, "(params)", 0.0, "given");
    if ((int)p->scene < 0 || p->scene >= CLOTH_SCENE_COUNT)
        return bad(msg, "scene", (double)p->scene, "a known scene");
    if (p->size < CLOTH_MIN_SIZE || p->size > CLOTH_MAX_SIZE)
        return bad(msg, "size", (double)p->size, "in [3, 2049]");
    /* !(x > 0) also rejects NaN. */
    if (!(p->side > 0.0) || !isfinite(p->side))
        return bad(msg, "side", p->side, "finite and > 0");
    if (!(p->mass > 0.0) || !isfinite(p->mass))
        return bad(msg, "mass", p->mass, "finite and > 0");
    if (!(p->dt > 0.0) || !isfinite(p->dt))
        return bad(msg, "dt", p->dt, "finite and > 0");
    const struct { const char *name; double value; } nonneg[] = {
        {"k_stretch", p->k_stretch}, {"k_shear", p->k_shear},
        {"k_bend", p->k_bend},       {"damping", p->damping},
        {"gravity", p->gravity},     {"margin", p->margin},
    };
    for (size_t k = 0; k < sizeof nonneg / sizeof nonneg[0]; k++)
        if (!(nonneg[k].value >= 0.0) || !isfinite(nonneg[k].value))
            return bad(msg, nonneg[k].name, nonneg[k].value, "finite and >= 0");
    return COREPCG_OK;
}
