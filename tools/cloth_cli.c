/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cloth_cli.c -- option parsing shared by `corepcg gen` and `simulate`,
 * and the mesh they read. */
#include "cloth_cli.h"
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "fem": the models that read param, sep between them. */
static void takers(int param, const char *sep, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int m = 0; m < cloth_force_model_count() && used < len; m++)
        if (cloth_force_model_takes(m, param))
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? sep : "",
                                     cloth_force_model_name(m));
}

/* A force model's option given for a model that does not read it is
 * refused, the first given named: 0, or -1 (said). */
static int refuse_unread_param(const struct cloth_cli *o)
{
    int first = -1;
    for (int k = 0; k < CLOTH_PARAM_COUNT; k++)
        if (o->param_given[k] && !cloth_force_model_takes(o->model, k) &&
            (first < 0 || o->param_given[k] < o->param_given[first]))
            first = k;
    if (first < 0)
        return 0;
    char models[128];
    takers(first, " or ", models, sizeof models);
    cli_error("%s: %s applies to --model %s only", o->command,
              cloth_param_describe(first)->flag, models);
    return -1;
}

/* A force model's option (--poisson, ...) by its description: its value
 * through the library's one range check. */
static int param_option(struct cloth_cli *o, const char *a, const char *v)
{
    for (int k = 0; k < CLOTH_PARAM_COUNT; k++) {
        const cloth_param_info *d = cloth_param_describe(k);
        if (!d->flag || strcmp(a, d->flag) != 0)
            continue;
        double value = NAN; /* not a number: out of every range */
        char msg[COREPCG_MSG_SIZE];
        cli_finite_number(v, &value);
        if (cloth_param_check(k, value, v ? v : "(nothing)", msg) != COREPCG_OK) {
            cli_error("%s", msg);
            return CLI_ARG_ERROR;
        }
        o->param[k] = value;
        o->param_given[k] = ++o->params_given;
        return CLI_ARG_WITH_VALUE;
    }
    return CLI_ARG_UNKNOWN;
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
        cloth_cli_usage(stderr, usage);
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
    if (cloth_force_model_describe(o->model)->needs_mesh && !o->mesh_path) {
        cli_error("%s: --model %s runs on a triangle mesh: give --mesh FILE.obj", command,
                  cloth_force_model_name(o->model));
        return -1;
    }
    if (refuse_unread_param(o) < 0)
        return -1;
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
    int rc = 0;
    int placed = cloth_place_option(&o->place, a, v); /* --obstacle, --translate, --scale */
    if (placed != CLI_ARG_UNKNOWN)
        return placed;
    int param = param_option(o, a, v);
    if (param != CLI_ARG_UNKNOWN)
        return param;
    if (strcmp(a, "--size") == 0) {
        rc = cli_parse_int(a, v, CLOTH_MIN_SIZE, CLOTH_MAX_SIZE, &p->size);
    } else if (strcmp(a, "--mesh") == 0) {
        rc = cli_path_value(a, v, "an OBJ file");
        o->mesh_path = v;
    } else if (strcmp(a, "--up") == 0) {
        rc = cli_parse_choice(a, v, cloth_up_from_name, CLOTH_UP_NAMES, &o->up);
        o->have_up = 1;
    } else if (strcmp(a, "--subdivide") == 0) {
        rc = cli_parse_int(a, v, 0, CLOTH_MAX_SUBDIVIDE, &o->subdivide);
        p->have_subdivide = 1;
    } else if (strcmp(a, "--model") == 0) {
        char names[128];
        rc = cli_parse_choice(a, v, cloth_force_model_from_name,
                              cloth_force_model_list(", ", names, sizeof names), &o->model);
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
    } else if (strcmp(a, "--method") == 0 || strcmp(a, "--tol") == 0) {
        /* solve's reading of them (the library's range of tol), and what
         * was given, for solve's refusal (cloth_cli_parse) */
        return cli_settings_arg(&o->settings, a, v);
    } else if (p->takes_out && strcmp(a, "--out") == 0) {
        rc = cli_path_value(a, v, "a directory");
        o->out = v;
    } else if (p->takes_files && strcmp(a, "--obj") == 0) {
        rc = cli_path_value(a, v, "a directory");
        o->obj = v;
    } else if (p->takes_files && strcmp(a, "--csv") == 0) {
        rc = cli_path_value(a, v, "a file name");
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
    cli_settings_init(&o->settings);
    o->place.argc = argc;
    o->place.argv = argv;
    struct cloth_parse p = {o, takes_out, takes_files, NULL, 0, 0};
    int rc = cli_parse_args(argc, argv, command, cloth_option, &p);
    if (rc == 1)
        cloth_cli_usage(stdout, usage);
    if (rc)
        return rc;
    int s = check_scene(o, p.scene, p.size, p.have_subdivide, takes_out, usage);
    if (s < 0 || cli_settings_check(&o->settings, command))
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
    if (o->have_dt)
        o->par.dt = o->dt;
    if (o->have_density)
        o->par.density = o->density;
    if (o->have_self_contact)
        o->par.self_contact = o->self_contact;
    o->par.model = o->model;
    for (int k = 0; k < CLOTH_PARAM_COUNT; k++)
        if (o->param_given[k])
            cloth_param_set(&o->par, k, o->param[k]);
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

void cloth_cli_refused(const char *command, const cloth_params *par, int up,
                       const double moved[3], const char *msg)
{
    const char *hint = cloth_place_hint(msg, par->mesh != NULL);
    if (hint[0]) { /* another --up would only turn the mesh off the body */
        cli_error("%s: %s%s", command, msg, hint);
        return;
    }
    int other = par->mesh ? cloth_scene_suggest_up(par, (cloth_up)up, moved) : -1;
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
    cloth_cli_refused(o->command, &o->par, o->up,
                      o->place.have_translate ? o->place.translate : NULL, msg);
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
    char model[96];
    cloth_force_model_describe(o->par.model)->summary(&o->par, model, sizeof model);
    snprintf(buf, len, "%s on %s%s (%d vertices%s%s)%s", name, file_name(o->mesh_path),
             rounds, nodes,
             o->up != CLOTH_UP_Z ? ", up " : "", o->up != CLOTH_UP_Z ? cloth_up_name(o->up) : "",
             model);
}

void cloth_cli_tol_text(const struct cloth_cli *o, char *buf, size_t len)
{
    const corepcg_settings *set = &o->settings.set;
    if (corepcg_method_takes(set->method, COREPCG_OPTION_TOL))
        snprintf(buf, len, ", tol %g", set->tol);
    else if (len > 0)
        buf[0] = '\0';
}

void cloth_cli_free(struct cloth_cli *o)
{
    cloth_mesh_free(&o->mesh);
    cloth_place_free(&o->place);
}

/* The column of gen's and simulate's option texts. */
#define CLOTH_CLI_COLUMN 19

/* "1e-5" for 1e-05: the defaults as the help has always written them. */
static void number_text(double value, char *buf, size_t len)
{
    snprintf(buf, len, "%g", value);
    char *e = strchr(buf, 'e');
    if (!e)
        return;
    char *digits = e + 1 + (e[1] == '-' || e[1] == '+');
    char *first = digits;
    while (*first == '0' && first[1])
        first++;
    memmove(digits, first, strlen(first) + 1);
    if (e[1] == '+')
        memmove(e + 1, e + 2, strlen(e + 2) + 1);
}

/* The entry of one force model's option. */
static void param_usage(FILE *out, int param)
{
    const cloth_param_info *d = cloth_param_describe(param);
    char who[128] = "", range[96] = "", value[32], text[512];
    int all = 1;
    for (int m = 0; m < cloth_force_model_count(); m++)
        all &= cloth_force_model_takes(m, param);
    if (!all) {
        takers(param, "/", who, sizeof who);
        strcat(who, ": ");
    }
    /* the range said where it is more than "not negative" */
    if (d->min != 0.0 || d->max != CLOTH_PARAM_MAX || d->min_open || d->max_open) {
        char r[80];
        snprintf(range, sizeof range, ", in %s", cloth_param_range(param, r, sizeof r));
    }
    number_text(d->default_value, value, sizeof value);
    snprintf(text, sizeof text, "%s%s%s%s%s (default %s%s%s)", who, d->help,
             d->unit[0] ? " in " : "", d->unit, range, value, d->note ? "; " : "",
             d->note ? d->note : "");
    cli_usage_entry(out, CLOTH_CLI_COLUMN, d->flag, d->value, text);
}

/* --model's entry and each force model's option. */
static void models_usage(FILE *out)
{
    char text[1024] = "the mesh's forces: ";
    for (int m = 0; m < cloth_force_model_count(); m++) {
        const cloth_force_model_ops *row = cloth_force_model_describe(m);
        size_t used = strlen(text);
        snprintf(text + used, sizeof text - used, "%s%s (%s%s)", m ? " | " : "", row->name,
                 m == CLOTH_MODEL_SPRINGS ? "default: " : "", row->description);
    }
    cli_usage_entry(out, CLOTH_CLI_COLUMN, "--model", "M", text);
    for (int k = 0; k < CLOTH_PARAM_COUNT; k++)
        if (cloth_param_describe(k)->flag)
            param_usage(out, k);
}

/* Prints text[0 .. len) through cli_usage (its @METHODS@ filled in). */
static void usage_part(FILE *out, const char *text, size_t len)
{
    char *part = malloc(len + 1);
    if (!part)
        return;
    memcpy(part, text, len);
    part[len] = '\0';
    cli_usage(out, part);
    free(part);
}

void cloth_cli_usage(FILE *out, const char *usage)
{
    static const char marker[] = "@cloth:";
    const char *p = usage, *at;
    while ((at = strstr(p, marker))) {
        usage_part(out, p, (size_t)(at - p));
        const char *name = at + sizeof marker - 1, *end = strchr(name, '@');
        size_t len = end ? (size_t)(end - name) : strlen(name);
        if (len == 6 && strncmp(name, "models", 6) == 0)
            models_usage(out);
        if (len == 11 && strncmp(name, "model_names", 11) == 0) { /* inline */
            char names[128];
            fputs(cloth_force_model_list(", ", names, sizeof names), out);
        }
        for (int k = 0; k < CLOTH_PARAM_COUNT; k++)
            if (strlen(cloth_param_describe(k)->name) == len &&
                strncmp(name, cloth_param_describe(k)->name, len) == 0)
                param_usage(out, k);
        p = end ? end + 1 : name + len;
        p += *p == '\n'; /* the entry ends its own line */
    }
    cli_usage(out, p);
}
