/* SPDX-License-Identifier: GPL-2.0-or-later */
/* params.c -- force model names, default parameters and their validation. */
#include "cloth.h"

#include "name_is.h"

#include <math.h>
#include <stdio.h>

static const char *const model_names[CLOTH_MODEL_COUNT] = {"springs", "fem"};

/* names[value], or "unknown" out of range */
static const char *name_of(const char *const *names, int count, int value)
{
    return value >= 0 && value < count ? names[value] : "unknown";
}

const char *cloth_force_model_name(int model)
{
    return name_of(model_names, CLOTH_MODEL_COUNT, model);
}

int cloth_force_model_from_name(const char *name)
{
    return cpg_name_index(name, model_names, CLOTH_MODEL_COUNT);
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
    p->mesh = NULL;
    p->size = size;
    p->side = CLOTH_DEFAULT_SIDE;
    p->mass = CLOTH_DEFAULT_MASS;
    p->density = CLOTH_DEFAULT_DENSITY;
    p->k_stretch = CLOTH_DEFAULT_K_STRETCH;
    p->k_shear = CLOTH_DEFAULT_K_SHEAR;
    p->k_bend = CLOTH_DEFAULT_K_BEND;
    p->model = CLOTH_MODEL_SPRINGS;
    p->poisson = CLOTH_DEFAULT_POISSON;
    p->bending = CLOTH_DEFAULT_BENDING;
    p->damping = CLOTH_DEFAULT_DAMPING;
    p->mass_damping = 0.0;
    p->dt = cloth_default_dt(size);
    p->gravity = CLOTH_DEFAULT_GRAVITY;
    p->margin = CLOTH_DEFAULT_MARGIN;
    p->self_contact = 0;
    p->k_contact = CLOTH_DEFAULT_K_CONTACT;
    p->thickness = CLOTH_DEFAULT_THICKNESS;
    p->num_obstacle_meshes = 0;
    p->obstacle_meshes = NULL;
}

void cloth_params_default_mesh(cloth_params *p, cloth_scene scene, const cloth_mesh *mesh)
{
    if (!p)
        return;
    int vertices = mesh ? mesh->num_vertices : 0;
    cloth_params_default(p, scene, (int)sqrt((double)vertices));
    p->size = 0;
    p->mesh = mesh;
    const cloth_scene_row *row = cloth_scene_describe(scene);
    p->self_contact = row ? row->self_contact : 0;
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
    if (p->mesh && !cloth_scene_on_mesh(p->scene)) {
        char names[160];
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "cloth scene %s runs on a grid, not a mesh "
                     "(mesh scenes: %s)", cloth_scene_name(p->scene),
                     cloth_scene_list(CLOTH_ON_MESH, names, sizeof names));
        return COREPCG_ERR_ARGUMENT;
    }
    if (!p->mesh && !cloth_scene_on_grid(p->scene)) {
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "cloth scene %s needs a mesh",
                     cloth_scene_name(p->scene));
        return COREPCG_ERR_ARGUMENT;
    }
    if (p->num_obstacle_meshes < 0 || (p->num_obstacle_meshes > 0 && !p->obstacle_meshes))
        return bad(msg, "num_obstacle_meshes", (double)p->num_obstacle_meshes,
                   ">= 0, with the meshes given");
    if ((int)p->model < 0 || p->model >= CLOTH_MODEL_COUNT)
        return bad(msg, "model", (double)p->model, "springs or fem");
    if (p->model == CLOTH_MODEL_FEM && !p->mesh) {
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "cloth model fem runs on a triangle mesh, "
                     "not on the grid");
        return COREPCG_ERR_ARGUMENT;
    }
    /* an isotropic solid's range: positive shear and bulk moduli */
    if (!(p->poisson > -1.0 && p->poisson < 0.5))
        return bad(msg, "poisson", p->poisson, "in (-1, 0.5)");
    /* !(x > 0) also rejects NaN. */
    if (!p->mesh) {
        if (p->size < CLOTH_MIN_SIZE || p->size > CLOTH_MAX_SIZE)
            return bad(msg, "size", (double)p->size, "in [3, 2049]");
        if (!(p->side > 0.0) || !isfinite(p->side))
            return bad(msg, "side", p->side, "finite and > 0");
        if (!(p->mass > 0.0) || !isfinite(p->mass))
            return bad(msg, "mass", p->mass, "finite and > 0");
    } else if (!(p->density > 0.0) || !isfinite(p->density)) {
        return bad(msg, "density", p->density, "finite and > 0");
    }
    if (!(p->thickness > 0.0) || !isfinite(p->thickness))
        return bad(msg, "thickness", p->thickness, "finite and > 0");
    if (!(p->dt > 0.0) || !isfinite(p->dt))
        return bad(msg, "dt", p->dt, "finite and > 0");
    const struct { const char *name; double value; } nonneg[] = {
        {"k_stretch", p->k_stretch}, {"k_shear", p->k_shear},
        {"k_bend", p->k_bend},       {"damping", p->damping},
        {"gravity", p->gravity},     {"margin", p->margin},
        {"k_contact", p->k_contact}, {"bending", p->bending},
        {"mass_damping", p->mass_damping},
    };
    for (size_t k = 0; k < sizeof nonneg / sizeof nonneg[0]; k++)
        if (!(nonneg[k].value >= 0.0) || !isfinite(nonneg[k].value))
            return bad(msg, nonneg[k].name, nonneg[k].value, "finite and >= 0");
    return COREPCG_OK;
}
