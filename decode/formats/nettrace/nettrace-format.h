/* SPDX-License-Identifier: MIT */
/*
 * nettrace-format.h - numbers of the nettrace format and its variable-
 * length integers (libehdecode, private)
 *
 * Version 6 is written; versions 3 to 6 are read. All integers are
 * little-endian. A varuint is LEB128: 7 bits a byte, low bits first, the
 * top bit set while more bytes follow; a varint is a zigzag-coded varuint.
 */
#ifndef EHD_NETTRACE_FORMAT_H
#define EHD_NETTRACE_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/ehd-buf.h"
#include "core/utf8.h"

#define EHD__NT_MAGIC		"Nettrace"
#define EHD__NT_MAGIC_LEN	8
#define EHD__NT_MAJOR		6
#define EHD__NT_MINOR		0
/* Magic + reserved + major + minor. */
#define EHD__NT_HEADER_SIZE	20
/* Largest block payload (24-bit size). */
#define EHD__NT_BLOCK_MAX	0xffffffu
/* Largest event payload TraceEvent reads whole. */
#define EHD__NT_PAYLOAD_MAX	0xffffu

/* v6 block kinds (the high byte of a block header). */
enum ehd__nt_block {
	EHD__NT_END = 0,
	EHD__NT_TRACE = 1,
	EHD__NT_EVENT = 2,
	EHD__NT_METADATA = 3,
	EHD__NT_SEQUENCE_POINT = 4,
	EHD__NT_STACK = 5,
	EHD__NT_THREAD = 6,
	EHD__NT_REMOVE_THREAD = 7,
	EHD__NT_LABEL_LIST = 8,
};

/* Field type codes (the same numbers in v4/v5 metadata, up to 19). */
enum ehd__nt_type_code {
	EHD__NT_OBJECT = 1,
	EHD__NT_BOOLEAN32 = 3,
	EHD__NT_UTF16_UNIT = 4,
	EHD__NT_SBYTE = 5,
	EHD__NT_BYTE = 6,
	EHD__NT_INT16 = 7,
	EHD__NT_UINT16 = 8,
	EHD__NT_INT32 = 9,
	EHD__NT_UINT32 = 10,
	EHD__NT_INT64 = 11,
	EHD__NT_UINT64 = 12,
	EHD__NT_SINGLE = 13,
	EHD__NT_DOUBLE = 14,
	EHD__NT_DECIMAL = 15,
	EHD__NT_DATETIME = 16,
	EHD__NT_GUID = 17,
	EHD__NT_UTF16Z = 18,
	EHD__NT_ARRAY = 19,
	EHD__NT_VARINT = 20,
	EHD__NT_VARUINT = 21,
	EHD__NT_FIXED_ARRAY = 22,
	EHD__NT_UTF8_UNIT = 23,
	EHD__NT_RELLOC = 24,
	EHD__NT_DATALOC = 25,
	EHD__NT_BOOLEAN8 = 26,
	EHD__NT_TYPE_MAX = 27,
};

/* Optional metadata kinds of a v6 metadata row. */
enum ehd__nt_opt {
	EHD__NT_OPT_OPCODE = 1,
	EHD__NT_OPT_KEYWORD = 3,
	EHD__NT_OPT_MESSAGE = 4,
	EHD__NT_OPT_DESCRIPTION = 5,
	EHD__NT_OPT_KEY_VALUE = 6,
	EHD__NT_OPT_PROVIDER_GUID = 7,
	EHD__NT_OPT_LEVEL = 8,
	EHD__NT_OPT_VERSION = 9,
};

/* Label kinds of a label list (bit 7: last label of its list). */
enum ehd__nt_label {
	EHD__NT_LABEL_ACTIVITY = 1,
	EHD__NT_LABEL_RELATED = 2,
	EHD__NT_LABEL_TRACE_ID = 3,
	EHD__NT_LABEL_SPAN_ID = 4,
	EHD__NT_LABEL_KV_STRING = 5,
	EHD__NT_LABEL_KV_VARINT = 6,
	EHD__NT_LABEL_OPCODE = 7,
	EHD__NT_LABEL_KEYWORD = 8,
	EHD__NT_LABEL_LEVEL = 9,
	EHD__NT_LABEL_VERSION = 10,
	EHD__NT_LABEL_LAST = 0x80,
};

/* Thread row information kinds. */
enum ehd__nt_thread_info {
	EHD__NT_THREAD_NAME = 1,
	EHD__NT_THREAD_PID = 2,
	EHD__NT_THREAD_TID = 3,
	EHD__NT_THREAD_KEY_VALUE = 4,
};

/* Flags of a compressed event header. */
enum ehd__nt_row_flag {
	EHD__NT_ROW_METADATA = 0x01,
	EHD__NT_ROW_CAPTURE = 0x02,	/* sequence delta, capture thread, cpu */
	EHD__NT_ROW_THREAD = 0x04,
	EHD__NT_ROW_STACK = 0x08,
	EHD__NT_ROW_LABELS = 0x10,	/* v4/v5: activity id */
	EHD__NT_ROW_RELATED = 0x20,	/* v4/v5 only: related activity id */
	EHD__NT_ROW_SORTED = 0x40,
	EHD__NT_ROW_PAYLOAD = 0x80,
};

