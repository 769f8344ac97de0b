// SPDX-License-Identifier: MIT
/*
 * perf-file.c - streaming perf.data reader of libehdecode
 *
 * The input goes through one read buffer. A normal-mode file is read with
 * pread(): the header, the attrs and the feature sections (which follow
 * the data section) at open, then the data section from its start. A
 * pipe-mode file is read front to back only, so a pipe works. Each record
 * is copied into an 8-byte aligned record buffer before it is parsed;
 * records inside PERF_RECORD_COMPRESSED are decompressed by one zstd
 * stream (a record or a frame may go on in the next compressed record)
 * into a buffer of their own.
 *
 * Every length read from the file is checked against what is left of the
 * record, section or file before it is used.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <byteswap.h>
#include <endian.h>

#include <event-parse.h>
#include <zstd.h>

#include "core/ehd-buf.h"
#include "core/ehd-bytes.h"
#include "core/err.h"
#include "core/io.h"
#include "formats/perf/perf-file.h"
#include "formats/perf/perf-file-int.h"

#define RBUF_SIZE	(64u * 1024)	/* read buffer */
#define REC_MAX		(64u * 1024)	/* header.size is a u16 */
#define ZOUT_SIZE	(128u * 1024)	/* decompressed data buffer */
#define BLOB_CHUNK	(1u << 20)	/* tracing data is read in these */
/* Tracing data when the file size is unknown (pipe, compressed data). */
#define BLOB_MAX	((uint64_t)256 << 20)
#define ATTR_MAX	(64u * 1024)

#define HEADER_SIZE_V1	72	/* perf_file_header without adds_features */
#define HEADER_SIZE	104
#define PIPE_HEADER_SIZE 16

#define EVENT_UPDATE_NAME 2	/* PERF_EVENT_UPDATE__NAME */
#define COMP_ZSTD 1		/* COMPRESSED feature: type */

/* Where a name came from; a name is replaced only from the same or better. */
enum name_level {
	NAME_NONE,
	NAME_TEP,	/* made from the tracepoint format */
	NAME_UPDATE,	/* EVENT_UPDATE record */
	NAME_DESC,	/* EVENT_DESC feature */
};

struct desc_priv {
	struct ehd__perf_event_desc pub;
	char *name;
	enum name_level level;
	uint64_t *ids;
};

struct ehd__perf_file {
	unsigned int options;
	int fd;
	ehd__perf_source_fn source;	/* reads instead of fd when set */
	ehd__perf_view_fn view;		/* ... with views first, when set */
	void *source_ctx;
	bool own_fd;
	bool opened;
	bool seekable;
	bool swap;
	char *name;
	uint64_t file_size;	/* seekable: st_size; otherwise UINT64_MAX */
	uint64_t data_begin;
	uint64_t data_end;	/* pipe mode: UINT64_MAX */

	/*
	 * rbuf[rpos..rlen) holds the file bytes from rbase + rpos on: in own,
	 * or (borrowed) in a view of the source, read where it is.
	 */
	uint8_t *rbuf;
	uint8_t *own;
	bool borrowed;
	bool peeked_borrowed;	/* the record peek_record() gave is */
	size_t rpos;
	size_t rlen;
	uint64_t rbase;

	uint64_t *rec;		/* the current record, REC_MAX bytes */
	uint64_t *scratch;	/* host-order read/callchain values */
	size_t scratch_used;
	struct ehd__perf_record out;

	ZSTD_DStream *zds;
	uint8_t *zin;		/* the current COMPRESSED record */
	size_t zin_pos;
	size_t zin_len;
	uint64_t zin_off;
	uint8_t *zout;
	size_t zout_pos;
	size_t zout_len;
	bool zmore;		/* the decoder may hold more output */
	int comp_type;		/* COMPRESSED feature's type, -1 if none */

	struct desc_priv **descs;
	size_t ndesc;
	size_t desc_cap;
	uint64_t *hkeys;	/* id -> descs[] index + 1 in hvals */
	uint32_t *hvals;
	size_t hcap;
	size_t hcount;
	/* sample_desc()'s last id and its event */
	uint64_t last_id;
	struct desc_priv *last_desc;
	uint64_t ids_total;
	int sid_pos;		/* sample id offset in a sample, -1: none */
	int nsid_back;		/* id offset from the end of a sample_id */
	bool nsid_known;
	bool sid_conflict;
	bool nsid_conflict;

	uint8_t *feat[EHD__PERF_FEAT_BITS];
	size_t feat_size[EHD__PERF_FEAT_BITS];
	uint64_t feat_off[EHD__PERF_FEAT_BITS];
	uint64_t feat_total;

	struct ehd__perf_session session;
	char *strs[5];		/* hostname osrelease version arch cpudesc */
	char *cmdline;
	struct tep_handle *tep;
	char *tracing;
	bool tracing_done;

	struct ehd__err err;
};

