// SPDX-License-Identifier: MIT
/*
 * perf-normal.c - normal-mode perf.data from a session: a pipe-mode stream
 * stored in a file made into one (ehd_session_perf_file()), and the end of
 * a file the session recorded straight in normal mode
 * (ehd__perf_normal_finish())
 *
 * The layout written: the 104-byte header; the data section (the kernel's
 * records and the round ends, as they came); right after it the feature
 * sections (what the stream's HEADER_FEATURE records carried, the last
 * tracing data, and an EVENT_DESC with every event's name); then the attrs
 * and their ids. perf finds everything from the header's offsets, and the
 * feature sections must follow the data, as here.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include <ehdecode/session.h>

#include "core/ehd-buf.h"
#include "core/io.h"
#include "formats/perf/perf-file.h"
#include "formats/perf/perf-stream.h"

#define HEADER_SIZE 104
#define FEAT_BITS 256

struct attr_rec {
	size_t at, size;	/* in attrs: the attr, then its ids */
	uint32_t attr_size;
	size_t nids;
	char *name;
};

struct conv {
	int in, out;
	uint8_t *buf;		/* input, read in pieces */
	size_t len, pos, cap;
	uint64_t in_off, out_off;
	struct ehd_buf wbuf;	/* data section output, written in pieces */
	struct ehd_buf attrs;	/* the HEADER_ATTR records' attrs and ids */
	struct attr_rec *v;
	size_t n;
	struct ehd_buf feat[FEAT_BITS];
	bool has_feat[FEAT_BITS];
	char *why;
	size_t why_size;
};

#define IN_CHUNK (1u << 20)

static int fail(struct conv *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct conv *c, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->why, c->why_size, fmt, ap);
	va_end(ap);
	return err;
}

/* Make @n bytes available at c->buf + c->pos: 0, 1 at the end, or < 0. */
static int need(struct conv *c, size_t n)
{
	ssize_t k;

	if (c->len - c->pos >= n)
		return 0;
	if (c->in < 0)
		return 1;	/* all of it was in memory */
	memmove(c->buf, c->buf + c->pos, c->len - c->pos);
	c->len -= c->pos;
	c->pos = 0;
	while (c->len < n) {
		/*
		 * The buffer grows with what comes, not to the size a record
		 * claims: a short input claiming gigabytes costs nothing.
		 */
		if (c->len == c->cap) {
			size_t cap = c->cap < n / 2 ? 2 * c->cap : n;
			uint8_t *p;

			if (cap < IN_CHUNK)
				cap = n < IN_CHUNK ? n : IN_CHUNK;
			p = realloc(c->buf, cap);
			if (!p)
				return fail(c, -ENOMEM, "out of memory");
			c->buf = p;
			c->cap = cap;
		}
		k = ehd__read_retry(c->in, c->buf + c->len, c->cap - c->len);
		if (k < 0)
			return fail(c, (int)k, "read: %s", strerror((int)-k));
		if (!k)
			return 1;
		c->len += (size_t)k;
	}
	return 0;
}

static int write_all(struct conv *c, const void *p, size_t n)
{
	size_t done;
	int err = ehd__write_full(c->out, p, n, &done);

	c->out_off += done;
	if (err)
		return fail(c, err, "write: %s", strerror(-err));
	return 0;
}

static int flush_data(struct conv *c, bool all)
{
	int err;

	if (c->wbuf.err)
		return fail(c, -ENOMEM, "out of memory");
	if (!all && c->wbuf.len < IN_CHUNK)
		return 0;
	err = write_all(c, c->wbuf.p, c->wbuf.len);
	c->wbuf.len = 0;
	return err;
}

static struct attr_rec *find_attr(struct conv *c, uint64_t id)
{
	size_t i, k;

	for (i = 0; i < c->n; i++) {
		/* (after an attr whose size the input gives: maybe unaligned) */
		const char *ids = c->attrs.p + c->v[i].at + c->v[i].attr_size;
		uint64_t v;

		for (k = 0; k < c->v[i].nids; k++) {
			memcpy(&v, ids + 8 * k, sizeof(v));
			if (v == id)
				return &c->v[i];
		}
	}
	return NULL;
}

