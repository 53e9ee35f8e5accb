// SPDX-License-Identifier: GPL-2.0
/* Building curves: panels by the other dimensions, points along x, series per kernel. */
#include <stdlib.h>
#include <string.h>

#include "compare/curve.h"

/* The short key of a cell without the x dimension: its panel. */
static void panel_key(const struct view_dims *d, const struct cmp_cell *c, const char *xdim,
		      char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t j = 0; j < d->n && used < len; j++) {
		const char *v = view_cell_dim(c, d->name[j]);

		if (!d->varies[j] || !strcmp(d->name[j], xdim) || !v)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "",
					 d->name[j], v);
	}
}

static struct curve_panel *find_panel(struct curve_set *cs, const char *title,
				      const struct metric *m)
{
	struct curve_panel *grown;

	for (size_t i = 0; i < cs->npanels; i++)
		if (cs->panels[i].m == m && !strcmp(cs->panels[i].title, title))
			return &cs->panels[i];
	grown = realloc(cs->panels, (cs->npanels + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	cs->panels = grown;
	memset(&cs->panels[cs->npanels], 0, sizeof(*grown));
	snprintf(cs->panels[cs->npanels].title, sizeof(grown->title), "%s", title);
	cs->panels[cs->npanels].m = m;
	return &cs->panels[cs->npanels++];
}

static struct curve_point *find_point(struct curve_panel *p, const char *xval)
{
	struct curve_point *grown;

	for (size_t i = 0; i < p->npoints; i++)
		if (!strcmp(p->pts[i].xval, xval))
			return &p->pts[i];
	grown = realloc(p->pts, (p->npoints + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	p->pts = grown;
	memset(&p->pts[p->npoints], 0, sizeof(*grown));
	p->pts[p->npoints].xval = xval;
	p->pts[p->npoints].x = strtod(xval, NULL);
	return &p->pts[p->npoints++];
}

static void put(struct curve_point *pt, size_t s, const struct cmp_side *side)
{
	if (!side->st.n)
		return;
	pt->has[s] = true;
	pt->y[s] = side->st.mean;
	pt->lo[s] = side->st.ci_lo;
	pt->hi[s] = side->st.ci_hi;
}

static int by_x(const void *a, const void *b)
{
	const struct curve_point *x = a, *y = b;

	return (x->x > y->x) - (x->x < y->x);
}

/* The metrics a panel shows: --metric's, else the primary of its cell. */
static int add_cell(const struct cmp_report *r, const struct view_dims *d, struct curve_set *cs,
		    size_t k, const struct cmp_cell *cell)
{
	const struct comparison *c = &r->cmps[k];
	const char *xval = view_cell_dim(cell, cs->xdim);
	char title[512];
	size_t nm = r->metrics_chosen ? c->opt.nmetrics : 1;

	if (!xval)
		return 0;
	panel_key(d, cell, cs->xdim, title, sizeof(title));
	for (size_t i = 0; i < nm; i++) {
		const struct cmp_row *row = r->metrics_chosen
						    ? view_cell_row(c, cell, c->opt.metrics[i])
						    : view_primary_row(c, cell);
		struct curve_panel *p;
		struct curve_point *pt;

		if (!row)
			continue;
		p = find_panel(cs, title, row->m);
		pt = p ? find_point(p, xval) : NULL;
		if (!pt)
			return -1;
		if (k == 0)
			put(pt, 0, &row->base);
		put(pt, k + 1, &row->new);
		pt->row[k + 1] = row;
	}
	return 0;
}

int curve_build(const struct cmp_report *r, const struct view_dims *d, struct curve_set *cs)
{
	memset(cs, 0, sizeof(*cs));
	cs->xdim = view_curve_dim(r, d);
	if (!cs->xdim)
		return 1;
	cs->nseries = r->ncmps + 1 < CURVE_MAX_SERIES ? r->ncmps + 1 : CURVE_MAX_SERIES;
	cs->series[0] = r->cmps[0].base->label;
	for (size_t k = 0; k + 1 < cs->nseries; k++)
		cs->series[k + 1] = r->cmps[k].new->label;
	for (size_t k = 0; k + 1 < cs->nseries; k++) {
		const struct comparison *c = &r->cmps[k];

		for (size_t i = 0; i < c->ncells; i++) {
			if (r->only_significant && c->cells[i].v != CMP_BETTER &&
			    c->cells[i].v != CMP_WORSE)
				continue;
			if (add_cell(r, d, cs, k, &c->cells[i])) {
				curve_free(cs);
				return -1;
			}
		}
	}
	for (size_t i = 0; i < cs->npanels; i++)
		qsort(cs->panels[i].pts, cs->panels[i].npoints, sizeof(struct curve_point), by_x);
	return 0;
}

void curve_free(struct curve_set *cs)
{
	for (size_t i = 0; i < cs->npanels; i++)
		free(cs->panels[i].pts);
	free(cs->panels);
	memset(cs, 0, sizeof(*cs));
}
