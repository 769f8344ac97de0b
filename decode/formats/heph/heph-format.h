/* SPDX-License-Identifier: MIT */
/*
 * heph-format.h - numbers of the Heph trace format, shared by its reader
 * and writer (libehdecode, private)
 *
 * A Heph trace (the Heph actor runtime's "Trace Format" 0.1.0, files
 * usually named *.bin.log) is a sequence of packets, all integers
 * big-endian:
 *
 *	metadata: u32 magic, u32 size, u16 n, option name[n], value
 *	event:    u32 magic, u32 size, u32 stream id, u32 stream counter,
 *		  u64 substream id, u64 start, u64 end (ns after the epoch),
 *		  u16 n, description[n], attributes to the packet's end
 *	attribute: u16 n, name[n], u8 type, value
 *
 * A packet's size counts all of it, magic included. The one option is
 * "epoch", a u64 of ns since 1970 UTC. Values are u64, i64 and f64
 * (8 bytes) and strings (u16 length, UTF-8 bytes); a type with the array
 * bit is a u16 count and that many values of the type. The array bit on
 * its own is not a type.
 */
#ifndef EHD_HEPH_FORMAT_H
#define EHD_HEPH_FORMAT_H

#include <stdint.h>

#include "core/ehd-buf.h"

#define EHD__HEPH_META_MAGIC	0x75D11D4Du
#define EHD__HEPH_EVENT_MAGIC	0xC1FC1FB7u

/* Magic, size and option name length. */
#define EHD__HEPH_META_HEAD	10
/* Magic to the description length included. */
#define EHD__HEPH_EVENT_HEAD	42
/* Where the fields of an event packet are. */
#define EHD__HEPH_AT_STREAM	8
#define EHD__HEPH_AT_COUNTER	12
#define EHD__HEPH_AT_SUBSTREAM	16
#define EHD__HEPH_AT_START	24
#define EHD__HEPH_AT_END	32
#define EHD__HEPH_AT_DESC	40

#define EHD__HEPH_EPOCH		"epoch"
#define EHD__HEPH_EPOCH_LEN	5
/* The epoch packet: head, "epoch", u64. */
#define EHD__HEPH_EPOCH_SIZE	(EHD__HEPH_META_HEAD + EHD__HEPH_EPOCH_LEN + 8)

/* Attribute value types. */
enum ehd__heph_type {
	EHD__HEPH_U64 = 0x01,
	EHD__HEPH_I64 = 0x02,
	EHD__HEPH_F64 = 0x03,
	EHD__HEPH_STRING = 0x04,
	EHD__HEPH_ARRAY = 0x80,	/* with one of the above */
};

/* Longest string, description or name, most array elements. */
#define EHD__HEPH_LEN_MAX	0xffffu

/* Append @v as @size big-endian bytes. */
static inline void ehd__heph_put_be(struct ehd_buf *b, uint64_t v,
				    unsigned int size)
{
	uint8_t t[8];
	unsigned int i;

	for (i = 0; i < size; i++)
		t[i] = (uint8_t)(v >> (8 * (size - 1 - i)));
	ehd__buf_put(b, t, size);
}

/* Overwrite @size bytes at @at with @v, big-endian. */
static inline void ehd__heph_patch_be(struct ehd_buf *b, size_t at,
				      uint64_t v, unsigned int size)
{
	unsigned int i;

	if (b->err || at + size > b->len)
		return;
	for (i = 0; i < size; i++)
		b->p[at + i] = (char)(uint8_t)(v >> (8 * (size - 1 - i)));
}

#endif /* EHD_HEPH_FORMAT_H */
