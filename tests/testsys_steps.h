/* SPDX-License-Identifier: GPL-2.0-or-later */
/* testsys_steps.h -- a simulator's step sequence of testsys systems, for
 * test_step_sequence and the fuzz target fuzz_steps, built without the
 * library.
 *
 * A scene is a g x g cloth-like grid (testsys) plus what a simulator
 * changes between steps: "contact" springs between nodes that no grid
 * spring joins (they come, go, move to other node pairs and come back),
 * each node's constraint (ndof 3 -> 2 -> 0 -> 1 -> 3), which stretch
 * pairs are handed over and how, the scale of A and the form of its
 * arrays. Each step's system has new random values for the scene's
 * pattern. A stays SPD whatever the scene does.
 *
 * An FEM scene (steps_init_fem) also splits every quad of the grid into
 * two triangles along one of its diagonals and hands the diagonals over
 * as stretch pairs too (every triangle edge, as the FEM cloth does). Its
 * elements, beside the springs: a hinge on each chosen pair of triangles
 * that share an edge, a rank-one PSD k g g^T over their four nodes, whose
 * blocks between the two vertices opposite the edge (the "wings", which
 * no stretch pair joins) are not symmetric; and optionally a rank-two PSD
 * membrane per triangle. Hinges come and go, their stiffness jumps and
 * the triangulation changes between steps.
 *
 * A shape is what the methods' symbolic analyses depend on (A's block
 * pattern, each node's ndof, the set of stretch pairs), taken from
 * testsys's own blocks; steps_expected_reuse says, per method, whether
 * an update from one shape to the next must keep the analysis. */
#ifndef COREPCG_TESTSYS_STEPS_H
#define COREPCG_TESTSYS_STEPS_H

#include "testsys.h"

#define STEPS_MAX_G 8
#define STEPS_MAX_NODES (STEPS_MAX_G * STEPS_MAX_G)
#define STEPS_MAX_CONTACTS 8
/* 64 nodes x (1 + 12 spring partners) + both blocks of every contact +
 * both blocks of the wings of a hinge across each grid edge */
#define STEPS_MAX_BLOCKS (STEPS_MAX_NODES * 13 + 2 * STEPS_MAX_CONTACTS + \
                          4 * (STEPS_MAX_G - 1) * (STEPS_MAX_G - 2))
/* grid edges (stretch springs) and quad diagonals */
#define STEPS_MAX_PAIRS (3 * STEPS_MAX_NODES)
#define STEPS_MAX_TRIANGLES (2 * (STEPS_MAX_G - 1) * (STEPS_MAX_G - 1))
#define STEPS_MAX_HINGES (3 * (STEPS_MAX_G - 1) * (STEPS_MAX_G - 1))

typedef struct steps_contact {
    int a, b;
    double k; /* stiffness beside the unit mass */
} steps_contact;

typedef enum steps_stretch {
    STEPS_STRETCH_ALL,      /* every stretch spring, (min, max), in order */
    STEPS_STRETCH_SUBSET,   /* about two thirds of them */
    STEPS_STRETCH_SHUFFLED, /* all, in another order and orientation each
                               step */
    STEPS_STRETCH_COUNT
} steps_stretch;

typedef struct steps_scene {
    testsys_rng rng;
    unsigned long seed;
    int g, N;
    double k_stretch;          /* beside mass 1 (shear /25, bend /100) */
    double scale;              /* of A this step */
    int ncontacts;
    steps_contact contacts[STEPS_MAX_CONTACTS];
    int hist_n[2];             /* the contacts of the last two steps */
    steps_contact hist[2][STEPS_MAX_CONTACTS];
    int ndof[STEPS_MAX_NODES];
    double p[STEPS_MAX_NODES][3], q[STEPS_MAX_NODES][3];
    steps_stretch stretch;
    unsigned long subset_seed; /* which pairs STEPS_STRETCH_SUBSET drops */
    corepcg_format format;
    corepcg_triangle triangle;
    /* FEM scenes only (fem 1) */
    int fem;
    unsigned char split[STEPS_MAX_NODES]; /* quad (x, y) at y g + x: its
                                             diagonal from (x, y) (0) or
                                             from (x + 1, y) (1) */
    double k_hinge;            /* beside k_stretch; 0: no hinges */
    double hinge_share;        /* of the interior edges, which ... */
    unsigned long hinge_seed;  /* ... this seed chooses */
    double k_membrane;         /* beside k_stretch; 0: no membranes */
} steps_scene;

