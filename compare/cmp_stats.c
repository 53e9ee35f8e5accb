// SPDX-License-Identifier: GPL-2.0
/* Means, Welch's t-test on logs, Benjamini-Hochberg, robust outliers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_psi.h>

#include "compare/cmp_stats.h"

double stats_arith_mean(const double *x, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return n ? sum / (double)n : 0;
}

double stats_harmonic_mean(const double *x, size_t n)
{
	double inv = 0;

	for (size_t i = 0; i < n; i++) {
		if (x[i] <= 0)
			return 0;
		inv += 1.0 / x[i];
	}
	return n ? (double)n / inv : 0;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_median(const double *x, size_t n)
{
	double *t, m;

	if (n == 0)
		return 0;
	t = malloc(n * sizeof(*t));
	if (!t)
		return NAN;
	memcpy(t, x, n * sizeof(*t));
	qsort(t, n, sizeof(*t), dbl_cmp);
	m = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	free(t);
	return m;
}

static double sample_sd(const double *x, size_t n, double mean)
{
	double ss = 0;

	if (n < 2)
		return 0;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return sqrt(ss / (double)(n - 1));
}

static bool all_positive(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return false;
	return true;
}

double stats_kind_mean(const double *x, size_t n, enum mean_kind kind)
{
	return kind == MEAN_HARMONIC && all_positive(x, n) ? stats_harmonic_mean(x, n)
							   : stats_arith_mean(x, n);
}

void stats_describe(const double *x, size_t n, enum mean_kind kind, struct sample_stats *s)
{
	double amean = stats_arith_mean(x, n);

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (n == 0)
		return;
	s->log_ok = all_positive(x, n);
	s->mean = kind == MEAN_HARMONIC && s->log_ok ? stats_harmonic_mean(x, n) : amean;
	s->sd = sample_sd(x, n, amean);
	s->rsd = amean != 0 ? s->sd / fabs(amean) : 0;
	if (s->log_ok) {
		double sum = 0, ss = 0;

		for (size_t i = 0; i < n; i++)
			sum += log(x[i]);
		s->log_mean = sum / (double)n;
		for (size_t i = 0; i < n; i++)
			ss += (log(x[i]) - s->log_mean) * (log(x[i]) - s->log_mean);
		s->log_sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	}
	s->ci_lo = s->ci_hi = s->mean;
	if (n >= 2) {
		double t = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1));

		/* Noise is multiplicative: the interval is a factor around the mean. */
		if (s->log_ok) {
			double f = exp(t * s->log_sd / sqrt((double)n));

			s->ci_lo = s->mean / f;
			s->ci_hi = s->mean * f;
		} else {
			s->ci_lo = s->mean - t * s->sd / sqrt((double)n);
			s->ci_hi = s->mean + t * s->sd / sqrt((double)n);
		}
	}
}

int stats_two_sample(const double *a, size_t na, const double *b, size_t nb,
		     struct two_sample *ts)
{
	double *la, *lb, ma, mb, ss = 0;

	memset(ts, 0, sizeof(*ts));
	if (na < 2 || nb < 2)
		return -1;
	ts->on_logs = all_positive(a, na) && all_positive(b, nb);
	la = malloc((na + nb) * sizeof(*la));
	if (!la)
		return -1;
	lb = la + na;
	for (size_t i = 0; i < na; i++)
		la[i] = ts->on_logs ? log(a[i]) : a[i];
	for (size_t i = 0; i < nb; i++)
		lb[i] = ts->on_logs ? log(b[i]) : b[i];
	ma = stats_arith_mean(la, na);
	mb = stats_arith_mean(lb, nb);
	for (size_t i = 0; i < na; i++)
		ss += (la[i] - ma) * (la[i] - ma);
	for (size_t i = 0; i < nb; i++)
		ss += (lb[i] - mb) * (lb[i] - mb);
	free(la);
	ts->na = na;
	ts->nb = nb;
	ts->diff = mb - ma;
	ts->df = (double)(na + nb - 2);
	ts->s2 = ss / ts->df;
	return 0;
}

/* The x with trigamma(x) = y, by Newton's method as limma's trigammaInverse. */
static double trigamma_inverse(double y)
{
	double x, d;

	if (y > 1e7)
		return 1 / sqrt(y);
	if (y < 1e-6)
		return 1 / y;
	x = 0.5 + 1 / y;
	for (int i = 0; i < 50; i++) {
		double tri = gsl_sf_psi_1(x);

		d = tri * (1 - tri / y) / gsl_sf_psi_n(2, x);
		x += d;
		if (-d / x < 1e-8)
			break;
	}
	return x;
}

void stats_eb_fit(const double *s2, const double *df, size_t n, struct eb_prior *p)
{
	double *e = calloc(n + 1, sizeof(*e)), emean = 0, evar = 0, tri = 0;
	size_t m = 0;

	memset(p, 0, sizeof(*p));
	if (!e)
		return;
	for (size_t i = 0; i < n; i++) {
		/* A variance of exactly 0 carries no scale; leave it out of the fit. */
		if (!(s2[i] > 0) || !(df[i] > 0))
			continue;
		e[m] = log(s2[i]) - gsl_sf_psi(df[i] / 2) + log(df[i] / 2);
		tri += gsl_sf_psi_1(df[i] / 2);
		m++;
	}
	if (m < STATS_EB_MIN_ROWS) {
		free(e);
		return;
	}
	for (size_t i = 0; i < m; i++)
		emean += e[i];
	emean /= (double)m;
	for (size_t i = 0; i < m; i++)
		evar += (e[i] - emean) * (e[i] - emean);
	evar = evar / (double)(m - 1) - tri / (double)m;
	free(e);
	p->nfit = m;
	if (evar > 0) {
		p->d0 = 2 * trigamma_inverse(evar);
		p->s0sq = exp(emean + gsl_sf_psi(p->d0 / 2) - log(p->d0 / 2));
	} else {
		p->d0 = INFINITY;
		p->s0sq = exp(emean);
	}
}

