// SPDX-License-Identifier: MIT
/*
 * nettrace-legacy.c - nettrace versions 3 to 5 (the FastSerialization
 * framing of .NET EventPipe), read into the terms of version 6
 *
 * A stream is "Nettrace" (v4, v5; absent in netperf, v3), the int32 20 and
 * "!FastSerialization.1", then objects, then the NullReference tag (1).
 * An object is BeginPrivateObject (5; BeginObject, 4, in netperf), its type
 * (5, NullReference, int32 version, int32 minimum reader version, int32
 * name length, name, EndObject 6), its payload and EndObject (6). The first
 * object is "Trace" (48 bytes: SYSTEMTIME, sync ticks, tick frequency,
 * pointer size, process id, processors, sampling rate); its version is the
 * format version (3 or 4; "v5" is v4 with tags in metadata records).
 *
 * Every other object is a block: int32 size, zero bytes up to a 4-byte
 * aligned stream offset, then size bytes:
 *  - EventBlock: v4/v5: u16 header size (>= 20), u16 flags (bit 0: header
 *    compression), min/max timestamps, then event rows; v3: rows with an
 *    int32 thread id, the stack inline after the payload, metadata events
 *    (id 0) among them.
 *  - MetadataBlock (v4/v5): an EventBlock whose rows carry metadata records.
 *  - StackBlock (v4/v5): the v6 stack block payload.
 *  - SPBlock (v4/v5): a sequence point (timestamp, thread id/seq pairs).
 * Metadata records (UTF-16 strings, int32 type codes, V5 tags) are turned
 * into v6 metadata rows for the core (nettrace-read.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/nettrace/nettrace-format.h"
#include "formats/nettrace/nettrace-read.h"

/* FastSerialization tags */
#define NTL_NULL		1
#define NTL_BEGIN_OBJECT	4
#define NTL_BEGIN_PRIVATE	5
#define NTL_END_OBJECT		6

#define NTL_SERIALIZATION	"!FastSerialization.1"
#define NTL_SERIALIZATION_LEN	20
/* Longest type name: "Microsoft.DotNet.Runtime.EventPipeFile" (v1, v2). */
#define NTL_NAME_MAX		38
#define NTL_TRACE_SIZE		48
/* Largest block read: the runtime writes blocks of about 100 KiB. */
#define NTL_BLOCK_LIMIT		(64u << 20)
/* Bytes of a v3 / uncompressed v4 row before its payload. */
#define NTL_V3_HEADER		56
#define NTL_V4_HEADER		80
#define NTL_BLOCK_HEADER_MIN	20
/* Nesting of Object and Array types in metadata. */
#define NTL_DEPTH_MAX		32
/* Largest v6 metadata row (u16 size) and the most this file builds. */
#define NTL_ROW_MAX		0xffffu
#define NTL_OUT_LIMIT		(1u << 20)
/* Internal: a field list TraceEvent would not parse (zero fields). */
#define NTL_BAD_FIELDS		(-EBADMSG)

/* Metadata record tags (v5). */
#define NTL_TAG_OPCODE		1
#define NTL_TAG_V2_PARAMS	2

enum ntl_block {
	NTL_BLOCK_EVENT,
	NTL_BLOCK_METADATA,
	NTL_BLOCK_STACK,
	NTL_BLOCK_SP,
};

static const struct {
	const char *name;
	enum ntl_block kind;
} ntl_blocks[] = {
	{ "EventBlock", NTL_BLOCK_EVENT },
	{ "MetadataBlock", NTL_BLOCK_METADATA },
	{ "StackBlock", NTL_BLOCK_STACK },
	{ "SPBlock", NTL_BLOCK_SP },
};

/* What the previous compressed row said (v4/v5); all zero at each block. */
struct ntl_prev {
	uint32_t meta_id;
	uint32_t seq;
	uint64_t capture_thread;
	uint32_t cpu;
	uint64_t thread;
	uint32_t stack_id;
	uint64_t timestamp;
	uint8_t activity[16];
	uint8_t related[16];
	uint32_t payload_size;
};

struct ntl {
	struct ehd__nt_trace trace;
	unsigned int version;	/* 3, 4, or 5 once a V5 tag was seen */
	bool done;		/* the NullReference tag was read */
	int err;		/* sticky failure */
	uint64_t skipped;	/* event rows of metadata id 0 */

	/* The event or metadata block being walked. */
	bool in_block;
	bool compressed;
	const uint8_t *blk;	/* valid until the next ehd__nt_read() */
	size_t len;
	size_t pos;
	uint64_t off;		/* input offset of blk[0] */
	struct ntl_prev prev;

	/* The v6 metadata row being built. */
	uint8_t *out;
	size_t out_len;
	size_t out_cap;
	int out_err;
};

static uint16_t ld16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t ld32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t ld64(const uint8_t *p)
{
	return ld32(p) | (uint64_t)ld32(p + 4) << 32;
}