/* A user record (type >= 64): kept aside, or dropped. */
static int user_record(struct conv *c, const uint8_t *p, uint32_t type,
		       size_t size)
{
	struct attr_rec *a, *v;
	uint64_t bit, len;
	int err;

	switch (type) {
	case EHD__PERF_RECORD_HEADER_ATTR: {
		const struct perf_event_attr *attr = (const void *)(p + 8);

		if (size < 8 + PERF_ATTR_SIZE_VER0 || attr->size > size - 8)
			return fail(c, -EBADMSG, "bad HEADER_ATTR record");
		v = realloc(c->v, (c->n + 1) * sizeof(*v));
		if (!v)
			return fail(c, -ENOMEM, "out of memory");
		c->v = v;
		a = &c->v[c->n++];
		memset(a, 0, sizeof(*a));
		a->attr_size = attr->size;
		a->nids = (size - 8 - attr->size) / 8;
		a->at = c->attrs.len;
		ehd__buf_put(&c->attrs, p + 8, size - 8);
		while (c->attrs.len & 7)
			ehd__buf_putc(&c->attrs, 0);
		a->size = c->attrs.len - a->at;
		return 0;
	}
	case EHD__PERF_RECORD_EVENT_UPDATE:
		/* { header, u64 type, u64 id, name } : type 2 is NAME */
		if (size > 24 && ((const uint64_t *)p)[1] == 2) {
			a = find_attr(c, ((const uint64_t *)p)[2]);
			if (a && !a->name) {
				a->name = strndup((const char *)p + 24, size - 24);
				if (!a->name)
					return fail(c, -ENOMEM, "out of memory");
			}
		}
		return 0;
	case EHD__PERF_RECORD_HEADER_FEATURE:
		if (size < 16)
			return fail(c, -EBADMSG, "bad HEADER_FEATURE record");
		bit = ((const uint64_t *)p)[1];
		if (bit >= EHD__PERF_FEAT_LAST || bit == EHD__PERF_FEAT_TRACING_DATA)
			return 0;
		c->feat[bit].len = 0;
		ehd__buf_put(&c->feat[bit], p + 16, size - 16);
		c->has_feat[bit] = true;
		return 0;
	case EHD__PERF_RECORD_HEADER_TRACING_DATA:
		/*
		 * The data follow the record; the last ones have all formats.
		 * perf pads them to 8 bytes, which keeps the records after
		 * them aligned.
		 */
		len = ((const uint32_t *)p)[2];
		if (len & 7)
			return fail(c, -EBADMSG,
				    "tracing data of %llu bytes (not padded to 8)",
				    (unsigned long long)len);
		c->pos += size;
		err = need(c, (size_t)len);
		if (err)
			return err < 0 ? err :
			       fail(c, -EBADMSG, "truncated tracing data");
		bit = EHD__PERF_FEAT_TRACING_DATA;
		c->feat[bit].len = 0;
		ehd__buf_put(&c->feat[bit], c->buf + c->pos, (size_t)len);
		c->has_feat[bit] = true;
		c->pos += (size_t)len - size;	/* the caller adds size */
		return 0;
	case EHD__PERF_RECORD_FINISHED_ROUND:
		ehd__buf_put(&c->wbuf, p, size);
		return flush_data(c, false);
	default:
		return 0;
	}
}

/* EVENT_DESC: u32 count, u32 attr size, then per event its attr, u32 ids,
 * the name (u32 length padded to 64, NUL-padded), the ids. */
