// SPDX-License-Identifier: MIT
/*
 * dat-file.c - streaming reader of interceptor captures
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/ehd-bytes.h"
#include "formats/dat/dat-file.h"

/*
 * Take up to @n bytes of the record at @at: how many (fewer only at the
 * end of the input), or < 0 with the error set.
 */
static ssize_t get(struct ehd__dat_file *d, size_t n, const uint8_t **p,
		   uint64_t at)
{
	ssize_t k = ehd__in_take(&d->in, n, p);

	if (k == -ENOMEM)
		return ehd__err_set(&d->err, -ENOMEM, at, "out of memory");
	if (k < 0)
		return ehd__err_set(&d->err, (int)k, ehd__in_end(&d->in),
				    "read: %s", strerror((int)-k));
	return k;
}

int ehd__dat_init(struct ehd__dat_file *d, int fd, const void *pre,
		  size_t npre)
{
	memset(d, 0, sizeof(*d));
	return ehd__in_open(&d->in, fd, pre, npre, EHD__IN_CHUNK);
}

int ehd__dat_next(struct ehd__dat_file *d, struct ehd__dat_record *rec)
{
	uint64_t at = ehd__in_offset(&d->in);
	const uint8_t *h, *body, *nul;
	uint32_t len;
	ssize_t n;

	if (d->err.err)
		return d->err.err;
	n = get(d, 4, &h, at);
	if (n < 0)
		return (int)n;
	if (n == 0)
		return 0;
	if (n < 4)
		return ehd__err_set(&d->err, -EBADMSG, at,
				    "record size cut short (%zd of 4 bytes)", n);
	len = (uint32_t)ehd__load_uint(h, 4, 0);
	if (len < 5)
		return ehd__err_set(&d->err, -EBADMSG, at,
				    "record size %u too small", len);
	if (len > EHD__DAT_RECORD_MAX)
		return ehd__err_set(&d->err, -EFBIG, at,
				    "record size %u beyond the limit of %u",
				    len, EHD__DAT_RECORD_MAX);
	n = get(d, len - 4, &body, at);
	if (n < 0)
		return (int)n;
	if ((size_t)n < len - 4)
		return ehd__err_set(&d->err, -EBADMSG, at,
				    "record of %u bytes cut short at %zd", len,
				    n + 4);
	nul = memchr(body, 0, len - 4);
	if (!nul)
		return ehd__err_set(&d->err, -EBADMSG, at + 4,
				    "tracepoint name not terminated");
	rec->offset = at;
	rec->tracepoint = (const char *)body;
	rec->tracepoint_len = (size_t)(nul - body);
	rec->data = nul + 1;
	rec->size = len - 4 - rec->tracepoint_len - 1;
	return 1;
}

void ehd__dat_fini(struct ehd__dat_file *d)
{
	ehd__in_free(&d->in);
}
