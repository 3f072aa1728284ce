/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd_bench.c -- `corepcg bench`: every method on the same simulator
 * steps, side by side; options, then the run and its outputs. */
#include "bench.h"
#include "cli.h"
#include "cloth.h"
#include "cloth_cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: corepcg bench [options]\n"
    "  --scene LIST     of ballhit, drape, pinned, rail, free (on each grid\n"
    "                   size), hang, garment, dressed (on the mesh) (default\n"
    "                   ballhit,drape,pinned,garment,dressed: the fastest\n"
    "                   method changes with the scene; --quick, --scaling:\n"
    "                   ballhit)\n"
    "  --mesh FILE.obj  the mesh of hang and garment (default\n"
    "                   data/meshes/tshirt.obj, a T-shirt of 3560 vertices)\n"
    "  --subdivide LIST the mesh's midpoint-subdivision levels, each run like a\n"
    "                   grid size (4^K triangles; default 0; --scaling: 0, 1,\n"
    "                   ... up to --max-unknowns)\n"
    "  --max-unknowns N --scaling on a mesh: the levels whose 3 x vertices stay\n"
    "                   within N, level 0 always (default 1000000: tshirt.obj\n"
    "                   0..3, 672,978)\n"
    CLOTH_CLI_UP_USAGE
    "  --obstacle FILE.obj, --translate X Y Z, --scale S  as in simulate\n"
    "  --model LIST     of @cloth:model_names@: the mesh scenes' forces, each mesh\n"
    "                   scene run once per model, a table each (default\n"
    "                   springs,fem; fem: StVK membranes, discrete-shell\n"
    "                   hinges, k their 2D Young's modulus; its tables and\n"
    "                   cases are labelled \"(fem)\"; the grids stay springs)\n"
    "@cloth:bending@\n"
    "                   (its cases are labelled \"(fem, bending KB)\")\n"
    "  --self-contact on|off\n"
    "                   repulsion springs in the mesh scenes (default: on in\n"
    "                   garment, off in hang)\n"
    "  --sizes LIST     nodes per side, e.g. 41,81,161 (default)\n"
    "  --k LIST         stretch stiffness k_stretch in N/m, e.g. 60,600,6000\n"
    "                   (default; --scaling: 6000)\n"
    "  --methods LIST   of @METHOD_LIST@\n"
    "                   (default: all)\n"
    "  --steps K        measured steps per case (default 5; --scaling: warm\n"
    "                   steps after the cold one, their median, default 1)\n"
    "  --tol LIST       every iterative method's tolerance, a table each\n"
    "                   (default 1e-5,1e-3; --quick, --scaling: 1e-5)\n"
    "  --csv FILE       one row per scene, tol, size, k and method\n"
    "  --svg FILE       seconds per step against k_stretch, a panel per scene\n"
    "                   and size (at the first tol)\n"
    "  --markdown FILE  the tables and the machine they came from\n"
    "  --quick          41x41, k 60 and 6000, 2 steps (well under a minute)\n"
    "  --simulations S  whole simulations of S steps, one per method (default\n"
    "                   auto's candidates and auto:\n"
    "                   @AUTO_METHODS@; sizes 41,81;\n"
    "                   k 60,6000; tol 1e-5): the solver's seconds summed, auto\n"
    "                   against the fastest, probes and re-checks included; the steps\n"
    "                   whose A changed pattern (garment: self-contact)\n"
    "  --scaling        per size (default 41,81,161,321,577), or on a mesh\n"
    "                   scene (--scene garment) per --subdivide level, a cold\n"
    "                   step and the next --steps warm on the same handle, with\n"
    "                   direct, corepcg, icpcg and auto (what it ran): seconds,\n"
    "                   iterations, true\n"
    "                   residual, factor GFlop/s, nnz(L), peak memory; each\n"
    "                   size in its own process, warmed up with upcg (icpcg\n"
    "                   on a mesh)\n";
