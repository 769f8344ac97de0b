// SPDX-License-Identifier: MIT
/*
 * buf.c - growable byte buffer of libehdecode
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ehd-buf.h"

int ehd__grow(void *pp, size_t *cap, size_t n, size_t size)
{
	void **p = pp, *q;
	size_t c = *cap ? *cap : 16;

	if (n <= *cap)
		return 0;
	while (c < n) {
		if (c > SIZE_MAX / 2)
			return -ENOMEM;
		c *= 2;
	}
	if (c > SIZE_MAX / size)
		return -ENOMEM;
	q = realloc(*p, c * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

int ehd__buf_reserve_slow(struct ehd_buf *b, size_t extra)
{
	size_t need, cap;
	char *p;

	if (b->err)
		return b->err;
	if (extra > ((size_t)-1) / 2 - b->len) {
		b->err = -ENOMEM;
		return b->err;
	}
	need = b->len + extra + 1;	/* room for a NUL */
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 256;
	while (cap < need)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->err = -ENOMEM;
		return b->err;
	}
	b->p = p;
	b->cap = cap;
	return 0;
}

void ehd__buf_put_slow(struct ehd_buf *b, const void *p, size_t n)
{
	if (!n || ehd__buf_reserve(b, n))
		return;
	memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = 0;
}

void ehd__buf_vprintf(struct ehd_buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	if (b->err)
		return;
	va_copy(aq, ap);
	n = vsnprintf(b->p ? b->p + b->len : NULL,
		      b->cap > b->len ? b->cap - b->len : 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	if (b->len + (size_t)n >= b->cap) {
		if (ehd__buf_reserve(b, (size_t)n))
			return;
		vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	}
	b->len += (size_t)n;
}

void ehd__buf_printf(struct ehd_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ehd__buf_vprintf(b, fmt, ap);
	va_end(ap);
}

const char *ehd__buf_cstr(struct ehd_buf *b)
{
	return b->len ? b->p : "";
}

void ehd__buf_reset(struct ehd_buf *b)
{
	b->len = 0;
	b->err = 0;
	if (b->p)
		b->p[0] = 0;
}

void ehd__buf_free(struct ehd_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
	b->err = 0;
}
