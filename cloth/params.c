/* SPDX-License-Identifier: GPL-2.0-or-later */
/* params.c -- the parameters: the force models' described once (their
 * range, default, unit and help), the one range check, the defaults of
 * the rest and the whole set's validation. */
#include "cloth_mesh.h"
#include "cloth_scene.h"
#include "cloth_model.h"

#include "name_is.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>


/* A parameter's description and its field. */
typedef struct param_desc {
    cloth_param_info info;
    size_t offset; /* its double in cloth_params */
} param_desc;

#define FIELD(f) offsetof(cloth_params, f)
#define CLOSED 0, 0
#define BOTH_OPEN 1, 1

/* {{name, flag, value, min, max, min_open, max_open, default, unit, help,
 * note}, field}; the ones without a flag keep the library's "finite and
 * >= 0": [0, inf). */
static const param_desc params[CLOTH_PARAM_COUNT] = {
    [CLOTH_PARAM_K_STRETCH] = {{"k_stretch", "--k-stretch", "k", 0.0, CLOTH_PARAM_MAX, CLOSED,
                                CLOTH_DEFAULT_K_STRETCH, "N/m", "stretch stiffness",
                                "Ye et al. use 60, 600, 6000; fem: the membrane's 2D "
                                "Young's modulus"},
                               FIELD(k_stretch)},
    /* an isotropic solid's range: positive shear and bulk moduli */
    [CLOTH_PARAM_POISSON] = {{"poisson", "--poisson", "NU", -1.0, 0.5, BOTH_OPEN,
                              CLOTH_DEFAULT_POISSON, "", "Poisson ratio", NULL},
                             FIELD(poisson)},
    [CLOTH_PARAM_BENDING] = {{"bending", "--bending", "KB", 0.0, CLOTH_PARAM_MAX, CLOSED,
                              CLOTH_DEFAULT_BENDING, "N m", "bending stiffness",
                              "1e-4 is a denim"},
                             FIELD(bending)},
    [CLOTH_PARAM_MASS_DAMPING] = {{"mass_damping", "--mass-damping", "A", 0.0,
                                   CLOTH_PARAM_MAX, CLOSED, 0.0, "1/s", "Rayleigh alpha",
                                   "beta is 1e-3 s"},
                                  FIELD(mass_damping)},
    [CLOTH_PARAM_K_SHEAR] = {{"k_shear", NULL, NULL, 0.0, INFINITY, 0, 1,
                              CLOTH_DEFAULT_K_SHEAR, "N/m", "shear springs' stiffness (grid)",
                              NULL},
                             FIELD(k_shear)},
    [CLOTH_PARAM_K_BEND] = {{"k_bend", NULL, NULL, 0.0, INFINITY, 0, 1, CLOTH_DEFAULT_K_BEND,
                             "N/m", "bending springs' stiffness", NULL},
                            FIELD(k_bend)},
    [CLOTH_PARAM_DAMPING] = {{"damping", NULL, NULL, 0.0, INFINITY, 0, 1,
                              CLOTH_DEFAULT_DAMPING, "s",
                              "springs: kd = damping k; fem: Rayleigh beta", NULL},
                             FIELD(damping)},
};

const cloth_param_info *cloth_param_describe(int param)
{
    return param >= 0 && param < CLOTH_PARAM_COUNT ? &params[param].info : NULL;
}

double cloth_param_get(const cloth_params *p, int param)
{
    double value;
    memcpy(&value, (const char *)p + params[param].offset, sizeof value);
    return value;
}

void cloth_param_set(cloth_params *p, int param, double value)
{
    memcpy((char *)p + params[param].offset, &value, sizeof value);
}

const char *cloth_param_range(int param, char *buf, size_t len)
{
    const cloth_param_info *d = &params[param].info;
    int lo_open = d->min_open || isinf(d->min), hi_open = d->max_open || isinf(d->max);
    /* an infinite end is open without saying so: it is never a value */
    int said_lo = d->min_open && !isinf(d->min), said_hi = d->max_open && !isinf(d->max);
    snprintf(buf, len, "%c%g, %g%c%s%s%s", lo_open ? '(' : '[', d->min, d->max,
             hi_open ? ')' : ']', said_lo && said_hi ? ", both ends excluded" : "",
             said_lo && !said_hi ? ", the lower end excluded" : "",
             said_hi && !said_lo ? ", the upper end excluded" : "");
    return buf;
}

int cloth_param_check(int param, double value, const char *text, char *msg)
{
    const cloth_param_info *d = &params[param].info;
    /* written so that NaN fails every comparison */
    int above = d->min_open || isinf(d->min) ? value > d->min : value >= d->min;
    int below = d->max_open || isinf(d->max) ? value < d->max : value <= d->max;
    if (above && below && isfinite(value))
        return COREPCG_OK;
    if (msg) {
        char range[96], shown[32];
        snprintf(shown, sizeof shown, "%g", value);
        /* the CLI's wording for every numeric option (tools/cli.c) */
        snprintf(msg, COREPCG_MSG_SIZE, "%s needs a number in %s, got '%s'",
                 d->flag ? d->flag : d->name, cloth_param_range(param, range, sizeof range),
                 text ? text : shown);
    }
    return COREPCG_ERR_ARGUMENT;
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
    p->model = CLOTH_MODEL_SPRINGS;
    for (int k = 0; k < CLOTH_PARAM_COUNT; k++)
        cloth_param_set(p, k, params[k].info.default_value);
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
    const cloth_force_model_ops *model = cloth_force_model_describe(p->model);
    if (!model)
        return bad(msg, "model", (double)p->model, "a row of the force models' table");
    if (model->needs_mesh && !p->mesh) {
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "cloth model %s runs on a triangle mesh, "
                     "not on the grid", model->name);
        return COREPCG_ERR_ARGUMENT;
    }
    for (int k = 0; k < CLOTH_PARAM_COUNT; k++) {
        int rc = cloth_param_check(k, cloth_param_get(p, k), NULL, msg);
        if (rc != COREPCG_OK)
            return rc;
    }
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
        {"gravity", p->gravity},
        {"margin", p->margin},
        {"k_contact", p->k_contact},
    };
    for (size_t k = 0; k < sizeof nonneg / sizeof nonneg[0]; k++)
        if (!(nonneg[k].value >= 0.0) || !isfinite(nonneg[k].value))
            return bad(msg, nonneg[k].name, nonneg[k].value, "finite and >= 0");
    return COREPCG_OK;
}