/* The run, after the options (one string would pass C's 4095 characters). */
static const char usage_run[] =
    "Each scene, tol, size and k: the scene is stepped with auto until the\n"
    "cloth touches an obstacle (at most 100 steps; none in pinned), then\n"
    "--steps steps spread over the next 0.2 s (auto steps the cloth in\n"
    "between, so that its handle has seen every step, as in a simulation)\n"
    "are each solved by every method in turn (order rotated per step, each\n"
    "method keeping its own handle, set up on the step before: every\n"
    "measured step is a warm update + solve) and the cloth advances with\n"
    "direct's answer (corepcg's without direct, the first --methods\n"
    "entry's without either).\n"
    "exit status: 0 done, 1 error (no file written), 2 usage, 3 written but\n"
    "some method failed or did not converge (so marked in every output)\n";

/* Splits a comma list; calls one() on each item. -1 on a bad item or an
 * empty one ("5,,7", ",5": a value left out). */
static int parse_list(const char *opt, const char *text, int max,
                      int (*one)(const char *opt, const char *item, void *out, int k),
                      void *out, int *count)
{
    if (!text || !*text) {
        cli_error("%s needs a comma-separated list", opt);
        return -1;
    }
    char buf[1024];
    if (strlen(text) >= sizeof buf) {
        cli_error("%s: list too long", opt);
        return -1;
    }
    strcpy(buf, text);
    int k = 0;
    for (char *item = buf, *next; item; item = next) {
        next = strchr(item, ',');
        if (next)
            *next++ = '\0';
        if (!*item) {
            cli_error("%s: an empty item in '%s'", opt, text);
            return -1;
        }
        if (k == max) {
            cli_error("%s takes at most %d values", opt, max);
            return -1;
        }
        if (one(opt, item, out, k))
            return -1;
        k++;
    }
    if (k == 0) {
        cli_error("%s needs at least one value, got '%s'", opt, text);
        return -1;
    }
    *count = k;
    return 0;
}

/* list[k] = the value item names, refused when an earlier item of the
 * list named it too: a row run twice, or a scene benchmarked twice. */
static int one_unique(const char *opt, const char *item, int *list, int k, int value)
{
    list[k] = value;
    for (int j = 0; j < k; j++)
        if (list[j] == list[k]) {
            cli_error("%s names '%s' twice", opt, item);
            return -1;
        }
    return 0;
}

/* one_unique for a number ("60" and "6e1" are one) */
static int one_unique_number(const char *opt, const char *item, double *list, int k,
                             double value)
{
    list[k] = value;
    for (int j = 0; j < k; j++)
        if (list[j] == list[k]) {
            cli_error("%s names %g twice (as '%s')", opt, value, item);
            return -1;
        }
    return 0;
}

static int one_size(const char *opt, const char *item, void *out, int k)
{
    int size;
    if (cli_parse_int(opt, item, CLOTH_MIN_SIZE, CLOTH_MAX_SIZE, &size))
        return -1;
    return one_unique(opt, item, out, k, size);
}

static int one_k(const char *opt, const char *item, void *out, int k)
{
    double v;
    if (cli_parse_double(opt, item, 1e-300, 1e300, &v))
        return -1;
    return one_unique_number(opt, item, out, k, v);
}

static int one_tol(const char *opt, const char *item, void *out, int k)
{
    double v;
    if (cli_parse_double(opt, item, 1e-300, 0.999999, &v))
        return -1;
    return one_unique_number(opt, item, out, k, v);
}

static int one_level(const char *opt, const char *item, void *out, int k)
{
    int level;
    if (cli_parse_int(opt, item, 0, CLOTH_MAX_SUBDIVIDE, &level))
        return -1;
    return one_unique(opt, item, out, k, level);
}

static int one_scene(const char *opt, const char *item, void *out, int k)
{
    int scene;
    if (cli_parse_choice(opt, item, cloth_scene_from_name,
                         "pinned, drape, ballhit, rail, free, hang, garment, dressed",
                         &scene))
        return -1;
    return one_unique(opt, item, out, k, scene);
}

