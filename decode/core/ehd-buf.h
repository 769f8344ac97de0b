/* SPDX-License-Identifier: MIT */
/*
 * ehd-buf.h - growable byte buffer of libehdecode (private)
 *
 * Appending never fails visibly: on allocation failure the buffer keeps
 * what it had, sets @err to -ENOMEM and ignores further appends, so a
 * formatter can append freely and check once at the end.
 */
#ifndef EHD_BUF_H
#define EHD_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

struct ehd_buf {
	char *p;	/* NUL-terminated when len > 0 or after ehd__buf_cstr */
	size_t len;
	size_t cap;
	int err;	/* 0 or -ENOMEM */
};

#define EHD_BUF_INIT { NULL, 0, 0, 0 }

int ehd__buf_reserve_slow(struct ehd_buf *b, size_t extra);

/* Room for @extra more bytes and a NUL: 0, or -ENOMEM (b->err). */
static inline int ehd__buf_reserve(struct ehd_buf *b, size_t extra)
{
	if (!b->err && extra < b->cap - b->len)
		return 0;	/* (len + extra + 1 <= cap) */
	return ehd__buf_reserve_slow(b, extra);
}

/*
 * ehd__grow() - room for @n elements of @size bytes in the array at
 * *(void **)@pp, of *@cap elements: its capacity doubled (from 16) until
 * it holds them. Return: 0, or -ENOMEM (the array unchanged).
 */
int ehd__grow(void *pp, size_t *cap, size_t n, size_t size);
void ehd__buf_put_slow(struct ehd_buf *b, const void *p, size_t n);

/* Appending is inline while there is room (the common case). */
static inline void ehd__buf_put(struct ehd_buf *b, const void *p, size_t n)
{
	if (b->len + n < b->cap && !b->err && n) {
		memcpy(b->p + b->len, p, n);
		b->len += n;
		b->p[b->len] = 0;
		return;
	}
	ehd__buf_put_slow(b, p, n);
}

static inline void ehd__buf_putc(struct ehd_buf *b, char c)
{
	if (b->len + 1 < b->cap && !b->err) {
		b->p[b->len++] = c;
		b->p[b->len] = 0;
		return;
	}
	ehd__buf_put_slow(b, &c, 1);
}

static inline void ehd__buf_puts(struct ehd_buf *b, const char *s)
{
	ehd__buf_put(b, s, strlen(s));
}
void ehd__buf_printf(struct ehd_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ehd__buf_vprintf(struct ehd_buf *b, const char *fmt, va_list ap);
/* The contents as a C string ("" when empty). */
const char *ehd__buf_cstr(struct ehd_buf *b);
void ehd__buf_reset(struct ehd_buf *b);
void ehd__buf_free(struct ehd_buf *b);

#endif /* EHD_BUF_H */
