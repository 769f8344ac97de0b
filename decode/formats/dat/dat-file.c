// SPDX-License-Identifier: MIT
/*
 * dat-file.c - streaming reader of interceptor captures, and their
 * records as events of ehd_reader
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ehdecode/enumerator.h>
#include <ehdecode/event.h>

#include "core/ehd-bytes.h"
#include "formats/dat/dat-file.h"
#include "formats/input.h"
#include "model/event-int.h"

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

/* ---- as an input of ehd_reader ---- */

struct dat_read {
	struct ehd__dat_file dat;
	struct ehd__err *err;	/* the front end's */
	struct ehd_enum *en;	/* identifies the events */
	struct ehd_event ev;
	struct ehd__event_internal internal;	/* behind ev.internal */
	uint64_t records;
	uint64_t not_eventheader;
};

/* A capture has no magic: it starts with a plausible record size. */
static bool dat_probe(const uint8_t *h, size_t n)
{
	return n >= 4 && ehd__load_uint(h, 4, 0) >= 5 &&
	       ehd__load_uint(h, 4, 0) <= EHD__DAT_RECORD_MAX;
}

static int dat_open(void *state, const struct ehd__input_src *src)
{
	struct dat_read *d = state;
	int err;

	d->err = src->err;
	err = ehd__input_after_head(src);
	if (err)
		return err;
	d->en = ehd_enum_new();
	if (!d->en || ehd__dat_init(&d->dat, src->fd, src->head, src->nhead))
		return ehd__err_set(d->err, -ENOMEM, 0, "out of memory");
	return EHD_INPUT_DAT;
}

/* The event of @rec: an EventHeader event, or a raw one named after it. */
static void dat_event(struct dat_read *d, const struct ehd__dat_record *rec)
{
	struct ehd_event *ev = &d->ev;

	memset(ev, 0, sizeof(*ev));
	memset(&d->internal, 0, sizeof(d->internal));
	ev->internal = &d->internal;
	ev->source_offset = rec->offset;
	ev->long_size = 8;
	ev->tracepoint = rec->tracepoint;
	ev->tracepoint_len = rec->tracepoint_len;
	ev->data = rec->data;
	ev->size = rec->size;
	if (!ehd__identify(d->en, ev, &d->internal, rec->data, rec->size))
		return;
	d->not_eventheader++;
	ev->kind = EHD_EVENT_RAW;
	ev->provider = "";
	ev->name = rec->tracepoint;
	ev->name_len = rec->tracepoint_len;
}

static int dat_next(void *state, const struct ehd_event **ev)
{
	struct dat_read *d = state;
	struct ehd__dat_record rec;
	int ret = ehd__dat_next(&d->dat, &rec);

	if (ret < 0)
		return ehd__err_take(d->err, ret, d->dat.err.msg,
				     d->dat.err.off);
	d->records += (uint64_t)ret;
	if (ret > 0) {
		dat_event(d, &rec);
		*ev = &d->ev;
	}
	return ret;
}

static void dat_stats(const void *state, struct ehd_reader_stats *stats)
{
	const struct dat_read *d = state;

	stats->records = d->records;
	stats->not_eventheader = d->not_eventheader;
}

static void dat_free(void *state)
{
	struct dat_read *d = state;

	ehd__dat_fini(&d->dat);
	ehd_enum_free(d->en);
}

const struct ehd__input_ops ehd__dat_input = {
	.name = "dat", .what = "an interceptor capture",
	.kinds = 1u << EHD_INPUT_DAT, .state_size = sizeof(struct dat_read),
	.probe = dat_probe, .open = dat_open,
	.next = dat_next, .stats = dat_stats, .free = dat_free,
};