/* The methods benchmarked unless --methods names them, from the library's
 * table: every method (baseline first), or with --whole auto's candidates
 * and auto, or with --scaling the methods that factorise (CHOLMOD or
 * incomplete), whose cost grows fastest with the size, and auto, which
 * chooses among them. */
static void default_methods(bench_options *o)
{
    o->num_methods = 0;
    if (o->whole_steps && !o->scaling) {
        for (int k = 0; corepcg_auto_candidate(k) >= 0; k++)
            o->methods[o->num_methods++] = corepcg_auto_candidate(k);
        o->methods[o->num_methods++] = COREPCG_METHOD_AUTO;
        return;
    }
    for (int k = 0; corepcg_method_at(k) >= 0; k++) {
        int m = corepcg_method_at(k);
        int factorises = (corepcg_method_reports(m) &
                          (COREPCG_REPORT_CHOLMOD | COREPCG_REPORT_INCOMPLETE)) != 0;
        if (!o->scaling || factorises || m == COREPCG_METHOD_AUTO)
            o->methods[o->num_methods++] = m;
    }
}

static int one_model(const char *opt, const char *item, void *out, int k)
{
    int model;
    char names[128];
    if (cli_parse_choice(opt, item, cloth_force_model_from_name,
                         cloth_force_model_list(", ", names, sizeof names), &model))
        return -1;
    return one_unique(opt, item, out, k, model);
}

static int one_method(const char *opt, const char *item, void *out, int k)
{
    int method;
    if (cli_parse_method(opt, item, 0, &method))
        return -1;
    return one_unique(opt, item, out, k, method);
}

/* The mesh options (--mesh, --subdivide, --up, --self-contact, --model
 * fem) shape only the mesh scenes: given for a run of none, they are
 * refused rather than ignored. 0, or -1 (reported). */
static int mesh_options_unused(const bench_options *o)
{
    int mesh_scenes = 0;
    for (int e = 0; e < o->num_scenes; e++)
        mesh_scenes += bench_is_mesh_scene(o->scenes[e]);
    char mesh_only[64] = ""; /* "--model fem": a model that needs a mesh */
    for (int m = 0; m < o->num_models; m++)
        if (cloth_force_model_describe(o->models[m])->needs_mesh)
            snprintf(mesh_only, sizeof mesh_only, "--model %s",
                     cloth_force_model_name(o->models[m]));
    const char *given = o->mesh_path ? "--mesh"
                      : o->num_levels ? "--subdivide"
                      : o->up >= 0 && !o->num_obstacle_meshes ? "--up"
                      : o->self_contact >= 0 ? "--self-contact"
                      : mesh_only[0] ? mesh_only
                      : o->bending >= 0 ? "--bending" : NULL;
    if (!given || mesh_scenes)
        return 0;
    char names[160] = "";
    size_t used = 0;
    for (int e = 0; e < o->num_scenes && used < sizeof names; e++)
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
                                 e ? "," : "", cloth_scene_name(o->scenes[e]));
    cli_error("bench: %s applies to the mesh scenes (hang, garment) only, and this "
              "run's scenes are %s: add --scene garment (or hang)", given, names);
    return -1;
}

/* Which options the command line gave (their defaults depend on the mode). */
typedef struct bench_given {
    int sizes, ks, steps, methods, scenes, tols, max_unknowns;
} bench_given;

/* What bench's options fill: the options and which were given. */
struct bench_parse {
    bench_options *o;
    bench_given *g;
    struct cloth_place *place; /* --obstacle, --translate, --scale */
};

