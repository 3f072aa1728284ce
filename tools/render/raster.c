/* SPDX-License-Identifier: GPL-2.0-or-later */
/* raster.c -- scan conversion by barycentric coordinates at pixel
 * centres over each triangle's bounding box, a depth buffer, and Lambert
 * shading from a fixed light over the viewer's shoulder. */
#include "raster.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MARGIN 8 /* pixels round the framed box */

/* (screen right, screen up, towards the viewer) of a 3D point. */
static void project(raster_view view, const double *p, double out[3])
{
    switch (view) {
    case RASTER_SIDE:
        out[0] = p[1], out[1] = p[2], out[2] = p[0];
        break;
    case RASTER_TOP:
        out[0] = p[0], out[1] = p[1], out[2] = p[2];
        break;
    default:
        out[0] = p[0], out[1] = p[2], out[2] = -p[1];
        break;
    }
}

int raster_init(raster *r, int width, int height, raster_view view, const double lo[3],
                const double hi[3])
{
    memset(r, 0, sizeof *r);
    r->width = width;
    r->height = height;
    r->view = view;
    r->rgb = malloc(3 * (size_t)width * (size_t)height);
    r->depth = malloc((size_t)width * (size_t)height * sizeof *r->depth);
    if (!r->rgb || !r->depth) {
        raster_free(r);
        return -1;
    }
    memset(r->rgb, 255, 3 * (size_t)width * (size_t)height);
    for (long k = 0; k < (long)width * height; k++)
        r->depth[k] = -INFINITY;
    double a[3], b[3];
    project(view, lo, a);
    project(view, hi, b);
    double span[2] = {fabs(b[0] - a[0]), fabs(b[1] - a[1])};
    r->lo[0] = fmin(a[0], b[0]);
    r->lo[1] = fmin(a[1], b[1]);
    double sx = span[0] > 0 ? (width - 2 * MARGIN) / span[0] : INFINITY;
    double sy = span[1] > 0 ? (height - 2 * MARGIN) / span[1] : INFINITY;
    r->scale = fmin(sx, sy);
    if (!isfinite(r->scale))
        r->scale = 1.0;
    /* centred */
    r->offset[0] = 0.5 * (width - span[0] * r->scale);
    r->offset[1] = 0.5 * (height - span[1] * r->scale);
    return 0;
}

void raster_free(raster *r)
{
    free(r->rgb);
    free(r->depth);
    memset(r, 0, sizeof *r);
}

void raster_triangle(raster *r, const double *a, const double *b, const double *c,
                     const unsigned char rgb[3])
{
    double p[3][3];
    project(r->view, a, p[0]);
    project(r->view, b, p[1]);
    project(r->view, c, p[2]);
    /* brightness from the view-space normal, either side lit alike */
    double e1[3], e2[3], n[3];
    for (int k = 0; k < 3; k++) {
        e1[k] = p[1][k] - p[0][k];
        e2[k] = p[2][k] - p[0][k];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(len > 0))
        return;
    const double light[3] = {-0.36, 0.48, 0.8}; /* unit: up-left, towards the viewer */
    double lambert = fabs(n[0] * light[0] + n[1] * light[1] + n[2] * light[2]) / len;
    double shade = 0.25 + 0.75 * lambert;
    unsigned char colour[3];
    for (int k = 0; k < 3; k++)
        colour[k] = (unsigned char)lrint(rgb[k] * shade);
    /* pixel coordinates: x right, y down */
    double x[3], y[3];
    for (int v = 0; v < 3; v++) {
        x[v] = (p[v][0] - r->lo[0]) * r->scale + r->offset[0];
        y[v] = r->height - ((p[v][1] - r->lo[1]) * r->scale + r->offset[1]);
    }
    double area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
    if (fabs(area) < 1e-12)
        return;
    int x0 = (int)fmax(0, floor(fmin(x[0], fmin(x[1], x[2]))));
    int x1 = (int)fmin(r->width - 1, ceil(fmax(x[0], fmax(x[1], x[2]))));
    int y0 = (int)fmax(0, floor(fmin(y[0], fmin(y[1], y[2]))));
    int y1 = (int)fmin(r->height - 1, ceil(fmax(y[0], fmax(y[1], y[2]))));
    for (int py = y0; py <= y1; py++)
        for (int px = x0; px <= x1; px++) {
            double cx = px + 0.5, cy = py + 0.5;
            double w0 = ((x[1] - cx) * (y[2] - cy) - (x[2] - cx) * (y[1] - cy)) / area;
            double w1 = ((x[2] - cx) * (y[0] - cy) - (x[0] - cx) * (y[2] - cy)) / area;
            double w2 = 1.0 - w0 - w1;
            if (w0 < 0 || w1 < 0 || w2 < 0)
                continue;
            double z = w0 * p[0][2] + w1 * p[1][2] + w2 * p[2][2];
            long at = (long)py * r->width + px;
            if (!(z > r->depth[at]))
                continue;
            r->depth[at] = z;
            memcpy(&r->rgb[3 * at], colour, 3);
        }
}