void stats_moderated_t(const struct two_sample *ts, const struct eb_prior *p, struct t_test *t)
{
	double s2 = ts->s2, scale = 1.0 / (double)ts->na + 1.0 / (double)ts->nb;

	memset(t, 0, sizeof(*t));
	t->on_logs = ts->on_logs;
	t->df = ts->df;
	if (isinf(p->d0)) {
		s2 = p->s0sq;
		t->df = INFINITY;
	} else if (p->d0 > 0) {
		s2 = (p->d0 * p->s0sq + ts->df * ts->s2) / (p->d0 + ts->df);
		t->df = p->d0 + ts->df;
	}
	t->se = sqrt(s2 * scale);
	if (!(t->se > 0)) {
		/* No noise at all: any difference is certain. */
		t->t = ts->diff == 0 ? 0 : ts->diff > 0 ? INFINITY : -INFINITY;
		t->p = ts->diff == 0 ? 1 : 0;
		return;
	}
	t->t = ts->diff / t->se;
	t->p = isinf(t->df) ? 2 * gsl_cdf_ugaussian_Q(fabs(t->t))
			    : 2 * gsl_cdf_tdist_Q(fabs(t->t), t->df);
	if (t->p > 1)
		t->p = 1;
}

double stats_t_detectable(const struct t_test *t, double p_needed)
{
	if (!(t->se > 0) || !(t->df > 0) || !(p_needed > 0))
		return 0;
	return (isinf(t->df) ? gsl_cdf_ugaussian_Qinv(p_needed / 2)
			     : gsl_cdf_tdist_Qinv(p_needed / 2, t->df)) * t->se;
}

struct idx_p {
	double p;
	size_t i;
};

static int idx_p_cmp(const void *a, const void *b)
{
	const struct idx_p *x = a, *y = b;

	if (x->p != y->p)
		return (x->p > y->p) - (x->p < y->p);
	return (x->i > y->i) - (x->i < y->i);
}

/* The p values with their indices, smallest p first; NULL when out of memory. */
static struct idx_p *sorted_by_p(const double *p, size_t m)
{
	struct idx_p *s = malloc(m * sizeof(*s));

	if (!s)
		return NULL;
	for (size_t i = 0; i < m; i++) {
		s[i].p = p[i];
		s[i].i = i;
	}
	qsort(s, m, sizeof(*s), idx_p_cmp);
	return s;
}

int stats_bh_adjust(const double *p, size_t m, double *q)
{
	struct idx_p *s;
	double running = 1;

	if (m == 0)
		return 0;
	s = sorted_by_p(p, m);
	if (!s)
		return -1;
	/* From the largest p down: q(k) = min over j >= k of p(j) m / j. */
	for (size_t k = m; k-- > 0;) {
		double v = s[k].p * (double)m / (double)(k + 1);

		if (v < running)
			running = v;
		q[s[k].i] = running;
	}
	free(s);
	return 0;
}

double stats_simes(const double *p, size_t n)
{
	double *s, best = 1;

	if (n == 0)
		return 1;
	s = malloc(n * sizeof(*s));
	if (!s)
		return 1;
	memcpy(s, p, n * sizeof(*s));
	qsort(s, n, sizeof(*s), dbl_cmp);
	for (size_t i = 0; i < n; i++)
		if (s[i] * (double)n / (double)(i + 1) < best)
			best = s[i] * (double)n / (double)(i + 1);
	free(s);
	return best;
}

int stats_holm_adjust(const double *p, size_t m, double *q)
{
	struct idx_p *s;
	double running = 0;

	if (m == 0)
		return 0;
	s = sorted_by_p(p, m);
	if (!s)
		return -1;
	/* From the smallest p up: q(k) = max over j <= k of (m - j + 1) p(j), at most 1. */
	for (size_t k = 0; k < m; k++) {
		double v = s[k].p * (double)(m - k);

		if (v > running)
			running = v;
		q[s[k].i] = running < 1 ? running : 1;
	}
	free(s);
	return 0;
}

size_t stats_outliers(const double *x, size_t n, double scale_floor, double k, bool *is_out)
{
	double *v, *dev, med, mad, scale;
	bool logs = all_positive(x, n);
	size_t count = 0;

	for (size_t i = 0; i < n; i++)
		is_out[i] = false;
	if (n < 3)
		return 0;
	v = malloc(2 * n * sizeof(*v));
	if (!v)
		return 0;
	dev = v + n;
	for (size_t i = 0; i < n; i++)
		v[i] = logs ? log(x[i]) : x[i];
	med = stats_median(v, n);
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(v[i] - med);
	mad = stats_median(dev, n);
	scale = 1.4826 * mad;
	if (!logs)
		scale_floor *= fabs(med); /* the floor is relative: a log-scale distance */
	if (scale < scale_floor)
		scale = scale_floor;
	for (size_t i = 0; i < n; i++) {
		is_out[i] = scale > 0 ? dev[i] > k * scale : false;
		count += is_out[i];
	}
	free(v);
	return count;
}