/* One argument of bench's command line (cli_parse_args). */
static int bench_option(const char *a, const char *v, void *ctx)
{
    bench_options *o = ((struct bench_parse *)ctx)->o;
    bench_given *g = ((struct bench_parse *)ctx)->g;
    int rc = 0;
    int placed = cloth_place_option(((struct bench_parse *)ctx)->place, a, v);
    if (placed != CLI_ARG_UNKNOWN)
        return placed;
    if (strcmp(a, "--quick") == 0) {
        o->quick = 1;
        return CLI_ARG_ALONE;
    } else if (strcmp(a, "--scaling") == 0) {
        o->scaling = 1;
        return CLI_ARG_ALONE;
    } else if (strcmp(a, "--simulations") == 0) {
        rc = cli_parse_int(a, v, 1, 100000, &o->whole_steps);
    } else if (strcmp(a, "--scene") == 0) {
        rc = parse_list(a, v, BENCH_MAX_LIST, one_scene, o->scenes,
                        &o->num_scenes);
        g->scenes = 1;
    } else if (strcmp(a, "--mesh") == 0) {
        rc = cli_path_value(a, v, "an OBJ file");
        o->mesh_path = v;
    } else if (strcmp(a, "--subdivide") == 0) {
        rc = parse_list(a, v, BENCH_MAX_LIST, one_level, o->levels, &o->num_levels);
    } else if (strcmp(a, "--max-unknowns") == 0) {
        int n = 0;
        rc = cli_parse_int(a, v, 3, 2000000000, &n);
        o->max_unknowns = n;
        g->max_unknowns = 1;
    } else if (strcmp(a, "--model") == 0) {
        rc = parse_list(a, v, BENCH_MAX_LIST, one_model, o->models,
                        &o->num_models);
    } else if (strcmp(a, "--bending") == 0) {
        char msg[COREPCG_MSG_SIZE];
        double value = NAN; /* not a number: out of every range */
        cli_finite_number(v, &value);
        rc = cloth_param_check(CLOTH_PARAM_BENDING, value, v ? v : "(nothing)", msg);
        if (rc != COREPCG_OK)
            cli_error("%s", msg);
        o->bending = value;
    } else if (strcmp(a, "--self-contact") == 0) {
        rc = cli_parse_choice(a, v, cli_on_off, "on, off", &o->self_contact);
    } else if (strcmp(a, "--up") == 0) {
        rc = cli_parse_choice(a, v, cloth_up_from_name, CLOTH_UP_NAMES, &o->up);
    } else if (strcmp(a, "--sizes") == 0) {
        rc = parse_list(a, v, BENCH_MAX_LIST, one_size, o->sizes, &o->num_sizes);
        g->sizes = 1;
    } else if (strcmp(a, "--k") == 0) {
        rc = parse_list(a, v, BENCH_MAX_LIST, one_k, o->ks, &o->num_ks);
        g->ks = 1;
    } else if (strcmp(a, "--methods") == 0) {
        rc = parse_list(a, v, TOOL_MAX_METHODS, one_method, o->methods,
                        &o->num_methods);
        g->methods = 1;
    } else if (strcmp(a, "--steps") == 0) {
        rc = cli_parse_int(a, v, 1, BENCH_MAX_STEPS, &o->steps);
        g->steps = 1;
    } else if (strcmp(a, "--tol") == 0) {
        rc = parse_list(a, v, BENCH_MAX_LIST, one_tol, o->tols, &o->num_tols);
        g->tols = 1;
    } else if (strcmp(a, "--csv") == 0 || strcmp(a, "--svg") == 0 ||
               strcmp(a, "--markdown") == 0) {
        if (!v || !*v || v[0] == '-') {
            cli_error("%s needs a file name, got '%s'", a, v ? v : "");
            rc = -1;
        } else if (a[2] == 'c') {
            o->csv = v;
        } else if (a[2] == 's') {
            o->svg = v;
        } else {
            o->markdown = v;
        }
    } else {
        return CLI_ARG_UNKNOWN;
    }
    return rc ? CLI_ARG_ERROR : CLI_ARG_WITH_VALUE;
}

/* The modes that do not go together: -1 (said) when some are given so. */
static int check_modes(const bench_options *o, const bench_given *g)
{
    if (o->quick + o->scaling + (o->whole_steps > 0) > 1) {
        cli_error("bench: --quick, --scaling and --simulations do not go together");
        return -1;
    }
    if (o->whole_steps && (o->svg || g->steps)) {
        cli_error("bench: --simulations writes --csv and --markdown (not --svg) "
                  "and takes its step count itself (not --steps)");
        return -1;
    }
    if (o->scaling && o->svg) {
        cli_error("bench: --scaling writes --csv and --markdown, not --svg");
        return -1;
    }
    return 0;
}