static void event_desc(struct conv *c)
{
	struct ehd_buf *b = &c->feat[EHD__PERF_FEAT_EVENT_DESC];
	uint32_t n = (uint32_t)c->n, size = (uint32_t)sizeof(struct perf_event_attr);
	size_t i;

	ehd__buf_put(b, &n, 4);
	ehd__buf_put(b, &size, 4);
	for (i = 0; i < c->n; i++) {
		const struct attr_rec *a = &c->v[i];
		struct perf_event_attr attr;
		const char *name = a->name ? a->name : "";
		uint32_t nids = (uint32_t)a->nids, len;
		static const char zero[64];

		memset(&attr, 0, sizeof(attr));
		memcpy(&attr, c->attrs.p + a->at,
		       a->attr_size < sizeof(attr) ? a->attr_size : sizeof(attr));
		attr.size = sizeof(attr);
		ehd__buf_put(b, &attr, sizeof(attr));
		ehd__buf_put(b, &nids, 4);
		len = (uint32_t)((strlen(name) + 1 + 63) / 64 * 64);
		ehd__buf_put(b, &len, 4);
		ehd__buf_put(b, name, strlen(name));
		ehd__buf_put(b, zero, len - strlen(name));
		ehd__buf_put(b, c->attrs.p + a->at + a->attr_size, 8 * a->nids);
	}
	c->has_feat[EHD__PERF_FEAT_EVENT_DESC] = true;
}

/* Features, attrs and ids after the data; then the header. */
static int finish(struct conv *c, uint64_t data_size)
{
	uint64_t sec[2 * FEAT_BITS], hdr[HEADER_SIZE / 8], bits[4] = { 0 };
	uint64_t at, attrs_at, ids_at;
	size_t nsec = 0, i;
	struct ehd_buf t = EHD_BUF_INIT;
	int err;

	event_desc(c);
	for (i = 0; i < FEAT_BITS; i++)
		if (c->has_feat[i])
			nsec++;
	at = c->out_off + 16 * nsec;
	nsec = 0;
	for (i = 0; i < FEAT_BITS; i++) {
		if (!c->has_feat[i])
			continue;
		if (c->feat[i].err)
			return fail(c, -ENOMEM, "out of memory");
		bits[i / 64] |= 1ull << (i % 64);
		sec[2 * nsec] = at;
		sec[2 * nsec + 1] = c->feat[i].len;
		at += c->feat[i].len;
		nsec++;
	}
	err = write_all(c, sec, 16 * nsec);
	for (i = 0; i < FEAT_BITS && !err; i++)
		if (c->has_feat[i])
			err = write_all(c, c->feat[i].p, c->feat[i].len);
	if (err)
		return err;

	/* attrs: { attr (fixed size), ids section }, then the ids */
	attrs_at = c->out_off;
	ids_at = attrs_at + c->n * (sizeof(struct perf_event_attr) + 16);
	for (i = 0; i < c->n; i++) {
		const struct attr_rec *a = &c->v[i];
		struct perf_event_attr attr;
		uint64_t ids[2] = { ids_at, 8 * a->nids };

		memset(&attr, 0, sizeof(attr));
		memcpy(&attr, c->attrs.p + a->at,
		       a->attr_size < sizeof(attr) ? a->attr_size : sizeof(attr));
		attr.size = sizeof(attr);
		ehd__buf_put(&t, &attr, sizeof(attr));
		ehd__buf_put(&t, ids, sizeof(ids));
		ids_at += 8 * a->nids;
	}
	for (i = 0; i < c->n; i++)
		ehd__buf_put(&t, c->attrs.p + c->v[i].at + c->v[i].attr_size,
			     8 * c->v[i].nids);
	if (t.err) {
		ehd__buf_free(&t);
		return fail(c, -ENOMEM, "out of memory");
	}
	err = write_all(c, t.p, t.len);
	ehd__buf_free(&t);
	if (err)
		return err;

	memset(hdr, 0, sizeof(hdr));
	memcpy(hdr, "PERFILE2", 8);
	hdr[1] = HEADER_SIZE;
	hdr[2] = sizeof(struct perf_event_attr) + 16;
	hdr[3] = attrs_at;
	hdr[4] = c->n * (sizeof(struct perf_event_attr) + 16);
	hdr[5] = HEADER_SIZE;
	hdr[6] = data_size;
	memcpy(&hdr[9], bits, sizeof(bits));
	if (pwrite(c->out, hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr))
		return fail(c, -errno, "write: %s", strerror(errno));
	return 0;
}

