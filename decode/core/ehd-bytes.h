/* SPDX-License-Identifier: MIT */
/*
 * ehd-bytes.h - reading numbers out of event bytes (libehdecode, private)
 */
#ifndef EHD_BYTES_H
#define EHD_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <eventheader/eventheader.h>

/* Is this host big-endian? */
static inline int ehd__host_big(void)
{
	return !(EH_FLAG_DEFAULT & EH_FLAG_LITTLE_ENDIAN);
}

/* The unsigned value of @size (1..8) bytes at @p, big- or little-endian. */
static inline uint64_t ehd__load_uint(const uint8_t *p, unsigned int size,
				      int big)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)p[i] << (big ? 8 * (size - 1 - i) : 8 * i);
	return v;
}

/*
 * Are the @n bytes after an event's last field more than the padding
 * perf adds to a raw sample? perf pads raw data to 8 bytes (with the
 * u32 size before it) and leaves the padding as the ring held it (in a
 * ring that has wrapped, bytes of earlier records), so up to 7 bytes of
 * any value are padding; more are data no field declares, which no
 * reader shows.
 */
static inline bool ehd__extra_bytes(size_t n)
{
	return n > 7;
}

#endif /* EHD_BYTES_H */
