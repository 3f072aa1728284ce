/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cloth_cli.c -- option parsing shared by `corepcg gen` and `simulate`,
 * and the mesh they read. */
#include "cloth_cli.h"
#include "cli.h"

#include <stdio.h>
#include <string.h>

static int needs_value(const char *opt, const char *value, const char *what)
{
    if (value)
        return 0;
    cli_error("%s needs %s", opt, what);
    return -1;
}

/* The scene against the grid or mesh options: its index, or -1 (said). */
static int check_scene(const struct cloth_cli *o, const char *scene, int size,
                       int have_subdivide, int takes_out, const char *usage)
{
    const char *command = o->command;
    char all[160], on_mesh[160];
    cloth_scene_list(CLOTH_ON_GRID | CLOTH_ON_MESH, all, sizeof all);
    cloth_scene_list(CLOTH_ON_MESH, on_mesh, sizeof on_mesh);
    if (!scene) {
        cli_error("%s: no SCENE given (%s)", command, all);
        cli_usage(stderr, usage);
        return -1;
    }
    int s = cloth_scene_from_name(scene);
    if (s < 0) {
        cli_error("%s: unknown scene '%s' (%s)", command, scene, all);
        return -1;
    }
    if (o->mesh_path && size) {
        cli_error("%s: --size and --mesh do not go together (a grid or a mesh)", command);
        return -1;
    }
    if (!o->mesh_path && o->have_up && !o->place.num_obstacles) {
        cli_error("%s: --up turns a mesh (--mesh FILE.obj); the grid scenes are z-up",
                  command);
        return -1;
    }
    if (!o->mesh_path && (o->place.have_translate || o->place.have_scale)) {
        cli_error("%s: --translate and --scale move a mesh (--mesh FILE.obj)", command);
        return -1;
    }
    if (o->model == CLOTH_MODEL_FEM && !o->mesh_path) {
        cli_error("%s: --model fem runs on a triangle mesh: give --mesh FILE.obj", command);
        return -1;
    }
    if (o->fem_option && o->model != CLOTH_MODEL_FEM) {
        cli_error("%s: %s applies to --model fem only", command, o->fem_option);
        return -1;
    }
    if (!o->mesh_path && (have_subdivide || o->have_density)) {
        cli_error("%s: --subdivide and --density need --mesh FILE.obj", command);
        return -1;
    }
    if (o->mesh_path && !cloth_scene_on_mesh(s)) {
        cli_error("%s: scene %s runs on a grid (--size m); on a mesh: %s", command, scene,
                  on_mesh);
        return -1;
    }
    if (!o->mesh_path && !cloth_scene_on_grid(s)) {
        cli_error("%s: scene %s needs --mesh FILE.obj (e.g. data/meshes/tshirt.obj)",
                  command, scene);
        return -1;
    }
    if (!o->mesh_path && !size) {
        cli_error("%s: --size m is required (nodes per side, %d..%d), or --mesh FILE.obj",
                  command, CLOTH_MIN_SIZE, CLOTH_MAX_SIZE);
        return -1;
    }
    if (takes_out && !o->out) {
        cli_error("%s: --out DIR is required", command);
        return -1;
    }
    return s;
}

/* What gen's and simulate's options fill besides o. */
struct cloth_parse {
    struct cloth_cli *o;
    int takes_out, takes_files; /* --out; --obj and --csv                 */
    const char *scene;
    int size, have_subdivide;
};

