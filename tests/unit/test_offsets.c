// SPDX-License-Identifier: GPL-2.0
/* Random offsets: every block once per pass, the same order for the same seed. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "runner/engine/offsets.h"

static void test_every_block_once(void)
{
	const uint64_t sizes[] = { 1, 2, 3, 7, 64, 1000, 4096, 262144, 300007 };

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t n = sizes[s], b, count = 0;
		unsigned char *seen = calloc(n, 1);
		struct perm p;

		perm_init(&p, n, 1234 + s);
		while (perm_next(&p, &b)) {
			CHECK(b < n);
			if (b < n) {
				CHECK(!seen[b]);
				seen[b] = 1;
			}
			count++;
		}
		CHECK_EQ_INT(count, n);
		free(seen);
	}
}

static void test_same_seed_same_order(void)
{
	struct perm a, b, c;
	uint64_t x, y, same = 0, n = 100000;

	perm_init(&a, n, 89);
	perm_init(&b, n, 89);
	perm_init(&c, n, 90);
	for (uint64_t i = 0; i < n; i++) {
		CHECK(perm_next(&a, &x) && perm_next(&b, &y));
		CHECK_EQ_INT(x, y);
		CHECK(perm_next(&c, &y));
		same += x == y;
	}
	CHECK(same < n / 100); /* another seed, another order */
}

static void test_order_looks_random(void)
{
	/* Consecutive blocks should be rare and both halves of the range mixed early. */
	struct perm p;
	uint64_t prev = 0, b, adjacent = 0, low = 0, n = 1 << 20;
	double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0, k = 0;

	perm_init(&p, n, 7);
	for (uint64_t i = 0; i < 10000 && perm_next(&p, &b); i++) {
		adjacent += i && (b == prev + 1);
		low += b < n / 2;
		if (i) {
			/* successive blocks should not predict each other */
			double x = (double)prev, y = (double)b;

			sx += x;
			sy += y;
			sxx += x * x;
			syy += y * y;
			sxy += x * y;
			k++;
		}
		prev = b;
	}
	CHECK(adjacent < 10);
	CHECK(low > 4500 && low < 5500);
	double r = (k * sxy - sx * sy) / sqrt((k * sxx - sx * sx) * (k * syy - sy * sy));

	CHECK(r > -0.05 && r < 0.05);
}

static void test_rng_below_uniform(void)
{
	struct rng r;
	unsigned counts[10] = { 0 };

	rng_seed(&r, 5);
	for (int i = 0; i < 100000; i++)
		counts[rng_below(&r, 10)]++;
	for (int i = 0; i < 10; i++)
		CHECK(counts[i] > 9500 && counts[i] < 10500);
}

static void test_zipf_is_skewed(void)
{
	struct skew s;
	struct rng r;
	uint64_t n = 10000, hot = 0;
	uint64_t *hits = calloc(n, sizeof(*hits));

	rng_seed(&r, 3);
	skew_init(&s, SKEW_ZIPF, 1.2, n, 9);
	for (int i = 0; i < 100000; i++) {
		uint64_t b = skew_next(&s, &r);

		CHECK(b < n);
		hits[b]++;
	}
	for (uint64_t i = 0; i < n; i++)
		if (hits[i] > 1000)
			hot++;
	CHECK(hot >= 1 && hot < 50); /* a few very hot blocks */
	skew_init(&s, SKEW_PARETO, 0.2, n, 9);
	for (int i = 0; i < 1000; i++)
		CHECK(skew_next(&s, &r) < n);
	free(hits);
}

int main(void)
{
	RUN_TEST(test_every_block_once);
	RUN_TEST(test_same_seed_same_order);
	RUN_TEST(test_order_looks_random);
	RUN_TEST(test_rng_below_uniform);
	RUN_TEST(test_zipf_is_skewed);
	CHECK_EXIT();
}
