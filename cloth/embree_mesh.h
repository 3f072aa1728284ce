/* SPDX-License-Identifier: GPL-2.0-or-later */
/* embree_mesh.h -- a mesh's triangles as an Embree scene (embree_mesh.c),
 * for the obstacles' closest points (mesh_obstacle.c) and the garment's
 * self-intersection check (self_intersect.c). */
#ifndef COREPCG_EMBREE_MESH_H
#define COREPCG_EMBREE_MESH_H

#include "cloth_mesh.h"

#include <embree3/rtcore.h>

/* Embree's tree of m's triangles (its vertices copied to floats),
 * committed; filter, if not NULL, is the geometry's intersect filter.
 * NULL when Embree could not build it: rtcGetDeviceError(device) says
 * why. */
RTCScene cloth_embree_scene(RTCDevice device, const cloth_mesh *m,
                            RTCFilterFunctionN filter);

#endif /* COREPCG_EMBREE_MESH_H */
