// SPDX-License-Identifier: MIT
/*
 * input.c - buffered input of libehdecode's readers
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/input.h"
#include "core/io.h"

int ehd__in_open(struct ehd__in *in, int fd, const void *head, size_t n,
		 size_t chunk)
{
	memset(in, 0, sizeof(*in));
	in->fd = fd;
	in->chunk = chunk > n ? chunk : n;
	in->buf = malloc(in->chunk);
	if (!in->buf)
		return -ENOMEM;
	in->cap = in->chunk;
	if (n)
		memcpy(in->buf, head, n);
	in->len = n;
	return 0;
}

void ehd__in_free(struct ehd__in *in)
{
	free(in->buf);
	in->buf = NULL;
	in->len = in->pos = in->cap = 0;
}

int ehd__in_fill_more(struct ehd__in *in, size_t n)
{
	size_t have = in->len - in->pos, want;
	ssize_t k;

	/* Keep only what is not taken yet, then fill up. */
	memmove(in->buf, in->buf + in->pos, have);
	in->base += in->pos;
	in->pos = 0;
	in->len = have;
	want = n > in->chunk ? n : in->chunk;
	if (want > in->cap) {
		uint8_t *b = realloc(in->buf, want);

		if (!b)
			return -ENOMEM;
		in->buf = b;
		in->cap = want;
	}
	while (in->len < n && !in->eof) {
		k = ehd__read_retry(in->fd, in->buf + in->len,
				    in->cap - in->len);
		if (k < 0)
			return (int)k;
		if (!k)
			in->eof = true;
		in->len += (size_t)k;
	}
	return 0;
}

ssize_t ehd__in_take(struct ehd__in *in, size_t n, const uint8_t **p)
{
	int err = ehd__in_fill(in, n);
	size_t got;

	if (err)
		return err;
	got = in->len - in->pos < n ? in->len - in->pos : n;
	*p = in->buf + in->pos;
	in->pos += got;
	return (ssize_t)got;
}
