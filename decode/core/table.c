// SPDX-License-Identifier: MIT
/*
 * table.c - a small open-addressing hash table and a byte hash
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/ehd-bytes.h"
#include "core/ehd-table.h"

/*
 * The home slot of @key: its bits mixed (a 64-bit finaliser), so that keys
 * differing only in their high bits, or by multiples of the size, spread.
 */
static size_t home_of(const struct ehd_table *t, uint64_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	key *= 0xc4ceb9fe1a85ec53ull;
	key ^= key >> 33;
	return (size_t)key & (t->cap - 1);
}

static int grow(struct ehd_table *t)
{
	struct ehd_table nt = { NULL, NULL, t->cap ? 2 * t->cap : 256, 0 };
	size_t i;

	nt.keys = malloc(nt.cap * sizeof(*nt.keys));
	nt.vals = calloc(nt.cap, sizeof(*nt.vals));
	if (!nt.keys || !nt.vals) {
		free(nt.keys);
		free(nt.vals);
		return -ENOMEM;
	}
	for (i = 0; i < t->cap; i++)
		if (t->vals[i])
			ehd__table_add(&nt, t->keys[i], t->vals[i] - 1);
	free(t->keys);
	free(t->vals);
	*t = nt;
	return 0;
}

int ehd__table_add(struct ehd_table *t, uint64_t key, uint32_t val)
{
	size_t i;

	if ((t->n + 1) * 2 > t->cap && grow(t))
		return -ENOMEM;
	for (i = home_of(t, key); t->vals[i]; i = (i + 1) & (t->cap - 1))
		;
	t->keys[i] = key;
	t->vals[i] = val + 1;
	t->n++;
	return 0;
}

bool ehd__table_next(const struct ehd_table *t, uint64_t key, size_t *pos,
		       uint32_t *val)
{
	size_t i;

	if (!t->cap)
		return false;
	i = *pos ? *pos : home_of(t, key) + 1;
	for (i--; t->vals[i]; i = (i + 1) & (t->cap - 1)) {
		if (t->keys[i] == key) {
			*val = t->vals[i] - 1;
			*pos = ((i + 1) & (t->cap - 1)) + 1;
			return true;
		}
	}
	return false;
}

void ehd__table_clear(struct ehd_table *t)
{
	if (t->cap)
		memset(t->vals, 0, t->cap * sizeof(*t->vals));
	t->n = 0;
}

void ehd__table_free(struct ehd_table *t)
{
	free(t->keys);
	free(t->vals);
	memset(t, 0, sizeof(*t));
}

uint64_t ehd__hash_bytes(const void *p, size_t n, uint64_t h)
{
	const uint8_t *s = p;
	uint64_t v;

	for (; n >= 8; s += 8, n -= 8) {
		v = ehd__load_uint(s, 8, 0);
		h = (h ^ v) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	v = n ? ehd__load_uint(s, (unsigned int)n, 0) : 0;
	h = (h ^ v ^ n) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 32);
}

uint64_t ehd__hash_words(const uint64_t *w, size_t n)
{
	const uint64_t k = 0x9e3779b97f4a7c15ull;
	uint64_t h = n, g = n ^ k;
	size_t i;

	/* Two lanes: two chains of multiplies side by side take half the time. */
	for (i = 0; i + 1 < n; i += 2) {
		h = (h ^ w[i]) * k;
		g = (g ^ w[i + 1]) * k;
		h ^= h >> 29;
		g ^= g >> 29;
	}
	if (i < n) {
		h = (h ^ w[i]) * k;
		h ^= h >> 29;
	}
	h ^= (g << 31 | g >> 33) * k;
	return h ^ (h >> 32);
}