/* One argument of gen's or simulate's command line (cli_parse_args). */
static int cloth_option(const char *a, const char *v, void *ctx)
{
    struct cloth_parse *p = ctx;
    struct cloth_cli *o = p->o;
    int rc = 0, m;
    int placed = cloth_place_option(&o->place, a, v); /* --obstacle, --translate, --scale */
    if (placed != CLI_ARG_UNKNOWN)
        return placed;
    if (strcmp(a, "--size") == 0) {
        rc = cli_parse_int(a, v, CLOTH_MIN_SIZE, CLOTH_MAX_SIZE, &p->size);
    } else if (strcmp(a, "--mesh") == 0) {
        rc = needs_value(a, v, "an OBJ file");
        o->mesh_path = v;
    } else if (strcmp(a, "--up") == 0) {
        rc = cli_parse_choice(a, v, cloth_up_from_name, CLOTH_UP_NAMES, &o->up);
        o->have_up = 1;
    } else if (strcmp(a, "--subdivide") == 0) {
        rc = cli_parse_int(a, v, 0, CLOTH_MAX_SUBDIVIDE, &o->subdivide);
        p->have_subdivide = 1;
    } else if (strcmp(a, "--model") == 0) {
        rc = cli_parse_choice(a, v, cloth_force_model_from_name, "springs, fem",
                              &o->model);
    } else if (strcmp(a, "--poisson") == 0) {
        /* an isotropic solid's range: both ends excluded */
        rc = cli_parse_double_open(a, v, -1.0, 0.5, &o->poisson);
        o->have_poisson = 1;
        o->fem_option = o->fem_option ? o->fem_option : a;
    } else if (strcmp(a, "--bending") == 0) {
        rc = cli_parse_double(a, v, 0.0, 1e12, &o->bending);
        o->have_bending = 1;
        o->fem_option = o->fem_option ? o->fem_option : a;
    } else if (strcmp(a, "--mass-damping") == 0) {
        rc = cli_parse_double(a, v, 0.0, 1e12, &o->mass_damping);
        o->have_mass_damping = 1;
        o->fem_option = o->fem_option ? o->fem_option : a;
    } else if (strcmp(a, "--k-stretch") == 0) {
        rc = cli_parse_double(a, v, 0.0, 1e12, &o->k_stretch);
        o->have_k = 1;
    } else if (strcmp(a, "--dt") == 0) {
        rc = cli_parse_double(a, v, 1e-9, 1.0, &o->dt);
        o->have_dt = 1;
    } else if (strcmp(a, "--density") == 0) {
        rc = cli_parse_double(a, v, 1e-6, 1e6, &o->density);
        o->have_density = 1;
    } else if (strcmp(a, "--self-contact") == 0) {
        rc = cli_parse_choice(a, v, cli_on_off, "on, off", &o->self_contact);
        o->have_self_contact = 1;
    } else if (strcmp(a, "--steps") == 0) {
        rc = cli_parse_int(a, v, 1, 100000000, &o->steps);
    } else if (strcmp(a, "--method") == 0) {
        rc = cli_parse_method(a, v, 1, &m);
        o->set.method = (corepcg_method)m;
    } else if (strcmp(a, "--tol") == 0) {
        rc = cli_parse_double(a, v, 1e-300, 0.999999, &o->set.tol);
    } else if (p->takes_out && strcmp(a, "--out") == 0) {
        rc = needs_value(a, v, "a directory");
        o->out = v;
    } else if (p->takes_files && strcmp(a, "--obj") == 0) {
        rc = needs_value(a, v, "a directory");
        o->obj = v;
    } else if (p->takes_files && strcmp(a, "--csv") == 0) {
        rc = needs_value(a, v, "a file name");
        o->csv = v;
    } else if (a[0] != '-' && !p->scene) {
        p->scene = a;
        return CLI_ARG_ALONE;
    } else {
        return CLI_ARG_UNKNOWN;
    }
    return rc ? CLI_ARG_ERROR : CLI_ARG_WITH_VALUE;
}

int cloth_cli_parse(int argc, char **argv, const char *command,
                    const char *usage, int takes_out, int takes_files,
                    struct cloth_cli *o)
{
    memset(o, 0, sizeof *o);
    o->command = command;
    o->up = CLOTH_UP_Z;
    corepcg_settings_default(&o->set);
    o->place.argc = argc;
    o->place.argv = argv;
    struct cloth_parse p = {o, takes_out, takes_files, NULL, 0, 0};
    int rc = cli_parse_args(argc, argv, command, cloth_option, &p);
    if (rc == 1)
        cli_usage(stdout, usage);
    if (rc)
        return rc;
    int s = check_scene(o, p.scene, p.size, p.have_subdivide, takes_out, usage);
    if (s < 0)
        return -1;
    /* a grid's parameters are complete now; a mesh's once it is read */
    cloth_params_default(&o->par, (cloth_scene)s, p.size);
    return 0;
}

/* The path's last component: "tshirt.obj". */
static const char *file_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int cloth_cli_load(struct cloth_cli *o)
{
    char msg[COREPCG_MSG_SIZE];
    cloth_scene scene = o->par.scene;
    if (o->mesh_path) {
        cloth_mesh read;
        char note[512];
        if (cloth_cli_read_mesh(o->command, o->mesh_path, o->up, &read, note, sizeof note))
            return -1;
        if (note[0])
            snprintf(o->skipped, sizeof o->skipped, "%.200s: %s", file_name(o->mesh_path), note);
        int rc = cloth_mesh_subdivide(&read, o->subdivide, &o->mesh, msg);
        if (rc != COREPCG_OK) {
            cloth_mesh_free(&read);
            cli_error("%s: %s", o->command, msg);
            return -1;
        }
        cloth_place_mesh(&o->place, &o->mesh);
        rc = cloth_cli_self_check(o->command, o->mesh_path, &read, o->subdivide, &o->mesh);
        cloth_mesh_free(&read);
        if (rc)
            return -1;
        cloth_params_default_mesh(&o->par, scene, &o->mesh);
    }
    if (cloth_place_load(o->command, &o->place, o->up))
        return -1;
    cloth_place_params(&o->place, &o->par);
    if (o->have_k)
        o->par.k_stretch = o->k_stretch;
    if (o->have_dt)
        o->par.dt = o->dt;
    if (o->have_density)
        o->par.density = o->density;
    if (o->have_self_contact)
        o->par.self_contact = o->self_contact;
    o->par.model = (cloth_force_model)o->model;
    if (o->have_poisson)
        o->par.poisson = o->poisson;
    if (o->have_bending)
        o->par.bending = o->bending;
    if (o->have_mass_damping)
        o->par.mass_damping = o->mass_damping;
    return 0;
}

