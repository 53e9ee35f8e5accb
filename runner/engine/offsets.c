// SPDX-License-Identifier: GPL-2.0
/* Random permutations and skewed distributions; see offsets.h. */
#include "runner/engine/offsets.h"

#include <math.h>

void perm_init(struct perm *p, uint64_t n, uint64_t seed)
{
	struct rng r;
	unsigned bits = 0;

	rng_seed(&r, seed);
	while (bits < 64 && (1ULL << bits) < n)
		bits++;
	p->n = n;
	p->mask = bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;
	p->shift = (bits + 1) / 2 ? (bits + 1) / 2 : 1;
	p->counter = 0;
	for (int i = 0; i < PERM_ROUNDS; i++) {
		p->mult[i] = rng_next(&r) | 1; /* odd: a bijection modulo 2^bits */
		p->key[i] = rng_next(&r);
	}
}

/* The rank a zipf/pareto draw gives is spread over the blocks, as fio does. */
static uint64_t scatter(uint64_t v, uint64_t salt)
{
	struct rng r = { v ^ salt };

	return rng_next(&r);
}

/* fio computes zeta over at most 10M terms: beyond that it barely changes. */
#define ZIPF_MAX_TERMS 10000000ULL

void skew_init(struct skew *s, int kind, double param, uint64_t n, uint64_t seed)
{
	s->kind = kind;
	s->n = n ? n : 1;
	s->scatter = seed * 0x9e3779b97f4a7c15ULL + 1;
	if (kind == SKEW_PARETO) {
		s->pareto_pow = log(param) / log(1.0 - param);
		return;
	}
	uint64_t terms = s->n < ZIPF_MAX_TERMS ? s->n : ZIPF_MAX_TERMS;

	s->theta = param;
	s->zetan = 0;
	for (uint64_t i = 1; i <= terms; i++)
		s->zetan += pow(1.0 / (double)i, param);
	s->zeta2 = 1.0 + pow(0.5, param);
	s->alpha = 1.0 / (1.0 - param);
	s->eta = (1.0 - pow(2.0 / (double)s->n, 1.0 - param)) / (1.0 - s->zeta2 / s->zetan);
}

uint64_t skew_next(struct skew *s, struct rng *r)
{
	double u = rng_unit(r);
	uint64_t v;

	if (s->kind == SKEW_PARETO) {
		v = (uint64_t)((double)(s->n - 1) * pow(u, s->pareto_pow));
	} else {
		/* Gray et al., "Quickly generating billion-record synthetic databases". */
		double uz = u * s->zetan;

		if (uz < 1.0)
			v = 0;
		else if (uz < 1.0 + pow(0.5, s->theta))
			v = 1;
		else
			v = (uint64_t)((double)s->n * pow(s->eta * u - s->eta + 1.0, s->alpha));
		if (v >= s->n)
			v = s->n - 1;
	}
	return scatter(v, s->scatter) % s->n;
}