/* Sizes, k, steps and scenes as the mode has them, unless given. */
static void set_defaults(bench_options *o, const bench_given *g)
{
    if (!g->sizes) {
        static const int normal[] = {41, 81, 161}, quick[] = {41},
                         scaling[] = {41, 81, 161, 321, 577};
        const int *src = o->scaling ? scaling : o->quick ? quick : normal;
        o->num_sizes = o->scaling ? 5 : o->quick ? 1 : o->whole_steps ? 2 : 3;
        memcpy(o->sizes, src, sizeof(int) * (size_t)o->num_sizes);
    }
    if (!g->ks) {
        static const double normal[] = {60, 600, 6000}, two[] = {60, 6000},
                            scaling[] = {6000};
        const double *src = o->scaling ? scaling
                          : o->quick || o->whole_steps ? two : normal;
        o->num_ks = o->scaling ? 1 : o->quick || o->whole_steps ? 2 : 3;
        memcpy(o->ks, src, sizeof(double) * (size_t)o->num_ks);
    }
    if (!g->steps)
        o->steps = o->quick ? 2 : o->scaling ? 1 : 5;
    if (!g->scenes) {
        static const int all[] = {CLOTH_SCENE_BALLHIT, CLOTH_SCENE_DRAPE,
                                  CLOTH_SCENE_PINNED, CLOTH_SCENE_GARMENT,
                                  CLOTH_SCENE_DRESSED};
        o->num_scenes = o->quick || o->scaling ? 1 : 5;
        memcpy(o->scenes, all, sizeof(int) * (size_t)o->num_scenes);
    }
}

/* The mesh options against the scenes and the mode: -1 (said) when they
 * do not apply; the subdivision levels' defaults. */
static int check_mesh(bench_options *o, const bench_given *g)
{
    if (mesh_options_unused(o))
        return -1;
    if (g->max_unknowns && (!o->scaling || !bench_is_mesh_scene(o->scenes[0]))) {
        cli_error("bench: --max-unknowns bounds the subdivision levels of --scaling on a "
                  "mesh scene (--scaling --scene garment)");
        return -1;
    }
    if (g->max_unknowns && o->num_levels) {
        cli_error("bench: give the levels (--subdivide) or their bound (--max-unknowns), "
                  "not both");
        return -1;
    }
    if (!g->max_unknowns)
        o->max_unknowns = BENCH_SCALING_MAX_UNKNOWNS;
    if (o->scaling && g->sizes && bench_is_mesh_scene(o->scenes[0])) {
        cli_error("bench: --scaling on %s runs the mesh at each --subdivide level, "
                  "not over --sizes", cloth_scene_name(o->scenes[0]));
        return -1;
    }
    if (o->num_levels == 0 && !o->scaling) {
        o->levels[0] = 0;
        o->num_levels = 1; /* --scaling: set from the mesh (load_mesh) */
    }
    return 0;
}

/* Each mesh scene an entry per --model, in a row (a table each); the
 * grid scenes one entry, springs. */
static void scene_per_model(bench_options *o)
{
    int scenes[BENCH_MAX_LIST], models[BENCH_MAX_LIST], count = 0;
    for (int e = 0; e < o->num_scenes; e++)
        for (int m = 0; m < (bench_is_mesh_scene(o->scenes[e]) ? o->num_models : 1) &&
                        count < BENCH_MAX_LIST; m++) {
            scenes[count] = o->scenes[e];
            models[count++] = bench_is_mesh_scene(o->scenes[e]) ? o->models[m]
                                                                : CLOTH_MODEL_SPRINGS;
        }
    memcpy(o->scenes, scenes, sizeof(int) * (size_t)count);
    memcpy(o->scene_models, models, sizeof(int) * (size_t)count);
    o->num_scenes = count;
}

