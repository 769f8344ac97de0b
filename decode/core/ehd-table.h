/* SPDX-License-Identifier: MIT */
/*
 * ehd-table.h - a small hash table: 64-bit keys, 32-bit values, several
 * values per key (libehdecode, private)
 *
 * Keys are usually hashes: a caller stores each value under the hash of
 * what it stands for and, on lookup, checks each value found under the
 * hash against what it looks for.
 */
#ifndef EHD_TABLE_H
#define EHD_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ehd_table {
	uint64_t *keys;
	uint32_t *vals;		/* value + 1; 0 = empty */
	size_t cap, n;
};

/* Add @val under @key; 0 or -ENOMEM. */
int ehd__table_add(struct ehd_table *t, uint64_t key, uint32_t val);

/*
 * The values under @key, one per call: start with *@pos = 0; false when
 * there are no more.
 */
bool ehd__table_next(const struct ehd_table *t, uint64_t key, size_t *pos,
		     uint32_t *val);

/* Empty it (keeping its memory). */
void ehd__table_clear(struct ehd_table *t);
void ehd__table_free(struct ehd_table *t);

/*
 * A 64-bit hash of @n bytes, seeded with @h. Its values must not change:
 * outputs write some of them (the nettrace writer's ids of tracepoint
 * events).
 */
uint64_t ehd__hash_bytes(const void *p, size_t n, uint64_t h);

/*
 * A 64-bit hash of @n host-order words (a stack's addresses), faster than
 * ehd__hash_bytes() on long keys; for tables only: its values may change.
 */
uint64_t ehd__hash_words(const uint64_t *w, size_t n);

#endif /* EHD_TABLE_H */
