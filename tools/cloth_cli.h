/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cloth_cli.h -- the options `corepcg gen` and `corepcg simulate` share:
 * the scene, its source (a grid or a mesh), its parameters and the solver
 * settings used in the loop. */
#ifndef COREPCG_CLOTH_CLI_H
#define COREPCG_CLOTH_CLI_H

#include "cli_settings.h"
#include "cloth.h"
#include "cloth_place.h"
#include "corepcg.h"

#include <stdio.h>

/* The --help lines of the mesh options gen and simulate share (--up:
 * bench too). */
#define CLOTH_CLI_MESH_USAGE                                                        \
    "  --mesh FILE.obj  a triangle mesh in metres (v and f lines; polygons are\n"   \
    "                   fanned; vertices keep the file's order; every other\n"     \
    "                   statement is skipped, and said so on stderr)\n"
#define CLOTH_CLI_UP_USAGE                                                          \
    "  --up AXIS        the mesh's up axis: x | y | z (default) | -x | -y | -z\n"   \
    "                   (Blender's OBJ export: y); the mesh is turned to z-up\n"    \
    "                   on read, and stays so in every output\n"

struct cloth_cli {
    const char *command;  /* "gen" or "simulate", for messages            */
    cloth_params par;     /* complete after cloth_cli_load                */
    int steps;            /* 0 when --steps was not given                 */
    cli_settings settings; /* --method, --tol, read and refused as solve
                              reads them (cli_settings.h)         */
    const char *out;      /* gen: --out DIR                               */
    const char *obj;      /* simulate: --obj DIR                          */
    const char *csv;      /* simulate: --csv FILE                         */
    const char *mesh_path; /* --mesh FILE.obj, or NULL (the grid)         */
    int subdivide;        /* --subdivide K                                */
    int up;               /* --up: the file's up axis (cloth_up; z)      */
    cloth_mesh mesh;      /* read by cloth_cli_load, turned z-up          */
    char skipped[768];    /* "sheet.obj: skipped 3 'vt' lines", or ""     */
    /* options given, applied over the source's defaults */
    int have_dt, have_density, have_self_contact, have_up;
    double dt, density;
    int self_contact;
    int model;            /* --model: a row of cloth_force_model          */
    double param[CLOTH_PARAM_COUNT]; /* the force models' options given   */
    int param_given[CLOTH_PARAM_COUNT]; /* 0, or its place among them (1:
                                           the first given)              */
    int params_given;
    struct cloth_place place; /* --obstacle, --translate, --scale         */
};

/* Parses argv[1..]: SCENE, --size or --mesh (with --subdivide, --up), --model
 * and the force models' options (cloth_param_describe: --k-stretch, and
 * for fem --poisson, --bending, --mass-damping), --dt, --density, --self-contact, --steps, --method, --tol, and whichever
 * of --out / --obj / --csv the command takes (the flags say which).
 * --tol given for a --method that ignores it is refused as `solve`
 * refuses it (cli_settings_check).
 * Returns 0, 1 after --help (usage printed), or -1 after a usage error
 * (message printed). */
int cloth_cli_parse(int argc, char **argv, const char *command,
                    const char *usage, int takes_out, int takes_files,
                    struct cloth_cli *o);

/* Reads, turns (--up) and subdivides the mesh (if any) and completes
 * o->par; the statements the reader skipped are said on stderr. 0, or -1
 * after printing the error (the file, the line and what is wrong). */
int cloth_cli_load(struct cloth_cli *o);

/* Prints usage as cli_usage does, with "@cloth:models@" replaced by the
 * entries of --model and of the force models' options (--poisson, ...),
 * "@cloth:NAME@" by the entry of the parameter NAME alone ("bending"),
 * and "@cloth:model_names@", within a line, by the models' names
 * ("springs, fem"), from the library's descriptions. */
void cloth_cli_usage(FILE *out, const char *usage);

/* Reads the OBJ file at path and turns it z-up from `up` (cloth_up); the
 * statements skipped are said on stderr and, when skipped_note is not
 * NULL, kept there ("skipped 3 'vt' lines", or ""). 0, or -1 after
 * printing the error. */
int cloth_cli_read_mesh(const char *command, const char *path, int up, cloth_mesh *mesh,
                        char *skipped_note, size_t len);

/* Refuses a garment that passes through itself at the start: `mesh` is
 * `read` (the file at path, its lines kept) after `levels` rounds of
 * subdivision and the moves. 0, or -1 after printing how many triangle
 * pairs cross, one of them (the file's lines) and what to do. */
int cloth_cli_self_check(const char *command, const char *path, const cloth_mesh *read,
                         int levels, const cloth_mesh *mesh);

/* Prints "COMMAND: MSG" for a simulation par refused, and for a mesh
 * read with `up` (and moved by `moved`, --translate, or NULL) the --up
 * under which it would start. */
void cloth_cli_refused(const char *command, const cloth_params *par, int up,
                       const double moved[3], const char *msg);

/* The simulation of o->par. 0, or -1 after printing why not; a mesh
 * scene refused for its start is told which --up would start it. */
int cloth_cli_create(const struct cloth_cli *o, cloth_sim **sim);

/* "ballhit 41x41" or "garment on tshirt.obj (3021 vertices)", and what
 * the force model's row adds (fem: ", fem (nu 0.3, bending 1e-05 N m)"). */
void cloth_cli_describe(const struct cloth_cli *o, int nodes, char *buf, size_t len);

/* ", tol 1e-05" for the steps' messages, or "" where --method takes no
 * tol (direct: its tol would be a figure nothing used). */
void cloth_cli_tol_text(const struct cloth_cli *o, char *buf, size_t len);

void cloth_cli_free(struct cloth_cli *o);

#endif