/* Sequence point flags. */
#define EHD__NT_SP_FLUSH_THREADS	0x1u
#define EHD__NT_SP_FLUSH_METADATA	0x2u

/* Event block flags. */
#define EHD__NT_EB_COMPRESSED		0x1u
/* Size of an event block header (v6: with its own size field). */
#define EHD__NT_EB_HEADER_SIZE		20

/* The most bytes a varuint of 64 bits takes. */
#define EHD__NT_VAR_MAX			10

/* Write @v as a varuint at @p (room for 10 bytes); returns the bytes used. */
static inline size_t ehd__nt_put_varuint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

static inline int64_t ehd__nt_unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/*
 * Read a varuint of at most @max_bytes (5 for 32-bit, 10 for 64-bit
 * values) from [@p, @end). Returns the bytes read, or 0 if it runs past
 * @end or is longer than @max_bytes.
 */
static inline size_t ehd__nt_get_varuint(const uint8_t *p, const uint8_t *end,
					 unsigned int max_bytes, uint64_t *v)
{
	uint64_t r = 0;
	size_t i;

	for (i = 0; i < max_bytes && p + i < end; i++) {
		r |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if (!(p[i] & 0x80)) {
			*v = r;
			return i + 1;
		}
	}
	return 0;
}

/* Append @v as @size (1..8) little-endian bytes. */
static inline void ehd__nt_put_le(struct ehd_buf *b, uint64_t v,
				  unsigned int size)
{
	uint8_t le[8];
	unsigned int i;

	for (i = 0; i < size; i++)
		le[i] = (uint8_t)(v >> (8 * i));
	ehd__buf_put(b, le, size);
}

/* Overwrite @size bytes at @at with @v, little-endian (a size field). */
static inline void ehd__nt_patch_le(struct ehd_buf *b, size_t at, uint64_t v,
				    unsigned int size)
{
	unsigned int i;

	if (b->err || at + size > b->len)
		return;
	for (i = 0; i < size; i++)
		b->p[at + i] = (char)(v >> (8 * i));
}

static inline void ehd__nt_put_var(struct ehd_buf *b, uint64_t v)
{
	uint8_t t[EHD__NT_VAR_MAX];

	ehd__buf_put(b, t, ehd__nt_put_varuint(t, v));
}

/* A nettrace string: varuint length, then the UTF-8 bytes. */
/*
 * A string of the format (varuint count, then UTF-8), well-formed: what is
 * not becomes U+FFFD (utf8.h). Return: the U+FFFD written.
 */
static inline size_t ehd__nt_put_string(struct ehd_buf *b, const char *s,
					size_t len)
{
	struct ehd_buf t = EHD_BUF_INIT;
	size_t fixed;

	if (ehd__utf8_well_formed(s, len) == len) {
		ehd__nt_put_var(b, len);
		ehd__buf_put(b, s, len);
		return 0;
	}
	fixed = ehd__utf8_put(&t, s, len);
	ehd__nt_put_var(b, t.len);
	ehd__buf_put(b, t.p, t.len);
	if (t.err && !b->err)
		b->err = t.err;
	ehd__buf_free(&t);
	return fixed;
}

/*
 * A GUID between RFC 4122 byte order (EventHeader) and .NET's Guid order
 * (nettrace): the first three groups are little-endian there. The swap is
 * its own inverse.
 */
static inline void ehd__nt_guid_swap(uint8_t dst[16], const uint8_t src[16])
{
	static const uint8_t order[16] = {
		3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15
	};
	unsigned int i;

	for (i = 0; i < 16; i++)
		dst[i] = src[order[i]];
}

/* The clocks perf records with, by the names the "ClockId" key uses. */
static const struct {
	int32_t id;
	const char *name;
} ehd__nt_clocks[] = {
	{ 0, "CLOCK_REALTIME" }, { 1, "CLOCK_MONOTONIC" },
	{ 4, "CLOCK_MONOTONIC_RAW" }, { 7, "CLOCK_BOOTTIME" },
	{ 11, "CLOCK_TAI" },
};

/* The name of clock @id, or NULL. */
static inline const char *ehd__nt_clock_name(int32_t id)
{
	size_t i;

	for (i = 0; i < sizeof(ehd__nt_clocks) / sizeof(ehd__nt_clocks[0]); i++)
		if (ehd__nt_clocks[i].id == id)
			return ehd__nt_clocks[i].name;
	return NULL;
}

/* The id of a clock by its name or number. */
static inline int32_t ehd__nt_clock_id(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(ehd__nt_clocks) / sizeof(ehd__nt_clocks[0]); i++)
		if (!strcmp(ehd__nt_clocks[i].name, s))
			return ehd__nt_clocks[i].id;
	return (int32_t)strtol(s, NULL, 10);
}

#endif /* EHD_NETTRACE_FORMAT_H */
