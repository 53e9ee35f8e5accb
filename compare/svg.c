// SPDX-License-Identifier: GPL-2.0
/* SVG elements, escaping and axes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/svg.h"

/* Tableau 10: distinct for the common kinds of colour blindness. */
const char *const svg_series_colour[8] = {
	"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f",
};

void xml_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			/* Control characters are not allowed in XML 1.0. */
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
				fputc(*s, f);
			break;
		}
	}
}

void svg_begin(FILE *f, double w, double h, const char *title)
{
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" role=\"img\" font-family=\"sans-serif\">\n<title>",
		w, h, w, h);
	xml_escape(f, title);
	fputs("</title>\n", f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", w,
		h);
}

void svg_end(FILE *f)
{
	fputs("</svg>\n", f);
}

void svg_text(FILE *f, double x, double y, const char *anchor, double size, const char *fill,
	      const char *text)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%.0f\" fill=\"%s\">",
		x, y, anchor, size, fill);
	xml_escape(f, text);
	fputs("</text>\n", f);
}

static void text_cut(FILE *f, double x, double y, const char *anchor, double size,
		     const char *text, size_t max)
{
	size_t len = strlen(text);

	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%.0f\" fill=\"%s\">",
		x, y, anchor, size, SVG_INK);
	if (len <= max || max < 4) {
		xml_escape(f, text);
	} else {
		size_t keep = max - 3;
		char *cut;

		/* Never split a UTF-8 sequence: XML parsers reject the half. */
		while (keep && ((unsigned char)text[keep] & 0xc0) == 0x80)
			keep--;
		cut = strndup(text, keep);
		xml_escape(f, cut ? cut : "");
		fputs("...", f);
		free(cut);
	}
	fputs("</text>\n", f);
}

void svg_heading(FILE *f, double x, double y, double size, const char *text, size_t max)
{
	text_cut(f, x, y, "start", size, text, max);
}

void svg_label_end(FILE *f, double x, double y, const char *text, size_t max)
{
	text_cut(f, x, y, "end", 11, text, max);
}

void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke,
	      double width)
{
	fprintf(f,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		"stroke-width=\"%.1f\"/>\n",
		x1, y1, x2, y2, stroke, width);
}

void svg_rect(FILE *f, double x, double y, double w, double h, const char *fill, const char *tip)
{
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"", x, y,
		w > 0 ? w : 0, h > 0 ? h : 0, fill);
	if (!tip) {
		fputs("/>\n", f);
		return;
	}
	fputs("><title>", f);
	xml_escape(f, tip);
	fputs("</title></rect>\n", f);
}

void svg_circle(FILE *f, double x, double y, double r, const char *fill, const char *tip)
{
	fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"", x, y, r, fill);
	if (!tip) {
		fputs("/>\n", f);
		return;
	}
	fputs("><title>", f);
	xml_escape(f, tip);
	fputs("</title></circle>\n", f);
}

void svg_polyline(FILE *f, const double *x, const double *y, size_t n, const char *stroke,
		  double width)
{
	fputs("<polyline fill=\"none\" points=\"", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", x[i], y[i]);
	fprintf(f, "\" stroke=\"%s\" stroke-width=\"%.1f\"/>\n", stroke, width);
}

void svg_whisker(FILE *f, bool horizontal, double at, double lo, double hi, const char *stroke)
{
	const double cap = 3;

	if (horizontal) {
		svg_line(f, lo, at, hi, at, stroke, 1.2);
		svg_line(f, lo, at - cap, lo, at + cap, stroke, 1.2);
		svg_line(f, hi, at - cap, hi, at + cap, stroke, 1.2);
	} else {
		svg_line(f, at, lo, at, hi, stroke, 1.2);
		svg_line(f, at - cap, lo, at + cap, lo, stroke, 1.2);
		svg_line(f, at - cap, hi, at + cap, hi, stroke, 1.2);
	}
}

double axis_map(const struct axis *a, double v)
{
	double lo = a->lo, hi = a->hi, t;

	if (a->log) {
		lo = log10(lo);
		hi = log10(hi);
		v = v > 0 ? log10(v) : lo;
	}
	t = hi > lo ? (v - lo) / (hi - lo) : 0.5;
	return a->px_lo + t * (a->px_hi - a->px_lo);
}

static double nice_step(double range, int want)
{
	double raw = range / want, mag = pow(10, floor(log10(raw))), r = raw / mag;

	return (r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10) * mag;
}

void axis_nice(struct axis *a)
{
	if (a->log) {
		if (!(a->lo > 0))
			a->lo = a->hi > 0 ? a->hi / 10 : 1;
		if (!(a->hi > a->lo))
			a->hi = a->lo * 10;
		a->lo = pow(10, floor(log10(a->lo)));
		a->hi = pow(10, ceil(log10(a->hi)));
		return;
	}
	if (!(a->hi > a->lo))
		a->hi = a->lo + (a->lo ? fabs(a->lo) : 1);
	{
		double step = nice_step(a->hi - a->lo, 5);

		a->lo = floor(a->lo / step) * step;
		a->hi = ceil(a->hi / step) * step;
	}
}

size_t axis_ticks(const struct axis *a, double *ticks, size_t max)
{
	size_t n = 0;

	if (a->log) {
		for (double d = a->lo; d <= a->hi * 1.0001 && n < max; d *= 10)
			ticks[n++] = d;
		return n;
	}
	{
		double step = nice_step(a->hi - a->lo, 5);

		for (double v = a->lo; v <= a->hi + step * 1e-6 && n < max; v += step)
			ticks[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	}
	return n;
}