/* Fills o; 1 for --help, -1 on a usage error. */
static int parse(int argc, char **argv, bench_options *o, struct cloth_place *place)
{
    memset(o, 0, sizeof *o);
    o->self_contact = -1;
    o->up = -1;
    o->bending = -1;
    bench_given given = {0};
    const bench_given *g = &given;
    place->argc = argc;
    place->argv = argv;
    struct bench_parse into = {o, &given, place};
    int rc = cli_parse_args(argc, argv, "bench", bench_option, &into);
    if (rc == 1) {
        cloth_cli_usage(stdout, usage_text);
        cli_usage(stdout, usage_run);
    }
    if (rc)
        return rc;
    o->num_obstacle_meshes = place->num_obstacles; /* read by cmd_bench */
    if ((place->have_translate || place->have_scale) && !o->mesh_path) {
        cli_error("bench: --translate and --scale move a mesh (--mesh FILE.obj)");
        return -1;
    }
    if (check_modes(o, g) < 0)
        return -1;
    set_defaults(o, g);
    if (check_mesh(o, g) < 0)
        return -1;
    if (!o->num_models) { /* both physics */
        o->models[0] = CLOTH_MODEL_SPRINGS;
        o->models[1] = CLOTH_MODEL_FEM;
        o->num_models = 2;
    }
    if (!g->tols) {
        o->tols[0] = COREPCG_DEFAULT_TOL;
        o->tols[1] = 1e-3;
        o->num_tols = o->quick || o->scaling || o->whole_steps ? 1 : 2;
    }
    if (o->scaling && (o->num_scenes > 1 || o->num_tols > 1)) {
        cli_error("bench: --scaling takes one scene and one tol (its models in a row)");
        return -1;
    }
    int bends = 0;
    for (int m = 0; m < o->num_models; m++)
        bends |= cloth_force_model_takes(o->models[m], CLOTH_PARAM_BENDING);
    if (o->bending >= 0 && !bends) {
        cli_error("bench: --bending is the FEM model's: add --model fem (or springs,fem)");
        return -1;
    }
    scene_per_model(o);
    if (!g->methods)
        default_methods(o);
    o->progress = isatty(STDERR_FILENO);
    const char *outputs[] = {o->csv, o->svg, o->markdown};
    return cli_outputs_ready("bench", outputs, 3, NULL, 0) ? -2 : 0;
}

/* --scaling on a mesh without --subdivide: the levels 0, 1, ... whose
 * unknowns stay within --max-unknowns (level 0 always). */
static int scaling_levels(bench_options *o, char *msg)
{
    cloth_edge *edges = NULL;
    int num_edges = 0;
    const cloth_mesh *mesh = o->scenes[0] == CLOTH_SCENE_DRESSED ? o->dressed_mesh : o->mesh;
    int rc = cloth_mesh_edges(mesh, &edges, &num_edges, NULL, msg);
    free(edges);
    if (rc != COREPCG_OK)
        return -1;
    o->num_levels = 0;
    for (int k = 0; k <= CLOTH_MAX_SUBDIVIDE && o->num_levels < BENCH_MAX_LIST; k++) {
        long unknowns = 3 * bench_subdivided_vertices(mesh, num_edges, k);
        if (k > 0 && unknowns > o->max_unknowns)
            break;
        o->levels[o->num_levels++] = k;
    }
    return 0;
}

/* Each mesh scene starts on the mesh as read: 0, or -1 (said, with the
 * --up that would start it), before any case runs. In a child process
 * (bench_apart): freeing a mesh obstacle's Embree tree starts a thread
 * that would outlive it in the process that forks (bench_fork.c). */
static int mesh_scenes_start(const void *arg)
{
    const bench_options *o = arg;
    for (int e = 0; e < o->num_scenes; e++) {
        if (!bench_is_mesh_scene(o->scenes[e]))
            continue;
        int dressed = o->scenes[e] == CLOTH_SCENE_DRESSED;
        cloth_params par;
        cloth_params_default_mesh(&par, (cloth_scene)o->scenes[e],
                                  dressed ? o->dressed_mesh : o->mesh);
        par.num_obstacle_meshes = dressed ? 1 : o->num_obstacle_meshes;
        par.obstacle_meshes = dressed ? o->dressed_body : o->obstacle_meshes;
        cloth_sim *sim = NULL;
        char msg[COREPCG_MSG_SIZE];
        int rc = cloth_sim_create(&par, &sim, msg);
        cloth_sim_free(&sim);
        if (rc != COREPCG_OK) {
            cloth_cli_refused("bench", &par, o->up < 0 ? CLOTH_UP_Z : o->up, NULL, msg);
            return -1;
        }
    }
    return 0;
}

