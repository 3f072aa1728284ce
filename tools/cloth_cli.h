/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cloth_cli.h -- the options `corepcg gen` and `corepcg simulate` share:
 * the scene, its source (a grid or a mesh), its parameters and the solver
 * settings used in the loop. */
#ifndef COREPCG_CLOTH_CLI_H
#define COREPCG_CLOTH_CLI_H

#include "cloth.h"
#include "corepcg.h"

struct cloth_cli {
    const char *command;  /* "gen" or "simulate", for messages            */
    cloth_params par;     /* complete after cloth_cli_load                */
    int steps;            /* 0 when --steps was not given                 */
    corepcg_settings set; /* --method, --tol                              */
    const char *out;      /* gen: --out DIR                               */
    const char *obj;      /* simulate: --obj DIR                          */
    const char *csv;      /* simulate: --csv FILE                         */
    const char *mesh_path; /* --mesh FILE.obj, or NULL (the grid)         */
    int subdivide;        /* --subdivide K                                */
    cloth_mesh mesh;      /* read by cloth_cli_load                       */
    /* options given, applied over the source's defaults */
    int have_dt, have_k, have_density, have_self_contact;
    double dt, k_stretch, density;
    int self_contact;
    int model;            /* --model: cloth_force_model                   */
    const char *fem_option; /* the first FEM-only option given, or NULL   */
    double poisson, bending, mass_damping; /* --poisson, --bending,
                                              --mass-damping, when given */
    int have_poisson, have_bending, have_mass_damping;
};

/* Parses argv[1..]: SCENE, --size or --mesh (with --subdivide), --model
 * (with --poisson, --bending, --mass-damping for fem), --k-stretch,
 * --dt, --density, --self-contact, --steps, --method, --tol, and whichever
 * of --out / --obj / --csv the command takes (the flags say which).
 * Returns 0, 1 after --help (usage printed), or -1 after a usage error
 * (message printed). */
int cloth_cli_parse(int argc, char **argv, const char *command,
                    const char *usage, int takes_out, int takes_files,
                    struct cloth_cli *o);

/* Reads and subdivides the mesh (if any) and completes o->par. 0, or -1
 * after printing the error (the file, the line and what is wrong). */
int cloth_cli_load(struct cloth_cli *o);

/* The usage lines of --model and its options, which every mesh command
 * prints. */
#define CLOTH_CLI_MODEL_USAGE \
    "  --model M        the mesh's forces: springs (default: stretch springs on\n" \
    "                   the edges, bending springs across them) | fem\n" \
    "                   (StVK membranes on the triangles, --k-stretch their 2D\n" \
    "                   Young's modulus in N/m; discrete-shell hinges on the\n" \
    "                   interior edges; Rayleigh damping)\n" \
    "  --poisson NU     fem: Poisson ratio, in (-1, 0.5) (default 0.3)\n" \
    "  --bending KB     fem: bending stiffness in N m (default 1e-5)\n" \
    "  --mass-damping A fem: Rayleigh alpha in 1/s (default 0; beta is 1e-3 s)\n"

/* "ballhit 41x41" or "garment on tshirt.obj (3021 vertices)", and with
 * --model fem ", fem (nu 0.3, bending 1e-05 N m)". */
void cloth_cli_describe(const struct cloth_cli *o, int nodes, char *buf, size_t len);

void cloth_cli_free(struct cloth_cli *o);

#endif
