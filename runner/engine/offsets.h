/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the next IO goes: a fast seeded generator, a random permutation of
 * the blocks (every block once per loop, in O(1) memory, the same order for
 * the same seed), and fio's zipf and pareto distributions.
 *
 * The permutation is a bijection on [0, 2^k) (rounds of multiply by an odd
 * number, xor-shift and add, each invertible modulo 2^k) walked with a
 * counter; values >= n are skipped, so fewer than two steps are taken per
 * block on average and no bitmap is needed.
 */
#ifndef IOMATRIX_RUNNER_ENGINE_OFFSETS_H
#define IOMATRIX_RUNNER_ENGINE_OFFSETS_H

#include <stdint.h>

struct rng {
	uint64_t state;
};

/* splitmix64: two multiplies, passes BigCrush, any seed is fine. */
static inline uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n) without a division (Lemire's multiply-shift). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}

/* Uniform in [0, 1). */
static inline double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

static inline void rng_seed(struct rng *r, uint64_t seed)
{
	r->state = seed;
	(void)rng_next(r);
}

#define PERM_ROUNDS 3

struct perm {
	uint64_t n, mask, counter;
	unsigned shift;
	uint64_t mult[PERM_ROUNDS], key[PERM_ROUNDS];
};

void perm_init(struct perm *p, uint64_t n, uint64_t seed);

static inline uint64_t perm_map(const struct perm *p, uint64_t x)
{
	for (int r = 0; r < PERM_ROUNDS; r++) {
		x = (x * p->mult[r]) & p->mask;
		x ^= x >> p->shift;
		x = (x + p->key[r]) & p->mask;
	}
	return x;
}

/* The next block of this pass; 0 when every block has been given once. */
static inline int perm_next(struct perm *p, uint64_t *block)
{
	while (p->counter <= p->mask) {
		uint64_t x = perm_map(p, p->counter++);

		if (x < p->n) {
			*block = x;
			return 1;
		}
	}
	return 0;
}

static inline void perm_restart(struct perm *p)
{
	p->counter = 0;
}

enum skew_kind { SKEW_ZIPF = 1, SKEW_PARETO = 2 };

struct skew {
	int kind;
	uint64_t n;
	double theta, zetan, zeta2, alpha, eta, pareto_pow;
	uint64_t scatter;
};

/* kind zipf (param theta) or pareto (param h), over n blocks. */
void skew_init(struct skew *s, int kind, double param, uint64_t n, uint64_t seed);
uint64_t skew_next(struct skew *s, struct rng *r);

#endif
