/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cloth.h -- the cloth simulator (mass-spring, or FEM on a mesh) that
 * feeds corepcg real systems (docs/design.md, "The simulator"; Ye,
 * Webber & Wang §5), all of it: for the tools, the benchmark and the
 * tests. cloth/'s own files include only the headers they use, which
 * layer as
 *
 *   cloth_mesh.h  <  cloth_scene.h  <  cloth_model.h  <  cloth_sim.h
 *
 * (meshes; scenes and obstacles; parameters, springs, the model, FEM
 * elements and the force models' rows, with the model's equations;
 * the simulation and its output), each including only those below it
 * (tests/layers.py checks it).
 *
 * Conventions: functions return a corepcg status (0 OK, negative error)
 * and write a one-line reason into msg (COREPCG_MSG_SIZE bytes, may be
 * NULL). The library never prints and keeps no global state.
 */
#ifndef COREPCG_CLOTH_H
#define COREPCG_CLOTH_H

#include "cloth_mesh.h"
#include "cloth_scene.h"
#include "cloth_model.h"
#include "cloth_sim.h"

#endif /* COREPCG_CLOTH_H */
