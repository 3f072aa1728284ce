/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_svg.c -- the bench's chart: seconds per step against k_stretch,
 * log-log, one panel per scene (rows) and mesh size (columns) at the first
 * tol, sharing the y axis, one line with markers per method, a legend;
 * failed cells are drawn as a black cross at the time they took,
 * labelled "failed" or, when a step did not converge, "not converged". */
#include "bench.h"
#include "cloth.h"

#include <math.h>
#include <string.h>

#define PANEL_W 300.0
#define PANEL_H 300.0
#define GAP 40.0
#define LEFT 90.0
#define TOP 124.0
#define BOTTOM 70.0
#define RIGHT 30.0

struct axes {
    double x0, y0;           /* panel's top-left corner in pixels */
    double klo, khi;         /* log10 range of k */
    double tlo, thi;         /* log10 range of seconds */
};

static double px(const struct axes *a, double k)
{
    return a->x0 + PANEL_W * (log10(k) - a->klo) / (a->khi - a->klo);
}

static double py(const struct axes *a, double t)
{
    return a->y0 + PANEL_H * (a->thi - log10(t)) / (a->thi - a->tlo);
}

/* The method's marker (bench_method_marker) at (x, y); a circle for
 * any other name. */
static void marker(FILE *out, int method, double x, double y, const char *color)
{
    const char *shape = bench_method_marker(method);
    shape = shape ? shape : "circle";
    if (strcmp(shape, "square") == 0)
        fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\" fill=\"%s\"/>\n",
                x - 4.5, y - 4.5, color);
    else if (strcmp(shape, "triangle") == 0)
        fprintf(out, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\"/>\n",
                x, y - 6, x - 5.5, y + 4, x + 5.5, y + 4, color);
    else if (strcmp(shape, "diamond") == 0)
        fprintf(out, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\"/>\n",
                x, y - 6, x + 6, y, x, y + 6, x - 6, y, color);
    else if (strcmp(shape, "triangle-down") == 0)
        fprintf(out, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\"/>\n",
                x, y + 6, x - 5.5, y - 4, x + 5.5, y - 4, color);
    else if (strcmp(shape, "ring") == 0) /* auto's: it lies on the method it chose */
        fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"8\" fill=\"none\" "
                     "stroke=\"%s\" stroke-width=\"2\"/>\n", x, y, color);
    else
        fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5.5\" fill=\"%s\"/>\n", x, y, color);
}

static void failed_marker(FILE *out, double x, double y, const char *label)
{
    fprintf(out, "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" stroke=\"black\" "
                 "stroke-width=\"2.5\"/>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%s</text>\n",
            x - 6, y - 6, x + 6, y + 6, x - 6, y + 6, x + 6, y - 6, x + 8, y - 6, label);
}

/* "1 ms", "10 ms", "0.1 s", ... for 10^e seconds (times m). */
static void time_label(double t, char *buf, size_t len)
{
    if (t < 1e-3)
        snprintf(buf, len, "%g \xc2\xb5s", t * 1e6);
    else if (t < 1)
        snprintf(buf, len, "%g ms", t * 1e3);
    else
        snprintf(buf, len, "%g s", t);
}

/* The case of scene row e, size column s, k b at the first tol. */
static const bench_case *case_at(const bench_results *res, int e, int s, int b)
{
    const bench_options *o = res->opt;
    int first = 0;
    for (int k = 0; k < e; k++)
        first += o->num_tols * bench_group_size(o, o->scenes[k]);
    return &res->cases[first + s * o->num_ks + b];
}

static void panel(FILE *out, const bench_results *res, const struct axes *a,
                  int scene_index, int size_index)
{
    const bench_options *o = res->opt;
    double x1 = a->x0 + PANEL_W, y1 = a->y0 + PANEL_H;
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"white\" "
                 "stroke=\"#444\"/>\n", a->x0, a->y0, PANEL_W, PANEL_H);

    /* y grid: decades labelled; 2 and 5 too when at most 3 decades show */
    int decades = (int)lround(a->thi - a->tlo);
    for (int e = (int)lround(a->tlo); e <= (int)lround(a->thi); e++)
        for (int m = 1; m <= 9; m++) {
            double t = m * pow(10, e), y = py(a, t);
            if (log10(t) > a->thi + 1e-9)
                break;
            int labelled = m == 1 || (decades <= 3 && (m == 2 || m == 5));
            fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
                    a->x0, y, x1, y, m == 1 ? "#bbb" : "#eee");
            if (labelled && size_index == 0) {
                char label[32];
                time_label(t, label, sizeof label);
                fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">%s</text>\n",
                        a->x0 - 6, y + 4, label);
            }
        }
    /* x ticks at the measured k values */
    for (int b = 0; b < o->num_ks; b++) {
        double x = px(a, o->ks[b]);
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
                     "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n"
                     "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">%g</text>\n",
                x, a->y0, x, y1, x, y1, x, y1 + 5, x, y1 + 19, o->ks[b]);
    }
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\">"
                 "k_stretch (N/m, log scale)</text>\n", a->x0 + PANEL_W / 2, y1 + 40);

    const bench_case *first = case_at(res, scene_index, size_index, 0);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"14\" font-weight=\"bold\" "
                 "text-anchor=\"middle\">%s, %s cloth</text>\n"
                 "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">"
                 "n = %d unknowns, dt %.2f ms</text>\n",
            a->x0 + PANEL_W / 2, a->y0 - 24, cloth_scene_name(first->id.scene),
            first->id.label,
            a->x0 + PANEL_W / 2, a->y0 - 8, first->n, 1e3 * first->dt);

    /* one line per method; failed points off the line, marked */
    for (int j = 0; j < o->num_methods; j++) {
        int method = o->methods[j];
        const char *color = bench_method_color(method);
        /* a ring's line, like its marker, lies on the method it chose */
        int ring = strcmp(bench_method_marker(method), "ring") == 0;
        fprintf(out, "<polyline data-method=\"%s\" fill=\"none\" stroke=\"%s\" "
                     "stroke-width=\"%d\"%s points=\"", corepcg_method_name(method), color,
                bench_method_line_width(method),
                ring ? " stroke-dasharray=\"4 3\"" : "");
        for (int b = 0; b < o->num_ks; b++) {
            const bench_cell *c = &case_at(res, scene_index, size_index, b)->cells[j];
            if (!c->failed && c->time_median_s > 0)
                fprintf(out, "%.1f,%.1f ", px(a, o->ks[b]), py(a, c->time_median_s));
        }
        fprintf(out, "\"/>\n");
        for (int b = 0; b < o->num_ks; b++) {
            const bench_cell *c = &case_at(res, scene_index, size_index, b)->cells[j];
            if (!(c->time_median_s > 0))
                continue;
            double x = px(a, o->ks[b]), y = py(a, c->time_median_s);
            if (c->failed)
                failed_marker(out, x, y, c->not_converged ? "not converged" : "failed");
            else
                marker(out, method, x, y, color);
        }
    }
}

