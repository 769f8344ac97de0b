/* SPDX-License-Identifier: MIT */
/*
 * perf-build.h - building perf.data bytes by hand in tests, in either
 * byte order
 *
 *	struct wr x = { .be = false };
 *	size_t at = rec_begin(&x, PERF_RECORD_SAMPLE);
 *	w8(&x, time);
 *	rec_end(&x, at);	(x.b.p, x.b.len: the bytes)
 */
#ifndef TEST_PERF_BUILD_H
#define TEST_PERF_BUILD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct blob {
	uint8_t *p;
	size_t len;
	size_t cap;
};

static inline void put(struct blob *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static inline uint8_t rev8(uint8_t b)
{
	uint8_t r = 0;
	int i;

	for (i = 0; i < 8; i++)
		if (b & 1 << i)
			r |= (uint8_t)(0x80 >> i);
	return r;
}

struct wr {
	struct blob b;
	bool be;
};

static inline void w(struct wr *x, uint64_t v, int n)
{
	uint8_t t[8];
	int i;

	for (i = 0; i < n; i++)
		t[x->be ? n - 1 - i : i] = (uint8_t)(v >> 8 * i);
	put(&x->b, t, (size_t)n);
}

static inline void w8(struct wr *x, uint64_t v)
{
	w(x, v, 8);
}

static inline void w4(struct wr *x, uint64_t v)
{
	w(x, v, 4);
}

static inline void wbytes(struct wr *x, const void *p, size_t n)
{
	put(&x->b, p, n);
}

static inline size_t rec_begin(struct wr *x, uint32_t type)
{
	size_t at = x->b.len;

	w4(x, type);
	w(x, 0, 2);
	w(x, 0, 2);
	return at;
}

static inline void rec_end(struct wr *x, size_t at)
{
	size_t size = x->b.len - at;
	uint8_t *p = x->b.p + at + 6;

	p[x->be ? 1 : 0] = (uint8_t)size;
	p[x->be ? 0 : 1] = (uint8_t)(size >> 8);
}

#endif /* TEST_PERF_BUILD_H */
