/* SPDX-License-Identifier: MIT */
/*
 * json-values.h - rendering of decoded field values as JSON text
 * (libehdecode, private)
 *
 * Every function appends to a struct ehd_buf and renders one value the way
 * the reference decoder (LinuxTracepoints' EventFormatter, Linux build)
 * does, byte for byte. The functions are pure: no locale, no global state,
 * no allocation besides the buffer's.
 *
 * Quoting. Functions that take @flags render JSON when passed EHD__JSON:
 * text-like values (strings, hex ints, errno, time, UUID, IP addresses,
 * hex bytes, non-finite floats) get double quotes and strings are escaped.
 * With flags 0 they render the same value as plain text (no quotes, no
 * escaping), as the reference's non-JSON "AppendValue" does. The two bits
 * may also be used alone, e.g. EHD__JSON_ESCAPE to build one JSON string
 * out of several pieces. Numbers, booleans and finite floats are never
 * quoted, so their functions take no flags.
 *
 * Escaping (EHD__JSON_ESCAPE): backslash and double quote get a backslash,
 * \b \f \n \r \t their short forms, other bytes below 0x20 become \u00xx
 * (lowercase hex); all other bytes, including 0x7f and bytes >= 0x80, are
 * copied as they are.
 *
 * Text conversions write UTF-8 as the reference does, which is not always
 * valid UTF-8: surrogate code points are written as 3-byte sequences and
 * UTF-32 values above 0x10FFFF as 4- to 7-byte sequences of the original
 * (1993) UTF-8 scheme extended to 32 bits (0x80000000 and up: 0xfe and six
 * continuation bytes).
 *
 * Errors: like all ehd_buf appends, allocation failure is recorded in
 * b->err and later appends are ignored.
 */
#ifndef EHD_JSON_VALUES_H
#define EHD_JSON_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ehd-buf.h"

/* Wrap text-like values in double quotes. */
#define EHD__JSON_QUOTE		0x1u
/* JSON-escape the text of strings (see above). */
#define EHD__JSON_ESCAPE	0x2u
/* Render for JSON: quote and escape. */
#define EHD__JSON		(EHD__JSON_QUOTE | EHD__JSON_ESCAPE)

/* ---- strings ---------------------------------------------------------- */

void ehd__json_string(struct ehd_buf *b, const char *s, size_t len);
void ehd__json_escape(struct ehd_buf *b, const char *s, size_t len);
void ehd__json_key(struct ehd_buf *b, const char *name, size_t len,
		   uint16_t tag, bool space);
void ehd__json_char(struct ehd_buf *b, uint32_t cp, unsigned int flags);
void ehd__json_latin1(struct ehd_buf *b, const void *p, size_t size,
		      unsigned int flags);
/*
 * Length of the valid UTF-8 sequence at @s (@n > 0 bytes left), 0 if the
 * byte there does not start one (it is then read as Latin-1).
 */
size_t ehd__utf8_valid_len(const unsigned char *s, size_t n);
void ehd__json_utf8(struct ehd_buf *b, const void *p, size_t size,
		    unsigned int flags);
void ehd__json_utf16(struct ehd_buf *b, const void *p, size_t size, bool swap,
		     unsigned int flags);
void ehd__json_utf32(struct ehd_buf *b, const void *p, size_t size, bool swap,
		     unsigned int flags);
void ehd__json_utf_bom(struct ehd_buf *b, const void *p, size_t size,
		       unsigned int unit_size, bool swap, unsigned int flags);

/* ---- numbers ---------------------------------------------------------- */

void ehd__json_u64(struct ehd_buf *b, uint64_t v);
void ehd__json_i64(struct ehd_buf *b, int64_t v);
void ehd__json_hex(struct ehd_buf *b, uint64_t v, unsigned int size,
		   unsigned int flags);
void ehd__json_bool(struct ehd_buf *b, int32_t v);
void ehd__json_errno(struct ehd_buf *b, int32_t v, unsigned int flags);
const char *ehd__errno_name(int32_t v);
void ehd__json_time(struct ehd_buf *b, int64_t t, unsigned int flags);
void ehd__json_nanoseconds(struct ehd_buf *b, uint32_t ns);
void ehd__json_float(struct ehd_buf *b, float v, unsigned int flags);
void ehd__json_double(struct ehd_buf *b, double v, unsigned int flags);

/* ---- bytes ------------------------------------------------------------ */

void ehd__json_hex_bytes(struct ehd_buf *b, const void *p, size_t size,
			 unsigned int flags);
void ehd__json_uuid(struct ehd_buf *b, const void *p16, unsigned int flags);
void ehd__json_port(struct ehd_buf *b, const void *p2);
void ehd__json_ipv4(struct ehd_buf *b, const void *p4, unsigned int flags);
void ehd__json_ipv6(struct ehd_buf *b, const void *p16, unsigned int flags);

#endif /* EHD_JSON_VALUES_H */