/* The shipped mesh `name` where it is installed or in the source tree,
 * into path; NULL (said) when it is in neither. */
static const char *shipped_mesh(const char *name, char *path, size_t len)
{
    const char *dirs = COREPCG_MESH_DIRS;
    for (const char *d = dirs; *d;) {
        size_t n = strcspn(d, ":");
        snprintf(path, len, "%.*s/%s", (int)n, d, name);
        if (access(path, R_OK) == 0)
            return path;
        d += n + (d[n] == ':');
    }
    cli_error("bench: no data/meshes/%s in %s%s", name, dirs,
              strcmp(name, "tshirt.obj") == 0 ? ": give --mesh FILE.obj" : "");
    return NULL;
}

/* The dressed scene's top and body (meshes[0], [1]), if it runs. 0, or
 * -1 (reported). */
static int load_dressed(bench_options *o, cloth_mesh meshes[2])
{
    int needed = 0;
    for (int e = 0; e < o->num_scenes; e++)
        needed |= o->scenes[e] == CLOTH_SCENE_DRESSED;
    char path[4096], msg[COREPCG_MSG_SIZE];
    if (!needed)
        return 0;
    if (!shipped_mesh("top.obj", path, sizeof path) ||
        cloth_cli_read_mesh("bench", path, CLOTH_UP_Z, &meshes[0], NULL, 0))
        return -1;
    if (!shipped_mesh("body.obj", path, sizeof path))
        return -1;
    if (cloth_mesh_read_obj_bounded(path, CLOTH_OBSTACLE_MAX_ITEMS, &meshes[1], NULL, msg)) {
        cli_error("bench: %s", msg);
        return -1;
    }
    o->dressed_mesh = &meshes[0];
    o->dressed_body = &meshes[1];
    return 0;
}

/* The garment at its finest --subdivide level crossing itself is refused
 * (in a child process, bench_apart: its Embree tree starts threads that
 * outlive it):
 * subdivision keeps the surface, and the finest level's triangles share
 * the fewest vertices, so it finds what any coarser level would. */
static int self_check(const void *arg)
{
    const bench_options *o = arg;
    const cloth_mesh *mesh = o->mesh;
    int finest = 0;
    for (int a = 0; a < o->num_levels; a++)
        finest = o->levels[a] > finest ? o->levels[a] : finest;
    cloth_mesh fine;
    char msg[COREPCG_MSG_SIZE];
    if (cloth_mesh_subdivide(mesh, finest, &fine, msg) != COREPCG_OK) {
        cli_error("bench: %s", msg);
        return -1;
    }
    int rc = cloth_cli_self_check("bench", o->mesh_path, mesh, finest, &fine);
    cloth_mesh_free(&fine);
    return rc;
}

/* The mesh for the mesh scenes, if any is run: --mesh, else tshirt.obj
 * where it is installed or in the source tree. 0, or -1 (reported). */
static int load_mesh(bench_options *o, const struct cloth_place *place, cloth_mesh *mesh,
                     char *path, size_t len)
{
    int needed = 0;
    for (int e = 0; e < o->num_scenes; e++)
        needed |= bench_is_mesh_scene(o->scenes[e]);
    if (!needed)
        return 0;
    if (!o->mesh_path && !(o->mesh_path = shipped_mesh("tshirt.obj", path, len)))
        return -1;
    char msg[COREPCG_MSG_SIZE];
    if (cloth_cli_read_mesh("bench", o->mesh_path, o->up < 0 ? CLOTH_UP_Z : o->up, mesh,
                            NULL, 0))
        return -1;
    cloth_place_mesh(place, mesh);
    const char *slash = strrchr(o->mesh_path, '/');
    o->mesh_name = slash ? slash + 1 : o->mesh_path;
    o->mesh = mesh;
    if (bench_apart(mesh_scenes_start, o, "the scenes' start check")) {
        cloth_mesh_free(mesh);
        return -1;
    }
    if (o->num_levels == 0 && scaling_levels(o, msg)) {
        cli_error("bench: %s", msg);
        cloth_mesh_free(mesh);
        return -1;
    }
    if (bench_apart(self_check, o, "the self-intersection check")) {
        cloth_mesh_free(mesh);
        return -1;
    }
    return 0;
}