int cloth_cli_read_mesh(const char *command, const char *path, int up, cloth_mesh *mesh,
                        char *skipped_note, size_t len)
{
    char msg[COREPCG_MSG_SIZE], note[512];
    cloth_obj_skipped skipped;
    int rc = cloth_mesh_read_obj_skipping(path, mesh, &skipped, msg);
    cloth_obj_skipped_describe(&skipped, note, sizeof note);
    if (note[0]) /* a note, not an error: said whatever comes next */
        fprintf(stderr, "corepcg: %s: %s: %s\n", command, path, note);
    if (skipped_note)
        snprintf(skipped_note, len, "%s", note);
    if (rc != COREPCG_OK) {
        cli_error("%s: %s", command, msg);
        return -1;
    }
    cloth_mesh_orient(mesh, CLOTH_UP_Z, (cloth_up)up);
    return 0;
}

/* Triangle t of a mesh subdivided `levels` times, as its line in the
 * file read: each round makes triangle t the four 4 t .. 4 t + 3. */
static void file_triangle(const cloth_mesh *read, int levels, int t, char *buf, size_t len)
{
    int original = t >> (2 * levels);
    if (read->triangle_line)
        snprintf(buf, len, "line %d", read->triangle_line[original]);
    else
        snprintf(buf, len, "triangle %d", original + 1);
}

int cloth_cli_self_check(const char *command, const char *path, const cloth_mesh *read,
                         int levels, const cloth_mesh *mesh)
{
    char msg[COREPCG_MSG_SIZE];
    cloth_self_intersection si;
    if (cloth_mesh_self_intersections(mesh, &si, msg) != COREPCG_OK) {
        cli_error("%s: %s: %s", command, path, msg);
        return -1;
    }
    if (si.pairs == 0)
        return 0;
    char one[64], other[64];
    file_triangle(read, levels, si.triangle[0], one, sizeof one);
    file_triangle(read, levels, si.triangle[1], other, sizeof other);
    cli_error("%s: %s: the garment passes through itself: %s%ld pair%s of triangles "
              "cross (%ld edge crossing%s), e.g. an edge of the triangle at %s passes "
              "through the triangle at %s at (%.4g, %.4g, %.4g) m in the scene; the "
              "simulation would start with the cloth through itself: fix the mesh in the "
              "tool that made it",
              command, path, si.capped ? "at least " : "", si.pairs, si.pairs == 1 ? "" : "s",
              si.crossings, si.crossings == 1 ? "" : "s", one, other, si.point[0],
              si.point[1], si.point[2]);
    return -1;
}

void cloth_cli_refused(const char *command, const cloth_params *par, int up, const char *msg)
{
    const char *hint = cloth_place_hint(msg, par->mesh != NULL);
    if (hint[0]) { /* another --up would only turn the mesh off the body */
        cli_error("%s: %s%s", command, msg, hint);
        return;
    }
    int other = par->mesh ? cloth_scene_suggest_up(par, (cloth_up)up) : -1;
    if (other >= 0)
        cli_error("%s: %s; is it %s-up? try --up %s", command, msg, cloth_up_name(other),
                  cloth_up_name(other));
    else
        cli_error("%s: %s", command, msg);
}

int cloth_cli_create(const struct cloth_cli *o, cloth_sim **sim)
{
    char msg[COREPCG_MSG_SIZE];
    if (cloth_sim_create(&o->par, sim, msg) == COREPCG_OK)
        return 0;
    cloth_cli_refused(o->command, &o->par, o->up, msg);
    return -1;
}

void cloth_cli_describe(const struct cloth_cli *o, int nodes, char *buf, size_t len)
{
    const char *name = cloth_scene_name(o->par.scene);
    if (!o->mesh_path) {
        snprintf(buf, len, "%s %dx%d", name, o->par.size, o->par.size);
        return;
    }
    char rounds[48] = "";
    if (o->subdivide)
        snprintf(rounds, sizeof rounds, ", subdivided %s", o->subdivide == 1 ? "once"
                 : o->subdivide == 2 ? "twice" : "");
    if (o->subdivide > 2)
        snprintf(rounds, sizeof rounds, ", subdivided %d times", o->subdivide);
    char model[96] = "";
    if (o->par.model == CLOTH_MODEL_FEM)
        snprintf(model, sizeof model, ", fem (nu %g, bending %g N m)", o->par.poisson,
                 o->par.bending);
    snprintf(buf, len, "%s on %s%s (%d vertices%s%s)%s", name, file_name(o->mesh_path),
             rounds, nodes,
             o->up != CLOTH_UP_Z ? ", up " : "", o->up != CLOTH_UP_Z ? cloth_up_name(o->up) : "",
             model);
}

void cloth_cli_free(struct cloth_cli *o)
{
    cloth_mesh_free(&o->mesh);
    cloth_place_free(&o->place);
}