int bench_write_svg(FILE *out, const bench_results *res)
{
    const bench_options *o = res->opt;
    /* shared y range: whole decades around every measured median */
    double tmin = INFINITY, tmax = 0;
    for (int c = 0; c < res->num_cases; c++)
        for (int j = 0; j < o->num_methods; j++) {
            if (res->cases[c].id.tol != o->tols[0])
                continue;
            double t = res->cases[c].cells[j].time_median_s;
            if (t > 0 && isfinite(t)) {
                tmin = fmin(tmin, t);
                tmax = fmax(tmax, t);
            }
        }
    if (!(tmax > 0)) {
        tmin = 1e-3;
        tmax = 1;
    }
    struct axes a;
    a.tlo = floor(log10(tmin));
    a.thi = ceil(log10(tmax));
    if (a.thi <= a.tlo)
        a.thi = a.tlo + 1;
    double kmin = INFINITY, kmax = 0;
    for (int b = 0; b < o->num_ks; b++) {
        kmin = fmin(kmin, o->ks[b]);
        kmax = fmax(kmax, o->ks[b]);
    }
    double pad = kmax > kmin ? 0.12 * (log10(kmax) - log10(kmin)) : 0.5;
    a.klo = log10(kmin) - pad;
    a.khi = log10(kmax) + pad;

    /* wide enough for the title and the legend; the panels centred */
    int columns = bench_max_scene_sizes(o);
    double panels = columns * PANEL_W + (columns - 1) * GAP;
    double legend = 110.0 * o->num_methods + 190;
    double width = fmax(LEFT + panels + RIGHT, fmax(legend + 40, 820));
    double left = LEFT + 0.5 * (width - (LEFT + panels + RIGHT));
    double row_h = PANEL_H + BOTTOM + 40;
    double height = TOP + o->num_scenes * row_h - 40;
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                 "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n",
            width, height, width, height);
    fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(out, "<text x=\"%.1f\" y=\"26\" font-size=\"18\" font-weight=\"bold\" "
                 "text-anchor=\"middle\">corepcg bench: seconds per step vs "
                 "stretch stiffness</text>\n", width / 2);
    fprintf(out, "<text x=\"%.1f\" y=\"46\" font-size=\"12\" text-anchor=\"middle\" "
                 "fill=\"#444\">median of %d steps of update + solve, tol %g, %s; "
                 "lower is faster</text>\n", width / 2, o->steps, o->tols[0], res->date);

    /* legend */
    double lx = 0.5 * (width - legend), ly = 68;
    for (int j = 0; j < o->num_methods; j++) {
        int method = o->methods[j];
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                     "stroke-width=\"%d\"/>\n", lx, ly, lx + 28, ly, bench_method_color(method),
                bench_method_line_width(method));
        marker(out, method, lx + 14, ly, bench_method_color(method));
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\">%s</text>\n", lx + 34,
                ly + 4, corepcg_method_name(method));
        lx += 110;
    }
    fprintf(out, "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" stroke=\"black\" "
                 "stroke-width=\"2.5\"/>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\">"
                 "failed or not converged</text>\n", lx + 8, ly - 6, lx + 20, ly + 6, lx + 8, ly + 6, lx + 20,
            ly - 6, lx + 28, ly + 4);

    for (int e = 0; e < o->num_scenes; e++) {
        fprintf(out, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" font-size=\"13\" "
                     "text-anchor=\"middle\">seconds per step (log scale)</text>\n",
                left - LEFT + 22.0, TOP + e * row_h + PANEL_H / 2);
        for (int s = 0; s < bench_scene_sizes(o, o->scenes[e]); s++) {
            a.x0 = left + s * (PANEL_W + GAP);
            a.y0 = TOP + e * row_h;
            panel(out, res, &a, e, s);
        }
    }
    fprintf(out, "</svg>\n");
    return ferror(out) ? -1 : 0;
}