static int convert(struct conv *c)
{
	static const char zero[HEADER_SIZE];
	uint64_t data_size = 0;
	int err;

	err = need(c, 16);
	if (err || memcmp(c->buf, "PERFILE2", 8) ||
	    ((const uint64_t *)c->buf)[1] != 16)
		return err < 0 ? err :
		       fail(c, -EBADMSG, "not a pipe-mode perf.data stream");
	c->pos = 16;
	err = write_all(c, zero, sizeof(zero));
	while (!err) {
		const struct perf_event_header *h;

		err = need(c, sizeof(*h));
		if (err)
			break;
		h = (const void *)(c->buf + c->pos);
		if (h->size < sizeof(*h) || h->size & 7)
			return fail(c, -EBADMSG, "bad record size %u", h->size);
		err = need(c, h->size);
		if (err)
			return err < 0 ? err :
			       fail(c, -EBADMSG, "truncated record");
		h = (const void *)(c->buf + c->pos);
		if (h->type >= EHD__PERF_RECORD_HEADER_ATTR) {
			uint32_t type = h->type;
			size_t size = h->size;

			err = user_record(c, c->buf + c->pos, type, size);
			if (!err && type == EHD__PERF_RECORD_FINISHED_ROUND)
				data_size += size;
			c->pos += size;
			continue;
		}
		ehd__buf_put(&c->wbuf, h, h->size);
		data_size += h->size;
		c->pos += h->size;
		err = flush_data(c, false);
	}
	if (err < 0)
		return err;
	err = flush_data(c, true);
	return err ? err : finish(c, data_size);
}

static void conv_free(struct conv *c)
{
	size_t i;

	ehd__buf_free(&c->wbuf);
	ehd__buf_free(&c->attrs);
	for (i = 0; i < c->n; i++)
		free(c->v[i].name);
	free(c->v);
	for (i = 0; i < FEAT_BITS; i++)
		ehd__buf_free(&c->feat[i]);
}

EHD_API int ehd_session_perf_file(int pipe_fd, int out_fd, char *why,
				  size_t why_size)
{
	struct conv c;
	int err;

	memset(&c, 0, sizeof(c));
	c.in = pipe_fd;
	c.out = out_fd;
	c.why = why;
	c.why_size = why_size;
	c.cap = IN_CHUNK * 2;
	c.buf = malloc(c.cap);
	if (!c.buf)
		return fail(&c, -ENOMEM, "out of memory");
	err = convert(&c);
	if (!err && (c.attrs.err || c.wbuf.err))
		err = fail(&c, -ENOMEM, "out of memory");
	free(c.buf);
	conv_free(&c);
	return err;
}

int ehd__perf_normal_finish(int out_fd, const void *meta, size_t len,
			    uint64_t data_size, char *why, size_t why_size)
{
	struct conv c;
	off_t end = lseek(out_fd, 0, SEEK_CUR);
	int err = 0;

	memset(&c, 0, sizeof(c));
	c.in = -1;
	c.out = out_fd;
	c.why = why;
	c.why_size = why_size;
	c.buf = (uint8_t *)meta;	/* only read */
	c.len = c.cap = len;
	if (end < 0)
		return fail(&c, -errno, "%s", strerror(errno));
	c.out_off = (uint64_t)end;
	while (!err && c.len - c.pos >= 8) {
		const struct perf_event_header *h = (const void *)(c.buf + c.pos);
		uint32_t type = h->type;
		size_t size = h->size;

		if (size < 8 || size > c.len - c.pos) {
			err = fail(&c, -EBADMSG, "bad description record");
			break;
		}
		if (type >= EHD__PERF_RECORD_HEADER_ATTR)
			err = user_record(&c, c.buf + c.pos, type, size);
		c.pos += size;
	}
	if (!err && (c.attrs.err || c.wbuf.err))
		err = fail(&c, -ENOMEM, "out of memory");
	if (!err)
		err = finish(&c, data_size);
	conv_free(&c);
	return err;
}
