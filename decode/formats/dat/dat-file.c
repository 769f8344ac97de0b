// SPDX-License-Identifier: MIT
/*
 * dat-file.c - streaming reader of interceptor captures
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ehd-bytes.h"
#include "formats/dat/dat-file.h"

static int fail(struct ehd__dat_file *d, int err, uint64_t off,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int fail(struct ehd__dat_file *d, int err, uint64_t off,
		const char *fmt, ...)
{
	va_list ap;

	d->err = err;
	d->err_off = off;
	va_start(ap, fmt);
	vsnprintf(d->err_msg, sizeof(d->err_msg), fmt, ap);
	va_end(ap);
	return err;
}

/* Read up to @n bytes; returns how many (less only at the end) or < 0. */
static ssize_t get(struct ehd__dat_file *d, uint8_t *dst, size_t n)
{
	size_t done = 0;

	while (done < n && d->pre_pos < d->npre)
		dst[done++] = d->pre[d->pre_pos++];
	while (done < n) {
		ssize_t r = read(d->fd, dst + done, n - done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return fail(d, -errno, d->pos + done, "read: %s",
				    strerror(errno));
		if (r == 0)
			break;
		done += (size_t)r;
	}
	d->pos += done;
	return (ssize_t)done;
}

void ehd__dat_init(struct ehd__dat_file *d, int fd, const void *pre,
		   size_t npre)
{
	memset(d, 0, sizeof(*d));
	d->fd = fd;
	if (npre > sizeof(d->pre))
		npre = sizeof(d->pre);
	memcpy(d->pre, pre, npre);
	d->npre = npre;
}

int ehd__dat_next(struct ehd__dat_file *d, struct ehd__dat_record *rec)
{
	uint64_t at = d->pos;
	uint8_t h[4];
	uint32_t len;
	const uint8_t *nul;
	ssize_t n;

	if (d->err)
		return d->err;
	n = get(d, h, 4);
	if (n < 0)
		return (int)n;
	if (n == 0)
		return 0;
	if (n < 4)
		return fail(d, -EBADMSG, at, "record size cut short (%zd of 4 bytes)", n);
	len = (uint32_t)ehd__load_uint(h, 4, 0);
	if (len < 5)
		return fail(d, -EBADMSG, at, "record size %u too small", len);
	if (len > EHD__DAT_RECORD_MAX)
		return fail(d, -EFBIG, at, "record size %u beyond the limit of %u",
			    len, EHD__DAT_RECORD_MAX);
	if (len - 4 > d->cap) {
		uint8_t *p = realloc(d->buf, len - 4);

		if (!p)
			return fail(d, -ENOMEM, at, "out of memory");
		d->buf = p;
		d->cap = len - 4;
	}
	n = get(d, d->buf, len - 4);
	if (n < 0)
		return (int)n;
	if ((size_t)n < len - 4)
		return fail(d, -EBADMSG, at,
			    "record of %u bytes cut short at %zd", len, n + 4);
	nul = memchr(d->buf, 0, len - 4);
	if (!nul)
		return fail(d, -EBADMSG, at + 4, "tracepoint name not terminated");
	rec->offset = at;
	rec->tracepoint = (const char *)d->buf;
	rec->tracepoint_len = (size_t)(nul - d->buf);
	rec->data = nul + 1;
	rec->size = len - 4 - rec->tracepoint_len - 1;
	return 1;
}

void ehd__dat_fini(struct ehd__dat_file *d)
{
	free(d->buf);
	d->buf = NULL;
}
