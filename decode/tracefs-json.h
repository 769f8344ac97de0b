/* SPDX-License-Identifier: MIT */
/*
 * tracefs-json.h - classic tracepoint fields as JSON (libehdecode, private)
 */
#ifndef EHD_TRACEFS_JSON_H
#define EHD_TRACEFS_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "ehd-buf.h"

struct tep_format_field;

/*
 * Append the value of field @f of the record @raw (@size bytes, common
 * fields included) as JSON; "null" when the field lies outside the record.
 * @long_size: the traced machine's sizeof(long); @big: the record is
 * big-endian.
 */
void ehd__json_tracefs_field(struct ehd_buf *b, const struct tep_format_field *f,
			     const uint8_t *raw, size_t size, int long_size,
			     int big);

#endif /* EHD_TRACEFS_JSON_H */
