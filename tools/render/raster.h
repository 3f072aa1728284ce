/* SPDX-License-Identifier: GPL-2.0-or-later */
/* raster.h -- triangles shaded and z-buffered into an RGB image, seen
 * along one axis (orthographic). */
#ifndef COREPCG_RASTER_H
#define COREPCG_RASTER_H

typedef enum raster_view {
    RASTER_FRONT = 0, /* from -y: screen x = x, up = z (the body faces -y) */
    RASTER_SIDE,      /* from +x: screen x = y, up = z                     */
    RASTER_TOP        /* from +z: screen x = x, up = y                     */
} raster_view;

typedef struct raster {
    int width, height;
    unsigned char *rgb;    /* height rows of 3 width bytes   */
    double *depth;         /* width height: nearest so far   */
    raster_view view;
    double lo[2], scale;   /* pixel = (p - lo) scale + offset, */
    double offset[2];      /* the box centred                   */
} raster;

/* A white image framing the box lo..hi (3D) in `view`, with a margin;
 * -1 when out of memory. */
int raster_init(raster *r, int width, int height, raster_view view,
                const double lo[3], const double hi[3]);
void raster_free(raster *r);

/* Triangle a b c (3D points) in colour rgb, lit by its normal (both
 * sides), kept where it is nearer than what is there. */
void raster_triangle(raster *r, const double *a, const double *b, const double *c,
                     const unsigned char rgb[3]);

#endif