static const uint8_t *guid_or_null(const uint8_t *g)
{
	static const uint8_t zero[16];

	return memcmp(g, zero, sizeof(zero)) ? g : NULL;
}

/* ---- the v6 row being built ---- */

/* Room for @n more bytes at st->out + st->out_len, or false (out_err set). */
static bool out_room(struct ntl *st, size_t n)
{
	uint8_t *p;
	size_t cap;

	if (st->out_err)
		return false;
	if (n > NTL_OUT_LIMIT - st->out_len) {
		st->out_err = -EFBIG;
		return false;
	}
	if (st->out_len + n <= st->out_cap)
		return true;
	cap = st->out_cap ? st->out_cap : 256;
	while (cap < st->out_len + n)
		cap *= 2;
	p = realloc(st->out, cap);
	if (!p) {
		st->out_err = -ENOMEM;
		return false;
	}
	st->out = p;
	st->out_cap = cap;
	return true;
}

static void out_u8(struct ntl *st, uint8_t v)
{
	if (out_room(st, 1))
		st->out[st->out_len++] = v;
}

static void out_u16(struct ntl *st, uint16_t v)
{
	if (out_room(st, 2)) {
		st->out[st->out_len++] = (uint8_t)v;
		st->out[st->out_len++] = (uint8_t)(v >> 8);
	}
}

static void out_u64(struct ntl *st, uint64_t v)
{
	unsigned int i;

	if (out_room(st, 8))
		for (i = 0; i < 8; i++)
			st->out[st->out_len++] = (uint8_t)(v >> 8 * i);
}