/* A g x g grid (3 <= g <= STEPS_MAX_G), a quarter of the nodes
 * constrained, three contacts, CSC LOWER, every stretch pair. */
void steps_init(steps_scene *sc, unsigned long seed, int g, double k_stretch);

/* The same grid triangulated, an FEM scene: hinges on every interior
 * edge and membranes on every triangle. */
void steps_init_fem(steps_scene *sc, unsigned long seed, int g,
                    double k_stretch);

/* The change of A's pattern before the next step; call once per step
 * after the first (it also keeps the history R returns to):
 *   K keep; M move a contact to another node pair (the same number of
 *   blocks); S two contacts trade partners (the same number of blocks in
 *   every column: only the row indices change); A add a contact; D drop
 *   one; R back to the contacts of two steps ago; N another grid size
 *   (contacts and constraints made afresh; an FEM scene's triangulation
 *   too).
 * and in FEM scenes (elsewhere these keep the pattern):
 *   H hinges on another set of interior edges (all of them, about 40%,
 *   or about 5%: often one or none) with a new stiffness; O no hinges; J
 *   the hinges' stiffness jumps 10 to 100 times up or down; T one to
 *   three quads take their other diagonal (the stretch pairs change); E
 *   membranes on or off; F a few hinges (as H's 5%), one wing of each
 *   fixed (ndof 0). */
void steps_change_pattern(steps_scene *sc, char action);

/* Node i goes on to the next kind (3 -> 2 -> 0 -> 1 -> 3 free
 * directions), with new random directions. */
void steps_advance_node(steps_scene *sc, int i);

/* Every constrained node keeps its kind with new random directions. */
void steps_redirect(steps_scene *sc);

/* This step's system (new values for the scene's pattern; step seeds
 * them). Returns 0, or -1 out of memory (t is then freed). */
int steps_build(steps_scene *sc, int step, testsys *t);

/* The hinges of this step (an FEM scene's, 0 otherwise). */
int steps_hinge_count(const steps_scene *sc);

/* 1 when the matrix core of t (its diagonal blocks and t's stretch
 * pairs' blocks) leaves out a block that is not symmetric, between two
 * nodes that both keep a free direction: a pair of an element's nodes
 * that no stretch pair joins (a hinge's wings; any pair of an element
 * whose stretch pair was not handed over). Known from the scene, not from
 * A's values; t is this step's system from steps_build. Else every block
 * the core leaves out (springs and contacts, or element blocks next to a
 * fixed node, which the projection zeroes) leaves a PSD remainder, and
 * the plain core is SPD. */
int steps_left_out_asymmetric(const steps_scene *sc, const testsys *t);

typedef struct steps_shape {
    int N, nblocks;
    int bp[STEPS_MAX_NODES + 1], bi[STEPS_MAX_BLOCKS];
    int ndof[STEPS_MAX_NODES];
    int nstretch;
    int pairs[2 * STEPS_MAX_PAIRS]; /* (min, max), sorted */
} steps_shape;

void steps_shape_of(const testsys *t, steps_shape *s);
int steps_same_blocks(const steps_shape *a, const steps_shape *b);

/* What changed between two shapes (1 = changed; a new N changes all). */
typedef struct steps_change {
    int N, blocks, ndof, stretch;
    int fixed; /* the set of ndof 0 nodes */
    int full;  /* the set of ndof 3 nodes */
} steps_change;

steps_change steps_change_of(const steps_shape *a, const steps_shape *b);

/* The analysis_reused an update across change c must report, from each
 * method's same_pattern (src/method_*.c, and corepcg_update's comment):
 * 1, 0, or -1 where it is not determined by c alone (auto with N kept:
 * its candidates keep their analyses while their patterns hold, but one
 * that never ran on this pattern analyses on its first step). */
int steps_expected_reuse(corepcg_method m, const steps_change *c);

/* auto: 1 when an update across c may report analysis_reused 1, given
 * the candidate it chose (info.method_used); 0 when it must report 0. */
int steps_auto_reuse_allowed(corepcg_method used, const steps_change *c);

#endif