static int fail(struct ehd__perf_file *f, int err, uint64_t off,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * fail() - record a failure
 * @f: the reader
 * @err: negative errno
 * @off: file offset where it was found
 * @fmt: reason
 *
 * Return: @err.
 */
static int fail(struct ehd__perf_file *f, int err, uint64_t off,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ehd__err_vset(&f->err, err, off, fmt, ap);
	va_end(ap);
	return err;
}

static int fail_nomem(struct ehd__perf_file *f, uint64_t off)
{
	return fail(f, -ENOMEM, off, "out of memory");
}

/* ---- byte order ---------------------------------------------------------- */

static uint16_t g16(const struct ehd__perf_file *f, const void *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return f->swap ? bswap_16(v) : v;
}

static uint32_t g32(const struct ehd__perf_file *f, const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return f->swap ? bswap_32(v) : v;
}

static uint64_t g64(const struct ehd__perf_file *f, const void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return f->swap ? bswap_64(v) : v;
}

static uint8_t rev8(uint8_t b)
{
	b = (uint8_t)((b & 0xF0) >> 4 | (b & 0x0F) << 4);
	b = (uint8_t)((b & 0xCC) >> 2 | (b & 0x33) << 2);
	return (uint8_t)((b & 0xAA) >> 1 | (b & 0x55) << 1);
}

/* Offsets and sizes of the perf_event_attr fields (PERF_ATTR_SIZE_VER8). */
static const struct {
	uint8_t off;
	uint8_t size;
} attr_fields[] = {
	{ 0, 4 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 },
	/* 40: the bit fields */
	{ 48, 4 }, { 52, 4 }, { 56, 8 }, { 64, 8 }, { 72, 8 }, { 80, 8 },
	{ 88, 4 }, { 92, 4 }, { 96, 8 }, { 104, 4 }, { 108, 2 }, { 110, 2 },
	{ 112, 4 }, { 116, 4 }, { 120, 8 }, { 128, 8 },
};
#define ATTR_BITS_OFF 40

/*
 * attr_to_host() - copy a file's perf_event_attr into host order
 * @f: the reader (its byte order)
 * @attr: zeroed destination
 * @p: the attr in the file
 * @size: its size in the file
 *
 * Bit fields are allocated from the other end of the word on a host of
 * the other byte order, and perf writes the word as it is in memory: the
 * bytes keep their order and the bits in each byte are reversed.
 */
static void attr_to_host(const struct ehd__perf_file *f,
			 struct perf_event_attr *attr, const uint8_t *p,
			 size_t size)
{
	uint8_t *a = (uint8_t *)attr;
	size_t n = size < sizeof(*attr) ? size : sizeof(*attr);
	size_t i;

	memcpy(a, p, n);
	if (!f->swap)
		return;
	for (i = 0; i < sizeof(attr_fields) / sizeof(attr_fields[0]); i++) {
		size_t off = attr_fields[i].off;

		if (off + attr_fields[i].size > n)
			break;
		if (attr_fields[i].size == 2) {
			uint16_t v = g16(f, a + off);

			memcpy(a + off, &v, 2);
		} else if (attr_fields[i].size == 4) {
			uint32_t v = g32(f, a + off);

			memcpy(a + off, &v, 4);
		} else {
			uint64_t v = g64(f, a + off);

			memcpy(a + off, &v, 8);
		}
	}
	if (ATTR_BITS_OFF + 8 <= n)
		for (i = ATTR_BITS_OFF; i < ATTR_BITS_OFF + 8; i++)
			a[i] = rev8(a[i]);
}

/* ---- input --------------------------------------------------------------- */

static uint64_t in_pos(const struct ehd__perf_file *f)
{
	return f->rbase + f->rpos;
}

/*
 * A view source: the next bytes where they are, when all before are
 * taken; otherwise (bytes left of a view, or the source says they must
 * be read) into own. Returns bytes, 0 at the end, -EAGAIN, or < 0.
 */
static int view_fill(struct ehd__perf_file *f)
{
	const void *p;
	size_t n;
	int r;

	if (f->rpos == f->rlen) {
		r = f->view(f->source_ctx, &p, &n);
		if (r == -ENODATA)
			goto copy;
		if (r < 0 && r != -EAGAIN)
			return fail(f, r, f->rbase + f->rlen,
				    "live stream: %s", strerror(-r));
		if (r <= 0)
			return r;
		f->rbase += f->rlen;
		f->rbuf = (uint8_t *)p;
		f->rpos = 0;
		f->rlen = n;
		f->borrowed = true;
		return (int)(n > INT32_MAX ? INT32_MAX : n);
	}
copy:
	if (f->borrowed) {
		/* A record cut at a view's end: on in a copy. */
		size_t left = f->rlen - f->rpos;

		if (left > RBUF_SIZE)
			return fail(f, -EINVAL, in_pos(f), "read buffer full");
		memcpy(f->own, f->rbuf + f->rpos, left);
		f->rbase += f->rpos;
		f->rbuf = f->own;
		f->rpos = 0;
		f->rlen = left;
		f->borrowed = false;
	}
	return 0x7fffffff;	/* read on into own */
}

/* Reads more input into rbuf. Returns bytes read, 0 at the end, or < 0. */
static int in_fill(struct ehd__perf_file *f)
{
	ssize_t n;

	if (f->view) {
		int r = view_fill(f);

		if (r != 0x7fffffff)
			return r;
	}
	if (f->rpos) {
		memmove(f->rbuf, f->rbuf + f->rpos, f->rlen - f->rpos);
		f->rbase += f->rpos;
		f->rlen -= f->rpos;
		f->rpos = 0;
	}
	if (f->rlen == RBUF_SIZE)
		return fail(f, -EINVAL, in_pos(f), "read buffer full");
	if (f->source) {
		n = f->source(f->source_ctx, f->rbuf + f->rlen,
			      RBUF_SIZE - f->rlen);
		if (n == -EAGAIN)
			return -EAGAIN;	/* nothing now: not a failure */
		if (n < 0)
			return fail(f, (int)n, f->rbase + f->rlen,
				    "live stream: %s", strerror((int)-n));
		f->rlen += (size_t)n;
		return (int)n;
	}
	if (f->seekable)
		n = ehd__pread_retry(f->fd, f->rbuf + f->rlen,
				     RBUF_SIZE - f->rlen, f->rbase + f->rlen);
	else
		n = ehd__read_retry(f->fd, f->rbuf + f->rlen,
				    RBUF_SIZE - f->rlen);
	if (n < 0)
		return fail(f, (int)n, f->rbase + f->rlen, "read: %s",
			    strerror((int)-n));
	f->rlen += (size_t)n;
	return (int)n;
}

/*
 * in_read() - take bytes from the input
 * @f: the reader
 * @dst: where to copy them, NULL to skip them
 * @n: how many
 * @got: gets how many were there
 *
 * Return: 0 with all @n, 1 when the input ended first, < 0 on error.
 */
static int in_read(struct ehd__perf_file *f, void *dst, uint64_t n,
		   uint64_t *got)
{
	uint64_t done = 0;
	int r;

	while (done < n) {
		size_t avail = f->rlen - f->rpos;
		size_t c;

		if (!avail) {
			if (!dst && f->seekable) {
				uint64_t pos = in_pos(f);
				uint64_t left = f->file_size > pos ?
						f->file_size - pos : 0;

				if (n - done > left) {
					f->rbase = pos + left;
					f->rpos = f->rlen = 0;
					*got = done + left;
					return 1;
				}
				f->rbase = pos + (n - done);
				f->rpos = f->rlen = 0;
				break;
			}
			r = in_fill(f);
			if (r < 0) {
				*got = done;
				return r;
			}
			if (!r) {
				*got = done;
				return 1;
			}
			continue;
		}
		c = n - done < avail ? (size_t)(n - done) : avail;
		if (dst)
			memcpy((uint8_t *)dst + done, f->rbuf + f->rpos, c);
		f->rpos += c;
		done += c;
	}
	*got = n;
	return 0;
}

/* Random access for the normal-mode header parts: all of it or an error. */
static int pread_all(struct ehd__perf_file *f, void *dst, uint64_t n,
		     uint64_t off, const char *what)
{
	size_t done;
	int err;

	if (off > f->file_size || n > f->file_size - off)
		return fail(f, -EBADMSG, off,
			    "%s (%llu bytes at %llu) past the end of the file (%llu bytes)",
			    what, (unsigned long long)n,
			    (unsigned long long)off,
			    (unsigned long long)f->file_size);
	/* @dst has room for @n bytes: they fit in a size_t. */
	err = ehd__pread_full(f->fd, dst, (size_t)n, off, &done);
	if (err)
		return fail(f, err, off + done, "read %s: %s", what,
			    strerror(-err));
	if (done < n)
		return fail(f, -EBADMSG, off + done,
			    "%s: file shorter than it was", what);
	return 0;
}

/*
 * file_record() - read the next record of the file (not decompressed)
 * @f: the reader
 * @buf: REC_MAX bytes, 8-byte aligned
 * @off: gets the record's file offset
 *
 * Return: 1 with a record, 0 at the end of the data, < 0 on error.
 */
static int file_record(struct ehd__perf_file *f, void *buf, uint64_t *off)
{
	uint64_t pos = in_pos(f), got;
	uint16_t size;
	int r;

	*off = pos;
	if (!f->session.pipe_mode) {
		if (pos >= f->data_end)
			return 0;
		if (f->data_end - pos < 8)
			return fail(f, -EBADMSG, pos,
				    "%llu bytes at the end of the data section, too few for a record",
				    (unsigned long long)(f->data_end - pos));
	}
	r = in_read(f, buf, 8, &got);
	if (r == -EAGAIN && got)
		return fail(f, -EBADMSG, pos, "live stream cut inside a record");
	if (r < 0)
		return r;
	if (r) {
		if (!got && f->session.pipe_mode)
			return 0;
		return fail(f, -EBADMSG, pos, "truncated record header");
	}
	size = g16(f, (uint8_t *)buf + 6);
	if (size < 8)
		return fail(f, -EBADMSG, pos, "record size %u is less than 8",
			    size);
	if (!f->session.pipe_mode && size > f->data_end - pos)
		return fail(f, -EBADMSG, pos,
			    "record of %u bytes runs past the end of the data section",
			    size);
	r = in_read(f, (uint8_t *)buf + 8, size - 8u, &got);
	if (r == -EAGAIN)
		return fail(f, -EBADMSG, pos, "live stream cut inside a record");
	if (r < 0)
		return r;
	if (r)
		return fail(f, -EBADMSG, pos,
			    "record of type %u and %u bytes truncated after %llu",
			    g32(f, buf), size, (unsigned long long)got + 8);
	return 1;
}

/*
 * The next record where it is in the read buffer, when it is there whole
 * (inside the data section), 8-byte aligned and of a valid size: not
 * taken; its stream offset in *@off, its size in *@size. NULL otherwise.
 */
static inline const uint8_t *record_here(const struct ehd__perf_file *f,
					 uint64_t *off, uint16_t *size)
{
	const uint8_t *p = f->rbuf + f->rpos;
	size_t avail = f->rlen - f->rpos;
	uint64_t pos = in_pos(f);
	uint16_t n;

	if (avail < 8 || ((uintptr_t)p & 7) ||
	    (!f->session.pipe_mode && (pos >= f->data_end ||
				       f->data_end - pos < 8)))
		return NULL;
	n = g16(f, p + 6);
	if (n < 8 || n > avail || (n & 7) ||
	    (!f->session.pipe_mode && n > f->data_end - pos))
		return NULL;
	*off = pos;
	*size = n;
	return p;
}

/*
 * peek_record() - the next record where it is in the read buffer, when it
 * is there whole, 8-byte aligned, and a kernel record (one that reads no
 * data after itself): no copy. Return: the record, taken; or NULL (then
 * file_record() copies it).
 */
static const uint8_t *peek_record(struct ehd__perf_file *f, uint64_t *off)
{
	const uint8_t *p;
	uint16_t size;

	p = record_here(f, off, &size);
	if (!p || g32(f, p) >= EHD__PERF_RECORD_HEADER_ATTR)
		return NULL;
	f->rpos += size;
	f->peeked_borrowed = f->borrowed;
	return p;
}

/* ---- compressed records -------------------------------------------------- */

/* zin holds a COMPRESSED or COMPRESSED2 record: make it the input. */
static int z_load(struct ehd__perf_file *f, uint64_t off)
{
	uint32_t type = g32(f, f->zin);
	uint16_t size = g16(f, f->zin + 6);
	uint64_t dsize;

	if (f->comp_type >= 0 && f->comp_type != COMP_ZSTD)
		return fail(f, -ENOTSUP, off,
			    "compressed records of type %d (only zstd is known)",
			    f->comp_type);
	if (type == EHD__PERF_RECORD_COMPRESSED) {
		f->zin_pos = 8;
		f->zin_len = size;
	} else {
		if (size < 16)
			return fail(f, -EBADMSG, off,
				    "COMPRESSED2 record of %u bytes", size);
		dsize = g64(f, f->zin + 8);
		if (dsize > size - 16u)
			return fail(f, -EBADMSG, off,
				    "COMPRESSED2 data size %llu beyond its record of %u bytes",
				    (unsigned long long)dsize, size);
		f->zin_pos = 16;
		f->zin_len = 16 + (size_t)dsize;
	}
	f->zin_off = off;
	if (!f->zds) {
		f->zds = ZSTD_createDStream();
		if (!f->zds)
			return fail_nomem(f, off);
		if (ZSTD_isError(ZSTD_initDStream(f->zds)))
			return fail_nomem(f, off);
	}
	return 0;
}

/*
 * z_pull() - decompress more of the current input into zout (when empty)
 * @f: the reader
 *
 * Return: bytes produced; 0 when the input is used up; < 0 on error.
 */
static int z_pull(struct ehd__perf_file *f)
{
	ZSTD_outBuffer out;
	ZSTD_inBuffer in;
	size_t ret, before;

	f->zout_pos = f->zout_len = 0;
	if (!f->zds)
		return 0;
	for (;;) {
		if (f->zin_pos == f->zin_len && !f->zmore)
			return 0;
		out.dst = f->zout;
		out.size = ZOUT_SIZE;
		out.pos = 0;
		in.src = f->zin;
		in.size = f->zin_len;
		in.pos = f->zin_pos;
		before = in.pos;
		ret = ZSTD_decompressStream(f->zds, &out, &in);
		if (ZSTD_isError(ret))
			return fail(f, -EBADMSG, f->zin_off, "zstd: %s",
				    ZSTD_getErrorName(ret));
		f->zin_pos = in.pos;
		f->zmore = out.pos == out.size;
		if (out.pos) {
			f->zout_len = out.pos;
			return (int)out.pos;
		}
		if (in.pos == before) {
			if (in.pos < in.size)
				return fail(f, -EBADMSG, f->zin_off,
					    "zstd: no progress in compressed data");
			return 0;	/* wants more input */
		}
	}
}

/* The decompressed data ended inside a record: go on with the next one. */
static int z_next_input(struct ehd__perf_file *f)
{
	uint64_t off;
	uint32_t type;
	int r;

	r = file_record(f, f->zin, &off);
	if (r < 0)
		return r;
	if (!r)
		return fail(f, -EBADMSG, off,
			    "the data end inside a compressed record");
	type = g32(f, f->zin);
	if (type != EHD__PERF_RECORD_COMPRESSED &&
	    type != EHD__PERF_RECORD_COMPRESSED2)
		return fail(f, -EBADMSG, off,
			    "a record goes on past the compressed data (next record: type %u)",
			    type);
	return z_load(f, off);
}

/* Takes @n decompressed bytes (@dst NULL: skips them). */
static int z_read(struct ehd__perf_file *f, void *dst, uint64_t n)
{
	int r;

	while (n) {
		size_t avail = f->zout_len - f->zout_pos;
		size_t c;

		if (!avail) {
			r = z_pull(f);
			if (!r)
				r = z_next_input(f);
			if (r < 0)
				return r;
			continue;
		}
		c = n < avail ? (size_t)n : avail;
		if (dst) {
			memcpy(dst, f->zout + f->zout_pos, c);
			dst = (uint8_t *)dst + c;
		}
		f->zout_pos += c;
		n -= c;
	}
	return 0;
}

/*
 * z_record() - the next record from the decompressed data
 * @f: the reader
 * @off: gets the offset of the compressed record it starts in
 *
 * Return: 1 with a record in f->rec, 0 when no decompressed data are
 * pending, < 0 on error.
 */
static int z_record(struct ehd__perf_file *f, uint64_t *off)
{
	uint16_t size;
	int r;

	if (f->zout_pos == f->zout_len) {
		r = z_pull(f);
		if (r <= 0)
			return r;
	}
	*off = f->zin_off;
	r = z_read(f, f->rec, 8);
	if (r)
		return r;
	size = g16(f, (uint8_t *)f->rec + 6);
	if (size < 8)
		return fail(f, -EBADMSG, *off,
			    "decompressed record size %u is less than 8", size);
	r = z_read(f, (uint8_t *)f->rec + 8, size - 8u);
	return r ? r : 1;
}

/*
 * src_read() - data that follow a record (tracing data, aux data)
 * @f: the reader
 * @z: the record came from the decompressed data
 * @dst: destination, NULL to skip
 * @n: bytes
 * @off: the record's offset, for messages
 *
 * Return: 0 or < 0.
 */
static int src_read(struct ehd__perf_file *f, bool z, void *dst, uint64_t n,
		    uint64_t off)
{
	uint64_t pos = in_pos(f), got;
	int r;

	if (z)
		return z_read(f, dst, n);
	if (!f->session.pipe_mode && n > f->data_end - pos)
		return fail(f, -EBADMSG, off,
			    "%llu bytes after the record run past the end of the data section",
			    (unsigned long long)n);
	r = in_read(f, dst, n, &got);
	if (r > 0)
		return fail(f, -EBADMSG, off,
			    "%llu bytes after the record truncated after %llu",
			    (unsigned long long)n, (unsigned long long)got);
	return r;
}

/* Reads @n bytes following a record into a new buffer, NUL-terminated. */
static int read_blob(struct ehd__perf_file *f, bool z, uint64_t n,
		     uint64_t off, char **out)
{
	struct ehd_buf b = EHD_BUF_INIT;
	uint64_t left = UINT64_MAX;
	int r;

	if (!z && f->seekable)
		left = f->file_size > in_pos(f) ? f->file_size - in_pos(f) : 0;
	if (n > left || (left == UINT64_MAX && n > BLOB_MAX))
		return fail(f, -EFBIG, off,
			    "%llu bytes of tracing data: more than the %s",
			    (unsigned long long)n,
			    left == UINT64_MAX ? "limit" : "rest of the file");
	while (b.len < n) {
		size_t c = n - b.len > BLOB_CHUNK ? BLOB_CHUNK :
						     (size_t)(n - b.len);

		if (ehd__buf_reserve(&b, c)) {
			ehd__buf_free(&b);
			return fail_nomem(f, off);
		}
		r = src_read(f, z, b.p + b.len, c, off);
		if (r) {
			ehd__buf_free(&b);
			return r;
		}
		b.len += c;
	}
	if (ehd__buf_reserve(&b, 1)) {
		ehd__buf_free(&b);
		return fail_nomem(f, off);
	}
	b.p[b.len] = 0;
	*out = b.p;
	return 0;
}

/* ---- events -------------------------------------------------------------- */

static size_t hash_slot(uint64_t id, size_t cap)
{
	return (size_t)((id * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

static struct desc_priv *find_desc(const struct ehd__perf_file *f, uint64_t id)
{
	size_t h;

	if (!f->hcap)
		return NULL;
	for (h = hash_slot(id, f->hcap); f->hvals[h]; h = (h + 1) & (f->hcap - 1))
		if (f->hkeys[h] == id)
			return f->descs[f->hvals[h] - 1];
	return NULL;
}

/*
 * The event of a sample's @id, the last one found kept: a recording's
 * samples come in runs of one event (hash_put() forgets it).
 */
static struct desc_priv *sample_desc(struct ehd__perf_file *f, uint64_t id)
{
	struct desc_priv *d;

	if (f->last_desc && id == f->last_id)
		return f->last_desc;
	d = find_desc(f, id);
	if (d) {
		f->last_id = id;
		f->last_desc = d;
	}
	return d;
}

static void hash_put_nogrow(uint64_t *keys, uint32_t *vals, size_t cap,
			    uint64_t id, uint32_t val, size_t *count)
{
	size_t h;

	for (h = hash_slot(id, cap); vals[h]; h = (h + 1) & (cap - 1))
		if (keys[h] == id)
			break;
	if (!vals[h])
		(*count)++;
	keys[h] = id;
	vals[h] = val;
}

static int hash_put(struct ehd__perf_file *f, uint64_t id, uint32_t val)
{
	f->last_desc = NULL;
	if ((f->hcount + 1) * 2 > f->hcap) {
		size_t cap = f->hcap ? f->hcap * 2 : 64, i, count = 0;
		uint64_t *keys = calloc(cap, sizeof(*keys));
		uint32_t *vals = calloc(cap, sizeof(*vals));

		if (!keys || !vals) {
			free(keys);
			free(vals);
			return -ENOMEM;
		}
		for (i = 0; i < f->hcap; i++)
			if (f->hvals[i])
				hash_put_nogrow(keys, vals, cap, f->hkeys[i],
						f->hvals[i], &count);
		free(f->hkeys);
		free(f->hvals);
		f->hkeys = keys;
		f->hvals = vals;
		f->hcap = cap;
		f->hcount = count;
	}
	hash_put_nogrow(f->hkeys, f->hvals, f->hcap, id, val, &f->hcount);
	return 0;
}

static int set_name(struct desc_priv *d, const char *s, size_t len,
		    enum name_level level)
{
	char *name;

	if (level < d->level)
		return 0;
	name = strndup(s, len);
	if (!name)
		return -ENOMEM;
	free(d->name);
	d->name = name;
	d->pub.name = name;
	d->level = level;
	return 0;
}

/* Links a tracepoint event to its format, once the tracing data are in. */
static int resolve_desc(struct ehd__perf_file *f, struct desc_priv *d)
{
	struct tep_format_field *field;
	struct tep_event *ev;
	char *name;
	int r;

	if (d->pub.attr.type != PERF_TYPE_TRACEPOINT || !f->tracing_done ||
	    d->pub.attr.config > INT_MAX)
		return 0;
	ev = tep_find_event(f->tep, (int)d->pub.attr.config);
	if (!ev)
		return 0;
	d->pub.tep_event = ev;
	d->pub.tp_name = ev->name;
	d->pub.tp_name_len = strlen(ev->name);
	field = ev->format.fields;
	d->pub.eh_offset = field && field->name &&
			   !strcmp(field->name, "eventheader_flags") ?
			   field->offset : -1;
	if (d->level > NAME_TEP || !ev->system || !ev->name)
		return 0;
	if (asprintf(&name, "%s:%s", ev->system, ev->name) < 0)
		return -ENOMEM;
	r = set_name(d, name, strlen(name), NAME_TEP);
	free(name);
	return r;
}

/* Where the id is in a sample and in a sample_id suffix. */
static void note_id_pos(struct ehd__perf_file *f, const struct perf_event_attr *a)
{
	uint64_t st = a->sample_type;
	int sid = -1, nsid = -1;

	if (st & PERF_SAMPLE_IDENTIFIER) {
		sid = 0;
		nsid = 8;
	} else if (st & PERF_SAMPLE_ID) {
		sid = 8 * __builtin_popcountll(st & (PERF_SAMPLE_IP |
			PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR));
		nsid = 8 * (1 + !!(st & PERF_SAMPLE_CPU) +
			    !!(st & PERF_SAMPLE_STREAM_ID));
	}
	if (f->ndesc == 1)
		f->sid_pos = sid;
	else if (f->sid_pos != sid)
		f->sid_conflict = true;
	if (!a->sample_id_all)
		return;
	if (!f->nsid_known) {
		f->nsid_back = nsid;
		f->nsid_known = true;
	} else if (f->nsid_back != nsid) {
		f->nsid_conflict = true;
	}
}

/*
 * add_attr() - a new event from the attrs section or HEADER_ATTR
 * @f: the reader
 * @a: the attr in the file
 * @avail: bytes at @a that may belong to the attr
 * @ids: its ids in the file byte order
 * @nids: number of @ids
 * @off: file offset for messages
 *
 * Return: 0 or < 0.
 */
static int add_attr(struct ehd__perf_file *f, const uint8_t *a, size_t avail,
		    const uint8_t *ids, size_t nids, uint64_t off)
{
	struct desc_priv *d, **descs;
	uint32_t asz;
	size_t i;
	int r;

	if (avail < PERF_ATTR_SIZE_VER0)
		return fail(f, -EBADMSG, off, "attr of %zu bytes is too short",
			    avail);
	asz = g32(f, a + 4);
	if (!asz)
		asz = PERF_ATTR_SIZE_VER0;
	if (asz < PERF_ATTR_SIZE_VER0 || asz > avail)
		return fail(f, -EBADMSG, off,
			    "attr size %u is not in %u..%zu", asz,
			    PERF_ATTR_SIZE_VER0, avail);
	if (f->ndesc >= UINT32_MAX - 1)
		return fail(f, -EFBIG, off, "too many attrs");
	if (f->ndesc == f->desc_cap) {
		size_t cap = f->desc_cap ? f->desc_cap * 2 : 16;

		descs = realloc(f->descs, cap * sizeof(*descs));
		if (!descs)
			return fail_nomem(f, off);
		f->descs = descs;
		f->desc_cap = cap;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return fail_nomem(f, off);
	if (nids) {
		d->ids = malloc(nids * sizeof(*d->ids));
		if (!d->ids) {
			free(d);
			return fail_nomem(f, off);
		}
	}
	attr_to_host(f, &d->pub.attr, a, asz);
	/* Without CLOCK_DATA, the clock an event asked for. */
	if (d->pub.attr.use_clockid &&
	    f->session.clockid == EHD__PERF_CLOCKID_UNKNOWN)
		f->session.clockid = (uint32_t)d->pub.attr.clockid;
	d->pub.attr.size = asz;
	d->pub.attr_size = asz;
	d->pub.name = "";
	d->pub.eh_offset = -1;
	for (i = 0; i < nids; i++)
		d->ids[i] = g64(f, ids + 8 * i);
	d->pub.ids = d->ids;
	d->pub.ids_count = nids;
	d->pub.index = f->ndesc;
	f->descs[f->ndesc++] = d;
	for (i = 0; i < nids; i++)
		if (hash_put(f, d->ids[i], (uint32_t)f->ndesc))
			return fail_nomem(f, off);
	note_id_pos(f, &d->pub.attr);
	r = resolve_desc(f, d);
	return r ? fail_nomem(f, off) : 0;
}

/* ---- features ------------------------------------------------------------ */

/* A perf header string: u32 length, then that many bytes, NUL-padded. */
static int get_string(struct ehd__perf_file *f, const uint8_t *p, size_t n,
		      size_t *o, const char **s, size_t *len, uint64_t off,
		      const char *what)
{
	uint32_t l;

	if (n - *o < 4)
		return fail(f, -EBADMSG, off + *o, "%s: no string length", what);
	l = g32(f, p + *o);
	*o += 4;
	if (l > n - *o)
		return fail(f, -EBADMSG, off + *o - 4,
			    "%s: string of %u bytes past the end of its section",
			    what, l);
	*s = (const char *)p + *o;
	*len = strnlen(*s, l);
	*o += l;
	return 0;
}

static const char *const feat_names[EHD__PERF_FEAT_LAST] = {
	[EHD__PERF_FEAT_TRACING_DATA] = "TRACING_DATA",
	[EHD__PERF_FEAT_HOSTNAME] = "HOSTNAME",
	[EHD__PERF_FEAT_OSRELEASE] = "OSRELEASE",
	[EHD__PERF_FEAT_VERSION] = "VERSION",
	[EHD__PERF_FEAT_ARCH] = "ARCH",
	[EHD__PERF_FEAT_NRCPUS] = "NRCPUS",
	[EHD__PERF_FEAT_CPUDESC] = "CPUDESC",
	[EHD__PERF_FEAT_CMDLINE] = "CMDLINE",
	[EHD__PERF_FEAT_EVENT_DESC] = "EVENT_DESC",
	[EHD__PERF_FEAT_CLOCKID] = "CLOCKID",
	[EHD__PERF_FEAT_COMPRESSED] = "COMPRESSED",
	[EHD__PERF_FEAT_CLOCK_DATA] = "CLOCK_DATA",
};

static int feat_string(struct ehd__perf_file *f, unsigned int bit, int slot,
		       const char **dst)
{
	const char *s = NULL;
	size_t o = 0, len = 0;
	char *copy;
	int r;

	r = get_string(f, f->feat[bit], f->feat_size[bit], &o, &s, &len,
		       f->feat_off[bit], feat_names[bit]);
	if (r)
		return r;
	copy = strndup(s, len);
	if (!copy)
		return fail_nomem(f, f->feat_off[bit]);
	free(f->strs[slot]);
	f->strs[slot] = copy;
	*dst = copy;
	return 0;
}

static int feat_cmdline(struct ehd__perf_file *f)
{
	const uint8_t *p = f->feat[EHD__PERF_FEAT_CMDLINE];
	size_t n = f->feat_size[EHD__PERF_FEAT_CMDLINE], o = 4, len = 0;
	uint64_t off = f->feat_off[EHD__PERF_FEAT_CMDLINE];
	struct ehd_buf b = EHD_BUF_INIT;
	const char *s = NULL;
	uint32_t nr, i;
	int r;

	if (n < 4)
		return fail(f, -EBADMSG, off, "CMDLINE: no count");
	nr = g32(f, p);
	if (nr > (n - 4) / 4)
		return fail(f, -EBADMSG, off, "CMDLINE: %u words cannot fit", nr);
	for (i = 0; i < nr; i++) {
		r = get_string(f, p, n, &o, &s, &len, off, "CMDLINE");
		if (r) {
			ehd__buf_free(&b);
			return r;
		}
		if (i)
			ehd__buf_putc(&b, ' ');
		ehd__buf_put(&b, s, len);
	}
	if (ehd__buf_reserve(&b, 0)) {
		ehd__buf_free(&b);
		return fail_nomem(f, off);
	}
	b.p[b.len] = 0;
	free(f->cmdline);
	f->cmdline = b.p;
	f->session.cmdline = b.p;
	return 0;
}

/* Names from EVENT_DESC: entries are matched to events by their ids. */
static int feat_event_desc(struct ehd__perf_file *f)
{
	const uint8_t *p = f->feat[EHD__PERF_FEAT_EVENT_DESC];
	size_t n = f->feat_size[EHD__PERF_FEAT_EVENT_DESC], o = 8, len = 0;
	uint64_t off = f->feat_off[EHD__PERF_FEAT_EVENT_DESC];
	uint32_t nr, asz, nids, i;
	struct desc_priv *d;
	const char *s = NULL;
	int r;

	if (!p)
		return 0;
	if (n < 8)
		return fail(f, -EBADMSG, off, "EVENT_DESC: no header");
	nr = g32(f, p);
	asz = g32(f, p + 4);
	for (i = 0; i < nr; i++) {
		if (asz > n - o)
			return fail(f, -EBADMSG, off + o,
				    "EVENT_DESC: attr %u of %u bytes past the end",
				    i, asz);
		o += asz;
		if (n - o < 4)
			return fail(f, -EBADMSG, off + o,
				    "EVENT_DESC: no id count for event %u", i);
		nids = g32(f, p + o);
		o += 4;
		r = get_string(f, p, n, &o, &s, &len, off, "EVENT_DESC");
		if (r)
			return r;
		if (nids > (n - o) / 8)
			return fail(f, -EBADMSG, off + o,
				    "EVENT_DESC: %u ids past the end", nids);
		if (nids)
			d = find_desc(f, g64(f, p + o));
		else
			d = i < f->ndesc ? f->descs[i] : NULL;
		o += 8 * (size_t)nids;
		if (d && set_name(d, s, len, NAME_DESC))
			return fail_nomem(f, off);
	}
	return 0;
}

static int parse_tracing(struct ehd__perf_file *f, char *data, size_t size,
			 uint64_t off)
{
	struct ehd__perf_tracing_err err = { 0, NULL };
	struct ehd__perf_session *s = &f->session;
	size_t i;
	int r;

	r = ehd__perf_parse_tracing(f->tep, s, data, size,
				    f->options & EHD__PERF_OPT_PRINT_FMT, &err);
	if (r) {
		/* Nothing may point into the data any more. */
		s->tracing_version = NULL;
		s->header_page = s->header_event = NULL;
		s->kallsyms = s->printk = s->saved_cmdline = NULL;
		s->header_page_size = s->header_event_size = 0;
		s->kallsyms_size = s->printk_size = s->saved_cmdline_size = 0;
		free(data);
		if (r == -ENOMEM)
			return fail_nomem(f, off);
		return fail(f, r, off + err.offset, "%s", err.why);
	}
	/* A later record (a live session found tracepoints) adds formats. */
	free(f->tracing);
	f->tracing = data;
	f->tracing_done = true;
	for (i = 0; i < f->ndesc; i++)
		if (resolve_desc(f, f->descs[i]))
			return fail_nomem(f, off);
	return 0;
}

/* Applies the feature @bit that was just stored. */
static int apply_feature(struct ehd__perf_file *f, unsigned int bit)
{
	const uint8_t *p = f->feat[bit];
	size_t n = f->feat_size[bit];
	uint64_t off = f->feat_off[bit];
	struct ehd__perf_session *s = &f->session;
	char *copy;

	switch (bit) {
	case EHD__PERF_FEAT_HOSTNAME:
		return feat_string(f, bit, 0, &s->hostname);
	case EHD__PERF_FEAT_OSRELEASE:
		return feat_string(f, bit, 1, &s->osrelease);
	case EHD__PERF_FEAT_VERSION:
		return feat_string(f, bit, 2, &s->version);
	case EHD__PERF_FEAT_ARCH:
		return feat_string(f, bit, 3, &s->arch);
	case EHD__PERF_FEAT_CPUDESC:
		return feat_string(f, bit, 4, &s->cpudesc);
	case EHD__PERF_FEAT_CMDLINE:
		return feat_cmdline(f);
	case EHD__PERF_FEAT_NRCPUS:
		if (n < 8)
			return fail(f, -EBADMSG, off, "NRCPUS: %zu bytes", n);
		s->nr_cpus_avail = g32(f, p);
		s->nr_cpus_online = g32(f, p + 4);
		return 0;
	case EHD__PERF_FEAT_CLOCKID:
		/* The clock's resolution in ns: the clock is in CLOCK_DATA. */
		if (n < 8)
			return fail(f, -EBADMSG, off, "CLOCKID: %zu bytes", n);
		return 0;
	case EHD__PERF_FEAT_CLOCK_DATA:
		if (n < 4)
			return fail(f, -EBADMSG, off, "CLOCK_DATA: %zu bytes", n);
		if (g32(f, p) < 1)
			return 0;	/* version 0: nothing known */
		if (n < 24)
			return fail(f, -EBADMSG, off, "CLOCK_DATA: %zu bytes", n);
		s->clockid = g32(f, p + 4);
		s->has_clock_offset = true;
		s->clock_offset = g64(f, p + 8) - g64(f, p + 16);
		return 0;
	case EHD__PERF_FEAT_COMPRESSED:
		if (n < 8)
			return fail(f, -EBADMSG, off, "COMPRESSED: %zu bytes", n);
		f->comp_type = (int)(g32(f, p + 4) & INT_MAX);
		return 0;
	case EHD__PERF_FEAT_EVENT_DESC:
		return feat_event_desc(f);
	case EHD__PERF_FEAT_TRACING_DATA:
		if (f->tracing_done)
			return 0;
		copy = malloc(n + 1);
		if (!copy)
			return fail_nomem(f, off);
		memcpy(copy, p, n);
		copy[n] = 0;
		return parse_tracing(f, copy, n, off);
	default:
		return 0;
	}
}

/* Keeps a copy of feature @bit (replacing one from before). */
static int store_feature(struct ehd__perf_file *f, unsigned int bit,
			 const void *p, size_t n, uint64_t off)
{
	uint8_t *copy = malloc(n ? n : 1);

	if (!copy)
		return fail_nomem(f, off);
	memcpy(copy, p, n);
	free(f->feat[bit]);
	f->feat[bit] = copy;
	f->feat_size[bit] = n;
	f->feat_off[bit] = off;
	return 0;
}

/* ---- normal-mode header -------------------------------------------------- */

static int load_attrs(struct ehd__perf_file *f, uint64_t attr_size,
		      uint64_t off, uint64_t size)
{
	uint64_t i, nattr, ids_off, ids_size;
	uint8_t *buf, *ids = NULL;
	int r = 0;

	if (!size)
		return 0;
	if (attr_size < PERF_ATTR_SIZE_VER0 + 16 || attr_size > ATTR_MAX + 16)
		return fail(f, -EBADMSG, 16, "attr_size %llu is not in %u..%u",
			    (unsigned long long)attr_size,
			    PERF_ATTR_SIZE_VER0 + 16, ATTR_MAX + 16);
	if (off > f->file_size || size > f->file_size - off)
		return fail(f, -EBADMSG, 24,
			    "attrs section (%llu bytes at %llu) past the end of the file",
			    (unsigned long long)size, (unsigned long long)off);
	if (size % attr_size)
		return fail(f, -EBADMSG, 24,
			    "attrs section of %llu bytes is not a multiple of attr_size %llu",
			    (unsigned long long)size,
			    (unsigned long long)attr_size);
	nattr = size / attr_size;
	buf = malloc((size_t)attr_size);
	if (!buf)
		return fail_nomem(f, off);
	for (i = 0; i < nattr && !r; i++) {
		uint64_t aoff = off + i * attr_size;

		r = pread_all(f, buf, attr_size, aoff, "attr");
		if (r)
			break;
		ids_off = g64(f, buf + attr_size - 16);
		ids_size = g64(f, buf + attr_size - 8);
		if (ids_size % 8 || ids_size > f->file_size ||
		    f->ids_total + ids_size > f->file_size) {
			r = fail(f, -EBADMSG, aoff + attr_size - 16,
				 "ids section of %llu bytes for attr %llu",
				 (unsigned long long)ids_size,
				 (unsigned long long)i);
			break;
		}
		f->ids_total += ids_size;
		ids = malloc(ids_size ? (size_t)ids_size : 1);
		if (!ids) {
			r = fail_nomem(f, aoff);
			break;
		}
		r = pread_all(f, ids, ids_size, ids_off, "ids section");
		if (!r)
			r = add_attr(f, buf, (size_t)attr_size - 16, ids,
				     (size_t)(ids_size / 8), aoff);
		free(ids);
	}
	free(buf);
	return r;
}

/* How many feature bits the header's @flags set. */
static unsigned int count_features(const struct ehd__perf_file *f,
				   const uint8_t *flags)
{
	unsigned int bit, n = 0;

	for (bit = 0; bit < EHD__PERF_FEAT_BITS; bit++)
		if (g64(f, flags + 8 * (bit / 64)) >> (bit % 64) & 1)
			n++;
	return n;
}

static int load_features(struct ehd__perf_file *f, const uint8_t *flags)
{
	uint64_t table = f->data_end, sec_off, sec_size;
	unsigned int bit, nfeat = count_features(f, flags), k = 0;
	uint8_t *sections;
	int r = 0;

	if (!nfeat)
		return 0;
	sections = malloc(16 * (size_t)nfeat);
	if (!sections)
		return fail_nomem(f, table);
	r = pread_all(f, sections, 16 * (uint64_t)nfeat, table,
		      "feature section table");
	for (bit = 0; bit < EHD__PERF_FEAT_BITS && !r; bit++) {
		if (!(g64(f, flags + 8 * (bit / 64)) >> (bit % 64) & 1))
			continue;
		sec_off = g64(f, sections + 16 * k);
		sec_size = g64(f, sections + 16 * k + 8);
		k++;
		if (sec_size > f->file_size ||
		    f->feat_total + sec_size > f->file_size) {
			r = fail(f, -EFBIG, table + 16 * (k - 1),
				 "feature %u: section of %llu bytes is larger than the file",
				 bit, (unsigned long long)sec_size);
			break;
		}
		f->feat_total += sec_size;
		free(f->feat[bit]);
		f->feat[bit] = malloc(sec_size ? (size_t)sec_size : 1);
		if (!f->feat[bit]) {
			r = fail_nomem(f, sec_off);
			break;
		}
		f->feat_size[bit] = (size_t)sec_size;
		f->feat_off[bit] = sec_off;
		r = pread_all(f, f->feat[bit], sec_size, sec_off,
			      "feature section");
	}
	free(sections);
	/* EVENT_DESC last: tracepoint names from TRACING_DATA rank lower. */
	for (bit = 0; bit < EHD__PERF_FEAT_BITS && !r; bit++)
		if (f->feat[bit] && bit != EHD__PERF_FEAT_EVENT_DESC)
			r = apply_feature(f, bit);
	if (!r && f->feat[EHD__PERF_FEAT_EVENT_DESC])
		r = apply_feature(f, EHD__PERF_FEAT_EVENT_DESC);
	return r;
}

/* A data size of 0 where records follow the header: a recording cut short. */
static int unfinished(struct ehd__perf_file *f)
{
	return fail(f, -EBADMSG, 48,
		    "data size 0 and no feature sections after the data: a recording that did not end (perf record killed or still running)");
}

static int open_normal(struct ehd__perf_file *f, uint64_t hsize)
{
	uint8_t h[HEADER_SIZE] = { 0 };
	uint64_t attr_size, attrs_off, attrs_size, data_off, data_size;
	int r;

	if (!f->seekable)
		return fail(f, -ENOTSUP, 8,
			    "normal-mode perf.data can only be read from a regular file");
	if (hsize < HEADER_SIZE_V1)
		return fail(f, -EBADMSG, 8, "header size %llu is too small",
			    (unsigned long long)hsize);
	r = pread_all(f, h, hsize < HEADER_SIZE ? hsize : HEADER_SIZE, 0,
		      "file header");
	if (r)
		return r;
	attr_size = g64(f, h + 16);
	attrs_off = g64(f, h + 24);
	attrs_size = g64(f, h + 32);
	data_off = g64(f, h + 40);
	data_size = g64(f, h + 48);
	if (data_off > f->file_size || data_size > f->file_size - data_off)
		return fail(f, -EBADMSG, 40,
			    "data section (%llu bytes at %llu) past the end of the file (%llu bytes)",
			    (unsigned long long)data_size,
			    (unsigned long long)data_off,
			    (unsigned long long)f->file_size);
	f->data_begin = data_off;
	f->data_end = data_off + data_size;
	r = load_attrs(f, attr_size, attrs_off, attrs_size);
	if (!r && hsize >= HEADER_SIZE) {
		r = load_features(f, h + 72);
		/*
		 * perf record writes the data size and the feature sections
		 * after the data when it ends: without them, the "sections"
		 * are records.
		 */
		if (r && r != -ENOMEM && !data_size)
			return unfinished(f);
	}
	/* Nor any feature bits: the records are there, unaccounted for. */
	if (!r && !data_size && !count_features(f, h + 72) &&
	    f->file_size > data_off &&
	    f->file_size - data_off > (attrs_off >= data_off ? attrs_size : 0))
		return unfinished(f);
	if (r)
		return r;
	f->rbase = data_off;
	f->rpos = f->rlen = 0;
	return 0;
}

/* ---- records ------------------------------------------------------------- */

/* Host-order copies of @n u64s at @p (in place when no swap is needed). */
static const uint64_t *host_u64s(struct ehd__perf_file *f, const uint8_t *p,
				 size_t n)
{
	uint64_t *dst;
	size_t i;

	if (!f->swap)
		return (const uint64_t *)(const void *)p;
	dst = f->scratch + f->scratch_used;
	for (i = 0; i < n; i++)
		dst[i] = g64(f, p + 8 * i);
	f->scratch_used += n;
	return dst;
}

/* The fixed fields a fast layout may have, in the order they come. */
static const uint64_t fast_bits[] = {
	PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID,
	PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR, PERF_SAMPLE_ID,
	PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD,
};

static void plan_layout(const struct ehd__perf_file *f, struct desc_priv *d)
{
	const uint64_t ok = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
		PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
		PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
		PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW;
	uint64_t st = d->pub.attr.sample_type;
	struct ehd__perf_layout *l = &d->pub.lay;
	uint8_t *at[] = { NULL, &l->ip, &l->tid, &l->time, &l->addr, &l->id,
			  &l->stream_id, &l->cpu, &l->period };
	unsigned int o = 0, i;

	memset(l, 0, sizeof(*l));
	l->state = -1;
	if (f->swap || (st & ~ok))
		return;
	for (i = 0; i < sizeof(fast_bits) / sizeof(fast_bits[0]); i++) {
		if (!(st & fast_bits[i]))
			continue;
		if (at[i])
			*at[i] = (uint8_t)(o + 1);
		o += 8;
	}
	l->fixed = (uint16_t)o;
	l->state = 1;
}

/* parse_sample() for a fast layout: every member set, no byte swapped. */
static int parse_fast(struct ehd__perf_file *f, const struct desc_priv *d,
		      const uint8_t *p, size_t n, uint64_t off,
		      struct ehd__perf_sample *s)
{
	const struct ehd__perf_layout *l = &d->pub.lay;
	uint64_t st = d->pub.attr.sample_type, nr, v;
	size_t o = l->fixed;
	uint32_t sz;

	if (n < o)
		goto short_sample;
	s->fields = st;
	s->ip = ehd__perf_at64(p, l->ip);
	v = ehd__perf_at64(p, l->tid);
	s->pid = (uint32_t)v;
	s->tid = (uint32_t)(v >> 32);
	s->time = ehd__perf_at64(p, l->time);
	s->addr = ehd__perf_at64(p, l->addr);
	if (l->id)
		s->id = ehd__perf_at64(p, l->id);
	else if (st & PERF_SAMPLE_IDENTIFIER)
		s->id = ehd__perf_at64(p, 1);
	else
		s->id = 0;
	s->stream_id = ehd__perf_at64(p, l->stream_id);
	s->cpu = (uint32_t)ehd__perf_at64(p, l->cpu);
	s->period = ehd__perf_at64(p, l->period);
	s->read = NULL;
	s->read_count = 0;
	s->callchain = NULL;
	s->callchain_count = 0;
	s->raw = NULL;
	s->raw_size = 0;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (n - o < 8)
			goto short_sample;
		memcpy(&nr, p + o, 8);
		o += 8;
		if (nr > (n - o) / 8)
			goto short_sample;
		s->callchain = (const uint64_t *)(const void *)(p + o);
		s->callchain_count = nr;
		o += 8 * (size_t)nr;
	}
	if (st & PERF_SAMPLE_RAW) {
		if (n - o < 4)
			goto short_sample;
		memcpy(&sz, p + o, 4);
		o += 4;
		if (sz > n - o)
			goto short_sample;
		s->raw = p + o;
		s->raw_size = sz;
	}
	return 0;

short_sample:
	return fail(f, -EBADMSG, off,
		    "sample of %zu bytes too short for sample_type 0x%llx",
		    n + 8, (unsigned long long)st);
}

/*
 * parse_sample() - the fields of a PERF_RECORD_SAMPLE
 * @f: the reader
 * @p: the record body (after the header), 8-byte aligned
 * @n: its size
 * @off: file offset for messages
 * @s: the result
 *
 * Return: 0 or < 0.
 */
static int parse_sample(struct ehd__perf_file *f, const uint8_t *p, size_t n,
			uint64_t off, struct ehd__perf_sample *s)
{
	const uint64_t tail = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
		PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
		PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
		PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ |
		PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW;
	struct desc_priv *d;
	uint64_t st, rf, nr, id = 0;
	size_t o = 0, cnt, hdr, per;

	if (!f->ndesc)
		return fail(f, -EBADMSG, off, "sample before any event attr");
	if (f->sid_conflict)
		return fail(f, -ENOTSUP, off,
			    "the events put the sample id at different places");
	d = f->descs[0];
	if (f->sid_pos >= 0) {
		if (n < (size_t)f->sid_pos + 8)
			return fail(f, -EBADMSG, off,
				    "sample of %zu bytes too short for its id",
				    n + 8);
		id = g64(f, p + f->sid_pos);
		d = sample_desc(f, id);
		if (!d && f->ndesc == 1)
			d = f->descs[0];
	}
	if (d && !d->pub.lay.state)
		plan_layout(f, d);
	if (d && d->pub.lay.state > 0) {
		s->desc = &d->pub;
		return parse_fast(f, d, p, n, off, s);
	}
	/* The fields not there stay 0. */
	memset(s, 0, sizeof(*s));
	if (!d) {
		s->id = id;
		return 0;
	}
	s->desc = &d->pub;
	st = d->pub.attr.sample_type;
	rf = d->pub.attr.read_format;
	f->scratch_used = 0;

#define NEED(k) do { if ((k) > n - o) goto short_sample; } while (0)
	if (st & PERF_SAMPLE_IDENTIFIER) {
		NEED(8);
		s->id = g64(f, p + o);
		o += 8;
	}
	if (st & PERF_SAMPLE_IP) {
		NEED(8);
		s->ip = g64(f, p + o);
		o += 8;
	}
	if (st & PERF_SAMPLE_TID) {
		NEED(8);
		s->pid = g32(f, p + o);
		s->tid = g32(f, p + o + 4);
		o += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		NEED(8);
		s->time = g64(f, p + o);
		o += 8;
	}
	if (st & PERF_SAMPLE_ADDR) {
		NEED(8);
		s->addr = g64(f, p + o);
		o += 8;
	}
	if (st & PERF_SAMPLE_ID) {
		NEED(8);
		s->id = g64(f, p + o);
		o += 8;
	}
	if (st & PERF_SAMPLE_STREAM_ID) {
		NEED(8);
		s->stream_id = g64(f, p + o);
		o += 8;
	}
	if (st & PERF_SAMPLE_CPU) {
		NEED(8);
		s->cpu = g32(f, p + o);
		o += 8;
	}
	if (st & PERF_SAMPLE_PERIOD) {
		NEED(8);
		s->period = g64(f, p + o);
		o += 8;
	}
	if (st & PERF_SAMPLE_READ) {
		hdr = 1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		      !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
		per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
		if (rf & PERF_FORMAT_GROUP) {
			NEED(8 * hdr);
			nr = g64(f, p + o);
			if (nr > ((n - o) / 8 - hdr) / per)
				goto short_sample;
			cnt = hdr + (size_t)nr * per;
		} else {
			cnt = hdr + per - 1;
		}
		NEED(8 * cnt);
		s->read = host_u64s(f, p + o, cnt);
		s->read_count = (uint32_t)cnt;
		o += 8 * cnt;
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		NEED(8);
		nr = g64(f, p + o);
		o += 8;
		if (nr > (n - o) / 8)
			goto short_sample;
		s->callchain = host_u64s(f, p + o, (size_t)nr);
		s->callchain_count = nr;
		o += 8 * (size_t)nr;
	}
	if (st & PERF_SAMPLE_RAW) {
		uint32_t sz;

		NEED(4);
		sz = g32(f, p + o);
		o += 4;
		NEED(sz);
		s->raw = p + o;
		s->raw_size = sz;
		o += sz;
	}
#undef NEED
	s->fields = st & tail;
	return 0;

short_sample:
	return fail(f, -EBADMSG, off,
		    "sample of %zu bytes too short for sample_type 0x%llx",
		    n + 8, (unsigned long long)st);
}

/* The sample_id fields at the end of a kernel record (sample_id_all). */
static void parse_sample_id(struct ehd__perf_file *f, const uint8_t *p,
			    size_t n, struct ehd__perf_record *out)
{
	struct ehd__perf_sample *s = &out->sample;
	struct desc_priv *d = NULL;
	uint64_t st;
	size_t o;

	if (!f->ndesc || !f->nsid_known || f->nsid_conflict)
		return;
	if (f->nsid_back > 0) {
		if (n < (size_t)f->nsid_back)
			return;
		d = find_desc(f, g64(f, p + n - f->nsid_back));
		if (!d && f->ndesc == 1)
			d = f->descs[0];
	} else {
		d = f->descs[0];
	}
	if (!d || !d->pub.attr.sample_id_all)
		return;
	st = d->pub.attr.sample_type &
	     (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
	      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER);
	if (8 * (size_t)__builtin_popcountll(st) > n)
		return;
	o = n - 8 * (size_t)__builtin_popcountll(st);
	if (st & PERF_SAMPLE_TID) {
		s->pid = g32(f, p + o);
		s->tid = g32(f, p + o + 4);
		o += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		s->time = g64(f, p + o);
		o += 8;
	}
	if (st & PERF_SAMPLE_ID) {
		s->id = g64(f, p + o);
		o += 8;
	}
	if (st & PERF_SAMPLE_STREAM_ID) {
		s->stream_id = g64(f, p + o);
		o += 8;
	}
	if (st & PERF_SAMPLE_CPU) {
		s->cpu = g32(f, p + o);
		o += 8;
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		s->id = g64(f, p + o);
	s->fields = st;
	s->desc = &d->pub;
	out->has_sample = true;
}

static int rec_header_attr(struct ehd__perf_file *f, const uint8_t *p,
			   size_t n, uint64_t off)
{
	uint32_t asz;

	if (n < PERF_ATTR_SIZE_VER0)
		return fail(f, -EBADMSG, off, "HEADER_ATTR of %zu bytes", n + 8);
	asz = g32(f, p + 4);
	if (!asz)
		asz = PERF_ATTR_SIZE_VER0;
	if (asz > n)
		return fail(f, -EBADMSG, off,
			    "HEADER_ATTR: attr size %u past the record", asz);
	return add_attr(f, p, asz, p + asz, (n - asz) / 8, off);
}

static int rec_header_feature(struct ehd__perf_file *f, const uint8_t *p,
			      size_t n, uint64_t off)
{
	uint64_t bit;
	int r;

	if (n < 8)
		return fail(f, -EBADMSG, off, "HEADER_FEATURE of %zu bytes",
			    n + 8);
	bit = g64(f, p);
	if (bit >= EHD__PERF_FEAT_LAST)
		return 0;	/* the end marker, or unknown */
	r = store_feature(f, (unsigned int)bit, p + 8, n - 8, off + 16);
	return r ? r : apply_feature(f, (unsigned int)bit);
}

static int rec_tracing_data(struct ehd__perf_file *f, bool z, const uint8_t *p,
			    size_t n, uint64_t off)
{
	uint32_t size;
	char *data = NULL;
	int r;

	if (n < 4)
		return fail(f, -EBADMSG, off, "HEADER_TRACING_DATA of %zu bytes",
			    n + 8);
	size = g32(f, p);
	r = read_blob(f, z, size, off, &data);
	if (r)
		return r;
	return parse_tracing(f, data, size, off + 8 + n);
}

static int rec_event_update(struct ehd__perf_file *f, const uint8_t *p,
			    size_t n, uint64_t off)
{
	struct desc_priv *d;

	if (n < 16)
		return fail(f, -EBADMSG, off, "EVENT_UPDATE of %zu bytes", n + 8);
	if (g64(f, p) != EVENT_UPDATE_NAME)
		return 0;
	d = find_desc(f, g64(f, p + 8));
	if (d && set_name(d, (const char *)p + 16,
			  strnlen((const char *)p + 16, n - 16), NAME_UPDATE))
		return fail_nomem(f, off);
	return 0;
}

/*
 * handle_record() - apply and parse the record in f->rec
 * @f: the reader
 * @z: it came from decompressed data
 * @off: its offset
 *
 * Return: 1 when it is to be returned, 0 when it was consumed (compressed
 * data), < 0 on error.
 */
static int handle_record(struct ehd__perf_file *f, const uint8_t *rec, bool z,
			 uint64_t off)
{
	const uint8_t *p = rec + 8;
	struct ehd__perf_record *out = &f->out;
	size_t n;
	int r = 0;

	out->type = g32(f, rec);
	if (out->type == PERF_RECORD_SAMPLE)	/* parse_sample() sets it */
		memset(out, 0, offsetof(struct ehd__perf_record, sample));
	else
		memset(out, 0, sizeof(*out));
	out->type = g32(f, rec);
	out->misc = g16(f, rec + 4);
	out->size = g16(f, rec + 6);
	out->flags = z ? EHD__PERF_REC_DECOMPRESSED : 0;
	out->offset = off;
	out->data = rec;
	n = out->size - 8u;

	switch (out->type) {
	case PERF_RECORD_SAMPLE:
		out->has_sample = true;
		r = parse_sample(f, p, n, off, &out->sample);
		break;
	case EHD__PERF_RECORD_HEADER_ATTR:
		r = rec_header_attr(f, p, n, off);
		break;
	case EHD__PERF_RECORD_HEADER_FEATURE:
		r = rec_header_feature(f, p, n, off);
		break;
	case EHD__PERF_RECORD_HEADER_TRACING_DATA:
		r = rec_tracing_data(f, z, p, n, off);
		break;
	case EHD__PERF_RECORD_AUXTRACE:
		if (n < 8)
			return fail(f, -EBADMSG, off, "AUXTRACE of %zu bytes",
				    n + 8);
		r = src_read(f, z, NULL, g64(f, p), off);
		break;
	case EHD__PERF_RECORD_EVENT_UPDATE:
		r = rec_event_update(f, p, n, off);
		break;
	case EHD__PERF_RECORD_FINISHED_INIT:
		r = feat_event_desc(f);
		break;
	case EHD__PERF_RECORD_COMPRESSED:
	case EHD__PERF_RECORD_COMPRESSED2:
		if (z)
			return fail(f, -EBADMSG, off,
				    "compressed record inside compressed data");
		memcpy(f->zin, rec, out->size);
		r = z_load(f, off);
		return r ? r : 0;
	default:
		if (out->type < EHD__PERF_RECORD_HEADER_ATTR)
			parse_sample_id(f, p, n, out);
		break;
	}
	return r ? r : 1;
}

int ehd__perf_parse_sample(struct ehd__perf_file *f, const void *rec,
			   uint64_t off, struct ehd__perf_sample *s)
{
	const uint8_t *p = rec;

	memset(s, 0, sizeof(*s));
	if (f->err.err)
		return f->err.err;
	return parse_sample(f, p + 8, g16(f, p + 6) - 8u, off, s);
}

int ehd__perf_next(struct ehd__perf_file *f, const struct ehd__perf_record **recp)
{
	uint64_t off;
	bool z;
	int r;

	*recp = NULL;
	if (f->err.err)
		return f->err.err;
	if (!f->opened)
		return fail(f, -EINVAL, 0, "no file is open");
	for (;;) {
		const uint8_t *rec = (const uint8_t *)f->rec;

		r = z_record(f, &off);
		z = r > 0;
		if (!r && !(rec = peek_record(f, &off))) {
			rec = (const uint8_t *)f->rec;
			r = file_record(f, f->rec, &off);
		} else if (!r) {
			r = 1;
		}
		if (r <= 0)
			return r;
		r = handle_record(f, rec, z, off);
		if (r > 0 && rec != (const uint8_t *)f->rec && f->peeked_borrowed)
			f->out.flags |= EHD__PERF_REC_BORROWED;
		if (r < 0)
			return r;
		if (r) {
			*recp = &f->out;
			return 1;
		}
	}
}

/* Whether the records from here may be read the lean way at all. */
static inline bool lean_ok(const struct ehd__perf_file *f)
{
	/* Samples of the host's byte order only, outside compressed data. */
	return !f->err.err && f->opened && !f->swap && !f->zds && f->ndesc &&
	       !f->sid_conflict;
}

/*
 * The event of a sample whose id is @id (any, with no ids in the samples)
 * when its samples can be plain ones (see ehd__perf_next_places()): its
 * fields at fixed places, time and raw data among them, no call chain.
 * NULL otherwise.
 */
static struct desc_priv *plain_desc(struct ehd__perf_file *f, uint64_t id)
{
	const uint64_t need = PERF_SAMPLE_TIME | PERF_SAMPLE_RAW;
	struct desc_priv *d = f->descs[0];
	uint64_t st;

	if (f->sid_pos >= 0) {
		d = sample_desc(f, id);
		if (!d && f->ndesc == 1)
			d = f->descs[0];
		if (!d)
			return NULL;
	}
	if (!d->pub.lay.state)
		plan_layout(f, d);
	st = d->pub.attr.sample_type;
	if (d->pub.lay.state <= 0 || (st & need) != need ||
	    (st & PERF_SAMPLE_CALLCHAIN))
		return NULL;
	return d;
}

bool ehd__perf_borrowing(const struct ehd__perf_file *f)
{
	return f->borrowed;
}

size_t ehd__perf_next_places(struct ehd__perf_file *f,
			     struct ehd__perf_place *out, size_t stride,
			     size_t max, size_t max_bytes)
{
	/* (in locals: the stores to @out could be to them, for all C knows) */
	const uint8_t *buf = f->rbuf, *p, *raw;
	size_t at = f->rpos, stop = f->rlen, n, o = 0, nraw;
	uint64_t base = f->rbase, id, cur_id = 0;
	uint64_t limit = f->session.pipe_mode ? UINT64_MAX : f->data_end;
	bool borrowed = f->borrowed, bad;
	struct ehd__perf_place *pl;
	struct desc_priv *d = NULL;
	size_t sid_at = 0, min_size = 8;
	uint64_t sid_mask = 0;	/* ids read at sid_at, or none */
	uint8_t time_at = 0;
	uint16_t size;
	uint32_t sz;

	if (!lean_ok(f) || base + at >= limit || ((uintptr_t)(buf + at) & 7))
		return 0;
	/*
	 * Where the records to read end: the buffer's, the data's or
	 * @max_bytes' end. They are whole multiples of 8 bytes from an
	 * aligned start. Each is checked with one branch, and what its
	 * event says of its fields once an event (under TCG a branch costs
	 * as much as a few instructions).
	 */
	if (limit - base < stop)
		stop = (size_t)(limit - base);
	if (stop - at > max_bytes)
		stop = at + max_bytes;
	if (f->sid_pos >= 0) {
		sid_at = 8 + (size_t)f->sid_pos;
		sid_mask = UINT64_MAX;
		min_size = sid_at + 8;
	}
	for (n = 0; n < max && stop - at >= 8; n++) {
		p = buf + at;
		memcpy(&size, p + 6, 2);
		if ((size < min_size) | (size > stop - at) | (size & 7) |
		    (ehd__get32(p) != PERF_RECORD_SAMPLE))
			break;
		id = ehd__get64(p + sid_at) & sid_mask;
		if ((id != cur_id) | !d) {
			d = plain_desc(f, id);
			if (!d)
				break;
			cur_id = id;
			o = d->pub.lay.fixed;
			time_at = d->pub.lay.time;
		}
		/* the raw data's size, where it is (if not there, the header) */
		nraw = size - 8u;
		bad = nraw < o + 4;
		raw = bad ? p : p + 8 + o;
		memcpy(&sz, raw, 4);
		if (bad | (sz > nraw - o - 4))
			break;
		pl = (struct ehd__perf_place *)(void *)((uint8_t *)out +
							n * stride);
		pl->time = ehd__perf_at64(p + 8, time_at);
		pl->data = p;
		pl->offset = base + at;
		pl->desc = &d->pub;
		pl->size = (uint32_t)size;
		pl->borrowed = borrowed;
		at += size;
	}
	if (n) {
		f->rpos = at;
		f->peeked_borrowed = borrowed;
	}
	return n;
}

/* ---- open / close -------------------------------------------------------- */

int ehd__perf_new(struct ehd__perf_file **fp)
{
	struct ehd__perf_file *f;

	*fp = NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->fd = -1;
	f->comp_type = -1;
	f->sid_pos = -1;
	f->nsid_back = -1;
	f->session.clockid = EHD__PERF_CLOCKID_UNKNOWN;
	*fp = f;
	return 0;
}

int ehd__perf_set_options(struct ehd__perf_file *f, unsigned int options)
{
	if (f->fd >= 0 || f->opened)
		return -EBUSY;
	if (options & ~(unsigned int)EHD__PERF_OPT_PRINT_FMT)
		return -EINVAL;
	f->options = options;
	return 0;
}

static int do_open(struct ehd__perf_file *f, int fd, const char *name,
		   bool pipe_only, const void *pre, size_t npre)
{
	static const char magic[8] = "PERFILE2";
	static const char magic_swapped[8] = "2ELIFREP";
	const bool host_be = __BYTE_ORDER == __BIG_ENDIAN;
	uint8_t h[PIPE_HEADER_SIZE];
	struct stat st;
	uint64_t hsize, got;
	int r;

	f->fd = fd;
	f->name = strdup(name ? name : "perf.data");
	f->rbuf = f->own = malloc(RBUF_SIZE);
	f->rec = malloc(REC_MAX);
	f->scratch = malloc(REC_MAX);
	f->zin = malloc(REC_MAX);
	f->zout = malloc(ZOUT_SIZE);
	f->tep = tep_alloc();
	if (!f->name || !f->rbuf || !f->rec || !f->scratch || !f->zin ||
	    !f->zout || !f->tep)
		return fail_nomem(f, 0);
	if (f->source)
		st.st_mode = S_IFIFO;
	else if (fstat(fd, &st))
		return fail(f, -errno, 0, "fstat: %s", strerror(errno));
	f->seekable = S_ISREG(st.st_mode) && !npre;
	if (npre > RBUF_SIZE)
		return fail(f, -EINVAL, 0, "too many bytes read ahead");
	if (npre)
		memcpy(f->rbuf, pre, npre);
	f->rlen = npre;
	f->file_size = f->seekable ? (uint64_t)st.st_size : UINT64_MAX;
	f->data_end = UINT64_MAX;

	r = in_read(f, h, sizeof(h), &got);
	if (r < 0)
		return r;
	if (r)
		return fail(f, -EBADMSG, 0,
			    "%llu bytes: too short for a perf.data header",
			    (unsigned long long)got);
	if (!memcmp(h, magic, 8))
		f->swap = host_be;
	else if (!memcmp(h, magic_swapped, 8))
		f->swap = !host_be;
	else if (!memcmp(h, "PERFFILE", 8))
		return fail(f, -ENOTSUP, 0,
			    "old perf.data format (PERFFILE) is not supported");
	else
		return fail(f, -EBADMSG, 0, "not a perf.data file (bad magic)");
	f->session.big_endian = host_be != f->swap;
	hsize = g64(f, h + 8);
	if (hsize == PIPE_HEADER_SIZE) {
		f->session.pipe_mode = true;
		f->data_begin = PIPE_HEADER_SIZE;
	} else if (pipe_only) {
		return fail(f, -ENOTSUP, 0,
			    "standard input must be in pipe mode (perf record -o -)");
	} else {
		r = open_normal(f, hsize);
		if (r)
			return r;
	}
	f->opened = true;
	return 0;
}

int ehd__perf_open_fd(struct ehd__perf_file *f, int fd, const char *name)
{
	if (f->fd >= 0 || f->opened)
		return -EBUSY;
	if (fd < 0)
		return fail(f, -EBADF, 0, "bad file descriptor");
	return do_open(f, fd, name, false, NULL, 0);
}

int ehd__perf_open_fd_after(struct ehd__perf_file *f, int fd, const char *name,
			    const void *pre, size_t npre)
{
	if (f->fd >= 0 || f->opened)
		return -EBUSY;
	if (fd < 0)
		return fail(f, -EBADF, 0, "bad file descriptor");
	return do_open(f, fd, name, true, pre, npre);
}

int ehd__perf_open_source(struct ehd__perf_file *f, ehd__perf_source_fn fn,
			  void *ctx, const char *name)
{
	int r;

	if (f->fd >= 0 || f->opened)
		return -EBUSY;
	f->source = fn;
	f->source_ctx = ctx;
	r = do_open(f, -1, name, true, NULL, 0);
	return r == -EAGAIN ?
	       fail(f, -EBADMSG, 0, "live stream without a header") : r;
}

uint64_t ehd__perf_position(const struct ehd__perf_file *f)
{
	return in_pos(f);
}

int ehd__perf_open_view(struct ehd__perf_file *f, ehd__perf_view_fn view,
			ehd__perf_source_fn fn, void *ctx, const char *name)
{
	f->view = view;
	return ehd__perf_open_source(f, fn, ctx, name);
}

int ehd__perf_open(struct ehd__perf_file *f, const char *path)
{
	int fd;

	if (f->fd >= 0 || f->opened)
		return -EBUSY;
	if (!strcmp(path, "-"))
		return do_open(f, STDIN_FILENO, "stdin", true, NULL, 0);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(f, -errno, 0, "open %s: %s", path, strerror(errno));
	f->own_fd = true;
	return do_open(f, fd, path, false, NULL, 0);
}

void ehd__perf_free(struct ehd__perf_file *f)
{
	size_t i;

	if (!f)
		return;
	if (f->own_fd && f->fd >= 0)
		close(f->fd);
	for (i = 0; i < f->ndesc; i++) {
		free(f->descs[i]->name);
		free(f->descs[i]->ids);
		free(f->descs[i]);
	}
	free(f->descs);
	free(f->hkeys);
	free(f->hvals);
	for (i = 0; i < EHD__PERF_FEAT_BITS; i++)
		free(f->feat[i]);
	for (i = 0; i < sizeof(f->strs) / sizeof(f->strs[0]); i++)
		free(f->strs[i]);
	free(f->cmdline);
	if (f->tep)
		tep_free(f->tep);
	free(f->tracing);
	if (f->zds)
		ZSTD_freeDStream(f->zds);
	free(f->zin);
	free(f->zout);
	free(f->rec);
	free(f->scratch);
	free(f->own);
	free(f->name);
	free(f);
}

/* ---- accessors ----------------------------------------------------------- */

const struct ehd__perf_session *ehd__perf_session(const struct ehd__perf_file *f)
{
	return &f->session;
}

uint64_t ehd__perf_time_to_utc(const struct ehd__perf_file *f, uint64_t time)
{
	return f->session.has_clock_offset ? time + f->session.clock_offset :
					     time;
}

struct tep_handle *ehd__perf_tep(const struct ehd__perf_file *f)
{
	return f->tep;
}

size_t ehd__perf_desc_count(const struct ehd__perf_file *f)
{
	return f->ndesc;
}

const struct ehd__perf_event_desc *ehd__perf_desc(const struct ehd__perf_file *f,
						  size_t i)
{
	return i < f->ndesc ? &f->descs[i]->pub : NULL;
}

const struct ehd__perf_event_desc *
ehd__perf_find_desc(const struct ehd__perf_file *f, uint64_t id)
{
	struct desc_priv *d = find_desc(f, id);

	return d ? &d->pub : NULL;
}

int ehd__perf_feature(const struct ehd__perf_file *f, unsigned int feat,
		      const void **data, size_t *size)
{
	if (feat >= EHD__PERF_FEAT_BITS || !f->feat[feat])
		return -ENOENT;
	*data = f->feat[feat];
	*size = f->feat_size[feat];
	return 0;
}

const char *ehd__perf_error(const struct ehd__perf_file *f, uint64_t *offset)
{
	if (offset)
		*offset = f->err.err ? f->err.off : 0;
	return ehd__err_get(&f->err, NULL);
}
