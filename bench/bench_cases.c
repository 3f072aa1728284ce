/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_cases.c -- what the options make of the bench's cases: the sizes
 * each scene runs at, the cases in their order, their labels and their
 * simulators. The per-step run, the whole simulations, the scaling run and
 * the reports all read the cases from here. */
#include "bench.h"
#include "cloth.h"

#include <string.h>

int bench_is_mesh_scene(int scene)
{
    return !cloth_scene_on_grid(scene);
}

int bench_scene_sizes(const bench_options *o, int scene)
{
    return bench_is_mesh_scene(scene) ? o->num_levels : o->num_sizes;
}

int bench_max_scene_sizes(const bench_options *o)
{
    int most = 0;
    for (int e = 0; e < o->num_scenes; e++)
        if (bench_scene_sizes(o, o->scenes[e]) > most)
            most = bench_scene_sizes(o, o->scenes[e]);
    return most;
}

int bench_group_size(const bench_options *o, int scene)
{
    return bench_scene_sizes(o, scene) * o->num_ks;
}

int bench_case_count(const bench_options *o)
{
    int count = 0;
    for (int e = 0; e < o->num_scenes; e++)
        count += o->num_tols * bench_group_size(o, o->scenes[e]);
    return count;
}

void bench_case_id_at(const bench_options *o, int index, bench_case_id *id)
{
    memset(id, 0, sizeof *id);
    for (int e = 0; e < o->num_scenes; e++) {
        int group = bench_group_size(o, o->scenes[e]);
        if (index >= o->num_tols * group) {
            index -= o->num_tols * group;
            continue;
        }
        /* within the scene: tol outermost, then size, then k */
        int a = index % group / o->num_ks;
        id->scene = o->scenes[e];
        id->model = o->scene_models[e];
        id->tol = o->tols[index / group];
        id->size_index = a;
        id->size = bench_is_mesh_scene(id->scene) ? 0 : o->sizes[a];
        bench_case_label(o, id->scene, id->model, a, id->label, sizeof id->label);
        id->k = o->ks[index % o->num_ks];
        return;
    }
}

int bench_sim_create(const bench_options *o, int scene, int model, int a, double k,
                     cloth_sim **sim, char *msg)
{
    *sim = NULL;
    cloth_params par;
    cloth_mesh fine; /* par borrows it until the scene is built */
    memset(&fine, 0, sizeof fine);
    int dressed = scene == CLOTH_SCENE_DRESSED;
    if (bench_is_mesh_scene(scene)) {
        int rc = cloth_mesh_subdivide(dressed ? o->dressed_mesh : o->mesh, o->levels[a], &fine,
                                      msg);
        if (rc != COREPCG_OK)
            return rc;
        cloth_params_default_mesh(&par, (cloth_scene)scene, &fine);
        if (o->self_contact >= 0)
            par.self_contact = o->self_contact;
        par.model = model;
        if (o->bending >= 0 && cloth_force_model_takes(model, CLOTH_PARAM_BENDING))
            par.bending = o->bending;
    } else {
        cloth_params_default(&par, (cloth_scene)scene, o->sizes[a]);
    }
    par.k_stretch = k;
    par.num_obstacle_meshes = dressed ? 1 : o->num_obstacle_meshes;
    par.obstacle_meshes = dressed ? o->dressed_body : o->obstacle_meshes;
    int rc = cloth_sim_create(&par, sim, msg);
    cloth_mesh_free(&fine);
    return rc;
}

void bench_case_label(const bench_options *o, int scene, int model, int a, char *buf,
                      size_t len)
{
    char fem[48] = ""; /* the default model unlabelled, another by name */
    if (model != CLOTH_MODEL_SPRINGS && o->bending >= 0 &&
        cloth_force_model_takes(model, CLOTH_PARAM_BENDING))
        snprintf(fem, sizeof fem, " (%s, bending %g)", cloth_force_model_name(model),
                 o->bending);
    else if (model != CLOTH_MODEL_SPRINGS)
        snprintf(fem, sizeof fem, " (%s)", cloth_force_model_name(model));
    const char *name = scene == CLOTH_SCENE_DRESSED ? "top.obj on body.obj"
                     : o->mesh_name ? o->mesh_name : "mesh";
    if (!bench_is_mesh_scene(scene))
        snprintf(buf, len, "%dx%d", o->sizes[a], o->sizes[a]);
    else if (o->levels[a] == 0)
        snprintf(buf, len, "%s%s", name, fem);
    else
        snprintf(buf, len, "%s --subdivide %d%s", name, o->levels[a], fem);
}

long bench_subdivided_vertices(const cloth_mesh *mesh, long num_edges, int levels)
{
    long v = mesh->num_vertices, e = num_edges, t = mesh->num_triangles;
    for (int k = 0; k < levels; k++) {
        v += e;
        e = 2 * e + 3 * t;
        t *= 4;
    }
    return v;
}

int bench_method_index(const bench_options *o, int method)
{
    for (int j = 0; j < o->num_methods; j++)
        if (o->methods[j] == method)
            return j;
    return -1;
}