static void out_varuint(struct ntl *st, uint64_t v)
{
	if (out_room(st, 10))
		st->out_len += ehd__nt_put_varuint(st->out + st->out_len, v);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/*
 * Find the UTF-16 string at @p that ends with a 0 code unit before @end;
 * *@units gets its length without the terminator.
 */
static bool utf16z(const uint8_t *p, const uint8_t *end, size_t *units)
{
	size_t n;

	for (n = 0; (size_t)(end - p) / 2 > n; n++) {
		if (!p[2 * n] && !p[2 * n + 1]) {
			*units = n;
			return true;
		}
	}
	return false;
}

/*
 * UTF-8 of the @units UTF-16LE code units at @p into @dst (NULL: only
 * count); a lone surrogate becomes U+FFFD. Returns the UTF-8 length.
 */
static size_t utf16_to_utf8(const uint8_t *p, size_t units, uint8_t *dst)
{
	size_t i, n = 0;

	for (i = 0; i < units; i++) {
		uint32_t c = ld16(p + 2 * i);
		uint8_t b[4];
		size_t k;

		if (c >= 0xd800 && c < 0xdc00 && i + 1 < units &&
		    ld16(p + 2 * i + 2) >= 0xdc00 &&
		    ld16(p + 2 * i + 2) < 0xe000) {
			c = 0x10000 + ((c - 0xd800) << 10) +
			    (ld16(p + 2 * i + 2) - 0xdc00);
			i++;
		} else if (c >= 0xd800 && c < 0xe000) {
			c = 0xfffd;
		}
		if (c < 0x80) {
			b[0] = (uint8_t)c;
			k = 1;
		} else if (c < 0x800) {
			b[0] = (uint8_t)(0xc0 | c >> 6);
			b[1] = (uint8_t)(0x80 | (c & 0x3f));
			k = 2;
		} else if (c < 0x10000) {
			b[0] = (uint8_t)(0xe0 | c >> 12);
			b[1] = (uint8_t)(0x80 | (c >> 6 & 0x3f));
			b[2] = (uint8_t)(0x80 | (c & 0x3f));
			k = 3;
		} else {
			b[0] = (uint8_t)(0xf0 | c >> 18);
			b[1] = (uint8_t)(0x80 | (c >> 12 & 0x3f));
			b[2] = (uint8_t)(0x80 | (c >> 6 & 0x3f));
			b[3] = (uint8_t)(0x80 | (c & 0x3f));
			k = 4;
		}
		if (dst)
			memcpy(dst + n, b, k);
		n += k;
	}
	return n;
}

/* Insert the v6 string (varuint32 length, UTF-8) of a UTF-16 one at @at. */
static void out_insert_str(struct ntl *st, size_t at, const uint8_t *p,
			   size_t units)
{
	size_t n = utf16_to_utf8(p, units, NULL);
	uint8_t pre[10];
	size_t npre = ehd__nt_put_varuint(pre, n);

	if (n > UINT32_MAX) {
		st->out_err = -EFBIG;
		return;
	}
	if (!out_room(st, npre + n))
		return;
	memmove(st->out + at + npre + n, st->out + at, st->out_len - at);
	memcpy(st->out + at, pre, npre);
	utf16_to_utf8(p, units, st->out + at + npre);
	st->out_len += npre + n;
}

static void out_str(struct ntl *st, const uint8_t *p, size_t units)
{
	out_insert_str(st, st->out_len, p, units);
}

/* ---- metadata records ---- */

static int conv_fields(struct ntl *st, const uint8_t **pp, const uint8_t *end,
		       bool v2, unsigned int depth);

/*
 * conv_type() - a v4/v5 type (int32 code, then the element type of an
 * Array or the field list of an Object) as a v6 Type
 * Return: 0, NTL_BAD_FIELDS if TraceEvent would refuse it, or -EFBIG /
 * -ENOMEM (out_err).
 */
static int conv_type(struct ntl *st, const uint8_t **pp, const uint8_t *end,
		     bool v2, unsigned int depth)
{
	const uint8_t *p = *pp;
	uint32_t code;
	int r = 0;

	if (end - p < 4 || depth >= NTL_DEPTH_MAX)
		return NTL_BAD_FIELDS;
	code = ld32(p);
	p += 4;
	if (code == EHD__NT_OBJECT) {
		out_u8(st, EHD__NT_OBJECT);
		r = conv_fields(st, &p, end, v2, depth + 1);
	} else if (code == EHD__NT_ARRAY && v2) {
		/* V2Params only: the element type follows. */
		out_u8(st, EHD__NT_ARRAY);
		r = conv_type(st, &p, end, v2, depth + 1);
	} else if (code >= EHD__NT_BOOLEAN32 && code <= EHD__NT_UTF16Z) {
		out_u8(st, (uint8_t)code);
	} else {
		return NTL_BAD_FIELDS;
	}
	*pp = p;
	return r ? r : st->out_err;
}

/*
 * conv_fields() - a field list: int32 count, then each field as
 * V1: {type, UTF16Z name} or V2Params: {int32 size (with itself), UTF16Z
 * name, type}; written as v6 FieldDescriptions (u16 count, {u16 size,
 * name, Type}).
 */
static int conv_fields(struct ntl *st, const uint8_t **pp, const uint8_t *end,
		       bool v2, unsigned int depth)
{
	const uint8_t *p = *pp;
	uint32_t count, i;
	size_t units;
	int r;

	if (end - p < 4)
		return NTL_BAD_FIELDS;
	count = ld32(p);
	p += 4;
	/* A field takes 6 bytes at least. */
	if (count > 0xffff || count > (size_t)(end - p) / 6)
		return NTL_BAD_FIELDS;
	out_u16(st, (uint16_t)count);
	for (i = 0; i < count; i++) {
		size_t at = st->out_len;

		out_u16(st, 0);		/* FieldSize, set below */
		if (v2) {
			const uint8_t *fend;
			uint32_t size;

			if (end - p < 4)
				return NTL_BAD_FIELDS;
			size = ld32(p);
			if (size < 4 || size - 4 > (size_t)(end - p - 4))
				return NTL_BAD_FIELDS;
			fend = p + size;
			p += 4;
			if (!utf16z(p, fend, &units))
				return NTL_BAD_FIELDS;
			out_str(st, p, units);
			p += 2 * units + 2;
			r = conv_type(st, &p, fend, v2, depth);
			if (r)
				return r;
			p = fend;
		} else {
			size_t type_at = st->out_len;

			r = conv_type(st, &p, end, v2, depth);
			if (r)
				return r;
			if (!utf16z(p, end, &units))
				return NTL_BAD_FIELDS;
			/* v6 puts the name before the type. */
			out_insert_str(st, type_at, p, units);
			p += 2 * units + 2;
		}
		if (st->out_err)
			return st->out_err;
		if (st->out_len - at - 2 > NTL_ROW_MAX)
			return -EFBIG;
		put16(st->out + at, (uint16_t)(st->out_len - at - 2));
	}
	*pp = p;
	return st->out_err;
}

/* Call ehd__nt_set_trace() again when a v4 stream turns out to be v5. */
static void ntl_saw_v5_tag(struct ehd__nt *nt, struct ntl *st)
{
	if (st->version == 4) {
		st->version = 5;
		ehd__nt_set_trace(nt, &st->trace, 5);
	}
}

/*
 * ntl_metadata() - translate the metadata record at @p (@len bytes; the
 * payload of a metadata row, input offset @off) and hand it to the core
 *
 * A field list TraceEvent cannot parse gives an event type without fields,
 * as in TraceEvent; a V1 list like that also hides the tags after it.
 */
static int ntl_metadata(struct ehd__nt *nt, struct ntl *st, const uint8_t *p,
			size_t len, uint64_t off)
{
	const uint8_t *start = p, *end = p + len, *prov, *name, *q;
	size_t nprov, nname, fields_at;
	uint32_t id, event_id, version, level;
	bool has_opcode = false;
	uint64_t keywords;
	uint8_t opcode = 0;
	int r;

	if (len < 4 || !utf16z(p + 4, end, &nprov))
		return ehd__nt_fail(nt, -EBADMSG, off,
				    "metadata record of %zu bytes: no provider name",
				    len);
	id = ld32(p);
	prov = p + 4;
	p = prov + 2 * nprov + 2;
	if (end - p < 4 || !utf16z(p + 4, end, &nname))
		return ehd__nt_fail(nt, -EBADMSG, off,
				    "metadata record %u: no event name", id);
	event_id = ld32(p);
	name = p + 4;
	p = name + 2 * nname + 2;
	if (end - p < 16)
		return ehd__nt_fail(nt, -EBADMSG, off,
				    "metadata record %u: truncated before its level",
				    id);
	keywords = ld64(p);
	version = ld32(p + 8);
	level = ld32(p + 12);
	p += 16;

	st->out_len = 0;
	st->out_err = 0;
	out_varuint(st, id);
	out_str(st, prov, nprov);
	out_varuint(st, event_id);
	out_str(st, name, nname);
	fields_at = st->out_len;
	if (p == end) {
		/* No parameter metadata at all (a manifest describes it). */
		out_u16(st, 0);
	} else {
		r = conv_fields(st, &p, end, false, 0);
		if (r == NTL_BAD_FIELDS) {
			st->out_len = fields_at;
			out_u16(st, 0);
			p = end;
		} else if (r) {
			goto too_big;
		}
	}
	/* V5 tags: int32 payload size, u8 kind, payload. */
	while (p < end) {
		uint64_t at = off + (uint64_t)(p - start);
		uint32_t size;
		uint8_t kind;

		if (end - p < 5)
			return ehd__nt_fail(nt, -EBADMSG, at,
					    "metadata record %u: truncated tag",
					    id);
		size = ld32(p);
		kind = p[4];
		p += 5;
		if (size > (size_t)(end - p))
			return ehd__nt_fail(nt, -EBADMSG, at,
					    "metadata record %u: tag %u of %u bytes runs past the record",
					    id, kind, size);
		ntl_saw_v5_tag(nt, st);
		if (kind == NTL_TAG_OPCODE) {
			if (!size)
				return ehd__nt_fail(nt, -EBADMSG, at,
						    "metadata record %u: empty OpCode tag",
						    id);
			opcode = p[0];
			has_opcode = true;
		} else if (kind == NTL_TAG_V2_PARAMS) {
			/* It replaces the V1 field list (empty then). */
			st->out_len = fields_at;
			q = p;
			r = conv_fields(st, &q, p + size, true, 0);
			if (r == NTL_BAD_FIELDS) {
				st->out_len = fields_at;
				out_u16(st, 0);
			} else if (r) {
				goto too_big;
			}
		}
		p += size;
	}
	/* OptionalMetadata */
	out_u16(st, (uint16_t)((has_opcode ? 2 : 0) + 9 + 2 + 2));
	if (has_opcode) {
		out_u8(st, EHD__NT_OPT_OPCODE);
		out_u8(st, opcode);
	}
	out_u8(st, EHD__NT_OPT_KEYWORD);
	out_u64(st, keywords);
	out_u8(st, EHD__NT_OPT_LEVEL);
	out_u8(st, (uint8_t)level);
	out_u8(st, EHD__NT_OPT_VERSION);
	out_u8(st, (uint8_t)version);
	if (st->out_err || st->out_len > NTL_ROW_MAX)
		goto too_big;
	return ehd__nt_add_metadata(nt, st->out, st->out_len, off);

too_big:
	if (st->out_err == -ENOMEM)
		return ehd__nt_fail(nt, -ENOMEM, off, "out of memory");
	return ehd__nt_fail(nt, -EFBIG, off,
			    "metadata record %u does not fit a v6 metadata row",
			    id);
}

/* ---- objects ---- */

static int read_tag(struct ehd__nt *nt, uint8_t want, const char *what)
{
	uint64_t off = ehd__nt_offset(nt);
	const uint8_t *p;
	int r;

	r = ehd__nt_read(nt, 1, &p);
	if (r)
		return r;
	if (p[0] != want)
		return ehd__nt_fail(nt, -EBADMSG, off,
				    "expected the EndObject tag (%u) %s, found %u",
				    want, what, p[0]);
	return 0;
}

/*
 * read_object() - the start of the next object: its tag and type
 * @name: gets the type name (NUL-terminated)
 * Return: 1 with an object, 0 at the NullReference that ends the stream,
 * or a negative errno.
 */
static int read_object(struct ehd__nt *nt, char name[NTL_NAME_MAX + 1],
		       int32_t *version, int32_t *min_version)
{
	uint64_t off = ehd__nt_offset(nt);
	const uint8_t *p;
	uint32_t n;
	int r;

	r = ehd__nt_read(nt, 1, &p);
	if (r)
		return r;
	if (p[0] == NTL_NULL)
		return 0;
	if (p[0] != NTL_BEGIN_PRIVATE && p[0] != NTL_BEGIN_OBJECT)
		return ehd__nt_fail(nt, -EBADMSG, off,
				    "expected an object (tag 5) or the end of the stream (tag 1), found %u",
				    p[0]);
	r = ehd__nt_read(nt, 14, &p);
	if (r)
		return r;
	if (p[0] != NTL_BEGIN_PRIVATE && p[0] != NTL_BEGIN_OBJECT)
		return ehd__nt_fail(nt, -EBADMSG, off + 1,
				    "object type: expected tag 5, found %u",
				    p[0]);
	if (p[1] != NTL_NULL)
		return ehd__nt_fail(nt, -EBADMSG, off + 2,
				    "object type: expected the NullReference tag (1), found %u",
				    p[1]);
	*version = (int32_t)ld32(p + 2);
	*min_version = (int32_t)ld32(p + 6);
	n = ld32(p + 10);
	if (n > NTL_NAME_MAX)
		return ehd__nt_fail(nt, -EBADMSG, off + 11,
				    "object type name of %u bytes (at most %u)",
				    n, NTL_NAME_MAX);
	r = ehd__nt_read(nt, n + 1, &p);
	if (r)
		return r;
	memcpy(name, p, n);
	name[n] = 0;
	if (memchr(name, 0, n))
		name[0] = '?';
	if (p[n] != NTL_END_OBJECT)
		return ehd__nt_fail(nt, -EBADMSG, off + 15 + n,
				    "object type '%s': expected the EndObject tag (6), found %u",
				    name, p[n]);
	return 1;
}

/*
 * read_block() - the payload of a block object: int32 size, padding to a
 * 4-byte aligned offset, @len bytes at @p (valid until the next read)
 */
static int read_block(struct ehd__nt *nt, const char *name, const uint8_t **p,
		      size_t *len, uint64_t *off)
{
	static const uint8_t empty[1];
	uint64_t at = ehd__nt_offset(nt);
	uint32_t size, pad;
	int r;

	*len = 0;
	*off = at;
	r = ehd__nt_read(nt, 4, p);
	if (r)
		return r;
	size = ld32(*p);
	if (size > NTL_BLOCK_LIMIT)
		return ehd__nt_fail(nt, -EBADMSG, at,
				    "%s of %d bytes (at most %u)", name,
				    (int32_t)size, NTL_BLOCK_LIMIT);
	pad = (uint32_t)(-ehd__nt_offset(nt) & 3);
	if (pad) {
		r = ehd__nt_read(nt, pad, p);
		if (r)
			return r;
	}
	*off = ehd__nt_offset(nt);
	*len = size;
	*p = empty;
	return size ? ehd__nt_read(nt, size, p) : 0;
}

/* Start walking the rows of an event or metadata block (v3: no header). */
static int start_block(struct ehd__nt *nt, struct ntl *st, const uint8_t *p,
		       size_t len, uint64_t off)
{
	st->blk = p;
	st->len = len;
	st->off = off;
	st->pos = 0;
	st->compressed = false;
	memset(&st->prev, 0, sizeof(st->prev));
	if (st->version >= 4) {
		uint16_t hsize;

		if (len < NTL_BLOCK_HEADER_MIN)
			return ehd__nt_fail(nt, -EBADMSG, off,
					    "block of %zu bytes: no room for its header",
					    len);
		hsize = ld16(p);
		if (hsize < NTL_BLOCK_HEADER_MIN || hsize > len)
			return ehd__nt_fail(nt, -EBADMSG, off,
					    "block header size %u is not in %u..%zu",
					    hsize, NTL_BLOCK_HEADER_MIN, len);
		st->compressed = ld16(p + 2) & EHD__NT_EB_COMPRESSED;
		st->pos = hsize;
	}
	st->in_block = true;
	return 0;
}

/* ---- rows ---- */

static int row_fail(struct ehd__nt *nt, struct ntl *st, size_t at,
		    const char *what)
{
	return ehd__nt_fail(nt, -EBADMSG, st->off + at,
			    "event row: %s (block of %zu bytes at offset %llu)",
			    what, st->len, (unsigned long long)st->off);
}

/*
 * v3: EventSize (of the rest, padding included), MetaDataId, int32
 * ThreadId, TimeStamp, ActivityId, RelatedActivityId, PayloadSize, payload,
 * int32 stack size, stack, padding.
 */
static int row_v3(struct ehd__nt *nt, struct ntl *st, struct ehd__nt_row *row)
{
	const uint8_t *p = st->blk + st->pos;
	size_t left = st->len - st->pos;
	uint32_t size, payload, stack, body;

	if (left < NTL_V3_HEADER)
		return row_fail(nt, st, st->pos, "truncated header");
	size = ld32(p);
	if (size > left - 4)
		return row_fail(nt, st, st->pos, "runs past its block");
	/* After the header: payload, stack size, stack, padding. */
	body = size < NTL_V3_HEADER ? 0 : size + 4 - NTL_V3_HEADER;
	payload = ld32(p + 52);
	if (body < 4 || payload > body - 4)
		return row_fail(nt, st, st->pos, "payload runs past the row");
	stack = ld32(p + NTL_V3_HEADER + payload);
	if (stack > body - 4 - payload)
		return row_fail(nt, st, st->pos, "stack runs past the row");
	row->meta_id = ld32(p + 4);
	row->tid = ld32(p + 8);
	row->cpu = UINT32_MAX;		/* not recorded */
	row->timestamp = ld64(p + 12);
	row->activity = guid_or_null(p + 20);
	row->related = guid_or_null(p + 36);
	row->sorted = true;	/* netperf events are in time order */
	row->payload = p + NTL_V3_HEADER;
	row->payload_size = payload;
	if (stack) {
		row->stack = p + NTL_V3_HEADER + payload + 4;
		row->stack_size = stack;
	}
	st->pos += (size_t)size + 4;
	return 0;
}

/* v4/v5 uncompressed: the v4 header, payload, padding to 4 bytes. */
static int row_v4(struct ehd__nt *nt, struct ntl *st, struct ehd__nt_row *row)
{
	const uint8_t *p = st->blk + st->pos;
	size_t left = st->len - st->pos;
	uint32_t size, payload, meta;

	if (left < NTL_V4_HEADER)
		return row_fail(nt, st, st->pos, "truncated header");
	size = ld32(p);
	if (size > left - 4)
		return row_fail(nt, st, st->pos, "runs past its block");
	payload = ld32(p + 76);
	if (size + 4 < NTL_V4_HEADER ||
	    payload > size + 4 - NTL_V4_HEADER)
		return row_fail(nt, st, st->pos, "payload runs past the row");
	meta = ld32(p + 4);
	row->meta_id = meta & 0x7fffffff;
	row->sorted = !(meta & 0x80000000);	/* bit 31: NOT sorted */
	row->has_seq = true;
	row->seq = ld32(p + 8);
	row->tid = ld64(p + 12);
	row->capture_thread = ld64(p + 20);
	row->cpu = ld32(p + 28);
	row->stack_id = ld32(p + 32);
	row->timestamp = ld64(p + 36);
	row->activity = guid_or_null(p + 44);
	row->related = guid_or_null(p + 60);
	row->payload = p + NTL_V4_HEADER;
	row->payload_size = payload;
	st->pos += (size_t)size + 4;
	/* Rows are padded to a 4-byte stream offset. */
	st->pos += (size_t)(-(st->off + st->pos) & 3);
	if (st->pos > st->len)
		st->pos = st->len;
	return 0;
}

static int get_var(struct ehd__nt *nt, struct ntl *st, const uint8_t **p,
		   unsigned int max, uint64_t *v, const char *what)
{
	size_t n = ehd__nt_get_varuint(*p, st->blk + st->len, max, v);

	if (!n)
		return row_fail(nt, st, (size_t)(*p - st->blk), what);
	*p += n;
	return 0;
}

/* v4/v5 compressed: flags, then what they say is there (notes §1.5). */
static int row_compressed(struct ehd__nt *nt, struct ntl *st,
			  struct ehd__nt_row *row)
{
	const uint8_t *p = st->blk + st->pos, *end = st->blk + st->len;
	struct ntl_prev *h = &st->prev;
	uint64_t v = 0;
	uint8_t flags = *p++;

	if (flags & EHD__NT_ROW_METADATA) {
		if (get_var(nt, st, &p, 5, &v, "bad metadata id"))
			return -EBADMSG;
		h->meta_id = (uint32_t)v;
	}
	if (flags & EHD__NT_ROW_CAPTURE) {
		/* seq = previous + delta + 1, as TraceEvent. */
		if (get_var(nt, st, &p, 5, &v, "bad sequence number"))
			return -EBADMSG;
		h->seq += (uint32_t)v + 1;
		if (get_var(nt, st, &p, 10, &h->capture_thread,
			    "bad capture thread id") ||
		    get_var(nt, st, &p, 5, &v, "bad processor number"))
			return -EBADMSG;
		h->cpu = (uint32_t)v;
	} else if (h->meta_id) {
		h->seq++;
	}
	if ((flags & EHD__NT_ROW_THREAD) &&
	    get_var(nt, st, &p, 10, &h->thread, "bad thread id"))
		return -EBADMSG;
	if (flags & EHD__NT_ROW_STACK) {
		if (get_var(nt, st, &p, 5, &v, "bad stack id"))
			return -EBADMSG;
		h->stack_id = (uint32_t)v;
	}
	if (get_var(nt, st, &p, 10, &v, "bad timestamp"))
		return -EBADMSG;
	h->timestamp += v;
	if (flags & EHD__NT_ROW_LABELS) {
		if (end - p < 16)
			return row_fail(nt, st, (size_t)(p - st->blk),
					"truncated activity id");
		memcpy(h->activity, p, 16);
		p += 16;
	}
	if (flags & EHD__NT_ROW_RELATED) {
		if (end - p < 16)
			return row_fail(nt, st, (size_t)(p - st->blk),
					"truncated related activity id");
		memcpy(h->related, p, 16);
		p += 16;
	}
	if (flags & EHD__NT_ROW_PAYLOAD) {
		if (get_var(nt, st, &p, 5, &v, "bad payload size"))
			return -EBADMSG;
		h->payload_size = (uint32_t)v;
	}
	if (h->payload_size > (size_t)(end - p))
		return row_fail(nt, st, st->pos, "payload runs past its block");
	row->meta_id = h->meta_id;
	row->has_seq = true;
	row->seq = h->seq;
	row->capture_thread = h->capture_thread;
	row->cpu = h->cpu;
	row->tid = h->thread;
	row->stack_id = h->stack_id;
	row->timestamp = h->timestamp;
	row->activity = guid_or_null(h->activity);
	row->related = guid_or_null(h->related);
	row->sorted = flags & EHD__NT_ROW_SORTED;
	row->payload = p;
	row->payload_size = h->payload_size;
	st->pos = (size_t)(p - st->blk) + h->payload_size;
	return 0;
}

/* The next row of the current block into @row (st->pos < st->len). */
static int next_row(struct ehd__nt *nt, struct ntl *st,
		    struct ehd__nt_row *row)
{
	memset(row, 0, sizeof(*row));
	row->offset = st->off + st->pos;
	row->os_ids = true;
	row->pid = st->trace.process_id;
	if (st->version < 4)
		return row_v3(nt, st, row);
	if (st->compressed)
		return row_compressed(nt, st, row);
	return row_v4(nt, st, row);
}

/* A MetadataBlock: every row's payload is a metadata record. */
static int metadata_block(struct ehd__nt *nt, struct ntl *st,
			  const uint8_t *p, size_t len, uint64_t off)
{
	struct ehd__nt_row row;
	int r;

	r = start_block(nt, st, p, len, off);
	while (!r && st->pos < st->len) {
		r = next_row(nt, st, &row);
		if (!r)
			r = ntl_metadata(nt, st, row.payload, row.payload_size,
					 row.offset);
	}
	st->in_block = false;
	return r;
}

/* An SPBlock: i64 timestamp, i32 thread count, {i64 thread, i32 seq}. */
static int sequence_point(struct ehd__nt *nt, const uint8_t *p, size_t len,
			  uint64_t off)
{
	uint32_t n;

	if (len < 12)
		return ehd__nt_fail(nt, -EBADMSG, off,
				    "SPBlock of %zu bytes (at least 12)", len);
	n = ld32(p + 8);
	if (n > (len - 12) / 12)
		return ehd__nt_fail(nt, -EBADMSG, off + 8,
				    "SPBlock: %u threads do not fit in %zu bytes",
				    n, len);
	ehd__nt_sequence_point(nt, 0);
	return 0;
}

/* Read the object after the current one; 1 when an event block starts. */
static int next_object(struct ehd__nt *nt, struct ntl *st)
{
	char name[NTL_NAME_MAX + 1];
	int32_t version, min_version;
	uint64_t at = ehd__nt_offset(nt), off;
	const uint8_t *p;
	size_t i, len;
	int r;

	r = read_object(nt, name, &version, &min_version);
	if (r <= 0) {
		if (!r)
			st->done = true;
		return r;
	}
	for (i = 0; i < sizeof(ntl_blocks) / sizeof(ntl_blocks[0]); i++)
		if (!strcmp(name, ntl_blocks[i].name))
			break;
	/* netperf (v3) has event blocks only. */
	if (i == sizeof(ntl_blocks) / sizeof(ntl_blocks[0]) ||
	    (st->version < 4 && ntl_blocks[i].kind != NTL_BLOCK_EVENT))
		return ehd__nt_fail(nt, -EBADMSG, at,
				    "unknown object '%s' in a version %u stream",
				    name, st->version);
	if (min_version > 2)
		return ehd__nt_fail(nt, -ENOTSUP, at,
				    "%s needs a reader of version %d (this one: 2)",
				    name, min_version);
	r = read_block(nt, name, &p, &len, &off);
	if (r)
		return r;
	switch (ntl_blocks[i].kind) {
	case NTL_BLOCK_EVENT:
		r = start_block(nt, st, p, len, off);
		return r ? r : 1;
	case NTL_BLOCK_METADATA:
		r = metadata_block(nt, st, p, len, off);
		break;
	case NTL_BLOCK_STACK:
		r = ehd__nt_add_stacks(nt, p, len, off);
		break;
	case NTL_BLOCK_SP:
		r = sequence_point(nt, p, len, off);
		break;
	}
	return r ? r : read_tag(nt, NTL_END_OBJECT, "after a block");
}

/* ---- the interface ---- */

static int read_trace(struct ehd__nt *nt, struct ntl *st, bool magic)
{
	char name[NTL_NAME_MAX + 1];
	int32_t version, min_version;
	uint64_t at = ehd__nt_offset(nt);
	struct ehd__nt_trace *t = &st->trace;
	const uint8_t *p;
	int r;

	r = read_object(nt, name, &version, &min_version);
	if (r < 0)
		return r;
	/* The second name is that of netperf versions 1 and 2. */
	if (!r || (strcmp(name, "Trace") &&
		   strcmp(name, "Microsoft.DotNet.Runtime.EventPipeFile")))
		return ehd__nt_fail(nt, -EBADMSG, at,
				    "the stream does not start with a Trace object");
	if (magic ? version > 4 || min_version > 4 : version < 3)
		return ehd__nt_fail(nt, -ENOTSUP, at,
				    "Trace object version %d (minimum reader version %d) is not supported (3 to 6 are)",
				    version, min_version);
	if (version != (magic ? 4 : 3))
		return ehd__nt_fail(nt, -EBADMSG, at,
				    "Trace object version %d %s the Nettrace magic",
				    version, magic ? "with" : "without");
	r = ehd__nt_read(nt, NTL_TRACE_SIZE + 1, &p);
	if (r)
		return r;
	t->year = (int16_t)ld16(p);
	t->month = (int16_t)ld16(p + 2);
	t->day_of_week = (int16_t)ld16(p + 4);
	t->day = (int16_t)ld16(p + 6);
	t->hour = (int16_t)ld16(p + 8);
	t->minute = (int16_t)ld16(p + 10);
	t->second = (int16_t)ld16(p + 12);
	t->ms = (int16_t)ld16(p + 14);
	t->sync_ticks = ld64(p + 16);
	t->tick_frequency = ld64(p + 24);
	t->pointer_size = ld32(p + 32);
	t->process_id = ld32(p + 36);
	t->cpus = ld32(p + 40);
	t->sampling_rate = ld32(p + 44);
	if (p[NTL_TRACE_SIZE] != NTL_END_OBJECT)
		return ehd__nt_fail(nt, -EBADMSG,
				    ehd__nt_offset(nt) - 1,
				    "expected the EndObject tag (6) after the Trace object, found %u",
				    p[NTL_TRACE_SIZE]);
	st->version = (unsigned int)version;
	ehd__nt_set_trace(nt, t, st->version);
	return 0;
}

int ehd__ntl_open(struct ehd__nt *nt, void **state, const uint8_t *h,
		  size_t n)
{
	static const char nettrace[] = EHD__NT_MAGIC "\x14\0\0\0"
				       NTL_SERIALIZATION;
	static const char netperf[] = "\x14\0\0\0" NTL_SERIALIZATION;
	bool magic = n >= EHD__NT_MAGIC_LEN &&
		     !memcmp(h, EHD__NT_MAGIC, EHD__NT_MAGIC_LEN);
	const char *want = magic ? nettrace : netperf;
	size_t wlen = (magic ? sizeof(nettrace) : sizeof(netperf)) - 1;
	const uint8_t *p;
	struct ntl *st;
	int r;

	*state = NULL;
	if (n > wlen || memcmp(h, want, n))
		return ehd__nt_fail(nt, -EBADMSG, 0,
				    "not a FastSerialization stream");
	if (n < wlen) {
		r = ehd__nt_read(nt, wlen - n, &p);
		if (r)
			return r;
		if (memcmp(p, want + n, wlen - n))
			return ehd__nt_fail(nt, -EBADMSG, n,
					    "not a FastSerialization stream (no \"%s\")",
					    NTL_SERIALIZATION);
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		return ehd__nt_fail(nt, -ENOMEM, ehd__nt_offset(nt),
				    "out of memory");
	r = read_trace(nt, st, magic);
	if (r) {
		ehd__ntl_free(st);
		return r;
	}
	*state = st;
	return 0;
}

uint64_t ehd__ntl_skipped(const void *state)
{
	const struct ntl *st = state;

	return st ? st->skipped : 0;
}

int ehd__ntl_next(struct ehd__nt *nt, void *state, struct ehd__nt_row *row)
{
	struct ntl *st = state;
	int r = 0;

	if (!st)
		return -EINVAL;
	while (!st->err) {
		if (st->in_block) {
			if (st->pos < st->len) {
				r = next_row(nt, st, row);
				if (r)
					break;
				/* v3: metadata events among the events. */
				if (st->version < 4 && !row->meta_id) {
					r = ntl_metadata(nt, st, row->payload,
							 row->payload_size,
							 row->offset);
					if (r)
						break;
					continue;
				}
				/* v4/v5: id 0 has no metadata; skipped. */
				if (!row->meta_id) {
					st->skipped++;
					continue;
				}
				return 1;
			}
			st->in_block = false;
			r = read_tag(nt, NTL_END_OBJECT, "after a block");
			if (r)
				break;
		}
		if (st->done)
			return 0;
		r = next_object(nt, st);
		if (r < 0)
			break;
	}
	if (r < 0)
		st->err = r;
	return st->err;
}

void ehd__ntl_free(void *state)
{
	struct ntl *st = state;

	if (st) {
		free(st->out);
		free(st);
	}
}