/* The command line as one string, for the reports. */
static void join_command(int argc, char **argv, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "corepcg bench");
    for (int k = 1; k < argc && used < len; k++)
        used += (size_t)snprintf(buf + used, len - used, " %s", argv[k]);
}

static int fill_csv(FILE *out, const void *res)
{
    return bench_write_csv(out, res);
}

static int fill_svg(FILE *out, const void *res)
{
    return bench_write_svg(out, res);
}

struct markdown_job {
    const bench_results *res;
    const bench_env *env;
};

static int fill_markdown(FILE *out, const void *job)
{
    const struct markdown_job *j = job;
    return bench_write_markdown(out, j->res, j->env);
}

/* Said on stderr by every mode when some method failed (exit 3). */
static void failure_note(void)
{
    cli_error("bench: some methods failed or did not converge; they are marked "
              "FAILED or NOT CONVERGED in the outputs");
}

int cmd_bench(int argc, char **argv)
{
    bench_options o;
    struct cloth_place place = {0};
    int prc = parse(argc, argv, &o, &place);
    if (prc) {
        cloth_place_free(&place);
        return prc > 0 ? CLI_EXIT_OK : prc == -2 ? CLI_EXIT_ERROR : CLI_EXIT_USAGE;
    }
    char command[1024], mesh_path[4096];
    join_command(argc, argv, command, sizeof command);
    o.command = command;
    cloth_mesh mesh = {0}, dressed[2] = {{0}, {0}};
    int unread = cloth_place_load("bench", &place, o.up < 0 ? CLOTH_UP_Z : o.up);
    o.obstacle_meshes = place.obstacles;
    if (unread || load_dressed(&o, dressed) ||
        load_mesh(&o, &place, &mesh, mesh_path, sizeof mesh_path)) {
        cloth_place_free(&place);
        cloth_mesh_free(&dressed[0]);
        cloth_mesh_free(&dressed[1]);
        return CLI_EXIT_ERROR;
    }
    int status = -1;
    bench_results res = {0};
    char msg[COREPCG_MSG_SIZE];
    int rc = 0;
    if (o.scaling || o.whole_steps)
        status = o.scaling ? bench_scaling(&o) : bench_whole(&o);
    else
        rc = bench_run(&o, &res, msg);
    cloth_mesh_free(&mesh);
    cloth_mesh_free(&dressed[0]);
    cloth_mesh_free(&dressed[1]);
    cloth_place_free(&place);
    if (status == CLI_EXIT_NOT_CONVERGED)
        failure_note();
    if (status >= 0)
        return status;
    if (rc < 0) {
        cli_error("bench: %s", msg);
        free(res.cases);
        return CLI_EXIT_ERROR;
    }
    bench_print_table(stdout, &res);
    bench_env env;
    bench_env_read(&env);
    struct markdown_job job = {&res, &env};
    int bad = (o.csv && bench_write_atomic(o.csv, &res, fill_csv)) ||
              (o.svg && bench_write_atomic(o.svg, &res, fill_svg)) ||
              (o.markdown && bench_write_atomic(o.markdown, &job, fill_markdown));
    int failed = bench_any_failure(&res);
    free(res.cases);
    if (bad)
        return CLI_EXIT_ERROR;
    if (failed) {
        failure_note();
        return CLI_EXIT_NOT_CONVERGED;
    }
    return CLI_EXIT_OK;
}
